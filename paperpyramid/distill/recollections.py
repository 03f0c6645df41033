"""Recollections: statements that connect papers, kept up to date as articles arrive.

Each newly distilled article is shown to the model with its abstract and concepts, the
abstracts of the ``related`` other articles it is linked to by a citation (either way) and then
nearest to it, each linked one with its citing sentence, and the recollections nearest to it; the
model writes new recollections or updates shown ones. Every recollection keeps its sources
(``recollections_sources``: the articles, and the insights behind the concepts it rests on)
and every change a row of ``recollection_history``. One transaction per article; an article
whose step failed stays pending and is tried again by the next run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from paperpyramid import citation_graph
from paperpyramid.db import pyramid as db_pyramid
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import LLMCallRecord, _record_calls, _transaction
from paperpyramid.db.queries import recollections as stored
from paperpyramid.db.sqlite import Connection
from paperpyramid.distill.bounds import ITEM_OVERHEAD, cap_lists, fit_list, fit_text, prompt_room
from paperpyramid.distill.insights import call_record
from paperpyramid.distill.prompts import PROMPT_VERSION, RecollectionItem, RecollectionsReply, recollections_messages
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import LLMOutputError, ServiceUnavailable
from paperpyramid.llm import LLM, LLMReply, Message
from paperpyramid.settings import DistillSettings
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)

#: existing recollections shown with a new article
SHOWN = 8
#: a recollection is a statement, not an essay
MAX_CHARS = 1000


def recollect(
    conn: Connection,
    llm: LLM,
    settings: DistillSettings,
    *,
    counter: TokenCounter,
    embedder: Embedder | None,
    max_tokens: int = 2048,
) -> int:
    """Run the step for every distilled article that has not had it; return the recollections
    created or updated. Raises ServiceUnavailable (the caller reports it); other failures of one
    article are logged and leave it pending."""
    changed = 0
    for article_id in stored.pending_articles(conn):
        try:
            changed += _recollect_article(conn, article_id, llm, settings, counter, embedder, max_tokens)
        except ServiceUnavailable:
            raise
        except LLMOutputError as exc:
            log.warning("recollections for article %s: %s", article_id, exc)
    return changed


def _paper(conn: Connection, article_id: str) -> str:
    title = stored.title(conn, article_id)
    abstract = stored.abstract_text(conn, article_id)
    return f"Title: {title or 'unknown'}\nAbstract: {abstract if abstract is not None else '(none)'}"


def _links(conn: Connection, article_id: str) -> dict[str, str]:
    """The articles linked to ``article_id`` by a citation, either way, each with a line saying
    how (and the first citing sentence), those it cites first."""
    lines: dict[str, str] = {}
    for link in citation_graph.cites(conn, article_id, in_corpus=True):
        said = f': "{link.passages[0].sentence}"' if link.passages else ""
        lines.setdefault(str(link.cited_article_id), f"\nCitation: NEW cites this paper{said}")
    for link in citation_graph.cited_by(conn, article_id):
        said = f': "{link.passages[0].sentence}"' if link.passages else ""
        lines.setdefault(link.citing_article_id, f"\nCitation: this paper cites NEW{said}")
    return lines


def _nearest(
    conn: Connection, level: str, article_id: str, embedder: Embedder | None, k: int, latest: Callable[[int], list[str]]
) -> list[str]:
    """Ids of the ``k`` items of ``level`` nearest to the article's abstract (other articles'
    abstracts, or recollections); without vectors, the ``latest`` ones."""
    if embedder is not None:
        row = db_vectors.find_embedder(conn, embedder.name)
        abstract = stored.abstract_id(conn, article_id)
        query = None if row is None or abstract is None else db_vectors.item_vector(conn, row, "abstracts", abstract)
        if row is not None and query is not None:
            return [item for item, _ in db_vectors.nearest_items(conn, row, level, query, k + 1)]
    return latest(k + 1)


def _recollect_article(
    conn: Connection,
    article_id: str,
    llm: LLM,
    settings: DistillSettings,
    counter: TokenCounter,
    embedder: Embedder | None,
    max_tokens: int,
) -> int:
    """The step for one article: show the model the article beside the others it connects
    with and the recollections nearest to it, and store what it writes, in one transaction;
    return the recollections created or updated. An article with no other to connect with is
    marked done without a call."""
    links = _links(conn, article_id)
    others = _others_to_connect(conn, article_id, settings, embedder, links)
    if not others:
        with _transaction(conn):
            db_pyramid.mark_recollected(conn, article_id)
        return 0
    shown_ids = _nearest(conn, "recollections", article_id, embedder, SHOWN, lambda limit: stored.latest_recollections(conn, limit))
    shown = [(number, rid, stored.recollection_text(conn, rid)) for number, rid in enumerate(shown_ids[:SHOWN], 1)]
    concepts = stored.concepts(conn, article_id)
    labels = {"NEW": article_id, **{f"P{index}": other for index, other in enumerate(others, 1)}}
    messages, shown, concepts = _prompt(conn, labels, links, shown, concepts, llm, max_tokens)
    started = time.perf_counter()
    reply = llm.complete(messages, RecollectionsReply, max_tokens=max_tokens)
    call = call_record("recollections", reply, time.perf_counter() - started)
    for warning in cap_lists(reply.value, "recollections"):
        log.warning("article %s: %s", article_id, warning)
    return _store_reply(conn, article_id, reply, call, labels, {number: rid for number, rid, _ in shown}, concepts, counter, embedder)


def _others_to_connect(
    conn: Connection, article_id: str, settings: DistillSettings, embedder: Embedder | None, links: dict[str, str]
) -> list[str]:
    """At most ``settings.related`` other articles to connect the new one with: those it is
    linked to by a citation, then those whose abstracts are nearest to its own. The new article
    meets the corpus as it stood: only articles whose recollections step ran before count."""
    candidates = _nearest(
        conn, "abstracts", article_id, embedder, 4 * settings.related + 20, lambda limit: stored.latest_abstracts(conn, article_id, limit)
    )
    owners = stored.abstract_owners(conn, candidates)
    # asked of the candidates only: reading every such article's id cost 68 ms at 50k articles
    earlier = stored.recollected_among(conn, list(dict.fromkeys([*links, *owners])))
    return [owner for owner in dict.fromkeys([*links, *owners]) if owner != article_id and owner in earlier][: settings.related]


def _prompt(
    conn: Connection,
    labels: dict[str, str],
    links: dict[str, str],
    shown: list[tuple[int, str, str]],
    concepts: list[tuple[str, str]],
    llm: LLM,
    max_tokens: int,
) -> tuple[list[Message], list[tuple[int, str, str]], list[tuple[str, str]]]:
    """The prompt, and the recollections and concepts it shows, every part fitted to the
    model's window: the new paper, the others and the recollections shown a quarter of the
    room each at most, the new paper's concepts (from the first) the rest."""
    room = prompt_room(llm, max_tokens, RecollectionsReply, *(message["content"] for message in recollections_messages("", [], [])))
    paper = fit_text(_paper(conn, labels["NEW"]), room // 4, llm)
    others = [
        (label, fit_text(_paper(conn, aid) + links.get(aid, ""), room // (4 * (len(labels) - 1)), llm))
        for label, aid in labels.items()
        if label != "NEW"
    ]
    shown = shown[: fit_list([text for _, _, text in shown], llm, room // 4)]
    room -= sum(llm.count_tokens(text) + ITEM_OVERHEAD for text in [paper, *(text for _, text in others), *(text for _, _, text in shown)])
    concepts = concepts[: fit_list([text for _, text in concepts], llm, room)]
    new_paper = paper + "\nConcepts:\n" + "\n".join(f"{number}. {text}" for number, (_, text) in enumerate(concepts, 1))
    return recollections_messages(new_paper, others, [(number, text) for number, _, text in shown]), shown, concepts


def _store_reply(
    conn: Connection,
    article_id: str,
    reply: LLMReply[RecollectionsReply],
    call: LLMCallRecord,
    labels: dict[str, str],
    shown: dict[int, str],
    concepts: list[tuple[str, str]],
    counter: TokenCounter,
    embedder: Embedder | None,
) -> int:
    """Store the recollections the reply writes (``shown``: the id of each recollection shown,
    by its number), their vectors and the call, and mark the article done, in one transaction;
    return how many were created or updated (none when another run did the article meanwhile)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    changed: dict[str, str] = {}
    with _transaction(conn):
        if stored.is_recollected(conn, article_id):
            return 0  # another run did it while the model was answering
        for item in reply.value.recollections:
            accepted = _connecting(item, labels, article_id)
            if accepted is None:
                continue
            text, papers = accepted
            insight_ids = [
                insight_id
                for number in item.concept_ids
                if 1 <= number <= len(concepts)
                for insight_id in stored.concept_insights(conn, concepts[number - 1][0])
            ]
            sources = [(aid, None) for aid in sorted(papers)] + [(article_id, iid) for iid in dict.fromkeys(insight_ids)]
            rid = db_pyramid.save_recollection(
                conn, shown.get(item.id), text, counter.count(text), article_id, sources, reply.model, PROMPT_VERSION, now
            )
            changed[rid] = text
        if embedder is not None and changed:
            row = db_vectors.ensure_embedder(conn, embedder.name, embedder.dimension, embedder.window)
            db_vectors.delete_level_vectors(conn, "recollections", list(changed))
            db_vectors.insert_level_vectors(conn, row, "recollections", list(changed), embedder.embed_passages(list(changed.values())))
        _record_calls(conn, article_id, PROMPT_VERSION, [call])
        db_pyramid.mark_recollected(conn, article_id)
    return len(changed)


def _connecting(item: RecollectionItem, labels: dict[str, str], article_id: str) -> tuple[str, set[str]] | None:
    """The recollection's statement (one line, at most :data:`MAX_CHARS`) and the articles it
    connects; None unless it connects the new article with at least one other."""
    text = " ".join(item.text.split())[:MAX_CHARS]
    papers = {labels[label.strip().upper()] for label in item.papers if label.strip().upper() in labels}
    if len(text) < 12 or article_id not in papers or len(papers) < 2:
        return None
    return text, papers
