"""Answers with citations: retrieve the passages, have the model answer in claims that name
the passages supporting them, and cite each claim to the stored context and page it rests on.

The model sees numbered passages (inside ``<document>`` tags: text from papers is data, never
instructions) and answers with claims, each with the numbers of its passages. A claim is
printed as fact only when every number it gives is a passage it was shown and those passages
support it (:mod:`paperpyramid.asking.support`: its content words mostly theirs, its numbers,
names and reversing words theirs, its negations theirs, no instruction among them); a claim
with no passage, a number it was not shown, or words its passages do not back, is kept apart as
unsupported, with the reason. A "claim" that is mostly a few characters repeated (a small model's
loop, "1.1.1.1…") is no sentence: it is dropped before the support check, and the answer step
says how many were. A paper whose passages address the model backs no claim: text
from documents is data, never instructions. Citations read ``[short title, p. N]`` (``§N Title``
for an article read from its XML alone, which has no pages) and carry
the context id they resolve to.

Strategies are the retrieval modes (``parent`` by default, ``hybrid``, ``cross``, ...), whose
passages are what ``retrieve`` returns for the question, cut to the token budget, and the
LLM-driven strategies of :mod:`paperpyramid.asking.strategies` (``multiquery``, ``walk``,
``walkingrag``, ``pyramid``), whose passages, facts and steps come from
:func:`~paperpyramid.asking.strategies.find`. Whichever found them, the passages shown add up to
at most ``budget_tokens`` (a passage larger than that is cut to what is left of it). Facts are shown to the
model beside the passages, but a claim is only ever cited to passages.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from paperpyramid.asking.strategies import STRATEGIES as LLM_STRATEGIES
from paperpyramid.asking.strategies import find
from paperpyramid.asking.support import check, hostile_articles
from paperpyramid.asking.trace import Fact, Limits, Step
from paperpyramid.db.sqlite import Connection
from paperpyramid.embeddings import Embedder
from paperpyramid.llm import LLM, Message, Usage
from paperpyramid.llm.caps import cap_lists
from paperpyramid.llm.documents import DATA_RULE, document_block
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.api import MODES, retrieve
from paperpyramid.retrieval.filters import Filters
from paperpyramid.retrieval.parent import cut_to_budget

ANSWER_SYSTEM = f"""You answer a researcher's question from numbered passages of scientific papers.
Use only what the passages say. Answer in claims: each claim is one sentence, with the numbers of the passages that support it.
Keep exact numbers and units. If the passages do not answer the question, give no claims.
{DATA_RULE}"""


#: how passages are found: a retrieval mode, or an LLM-driven strategy
STRATEGIES: tuple[str, ...] = (*MODES, *LLM_STRATEGIES)


class Claim(BaseModel):
    text: str = Field(json_schema_extra={"maxLength": 400})
    passages: list[int] = Field(description="numbers of the passages that support the claim", json_schema_extra={"maxItems": 4})


class AnswerReply(BaseModel):
    claims: list[Claim] = Field(json_schema_extra={"maxItems": 10})


@dataclass(slots=True)
class CitedClaim:
    """One sentence of an answer with the passages (``sources``) it cites. ``supported`` is True
    when every passage it names was shown to the model and those passages back it; otherwise
    ``reason`` says why it is not to be taken as fact."""

    text: str
    sources: list[SearchHit]
    supported: bool
    reason: str = ""  # why an unsupported claim is not printed as fact

    def citations(self) -> list[str]:
        """Its sources as ``[short title, p. N]``, each once, in the order cited."""
        return list(dict.fromkeys(cite_short(source) for source in self.sources))


@dataclass(slots=True)
class Answer:
    """The answer to ``question`` by ``strategy``: its ``claims`` (:class:`CitedClaim`, each cited
    to stored passages), the ``passages`` the model was shown, the ``steps`` taken with their
    token usage, and the ``facts`` an LLM-driven strategy noted on the way. ``text`` is the
    answer to print; ``to_json()`` all of it."""

    question: str
    strategy: str
    claims: list[CitedClaim]
    passages: list[SearchHit]
    steps: list[Step] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)

    @property
    def usage(self) -> Usage:
        """Prompt and completion tokens of every step (a reply from the response cache costs none)."""
        return Usage(sum(step.prompt_tokens for step in self.steps), sum(step.completion_tokens for step in self.steps))

    @property
    def text(self) -> str:
        """The supported claims with their citations; the unsupported ones apart, flagged."""
        supported = [f"{claim.text} {' '.join(claim.citations())}" for claim in self.claims if claim.supported]
        flagged = [f"- {claim.text}" for claim in self.claims if not claim.supported]
        body = " ".join(supported) or "The passages found do not answer the question."
        if flagged:
            body += "\n\nNot supported by the passages (not to be taken as fact):\n" + "\n".join(flagged)
        return body

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data: its text, claims with their citations, the passages
        shown, facts, steps and token usage (what ``paperpyramid ask --json`` prints)."""
        return {
            "question": self.question,
            "strategy": self.strategy,
            "answer": self.text,
            "claims": [
                {
                    "text": claim.text,
                    "supported": claim.supported,
                    "reason": claim.reason,
                    "citations": [_citation_json(source) for source in claim.sources],
                }
                for claim in self.claims
            ],
            "citations": [_citation_json(source) for source in _unique(claim.sources for claim in self.claims if claim.supported)],
            "passages": [_citation_json(passage) | {"num_tokens": passage.num_tokens} for passage in self.passages],
            "facts": [
                {
                    "fact": fact.text,
                    "relevance": fact.relevance,
                    "next_source": fact.next_source,
                    "expected_info": fact.expected_info,
                    "context_ids": list(fact.context_ids),
                }
                for fact in self.facts
            ],
            "steps": [
                {
                    "name": step.name,
                    "detail": step.detail,
                    "prompt_tokens": step.prompt_tokens,
                    "completion_tokens": step.completion_tokens,
                    "seconds": round(step.seconds, 3),
                }
                for step in self.steps
            ],
            "usage": {
                "prompt_tokens": self.usage.prompt_tokens,
                "completion_tokens": self.usage.completion_tokens,
                "total_tokens": self.usage.prompt_tokens + self.usage.completion_tokens,
            },
        }


def cite_short(hit: SearchHit) -> str:
    """``[first words of the title, p. N]``; ``[…, §2.1 Methods]`` for an article without pages."""
    words = (hit.citation.article_title or hit.citation.article_id[:8]).split()
    title = " ".join(words[:6]) + ("…" if len(words) > 6 else "")
    place = hit.citation.place()
    return f"[{title}, {place}]" if place else f"[{title}]"


def ask(
    conn: Connection,
    question: str,
    llm: LLM,
    *,
    strategy: str = "parent",
    budget_tokens: int = 4000,
    k: int = 10,
    embedder: Embedder | None = None,
    filters: Filters | None = None,
    max_tokens: int = 800,
    on_step: Callable[[Step], None] | None = None,
    filter_llm: LLM | None = None,
    limits: Limits | None = None,
) -> Answer:
    """Answer ``question`` from the corpus with cited claims (see the module's docstring)."""
    steps: list[Step] = []

    def record(step: Step) -> None:
        steps.append(step)
        if on_step is not None:
            on_step(step)

    started = time.perf_counter()
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")
    facts: list[Fact] = []
    if strategy in LLM_STRATEGIES:
        found = find(
            conn,
            strategy,
            question,
            llm,
            budget_tokens=budget_tokens,
            embedder=embedder,
            filters=filters,
            limits=limits,
            on_step=record,
            filter_llm=filter_llm,
        )
        passages, facts = found.passages, found.facts
    else:
        passages = retrieve(conn, question, mode=strategy, k=k, budget_tokens=budget_tokens, filters=filters, embedder=embedder)
    passages = cut_to_budget(passages, budget_tokens)  # whatever found them, the model is shown no more than the budget
    pages = sorted({f"{cite_short(hit)}" for hit in passages})
    record(
        Step(
            "retrieve",
            f"{strategy}: {len(passages)} passages, {sum(hit.num_tokens for hit in passages)} tokens from {', '.join(pages) or 'nothing'}",
            seconds=time.perf_counter() - started,
        )
    )
    if not passages:
        return Answer(question, strategy, [], [], steps, facts)
    claims, step = _answer(question, passages, facts, llm, max_tokens)
    record(step)
    return Answer(question, strategy, claims, passages, steps, facts)


def _answer(question: str, passages: list[SearchHit], facts: list[Fact], llm: LLM, max_tokens: int) -> tuple[list[CitedClaim], Step]:
    """The model's claims from the passages, each cited and checked against them, and the
    step that says what it cost and what was dropped."""
    started = time.perf_counter()
    reply = llm.complete(_answer_messages(question, passages, facts), AnswerReply, max_tokens=max_tokens)
    cuts = cap_lists(reply.value, "answer")  # 500 claims where the schema allows 10: the first 10
    hostile = hostile_articles(passages)  # a paper that addresses the model backs no claim
    written = [claim for claim in reply.value.claims if claim.text.strip()]
    claims = [_cite(claim, passages, hostile) for claim in written if not _degenerate(" ".join(claim.text.split()))]
    looped = len(written) - len(claims)  # a small model's loop ("1.1.1.1…") is no claim: dropped unchecked, counted
    step = Step(
        "answer",
        f"{len(claims)} claims, {sum(1 for claim in claims if not claim.supported)} unsupported"
        + "".join(f"; {cut}" for cut in cuts)
        + (f"; {looped} dropped: {LOOPED}" if looped else "")
        + (f"; {len(hostile)} paper(s) whose passages address the model back no claim" if hostile else "")
        + (" (from the cache)" if reply.cached else ""),
        0 if reply.cached else reply.usage.prompt_tokens,
        0 if reply.cached else reply.usage.completion_tokens,
        time.perf_counter() - started,
    )
    return claims, step


def _answer_messages(question: str, passages: list[SearchHit], facts: list[Fact]) -> list[Message]:
    """The answer's prompt: the question, the numbered passages and the notes taken while searching."""
    numbered = "\n".join(
        document_block(hit.text, passage=number, source=cite_short(hit).strip("[]")) for number, hit in enumerate(passages, 1)
    )
    noted = ""
    if facts:
        # facts are the model's notes on the passages: a guide to read them by, cited never
        noted = "\n\nNotes taken while searching (cite the passages, not the notes):\n" + document_block(
            "\n".join(f"- {fact.text}" for fact in facts), notes="facts"
        )
    return [
        {"role": "system", "content": ANSWER_SYSTEM},
        {
            "role": "user",
            "content": f"Question: {question}\n\nPassages:\n{numbered}{noted}\n\nAnswer in claims with their passage numbers.",
        },
    ]


def _cite(claim: Claim, passages: list[SearchHit], hostile: set[str]) -> CitedClaim:
    numbers = list(dict.fromkeys(claim.passages))
    valid = [number for number in numbers if 1 <= number <= len(passages)]
    sources = [passages[number - 1] for number in valid]
    text = " ".join(claim.text.split())
    if not valid or len(valid) != len(numbers):
        return CitedClaim(text, sources, False, "it cites no passage" if not numbers else "it cites a passage it was not shown")
    verdict = check(text, sources, hostile)
    return CitedClaim(text, sources, verdict.supported, verdict.reason)


#: a unit of one to four characters repeated eight times more in a row: no sentence reads so
_DEGENERATE = re.compile(r"(.{1,4}?)\1{8,}", re.S)
#: why such a claim is dropped, said in the answer step's detail
LOOPED = "the model's reply ran into repeated text"


def _degenerate(text: str) -> bool:
    """Most of ``text`` (and 20 characters at least) is short units repeated: a model's loop,
    not a sentence (a primer's run of one base, a rule of dashes, inside a sentence is not)."""
    looped = sum(len(match.group()) for match in _DEGENERATE.finditer(text))
    return looped >= max(20, len(text) / 2)


def backed(claim: str, sources: list[SearchHit]) -> bool:
    """Whether the cited passages support ``claim`` (:func:`paperpyramid.asking.support.check`):
    a paraphrase passes; a claim the passages never make, or a negation, number or name they do
    not hold, does not."""
    return check(claim, sources).supported


def _citation_json(hit: SearchHit) -> dict[str, Any]:
    return {
        "context_id": hit.context_id,
        "article_id": hit.citation.article_id,
        "title": hit.citation.article_title,
        "section": hit.citation.section_title,
        "page": hit.citation.page_number,
        "cite": cite_short(hit),
    }


def _unique(groups: Any) -> list[SearchHit]:
    seen: dict[str, SearchHit] = {}
    for group in groups:
        for hit in group:
            seen.setdefault(hit.context_id, hit)
    return list(seen.values())
