"""Ingest throughput with 1 and 2 worker processes, side by side, and peak RSS per worker.

    .venv/bin/python benchmarks/ingest_scaling.py [SOURCE ...] [--rounds 3] [--workers 1,2]

SOURCE: folders, PDFs or s3://BUCKET/PREFIX (with AWS_ENDPOINT_URL and keys set); default:
the non-hostile PDFs of ../shared/corpus, else tests/data/sample. ``--baseline DIR``: a
checkout of other code (``git worktree add /tmp/base COMMIT``) run the same way, alternating
with this one, each worker count's median set beside the baseline's. Each run is a fresh
process ingesting into a fresh database; runs alternate between worker counts, so machine
noise hits both alike. Reported: median PDFs/s and pages/s per worker count, the ratio
against the first count, and the peak RSS of the largest worker process (ru_maxrss of the
run's children) and of the writer process.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def default_sources() -> list[str]:
    corpus = ROOT.parent / "shared" / "corpus"
    if (corpus / "MANIFEST.tsv").is_file():
        rows = csv.DictReader((corpus / "MANIFEST.tsv").open(), delimiter="\t")
        return [str(corpus / row["file"]) for row in rows if row["kind"] == "pdf"]
    return [str(ROOT / "tests" / "data" / "sample")]


def one_run(sources: list[str], workers: int) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    from paperpyramid.ingestion import ingest
    from paperpyramid.settings import IngestSettings, Settings

    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        summary = ingest(
            sources, Path(folder) / "bench.sqlite", Settings(ingest=IngestSettings(workers=workers, embed=False))
        )  # parsing alone; embed_speed.py measures embedding
        seconds = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "workers": workers,
        "seconds": seconds,
        "done": summary.count("done"),
        "failed": summary.count("failed"),
        "pages": summary.pages,
        "worker_rss_mib": children,
        "writer_rss_mib": own,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="*")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    parser.add_argument("--json", type=Path, help="write every run here")
    parser.add_argument("--baseline", type=Path, help="a checkout of other code to measure alternately with this one")
    parser.add_argument("--run", type=int, help=argparse.SUPPRESS)  # internal: one run in this process
    args = parser.parse_args()
    sources = args.sources or default_sources()
    if args.run is not None:
        print(json.dumps(one_run(sources, args.run)))
        return
    counts = [int(value) for value in args.workers.split(",")]
    codes = {"current": ROOT, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    runs: list[dict[str, float]] = []
    for round_ in range(args.rounds):
        order = counts if round_ % 2 == 0 else list(reversed(counts))
        for workers in order:
            for code, root in codes.items() if round_ % 2 == 0 else reversed(codes.items()):
                script = root / "benchmarks" / "ingest_scaling.py"
                output = subprocess.run(
                    [sys.executable, str(script), *sources, "--run", str(workers)], capture_output=True, text=True, check=True, cwd=root
                )
                run = {**json.loads(output.stdout.strip().splitlines()[-1]), "code": code}
                runs.append(run)
                print(
                    f"round {round_ + 1}: {code}, {workers} worker(s): {run['done']:.0f} PDFs in {run['seconds']:.2f} s, worker peak RSS {run['worker_rss_mib']:.0f} MiB",
                    file=sys.stderr,
                )
    print(f"\ningest scaling: {len(sources)} source(s), {args.rounds} rounds, alternating; fresh process and database per run")
    print(
        f"{'code':>8}  {'workers':>7}  {'PDFs':>5}  {'pages':>6}  {'median s':>8}  {'PDFs/s':>7}  {'pages/s':>7}  {'ratio':>6}  {'vs baseline':>11}  {'worker peak RSS MiB':>19}  {'writer peak RSS MiB':>19}"
    )
    rows: dict[tuple[str, int], dict[str, float]] = {}
    for code in codes:
        for workers in counts:
            mine = [run for run in runs if run["workers"] == workers and run["code"] == code]
            seconds = statistics.median(run["seconds"] for run in mine)
            rows[code, workers] = {
                "seconds": seconds,
                "pdfs": mine[0]["done"],
                "pages": mine[0]["pages"],
                "rate": mine[0]["done"] / seconds,
                "worker_rss": max(run["worker_rss_mib"] for run in mine),
                "writer_rss": max(run["writer_rss_mib"] for run in mine),
            }
    for (code, workers), row in rows.items():
        ratio = row["rate"] / rows[code, counts[0]]["rate"]
        versus = f"{row['rate'] / rows['baseline', workers]['rate']:.2f}x" if code == "current" and "baseline" in codes else "—"
        print(
            f"{code:>8}  {workers:>7}  {row['pdfs']:>5.0f}  {row['pages']:>6.0f}  {row['seconds']:>8.2f}  {row['rate']:>7.2f}  {row['pages'] / row['seconds']:>7.1f}  "
            f"{ratio:>5.2f}x  {versus:>11}  {row['worker_rss']:>19.0f}  {row['writer_rss']:>19.0f}"
        )
    if args.json:
        args.json.write_text(json.dumps(runs, indent=2))


if __name__ == "__main__":
    main()
