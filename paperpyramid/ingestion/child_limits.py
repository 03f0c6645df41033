"""The parser workers' limits wherever an executor runs the parsing: on a Dask worker (or
any executor's worker), each document is parsed in a child of that worker under the limits of
the ingest's own pool (:mod:`.workers`): a memory ceiling (``RLIMIT_AS``), a time limit that
the worker enforces by killing the child and starting a fresh one, BLAS/OpenMP threads held to
one, and a child that dies with its worker (``PR_SET_PDEATHSIG``).

Why a child and not the Dask worker itself: a flate bomb, a native crash or a page stuck in C
code would take the Dask worker down, or hold its thread for ever, and Dask would hand the
document to the next worker, and the next, until it gave up with ``KilledWorker``, having cost
the cluster a worker each time and said nothing of the document. In a child only the document
is charged: :func:`run_limited` returns the child's :class:`~.workers.Outcome` (a value, a
failure with its reason, or a death) and the ingest counts deaths against ``max_attempts``
exactly as it does for its own pool, retrying on whichever worker the scheduler picks.

Each executor thread keeps one child, started with its first document and replaced after one
dies or is stopped; it stays, idle, between runs with the same memory ceiling. A thread has its
own because the kernel's parent-death signal fires when the *thread* that started a child ends.
The child's BLAS and OpenMP pools get one thread unless ``worker_threads`` says otherwise: how
many tasks run at once on a machine is the cluster's to fit to its cores (``dask worker
--nworkers N --nthreads T``, N x T at most the cores). The default memory ceiling is the worker
machine's own share per core (:func:`.threads.memory_share`), since the ingest cannot know the
worker's machine.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from paperpyramid.ingestion.threads import cores, worker_memory
from paperpyramid.ingestion.workers import Outcome, Task, WorkerPool, hard_deadline
from paperpyramid.settings import IngestSettings

__all__ = ["Limits", "run_limited"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits a run's documents are parsed under, as its settings give them: sent with
    each task and resolved on the worker's machine."""

    #: ``max_worker_memory``: MiB; None: the worker machine's share per core; 0: no ceiling
    memory_mib: int | None
    time_limit: float
    #: ``worker_threads``: None: one thread; 0: the libraries' own defaults
    threads: int | None

    @classmethod
    def of(cls, options: IngestSettings) -> Limits:
        return cls(options.max_worker_memory, options.time_limit, options.worker_threads)


_local = threading.local()
#: a process-wide flag is switched while a child starts (:func:`_children_allowed`)
_starting = threading.Lock()


def run_limited(limits: Limits, task: Task, *args: Any) -> Outcome:
    """Run ``task(*args, on_phase=…)`` in this thread's limited child and return its outcome:
    the task's value, or why the child failed, was stopped or died. Meant to be the function
    an executor runs (it must be importable on the executor's workers)."""
    pool = _pool(limits)
    try:
        with _children_allowed():
            pool.submit(0, task, *args)
        while True:  # ends when the child answers, dies, or is killed past the time limit
            for outcome in pool.wait(timeout=1.0):
                return outcome
    except BaseException:
        _drop_pool()  # a pool left mid-job (the executor cancelled us, say) must not serve the next
        raise


def _pool(limits: Limits) -> WorkerPool:
    """This thread's pool of one child, made anew when a run with another memory ceiling or
    thread count comes (the child set those on itself when it started); the time limit is
    the pool's to enforce, so another one only changes the pool's clock."""
    pool: WorkerPool | None = getattr(_local, "pool", None)
    if pool is not None and (_local.limits.memory_mib, _local.limits.threads) == (limits.memory_mib, limits.threads):
        pool.time_limit, pool.deadline = limits.time_limit, hard_deadline(limits.time_limit)
        _local.limits = limits
        return pool
    _drop_pool()
    memory = worker_memory(limits.memory_mib, cores())
    threads = 1 if limits.threads is None else limits.threads
    pool = WorkerPool(1, memory_mib=memory, time_limit=limits.time_limit, threads=threads)
    _local.pool, _local.limits = pool, limits
    return pool


def _drop_pool() -> None:
    pool: WorkerPool | None = getattr(_local, "pool", None)
    if pool is not None:
        _local.pool = None
        pool.close()


@contextmanager
def _children_allowed() -> Iterator[None]:
    """Let this process start a child even if it is a daemon. Dask's nanny starts its worker
    as a daemonic process so that the worker ends with the nanny, and multiprocessing refuses
    children to daemons lest they be orphaned; ours cannot be (they die with their parent, see
    :mod:`.workers`), so the flag is lifted while one starts and set back at once."""
    me = multiprocessing.current_process()
    with _starting:
        daemonic = me.daemon
        if daemonic:
            me.daemon = False
        try:
            yield
        finally:
            if daemonic:
                me.daemon = True
