"""The ``multiquery`` strategy: the model rewrites the question into a few keyword-rich
variants, each is searched (hybrid, or BM25 without vectors), the lists are fused (RRF), a
small model (``filter_llm``, by default the same) judges every candidate in parallel within a
time budget and drops the irrelevant ones, and the best ``parent_hits`` survivors are widened
with the passages around them (parent documents), cut to the token budget.

A judgment that is not back in time, or that fails, keeps its passage (the filter only ever
removes what it judged irrelevant), and the step says how many were not judged. The
strategy keeps to its :class:`~paperpyramid.asking.trace.Limits`' token budget: once the
variants and the judgments back so far have spent it, no further judgment starts (the few in
flight may pass it by one passage each) and the rest are kept unjudged. Once nobody waits for
the result (:meth:`~paperpyramid.asking.trace.Tracker.before_call`), no variant or judgment
starts: the strategy raises :class:`~paperpyramid.cancel.Cancelled`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from pydantic import BaseModel, Field

from paperpyramid.asking.trace import Step, Tracker, reply_tokens
from paperpyramid.db.sqlite import Connection
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import LLM
from paperpyramid.llm.documents import DATA_RULE, document_block
from paperpyramid.retrieval import SearchHit, bm25, hybrid, parent
from paperpyramid.retrieval.api import retrieve
from paperpyramid.retrieval.filters import Filters

VARIANTS_SYSTEM = """You rewrite a researcher's question into search queries for a corpus of scientific papers.
Write short queries full of the specific terms (names, methods, measures, synonyms) that passages answering it would contain."""

FILTER_SYSTEM = f"""You judge whether a passage from a scientific paper helps to answer a question.
Say relevant only if the passage states something the answer needs.
{DATA_RULE}"""


class Variants(BaseModel):
    queries: list[str] = Field(json_schema_extra={"maxItems": 5, "items": {"type": "string", "maxLength": 200}})


class Judgment(BaseModel):
    relevant: bool


def multiquery(
    conn: Connection,
    question: str,
    llm: LLM,
    *,
    filter_llm: LLM | None = None,
    variants: int = 3,
    depth: int = 20,
    parent_hits: int = 5,
    budget_tokens: int | None = None,
    filter_seconds: float = 60.0,
    concurrency: int = 4,
    embedder: Embedder | None = None,
    filters: Filters | None = None,
    on_step: Callable[[Step], None] | None = None,
    tracker: Tracker | None = None,
) -> list[SearchHit]:
    """The passages the strategy hands to the answering model (see the module's docstring);
    ``tracker`` holds the limits and records the steps (``on_step`` alone: default limits)."""
    tracker = tracker or Tracker(on_step=on_step)
    on_step = tracker.record
    started = time.perf_counter()
    tracker.before_call()
    reply = llm.complete(
        [
            {"role": "system", "content": VARIANTS_SYSTEM},
            {"role": "user", "content": f"Question: {question}\n\nGive {variants} search queries."},
        ],
        Variants,
        max_tokens=300,
    )
    queries = list(dict.fromkeys([question, *(" ".join(query.split()) for query in reply.value.queries if query.strip())]))[: variants + 1]
    on_step(Step("variants", " | ".join(queries[1:]) or "(none)", *reply_tokens(reply), time.perf_counter() - started))

    started = time.perf_counter()
    mode = hybrid.mode_for(embedder)
    lists = [retrieve(conn, query, mode=mode, k=depth, filters=filters, embedder=embedder) for query in queries if bm25.fts_query(query)]
    candidates = hybrid.fuse(lists, [1.0] * len(lists), depth, "rrf")
    on_step(
        Step("search", f"{len(queries)} queries ({mode}), {len(candidates)} candidates after fusion", seconds=time.perf_counter() - started)
    )

    kept = _filter(question, candidates, filter_llm or llm, filter_seconds, concurrency, tracker, budget_tokens)
    widened = parent.widen(conn, kept[:parent_hits], 2, 2, budget_tokens, include_references=(filters or Filters()).include_references)
    on_step(
        Step(
            "parent",
            f"the best {min(parent_hits, len(kept))} widened: {len(widened)} passages, {sum(hit.num_tokens for hit in widened)} tokens",
        )
    )
    return widened


def _filter(
    question: str, candidates: list[SearchHit], llm: LLM, seconds: float, concurrency: int, tracker: Tracker, budget_tokens: int | None
) -> list[SearchHit]:
    started = time.perf_counter()
    budget = tracker.limits.llm_tokens - tracker.tokens  # what the variants left
    spent = [0]
    lock = threading.Lock()

    def judge(hit: SearchHit) -> tuple[bool, int, int] | None:
        with lock:
            if spent[0] >= budget:
                return None  # the token budget is spent: kept, unjudged
        messages = [
            {"role": "system", "content": FILTER_SYSTEM},
            {
                "role": "user",
                "content": f"Question: {question}\n\n{document_block(_shown(hit, budget_tokens))}\n\nIs the passage relevant?",
            },
        ]
        tracker.before_call()  # raised in the worker, re-raised below: nobody waits for the judgments
        reply = llm.complete(messages, Judgment, max_tokens=20)
        prompt, completion = reply_tokens(reply)
        with lock:
            spent[0] += prompt + completion
        return reply.value.relevant, prompt, completion

    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="multiquery-filter")
    futures = [pool.submit(judge, hit) for hit in candidates]
    done, _ = wait(futures, timeout=seconds)
    pool.shutdown(wait=False, cancel_futures=True)  # what is not judged in time is kept, unjudged
    kept, dropped, unjudged, over_budget, prompt, completion = [], 0, 0, 0, 0, 0
    for hit, future in zip(candidates, futures, strict=True):
        if future not in done or future.exception() is not None:
            if future in done and not isinstance(future.exception(), LLMOutputError):
                raise future.exception()  # type: ignore[misc]  # an outage, or nobody waits: the caller handles it
            unjudged += 1
            kept.append(hit)
            continue
        judged = future.result()
        if judged is None:
            over_budget += 1
            kept.append(hit)
            continue
        relevant, spent_prompt, spent_completion = judged
        prompt, completion = prompt + spent_prompt, completion + spent_completion
        if relevant:
            kept.append(hit)
        else:
            dropped += 1
    detail = f"{len(candidates)} judged by {llm.name}: {dropped} dropped, {len(kept)} kept" + (
        f" ({unjudged} not judged in time or unreadable, kept)" if unjudged else ""
    )
    if over_budget:
        detail += f" ({over_budget} not judged: token budget of {tracker.limits.llm_tokens:,} spent, kept)"
    tracker.record(Step("filter", detail, prompt, completion, time.perf_counter() - started))
    return kept


def _shown(hit: SearchHit, budget_tokens: int | None) -> str:
    """The passage as the judge reads it: within the token budget, however long the stored row."""
    kept = parent.cut_to_budget([hit], budget_tokens)
    return kept[0].text if kept else ""
