#!/usr/bin/env python3
"""JATS parse speed on one CPU core: articles per CPU second, with and without cutting contexts.

    python benchmarks/jats_speed.py [XML_DIR_OR_FILES...] [--repeat 5] [--no-contexts]
        [--baseline-src DIR] [--json OUT]

Every JATS file (``*.xml``, ``*.nxml``) of the inputs is parsed with
``paperpyramid.parsers.jats.parse_jats`` alone (no PDF, so no page finding), the whole set
once untimed to warm up and then ``--repeat`` times. Each round's figure is the CPU time
(``time.process_time``, every thread of the process) of the calls themselves; the table shows
the median round, and the fastest and slowest. CPU time, not wall time, because on a shared
machine the wall clock measures the neighbours too.

The ingest path does more with each parsed article before embedding it
(``paperpyramid.ingestion.parsing._with_contexts``): ``normalise_document``, ``link_markers``,
then ``split_section`` of every section with the default token counter. That is timed as
its own rows, on the same documents, with the share of it spent inside the tokenizer
(``encode``/``encode_batch`` calls into the Rust tokenizer), so the report says what bounds
an article's trip from XML to contexts.

``--baseline-src DIR`` times the parse of another copy of the package as well (a folder that
holds a ``paperpyramid/`` package, such as a ``git worktree`` of an older commit), in a process
of its own; the two processes take turns, a round each, so the machine's noise falls on both.

The row "floor" is the same files read into an ElementTree by the C parser and nothing more:
what any parser built on ``xml.etree`` pays before it looks at an element.

Every measuring process is pinned to one core (``--core``, default 0) and its thread pools are
limited to one thread, like ``parse_speed.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from measuring import Measuring, WorkerDied, pin_to_core  # beside this script, first on sys.path

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
DEFAULT_INPUT = HERE.parents[2] / "shared" / "pmc-pairs"
SUFFIXES = (".xml", ".nxml")

#: set before the package is imported in a measuring process: one thread for every pool
ONE_THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "RAYON_NUM_THREADS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def find_inputs(inputs: list[str]) -> list[Path]:
    """The JATS files named, or found (not recursively) in the folders named, in name order."""
    files: list[Path] = []
    for raw in inputs or [str(DEFAULT_INPUT)]:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            raise SystemExit(f"jats_speed: no such file or folder: {raw}")
    return files


# --------------------------------------------------------------------------- the measuring process


class Measurer:
    """One process's timings: a round parses every file once (and cuts it, and reads it with
    ElementTree alone, when asked), each phase's CPU seconds added up over the files."""

    def __init__(self, files: list[Path], contexts: bool, floor: bool) -> None:
        from paperpyramid.parsers.jats import parse_jats

        self.files = files
        self.parse = parse_jats
        self.cut = _cutter() if contexts else None
        self.floor = floor
        self.failures: dict[str, str] = {}
        self.counts = {"sections": 0, "blocks": 0, "contexts": 0}

    def round(self, count: bool = False) -> dict[str, float]:
        totals = {"parse": 0.0}
        if self.cut is not None:
            totals.update({"normalise+link": 0.0, "contexts": 0.0, "tokenizer": 0.0})
        if self.floor:
            totals["xml"] = 0.0
        for path in self.files:
            if str(path) in self.failures:
                continue
            started = time.process_time()
            try:
                document = self.parse(path)
            except Exception as exc:  # a file the parser refuses is reported, not timed again
                self.failures[str(path)] = f"{type(exc).__name__}: {exc}"
                continue
            totals["parse"] += time.process_time() - started
            if self.cut is not None:
                spent = self.cut(document)
                for phase in ("normalise+link", "contexts", "tokenizer"):
                    totals[phase] += spent[phase]
                if count:
                    self.counts["sections"] += len(document.sections)
                    self.counts["blocks"] += sum(len(section.blocks) for section in document.sections)
                    self.counts["contexts"] += int(spent["drafts"])
            if self.floor:
                totals["xml"] += _read_tree(path)
        return totals


def _read_tree(path: Path) -> float:
    """CPU seconds of reading the file into an ElementTree with the C parser and nothing else:
    what any parser built on ``xml.etree`` pays before it looks at an element."""
    import xml.etree.ElementTree as ET

    started = time.process_time()
    parser = ET.XMLParser(target=ET.TreeBuilder())
    parser.feed(path.read_bytes())
    root = parser.close()
    del root, parser  # freed inside the timing, as a parsed article's tree is
    return time.process_time() - started


def _cutter() -> Any:
    """What ``_with_contexts`` does to a parsed document before embedding, timed by phase."""
    from paperpyramid.citations.markers import link_markers
    from paperpyramid.contexts import split_section
    from paperpyramid.normalise import normalise_document
    from paperpyramid.tokens import TokenCounter

    spent = {"tokenizer": 0.0}

    class _TimedTokenizer:
        """The Rust tokenizer, with the CPU time of its encode calls added up."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def encode(self, *args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return self.inner.encode(*args, **kwargs)
            finally:
                spent["tokenizer"] += time.process_time() - started

        def encode_batch(self, *args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return self.inner.encode_batch(*args, **kwargs)
            finally:
                spent["tokenizer"] += time.process_time() - started

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    class _TimedCounter(TokenCounter):
        @property
        def tokenizer(self) -> Any:
            return _TimedTokenizer(super().tokenizer)

    counter = _TimedCounter()  # the default counter (all-MiniLM-L6-v2), as the pipeline's _counter() makes it

    def cut(document: Any) -> dict[str, float]:
        spent["tokenizer"] = 0.0
        started = time.process_time()
        document = normalise_document(document)
        link_markers(document)
        linked = time.process_time()
        drafts = [split_section(section, counter) for section in document.sections]
        done = time.process_time()
        return {
            "normalise+link": linked - started,
            "contexts": done - linked,
            "tokenizer": spent["tokenizer"],
            "drafts": float(sum(len(d) for d in drafts)),
        }

    return cut


def worker_main(args: argparse.Namespace) -> int:
    """Answer the driver: a JSON line of settings in, then one JSON line out per "round" asked for."""
    pin_to_core(args.core)
    import paperpyramid

    setup = json.loads(sys.stdin.readline())
    measurer = Measurer([Path(name) for name in setup["files"]], setup["contexts"], setup["floor"])
    print(json.dumps({"package": str(Path(paperpyramid.__file__).parent)}), flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "bye":
            break
        totals = measurer.round(count=command == "count")
        print(json.dumps({"totals": totals, "failures": measurer.failures, "counts": measurer.counts}), flush=True)
    return 0


# --------------------------------------------------------------------------- the driver


class Worker:
    """This script in a fresh process, importing ``paperpyramid`` from ``source``."""

    def __init__(self, name: str, source: Path, files: list[Path], args: argparse.Namespace, contexts: bool, floor: bool) -> None:
        self.name = name
        env = {**os.environ, **ONE_THREAD_ENV, "PYTHONPATH": str(source)}
        self.process = Measuring(
            f"measuring process for {name}", [sys.executable, str(HERE), "--worker", "--core", str(args.core)], env=env, cwd=source
        )
        self.rounds: list[dict[str, float]] = []
        self.result: dict[str, Any] = {}
        hello = self.ask(json.dumps({"files": [str(path) for path in files], "contexts": contexts, "floor": floor}))
        self.package = hello["package"]

    def ask(self, line: str) -> dict[str, Any]:
        try:
            return self.process.request(line)
        except WorkerDied as exc:
            raise SystemExit(f"jats_speed: {exc}") from exc

    def close(self) -> None:
        self.process.stop("bye")


def summarise(rounds: list[float], articles: int) -> dict[str, float]:
    median = statistics.median(rounds)
    return {
        "cpu_s_median": median,
        "articles_per_s": articles / median if median else float("inf"),
        "articles_per_s_best": articles / min(rounds) if min(rounds) else float("inf"),
        "articles_per_s_worst": articles / max(rounds) if max(rounds) else float("inf"),
        "ms_per_article": 1000 * median / articles if articles else 0.0,
    }


def print_report(report: dict[str, Any]) -> None:
    meta = report["meta"]
    print(
        f"jats_speed: {meta['files']} JATS files from {', '.join(meta['inputs'])}; {meta['repeat']} timed rounds; CPU time, core {meta['core']}"
    )
    print(f"machine: {meta['machine']}")
    print()
    header = f"{'what':<34} {'articles/s per core':>20} {'best':>8} {'worst':>8} {'ms/article':>11} {'CPU s/round':>12}"
    print(header)
    print("-" * len(header))
    for row in report["rows"]:
        s = row["summary"]
        print(
            f"{row['name']:<34} {s['articles_per_s']:>20.1f} {s['articles_per_s_best']:>8.1f} {s['articles_per_s_worst']:>8.1f} "
            f"{s['ms_per_article']:>11.2f} {s['cpu_s_median']:>12.3f}"
        )
    for name, result in report["runs"].items():
        if result["failures"]:
            print(f"\n{name}: {len(result['failures'])} files refused (not timed):")
            for path, error in result["failures"].items():
                print(f"  {Path(path).name}: {error}")
    counts = report["runs"]["current"].get("counts")
    if counts and any(row["name"].startswith("split_section") for row in report["rows"]):
        print(f"\nper round: {counts['sections']} sections, {counts['blocks']} blocks cut into {counts['contexts']} contexts")


def run_benchmark(args: argparse.Namespace) -> dict[str, Any]:
    files = find_inputs(args.inputs)
    if args.limit:
        files = files[: args.limit]
    if not files:
        raise SystemExit("jats_speed: no JATS files (*.xml, *.nxml) to parse")
    workers = [Worker("current", REPO, files, args, contexts=not args.no_contexts, floor=True)]
    if args.baseline_src:
        workers.append(Worker("baseline", Path(args.baseline_src).resolve(), files, args, contexts=False, floor=False))
    for worker in workers:
        for number in range(args.warmup):
            worker.ask("count" if number == 0 else "round")
    # one round of each in turn, the order turning every round: the machine's noise falls on both alike
    for number in range(args.repeat):
        shift = number % len(workers)
        for worker in workers[shift:] + workers[:shift]:
            answer = worker.ask("count" if number == 0 and not args.warmup else "round")
            worker.rounds.append(answer["totals"])
            worker.result = answer
    for worker in workers:
        worker.close()
    runs = {
        worker.name: {
            "package": worker.package,
            "rounds": {phase: [r[phase] for r in worker.rounds] for phase in worker.rounds[0]},
            "failures": worker.result["failures"],
            "counts": worker.result["counts"],
            "parsed": len(files) - len(worker.result["failures"]),
        }
        for worker in workers
    }
    current = runs["current"]
    parsed = current["parsed"]
    r = current["rounds"]
    rows = [{"name": "parse (current)", "summary": summarise(r["parse"], parsed)}]
    if "baseline" in runs:
        base = runs["baseline"]
        rows.append(
            {"name": f"parse (baseline: {Path(args.baseline_src).name})", "summary": summarise(base["rounds"]["parse"], base["parsed"])}
        )
    rows.append({"name": "  floor: ElementTree C parse alone", "summary": summarise(r["xml"], parsed)})
    if not args.no_contexts:
        rows.append({"name": "normalise + link_markers", "summary": summarise(r["normalise+link"], parsed)})
        rows.append({"name": "split_section (contexts)", "summary": summarise(r["contexts"], parsed)})
        rows.append({"name": "  of which tokenizer calls", "summary": summarise(r["tokenizer"], parsed)})
        both = [sum(values) for values in zip(r["parse"], r["normalise+link"], r["contexts"], strict=True)]
        rows.append({"name": "parse + cut (the ingest path)", "summary": summarise(both, parsed)})
    meta = {
        "inputs": args.inputs or [str(DEFAULT_INPUT)],
        "files": len(files),
        "repeat": args.repeat,
        "warmup": args.warmup,
        "core": args.core,
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "loadavg_at_end": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }
    report = {"meta": meta, "rows": rows, "runs": runs}
    print_report(report)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
        print(f"\nraw timings: {args.json}")
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="JATS parse speed on one core in articles per CPU second (parse_jats without a PDF), "
        "and the cost of cutting the parsed articles into contexts.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    parser.add_argument(
        "inputs", nargs="*", help=f"JATS files, or folders whose *.xml and *.nxml files are read (default: {DEFAULT_INPUT})"
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds over all the files (default 5); the median round is reported")
    parser.add_argument("--warmup", type=int, default=1, help="untimed rounds first (default 1)")
    parser.add_argument("--no-contexts", action="store_true", help="time the parse only, not normalising and cutting into contexts")
    parser.add_argument(
        "--baseline-src",
        metavar="DIR",
        help="also time the parse of the paperpyramid package in DIR (e.g. a git worktree of an older commit)",
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (a quick look)")
    parser.add_argument("--core", type=int, default=0, help="CPU core to pin the measuring processes to (default 0)")
    parser.add_argument("--json", metavar="OUT", help="write every round's CPU seconds and the summary as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.repeat < 1:
        raise SystemExit("jats_speed: --repeat must be at least 1")
    if args.worker:
        return worker_main(args)
    run_benchmark(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
