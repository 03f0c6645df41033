#!/usr/bin/env python3
"""Suspicious tables without gold: the embedded parser's tables checked against themselves.

    .venv/bin/python benchmarks/table_audit.py [--top 25] [--json OUT] [--gold]

Every readable PDF of ``../shared/corpus`` (the ``hostile-*`` ones skipped), the PDFs of
``../shared/recorded/unstructured`` and the *development* pairs of ``../shared/pmc-pairs``
(every fourth pair in MANIFEST order is kept back and never read here) are parsed with
``parse_pdf``; each table it finds is checked for signs of a wrong grid:

- ``ragged``: body rows whose filled cells leave the header's columns (a cell where the
  header has none, in a column most rows leave empty);
- ``empty_column``: a column filled in at most one row in five (of a body of three rows or more);
- ``spilled``: a column of numbers with words in some of its cells;
- ``merged``: cells that hold two plain numbers side by side (two columns read as one; a
  list such as "1, 2, 5" is one cell);
- ``split_header``: the first two rows both words, filling columns the other leaves empty;
- ``caption_inside``: a cell that opens with "Table N", or a long note in the last rows;
- ``one_column``: rows of one filled cell (a list, or prose read as a table);
- ``no_cells``: a caption kept without cells;
- ``overlap``: two tables of a page sharing most of their cells.

Each sign adds to a table's suspicion; the worst are listed first, with their page, so they
can be rendered (``pdftoppm -r 100 -f P -l P``) and looked at. ``--gold`` also scores the
tables of the PDFs that have JATS gold (``eval parse``'s own measures), to see how far the
signs go with the scores. ``--unseen DIR`` audits the PDFs of another folder instead (one with a
MANIFEST.tsv, such as a set of publishers' PDFs beside their LaTeX sources): where a PDF's
LaTeX source is there, its table environments are counted, and the tables found set beside them.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperpyramid.document import Document
from paperpyramid.eval.parse import read_manifest
from paperpyramid.eval.table_scores import TableGrid, TableScore, label_key, load_gold_tables, score_tables
from paperpyramid.parsers.embedded.parser import parse_pdf

SHARED = Path(__file__).resolve().parents[2] / "shared"
_NUMBER = re.compile(r"^(?:[—–\-]|n\.?a\.?|NA|NR|ns|[<>≤≥~−\-+±]?\s*\(?[−\-+]?\d[\d,]*(?:\.\d+)?\)?%?[*†‡§a-d]*)$")
# two plain numbers side by side; a list ("1, 2, 5": each number but the last ends with a comma) is one cell
_TWO_NUMBERS = re.compile(
    r"^[−\-+]?\d(?:[\d,]*\d)?(?:\.\d+)?%?\s+[−\-+]?\d(?:[\d,]*\d)?(?:\.\d+)?%?(?:\s+[−\-+]?\d(?:[\d,]*\d)?(?:\.\d+)?%?)*$"
)
_CAPTION = re.compile(r"^\s*(?:table|figure|fig\.)\s*\d", re.IGNORECASE)
_WORDY = re.compile(r"[A-Za-z]{3,}")


@dataclass
class Audit:
    """The signs found in one table, and what it was."""

    pdf: str
    source: str
    page: int
    label: str | None
    shape: tuple[int, int]
    signs: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float | None] = field(default_factory=dict)

    @property
    def suspicion(self) -> int:
        return sum(self.signs.values())


def sources() -> list[tuple[Path, Path | None]]:
    """Every PDF the audit may read, with its JATS gold where one is beside it."""
    found: list[tuple[Path, Path | None]] = []
    corpus = SHARED / "corpus"
    gold = {row.pairs_with: corpus / row.file for row in read_manifest(corpus / "MANIFEST.tsv") if row.kind == "gold-jats"}
    found += [(pdf, gold.get(pdf.name)) for pdf in sorted(corpus.glob("*.pdf")) if not pdf.name.startswith("hostile-")]
    found += [(pdf, None) for pdf in sorted((SHARED / "recorded" / "unstructured").glob("*.pdf"))]
    pairs = SHARED / "pmc-pairs"
    rows = read_manifest(pairs / "MANIFEST.tsv")
    pdfs = [row for row in rows if row.kind == "pdf"]
    found += [(pairs / row.file, pairs / row.pairs_with) for n, row in enumerate(pdfs, 1) if n % 4]  # every fourth is kept back
    return found


_LATEX_TABLE = re.compile(r"\\begin\{(?:table|deluxetable|longtable|sidewaystable)\*?\}")


def unseen_sources(folder: Path) -> list[tuple[Path, int | None]]:
    """The PDFs of ``folder``'s MANIFEST.tsv, each with the number of table environments in its
    LaTeX source (``None`` where there is none beside it)."""
    rows = read_manifest(folder / "MANIFEST.tsv")
    latex = {row.pairs_with: folder / row.file for row in rows if row.kind == "gold-latex"}
    found: list[tuple[Path, int | None]] = []
    for row in rows:
        if row.kind == "pdf":
            source = latex.get(row.file)
            text = source.read_text(encoding="utf-8", errors="replace") if source is not None and source.is_file() else None
            found.append((folder / row.file, len(_LATEX_TABLE.findall(text)) if text is not None else None))
    return found


def audit_unseen(folder: Path, top: int, json_path: Path | None) -> int:
    """The audit over another folder's PDFs: the signs of each table, and per PDF the tables
    found beside the table environments its LaTeX source holds."""
    audits: list[Audit] = []
    counts: list[tuple[str, int | None, int]] = []
    tables: dict[str, list[list[list[str]]]] = {}
    for pdf, expected in unseen_sources(folder):
        try:
            document = parse_pdf(pdf)
            found, _ = audit_pdf(pdf, None, document)
            cells = [table.cells for table in document.tables]
        except Exception as exc:  # a PDF the parser refuses is listed, not the audit's end
            print(f"failed: {pdf.name}: {type(exc).__name__}: {exc}")
            continue
        audits += found
        counts.append((pdf.name, expected, len(found)))
        tables[pdf.name] = cells
    flagged = [audit for audit in audits if audit.suspicion]
    kinds = Counter(name for audit in flagged for name in audit.signs)
    print(f"{len(audits)} tables, {len(flagged)} flagged; signs: {dict(kinds.most_common())}")
    known = [(name, expected, found) for name, expected, found in counts if expected is not None]
    print(
        f"{sum(e for _, e, _ in known)} table environments in {len(known)} LaTeX sources; "
        f"found {sum(min(e, f) for _, e, f in known)} of them (tables found, capped at the count, per PDF)"
    )
    for name, expected, found_count in counts:
        if expected != found_count:
            print(f"  {name}: LaTeX {expected}, found {found_count}")
    for audit in sorted(flagged, key=lambda audit: -audit.suspicion)[:top]:
        print(f"{audit.suspicion:3d}  {audit.pdf} p{audit.page} table {audit.label} {audit.shape}: {audit.signs}")
    if json_path:
        json_path.write_text(json.dumps({"audits": [audit.__dict__ for audit in audits], "cells": tables}, indent=1, default=list))
    return 0


def _filled(row: Sequence[str]) -> set[int]:
    return {index for index, cell in enumerate(row) if cell.strip()}


def _numeric(cell: str) -> bool:
    return bool(_NUMBER.match(cell.strip()))


def signs(cells: Sequence[Sequence[str]]) -> dict[str, int]:
    """The signs of a wrong grid in one table's cells (see the module)."""
    found: Counter[str] = Counter()
    if not cells:
        return {"no_cells": 3}
    width = max(len(row) for row in cells)
    rows = [list(row) + [""] * (width - len(row)) for row in cells]
    # the header is the rows over the first that holds a number right of its stub
    heads = next((index for index, row in enumerate(rows) if any(_numeric(cell) for cell in row[1:])), 1)
    heads = max(1, min(heads, 3))
    body = rows[heads:]
    if body and width >= 2:
        used = [sum(1 for row in body if row[column].strip()) for column in range(width)]
        # a body of one or two rows fills every column it has in one row: no column tells it is empty
        found["empty_column"] = sum(1 for count in used if count <= max(1, 0.2 * len(body))) if len(body) >= 3 else 0
        header = set().union(*(_filled(row) for row in rows[:heads]))
        sparse = {column for column, count in enumerate(used) if count < 0.5 * len(body)}
        found["ragged"] = min(3, sum(1 for row in body if (_filled(row) - header) & sparse))
        for column in range(width):
            texts = [row[column].strip() for row in body if row[column].strip()]
            numbers = sum(1 for text in texts if _numeric(text))
            if len(texts) >= 4 and numbers >= 0.6 * len(texts):
                found["spilled"] += sum(1 for text in texts if not _numeric(text) and _WORDY.search(text) and column > 0)
        found["one_column"] = 2 if sum(1 for row in body if len(_filled(row)) <= 1) >= 0.6 * len(body) else 0
    found["merged"] = sum(1 for row in rows for cell in row if _TWO_NUMBERS.match(cell.strip()))
    if len(rows) >= 3:
        first, second = _filled(rows[0]), _filled(rows[1])
        words = all(not _numeric(rows[i][c]) for i in (0, 1) for c in _filled(rows[i]))
        if words and first and second and len(first) < width and not first & second:
            found["split_header"] = 1
    found["caption_inside"] = sum(1 for row in rows for cell in row if _CAPTION.match(cell)) + sum(
        1 for row in rows[-2:] if len(_filled(row)) == 1 and len(" ".join(row)) > 80
    )
    return {name: count for name, count in found.items() if count}


def _overlap(first: Sequence[Sequence[str]], second: Sequence[Sequence[str]]) -> bool:
    one = Counter(tuple(row) for row in first if any(cell.strip() for cell in row))
    two = Counter(tuple(row) for row in second if any(cell.strip() for cell in row))
    shared = sum((one & two).values())
    return bool(one) and bool(two) and shared >= 0.8 * min(sum(one.values()), sum(two.values()))


def audit_pdf(pdf: Path, gold: Path | None, document: Document | None = None) -> tuple[list[Audit], list[TableScore]]:
    """The signs in each table of one PDF (``document``: its parse, where done already), and each
    gold table's scores where ``gold`` is JATS."""
    document = document or parse_pdf(pdf)
    audits = [
        Audit(
            pdf.name,
            pdf.parent.name,
            table.page,
            table.label,
            (len(table.cells), max(map(len, table.cells), default=0)),
            signs(table.cells),
        )
        for table in document.tables
    ]
    for i, table in enumerate(document.tables):
        for j in range(i + 1, len(document.tables)):
            other = document.tables[j]
            if other.page == table.page and _overlap(table.cells, other.cells):
                audits[i].signs["overlap"] = audits[j].signs["overlap"] = 2
    if gold is not None and gold.suffix == ".nxml":
        extracted = [TableGrid(table.label, table.caption, tuple(tuple(row) for row in table.cells)) for table in document.tables]
        scored = score_tables(pdf.name, load_gold_tables(gold), extracted)
        by_label = {label_key(score.label): score for score in scored.scores}
        for audit in audits:
            score = by_label.get(label_key(audit.label))
            if score is not None:
                audit.scores = {"exact": score.exact_cell_recall, "teds": score.teds}
        for score in scored.scores:
            if not score.detected:
                audits.append(Audit(pdf.name, pdf.parent.name, 0, score.label, (0, 0), {"missed": 3}, {"exact": 0.0, "teds": 0.0}))
        return audits, scored.scores
    return audits, []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--top", type=int, default=25, help="list this many of the most suspicious tables")
    parser.add_argument("--json", type=Path, help="write every table's signs (and scores) here")
    parser.add_argument("--only", help="audit only PDFs whose name holds this")
    parser.add_argument(
        "--gold", action="store_true", help="audit only the PDFs with JATS gold (to compare scores before and after a change)"
    )
    parser.add_argument("--unseen", type=Path, help="audit the PDFs of this folder (its MANIFEST.tsv) instead")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    if args.unseen:
        return audit_unseen(args.unseen, args.top, args.json)
    if not (SHARED / "corpus").is_dir():
        print(f"no shared corpus at {SHARED}", file=sys.stderr)
        return 2
    audits: list[Audit] = []
    failed: list[str] = []
    scores: dict[str, list[TableScore]] = {"pmc-pairs": [], "corpus": []}
    for pdf, gold in sources():
        if (args.only and args.only not in pdf.name) or (args.gold and (gold is None or gold.suffix != ".nxml")):
            continue
        try:
            found, scored = audit_pdf(pdf, gold)
        except Exception as exc:  # a PDF the parser refuses is listed, not the audit's end
            failed.append(f"{pdf.name}: {type(exc).__name__}: {exc}")
            continue
        audits += found
        scores[pdf.parent.name] = scores.get(pdf.parent.name, []) + scored
    flagged = [audit for audit in audits if audit.suspicion]
    kinds = Counter(name for audit in flagged for name in audit.signs)
    print(f"{len(audits)} tables, {len(flagged)} flagged; signs: {dict(kinds.most_common())}")
    scored = [audit.scores for audit in audits if audit.scores]
    for part, tables in scores.items():
        exact = [table.exact_cell_recall for table in tables if table.exact_cell_recall is not None]
        teds = [table.teds for table in tables if table.teds is not None]
        if exact:
            print(
                f"{part}: {len(tables)} gold tables, found {sum(t.detected for t in tables) / len(tables):.3f}, exact-cell {sum(exact) / len(exact):.3f}, TEDS {sum(teds) / max(1, len(teds)):.3f}"
            )
    for audit in sorted(flagged, key=lambda audit: -audit.suspicion)[: args.top]:
        score = " ".join(f"{k}={v:.2f}" for k, v in audit.scores.items() if v is not None)
        print(f"{audit.suspicion:3d}  {audit.pdf} p{audit.page} table {audit.label} {audit.shape}: {audit.signs} {score}")
    for line in failed:
        print("failed:", line)
    if args.json:
        rows: dict[str, Any] = {
            "audits": [audit.__dict__ for audit in audits],
            "gold": [
                {"pdf": t.pdf, "label": t.label, "exact": t.exact_cell_recall, "teds": t.teds} for part in scores.values() for t in part
            ],
        }
        args.json.write_text(json.dumps(rows, indent=1, default=list), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
