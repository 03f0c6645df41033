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
from paperpyramid.parsers.jats_xml import _SPACE_AFTER, _SPACE_BEFORE, _child, _local, walk_inline
from paperpyramid.parsers.xml_cites import MarkedText, moved

#: what :func:`~paperpyramid.parsers.jats_xml._tidy` does after collapsing whitespace, in order
TIDY = (_SPACE_BEFORE, _SPACE_AFTER)
_DASHES = frozenset({"–", "-", "—", "‒", "−", "‐", "‑"})


def cite_keys(xref: ET.Element) -> list[str] | None:
    """The ids a citation ``<xref>`` names, or None when it is no citation (a figure, a table, an affiliation)."""
    if _local(xref.tag) != "xref" or xref.get("ref-type") not in ("bibr", None):
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

    def around(child: ET.Element, read: Callable[[], None]) -> None:
        keys = cite_keys(child)
        start = text.position
        read()
        if keys:
            close_cite(text, start, keys, ranges)

    walk_inline(element, text.add, skip, around)


def inline_text(element: ET.Element, ranges: list[Cite], skip: frozenset[str] = frozenset()) -> tuple[str, list[Cite]]:
    """:func:`~paperpyramid.parsers.jats_xml._inline_text` and the cites in it."""
    text = MarkedText()
    read_inline(element, text, ranges, skip)
    return text.finish(TIDY)


def caption(element: ET.Element, ranges: list[Cite]) -> tuple[str, list[Cite]]:
    """:func:`~paperpyramid.parsers.jats_xml._caption` and the cites in it."""
    node = _child(element, "caption")
    if node is None:
        return "", []
    parts = [inline_text(part, ranges) for part in node if _local(part.tag) in ("title", "p")]
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
            for cite in block.cites:
                cite.keys = [key for key in dict.fromkeys(cite.keys) if key in known]
            block.cites = [cite for cite in block.cites if cite.keys]


def table_cites(tables: list[ET.Element], cells: list[list[str]], ranges: list[Cite]) -> list[Cite]:
    """The cites in the cells of ``tables``, as offsets into :func:`~paperpyramid.document.cells_to_markdown` ``(cells)``.

    ``cells`` is the grid the tables' ``<td>``/``<th>`` fill in order, with empty cells where a
    span covers; each cell is read again here with its cites and found in that grid.
    """
    read = [inline_text(cell, ranges) for table in tables for cell in table.iter() if _local(cell.tag) in ("td", "th")]
    width = max((len(row) for row in cells), default=0)
    cites: list[Cite] = []
    line = 0  # where the row's line starts in the markdown
    for number, row in enumerate(cells):
        shown = [cell.replace("|", "\\|").replace("\n", " ").strip() for cell in row] + [""] * (width - len(row))
        position = line + 2  # past "| "
        for index, cell in enumerate(row):
            while cell and read and not read[0][0]:
                read.pop(0)  # an empty <td> where the grid has text: not this cell
            if read and read[0][0] == cell:
                for cite in read.pop(0)[1]:
                    cite.start, cite.end = (position + at + cell[:at].count("|") for at in (cite.start, cite.end))
                    cites.append(cite)
            position += len(shown[index]) + 3  # past " | "
        line += len("| " + " | ".join(shown) + " |") + 1
        if number == 0:
            line += len("|" + "---|" * width) + 1
    return cites
