"""Executors by name: the default process pool, or a Dask cluster (``dask`` starts a
LocalCluster on this machine; ``dask://HOST:PORT`` joins a running scheduler). Whatever
runs the parsing, the SQLite writer stays single, in the calling process, and the workers'
limits hold: on a cluster each document is parsed in a limited child of the Dask worker
(:mod:`.child_limits`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from typing import Any

from paperpyramid.errors import ConfigurationError, MissingExtra

EXECUTOR_NAMES = ("process", "dask", "dask://HOST:PORT")


class ClusterExecutor(Executor):
    """A Dask client's executor that can also say how many tasks the cluster runs at once:
    the ingest keeps about twice that many documents in flight, and workers may join or leave
    during a run (the ingest's own worker count says nothing about a cluster's)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._executor: Executor = client.get_executor(pure=False)
        self._slots = 1

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._executor.shutdown(wait=wait)

    def slots(self) -> int:
        """Threads of all the workers the scheduler knows now; while it does not answer, the
        last count it gave (the documents in flight then say what became of them)."""
        with contextlib.suppress(OSError, TimeoutError):
            self._slots = sum(self.client.nthreads().values())
        return self._slots


@contextmanager
def open_executor(spec: str | None, workers: int) -> Iterator[Executor | None]:
    """Yield the executor ``spec`` names (None: the pipeline's own process pool)."""
    if spec in (None, "", "process"):
        yield None
        return
    assert spec is not None
    if spec != "dask" and not spec.startswith("dask://"):
        raise ConfigurationError(f"unknown executor {spec!r}; choose one of: {', '.join(EXECUTOR_NAMES)}")
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise MissingExtra("dask.distributed", "dask") from exc
    if spec == "dask":
        # one single-threaded worker process per core, each parsing in a limited child of its own
        with (
            LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
            Client(cluster) as client,
        ):
            yield ClusterExecutor(client)
        return
    address = "tcp://" + spec.removeprefix("dask://")
    try:
        client = Client(address, timeout="20s")
    except OSError as exc:
        raise ConfigurationError(f"no Dask scheduler answers at {address}: {exc}") from exc
    with client:
        yield ClusterExecutor(client)
