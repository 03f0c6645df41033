"""Retrieval quality on a QA set, by the metric of ``../shared/qa/README.md``.

A question's rank is that of the first retrieved passage that matches one of its evidence
strings: after collapsing whitespace and lowercasing, the passage contains the string, or it
contains at least 60% of the string's distinct words (lowercase ``\\w+`` tokens). Reported per
mode and per question kind: MRR@10, Recall@5, Recall@20, evidence recall within 2k / 4k / 8k
tokens (the passages concatenated in the order handed to the model, cut at the budget with
the contexts' tokenizer, all-MiniLM-L6-v2's; a passage cut short is matched on what is left),
all-evidence@20 for the cross-section and cross-paper kinds, and latency p50 / p95.

A hit on a distilled level of the knowledge pyramid (an insight, a concept, ...) matches when
one of its source contexts does (the drill-down), and costs in the budgets its own tokens plus
its sources' (what the drill-down hands the model).
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperpyramid.retrieval import SearchHit
from paperpyramid.tokens import TokenCounter

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


def load_questions(path: Path) -> list[Question]:
    """The questions of a QA ``.jsonl`` file (fields ``id``, ``question``, ``kind``,
    ``evidence``, ``pdf``)."""
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        pdfs = item.get("pdf") or []
        questions.append(
            Question(str(item["id"]), str(item["question"]), str(item.get("kind", "")), tuple(item["evidence"]), tuple(pdfs if isinstance(pdfs, list) else [pdfs]))
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


def _prepared(passage: SearchHit) -> list[PreparedPassage]:
    # a distilled item counts through its drill-down: the verbatim contexts it came from
    return [prepare(source.text) for source in passage.sources] if passage.level != "contexts" else [prepare(passage.text)]


def score_question(question: Question, passages: Sequence[SearchHit], seconds: float, counter: TokenCounter) -> QuestionResult:
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
    within = {budget: _within(evidence, passages, budget, counter) for budget in BUDGETS}
    tokens = sum(passage.num_tokens for passage in passages)
    return QuestionResult(question, rank, within, len(matched_at_20) == len(evidence), seconds, len(passages), tokens)


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


Retriever = Callable[[str], Sequence[SearchHit]]


def evaluate(questions: Sequence[Question], retrievers: dict[str, Retriever], counter: TokenCounter | None = None,
             on_question: Callable[[str], None] | None = None) -> list[ModeReport]:
    """Every question through every retriever, interleaved (so that a warm cache or a busy
    machine favours no mode), scored."""
    counter = counter or TokenCounter()
    reports = {mode: ModeReport(mode) for mode in retrievers}
    for question in questions:
        for mode, retriever in retrievers.items():
            started = time.perf_counter()
            passages = list(retriever(question.question))
            seconds = time.perf_counter() - started
            reports[mode].results.append(score_question(question, passages, seconds, counter))
            if on_question is not None:
                on_question(mode)
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
    return figures


def report_to_json(reports: Sequence[ModeReport]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for report in reports:
        kinds = sorted({result.question.kind for result in report.results})
        out[report.mode] = {
            "overall": summarise(report.results),
            "by_kind": {kind: summarise([result for result in report.results if result.question.kind == kind]) for kind in kinds},
            "ranks": {result.question.id: result.rank for result in report.results},
        }
    return out


_COLUMNS = (("mrr@10", "MRR@10"), ("r@5", "R@5"), ("r@20", "R@20"), ("within_2k", "≤2k"), ("within_4k", "≤4k"), ("within_8k", "≤8k"),
            ("all_evidence@20", "all@20"), ("p50_ms", "p50 ms"), ("p95_ms", "p95 ms"))


def render_report(reports: Sequence[ModeReport]) -> str:
    """Every mode side by side, overall and per kind."""
    data = report_to_json(reports)
    modes = [report.mode for report in reports]
    lines = []
    groups = ["overall", *sorted({kind for mode in modes for kind in data[mode]["by_kind"]})]
    for group in groups:
        figures = {mode: (data[mode]["overall"] if group == "overall" else data[mode]["by_kind"].get(group, {})) for mode in modes}
        count = next((figure.get("questions", 0) for figure in figures.values()), 0)
        lines.append(f"{group} ({count} questions)")
        lines.append("  " + "mode".ljust(10) + "".join(label.rjust(9) for _, label in _COLUMNS))
        for mode in modes:
            row = figures[mode]
            cells = []
            for key, _ in _COLUMNS:
                value = row.get(key)
                cells.append("-".rjust(9) if value is None else (f"{value:.0f}" if key.endswith("_ms") else f"{value:.3f}").rjust(9))
            lines.append("  " + mode.ljust(10) + "".join(cells))
        lines.append("")
    return "\n".join(lines)
