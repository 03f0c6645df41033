"""Ingest throughput on a real Dask cluster with 1, then 2, worker processes, beside the
ingest's own process pool with as many workers.

    .venv/bin/python benchmarks/dask_scaling.py [SOURCE ...] [--rounds 3] [--workers 1,2] [--no-process]

SOURCE: folders, PDFs or s3://BUCKET/PREFIX (with AWS_ENDPOINT_URL and keys set); default: the
non-hostile PDFs of ../shared/corpus, else tests/data/sample. Local files are read by the Dask
workers from the same paths, so they run on this machine here.

A `dask scheduler` and the `dask worker` processes (``--nworkers 1 --nthreads 1`` each) are
started here on 127.0.0.1, apart from this process, which joins them with ``dask://`` as
``paperpyramid ingest --executor`` does. For each worker count: the workers are started, one
warm-up ingest lets each start its limited parser child (as at the start of any run), then
``--rounds`` ingests into fresh databases; reported is the median, in PDFs/s and pages/s, and
the ratio against the first count. The process pool rows are the same ingest with
``--workers N`` and no executor (its workers start with each run, so each round pays for that).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")
sys.path.insert(0, str(ROOT / "benchmarks"))

from ingest_scaling import default_sources  # noqa: E402  (the same inputs as the process-pool benchmark)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def dask_cluster(workers: int, logs: Path) -> Iterator[str]:
    """A scheduler and ``workers`` single-threaded workers, each its own process group; the
    scheduler's address once all workers are connected."""
    from distributed import Client

    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    processes: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> None:
        with (logs / f"{name}.log").open("ab") as log:
            processes.append(subprocess.Popen([str(DASK), *args], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))

    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
        for index in range(workers):
            start(
                f"worker-{index}",
                "worker",
                f"tcp://127.0.0.1:{port}",
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
            )
        with Client(f"tcp://127.0.0.1:{port}", timeout="60s") as client:
            client.wait_for_workers(workers, timeout=120)
        yield f"127.0.0.1:{port}"
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        for process in processes:
            process.wait(timeout=30)


def one_run(sources: list[str], workers: int, executor: Executor | None) -> dict[str, float]:
    from paperpyramid.ingestion import ingest
    from paperpyramid.settings import IngestSettings, Settings

    settings = Settings(ingest=IngestSettings(workers=workers, embed=False))  # parsing alone; embed_speed.py measures embedding
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        summary = ingest(sources, Path(folder) / "bench.sqlite", settings, executor=executor)
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "done": summary.count("done"), "failed": summary.count("failed"), "pages": summary.pages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="*")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    parser.add_argument("--no-process", action="store_true", help="skip the process pool rows")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from paperpyramid.ingestion.executors import open_executor

    sources = args.sources or default_sources()
    counts = [int(value) for value in args.workers.split(",")]
    medians: dict[tuple[str, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="dask-scaling-") as logs:
        for workers in counts:
            with dask_cluster(workers, Path(logs)) as address, open_executor(f"dask://{address}", workers) as executor:
                warm = one_run(sources, workers, executor)
                print(f"dask, {workers} worker(s): warm-up {warm['done']:.0f} PDFs in {warm['seconds']:.2f} s", file=sys.stderr)
                runs = [one_run(sources, workers, executor) for _ in range(args.rounds)]
            medians["dask", workers] = summarise(runs, "dask", workers)
            if not args.no_process:
                runs = [one_run(sources, workers, None) for _ in range(args.rounds)]
                medians["process", workers] = summarise(runs, "process", workers)
    print(
        f"\ningest on a Dask cluster: {len(sources)} source(s), median of {args.rounds} rounds, fresh database each; {os.cpu_count()} cores"
    )
    print(f"{'executor':>8}  {'workers':>7}  {'PDFs':>5}  {'pages':>6}  {'median s':>8}  {'PDFs/s':>7}  {'pages/s':>7}  {'ratio':>6}")
    for (executor_name, workers), row in medians.items():
        ratio = row["rate"] / medians[executor_name, counts[0]]["rate"]
        print(f"{executor_name:>8}  {workers:>7}  {row['pdfs']:>5.0f}  {row['pages']:>6.0f}  {row['seconds']:>8.2f}  {row['rate']:>7.2f}  "
              f"{row['pages'] / row['seconds']:>7.1f}  {ratio:>5.2f}x")  # fmt: skip


def summarise(runs: list[dict[str, float]], executor: str, workers: int) -> dict[str, float]:
    for index, run in enumerate(runs):
        print(
            f"{executor}, {workers} worker(s), round {index + 1}: {run['done']:.0f} PDFs ({run['failed']:.0f} failed) in {run['seconds']:.2f} s",
            file=sys.stderr,
        )
    seconds = statistics.median(run["seconds"] for run in runs)
    return {"seconds": seconds, "pdfs": runs[0]["done"], "pages": runs[0]["pages"], "rate": runs[0]["done"] / seconds}


if __name__ == "__main__":
    main()
