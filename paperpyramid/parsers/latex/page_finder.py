"""Pages from the paper's PDF for a document read from its LaTeX source.

The source knows the paragraphs but not where they are printed: each block is looked for in
the PDF's text layer (:class:`~paperpyramid.parsers.pdf_pages.PageLocator`), in reading order
for paragraphs and at the nearest page for tables and figure captions, which float. Inline
mathematics (``$...$``) is left out of what is looked for, since its glyphs extract unlike its
LaTeX: the longest stretch between formulas is looked for. A block that is not found (a display formula, a short line, a garbled paragraph) takes
its neighbour's page: the page of the block before it, and the count of these is reported.

Afterwards ``Document.provenance["pages"]`` names the PDF's text layer, so that
``Document.parser`` reads ``latex+pdf``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.document import Document, Figure, Formula, Table
from paperpyramid.parsers.pdf_pages import MIN_PROBE_LENGTH, PageLimits, PageLocator, normalise

__all__ = ["PagePlacement", "assign_pages"]

_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.DOTALL)


@dataclass(frozen=True)
class PagePlacement:
    """How the blocks were placed: found in the PDF's text, or given a neighbour's page."""

    blocks: int
    found: int
    fallback: int


def assign_pages(
    document: Document, pdf: Path, *, password: str | None = None, max_pages: int | None = None, time_limit: float | None = None
) -> PagePlacement:
    """Give every block, formula, table, figure and section of ``document`` its page in ``pdf``.

    Raises what :meth:`PageLocator.from_pdf` raises for a PDF that cannot be read (a
    :class:`~paperpyramid.errors.BadInput`), or is over ``max_pages``/``time_limit``.
    """
    limits = PageLimits(max_pages, time_limit)
    locator = PageLocator.from_pdf(pdf, password=password, limits=limits)
    document.pages = locator.page_count
    cursor = 1
    found = fallback = total = 0
    for section in document.sections:
        for block in section.blocks:
            total += 1
            limits.check_time(pdf, f"stopped placing block {total} on the PDF's pages")
            probe = _probe(block.text)
            page: int | None = None
            if block.kind != "formula" and len(probe) >= MIN_PROBE_LENGTH:
                page = locator.nearest(probe, cursor) if block.kind in ("table", "caption") else locator.forward(probe, cursor)
            if page is None:
                fallback += 1
                block.page = cursor
                continue
            found += 1
            block.page = page
            if block.kind not in ("table", "caption"):
                cursor = page
    _link(document)
    _section_pages(document)
    document.provenance["pages"] = f"pdf text layer (pdfium {pdfium.PDFIUM_INFO.build})"
    if total and fallback > total / 2:
        document.warnings.append(f"only {found} of {total} blocks were found in the PDF's text layer; page numbers are approximate")
    return PagePlacement(total, found, fallback)


def _probe(text: str) -> str:
    """What to look for: the longest stretch of the text between inline formulas (a table's
    heading, not its markdown), normalised; the windows of a probe must not straddle mathematics."""
    text = text.split("\n\n| ", 1)[0]
    return max((normalise(piece) for piece in _MATH.split(text)), key=len, default="")


def _link(document: Document) -> None:
    """Formulas, tables and figures take the page of their block (paired in order, kind by kind)."""
    blocks = [block for section in document.sections for block in section.blocks]
    pairs: list[tuple[list[Formula] | list[Table] | list[Figure], str]] = [
        (document.formulas, "formula"), (document.tables, "table"), (document.figures, "caption")
    ]  # fmt: skip
    for items, kind in pairs:
        pages = [block.page for block in blocks if block.kind == kind]
        for index, page in enumerate(pages[: len(items)]):
            items[index].page = page


def _section_pages(document: Document) -> None:
    for section in document.sections:
        pages = [block.page for block in section.blocks]
        section.page_start = min(pages, default=None)
        section.page_end = max(pages, default=None)
    for section in reversed(document.sections):
        if section.parent is None or section.page_start is None or section.page_end is None:
            continue
        parent = document.sections[section.parent]
        parent.page_start = section.page_start if parent.page_start is None else min(parent.page_start, section.page_start)
        parent.page_end = section.page_end if parent.page_end is None else max(parent.page_end, section.page_end)
    previous = 1
    for section in document.sections:
        if section.page_start is None:
            section.page_start = section.page_end = previous
        previous = section.page_end or previous
