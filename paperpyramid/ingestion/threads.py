"""How many threads and how much memory each worker process may take, so that workers
together never ask for more than the machine has.

numpy's BLAS (OpenBLAS, MKL) and OpenMP start one thread per core in every process that loads
them: two parser workers that embed on a 2-core machine ran four busy threads, and under load
ingest with embedding was 11 times slower than with one thread each (`benchmarks/ingest_threads.py`). A worker
limits its own libraries to its share of the cores (:func:`limit_threads`, before numpy is
imported, and through threadpoolctl for anything already loaded), and its memory ceiling is
its share of the machine's memory (:func:`memory_share`).
"""

from __future__ import annotations

import os

__all__ = [
    "DEFAULT_MEMORY_CAP_MIB", "MEMORY_SHARE", "cores", "describe_workers", "limit_threads", "machine_memory_mib", "memory_share",
    "threads_per_worker", "worker_memory",
]  # fmt: skip

#: the environment variables BLAS and OpenMP libraries (and the tokenizer's Rayon pool) read for their thread count at load time
_THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "RAYON_NUM_THREADS",
)
#: the most a worker's memory ceiling defaults to, MiB (a flate bomb peaks at 3.9 GB in its worker)
DEFAULT_MEMORY_CAP_MIB = 4096
#: the share of the machine's memory all workers' ceilings together default to
MEMORY_SHARE = 0.5


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def threads_per_worker(workers: int) -> int:
    """Each of ``workers`` processes' share of the cores: at least one thread."""
    return max(1, cores() // max(workers, 1))


def limit_threads(count: int) -> None:
    """Limit this process's BLAS and OpenMP thread pools to ``count`` threads: the variables
    the libraries read when they load, and (threadpoolctl) the pools already loaded."""
    for name in _THREAD_VARIABLES:
        os.environ[name] = str(count)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a declared dependency
        return
    threadpool_limits(limits=count)


def machine_memory_mib() -> int | None:
    """The machine's physical memory in MiB (None where it cannot be read)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20)
    except (AttributeError, ValueError, OSError):
        return None


def memory_share(workers: int) -> int:
    """The default memory ceiling of each of ``workers`` processes, MiB: half the machine's
    memory divided among them, at most :data:`DEFAULT_MEMORY_CAP_MIB`, at least 512."""
    memory = machine_memory_mib()
    if memory is None:
        return DEFAULT_MEMORY_CAP_MIB
    return max(512, min(DEFAULT_MEMORY_CAP_MIB, int(memory * MEMORY_SHARE) // max(workers, 1)))


def worker_memory(setting: int | None, workers: int) -> int | None:
    """A worker's memory ceiling in MiB from the ``max_worker_memory`` setting: None (unset)
    gives :func:`memory_share`, 0 no ceiling."""
    return memory_share(workers) if setting is None else setting or None


def describe_workers(workers: int, setting: int | None, threads_setting: int | None = None) -> str:
    """The limits a run's parser workers get, said once at its start."""
    memory = worker_memory(setting, workers)
    threads = threads_per_worker(workers) if threads_setting is None else threads_setting
    ceiling = f"at most {memory} MiB" if memory else "no memory ceiling"
    total = machine_memory_mib()
    machine = f" of {total} MiB" if total else ""
    return (f"{workers} parser worker{'s' if workers != 1 else ''} on {cores()} cores{machine}: each {ceiling} (--max-worker-memory) "
            + (f"and {threads} BLAS/OpenMP thread{'s' if threads != 1 else ''}" if threads else "and the libraries' own thread counts"))  # fmt: skip
