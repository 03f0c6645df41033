"""Tables against the gold: are they found, are their cells right, is their shape right.

The gold tables are the ``<table-wrap>`` elements of a publisher's JATS file, read by the
JATS parser itself (:func:`~paperpyramid.parsers.jats.parse_jats`), so the gold grid is the
grid a JATS ingest stores: ``rowspan``/``colspan`` expanded into a rectangle, the spanned
text kept once in the top-left cell and the cells it covers empty. TEI and LaTeX gold give
no tables: the TEI files of the shared corpus are GROBID's own output, not hand-made gold,
and scoring one parser against another would measure agreement, not accuracy.

A gold table is paired with the extracted tables of the same paper:

1. by label first ("Table 2", "Table 2.", "2" are all ``"2"``). A table printed over two
   pages is often stored as two pieces with the same label; every piece whose caption is
   like the gold caption (see 2) is joined to the first, rows after rows, and scored as one
   table. A piece with the label but another caption ("Table 5, we show ...": prose taken
   for a table) is not joined and stays unpaired;
2. then by caption: the overlap coefficient of the two captions' word sets (shared words
   over the smaller set; the leading "Table N" and words such as "of", "the" dropped), at
   least 0.7 with at least three words on each side; the most similar pairs first, each
   table used once.

Per gold table:

- detection: some extracted table is paired with it (an empty extracted table counts as
  found: its cells are what the other measures score);
- exact-cell recall: the share of the gold's non-empty cells whose normalised text equals
  the text of an extracted cell, counted as a multiset (a "0" printed ten times must be
  extracted ten times). Normalised means NFKC (ligatures and full-width forms folded),
  the minus sign and the dash variants (U+2010-U+2015, U+2212, U+FE58, U+FE63, U+FF0D)
  made "-", and whitespace collapsed; case is kept, since "Ns" and "ns" differ;
- cell-text recall: the share of the gold's non-empty cells whose normalised text occurs
  anywhere in the extracted table's text (its cells joined row by row), spaces ignored, so
  a cell split over two extracted cells on one row, or merged with its neighbour, counts;
- structure: (fewer rows / more rows) x (fewer columns / more columns) of the gold and
  extracted grids; 1.0 for the same shape. It does not see a column shifted inside a row;
  the exact-cell recall does;
- TEDS and TEDS-Struct (:mod:`paperpyramid.eval.teds`): the similarity of the two grids as
  HTML trees (``table > tr > td``) by tree edit distance, with the cells' normalised texts,
  and of the rows and cells alone. The grids are compared as the rectangles stored, spans
  expanded, where PubTabNet's TEDS reads the spans; a table with little of the gold's
  shape or text can score below 0.

A gold table not found scores 0 on every measure; a gold table without cells (a JATS
table given only as an image) counts for detection only. Overall figures are means over
the gold tables. Extracted tables of papers with JATS gold that no gold table took are
counted as unpaired: tables the parser invented, often prose stored as a table.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from paperpyramid.eval.teds import teds
from paperpyramid.parsers.embedded.table_reader import reads_as_prose
from paperpyramid.parsers.jats import parse_jats

__all__ = [
    "Pairing",
    "PaperTables",
    "TableGrid",
    "TableScore",
    "TablesSummary",
    "UnpairedTable",
    "caption_similarity",
    "cell_text_recall",
    "exact_cell_recall",
    "label_key",
    "load_gold_tables",
    "normalise_cell",
    "pair_tables",
    "render_tables",
    "score_tables",
    "structure_score",
    "summarise_tables",
    "table_teds",
    "tables_to_json",
]

#: caption similarity at which two tables without a shared label are paired
CAPTION_PAIRING = 0.7
_CAPTION_MIN_WORDS = 3
# words every caption has; two captions of one paper share them without being one table
_STOP_WORDS = frozenset({"a", "an", "and", "are", "as", "at", "by", "for", "from", "in", "is", "of", "on", "or", "the", "to", "with"})

_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"))
_LABEL_WORDS = re.compile(r"^(?:supplementary\s+)?(?:table|tab|tbl)\b\.?\s*", re.IGNORECASE)
_CAPTION_LABEL = re.compile(r"^\s*(?:supplementary\s+)?(?:table|tab\.?)\s*[a-z]?\d+[a-z]?\s*[.:|]?\s*", re.IGNORECASE)
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class TableGrid:
    """One table, gold or extracted: its label as printed, its caption, its rows of cells."""

    label: str | None
    caption: str
    rows: tuple[tuple[str, ...], ...]

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns); the widest row gives the columns."""
        return len(self.rows), max((len(row) for row in self.rows), default=0)


def load_gold_tables(path: Path) -> list[TableGrid]:
    """The tables of a JATS gold file (``.nxml``); other gold formats give none (see the module)."""
    if not path.name.lower().endswith(".nxml"):
        return []
    document = parse_jats(path)
    return [TableGrid(table.label, table.caption, tuple(tuple(row) for row in table.cells)) for table in document.tables]


def normalise_cell(text: str) -> str:
    """A cell's text as compared: NFKC, dashes and minus made "-", whitespace collapsed, case kept."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_DASHES).split())


def label_key(label: str | None) -> str | None:
    """The number a table label carries: ``"Table 2."`` -> ``"2"``, ``"Table S1"`` -> ``"s1"``."""
    if not label:
        return None
    text = _LABEL_WORDS.sub("", unicodedata.normalize("NFKC", label).strip())
    text = text.strip().rstrip(".:").strip().lower()
    return text or None


def _caption_words(caption: str) -> set[str]:
    words = _WORD.findall(_CAPTION_LABEL.sub("", unicodedata.normalize("NFKC", caption)).lower())
    return set(words) - _STOP_WORDS


def caption_similarity(first: str, second: str) -> float:
    """Shared words over the smaller caption's words ("Table N" and stop words dropped); 0 below three.

    The smaller side decides because the embedded parser often keeps only a caption's first
    lines: a cut caption is still the same caption.
    """
    a, b = _caption_words(first), _caption_words(second)
    if min(len(a), len(b)) < _CAPTION_MIN_WORDS:
        return 0.0
    return len(a & b) / min(len(a), len(b))


# --------------------------------------------------------------------------- pairing

PairedBy = Literal["label", "caption"]


@dataclass(frozen=True)
class Pairing:
    """Which extracted tables (indices, first piece first) each gold table took, and how."""

    pieces: list[list[int]]
    paired_by: list[PairedBy | None]
    unpaired: list[int]


def pair_tables(gold: Sequence[TableGrid], extracted: Sequence[TableGrid]) -> Pairing:
    """Pair gold with extracted tables: by label (joining pieces of a continued table), then by caption."""
    pieces: list[list[int]] = [[] for _ in gold]
    paired_by: list[PairedBy | None] = [None for _ in gold]
    free = set(range(len(extracted)))
    for g, table in enumerate(gold):
        key = label_key(table.label)
        same = [e for e in sorted(free) if key is not None and label_key(extracted[e].label) == key]
        if not same:
            continue
        # the best caption first; among equals, the first printed
        same.sort(key=lambda e: -caption_similarity(table.caption, extracted[e].caption))
        first, rest = same[0], same[1:]
        joined = [e for e in rest if caption_similarity(table.caption, extracted[e].caption) >= CAPTION_PAIRING]
        pieces[g] = [first, *sorted(joined)]
        paired_by[g] = "label"
        free -= set(pieces[g])
    candidates = sorted(
        ((caption_similarity(gold[g].caption, extracted[e].caption), g, e) for g in range(len(gold)) if not pieces[g] for e in free),
        key=lambda item: (-item[0], item[1], item[2]),
    )
    for similarity, g, e in candidates:
        if similarity < CAPTION_PAIRING:
            break
        if pieces[g] or e not in free:
            continue
        pieces[g] = [e]
        paired_by[g] = "caption"
        free.discard(e)
    return Pairing(pieces, paired_by, sorted(free))


def _joined(tables: Sequence[TableGrid]) -> TableGrid | None:
    """Pieces of one table as one grid, rows after rows; ``None`` for no pieces."""
    if not tables:
        return None
    rows = tuple(row for table in tables for row in table.rows)
    return TableGrid(tables[0].label, tables[0].caption, rows)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class TableScore:
    """How one gold table came out; recalls and TEDS are ``None`` where the gold has no cells."""

    pdf: str
    label: str | None
    caption: str
    gold_shape: tuple[int, int]
    gold_cells: int
    extracted_shape: tuple[int, int] | None
    pieces: int
    paired_by: PairedBy | None
    exact_cell_recall: float | None
    cell_text_recall: float | None
    structure: float | None
    teds: float | None
    teds_structure: float | None

    @property
    def detected(self) -> bool:
        return self.paired_by is not None


@dataclass(frozen=True)
class UnpairedTable:
    """An extracted table no gold table took, on a paper with JATS gold."""

    pdf: str
    label: str | None
    caption: str
    shape: tuple[int, int]


@dataclass
class PaperTables:
    """The tables of one paper with JATS gold: a score per gold table, and the extracted leftovers."""

    pdf: str
    scores: list[TableScore] = field(default_factory=list)
    unpaired: list[UnpairedTable] = field(default_factory=list)


def _gold_cells(grid: TableGrid) -> list[str]:
    return [text for row in grid.rows for cell in row if (text := normalise_cell(cell))]


def exact_cell_recall(gold: TableGrid, extracted: TableGrid) -> float | None:
    """Share of the gold's non-empty cells equal (normalised) to an extracted cell, as a multiset."""
    wanted = Counter(_gold_cells(gold))
    total = sum(wanted.values())
    if total == 0:
        return None
    found = wanted & Counter(_gold_cells(extracted))
    return sum(found.values()) / total


def cell_text_recall(gold: TableGrid, extracted: TableGrid) -> float | None:
    """Share of the gold's non-empty cells whose text occurs in the extracted table's text, spaces ignored."""
    wanted = [cell.replace(" ", "") for cell in _gold_cells(gold)]
    if not wanted:
        return None
    text = normalise_cell(" ".join(" ".join(row) for row in extracted.rows)).replace(" ", "")
    return sum(1 for cell in wanted if cell in text) / len(wanted)


def structure_score(gold: TableGrid, extracted: TableGrid) -> float | None:
    """(fewer / more rows) x (fewer / more columns); ``None`` where the gold grid is empty."""
    (gold_rows, gold_columns), (rows, columns) = gold.shape, extracted.shape
    if gold_rows == 0 or gold_columns == 0:
        return None
    return min(gold_rows, rows) / max(gold_rows, rows) * min(gold_columns, columns) / max(gold_columns, columns)


def table_teds(gold: TableGrid, extracted: TableGrid, *, structure_only: bool = False) -> float | None:
    """TEDS (or TEDS-Struct) of the two grids, cells normalised; ``None`` where the gold has no cells."""
    if not _gold_cells(gold):
        return None
    return teds(_normalised(gold), _normalised(extracted), structure_only=structure_only)


def _normalised(grid: TableGrid) -> list[list[str]]:
    return [[normalise_cell(cell) for cell in row] for row in grid.rows]


def score_tables(pdf: str, gold: Sequence[TableGrid], extracted: Sequence[TableGrid]) -> PaperTables:
    """Pair one paper's gold and extracted tables and score every gold table."""
    pairing = pair_tables(gold, extracted)
    result = PaperTables(pdf)
    for table, indices, paired_by in zip(gold, pairing.pieces, pairing.paired_by, strict=True):
        found = _joined([extracted[e] for e in indices])
        has_cells = bool(_gold_cells(table))
        missed = 0.0 if has_cells else None
        result.scores.append(
            TableScore(
                pdf=pdf,
                label=table.label,
                caption=table.caption,
                gold_shape=table.shape,
                gold_cells=len(_gold_cells(table)),
                extracted_shape=found.shape if found else None,
                pieces=len(indices),
                paired_by=paired_by,
                exact_cell_recall=exact_cell_recall(table, found) if found else missed,
                cell_text_recall=cell_text_recall(table, found) if found else missed,
                structure=structure_score(table, found) if found else (0.0 if table.rows else None),
                teds=table_teds(table, found) if found else missed,
                teds_structure=table_teds(table, found, structure_only=True) if found else missed,
            )
        )
    result.unpaired = [UnpairedTable(pdf, extracted[e].label, extracted[e].caption, extracted[e].shape) for e in pairing.unpaired]
    return result


@dataclass(frozen=True)
class TablesSummary:
    """Corpus-level table figures: means over gold tables; ``None`` where nothing gave a value."""

    papers: int
    gold_tables: int
    detected: int
    detection_recall: float | None
    mean_exact_cell_recall: float | None
    mean_cell_text_recall: float | None
    mean_structure: float | None
    mean_teds: float | None
    mean_teds_structure: float | None
    unpaired: int


def _mean(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.fmean(present) if present else None


def summarise_tables(papers: Sequence[PaperTables]) -> TablesSummary:
    scores = [score for paper in papers for score in paper.scores]
    detected = sum(1 for score in scores if score.detected)
    return TablesSummary(
        papers=len(papers),
        gold_tables=len(scores),
        detected=detected,
        detection_recall=detected / len(scores) if scores else None,
        mean_exact_cell_recall=_mean([score.exact_cell_recall for score in scores]),
        mean_cell_text_recall=_mean([score.cell_text_recall for score in scores]),
        mean_structure=_mean([score.structure for score in scores]),
        mean_teds=_mean([score.teds for score in scores]),
        mean_teds_structure=_mean([score.teds_structure for score in scores]),
        unpaired=sum(len(paper.unpaired) for paper in papers),
    )


# --------------------------------------------------------------------------- rendering


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _shape(shape: tuple[int, int] | None) -> str:
    return "-" if shape is None else f"{shape[0]}x{shape[1]}"


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


_COLUMNS = ("pdf", "label", "gold", "extracted", "exact", "text", "structure", "teds", "teds-s", "paired")


def render_tables(papers: Sequence[PaperTables]) -> list[str]:
    """Report lines: one per gold table, the overall line, then the unpaired extracted tables."""
    if not papers:
        return []
    rows = [_COLUMNS]
    for score in (score for paper in papers for score in paper.scores):
        paired = "-" if score.paired_by is None else score.paired_by + (f" ({score.pieces} pieces)" if score.pieces > 1 else "")
        rows.append(
            (score.pdf, score.label or "-", _shape(score.gold_shape), _shape(score.extracted_shape), _number(score.exact_cell_recall),
             _number(score.cell_text_recall), _number(score.structure), _number(score.teds), _number(score.teds_structure), paired)
        )  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    lines = ["", "tables (gold from JATS; exact = exact-cell recall, text = cell-text recall, teds-s = TEDS-Struct):"]
    lines += ["  " + "  ".join(cell.ljust(w) if i in (0, 1, 9) else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
              for row in rows]  # fmt: skip
    summary = summarise_tables(papers)
    lines.append(
        f"tables: detection recall {_number(summary.detection_recall)} (of {summary.gold_tables}), "
        f"mean exact-cell recall {_number(summary.mean_exact_cell_recall)}, mean TEDS {_number(summary.mean_teds)}, "
        f"mean TEDS-Struct {_number(summary.mean_teds_structure)}, mean cell-text recall {_number(summary.mean_cell_text_recall)}, "
        f"mean structure {_number(summary.mean_structure)}; {summary.unpaired} extracted tables unpaired"
    )
    for table in (table for paper in papers for table in paper.unpaired):
        lines.append(f"  unpaired: {table.pdf}  label {table.label or '-'}  {_shape(table.shape)}  {_short(table.caption)!r}")
    return lines


@dataclass(frozen=True, slots=True)
class TableCensus:
    """Every stored table of the corpus, gold or not: how many, how many without cells, and
    which read as running text (by the embedded parser's prose test, :func:`reads_as_prose`)."""

    tables: int
    empty: int
    prose: tuple[str, ...]  # "pdf: caption" of each


def table_census(stored: dict[str, list[TableGrid]]) -> TableCensus:
    grids = [(pdf, grid) for pdf, tables in stored.items() for grid in tables]
    prose = tuple(f"{pdf}: {_short(grid.caption)}" for pdf, grid in grids if grid.rows and reads_as_prose([list(row) for row in grid.rows]))
    return TableCensus(len(grids), sum(1 for _, grid in grids if not grid.rows), prose)


def render_census(census: TableCensus) -> list[str]:
    lines = [f"stored tables (every article): {census.tables}, {census.empty} without cells, {len(census.prose)} reading as prose"]
    return lines + [f"  prose: {item}" for item in census.prose]


def tables_to_json(papers: Sequence[PaperTables]) -> dict[str, Any]:
    """The table figures as plain JSON-ready data: overall, per gold table, the unpaired tables."""
    return {
        "overall": asdict(summarise_tables(papers)),
        "tables": [
            {
                **asdict(score),
                "gold_shape": list(score.gold_shape),
                "extracted_shape": list(score.extracted_shape) if score.extracted_shape else None,
            }
            for paper in papers
            for score in paper.scores
        ],
        "unpaired": [{**asdict(table), "shape": list(table.shape)} for paper in papers for table in paper.unpaired],
    }
