#!/usr/bin/env python3
"""Ingest with embedding, 2 workers, with each worker's BLAS/OpenMP threads limited to its
share of the cores (the default) against the libraries' own default of one thread a core in
every worker (``PAPERPYRAMID_INGEST__WORKER_THREADS=0``, the behaviour before issue 20), in one
run, on a quiet machine and under load.

    .venv/bin/python benchmarks/ingest_threads.py [PDF ...] [--repeat 2] [--load 2]

Without PDFs it takes the first six text-layer PDFs of ../shared/corpus (else the bundled
samples). Each round runs both settings, in turn, on a fresh corpus file, through the
``paperpyramid ingest`` console script (``--workers 2 --embed``); the order alternates by round.
``--load N`` repeats the whole measurement with N background processes multiplying matrices
with numpy at its default thread count (another job on the machine). Reported: the median
wall-clock seconds of each setting, and their ratio.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
CORPUS = HERE.parents[2] / "shared" / "corpus"
SAMPLE = REPO / "tests" / "data" / "sample"
PAPERPYRAMID = Path(sys.executable).with_name("paperpyramid")
SETTINGS = {"limited (default)": None, "library default (before)": "0"}


def default_pdfs(count: int = 6) -> list[Path]:
    manifest = CORPUS / "MANIFEST.tsv"
    if manifest.is_file():
        with manifest.open(newline="") as handle:
            rows = [row for row in csv.DictReader(handle, delimiter="\t") if row["kind"] == "pdf"]
        pdfs = [CORPUS / row["file"] for row in rows if "garbled" not in row["file"] and "117pages" not in row["file"]]
        return pdfs[:count]
    return sorted(SAMPLE.glob("*.pdf"))


def _busy() -> None:  # a background job: numpy at its own default thread count, until killed
    import numpy

    matrix = numpy.random.default_rng(0).random((600, 600))
    while True:
        matrix = matrix @ matrix
        matrix /= numpy.abs(matrix).max()


def ingest_once(pdfs: list[Path], threads: str | None, folder: Path) -> float:
    inputs = folder / "in"
    inputs.mkdir(parents=True, exist_ok=True)
    for pdf in pdfs:
        target = inputs / pdf.name
        if not target.exists():
            target.symlink_to(pdf.resolve())
    db = folder / f"corpus-{time.monotonic_ns()}.sqlite"
    env = {key: value for key, value in os.environ.items() if not key.endswith("_NUM_THREADS")}
    if threads is not None:
        env["PAPERPYRAMID_INGEST__WORKER_THREADS"] = threads
    env["HF_HUB_OFFLINE"] = "1"
    started = time.perf_counter()
    run = subprocess.run([str(PAPERPYRAMID), "ingest", str(inputs), "--db", str(db), "--workers", "2", "--embed"],
                         env=env, capture_output=True, text=True, timeout=3600)  # fmt: skip
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"ingest failed ({run.returncode}): {run.stdout[-500:]} {run.stderr[-500:]}")
    db.unlink()
    return seconds


def measure(pdfs: list[Path], repeat: int, folder: Path) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in SETTINGS}
    names = list(SETTINGS)
    for round_index in range(repeat):
        for name in names if round_index % 2 == 0 else names[::-1]:
            times[name].append(ingest_once(pdfs, SETTINGS[name], folder))
            print(f"  round {round_index + 1}: {name}: {times[name][-1]:.1f} s", file=sys.stderr)
    return times


def report(label: str, times: dict[str, list[float]]) -> None:
    medians = {name: statistics.median(values) for name, values in times.items()}
    before, after = medians["library default (before)"], medians["limited (default)"]
    print(f"{label}: limited {after:.1f} s, library default {before:.1f} s (median of {len(times['limited (default)'])}); "
          f"{before / after:.2f}x")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--load", type=int, default=2, help="background numpy processes for the loaded run (0: quiet only)")
    args = parser.parse_args()
    pdfs = args.pdfs or default_pdfs()
    print(f"ingest_threads: {len(pdfs)} PDFs, 2 workers, embedding on, {os.cpu_count()} CPUs", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="ingest-threads-") as scratch:
        report("quiet", measure(pdfs, args.repeat, Path(scratch)))
        if args.load:
            context = multiprocessing.get_context("spawn")
            busy = [context.Process(target=_busy, daemon=True) for _ in range(args.load)]
            for process in busy:
                process.start()
            try:
                report(f"loaded ({args.load} numpy jobs beside it)", measure(pdfs, args.repeat, Path(scratch)))
            finally:
                for process in busy:
                    process.kill()
                    process.join(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
