"""The embedded parser's tables on generated papers, against their gold, by style.

Pairing starts as ``paperpyramid eval parse`` pairs JATS gold (:func:`~paperpyramid.eval.table_scores.pair_tables`:
label, then caption), then uses what the generated gold knows and JATS gold does not:

- a gold table's pages: an extracted table with the gold's label on one of its pages is a
  piece of it ("Table 3 (continued)" on the next page) whatever its caption says;
- its cells: an extracted table on one of the gold's pages whose non-empty cells are mostly
  (at least half, as a multiset) the gold's cells is the gold table, or a piece of it. This
  is how a table without a caption is found, whatever label the parser gave it.

Pieces are joined rows after rows, a header a later piece repeats dropped. The measures are
:mod:`paperpyramid.eval.table_scores`' own: detection, exact-cell recall, cell-text recall,
structure ((fewer / more rows) x (fewer / more columns)); and "same shape" (rows and columns
both equal). Extracted tables no gold table took are false tables: prose, a figure's numbers,
or a piece of a table stored apart.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.synthetic.papers import GoldTable, PaperGold, generate
from benchmarks.synthetic.splits import SPLITS, SplitName
from benchmarks.synthetic.table_content import STYLES, Style
from paperpyramid.document import Document
from paperpyramid.eval.table_scores import (
    TableGrid,
    cell_text_recall,
    exact_cell_recall,
    label_key,
    normalise_cell,
    pair_tables,
    structure_score,
)

__all__ = [
    "ExtractedTable",
    "FalseTable",
    "GroupSummary",
    "PaperResult",
    "TableResult",
    "papers_of",
    "render_results",
    "results_to_json",
    "run_split",
    "score_paper",
    "summarise",
]

#: the share of an extracted table's cells that must be the gold's for it to be taken by content
CONTENT_PAIRING = 0.5

Parser = Callable[[Path], Document]


@dataclass(frozen=True)
class ExtractedTable:
    """A table the parser stored: its grid and the page it starts on."""

    grid: TableGrid
    page: int


@dataclass(frozen=True)
class TableResult:
    label: str | None
    caption_position: str
    gold_shape: tuple[int, int]
    extracted_shape: tuple[int, int] | None
    pieces: int
    paired_by: str | None  # "label", "caption", "content" or None (not found)
    exact_cell_recall: float
    cell_text_recall: float
    structure: float

    @property
    def detected(self) -> bool:
        return self.paired_by is not None

    @property
    def same_shape(self) -> bool:
        return self.extracted_shape == self.gold_shape


@dataclass(frozen=True)
class FalseTable:
    label: str | None
    caption: str
    shape: tuple[int, int]
    page: int


@dataclass
class PaperResult:
    seed: int
    split: SplitName
    style: Style
    look: dict[str, str]
    tables: list[TableResult] = field(default_factory=list)
    false_tables: list[FalseTable] = field(default_factory=list)
    extracted: list[ExtractedTable] = field(default_factory=list)
    gold: list[GoldTable] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


def _cells(grid: TableGrid) -> Counter[str]:
    return Counter(text for row in grid.rows for cell in row if (text := normalise_cell(cell)))


def content_precision(gold: TableGrid, extracted: TableGrid) -> float:
    """The share of the extracted table's non-empty cells that are gold cells (as a multiset)."""
    found = _cells(extracted)
    total = sum(found.values())
    return sum((found & _cells(gold)).values()) / total if total else 0.0


def _join(pieces: Sequence[TableGrid]) -> TableGrid:
    """Pieces of one table, rows after rows; a later piece's leading rows that repeat the first piece's are dropped."""
    rows = list(pieces[0].rows)
    for piece in pieces[1:]:
        skip = 0
        while skip < min(len(piece.rows), 2, len(pieces[0].rows)) and piece.rows[skip] == pieces[0].rows[skip]:
            skip += 1
        rows += piece.rows[skip:]
    return TableGrid(pieces[0].label, pieces[0].caption, tuple(rows))


def score_paper(gold: PaperGold, extracted: Sequence[ExtractedTable]) -> PaperResult:
    """Pair a generated paper's gold tables with the extracted ones and score each gold table."""
    result = PaperResult(gold.seed, gold.split, gold.style, dict(gold.look), extracted=list(extracted), gold=list(gold.tables))
    grids = [table.grid for table in extracted]
    pairing = pair_tables([table.grid for table in gold.tables], grids)
    pieces = [list(indices) for indices in pairing.pieces]
    paired_by: list[str | None] = list(pairing.paired_by)
    free = set(pairing.unpaired)
    for g, table in enumerate(gold.tables):  # pieces on the gold's pages with its label
        key = label_key(table.grid.label)
        if pieces[g] and key is not None:
            more = [e for e in sorted(free) if label_key(grids[e].label) == key and extracted[e].page in table.pages]
            pieces[g] += more
            free -= set(more)
    for g, table in enumerate(gold.tables):  # pieces, or the whole table, by their cells
        taken = sorted(
            (e for e in free if extracted[e].page in table.pages and content_precision(table.grid, grids[e]) >= CONTENT_PAIRING),
            key=lambda e: -len(grids[e].rows),
        )
        if taken and not pieces[g]:
            paired_by[g] = "content"
        pieces[g] += taken
        free -= set(taken)
    for g, table in enumerate(gold.tables):
        ordered = sorted(pieces[g], key=lambda e: (extracted[e].page, pieces[g].index(e)))
        found = _join([grids[e] for e in ordered]) if ordered else None
        result.tables.append(
            TableResult(
                label=table.grid.label,
                caption_position=table.caption_position,
                gold_shape=table.grid.shape,
                extracted_shape=found.shape if found else None,
                pieces=len(ordered),
                paired_by=paired_by[g],
                exact_cell_recall=(exact_cell_recall(table.grid, found) or 0.0) if found else 0.0,
                cell_text_recall=(cell_text_recall(table.grid, found) or 0.0) if found else 0.0,
                structure=(structure_score(table.grid, found) or 0.0) if found else 0.0,
            )
        )
    result.false_tables = [FalseTable(grids[e].label, grids[e].caption, grids[e].shape, extracted[e].page) for e in sorted(free)]
    return result


def extracted_tables(document: Document) -> list[ExtractedTable]:
    return [
        ExtractedTable(TableGrid(table.label, table.caption, tuple(tuple(row) for row in table.cells)), table.page)
        for table in document.tables
    ]


def papers_of(split: SplitName, per_style: int, styles: Sequence[Style] = STYLES) -> list[tuple[int, Style]]:
    """(seed, style) of the first ``per_style`` papers of each style in ``split``: seeds in order, styles in turn."""
    first = SPLITS[split].seeds.start
    count = per_style * len(styles)
    if count > len(SPLITS[split].seeds):
        raise ValueError(f"{split} has {len(SPLITS[split].seeds)} seeds, fewer than {count} papers")
    return [(first + index, styles[index % len(styles)]) for index in range(count)]


def _default_parser(path: Path) -> Document:
    from paperpyramid.parsers.embedded.parser import parse_pdf

    return parse_pdf(path)


def run_split(
    papers: Iterable[tuple[int, Style]],
    *,
    parse: Parser | None = None,
    keep: Path | None = None,
    progress: Callable[[PaperResult], None] | None = None,
) -> list[PaperResult]:
    """Generate, parse and score each (seed, style) paper; ``keep`` saves the PDFs there.

    A parse that raises is recorded as the paper's error (its tables not found), not raised.
    """
    parse = parse or _default_parser
    results = []
    with tempfile.TemporaryDirectory(prefix="paperpyramid-unseen-") as scratch:
        folder = keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for seed, style in papers:
            pdf, gold = generate(seed, style)
            path = folder / f"{gold.split}-{seed}-{style}.pdf"
            path.write_bytes(pdf)
            started = time.perf_counter()
            try:
                document = parse(path)
            except Exception as exc:  # a paper's failure is its result; the run goes on
                result = score_paper(gold, [])
                result.error = f"{type(exc).__name__}: {exc}"
            else:
                result = score_paper(gold, extracted_tables(document))
            result.seconds = time.perf_counter() - started
            results.append(result)
            if progress is not None:
                progress(result)
    return results


# --------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class GroupSummary:
    """Figures over the papers of one group (a style, a caption position, or all)."""

    name: str
    papers: int
    tables: int
    detected: int
    detection: float | None
    exact_cell_recall: float | None
    cell_text_recall: float | None
    structure: float | None
    same_shape: float | None
    false_tables: int
    errors: int


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summarise(name: str, results: Sequence[PaperResult], tables: Sequence[TableResult] | None = None) -> GroupSummary:
    """Means over the gold tables (``tables``, else every table of ``results``); false tables summed over ``results``."""
    scores = list(tables) if tables is not None else [table for result in results for table in result.tables]
    detected = sum(1 for table in scores if table.detected)
    return GroupSummary(
        name=name,
        papers=len(results),
        tables=len(scores),
        detected=detected,
        detection=detected / len(scores) if scores else None,
        exact_cell_recall=_mean([table.exact_cell_recall for table in scores]),
        cell_text_recall=_mean([table.cell_text_recall for table in scores]),
        structure=_mean([table.structure for table in scores]),
        same_shape=_mean([1.0 if table.same_shape else 0.0 for table in scores]),
        false_tables=sum(len(result.false_tables) for result in results),
        errors=sum(1 for result in results if result.error),
    )


def groups(results: Sequence[PaperResult]) -> list[GroupSummary]:
    """One summary per style, per caption position, for the captioned tables, and overall."""
    out = [summarise(style, [r for r in results if r.style == style]) for style in STYLES if any(r.style == style for r in results)]
    for position in ("above", "below", "none"):
        tables = [table for result in results for table in result.tables if table.caption_position == position]
        if tables:
            with_position = [r for r in results if any(t.caption_position == position for t in r.tables)]
            out.append(summarise(f"caption {position}", with_position, tables))
    captioned = [table for result in results for table in result.tables if table.caption_position != "none"]
    if captioned:
        out.append(summarise("captioned", [r for r in results if any(t.caption_position != "none" for t in r.tables)], captioned))
    out.append(summarise("all", results))
    return out


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def render_results(split: str, results: Sequence[PaperResult]) -> list[str]:
    """The report: one line per style and caption position, then overall and the false tables."""
    header = ("group", "papers", "tables", "found", "exact", "text", "struct", "shape=", "false")
    rows = [header]
    for group in groups(results):
        rows.append((group.name, str(group.papers), str(group.tables), _number(group.detection), _number(group.exact_cell_recall),
                     _number(group.cell_text_recall), _number(group.structure), _number(group.same_shape), str(group.false_tables)))  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [f"unseen tables ({split}, generated): found = detection recall, exact = exact-cell recall, text = cell-text recall,",
             "  struct = structure score, shape= = share with the gold's rows and columns, false = tables stored where the gold has none"]  # fmt: skip
    lines += [
        "  " + "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    ]
    no_table = [r for r in results if r.style == "no_table"]
    overall = summarise("all", results)
    lines.append(
        f"{split}: exact-cell recall {_number(overall.exact_cell_recall)} over {overall.tables} tables, detection {_number(overall.detection)}, "
        f"same shape {_number(overall.same_shape)}; false tables {overall.false_tables} in {overall.papers} papers "
        f"({sum(len(r.false_tables) for r in no_table)} in the {len(no_table)} papers without a table); {overall.errors} parse errors"
    )
    return lines


def results_to_json(split: str, results: Sequence[PaperResult]) -> dict[str, Any]:
    """Every figure as JSON-ready data: the groups, then each paper with its gold and extracted grids."""
    return {
        "split": split,
        "groups": [asdict(group) for group in groups(results)],
        "papers": [
            {
                "seed": r.seed,
                "style": r.style,
                "look": r.look,
                "error": r.error,
                "seconds": round(r.seconds, 3),
                "tables": [asdict(table) for table in r.tables],
                "false_tables": [asdict(table) for table in r.false_tables],
                "gold": [
                    {"label": g.grid.label, "caption": g.grid.caption, "pages": list(g.pages), "rows": [list(row) for row in g.grid.rows]}
                    for g in r.gold
                ],
                "extracted": [
                    {"label": e.grid.label, "caption": e.grid.caption, "page": e.page, "rows": [list(row) for row in e.grid.rows]}
                    for e in r.extracted
                ],
            }
            for r in results
        ],
    }
