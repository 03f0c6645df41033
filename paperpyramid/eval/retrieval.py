"""Retrieval quality on a QA set, by the metric of ``../shared/qa/README.md``: every retrieval
mode, pyramid level and LLM-driven strategy side by side.

A question's rank is that of the first retrieved passage that matches one of its evidence
strings: after collapsing whitespace and lowercasing, the passage contains the string, or it
contains at least 60% of the string's distinct words (lowercase ``\\w+`` tokens). Reported per
mode and per question kind: MRR@10, Recall@5, Recall@20, evidence recall within 2k / 4k / 8k
tokens (the passages concatenated in the order handed to the model, cut at the budget with
the contexts' tokenizer, all-MiniLM-L6-v2's; a passage cut short is matched on what is left;
``parent`` is asked once per budget, as ``ask`` asks it, because what it hands over depends on
the budget: its windows shrink and the next hits fill what they leave), all-evidence@20 for the cross-section and cross-paper kinds, latency p50 / p95, the passages'
tokens and the LLM tokens spent finding them, per question.

A hit on a distilled level of the knowledge pyramid (an insight, a concept, ...) matches when
one of its source contexts does (the drill-down), and costs in the budgets its own tokens plus
its sources' (what the drill-down hands the model).

A strategy (:data:`~paperpyramid.asking.strategies.STRATEGIES`: ``multiquery``, ``walk``,
``walkingrag``, ``pyramid``) is scored on the passages it hands to the answering model, in that
order, cut to its token budget; its "llm tokens" are the prompt and completion tokens of every
model call it made for the question (a reply from the response cache costs none). A strategy
whose model answers unreadably even after repair (``LLMOutputError``) scores no passages for
that question and is counted as a failure; an outage (``ServiceUnavailable``) stops the run.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from paperpyramid.asking.strategies import STRATEGIES, find
from paperpyramid.asking.trace import Found, Step, error_tokens
from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import LLM
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters
from paperpyramid.retrieval.levels import LEVELS
from paperpyramid.tokens import TokenCounter

if TYPE_CHECKING:
    from paperpyramid.db.sqlite import Connection
    from paperpyramid.embeddings import Embedder


class Corpus(Protocol):
    """What the evaluation asks of a corpus (:class:`paperpyramid.Corpus` is one): the
    evaluation sits below the corpus and takes it as an argument."""

    @property
    def conn(self) -> Connection: ...

    @property
    def embedder(self) -> Embedder: ...

    def has_vectors(self) -> bool: ...

    def best_mode(self) -> str: ...

    def retrieve(
        self,
        query: str,
        *,
        mode: str | None = ...,
        k: int = ...,
        budget_tokens: int | None = ...,
        filters: Filters | None = ...,
        level: str = ...,
    ) -> list[SearchHit]: ...


BUDGETS = (2000, 4000, 8000)
CROSS_KINDS = ("cross-section", "cross-paper")
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    question: str
    kind: str
    evidence: tuple[str, ...]
    pdfs: tuple[str, ...]
    answer: str = ""  # the short reference answer, which ``eval answers`` grades against


def load_questions(path: Path) -> list[Question]:
    """The questions of a QA ``.jsonl`` file (fields ``id``, ``question``, ``kind``,
    ``evidence``, ``pdf``, ``answer``)."""
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        pdfs = item.get("pdf") or []
        questions.append(
            Question(
                str(item["id"]),
                str(item["question"]),
                str(item.get("kind", "")),
                tuple(item["evidence"]),
                tuple(pdfs if isinstance(pdfs, list) else [pdfs]),
                str(item.get("answer") or ""),
            )
        )
    return questions


class Evidence:
    """One evidence string, prepared for matching."""

    def __init__(self, text: str) -> None:
        self.text = " ".join(text.split()).lower()
        self.words = set(_WORDS.findall(self.text))

    def matches(self, passage: PreparedPassage) -> bool:
        collapsed, words = passage
        if self.text and self.text in collapsed:
            return True
        return bool(self.words) and len(self.words & words) >= 0.6 * len(self.words)


#: a passage as the metric compares it: whitespace collapsed and lowercased, and its words
PreparedPassage = tuple[str, set[str]]


def prepare(text: str) -> PreparedPassage:
    collapsed = " ".join(text.split()).lower()
    return collapsed, set(_WORDS.findall(collapsed))


@dataclass(slots=True)
class QuestionResult:
    question: Question
    rank: int | None  # 1-based rank of the first matching passage
    within: dict[int, bool]  # budget -> evidence inside the cut context
    all_evidence_at_20: bool
    seconds: float
    passages: int
    tokens: int
    llm_tokens: int = 0  # prompt and completion tokens a strategy spent on the question
    failure: str | None = None  # why a strategy found nothing: its model's reply was unreadable


def _prepared(passage: SearchHit) -> list[PreparedPassage]:
    # a distilled item counts through its drill-down: the verbatim contexts it came from
    return [prepare(source.text) for source in passage.sources] if passage.level != "contexts" else [prepare(passage.text)]


def score_question(
    question: Question,
    passages: Sequence[SearchHit],
    seconds: float,
    counter: TokenCounter,
    *,
    llm_tokens: int = 0,
    failure: str | None = None,
    by_budget: Mapping[int, Sequence[SearchHit]] | None = None,
) -> QuestionResult:
    evidence = [Evidence(text) for text in question.evidence]
    rank = None
    matched_at_20: set[int] = set()
    for position, passage in enumerate(passages, 1):
        prepared = _prepared(passage)
        hits = [index for index, item in enumerate(evidence) if any(item.matches(one) for one in prepared)]
        if hits and rank is None:
            rank = position
        if position <= 20:
            matched_at_20.update(hits)
    within = {budget: _within(evidence, by_budget[budget] if by_budget else passages, budget, counter) for budget in BUDGETS}
    tokens = sum(passage.num_tokens for passage in passages)
    return QuestionResult(question, rank, within, len(matched_at_20) == len(evidence), seconds, len(passages), tokens, llm_tokens, failure)


def _within(evidence: list[Evidence], passages: Sequence[SearchHit], budget: int, counter: TokenCounter) -> bool:
    used = 0
    for passage in passages:
        if used >= budget:
            return False
        tokens = passage.num_tokens or counter.count(passage.text)
        if passage.level != "contexts":
            # a distilled item matches through its sources (the drill-down) and costs what the
            # drill-down hands the model: its own tokens and its sources'; whole, or not at all
            tokens += sum(source.num_tokens or counter.count(source.text) for source in passage.sources)
            if used + tokens > budget:
                return False
            if any(item.matches(one) for one in _prepared(passage) for item in evidence):
                return True
            used += tokens
            continue
        text = passage.text
        if used + tokens > budget:
            text = _prefix(text, budget - used, counter)
        prepared = prepare(text)
        if any(item.matches(prepared) for item in evidence):
            return True
        used += tokens
    return False


def _prefix(text: str, tokens: int, counter: TokenCounter) -> str:
    encoding = counter.tokenizer.encode(text, add_special_tokens=False)
    if tokens <= 0:
        return ""
    if len(encoding.offsets) <= tokens:
        return text
    return text[: encoding.offsets[tokens - 1][1]]


@dataclass(slots=True)
class ModeReport:
    mode: str
    results: list[QuestionResult] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Retrieved:
    """What a retriever hands over for one question: the passages in the order the answering
    model reads them, the LLM tokens spent finding them, and why it failed (then no passages)."""

    passages: Sequence[SearchHit]
    llm_tokens: int = 0
    failure: str | None = None
    #: what the retriever hands over when asked for each budget of :data:`BUDGETS`, where that
    #: is not ``passages`` cut (``parent`` fills a budget); the evidence-within figures use them
    by_budget: Mapping[int, Sequence[SearchHit]] | None = None
    #: the seconds of the unbudgeted call alone, when the retriever made more calls
    seconds: float | None = None


#: a question in, its passages out: plain (a retrieval mode) or with what finding them cost
Retriever = Callable[[str], Sequence[SearchHit] | Retrieved]
#: :func:`paperpyramid.asking.strategies.find`, or a stand-in with its signature
Finder = Callable[..., Found]


def retrievers(
    corpus: Corpus,
    names: Sequence[str],
    *,
    k: int = 100,
    filters: Filters | None = None,
    llm: LLM | None = None,
    filter_llm: LLM | None = None,
    budget_tokens: int = 8000,
    finder: Finder = find,
) -> dict[str, Retriever]:
    """A retriever per name. A strategy name (:data:`STRATEGIES`) runs through ``finder`` with
    ``llm`` (and ``filter_llm`` for multiquery's filter), its passages cut to ``budget_tokens``,
    searching with the corpus's embedder when the corpus has its vectors, else BM25; a pyramid
    level (``insights``, or ``insights:bm25``) searches that level, hybrid when the corpus has
    vectors; any other name is a retrieval mode (``k`` passages, uncut)."""
    filters = filters or Filters()
    embedder = corpus.embedder if any(name in STRATEGIES for name in names) and corpus.has_vectors() else None
    out: dict[str, Retriever] = {}
    for name in names:
        level, _, mode = name.partition(":")
        if name in STRATEGIES:
            if llm is None:
                raise ValueError(f"the strategy {name!r} needs an LLM")
            out[name] = _strategy(corpus.conn, name, llm, filter_llm, budget_tokens, embedder, filters, finder)
        elif level in LEVELS and level != "contexts":
            out[name] = _mode(corpus, mode or corpus.best_mode(), k, filters, level)
        else:
            out[name] = _mode(corpus, name, k, filters, "contexts")
    return out


def _mode(corpus: Corpus, mode: str, k: int, filters: Filters, level: str) -> Retriever:
    if mode != "parent":
        return lambda question: corpus.retrieve(question, mode=mode, k=k, filters=filters, level=level)

    def parent(question: str) -> Retrieved:
        # asked for each budget as ``ask`` asks for its own: the windows shrink, the next hits
        # fill what they leave; the ranks (MRR, recall@k) and the latency are the plain call's
        started = time.perf_counter()
        passages = corpus.retrieve(question, mode="parent", filters=filters)
        seconds = time.perf_counter() - started
        by_budget = {budget: corpus.retrieve(question, mode="parent", filters=filters, budget_tokens=budget) for budget in BUDGETS}
        return Retrieved(passages, by_budget=by_budget, seconds=seconds)

    return parent


def _strategy(
    conn: Any, strategy: str, llm: LLM, filter_llm: LLM | None, budget_tokens: int, embedder: Any, filters: Filters, finder: Finder
) -> Retriever:
    def run(question: str) -> Retrieved:
        spent: list[int] = []  # the steps' tokens as they end: still known when a later step fails

        def count(step: Step) -> None:
            spent.append(step.prompt_tokens + step.completion_tokens)

        try:
            found = finder(
                conn,
                strategy,
                question,
                llm,
                budget_tokens=budget_tokens,
                embedder=embedder,
                filters=filters,
                on_step=count,
                filter_llm=filter_llm,
            )
        except LLMOutputError as exc:
            return Retrieved([], sum(spent) + sum(error_tokens(exc)), str(exc))
        return Retrieved(found.passages, found.prompt_tokens + found.completion_tokens)

    return run


def evaluate(
    questions: Sequence[Question],
    retrievers: dict[str, Retriever],
    counter: TokenCounter | None = None,
    on_question: Callable[[str, QuestionResult], None] | None = None,
) -> list[ModeReport]:
    """Every question through every retriever, interleaved (so that a warm cache or a busy
    machine favours no mode), scored."""
    counter = counter or TokenCounter()
    reports = {mode: ModeReport(mode) for mode in retrievers}
    for question in questions:
        for mode, retriever in retrievers.items():
            started = time.perf_counter()
            got = retriever(question.question)
            seconds = time.perf_counter() - started
            retrieved = got if isinstance(got, Retrieved) else Retrieved(list(got))
            result = score_question(
                question,
                list(retrieved.passages),
                retrieved.seconds or seconds,
                counter,
                llm_tokens=retrieved.llm_tokens,
                failure=retrieved.failure,
                by_budget=retrieved.by_budget,
            )
            reports[mode].results.append(result)
            if on_question is not None:
                on_question(mode, result)
    return list(reports.values())


def summarise(results: Sequence[QuestionResult]) -> dict[str, Any]:
    """The figures for a set of results (one mode, one kind or all)."""
    count = len(results)
    if count == 0:
        return {"questions": 0}
    ranks = [result.rank for result in results]
    figures: dict[str, Any] = {
        "questions": count,
        "mrr@10": sum(1.0 / rank for rank in ranks if rank is not None and rank <= 10) / count,
        "r@5": sum(1 for rank in ranks if rank is not None and rank <= 5) / count,
        "r@20": sum(1 for rank in ranks if rank is not None and rank <= 20) / count,
    }
    for budget in BUDGETS:
        figures[f"within_{budget // 1000}k"] = sum(1 for result in results if result.within[budget]) / count
    cross = [result for result in results if result.question.kind in CROSS_KINDS]
    if cross:
        figures["all_evidence@20"] = sum(1 for result in cross if result.all_evidence_at_20) / len(cross)
    latencies = sorted(result.seconds for result in results)
    figures["p50_ms"] = statistics.median(latencies) * 1000
    figures["p95_ms"] = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] * 1000
    figures["tokens"] = statistics.mean(result.tokens for result in results)
    figures["llm_tokens"] = statistics.mean(result.llm_tokens for result in results)
    figures["failures"] = sum(1 for result in results if result.failure is not None)
    return figures


def report_to_json(reports: Sequence[ModeReport]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for report in reports:
        kinds = sorted({result.question.kind for result in report.results})
        out[report.mode] = {
            "overall": summarise(report.results),
            "by_kind": {kind: summarise([result for result in report.results if result.question.kind == kind]) for kind in kinds},
            "ranks": {result.question.id: result.rank for result in report.results},
            "llm_tokens": {result.question.id: result.llm_tokens for result in report.results},
            "failures": {result.question.id: result.failure for result in report.results if result.failure is not None},
        }
    return out


_COLUMNS = (
    ("mrr@10", "MRR@10"),
    ("r@5", "R@5"),
    ("r@20", "R@20"),
    ("within_2k", "≤2k"),
    ("within_4k", "≤4k"),
    ("within_8k", "≤8k"),
    ("all_evidence@20", "all@20"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
    ("tokens", "tokens"),
    ("llm_tokens", "llm tok"),
    ("failures", "failed"),
)
#: figures printed as whole numbers
_COUNTS = frozenset(["p50_ms", "p95_ms", "tokens", "llm_tokens", "failures"])


def render_report(reports: Sequence[ModeReport]) -> str:
    """Every mode side by side, overall and per kind: the metric's figures, the passages' tokens
    and the LLM tokens spent finding them (means per question), and the questions a strategy
    failed on."""
    return render_table(report_to_json(reports), [report.mode for report in reports], "mode", _COLUMNS, _COUNTS)


def render_table(
    data: dict[str, Any], names: Sequence[str], heading: str, columns: Sequence[tuple[str, str]], counts: frozenset[str]
) -> str:
    """Rows ``names`` side by side, overall and per question kind: ``data[name]`` holds
    ``overall`` and ``by_kind`` figures; ``columns`` are (key, label); keys in ``counts`` print
    as whole numbers, the rest with three decimals."""
    width = max([10, *(len(name) + 2 for name in names)])
    lines = []
    groups = ["overall", *sorted({kind for name in names for kind in data[name]["by_kind"]})]
    for group in groups:
        figures = {name: (data[name]["overall"] if group == "overall" else data[name]["by_kind"].get(group, {})) for name in names}
        count = next((figure.get("questions", 0) for figure in figures.values()), 0)
        lines.append(f"{group} ({count} questions)")
        lines.append("  " + heading.ljust(width) + "".join(label.rjust(9) for _, label in columns))
        for name in names:
            row = figures[name]
            cells = []
            for key, _ in columns:
                value = row.get(key)
                cells.append("-".rjust(9) if value is None else (f"{value:.0f}" if key in counts else f"{value:.3f}").rjust(9))
            lines.append("  " + name.ljust(width) + "".join(cells))
        lines.append("")
    return "\n".join(lines)
