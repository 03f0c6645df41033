"""Parser worker processes with limits that hold: a memory ceiling per worker, a time limit
the parent enforces, and no worker outliving its parent.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: it cannot stop one task (pdfium's C
code never sees the alarm a worker sets itself, so a flate bomb ran 27 s past a 5 s limit),
and when a worker dies it cannot say which document killed it. Here each worker runs one
document at a time and says when it starts and stops parsing, so the parent knows whose
document overran or died, kills only that worker and starts a fresh one:

- memory: each worker's address space is capped (``RLIMIT_AS``); a document that needs more
  fails its allocation (a ``MemoryError``, or pdfium aborting the process) and only that
  document is charged;
- time: the parent kills a worker still parsing ``time_limit * 1.2 + 1`` seconds after it
  began (the worker's own checks between pages usually fire first, with a gentler message);
- threads: a worker's BLAS and OpenMP pools get its share of the cores (:mod:`.threads`);
- orphans: a worker asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG``;
  elsewhere a thread watches the parent's pid), so ``kill -9`` of an ingest leaves nothing;
- scratch files: each worker's temporary files (a downloaded PDF, what a library writes) go into a
  folder of its own, which the parent removes when the worker ends, however it ends. A worker
  killed mid-document cannot clean up after itself: before, each such kill left its download in
  the system's temporary folder. A pool nobody closed is closed when it is collected or its
  process exits: a thread's pool of one child (:mod:`.child_limits`) is dropped with its thread
  when an executor shuts down, and each such pool used to leave its worker's folder. A parent
  killed with ``kill -9`` removes nothing: the next pool's first worker removes its folders
  (:mod:`.scratch`).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import resource
import signal
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from paperpyramid.errors import PaperPyramidError
from paperpyramid.ingestion import scratch as scratch_folders
from paperpyramid.ingestion.threads import limit_threads, threads_per_worker

log = logging.getLogger(__name__)

#: the start of each worker's scratch folder's name (the parent's pid follows, see :mod:`.scratch`)
SCRATCH_PREFIX = "paperpyramid-worker-"

#: what a worker runs: ``task(*args, on_phase=callback)``; ``callback("parse")`` starts the
#: time limit's clock and ``callback("embed")`` (or any other phase) stops it
Task = Callable[..., Any]


def hard_deadline(time_limit: float) -> float:
    """Seconds of parsing after which the parent kills a worker: just past the worker's own
    alarm (``1.1 * limit + 1``), within twice the limit for any limit over a few seconds."""
    return time_limit * 1.2 + 1.0


@dataclass(slots=True)
class Outcome:
    """What became of one submitted job: ``value`` (the task's return), or ``failure`` (why
    the worker was stopped, or how it died when ``died``: "killed by SIGABRT; …")."""

    key: int
    value: Any = None
    failure: str | None = None
    died: bool = False
    timed_out: bool = False
    #: an error that is the run's, not the document's (a ConfigurationError): the caller raises it
    raised: BaseException | None = None


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    conn: Connection
    scratch: scratch_folders.Scratch  # its temporary folder, removed with it
    key: int | None = None  # the job it runs
    parsing_since: float | None = None


class WorkerPool:
    """``size`` worker processes (spawned, so that no parent state leaks into them), each
    running one job at a time under a memory ceiling of ``memory_mib`` (None: none), its BLAS
    and OpenMP pools limited to ``threads`` (default: its share of the cores, so that workers
    × threads never exceed them, see :mod:`.threads`; 0: the libraries' own defaults)."""

    def __init__(self, size: int, *, memory_mib: int | None, time_limit: float, threads: int | None = None) -> None:
        self.size = max(size, 1)
        self.memory_mib = memory_mib
        self.threads = threads_per_worker(self.size) if threads is None else threads  # 0: the libraries' own defaults
        self.deadline = hard_deadline(time_limit)
        self.time_limit = time_limit
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        # a pool nobody closed stops its workers when it is collected or at exit; the finalizer
        # holds the list of workers, not the pool, so that the pool can be collected
        weakref.finalize(self, _stop, self._workers)

    @property
    def idle(self) -> int:
        """How many more jobs can start now."""
        return self.size - sum(1 for worker in self._workers if worker.key is not None)

    @property
    def busy(self) -> int:
        return self.size - self.idle

    def submit(self, key: int, task: Task, *args: Any) -> None:
        """Start ``task(*args)`` on an idle worker (starting one if need be)."""
        worker = next((worker for worker in self._workers if worker.key is None), None)
        if worker is None:
            if len(self._workers) >= self.size:
                raise RuntimeError("no idle worker: wait for an outcome first")
            worker = self._start()
        worker.key = key
        worker.parsing_since = None
        try:
            worker.conn.send((key, task, args))
        except (BrokenPipeError, OSError):  # it died while idle (the OOM killer, say): a fresh one takes the job
            worker.process.join(timeout=5)
            self._discard(worker)
            self.submit(key, task, *args)

    def wait(self, timeout: float = 1.0) -> list[Outcome]:
        """Outcomes of the jobs that ended within ``timeout`` seconds (maybe none): results,
        workers that died, and workers killed for parsing past the deadline."""
        busy = [worker for worker in self._workers if worker.key is not None]
        if not busy:
            return []
        now = time.monotonic()
        due = [worker.parsing_since + self.deadline - now for worker in busy if worker.parsing_since is not None]
        ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=max(0.0, min([timeout, *due])))
        outcomes: list[Outcome] = []
        for worker in busy:
            outcome = self._read(worker) if worker.conn in ready else None
            if outcome is None and worker.process.sentinel in ready and not worker.conn.poll():
                outcome = self._died(worker)
            if outcome is None and worker.parsing_since is not None and time.monotonic() - worker.parsing_since > self.deadline:
                outcome = self._overran(worker)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    def _read(self, worker: _Worker) -> Outcome | None:
        try:
            kind, key, payload = worker.conn.recv()
        except (EOFError, OSError):
            return self._died(worker)
        if kind == "phase":
            worker.parsing_since = time.monotonic() if payload == "parse" else None
            return None
        worker.key = None
        worker.parsing_since = None
        if kind == "error":  # the task raised, or its result would not pickle
            return Outcome(key, failure=str(payload))
        if kind == "raise":
            return Outcome(key, raised=payload)
        return Outcome(key, value=payload)

    def _died(self, worker: _Worker) -> Outcome:
        key = worker.key
        assert key is not None
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        self._discard(worker)
        if code is not None and code < 0:  # a native crash: running out of the ceiling is the usual one
            ceiling = f"; a worker may use at most {self.memory_mib} MiB (--max-worker-memory)" if self.memory_mib else ""
            return Outcome(key, failure=f"killed by {signal.Signals(-code).name}{ceiling}", died=True)
        return Outcome(key, failure=f"exit status {code}", died=True)

    def _overran(self, worker: _Worker) -> Outcome:
        key = worker.key
        assert key is not None
        worker.process.kill()
        worker.process.join(timeout=5)
        self._discard(worker)
        return Outcome(key, failure=f"parsing took longer than {self.time_limit:g} s (the worker was stopped)", timed_out=True)

    def _start(self) -> _Worker:
        parent_end, child_end = self._context.Pipe(duplex=True)
        scratch = scratch_folders.make(SCRATCH_PREFIX)
        process = self._context.Process(
            target=_serve,
            args=(child_end, os.getpid(), self.memory_mib, self.threads, scratch.path),
            name="paperpyramid-parser",
            daemon=True,
        )
        process.start()
        child_end.close()
        worker = _Worker(process, parent_end, scratch)
        self._workers.append(worker)
        return worker

    def _discard(self, worker: _Worker) -> None:
        _discard(self._workers, worker)

    def close(self) -> None:
        """Stop every worker: idle ones are told to exit, busy ones are killed."""
        _stop(self._workers)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _discard(workers: list[_Worker], worker: _Worker) -> None:
    """Forget a worker that has ended (joined, or killed and joined), and remove its scratch folder."""
    with contextlib.suppress(OSError):
        worker.conn.close()
    workers.remove(worker)
    # one that did not end within the join's timeout keeps its files (a later sweep removes them)
    worker.scratch.close(remove=not worker.process.is_alive())


def _stop(workers: list[_Worker]) -> None:
    """Stop a pool's workers: idle ones are told to exit, busy ones are killed."""
    for worker in list(workers):
        if worker.key is None:
            with contextlib.suppress(OSError, BrokenPipeError):
                worker.conn.send(None)
        else:
            worker.process.kill()
    for worker in list(workers):
        worker.process.join(timeout=5)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(timeout=5)
        _discard(workers, worker)


def _serve(conn: Connection, parent_pid: int, memory_mib: int | None, threads: int = 1, scratch: str | None = None) -> None:
    """A worker's life: die with the parent, put its temporary files in ``scratch`` (for
    ``tempfile`` and for the programs it runs, Tesseract's included), limit its threads (before
    numpy loads) and its address space, run jobs until told to stop."""
    _die_with_parent(parent_pid)
    if scratch:
        tempfile.tempdir = scratch
        os.environ["TMPDIR"] = scratch
    if threads:
        limit_threads(threads)
    if memory_mib:
        limit = memory_mib * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for job in _jobs(conn):
        key, task, args = job

        def on_phase(phase: str, key: int = key) -> None:
            conn.send(("phase", key, phase))

        try:
            value = task(*args, on_phase=on_phase)
        except MemoryError:
            conn.send(("error", key, f"needed more memory than the worker's ceiling of {memory_mib} MiB (--max-worker-memory)"))
            continue
        except PaperPyramidError as exc:  # raised on purpose (bad settings, a bucket gone): the caller's to raise
            conn.send(("raise", key, exc))
            continue
        except Exception as exc:  # the task's own guard failed: report, keep serving
            conn.send(("error", key, f"worker error: {type(exc).__name__}: {exc}"))
            continue
        try:
            conn.send(("result", key, value))
        except Exception as exc:  # a result that cannot be pickled must not kill the worker
            conn.send(("error", key, f"worker error: the result could not be sent back: {type(exc).__name__}: {exc}"))


def _jobs(conn: Connection) -> Iterator[tuple[int, Task, tuple[Any, ...]]]:
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if job is None:
            return
        yield job


def _die_with_parent(parent_pid: int) -> None:
    """Make this process end when its parent does, however the parent ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the request took hold
        os._exit(1)

    def watch() -> None:  # where prctl is missing (macOS), or set too late
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
