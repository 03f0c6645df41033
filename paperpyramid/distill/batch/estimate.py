"""What distilling the corpus would cost, before anything is sent (``distill --dry-run``).

For every article the plan would distil: the requests it takes (one per window, concepts,
abstract; a repair turn is not foreseen), its prompt tokens and its completion tokens, and the
cost at the prices the user sets (per million tokens; none set: tokens only). Tokens are counted
as the OpenAI client estimates them (3.5 characters a token: no tokenizer is at hand).

- Round 1 is exact: the first window's request is built by the distillation code itself (the
  batch model, asked and never answered) and counted as sent.
- The later windows' prompts are exact but for one part: their pages and framing are built as
  the distillation builds them; the insights listed for correction (the window before's take
  from the shared page) are estimated as that window's answer.
- Answers are estimated: a window's insights as :data:`INSIGHT_SHARE` of its new page's tokens
  (:data:`LAST_WINDOW_SHARE` for the last window, which adds no page), concepts as
  :data:`CONCEPT_TOKENS_PER_PAGE` a page, the abstract as :data:`ABSTRACT_TOKENS`; each at most
  ``max_tokens``. The concepts and abstract prompts hold those answers and their framing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db.sqlite import Connection
from paperpyramid.distill.article import NothingToDistil, distil_article, read_article
from paperpyramid.distill.batch.answering import BatchLLM
from paperpyramid.distill.bounds import answer_tokens, fit_text
from paperpyramid.distill.insights import windows
from paperpyramid.distill.pipeline import MAX_TOKENS, ArticleDeferred, plan
from paperpyramid.distill.prompts import (
    AbstractReply,
    ConceptsReply,
    InsightsReply,
    abstract_messages,
    concepts_messages,
    insights_messages,
)
from paperpyramid.llm import Message
from paperpyramid.llm.structured import with_schema_instructions
from paperpyramid.settings import DistillSettings, LLMSettings
from paperpyramid.tokens import TokenCounter

#: a window's answer, as a share of the tokens of the page it adds
INSIGHT_SHARE = 0.25
#: the last window's answer (corrections of the last page's insights), as a share of that page
LAST_WINDOW_SHARE = 0.05
#: concepts written per page of the paper, in tokens
CONCEPT_TOKENS_PER_PAGE = 80
#: an abstract of at most 200 words
ABSTRACT_TOKENS = 280


@dataclass(frozen=True, slots=True)
class ArticleEstimate:
    article_id: str
    title: str | None
    pages: int
    requests: int
    first_round_tokens: int  # the prompt tokens of its round-1 request, exactly
    prompt_tokens: int
    completion_tokens: int

    def cost(self, price_input: float | None, price_output: float | None) -> float | None:
        """The cost at these prices per million tokens; None when neither is set."""
        if price_input is None and price_output is None:
            return None
        return (self.prompt_tokens * (price_input or 0.0) + self.completion_tokens * (price_output or 0.0)) / 1_000_000


def estimate_corpus(
    db_path: str | Path, llm_settings: LLMSettings, settings: DistillSettings, article_ids: Sequence[str] | None = None, redo: bool = False
) -> list[ArticleEstimate]:
    """One estimate per article the plan would distil (the corpus is only read)."""
    from paperpyramid.db import sqlite

    llm = BatchLLM(llm_settings, None)
    max_tokens = answer_tokens(llm, settings.max_tokens or MAX_TOKENS)
    conn: Connection = sqlite.connect(db_path, read_only=True)
    try:
        todo, _, _ = plan(conn, llm.name, article_ids, redo, settings.max_pages)
        return [_estimate(conn, article_id, llm, settings, max_tokens) for article_id in todo]
    finally:
        conn.close()


def _tokens(llm: BatchLLM, messages: Sequence[Message]) -> int:
    return sum(llm.count_tokens(message["content"]) for message in messages)


def _estimate(conn: Connection, article_id: str, llm: BatchLLM, settings: DistillSettings, max_tokens: int) -> ArticleEstimate:
    article = read_article(conn, article_id)
    pages = article.pages[: settings.max_pages] if settings.max_pages else article.pages
    first = 0
    try:
        distil_article(
            article, llm, counter=TokenCounter(), max_tokens=max_tokens, page_tokens=settings.page_tokens, max_pages=settings.max_pages
        )
    except NothingToDistil:
        return ArticleEstimate(article_id, article.title, 0, 0, 0, 0, 0)
    except ArticleDeferred as waiting:
        first = _tokens(llm, llm.asked.pop(waiting.waiting_for)["messages"])
    markdown = {
        page.number: fit_text(page.markdown, settings.page_tokens, llm) if settings.page_tokens else page.markdown for page in pages
    }
    prompt, completion, previous_answer = 0, 0, 0
    steps = windows([page.number for page in pages])
    for index, window in enumerate(steps):
        if index == 0:
            prompt += first
        else:
            framed = with_schema_instructions(insights_messages([(number, markdown[number]) for number in window], [], 0), InsightsReply)
            prompt += _tokens(llm, framed) + previous_answer
        share = LAST_WINDOW_SHARE if index == len(steps) - 1 and len(steps) > 1 else INSIGHT_SHARE
        previous_answer = min(max_tokens, round(share * llm.count_tokens(markdown[window[-1]])))
        completion += previous_answer
    insights = completion
    concepts = min(max_tokens, CONCEPT_TOKENS_PER_PAGE * len(pages))
    abstract = min(max_tokens, ABSTRACT_TOKENS)
    prompt += _tokens(llm, with_schema_instructions(concepts_messages([]), ConceptsReply)) + insights
    prompt += _tokens(llm, with_schema_instructions(abstract_messages(article.title, [], []), AbstractReply)) + insights + concepts
    return ArticleEstimate(article_id, article.title, len(pages), len(steps) + 2, first, prompt, completion + concepts + abstract)


__all__ = ["ABSTRACT_TOKENS", "CONCEPT_TOKENS_PER_PAGE", "INSIGHT_SHARE", "LAST_WINDOW_SHARE", "ArticleEstimate", "estimate_corpus"]
