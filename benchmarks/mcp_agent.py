"""A scripted agent over the MCP tools, against ``parent`` retrieval, on the shared QA questions.

The agent is a fixed policy, no LLM: it talks to the real MCP server (``build_server`` over the
corpus, reached in-process by the official MCP client, so every answer is what a model would be
handed) and for each question

1. calls ``search(question, mode="bm25", k=K)``;
2. for the hits in rank order calls ``context_window(hit, before=W, after=W)``;
3. stops calling tools once the text it has been handed reaches the token budget (4,000).

Its passages, each once, in the order it first saw them, are scored by the project's metric
(:func:`paperpyramid.eval.retrieval.score_question`: evidence matched, by substring or 60% of
its words, within the first 4,000 tokens). Beside it, on the same questions and corpus:
``corpus.retrieve(question, mode="parent", budget_tokens=4000)``, scored the same way.

Tokens are counted with the contexts' tokenizer (all-MiniLM-L6-v2's): ``text`` is the passage
text the tools returned (repeats included: the model reads them again), ``response`` the whole
tool answers as the model receives them (compact JSON: ids, citations and text).

    .venv/bin/python benchmarks/mcp_agent.py /tmp/mcp_shared.sqlite [--questions ../shared/qa/corpus-qa.jsonl] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from paperpyramid.corpus import Corpus
from paperpyramid.eval.retrieval import BUDGETS, Question, load_questions, score_question
from paperpyramid.retrieval import Citation, SearchHit
from paperpyramid.services.mcp.server import build_server
from paperpyramid.tokens import TokenCounter

DEFAULT_QUESTIONS = Path(__file__).resolve().parents[2] / "shared" / "qa" / "corpus-qa.jsonl"
BUDGET = 4000


def _hit(passage: dict[str, Any], counter: TokenCounter) -> SearchHit:
    """A tool's passage as the metric reads it."""
    citation = Citation(passage.get("article_id") or "", None, passage["section_id"], None, None, passage["page"])
    return SearchHit(passage["context_id"], passage["text"], 0.0, citation, counter.count(passage["text"]))


async def agent(client: Client, question: str, counter: TokenCounter, *, k: int, window: int, budget: int) -> dict[str, Any]:
    """The policy above: the passages it collected (first sight order), its tokens and calls."""
    seen: dict[str, SearchHit] = {}
    text_tokens = response_tokens = calls = 0

    async def use(tool: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        nonlocal text_tokens, response_tokens, calls
        result = await client.call_tool(tool, arguments)
        calls += 1
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {result.content[0].text}")  # type: ignore[union-attr]
        response_tokens += sum(counter.count(block.text) for block in result.content if block.type == "text")
        found = result.structured_content or {}
        passages = list(found.get("hits") or found.get("passages") or [])
        for passage in passages:
            text_tokens += passage["tokens"]
            seen.setdefault(passage["context_id"], _hit(passage, counter))
        return passages

    hits = await use("search", {"query": question, "mode": "bm25", "k": k})
    for hit in hits:
        if text_tokens >= budget:
            break
        await use("context_window", {"context_id": hit["context_id"], "before": window, "after": window})
    return {"passages": list(seen.values()), "text_tokens": text_tokens, "response_tokens": response_tokens, "calls": calls}


async def run(db: Path, questions: list[Question], *, k: int, window: int, budget: int) -> dict[str, Any]:
    counter = TokenCounter()
    rows: list[dict[str, Any]] = []
    with Corpus.open(db, check_same_thread=False) as corpus:
        server = build_server(corpus)
        async with Client(server) as client:
            for question in questions:
                started = time.perf_counter()
                walked = await agent(client, question.question, counter, k=k, window=window, budget=budget)
                agent_seconds = time.perf_counter() - started
                started = time.perf_counter()
                parent = corpus.retrieve(question.question, mode="parent", budget_tokens=budget)
                parent_seconds = time.perf_counter() - started
                scored_agent = score_question(question, walked["passages"], agent_seconds, counter)
                scored_parent = score_question(question, parent, parent_seconds, counter)
                rows.append({
                    "id": question.id, "kind": question.kind,
                    "agent_within": scored_agent.within[budget], "agent_any": scored_agent.rank is not None,
                    "agent_text_tokens": walked["text_tokens"], "agent_response_tokens": walked["response_tokens"],
                    "agent_unique_tokens": scored_agent.tokens, "agent_calls": walked["calls"], "agent_seconds": agent_seconds,
                    "parent_within": scored_parent.within[budget], "parent_tokens": scored_parent.tokens, "parent_seconds": parent_seconds,
                })  # fmt: skip
    return {"db": str(db), "k": k, "window": window, "budget": budget, "tokenizer": counter.name, "questions": rows}


def summarise(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    groups: dict[str, list[dict[str, Any]]] = {"all": rows}
    for row in rows:
        groups.setdefault(row["kind"], []).append(row)
    summary = {}
    for name, group in groups.items():
        summary[name] = {
            "n": len(group),
            "agent_recall": statistics.fmean(row["agent_within"] for row in group),
            "parent_recall": statistics.fmean(row["parent_within"] for row in group),
            "agent_text_tokens": statistics.fmean(row["agent_text_tokens"] for row in group),
            "agent_response_tokens": statistics.fmean(row["agent_response_tokens"] for row in group),
            "agent_calls": statistics.fmean(row["agent_calls"] for row in group),
            "parent_tokens": statistics.fmean(row["parent_tokens"] for row in group),
        }
    return summary


def render(report: dict[str, Any]) -> str:
    summary = summarise(report["questions"])
    lines = [
        f"corpus {report['db']}: {len(report['questions'])} questions; agent = search bm25 k={report['k']}, then context_window "
        f"±{report['window']} on the hits in order until {report['budget']} text tokens; parent = retrieve(mode='parent', budget_tokens={report['budget']})",
        f"evidence recall within {report['budget']} tokens ({report['tokenizer']} tokenizer); tokens are means per question",
        "",
        f"{'kind':<14} {'n':>4} {'agent R':>8} {'parent R':>9} {'agent text tok':>15} {'agent resp tok':>15} {'calls':>6} {'parent tok':>11}",
    ]
    for name, row in summary.items():
        lines.append(f"{name:<14} {row['n']:>4} {row['agent_recall']:>8.3f} {row['parent_recall']:>9.3f} {row['agent_text_tokens']:>15.0f} "
                     f"{row['agent_response_tokens']:>15.0f} {row['agent_calls']:>6.1f} {row['parent_tokens']:>11.0f}")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", type=Path, help="a corpus of the QA set's PDFs")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS, help="the QA .jsonl (default: ../shared/qa/corpus-qa.jsonl)")
    parser.add_argument("--k", type=int, default=5, help="hits the agent's search asks for")
    parser.add_argument("--window", type=int, default=1, help="passages context_window reads on either side of a hit")
    parser.add_argument(
        "--budget", type=int, default=BUDGET, choices=BUDGETS, help="text tokens after which the agent stops; both are scored within it"
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--json", type=Path, default=None, help="write every question's figures here")
    args = parser.parse_args(argv)
    if not args.questions.is_file():
        print(f"no QA file at {args.questions}", file=sys.stderr)
        return 1
    questions = load_questions(args.questions)[: args.limit]
    report = anyio.run(lambda: run(args.db, questions, k=args.k, window=args.window, budget=args.budget))
    if args.json:
        args.json.write_text(json.dumps({**report, "summary": summarise(report["questions"])}, indent=1), encoding="utf-8")
    print(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
