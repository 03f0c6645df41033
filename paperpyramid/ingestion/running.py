"""Where parsing runs: the caller's executor (a Dask cluster's, say), the pipeline's own worker
processes with hard limits (:mod:`.workers`), or this process; at most a small window of
documents in flight, so that a source of millions of inputs is never held in memory.

An item that asks for no parse (the PMIDs a PubMed update file deletes) is a barrier: the items
before it are finished and handed back first, so that what the writer does keeps file order.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import cast

from paperpyramid.ingestion.child_limits import Limits, run_limited
from paperpyramid.ingestion.executors import ClusterExecutor
from paperpyramid.ingestion.parsing import Parsed, parse_item
from paperpyramid.ingestion.threads import worker_memory
from paperpyramid.ingestion.work import UNAVAILABLE, WorkItem
from paperpyramid.ingestion.workers import Outcome, WorkerPool
from paperpyramid.settings import IngestSettings, Settings


@dataclass(slots=True)
class _Job:
    item: WorkItem
    deaths: int = 0  # worker deaths under this document
    started: float = field(default_factory=time.monotonic)


class Pool:
    """Where parsing runs: the caller's executor (a Dask cluster's, say), our own worker
    processes with hard limits (:mod:`paperpyramid.ingestion.workers`), or this process."""

    def __init__(self, given: Executor | None, options: IngestSettings) -> None:
        self.executor = given
        self.workers: WorkerPool | None = None
        if given is None and options.workers > 0:
            memory = worker_memory(options.max_worker_memory, options.workers)
            self.workers = WorkerPool(options.workers, memory_mib=memory, time_limit=options.time_limit, threads=options.worker_threads)

    def close(self) -> None:
        if self.workers is not None:
            self.workers.close()


@contextmanager
def open_pool(given: Executor | None, options: IngestSettings) -> Iterator[Pool]:
    pool = Pool(given, options)
    try:
        yield pool
    finally:
        pool.close()


def run(items: Iterator[WorkItem], settings: Settings, pool: Pool) -> Iterator[tuple[WorkItem, Parsed]]:
    """Parse items on the pool, as many at a time as it has workers; an item that asks for no
    parse comes back, unparsed, once every item before it has."""
    upcoming = iter(items)
    barrier: list[WorkItem] = []

    def until_barrier() -> Iterator[WorkItem]:
        for item in upcoming:
            if item.deletes:
                barrier.append(item)
                return
            yield item

    while True:
        yield from _run(until_barrier(), settings, pool)
        if not barrier:
            return
        yield barrier.pop(), Parsed(None, None, 0.0)


def _run(items: Iterator[WorkItem], settings: Settings, pool: Pool) -> Iterator[tuple[WorkItem, Parsed]]:
    options = settings.ingest
    embedding = settings.embedding if options.embed else None
    if pool.workers is not None:
        yield from _run_on_workers(items, settings, pool.workers)
    elif pool.executor is not None:
        yield from _run_on_executor(items, settings, pool.executor)
    else:
        for item in items:
            yield item, parse_item(item, options, settings.s3, embedding)


def _run_on_workers(items: Iterator[WorkItem], settings: Settings, workers: WorkerPool) -> Iterator[tuple[WorkItem, Parsed]]:
    """Each document on a worker of its own: one that overruns the time limit is stopped and
    failed; one whose worker dies (a crash, the memory ceiling) is tried again in a fresh
    worker and failed after ``max_attempts`` deaths. Only that document is charged."""
    options = settings.ingest
    embedding = settings.embedding if options.embed else None
    jobs: dict[int, _Job] = {}
    again: deque[_Job] = deque()
    keys = itertools.count()
    upcoming = iter(items)
    exhausted = False

    def refill() -> None:
        nonlocal exhausted
        while workers.idle and (again or not exhausted):
            if again:
                job = again.popleft()
            else:
                item = next(upcoming, None)
                if item is None:
                    exhausted = True
                    continue
                job = _Job(item)
            key = next(keys)
            jobs[key] = job
            workers.submit(key, parse_item, job.item, options, settings.s3, embedding)

    while True:
        refill()
        if not jobs:
            return
        ready: list[tuple[WorkItem, Parsed]] = []
        for outcome in workers.wait(timeout=1.0):
            job = jobs.pop(outcome.key)
            parsed = _result_or_retry(job, outcome, options.max_attempts)
            if parsed is None:
                again.append(job)
            else:
                ready.append((job.item, parsed))
        refill()  # the workers parse on while the writer stores what came back
        yield from ready


def _result_or_retry(job: _Job, outcome: Outcome, max_attempts: int) -> Parsed | None:
    """The document's result from its worker's outcome, or None when it is to be tried again
    (its worker died under it fewer than ``max_attempts`` times). Only this document is
    charged; an error of the run (the bucket, the settings) is raised."""
    if outcome.raised is not None:
        raise outcome.raised  # the bucket or the settings, not this document: the run stops in one line
    if outcome.failure is None:
        return cast(Parsed, outcome.value)
    if outcome.died:
        job.deaths += 1
        if job.deaths < max_attempts:
            return None
        reason = f"the parser process died {job.deaths} time{'s' if job.deaths > 1 else ''} on this document (last: {outcome.failure})"
    else:
        reason = outcome.failure
    return Parsed(None, f"{job.item.name}: {reason}", time.monotonic() - job.started, job.item.sha256)


def _run_on_executor(items: Iterator[WorkItem], settings: Settings, executor: Executor) -> Iterator[tuple[WorkItem, Parsed]]:
    """A window of documents in flight on someone else's executor (a Dask cluster's), each
    parsed in a limited child of the worker that takes it (:mod:`.child_limits`), so the limits
    and ``max_attempts`` hold as on our own pool. A task the executor loses (its worker was
    killed, the scheduler went away) is logged ``unavailable:``: a re-run tries it again."""
    options = settings.ingest
    embedding = settings.embedding if options.embed else None
    limits = Limits.of(options)
    in_flight: dict[Future[Outcome], _Job] = {}
    again: deque[_Job] = deque()
    exhausted = False
    while True:
        window = max(2, 2 * (executor.slots() if isinstance(executor, ClusterExecutor) else max(options.workers, 1)))
        while (again or not exhausted) and len(in_flight) < window:
            job = again.popleft() if again else None
            if job is None:
                upcoming = next(items, None)
                if upcoming is None:
                    exhausted = True
                    continue
                job = _Job(upcoming)
            in_flight[executor.submit(run_limited, limits, parse_item, job.item, options, settings.s3, embedding)] = job
        if not in_flight:
            return
        done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        for future in done:
            job = in_flight.pop(future)
            try:
                outcome = future.result()
            except Exception as exc:  # the executor lost the task: not this document's doing, as far as anyone knows
                reason = f"{UNAVAILABLE}{job.item.name}: the executor lost it: {type(exc).__name__}: {exc}"
                yield job.item, Parsed(None, reason, time.monotonic() - job.started, job.item.sha256)
                continue
            parsed = _result_or_retry(job, outcome, options.max_attempts)
            if parsed is None:
                again.append(job)
            else:
                yield job.item, parsed


__all__ = ["Pool", "open_pool", "run"]
