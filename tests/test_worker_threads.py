"""Workers × threads never exceed the cores, and each worker's memory ceiling is its share of
the machine (issue 20, items 13 and 14): numpy's BLAS in every worker started one thread per
core, so two embedding workers on two cores ran four busy threads (11× slower under load), and
the ceiling was 4 GiB whatever the machine and the number of workers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paperpyramid.ingestion.threads import (
    DEFAULT_MEMORY_CAP_MIB,
    cores,
    machine_memory_mib,
    memory_share,
    threads_per_worker,
    worker_memory,
)
from paperpyramid.ingestion.workers import WorkerPool
from tests.thread_probe import probe

PAPERPYRAMID = Path(sys.executable).with_name("paperpyramid")


def _probe(pool: WorkerPool) -> dict[str, object]:
    pool.submit(1, probe)
    for _ in range(120):  # bounded: a minute
        outcomes = pool.wait(timeout=0.5)
        if outcomes:
            assert outcomes[0].failure is None, outcomes[0].failure
            return dict(outcomes[0].value)
    raise AssertionError("the probe did not come back within a minute")


@pytest.mark.skipif(cores() < 2, reason="one core: a worker's BLAS runs one thread whatever is limited, so nothing can be oversubscribed")
def test_each_of_two_workers_runs_its_share_of_the_cores() -> None:
    with WorkerPool(2, memory_mib=None, time_limit=30) as pool:
        seen = _probe(pool)
    share = threads_per_worker(2)
    assert share == max(1, cores() // 2)
    assert seen["OMP_NUM_THREADS"] == seen["OPENBLAS_NUM_THREADS"] == str(share)
    assert seen["threads"] == share  # the pool numpy actually runs, not only the variables


@pytest.mark.skipif(cores() < 2, reason="one core: the libraries' default is one thread")
def test_zero_leaves_the_libraries_their_default_of_one_thread_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)  # another test's embedder may have set one in this process
    with WorkerPool(2, memory_mib=None, time_limit=30, threads=0) as pool:
        seen = _probe(pool)
    assert seen["threads"] == cores()  # what every worker ran before: the oversubscription measured


def test_the_memory_ceiling_is_a_share_of_the_machine_capped_at_four_gib() -> None:
    memory = machine_memory_mib()
    assert memory is not None
    for workers in (1, 2, 8, 64):
        share = memory_share(workers)
        assert 512 <= share <= DEFAULT_MEMORY_CAP_MIB
        assert share <= max(512, memory // 2 // workers)
    assert memory_share(10_000) == 512  # a floor a parser can work in
    assert worker_memory(None, 8) == memory_share(8) and worker_memory(0, 8) is None and worker_memory(1000, 8) == 1000


@pytest.mark.skipif(not PAPERPYRAMID.exists(), reason="the console script is not installed in this environment")
def test_ingest_states_the_limits_of_its_workers_at_the_start(tmp_path: Path) -> None:
    import subprocess

    empty = tmp_path / "in"
    empty.mkdir()
    run = subprocess.run([str(PAPERPYRAMID), "ingest", str(empty), "--db", str(tmp_path / "c.sqlite"), "--workers", "8", "--no-embed"],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    said = " ".join((run.stdout + run.stderr).split())  # the console wraps long lines
    first = said[: said.index("ingest")]
    assert f"8 parser workers on {cores()} cores" in first, said
    assert f"each at most {memory_share(8)} MiB" in first and f"and {threads_per_worker(8)} BLAS/OpenMP thread" in first
