"""One article distilled: pages -> insights (two-page windows) -> concepts -> one abstract,
insights linked to their contexts, every item counted and embedded. Pure of the database
apart from reading the article; the caller stores the result through the single writer."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, LevelVectors
from paperpyramid.db.queries import distill_articles
from paperpyramid.db.sqlite import Connection
from paperpyramid.distill.bounds import ITEM_OVERHEAD, fit_list, fit_text, prompt_room
from paperpyramid.distill.insights import CallLog, DraftInsight, distil_insights
from paperpyramid.distill.links import Linker
from paperpyramid.distill.page_texts import Page, article_pages
from paperpyramid.distill.prompts import PROMPT_VERSION, AbstractReply, ConceptsReply, abstract_messages, concepts_messages
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import BadInput, PaperPyramidError
from paperpyramid.llm import LLM
from paperpyramid.tokens import TokenCounter

MAX_CONCEPT_CHARS = 2000
#: marks the prompt version of an article of which only the first pages were distilled
PARTIAL = "+first"
MAX_ABSTRACT_CHARS = 3000
#: a title takes at most this many tokens of a prompt
MAX_TITLE_TOKENS = 200


class NothingToDistil(BadInput):
    """The article has no text outside its references."""


@dataclass(frozen=True, slots=True)
class ArticleText:
    article_id: str
    title: str | None
    pages: list[Page]


def read_article(conn: Connection, article_id: str) -> ArticleText:
    """The article's title and pages; KeyError when there is no such article."""
    title = distill_articles.article_title(conn, article_id)
    return ArticleText(article_id, title, article_pages(conn, article_id))


def distil_article(
    article: ArticleText,
    llm: LLM,
    *,
    counter: TokenCounter,
    embedder: Embedder | None = None,
    max_tokens: int = 2048,
    page_tokens: int | None = None,
    max_pages: int | None = None,
) -> ArticlePyramid:
    """The article's pyramid; raises what the model calls raise (the caller records it)."""
    if not article.pages:
        raise NothingToDistil("the article has no text outside its references to distil")
    started = time.perf_counter()
    log = CallLog()
    pages = article.pages[:max_pages] if max_pages else article.pages
    if len(pages) < len(article.pages):
        log.warnings.append(f"only the first {len(pages)} of {len(article.pages)} pages were distilled (max_pages)")
    try:
        drafts = distil_insights(pages, llm, log, max_tokens=max_tokens, page_tokens=page_tokens)
        concepts = _concepts(drafts, llm, log, max_tokens)
        abstract = _abstract(article.title, concepts, drafts, llm, log, max_tokens)
    except PaperPyramidError as exc:
        exc.calls = log.calls  # type: ignore[attr-defined]  # what the article cost before it failed
        raise
    linker = Linker(article.pages)
    insights = [
        InsightRow(item.text, item.pages, item.section, counter.count(item.text), linker.link(item.text, item.pages)) for item in drafts
    ]
    unlinked = sum(1 for row in insights if not row.contexts)
    if unlinked:
        log.warnings.append(f"{unlinked} of {len(insights)} insights match no context on their pages and have no drill-down")
    for row in concepts:
        row.num_tokens = counter.count(row.text)
    # a partial distillation says so in its version, so that a full run does it again
    version = PROMPT_VERSION if len(pages) == len(article.pages) else f"{PROMPT_VERSION}{PARTIAL}{len(pages)}pages"
    pyramid = ArticlePyramid(
        article.article_id,
        llm.name,
        version,
        insights,
        concepts,
        abstract,
        counter.count(abstract) if abstract else 0,
        log.calls,
        log.warnings,
        0.0,
    )
    if embedder is not None:
        pyramid.vectors = embed_pyramid(pyramid, embedder)
    pyramid.seconds = time.perf_counter() - started
    return pyramid


def embed_pyramid(pyramid: ArticlePyramid, embedder: Embedder) -> LevelVectors:
    """One vector per insight, concept and abstract, by the configured embedder."""
    levels = {
        "insights": [row.text for row in pyramid.insights],
        "concepts": [row.text for row in pyramid.concepts],
        "abstracts": [pyramid.abstract] if pyramid.abstract else [],
    }
    by_level = {
        level: (embedder.embed_passages(texts) if texts else np.zeros((0, embedder.dimension), dtype=np.float32))
        for level, texts in levels.items()
    }
    return LevelVectors(embedder.name, embedder.dimension, embedder.window, by_level)


def _fitting(texts: list[str], room: int, llm: LLM, log: CallLog, step: str, what: str) -> list[str]:
    """As many of ``texts`` (from the start) as fit in ``room`` tokens; a warning says when not all."""
    count = fit_list(texts, llm, room)
    if count < len(texts):
        log.warnings.append(f"{step}: only the first {count} of {len(texts)} {what} fit the model's window")
    return texts[:count]


def _concepts(drafts: list[DraftInsight], llm: LLM, log: CallLog, max_tokens: int) -> list[ConceptRow]:
    if not drafts:
        return []
    room = prompt_room(llm, max_tokens, ConceptsReply, *(message["content"] for message in concepts_messages([])))
    shown = _fitting([item.text for item in drafts], room, llm, log, "concepts", "insights")
    reply: ConceptsReply = log.complete(llm, concepts_messages(shown), ConceptsReply, "concepts", max_tokens)
    concepts = []
    for item in reply.concepts:
        text = " ".join(item.text.split()) or None
        valid = sorted({number - 1 for number in item.insight_ids if 1 <= number <= len(shown)})
        if len(valid) < len(set(item.insight_ids)):
            log.warnings.append(f"concepts: insight numbers {sorted(set(item.insight_ids))} include some that do not exist; dropped")
        if text is None or not valid:
            log.warnings.append(f"concepts: a concept without {'text' if text is None else 'insights'} was dropped")
            continue
        concepts.append(ConceptRow(text[:MAX_CONCEPT_CHARS], 0, valid))
    return concepts


def _abstract(
    title: str | None, concepts: list[ConceptRow], drafts: list[DraftInsight], llm: LLM, log: CallLog, max_tokens: int
) -> str | None:
    """The abstract, from the title, the concepts (at most half the prompt's room) and the
    insights (the rest), each fitted to the model's window."""
    if not drafts:
        return None
    room = prompt_room(llm, max_tokens, AbstractReply, *(message["content"] for message in abstract_messages(None, [], [])))
    title = fit_text(title, min(MAX_TITLE_TOKENS, room // 8), llm) if title else title
    room -= llm.count_tokens(title or "")
    shown_concepts = _fitting([row.text for row in concepts], room // 2, llm, log, "abstract", "concepts")
    room -= sum(llm.count_tokens(text) + ITEM_OVERHEAD for text in shown_concepts)
    shown = _fitting([item.text for item in drafts], room, llm, log, "abstract", "insights")
    reply: AbstractReply = log.complete(llm, abstract_messages(title, shown_concepts, shown), AbstractReply, "abstract", max_tokens)
    text = " ".join(reply.abstract.split())
    if not text:
        log.warnings.append("abstract: the model wrote an empty abstract")
        return None
    return text[:MAX_ABSTRACT_CHARS]
