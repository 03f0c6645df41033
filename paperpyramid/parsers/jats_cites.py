"""In-text citations in JATS, for :mod:`paperpyramid.parsers.jats`.

A citation is ``<xref ref-type="bibr" rid="B3 B4">[3,4]</xref>``: its text is the marker,
``rid`` names one or more ``<ref id>`` of the reference list. A range is two xrefs with a dash
between them, outside both ("[<xref>3</xref>–<xref>5</xref>]", "<xref>[3]</xref>–<xref>[5]</xref>"):
it becomes one cite from the first marker to the last, citing every entry between them in
reference-list order (:func:`resolve_cites`, once the list is read).

The readers here mirror :func:`~paperpyramid.parsers.jats_xml._inline_text` and
:func:`~paperpyramid.parsers.jats_xml._caption` and give the same text, with the cites in it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from paperpyramid.document import Cite, Section
from paperpyramid.parsers.jats_xml import (
    _INLINE_SPECIAL,
    _TIDY,
    _cell_rows,
    _child,
    _only_text_inside,
    _tidy,
    _tidy_all,
    walk_inline,
)
from paperpyramid.parsers.xml_cites import MarkedText, moved

#: what :func:`~paperpyramid.parsers.jats_xml._tidy` does after collapsing whitespace, in order
#: (:meth:`MarkedText.finish` collapses it first too)
TIDY = _TIDY
_DASHES = frozenset({"–", "-", "—", "‒", "−", "‐", "‑"})
# what makes the citations' readers do more than read an element's text
_CITE_SPECIAL = _INLINE_SPECIAL | {"xref"}


def cite_keys(xref: ET.Element) -> list[str] | None:
    """The ids a citation ``<xref>`` names, or None when it is no citation (a figure, a table, an affiliation)."""
    if xref.tag != "xref" or xref.get("ref-type") not in ("bibr", None):
        return None
    keys = (xref.get("rid") or "").split()
    return keys or None


def close_cite(text: MarkedText, start: int, keys: list[str], ranges: list[Cite]) -> None:
    """Mark the xref read since raw offset ``start``; a dash alone between it and the cite before
    joins the two into a range (recorded in ``ranges`` for :func:`resolve_cites`)."""
    previous = text.marks[-1] if text.marks else None
    if (
        previous is not None
        and text.raw(previous.end, start).strip() in _DASHES
        and len(previous.keys) == 1
        and len(keys) == 1
        and not any(previous is joined for joined in ranges)
    ):
        previous.end = text.position
        previous.keys = [previous.keys[0], keys[0]]
        ranges.append(previous)
        return
    text.mark(start, keys)


def read_inline(element: ET.Element, text: MarkedText, ranges: list[Cite], skip: frozenset[str] = frozenset()) -> None:
    """:func:`~paperpyramid.parsers.jats_xml._inline_raw` into ``text``, marking the citations."""

    def around(xref: ET.Element, read: Callable[[], None]) -> None:
        keys = cite_keys(xref)
        start = text.position
        read()
        if keys:
            close_cite(text, start, keys, ranges)

    walk_inline(element, text.append, skip, around)


def inline_text(element: ET.Element, ranges: list[Cite], skip: frozenset[str] = frozenset()) -> tuple[str, list[Cite]]:
    """:func:`~paperpyramid.parsers.jats_xml._inline_text` and the cites in it."""
    if not len(element) or _only_text_inside(element, _CITE_SPECIAL.union(skip) if skip else _CITE_SPECIAL):
        return _tidy("".join(element.itertext())), []
    text = MarkedText()
    read_inline(element, text, ranges, skip)
    return text.finish(TIDY)


def caption(element: ET.Element, ranges: list[Cite]) -> tuple[str, list[Cite]]:
    """:func:`~paperpyramid.parsers.jats_xml._caption` and the cites in it."""
    node = _child(element, "caption")
    if node is None:
        return "", []
    parts = [inline_text(part, ranges) for part in node if part.tag in ("title", "p")]
    joined, cites = join([part for part in parts if part[0]], " ")
    return (joined, cites) if joined else inline_text(node, ranges)


def join(parts: Iterable[tuple[str, list[Cite]]], separator: str) -> tuple[str, list[Cite]]:
    """Texts joined by ``separator``, their cites moved along."""
    text = ""
    cites: list[Cite] = []
    for number, (part, part_cites) in enumerate(parts):
        if number:
            text += separator
        cites += moved(part_cites, len(text))
        text += part
    return text, cites


def label_offset(label: str, text: str) -> int:
    """Where ``text`` starts in :func:`~paperpyramid.parsers.jats_xml._join_label` ``(label, text)``."""
    if not label or not text:
        return 0
    return len(label) + (1 if label[-1] in ".:" else 2)


def resolve_cites(sections: list[Section], ranges: list[Cite], ref_ids: list[str], known: set[str]) -> None:
    """Expand the ranges to every entry between their ends in reference-list order (``ref_ids``),
    and keep only keys of the reference list (``known``); a cite left naming nothing is dropped."""
    order = {key: index for index, key in reversed(list(enumerate(ref_ids)))}
    for cite in ranges:
        first, last = cite.keys
        if first in order and last in order and order[first] < order[last]:
            cite.keys = ref_ids[order[first] : order[last] + 1]
    for section in sections:
        for block in section.blocks:
            if not block.cites:  # most blocks: no list to build again
                continue
            for cite in block.cites:
                cite.keys = [key for key in dict.fromkeys(cite.keys) if key in known]
            block.cites = [cite for cite in block.cites if cite.keys]


def table_cells(tables: list[ET.Element], ranges: list[Cite]) -> tuple[list[list[str]], dict[ET.Element, tuple[str, list[Cite]]]]:
    """The grid of the cells of ``tables`` (:func:`~paperpyramid.parsers.jats_xml._cell_rows`, every row
    as wide as the widest, an empty cell where a span reaches), and what :func:`table_cites` reads the
    cites from: each cell's text and cites by element, in reading order; empty when the grid holds
    every cell and none cites.

    A cell that holds nothing but text (most) is tidied together with the others, in one pass.
    """
    rows = [row for table in tables for row in _cell_rows(table)]
    order = [cell for row in rows for cell in row if cell is not None]
    marked = {cell: inline_text(cell, ranges) for cell in order if len(cell) and not _only_text_inside(cell, _CITE_SPECIAL)}
    plain = [(cell.text or "") if not len(cell) else "".join(cell.itertext()) for cell in order if cell not in marked]
    tidied = _tidy_all(plain) if plain else []
    texts = iter(tidied)
    width = max(map(len, rows), default=0)
    grid = [
        ["" if cell is None else marked[cell][0] if cell in marked else next(texts) for cell in row] + [""] * (width - len(row))
        for row in rows
    ]
    if not any(cites for _, cites in marked.values()) and _cell_count(tables) == len(order):
        return grid, {}  # nothing to find in the grid
    texts = iter(tidied)
    return grid, {cell: marked[cell] if cell in marked else (next(texts), []) for cell in order}


def _cell_count(tables: list[ET.Element]) -> int:
    return sum(len(list(table.iter(tag))) for table in tables for tag in ("td", "th"))


def table_cites(
    tables: list[ET.Element], cells: list[list[str]], ranges: list[Cite], read: dict[ET.Element, tuple[str, list[Cite]]] | None = None
) -> list[Cite]:
    """The cites in the cells of ``tables``, as offsets into :func:`~paperpyramid.document.cells_to_markdown` ``(cells)``.

    ``cells`` is the grid the tables' ``<td>``/``<th>`` fill in order, with empty cells where a
    span covers; each cell is read with its cites (:func:`inline_text`, or taken from ``read``
    where :func:`table_cells` kept it) and found in that grid by its text.
    """
    read = read or {}
    if _cell_count(tables) == len(read):
        texts = list(read.values())  # every cell is in the grid, read in document order
    else:  # cells the grid does not hold (a table in a cell): read too, and matched by their text
        texts = [
            read[cell] if cell in read else inline_text(cell, ranges)
            for table in tables
            for cell in table.iter()
            if cell.tag in ("td", "th")
        ]
    if not any(cites for _, cites in texts):
        return []
    width = max((len(row) for row in cells), default=0)
    cites: list[Cite] = []
    line = 0  # where the row's line starts in the markdown
    at = 0  # the next of texts
    for number, row in enumerate(cells):
        shown = [cell.replace("|", "\\|").replace("\n", " ").strip() for cell in row] + [""] * (width - len(row))
        position = line + 2  # past "| "
        for index, cell in enumerate(row):
            while cell and at < len(texts) and not texts[at][0]:
                at += 1  # an empty <td> where the grid has text: not this cell
            if at < len(texts) and texts[at][0] == cell:
                for cite in texts[at][1]:
                    cite.start, cite.end = (position + offset + cell[:offset].count("|") for offset in (cite.start, cite.end))
                    cites.append(cite)
                at += 1
            position += len(shown[index]) + 3  # past " | "
        line += len("| " + " | ".join(shown) + " |") + 1
        if number == 0:
            line += len("|" + "---|" * width) + 1
    return cites
