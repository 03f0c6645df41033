"""The merge: one document from what each backend delivered.

The design's rule: sections, paragraphs and references from GROBID; every table from
Unstructured replaces the others' tables; display math from Nougat replaces the formulas on
the pages Nougat read; the embedded parse fills whatever a service did not deliver
(metadata GROBID left empty, or everything when GROBID was not reached). Provenance records
which backend produced each part, so ``Document.parser`` reads e.g. "grobid+unstructured".
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from paperpyramid.document import Block, Document, Formula, Section, Table


@dataclass(slots=True)
class Delivered:
    """What the services delivered for one document; None where a service was not used or failed."""

    grobid: Document | None = None
    tables: list[Table] | None = None
    tables_source: str = "unstructured"
    formulas: list[Formula] | None = None
    formula_pages: set[int] = field(default_factory=set)  # pages the math service read
    formulas_source: str = "nougat"
    warnings: list[str] = field(default_factory=list)


def merge(embedded: Document, delivered: Delivered) -> Document:
    """Combine the embedded parse with what the services delivered (inputs are not changed)."""
    base = copy.deepcopy(delivered.grobid if delivered.grobid is not None else embedded)
    if delivered.grobid is not None:
        _fill_metadata(base, embedded)
        base.pages = base.pages or embedded.pages
        # what the embedded parse read by OCR (GROBID reads text layers only) and how
        base.ocr_pages, base.ocr_text = list(embedded.ocr_pages), dict(embedded.ocr_text)
    if delivered.tables is not None:
        _replace_tables(base, delivered.tables, delivered.tables_source)
        base.provenance["tables"] = delivered.tables_source
    if delivered.formulas is not None:
        # the formulas kept from the base (pages the math service did not read) say so
        for kept in base.formulas:
            kept.provenance = kept.provenance or next(
                (base.provenance[key] for key in ("formulas", "sections", "structure") if key in base.provenance), base.parser
            )
        _replace_formulas(base, delivered.formulas, delivered.formula_pages, delivered.formulas_source)
        base.provenance["formulas"] = delivered.formulas_source
    base.warnings = [*delivered.warnings, *base.warnings]
    return base


def _fill_metadata(target: Document, fallback: Document) -> None:
    for name in ("title", "abstract", "doi", "arxiv_id", "date_published", "journal"):
        if not getattr(target, name) and getattr(fallback, name):
            setattr(target, name, getattr(fallback, name))
            target.provenance[name] = fallback.provenance.get("structure", "embedded")
    if not target.authors and fallback.authors:
        target.authors = copy.deepcopy(fallback.authors)


def section_for_page(sections: list[Section], page: int) -> int | None:
    """The section a thing on ``page`` belongs to: the last one that starts at or before it
    (the references section only when nothing else does)."""
    best: int | None = None
    for index, section in enumerate(sections):
        start = section.page_start if section.page_start is not None else (section.blocks[0].page if section.blocks else None)
        if start is not None and start <= page and (section.number != "ref" or best is None):
            best = index
    return best


def _replace_tables(document: Document, tables: list[Table], source: str) -> None:
    for section in document.sections:
        section.blocks = [block for block in section.blocks if block.kind != "table"]
    document.tables = []
    for table in sorted(tables, key=lambda item: item.page):
        placed = copy.deepcopy(table)
        placed.section = section_for_page(document.sections, table.page)
        placed.provenance = placed.provenance or source
        document.tables.append(placed)
        if placed.section is not None:
            text = "\n\n".join(part for part in (placed.caption, placed.markdown) if part)
            _insert_by_page(document.sections[placed.section], Block(text=text, page=placed.page, kind="table", bbox=placed.bbox))


def _replace_formulas(document: Document, formulas: list[Formula], pages: set[int], source: str) -> None:
    covered = pages or {formula.page for formula in formulas}
    for section in document.sections:
        section.blocks = [block for block in section.blocks if not (block.kind == "formula" and block.page in covered)]
    document.formulas = [formula for formula in document.formulas if formula.page not in covered]
    for formula in sorted(formulas, key=lambda item: item.page):
        placed = copy.deepcopy(formula)
        placed.section = section_for_page(document.sections, formula.page)
        placed.provenance = placed.provenance or source
        document.formulas.append(placed)
        if placed.section is not None:
            _insert_by_page(
                document.sections[placed.section],
                Block(text=placed.latex or placed.text, page=placed.page, kind="formula", bbox=placed.bbox),
            )
    document.formulas.sort(key=lambda item: item.page)


def _insert_by_page(section: Section, block: Block) -> None:
    # after the last block on the same or an earlier page: reading order by page
    position = len(section.blocks)
    for index, existing in enumerate(section.blocks):
        if existing.page > block.page:
            position = index
            break
    section.blocks.insert(position, block)
