#!/usr/bin/env python3
"""Table engines side by side: cell accuracy against the JATS gold, and speed on one core.

    .venv/bin/python benchmarks/table_engines.py [--corpus ../shared/corpus] [--repeat 3]
        [--engines pdfplumber-lines,pdfplumber-text,camelot-lattice,camelot-stream,prototype]
        [--peer-python PATH] [--lead 7.5] [--json OUT]

Each engine runs only where the embedded parser finds a "Table N" caption: the driver runs
the parser's own passes (lines, reading order, blocks, classification, table claiming) to
get every table caption's page and box in the corpus's ``kind == pdf`` files. The engines:

  embedded          the cells ``parse_pdf`` stores today (the baseline; its cost is in the parse)
  pdfplumber-lines  pdfplumber's table finder, "lines" strategies, on the region under the caption
  pdfplumber-text   the same with the "text" strategies
  camelot-lattice   ``camelot.read_pdf(flavor="lattice", table_areas=[region])``
  camelot-stream    the same with ``flavor="stream"``
  prototype         ``paperpyramid.parsers.embedded.table_engine.extract_table(pdf, page, caption box)``

The region given to the four raw engines is the prototype's own
(:func:`~paperpyramid.parsers.embedded.table_region.find_region` on the page's pdfium lines
and rules: the caption's column, from under the caption to the table's last rule or the next
caption), found once by a worker and timed on its own (the ``region`` line): a raw engine's
cost in the parser is its time plus the region's. The prototype finds its region itself, so
its time includes it; both include opening the PDF and reading the page with pdfium.

Accuracy: on the papers with JATS gold, each engine's cells per caption are scored with
:mod:`paperpyramid.eval.table_scores` (pairing, exact-cell and cell-text recall, structure), the
functions ``paperpyramid eval parse`` uses. "+ fallback" is what the parser would store if the
engine's cells replaced the embedded cells of each table it finds something for.

Speed follows ``parse_speed.py``: one worker process per engine (this script re-invoked with
``--worker NAME``), every process pinned to one core, one request at a time, the engines
interleaved per request with their order rotated, ``--repeat`` rounds, the median per request.
The embedded parser's time per PDF (``parse_pdf``, whole PDF) is the denominator: the
"slowdown" is (parse + engine on every caption page) / parse over all the PDFs, and the
parser's lead over Unstructured ``fast`` (``--lead``, measured by parse_speed.py) shrinks by
that factor; it must stay at 5x or more.

camelot-py pulls opencv-python-headless and pandas (about 300 MB); keep it out of the project
venv and pass a venv that has it with ``--peer-python`` (the driver tries that interpreter
first for the camelot engines). An engine that no interpreter can load is reported as skipped
with the command that gets it.
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from measuring import Measuring, pin_to_core, protocol_channel  # this folder: the script's own, first on sys.path

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
CORPUS = HERE.parents[2] / "shared" / "corpus"

ENGINES = ("pdfplumber-lines", "pdfplumber-text", "camelot-lattice", "camelot-stream", "prototype")
CAMELOT = ("camelot-lattice", "camelot-stream")
PIP_HINTS = {
    "pdfplumber-lines": "pip install pdfplumber   (MIT; pulls pdfminer.six, MIT)",
    "pdfplumber-text": "pip install pdfplumber",
    "prototype": "pip install pdfplumber",
    "camelot-lattice": "python3 -m venv /tmp/camelot-venv && /tmp/camelot-venv/bin/pip install camelot-py  then --peer-python /tmp/camelot-venv/bin/python",
    "camelot-stream": "as camelot-lattice",
}
OFFLINE_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "OPENCV_NUM_THREADS": "1"}

Rows = list[list[str]]


# --------------------------------------------------------------------------- engines (worker side)
# Each setup returns (extract, version); extract(request) returns rows of cells or None.


class Unavailable(Exception):
    """The engine cannot be loaded in this interpreter."""


def _clean_rows(rows: Any) -> Rows | None:
    if not rows:
        return None
    cleaned = [[" ".join(str(cell or "").split()) for cell in row] for row in rows]
    return cleaned if any(any(row) for row in cleaned) else None


def _setup_pdfplumber(strategy: str) -> tuple[Callable[[dict[str, Any]], Rows | None], str]:
    try:
        import pdfplumber
    except ImportError as exc:
        raise Unavailable(str(exc)) from exc
    settings = {"vertical_strategy": strategy, "horizontal_strategy": strategy}

    def extract(request: dict[str, Any]) -> Rows | None:
        with pdfplumber.open(request["file"], pages=[request["page"]]) as pdf:
            crop = pdf.pages[0].crop(tuple(request["region"]), strict=False)
            tables = crop.find_tables(settings)
            if not tables:
                return None
            return _clean_rows(min(tables, key=lambda table: table.bbox[1]).extract())

    return extract, f"pdfplumber {pdfplumber.__version__} (pdfminer.six {_version('pdfminer.six')})"


def _setup_camelot(flavor: str) -> tuple[Callable[[dict[str, Any]], Rows | None], str]:
    try:
        import warnings

        import camelot
    except ImportError as exc:
        raise Unavailable(str(exc)) from exc
    warnings.filterwarnings("ignore")  # "No tables found in table area": a result, not news

    def extract(request: dict[str, Any]) -> Rows | None:
        x0, top, x1, bottom = request["region"]
        height = request["page_height"]
        area = f"{x0},{height - top},{x1},{height - bottom}"  # PDF space: origin bottom-left
        tables = camelot.read_pdf(request["file"], pages=str(request["page"]), flavor=flavor, table_areas=[area])
        if tables.n == 0:
            return None
        return _clean_rows(tables[0].df.values.tolist())

    return extract, f"camelot-py {camelot.__version__} ({flavor})"


def _setup_prototype() -> tuple[Callable[[dict[str, Any]], Rows | None], str]:
    sys.path.insert(0, str(REPO))
    try:
        import pdfplumber
        import pypdfium2 as pdfium

        from paperpyramid.parsers.embedded.table_engine import extract_table
    except ImportError as exc:
        raise Unavailable(str(exc)) from exc

    def extract(request: dict[str, Any]) -> Rows | None:
        return extract_table(Path(request["file"]), request["page"], tuple(request["caption"]))

    return extract, f"table_engine over pdfium {pdfium.PDFIUM_INFO.build} (+ pdfplumber {pdfplumber.__version__} lattice steps)"


def _setup_region() -> tuple[Callable[[dict[str, Any]], Rows | None], str]:
    sys.path.insert(0, str(REPO))
    try:
        import pypdfium2 as pdfium

        from paperpyramid.parsers.embedded.layout import extract_page
        from paperpyramid.parsers.embedded.table_region import find_region
        from paperpyramid.parsers.embedded.table_rules import read_rules
    except ImportError as exc:
        raise Unavailable(str(exc)) from exc

    def extract(request: dict[str, Any]) -> Rows | None:
        pdf = pdfium.PdfDocument(request["file"])
        try:
            page = pdf[request["page"] - 1]
            lines, rules = extract_page(page, request["page"]).lines, read_rules(page)
            width, height = page.get_size()
            page.close()
        finally:
            pdf.close()
        region = find_region(lines, rules, (0.0, 0.0, width, height), tuple(request["caption"]))
        return None if region is None else [[str(value) for value in region]]

    return extract, f"table_engine.find_region over pdfium {pdfium.PDFIUM_INFO.build}"


def _setup_embedded() -> tuple[Callable[[dict[str, Any]], Rows | None], str]:
    """Not an engine: the parse itself, timed per PDF (the denominator of the slowdown)."""
    sys.path.insert(0, str(REPO))
    from paperpyramid import __version__
    from paperpyramid.parsers.embedded import parse_pdf

    def extract(request: dict[str, Any]) -> Rows | None:
        parse_pdf(Path(request["file"]))
        return None

    return extract, f"paperpyramid {__version__} parse_pdf"


SETUPS: dict[str, Callable[[], tuple[Callable[[dict[str, Any]], Rows | None], str]]] = {
    "pdfplumber-lines": lambda: _setup_pdfplumber("lines"),
    "pdfplumber-text": lambda: _setup_pdfplumber("text"),
    "camelot-lattice": lambda: _setup_camelot("lattice"),
    "camelot-stream": lambda: _setup_camelot("stream"),
    "prototype": _setup_prototype,
    "region": _setup_region,
    "parse": _setup_embedded,
}


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


def worker_main(name: str, core: int) -> int:
    """Serve requests for one engine over stdin/stdout, one JSON object a line."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    pinned = pin_to_core(core)
    send = protocol_channel()  # engines print: fd 1 is for the protocol only

    try:
        extract, version = SETUPS[name]()
    except Exception as exc:  # noqa: BLE001 - a missing or broken install is reported, not raised
        send({"event": "ready", "ok": False, "error": f"{type(exc).__name__}: {exc}".splitlines()[0]})
        return 0
    send({"event": "ready", "ok": True, "version": version, "core": pinned, "python": sys.executable})
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "stop":
            break
        gc.collect()
        error = None
        rows: Rows | None = None
        started = time.perf_counter()
        try:
            rows = extract(request)
        except Exception as exc:  # noqa: BLE001 - a failed extraction is a result
            error = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        send({"ok": error is None, "seconds": time.perf_counter() - started, "rows": rows, "error": error})
    return 0


# --------------------------------------------------------------------------- driver


def start_process(name: str, python: str, core: int, log_dir: Path) -> Measuring:
    """One engine in one process, pinned to one core: the driver's end of the pipe."""
    env = {**os.environ, **{k: v for k, v in OFFLINE_ENV.items() if k not in os.environ}, "PYTHONUNBUFFERED": "1"}
    command = [python, str(HERE), "--worker", name, "--core", str(core)]
    return Measuring(name, command, env=env, cwd=REPO, log=log_dir / f"{name}.stderr.log")


def start_worker(name: str, pythons: list[str], core: int, log_dir: Path) -> tuple[Measuring | None, str]:
    """The worker of the first interpreter that loads the engine, or None and why not."""
    reasons = []
    for python in dict.fromkeys(pythons):
        worker = start_process(name, python, core, log_dir)
        try:
            ready = worker.read(timeout=300)
        except (TimeoutError, RuntimeError, json.JSONDecodeError) as exc:
            worker.stop({"cmd": "stop"})
            reasons.append(f"{python}: {exc}")
            continue
        if ready.get("ok"):
            return worker, f"{ready['version']} [{python}]"
        worker.stop({"cmd": "stop"})
        reasons.append(f"{python}: {ready.get('error')}")
    return None, "; ".join(reasons) + f"  -> to get it: {PIP_HINTS.get(name, '?')}"


@dataclass(frozen=True)
class Caption:
    """A table caption found by the embedded parser: where an engine is asked to look."""

    pdf: Path
    page: int
    label: str | None
    caption: str
    bbox: tuple[float, float, float, float]
    page_height: float


def read_corpus(corpus: Path) -> tuple[list[Path], dict[str, Path]]:
    """The corpus's ``kind == pdf`` files, and the JATS gold of those that have one."""
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    pdfs = [corpus / row["file"] for row in rows if row.get("kind") == "pdf" and (corpus / row["file"]).is_file()]
    gold = {row["pairs_with"]: corpus / row["file"] for row in rows if row.get("kind") == "gold-jats"}
    return pdfs, gold


def table_captions(path: Path) -> list[Caption]:
    """Every table caption of a PDF, as the embedded parser sees it before assembling sections.

    These are ``parse_pdf``'s first passes (``parser._build_document`` up to ``_mark_tables``),
    repeated here because the parser keeps a caption's box only inside its table's box.
    """
    from paperpyramid.parsers.embedded import blocks as blk
    from paperpyramid.parsers.embedded import parser
    from paperpyramid.parsers.embedded.block_breaks import split_blocks
    from paperpyramid.parsers.embedded.layout import extract_page
    from paperpyramid.parsers.embedded.reading_order import (
        body_font,
        body_font_size,
        drop_unreadable_lines,
        order_page,
        remove_page_furniture,
    )

    pdf = parser.open_pdf(path)
    try:
        pages = []
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                pages.append(extract_page(page, index + 1))
            finally:
                page.close()
    finally:
        pdf.close()
    drop_unreadable_lines(pages)
    token = blk.VOCABULARY.set(blk.Vocabulary.of([line.text for page in pages for line in page.lines]))
    try:
        remove_page_furniture(pages)
        body_size, font = body_font_size(pages), body_font(pages)
        blocks = []
        for page in pages:
            page_blocks = split_blocks(order_page(page), body_size)
            for block in page_blocks:
                blk.classify(block, body_size, font)
            blocks += page_blocks
        parser._drop_small_print(blocks, body_size)
        parser._mark_tables(blocks, body_size)
        heights = {page.number: page.height for page in pages}
        return [
            Caption(path, block.page, block.label, block.text, (block.x0, block.top, block.x1, block.bottom), heights[block.page])
            for block in blocks
            if block.kind == "caption" and block.extra.get("caption_kind") == "table"
        ]
    finally:
        blk.VOCABULARY.reset(token)


@dataclass
class Run:
    name: str
    version: str = ""
    skipped: str | None = None
    worker: Measuring | None = None
    #: request key -> per-round answers
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))


def _key(caption: Caption) -> str:
    return f"{caption.pdf.name}#{caption.page}#{caption.bbox[1]:.1f}#{caption.bbox[0]:.1f}"


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from paperpyramid.parsers.embedded import parse_pdf

    corpus = Path(args.corpus)
    pdfs, gold = read_corpus(corpus)
    if args.limit:
        pdfs = pdfs[: args.limit]
    core = pin_to_core(args.core)
    log_dir = Path(tempfile.mkdtemp(prefix="table_engines."))

    def say(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr)

    say(f"table_engines: {len(pdfs)} PDFs from {corpus}; worker logs in {log_dir}")

    captions: list[Caption] = []
    embedded: dict[str, list[Any]] = {}
    for path in pdfs:
        try:
            captions += table_captions(path)
            if path.name in gold:
                embedded[path.name] = parse_pdf(path).tables
        except Exception as exc:  # noqa: BLE001 - a PDF the parser refuses has no captions to try
            say(f"  {path.name}: no captions ({type(exc).__name__}: {exc})")
    say(f"  {len(captions)} table captions on {len({(c.pdf, c.page) for c in captions})} pages")

    names = ["parse", "region", *args.engines]
    runs = [Run(name) for name in names]
    for run in runs:
        pythons = [args.peer_python, sys.executable] if run.name in CAMELOT and args.peer_python else [sys.executable]
        run.worker, detail = start_worker(run.name, pythons, core if core is not None else args.core, log_dir)
        if run.worker is None:
            run.skipped = detail
        else:
            run.version = detail
        say(f"  {run.name:<17} {'SKIPPED: ' + detail if run.worker is None else detail}")

    regions: dict[str, list[float] | None] = {}
    for caption in captions:  # the raw engines' region, found once (timed in the "region" rounds)
        found = _call(runs[1], {"file": str(caption.pdf), "page": caption.page, "caption": list(caption.bbox)}, args.timeout)
        regions[_key(caption)] = [float(v) for v in found["rows"][0]] if found.get("rows") else None

    engine_runs = [run for run in runs[1:] if run.worker is not None]
    for round_index in range(args.repeat):
        for index, path in enumerate(pdfs):
            if runs[0].worker is not None:
                runs[0].answers[path.name].append(_call(runs[0], {"file": str(path)}, args.timeout))
            for c_index, caption in enumerate(c for c in captions if c.pdf == path):
                region = regions[_key(caption)]
                request = {
                    "file": str(path),
                    "page": caption.page,
                    "caption": list(caption.bbox),
                    "region": region,
                    "page_height": caption.page_height,
                }
                shift = (round_index + index + c_index) % len(engine_runs)
                for run in engine_runs[shift:] + engine_runs[:shift]:
                    if region is None and run.name not in ("prototype", "region"):
                        answer = {"ok": True, "seconds": 0.0, "rows": None, "error": None}  # nothing to crop to
                    else:
                        answer = _call(run, request, args.timeout)
                    run.answers[_key(caption)].append(answer)
            say(f"  [{round_index + 1}/{args.repeat}] {index + 1:>2}/{len(pdfs)} {path.name}")
    for run in runs:
        if run.worker is not None:
            run.worker.stop({"cmd": "stop"})
    return {"runs": runs, "captions": captions, "embedded": embedded, "gold": gold, "pdfs": pdfs, "core": core}


def _call(run: Run, request: dict[str, Any], timeout: float) -> dict[str, Any]:
    assert run.worker is not None
    try:
        return run.worker.request({"cmd": "extract", **request}, timeout)
    except (TimeoutError, RuntimeError, json.JSONDecodeError, BrokenPipeError) as exc:
        return {"ok": False, "seconds": timeout, "rows": None, "error": str(exc)}


# --------------------------------------------------------------------------- scoring and report


def score(measured: dict[str, Any]) -> dict[str, Any]:
    """Per engine: the scores of its cells alone and with the embedded cells as fallback."""
    from paperpyramid.eval.table_scores import TableGrid, load_gold_tables, score_tables, summarise_tables

    runs: list[Run] = measured["runs"]
    gold: dict[str, Path] = measured["gold"]
    embedded: dict[str, list[Any]] = measured["embedded"]
    captions: list[Caption] = measured["captions"]
    gold_tables = {name: load_gold_tables(path) for name, path in gold.items() if name in embedded}

    def grids_for(name: str, rows_of: Callable[[Caption], Rows | None], fallback: bool) -> list[Any]:
        mine = [caption for caption in captions if caption.pdf.name == name]
        if not fallback:
            return [TableGrid(c.label, c.caption, tuple(tuple(row) for row in rows_of(c) or [])) for c in mine]
        # the parser's tables, in order, each with the engine's cells where it found any
        pool = {(c.page, c.label): [] for c in mine}  # type: dict[tuple[int, str | None], list[Caption]]
        for c in mine:
            pool[(c.page, c.label)].append(c)
        grids = []
        for table in embedded[name]:
            twins = pool.get((table.page, table.label)) or []
            found = rows_of(twins.pop(0)) if twins else None
            cells = found or table.cells
            grids.append(TableGrid(table.label, table.caption, tuple(tuple(row) for row in cells)))
        return grids

    def first_rows(run: Run) -> Callable[[Caption], Rows | None]:
        return lambda caption: (run.answers.get(_key(caption)) or [{}])[0].get("rows")

    results: dict[str, Any] = {}
    embedded_papers = [
        score_tables(name, gold_tables[name], [TableGrid(t.label, t.caption, tuple(tuple(r) for r in t.cells)) for t in embedded[name]])
        for name in gold_tables
    ]
    results["embedded"] = {"alone": embedded_papers, "summary": summarise_tables(embedded_papers)}
    for run in runs:
        if run.skipped is not None or run.name in ("parse", "region"):
            continue
        alone = [score_tables(name, gold_tables[name], grids_for(name, first_rows(run), False)) for name in gold_tables]
        backed = [score_tables(name, gold_tables[name], grids_for(name, first_rows(run), True)) for name in gold_tables]
        results[run.name] = {
            "alone": alone,
            "summary": summarise_tables(alone),
            "fallback": backed,
            "fallback_summary": summarise_tables(backed),
        }
    return results


def timings(measured: dict[str, Any], lead: float) -> dict[str, Any]:
    runs: list[Run] = measured["runs"]
    captions: list[Caption] = measured["captions"]
    parse = runs[0]
    parse_s = {
        name: statistics.median(a["seconds"] for a in answers) for name, answers in parse.answers.items() if all(a["ok"] for a in answers)
    }
    total_parse = sum(parse_s.values())
    region = next(run for run in runs if run.name == "region")
    region_s = sum(_median_s(region, caption) for caption in captions) if region.worker is not None or region.answers else 0.0
    pages = {(caption.pdf.name, caption.page) for caption in captions}
    out: dict[str, Any] = {
        "parse_s": total_parse,
        "pdfs": len(parse_s),
        "captions": len(captions),
        "pages": len(pages),
        "region_s": region_s,
        "engines": {},
    }
    for run in runs[1:]:
        if run.skipped is not None:
            continue
        per_page: dict[tuple[str, int], float] = defaultdict(float)
        failed = 0
        for caption in captions:
            per_page[(caption.pdf.name, caption.page)] += _median_s(run, caption)
            failed += sum(1 for answer in run.answers.get(_key(caption), []) if not answer.get("ok"))
        total = sum(per_page.values())
        in_parser = total + (region_s if run.name not in ("prototype", "region") else 0.0)
        slowdown = (total_parse + in_parser) / total_parse if total_parse else None
        out["engines"][run.name] = {
            "s_per_page_median": statistics.median(per_page.values()) if per_page else None,
            "s_per_page_max": max(per_page.values(), default=None),
            "total_s": total,
            "in_parser_s": in_parser,
            "slowdown": slowdown,
            "pdfs_per_s": len(parse_s) / (total_parse + in_parser) if total_parse else None,
            "lead": lead / slowdown if slowdown else None,
            "failed": failed,
        }
    out["pdfs_per_s"] = len(parse_s) / total_parse if total_parse else None
    return out


def _median_s(run: Run, caption: Caption) -> float:
    answers = run.answers.get(_key(caption)) or []
    return statistics.median(answer["seconds"] for answer in answers) if answers else 0.0


def _f(value: float | None, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows]


def report(measured: dict[str, Any], scores: dict[str, Any], speed: dict[str, Any], lead: float) -> list[str]:
    runs: list[Run] = measured["runs"]
    names = list(scores)
    lines = ["", "Per gold table: exact-cell recall / cell-text recall / structure (engine alone; '-' = no gold cells)"]
    base = scores["embedded"]["alone"]
    headers = ["paper", "table", "gold"] + names
    rows = []
    for p_index, paper in enumerate(base):
        for t_index, table in enumerate(paper.scores):
            row = [
                paper.pdf.split("-20")[0][:12],
                (table.label or "-").replace("Table ", "T").rstrip("."),
                f"{table.gold_shape[0]}x{table.gold_shape[1]}",
            ]
            for name in names:
                mine = scores[name]["alone"][p_index].scores[t_index]
                row.append(f"{_f(mine.exact_cell_recall)}/{_f(mine.cell_text_recall)}/{_f(mine.structure)}")
            rows.append(row)
    lines += _table(headers, rows)
    lines += [
        "",
        "Overall, mean over the gold tables (detection, exact-cell, cell-text, structure; unpaired = extracted tables no gold took):",
    ]
    rows = []
    for name in names:
        for kind in ("summary", "fallback_summary"):
            summary = scores[name].get(kind)
            if summary is None:
                continue
            label = name if kind == "summary" else f"{name} + fallback"
            rows.append(
                [
                    label,
                    "",
                    _f(summary.detection_recall),
                    _f(summary.mean_exact_cell_recall),
                    _f(summary.mean_cell_text_recall),
                    _f(summary.mean_structure),
                    str(summary.unpaired),
                ]
            )
    lines += _table(["engine", "", "detection", "exact", "text", "structure", "unpaired"], rows)
    lines += [
        "",
        f"Speed on one core (median of {measured.get('repeat', '?')} per request): {speed['captions']} table captions on {speed['pages']} pages "
        f"of {speed['pdfs']} PDFs; parse_pdf alone {speed['parse_s']:.2f} s = {_f(speed['pdfs_per_s'])} PDFs/s; "
        f"region finding {speed['region_s']:.2f} s in all (added to the raw engines)",
    ]
    rows = [["embedded", "", "(in parse)", "-", "0.00", "1.00", _f(speed["pdfs_per_s"]), f"{lead:.1f}x", "-"]]
    for name, entry in speed["engines"].items():
        rows.append([
            name, "", _f(entry["s_per_page_median"], ".3f"), _f(entry["s_per_page_max"], ".3f"), _f(entry["in_parser_s"]), _f(entry["slowdown"]),
            _f(entry["pdfs_per_s"]), _f(entry["lead"], ".1f") + "x", str(entry["failed"]),
        ])  # fmt: skip
    lines += _table(["engine", "", "s/table page (median)", "max", "added s", "slowdown", "PDFs/s", "lead vs unstructured", "errors"], rows)
    lines.append(
        f"  lead = {lead:g}x (parse_speed.py, --lead) / slowdown; it must stay >= 5x. Each request opens the PDF and reads its page anew."
    )
    skipped = [run for run in runs if run.skipped is not None]
    for run in skipped:
        lines.append(f"  skipped {run.name}: {run.skipped}")
    lines.append("  versions: " + "; ".join(f"{run.name}: {run.version}" for run in runs if run.skipped is None))
    return lines


def to_json(measured: dict[str, Any], scores: dict[str, Any], speed: dict[str, Any]) -> dict[str, Any]:
    from paperpyramid.eval.table_scores import tables_to_json

    return {
        "meta": {
            "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} CPUs, Python {platform.python_version()}",
            "core": measured["core"],
        },
        "speed": speed,
        "scores": {
            name: {kind: tables_to_json(value) for kind, value in entry.items() if kind in ("alone", "fallback")}
            for name, entry in scores.items()
        },
        "answers": {run.name: dict(run.answers) for run in measured["runs"]},
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Table engines against the JATS gold tables, and their cost on one core.")
    parser.add_argument("--corpus", default=str(CORPUS), help="a folder with MANIFEST.tsv (default ../shared/corpus)")
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated, from {', '.join(ENGINES)}")
    parser.add_argument("--peer-python", metavar="PATH", help="interpreter of a venv with camelot-py (tried first for camelot)")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds (default 3; accuracy uses the first)")
    parser.add_argument(
        "--lead", type=float, default=7.5, help="the parser's speed-up over Unstructured fast from parse_speed.py (default 7.5)"
    )
    parser.add_argument("--core", type=int, default=0, help="CPU core every process is pinned to (default 0)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before one request counts as failed")
    parser.add_argument("--limit", type=int, default=0, help="only the first N PDFs (a quick look)")
    parser.add_argument("--json", metavar="OUT", help="write the figures and every answer as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args.core)
    sys.path.insert(0, str(REPO))
    args.engines = [name.strip() for name in args.engines.split(",") if name.strip()]
    unknown = [name for name in args.engines if name not in ENGINES]
    if unknown:
        raise SystemExit(f"table_engines: unknown engine(s) {', '.join(unknown)}; known: {', '.join(ENGINES)}")
    if args.repeat < 1:
        raise SystemExit("table_engines: --repeat must be at least 1")
    measured = measure(args)
    measured["repeat"] = args.repeat
    scores = score(measured)
    speed = timings(measured, args.lead)
    print("\n".join(report(measured, scores, speed, args.lead)))
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(measured, scores, speed), indent=1, default=str) + "\n")
        print(f"\nfigures and answers: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
