#!/usr/bin/env python3
"""The table model (SLANet-plus, :mod:`paperpyramid.parsers.embedded.table_model`) against the
table engine (:mod:`paperpyramid.parsers.embedded.table_engine`), table by table, on JATS gold.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/table_model.py [--gold /tmp/pmc-dev]
        [--db /tmp/new-dev.sqlite] [--dpi 144] [--limit N] [--json OUT]

For every PDF of the gold folder (``MANIFEST.tsv``: ``kind == pdf`` rows whose ``pairs_with``
is a ``.nxml``), the embedded parser's table captions (``table_engines.table_captions``) give
the tables to read. Per caption, on the page as ``read_table_page`` reads it:

  engine       ``find_region`` and ``read_region`` (or the region over the caption where nothing
               table-like is under it), as ``table_rows`` does: the engine's cells, recomputed
  model        the model on the engine's region (the region the engine's cells came from)
  model-tight  the model on that region shrunk to the box of its text and rules, 4 pt around
               (the engine's region runs across the column's full width; the model sees it
               scaled to 488 pixels, so white margins cost it resolution)
  rule         per table, the engine or model-tight as :func:`choose` says
  stored       the cells the corpus at ``--db`` holds (the parse as stored; no timing)

Each gold table (:func:`paperpyramid.eval.table_scores.load_gold_tables`) is paired with the
extracted tables by label and caption (:func:`~paperpyramid.eval.table_scores.pair_tables`; every
system but ``stored`` shares the captions, so one pairing) and scored: found (paired and with
cells), exact-cell recall, cell-text recall, shape (``structure_score``), TEDS and TEDS-Struct
(``table-recognition-metric``: both grids written as HTML, one ``<td>`` per grid position, as
the corpus stores them, spans expanded), seconds per table (the region, the engine's cells /
the render, model and filling; the page's reading is shared and not counted).

TEDS is ``table-recognition-metric``'s where ``pip install table-recognition-metric==0.0.6``
(Apache-2.0; apted, Levenshtein, lxml) is done, else the corpus's own
(:mod:`paperpyramid.eval.teds`, as ``eval parse`` reports it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from html import escape
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))

import pypdfium2 as pdfium  # noqa: E402
from table_engines import Caption, table_captions  # noqa: E402 - this folder's own script

from paperpyramid.eval.parse import read_manifest as parse_manifest  # noqa: E402
from paperpyramid.eval.parse import read_stored_tables  # noqa: E402
from paperpyramid.eval.table_scores import (  # noqa: E402
    TableGrid,
    cell_text_recall,
    exact_cell_recall,
    load_gold_tables,
    pair_tables,
    structure_score,
    table_teds,
)
from paperpyramid.parsers.embedded.layout import Line  # noqa: E402
from paperpyramid.parsers.embedded.table_engine import read_region, read_table_page  # noqa: E402
from paperpyramid.parsers.embedded.table_model import StructureModel, fit_region, recognise_table  # noqa: E402
from paperpyramid.parsers.embedded.table_region import find_region, region_over_caption  # noqa: E402
from paperpyramid.parsers.embedded.table_rules import BBox, Rule  # noqa: E402

SYSTEMS = ("engine", "model", "model-tight", "rule", "stored")
Rows = list[list[str]]


# --------------------------------------------------------------------------- reading


@dataclass
class Reading:
    """One caption read by every system: cells (``None``: nothing found) and seconds."""

    caption: Caption
    region: BBox | None
    ruled: bool
    cells: dict[str, Rows | None] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    confidence: dict[str, float] = field(default_factory=dict)


def engine_region(lines: Sequence[Line], rules: Sequence[Rule], page: BBox, caption: BBox) -> tuple[BBox | None, Rows | None]:
    """The region the engine's cells come from and the cells, as ``table_rows`` finds them."""
    region = find_region(lines, rules, page, caption)
    cells = read_region(lines, rules, region) if region is not None else None
    if cells is None:
        above = region_over_caption(lines, page, caption)
        if above is not None:
            found = read_region(lines, rules, above)
            if found is not None or region is None:
                return above, found
    return region, cells


def ruled_grid(rules: Sequence[Rule], region: BBox) -> bool:
    """Vertical rules in the region: the engine reads it as a drawn grid (its lattice step)."""
    x0, top, x1, bottom = region
    near = [rule for rule in rules if rule.x1 >= x0 - 2 and rule.x0 <= x1 + 2 and rule.bottom >= top - 2 and rule.top <= bottom + 2]
    return sum(1 for rule in near if not rule.horizontal) >= 3


def _model_cells(grid: Rows) -> Rows | None:
    filled = sum(1 for row in grid for cell in row if cell)
    return grid if len(grid) >= 2 and max(len(row) for row in grid) >= 2 and filled >= 2 else None


def read_paper(path: Path, model: StructureModel, dpi: float) -> list[Reading]:
    readings = []
    pdf = pdfium.PdfDocument(path)
    pages: dict[int, tuple[list[Line], list[Rule], BBox]] = {}
    try:
        for caption in table_captions(path):
            if caption.page not in pages:
                pages[caption.page] = read_table_page(pdf, caption.page)
            lines, rules, page = pages[caption.page]
            started = time.perf_counter()
            region, cells = engine_region(lines, rules, page, caption.bbox)
            reading = Reading(caption, region, region is not None and ruled_grid(rules, region))
            reading.cells["engine"], reading.seconds["engine"] = cells, time.perf_counter() - started
            for name, box in (("model", region), ("model-tight", fit_region(region, lines, rules) if region else None)):
                if box is None:
                    reading.cells[name], reading.seconds[name] = None, 0.0
                    continue
                started = time.perf_counter()
                table = recognise_table(pdf, caption.page, box, lines, model=model, dpi=dpi)
                reading.seconds[name] = time.perf_counter() - started
                reading.cells[name] = _model_cells(table.grid)
                reading.confidence[name] = table.structure.confidence
            readings.append(reading)
    finally:
        pdf.close()
    return readings


# --------------------------------------------------------------------------- the rule


def choose(reading: Reading) -> str:
    """Which system's cells the rule keeps for one table: the model where the engine found
    nothing, or where the table is not ruled as a grid and the model finds more rows than the
    engine (the engine took a row's wrapped line for the row under it, or joined rows: on
    the dev tables the model's cells were then better 13 times in 18, 8 of them the tables of
    one paper). A ruled grid stays with the engine: there the model's extra rows were more
    often split cells (better 5 times, worse 7)."""
    engine, model = reading.cells.get("engine"), reading.cells.get("model-tight")
    if model is None:
        return "engine"
    if engine is None or (not reading.ruled and len(model) > len(engine)):
        return "model-tight"
    return "engine"


# --------------------------------------------------------------------------- scoring


def grid_html(rows: Sequence[Sequence[str]]) -> str:
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<html><body><table>{body}</table></body></html>"


@dataclass
class Score:
    pdf: str
    label: str | None
    gold_shape: tuple[int, int]
    shape: tuple[int, int] | None
    found: bool
    exact: float | None
    text: float | None
    shape_score: float | None
    teds: float | None
    teds_struct: float | None
    seconds: float | None
    chosen: str | None = None


Scorer = Callable[[TableGrid, TableGrid], float]


def teds_scorers() -> tuple[Scorer, Scorer]:
    """TEDS and TEDS-Struct of (extracted, gold): ``table-recognition-metric``'s where it is
    installed, else the corpus's own (:func:`paperpyramid.eval.table_scores.table_teds`, which
    ``eval parse`` and ``parse_real.py`` report and which is tested against that package)."""
    try:
        from table_recognition_metric import TEDS
    except ImportError:
        print("table-recognition-metric is not installed: TEDS by paperpyramid.eval.teds", file=sys.stderr)
        return (lambda found, gold: table_teds(gold, found) or 0.0), (
            lambda found, gold: table_teds(gold, found, structure_only=True) or 0.0
        )
    content, structure = TEDS(), TEDS(structure_only=True)
    return (
        (lambda found, gold: float(content(grid_html(found.rows), grid_html(gold.rows)))),
        (lambda found, gold: float(structure(grid_html(found.rows), grid_html(gold.rows)))),
    )


def score_one(pdf: str, gold: TableGrid, found: TableGrid | None, seconds: float | None, teds: tuple[Scorer, Scorer]) -> Score:
    has_cells = any(cell.strip() for row in gold.rows for cell in row)
    if found is None or not found.rows:
        zero = 0.0 if has_cells else None
        teds_zero = zero if _positions(gold) <= TEDS_POSITIONS else None
        return Score(pdf, gold.label, gold.shape, found.shape if found else None, False, zero, zero, zero, teds_zero, teds_zero, seconds)
    # TEDS (pure-Python tree edit distance) takes minutes on a 70 x 16 grid: large tables go without it
    sized = has_cells and _positions(gold) <= TEDS_POSITIONS and _positions(found) <= 2 * TEDS_POSITIONS
    return Score(
        pdf, gold.label, gold.shape, found.shape, True,
        exact_cell_recall(gold, found), cell_text_recall(gold, found), structure_score(gold, found),
        teds[0](found, gold) if sized else None, teds[1](found, gold) if sized else None,
        seconds,
    )  # fmt: skip


#: gold grids with more positions than this are scored without TEDS (every system alike)
TEDS_POSITIONS = 300


def _positions(grid: TableGrid) -> int:
    rows, columns = grid.shape
    return rows * columns


def _seconds(name: str, reading: Reading) -> float:
    """What a system costs on one caption: the rule runs the engine, and the model where the grid is not ruled."""
    if name == "rule":
        return reading.seconds["engine"] + (0.0 if reading.ruled else reading.seconds["model-tight"])
    return reading.seconds[name]


def joined(grids: Sequence[TableGrid]) -> TableGrid | None:
    if not grids:
        return None
    return TableGrid(grids[0].label, grids[0].caption, tuple(row for grid in grids for row in grid.rows))


def score_paper(
    pdf: str, gold: list[TableGrid], readings: list[Reading], stored: list[TableGrid], teds: tuple[Scorer, Scorer]
) -> dict[str, list[Score]]:
    captions = [TableGrid(r.caption.label, r.caption.caption, ()) for r in readings]
    pairing = pair_tables(gold, captions)
    scores: dict[str, list[Score]] = {name: [] for name in SYSTEMS}
    for table, indices in zip(gold, pairing.pieces, strict=True):
        pieces = [readings[index] for index in indices]
        for name in ("engine", "model", "model-tight", "rule"):
            chosen = [choose(piece) if name == "rule" else name for piece in pieces]
            grids = [
                TableGrid(p.caption.label, p.caption.caption, tuple(tuple(row) for row in p.cells[c] or []))
                for p, c in zip(pieces, chosen, strict=True)
            ]
            seconds = sum(_seconds(name, piece) for piece in pieces)
            score = score_one(pdf, table, joined(grids), seconds if pieces else None, teds)
            score.chosen = ",".join(chosen) if name == "rule" else None
            scores[name].append(score)  # fmt: skip
    stored_pairing = pair_tables(gold, stored)
    for table, indices in zip(gold, stored_pairing.pieces, strict=True):
        scores["stored"].append(score_one(pdf, table, joined([stored[index] for index in indices]), None, teds))
    return scores


def load_readings(path: Path) -> dict[str, list[Reading]]:
    """The readings of a ``--json`` run, by PDF file name."""
    readings: dict[str, list[Reading]] = {}
    for item in json.loads(path.read_text())["readings"]:
        caption = Caption(**{**item["caption"], "pdf": Path(item["caption"]["pdf"]), "bbox": tuple(item["caption"]["bbox"])})
        region = tuple(item["region"]) if item["region"] else None
        reading = Reading(caption, region, item["ruled"], item["cells"], item["seconds"], item["confidence"])  # type: ignore[arg-type]
        readings.setdefault(caption.pdf.name, []).append(reading)
    return readings


# --------------------------------------------------------------------------- report


def read_manifest(folder: Path) -> list[tuple[Path, Path]]:
    """(PDF, JATS gold) of each pair in the folder's MANIFEST.tsv whose PDF is there."""
    rows = parse_manifest(folder / "MANIFEST.tsv")
    return [
        (folder / row.file, folder / row.pairs_with)
        for row in rows
        if row.kind == "pdf" and row.pairs_with.endswith(".nxml") and (folder / row.file).is_file()
    ]


def read_stored(db: Path | None) -> dict[str, list[TableGrid]]:
    """The stored tables of each PDF (by file name) of the corpus at ``db``, in printed order."""
    return read_stored_tables(db) if db is not None and db.is_file() else {}


def _mean(values: Sequence[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.fmean(present) if present else None


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def summary(scores: Sequence[Score]) -> dict[str, Any]:
    seconds = [score.seconds for score in scores if score.seconds is not None]
    return {
        "tables": len(scores),
        "found": _mean([1.0 if score.found else 0.0 for score in scores]),
        "exact": _mean([score.exact for score in scores]),
        "text": _mean([score.text for score in scores]),
        "shape": _mean([score.shape_score for score in scores]),
        "teds": _mean([score.teds for score in scores]),
        "teds_struct": _mean([score.teds_struct for score in scores]),
        "seconds_mean": statistics.fmean(seconds) if seconds else None,
        "seconds_max": max(seconds) if seconds else None,
    }


def render(scores: dict[str, list[Score]]) -> list[str]:
    lines = ["per gold table (found exact text TEDS TEDS-S seconds; '-' = not found):"]
    header = f"  {'pdf':42} {'label':5} {'gold':7}" + "".join(f" | {name:^33}" for name in ("engine", "model-tight", "stored"))
    lines.append(header)
    for index, engine in enumerate(scores["engine"]):
        cells = []
        for name in ("engine", "model-tight", "stored"):
            score = scores[name][index]
            cells.append(
                f"{_number(score.exact)} {_number(score.text)} {_number(score.teds)} {_number(score.teds_struct)} {_number(score.seconds)}".rjust(
                    33
                )
                if score.found
                else "-".center(33)
            )
        shape = f"{engine.gold_shape[0]}x{engine.gold_shape[1]}"
        rule = scores["rule"][index].chosen or "-"
        lines.append(
            f"  {engine.pdf[:42]:42} {str(engine.label or '-')[:5]:5} {shape:7}"
            + "".join(f" | {cell}" for cell in cells)
            + f"  rule: {rule}"
        )
    lines += [
        "",
        f"  {'system':12} {'tables':>6} {'found':>6} {'exact':>6} {'text':>6} {'shape':>6} {'TEDS':>6} {'TEDS-S':>6} {'s/table':>8} {'max s':>6}",
    ]
    for name in SYSTEMS:
        s = summary(scores[name])
        lines.append(
            f"  {name:12} {s['tables']:6d} {_number(s['found']):>6} {_number(s['exact']):>6} {_number(s['text']):>6} {_number(s['shape']):>6} "
            f"{_number(s['teds']):>6} {_number(s['teds_struct']):>6} {_number(s['seconds_mean'], 3):>8} {_number(s['seconds_max']):>6}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--gold", type=Path, default=Path("/tmp/pmc-dev"), help="a folder with MANIFEST.tsv, PDFs and their .nxml gold")
    parser.add_argument(
        "--db", type=Path, default=Path("/tmp/new-dev.sqlite"), help="a corpus of the same PDFs: its stored cells are scored too"
    )
    parser.add_argument("--dpi", type=float, default=144.0, help="the resolution the region is rendered at for the model")
    parser.add_argument("--limit", type=int, default=0, help="only the first N PDFs")
    parser.add_argument("--json", type=Path, help="write every score and reading here")
    parser.add_argument("--readings", type=Path, help="score the readings a --json run wrote, without reading the PDFs again")
    args = parser.parse_args(argv)
    teds = teds_scorers()
    model = StructureModel()
    stored = read_stored(args.db)
    papers = read_manifest(args.gold)[: args.limit or None]
    scores: dict[str, list[Score]] = {name: [] for name in SYSTEMS}
    cached = load_readings(args.readings) if args.readings else None
    readings_out = []
    for pdf, nxml in papers:
        gold = load_gold_tables(nxml)
        if not gold:
            continue
        readings = cached.get(pdf.name) if cached is not None else None
        if readings is None:
            readings = read_paper(pdf, model, args.dpi)
        print(f"{pdf.name}: {len(gold)} gold tables, {len(readings)} captions", file=sys.stderr)
        for name, found in score_paper(pdf.name, gold, readings, stored.get(pdf.name, []), teds).items():
            scores[name] += found
        readings_out += [
            {"caption": {**asdict(r.caption), "pdf": str(r.caption.pdf)}, "region": r.region, "ruled": r.ruled, "cells": r.cells,
             "seconds": r.seconds, "confidence": r.confidence}
            for r in readings
        ]  # fmt: skip
        if args.json:  # as it goes: a long run stopped keeps what it read
            args.json.write_text(json.dumps({"readings": readings_out}))
    print("\n".join(render(scores)))
    if args.json:
        args.json.write_text(
            json.dumps({name: [asdict(score) for score in found] for name, found in scores.items()} | {"readings": readings_out})
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
