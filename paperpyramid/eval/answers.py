"""Answer quality on a QA set: each question answered by each strategy (``Corpus.ask``), the
answer graded against the set's reference answer by a judge model, and every citation checked.

Figures per strategy, overall and per question kind:

- ``correct`` / ``partial`` / ``wrong``: the judge's verdict on the answer's supported claims
  (the text a reader takes as fact) against the reference answer, as shares of the questions
  judged; ``score`` = correct + 0.5 × partial. An answer without a supported claim is wrong
  without asking the judge; a question whose answer failed (the answering model's reply
  unreadable even after repair) is wrong and counted in ``failed``; one whose judgment failed
  is left out of the shares and counted in ``unjudged``.
- ``claims`` per question and the share of them flagged unsupported.
- the citations of supported claims: ``resolves`` (the cited context is stored, on the page the
  citation names), ``holds gold evidence`` (its stored text matches one of the question's
  evidence strings by the retrieval metric, :class:`~paperpyramid.eval.retrieval.Evidence`),
  ``backs its claim`` (its text alone holds enough of the claim's words,
  :func:`~paperpyramid.asking.answer.backed`), and ``valid``: it resolves, and it holds gold
  evidence or backs its claim. A supported claim is backed by its citations together, so a
  claim with one citation always has a valid one; ``holds gold evidence`` is the stricter figure.
- tokens per question: the answer's (the strategy's calls and the answering model's) and the
  judge's, apart.

The reference and the candidate answer reach the judge inside ``<document>`` tags: the
candidate was written by a model from papers' text, and both are data, never instructions.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, Field

from paperpyramid.asking.answer import Answer, backed
from paperpyramid.asking.trace import Step, error_tokens, reply_tokens
from paperpyramid.db.queries import passages
from paperpyramid.db.sqlite import Connection
from paperpyramid.errors import LLMOutputError
from paperpyramid.eval.retrieval import Evidence, Question, prepare, render_table
from paperpyramid.llm import LLM
from paperpyramid.llm.documents import DATA_RULE, document_block

JUDGE_SYSTEM = f"""You grade a candidate answer to a question about scientific papers against the reference answer.
correct: the candidate states what the reference states (the same numbers, units and names), in any words; extra detail is fine if it does not contradict the reference.
partial: the candidate gets part of the reference right, or is vaguer than it, without contradicting it.
wrong: the candidate contradicts the reference, misses its point, or does not answer.
Give the verdict and one short sentence why.
{DATA_RULE}"""

VERDICTS = ("correct", "partial", "wrong")


class Verdict(BaseModel):
    verdict: Literal["correct", "partial", "wrong"]
    reason: str = Field(json_schema_extra={"maxLength": 300})


#: answers ``question`` by ``strategy``, passing each step to ``on_step`` as it ends (``Corpus.ask``)
Asker = Callable[[str, str, Callable[[Step], None]], Answer]


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """One citation of a supported claim, followed to the corpus."""

    context_id: str
    page: int | None
    resolves: bool
    holds_evidence: bool
    backs_claim: bool

    @property
    def valid(self) -> bool:
        return self.resolves and (self.holds_evidence or self.backs_claim)


@dataclass(slots=True)
class AnswerResult:
    question: Question
    strategy: str
    answer: str  # the supported claims, what the judge grades
    verdict: str | None  # correct, partial, wrong; None when the judge's reply was unreadable
    reason: str
    claims: int
    unsupported: int
    citations: list[CitationCheck]
    answer_tokens: int
    judge_tokens: int
    seconds: float
    failure: str | None = None  # the answering model's reply was unreadable: graded wrong


@dataclass(slots=True)
class StrategyReport:
    strategy: str
    results: list[AnswerResult] = field(default_factory=list)


def check_citations(conn: Connection, question: Question, answer: Answer) -> list[CitationCheck]:
    """Every citation of the answer's supported claims: whether it resolves to a stored context
    on the cited page, and whether that context's text holds the question's gold evidence or
    backs the claim by itself (see the module docstring)."""
    evidence = [Evidence(text) for text in question.evidence]
    checks = []
    for claim in answer.claims:
        if not claim.supported:
            continue
        for source in claim.sources:
            page = source.citation.page_number
            row = passages.context_text_page(conn, source.context_id)
            if row is None or row[1] != page:
                checks.append(CitationCheck(source.context_id, page, False, False, False))
                continue
            # the text a reader finds by following the citation: the stored context's
            prepared, stored = prepare(row[0]), replace(source, text=row[0])
            checks.append(
                CitationCheck(source.context_id, page, True, any(item.matches(prepared) for item in evidence), backed(claim.text, [stored]))
            )
    return checks


def supported_text(answer: Answer) -> str:
    """The answer's supported claims, the text a reader takes as fact (without the citations)."""
    return " ".join(claim.text for claim in answer.claims if claim.supported)


def judge_answer(judge: LLM, question: Question, candidate: str) -> tuple[Verdict, int]:
    """The judge's verdict on ``candidate`` against the question's reference answer, and the
    tokens it cost."""
    messages = [
        {"role": "system", "content": JUDGE_SYSTEM},
        {
            "role": "user",
            "content": f"Question: {question.question}\n\nReference answer:\n{document_block(question.answer, answer='reference')}\n\n"
            f"Candidate answer:\n{document_block(candidate, answer='candidate')}\n\nGrade the candidate against the reference.",
        },
    ]
    reply = judge.complete(messages, Verdict, max_tokens=200)
    return reply.value, sum(reply_tokens(reply))


def grade(conn: Any, question: Question, strategy: str, ask: Asker, judge: LLM) -> AnswerResult:
    """One question answered by ``strategy`` and graded. An unreadable reply of the answering
    model or the judge is recorded in the result; an outage propagates."""
    spent: list[int] = []  # the steps' tokens as they end: still known when a later step fails
    started = time.perf_counter()
    try:
        answer = ask(question.question, strategy, lambda step: spent.append(step.prompt_tokens + step.completion_tokens))
    except LLMOutputError as exc:
        return AnswerResult(
            question,
            strategy,
            "",
            "wrong",
            "the answering model's reply was unreadable",
            0,
            0,
            [],
            sum(spent) + sum(error_tokens(exc)),
            0,
            time.perf_counter() - started,
            str(exc),
        )
    seconds = time.perf_counter() - started
    candidate = supported_text(answer)
    unsupported = sum(1 for claim in answer.claims if not claim.supported)
    tokens = answer.usage.prompt_tokens + answer.usage.completion_tokens
    checks = check_citations(conn, question, answer)
    if not candidate:
        return AnswerResult(
            question, strategy, "", "wrong", "no supported claim", len(answer.claims), unsupported, checks, tokens, 0, seconds
        )
    try:
        verdict, judge_tokens = judge_answer(judge, question, candidate)
    except LLMOutputError as exc:
        return AnswerResult(
            question,
            strategy,
            candidate,
            None,
            f"the judge's reply was unreadable: {exc}",
            len(answer.claims),
            unsupported,
            checks,
            tokens,
            sum(error_tokens(exc)),
            seconds,
        )
    return AnswerResult(
        question,
        strategy,
        candidate,
        verdict.verdict,
        verdict.reason,
        len(answer.claims),
        unsupported,
        checks,
        tokens,
        judge_tokens,
        seconds,
    )


def evaluate_answers(
    conn: Any,
    questions: Sequence[Question],
    strategies: Sequence[str],
    ask: Asker,
    judge: LLM,
    on_question: Callable[[AnswerResult], None] | None = None,
) -> list[StrategyReport]:
    """Every question answered by every strategy, interleaved (so that a warm cache or a busy
    endpoint favours no strategy), and graded."""
    reports = {strategy: StrategyReport(strategy) for strategy in strategies}
    for question in questions:
        for strategy in strategies:
            result = grade(conn, question, strategy, ask, judge)
            reports[strategy].results.append(result)
            if on_question is not None:
                on_question(result)
    return list(reports.values())


def summarise(results: Sequence[AnswerResult]) -> dict[str, Any]:
    """The figures for a set of results (one strategy, one kind or all); a share with nothing
    to divide is None."""
    count = len(results)
    if count == 0:
        return {"questions": 0}
    judged = [result for result in results if result.verdict is not None]
    claims = sum(result.claims for result in results)
    citations = [check for result in results for check in result.citations]
    figures: dict[str, Any] = {"questions": count}
    for verdict in VERDICTS:
        figures[verdict] = _share(sum(1 for result in judged if result.verdict == verdict), len(judged))
    figures["score"] = None if not judged else figures["correct"] + 0.5 * figures["partial"]
    figures |= {
        "failed": sum(1 for result in results if result.failure is not None),
        "unjudged": count - len(judged),
        "claims": claims,
        "claims_per_question": claims / count,
        "unsupported": _share(sum(result.unsupported for result in results), claims),
        "citations": len(citations),
        "resolves": _share(sum(1 for check in citations if check.resolves), len(citations)),
        "holds_evidence": _share(sum(1 for check in citations if check.holds_evidence), len(citations)),
        "backs_claim": _share(sum(1 for check in citations if check.backs_claim), len(citations)),
        "valid": _share(sum(1 for check in citations if check.valid), len(citations)),
        "answer_tokens": statistics.mean(result.answer_tokens for result in results),
        "judge_tokens": statistics.mean(result.judge_tokens for result in results),
        "p50_s": statistics.median(result.seconds for result in results),
    }
    return figures


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def report_to_json(reports: Sequence[StrategyReport], *, answerer: str = "", judge: str = "") -> dict[str, Any]:
    """The figures per strategy (overall and per kind) and a row per question and strategy."""
    return {
        "answerer": answerer,
        "judge": judge,
        "strategies": {
            report.strategy: {
                "overall": summarise(report.results),
                "by_kind": {
                    kind: summarise([result for result in report.results if result.question.kind == kind])
                    for kind in sorted({result.question.kind for result in report.results})
                },
            }
            for report in reports
        },
        "questions": [_row(result) for report in reports for result in report.results],
    }


def _row(result: AnswerResult) -> dict[str, Any]:
    return {
        "id": result.question.id,
        "kind": result.question.kind,
        "strategy": result.strategy,
        "question": result.question.question,
        "reference": result.question.answer,
        "answer": result.answer,
        "verdict": result.verdict,
        "reason": result.reason,
        "claims": result.claims,
        "unsupported": result.unsupported,
        "citations": [
            {
                "context_id": check.context_id,
                "page": check.page,
                "resolves": check.resolves,
                "holds_evidence": check.holds_evidence,
                "backs_claim": check.backs_claim,
                "valid": check.valid,
            }
            for check in result.citations
        ],
        "answer_tokens": result.answer_tokens,
        "judge_tokens": result.judge_tokens,
        "seconds": round(result.seconds, 3),
        "failure": result.failure,
    }


_COLUMNS = (
    ("correct", "correct"),
    ("partial", "partial"),
    ("wrong", "wrong"),
    ("score", "score"),
    ("claims_per_question", "claims/q"),
    ("unsupported", "unsupp."),
    ("citations", "cites"),
    ("resolves", "resolves"),
    ("holds_evidence", "gold ev."),
    ("backs_claim", "backs"),
    ("valid", "valid"),
    ("answer_tokens", "tokens/q"),
    ("judge_tokens", "judge/q"),
    ("failed", "failed"),
    ("unjudged", "unjudged"),
)
#: figures printed as whole numbers
_COUNTS = frozenset(["citations", "answer_tokens", "judge_tokens", "failed", "unjudged"])


def render_report(reports: Sequence[StrategyReport]) -> str:
    """Every strategy side by side, overall and per kind."""
    return render_table(report_to_json(reports)["strategies"], [report.strategy for report in reports], "strategy", _COLUMNS, _COUNTS)
