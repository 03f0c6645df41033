"""Executors by name: the default process pool, or a Dask cluster (``dask`` starts a
LocalCluster on this machine; ``dask://HOST:PORT`` joins a running scheduler). Whatever
runs the parsing, the SQLite writer stays single, in the calling process."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from paperpyramid.errors import ConfigurationError, MissingExtra

EXECUTOR_NAMES = ("process", "dask", "dask://HOST:PORT")


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
        # one single-threaded worker process per core: pdfium is not thread-safe
        with LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
            yield client.get_executor(pure=False)
        return
    address = "tcp://" + spec.removeprefix("dask://")
    try:
        client = Client(address, timeout="20s")
    except OSError as exc:
        raise ConfigurationError(f"no Dask scheduler answers at {address}: {exc}") from exc
    with client:
        yield client.get_executor(pure=False)
