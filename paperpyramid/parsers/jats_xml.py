"""Reading JATS XML for :mod:`paperpyramid.parsers.jats`: the safe parse and the element helpers.

The helpers turn JATS elements into plain values: a child by name, an element's readable
text, a formula's LaTeX or MathML tokens, a table's grid of cells, a caption or label. They
know nothing of the document model; :mod:`paperpyramid.parsers.jats` builds the document
from them. Their names keep the leading underscore: they are the JATS parser's own
internals, not API for other modules.

The XML comes from outside (a bucket, a tarball), so it is parsed with defusedxml: an
entity declaration (the way to an XXE file read or an entity-expansion bomb) or an
external reference makes the file :class:`~paperpyramid.errors.BadInput`. Real JATS files
name their DTD in a ``<!DOCTYPE ... "x.dtd">`` without declaring anything; those parse,
and the DTD is never fetched.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException, EntitiesForbidden

from paperpyramid.errors import BadInput

# PMC's largest articles are a few MB of XML; anything far bigger is not an article.
_MAX_XML_BYTES = 64 * 2**20
# hostile spans ("colspan=1000000000") must not become a billion empty cells
_MAX_SPAN = 1000
# the readers walk the tree by recursion, up to four frames a level; real articles nest a dozen levels
_MAX_DEPTH = 100
# Inline elements that carry no readable text.
_NO_TEXT = frozenset({"object-id", "graphic", "inline-graphic", "media", "inline-media", "alternatives", "sec-meta"})
_MATHML_NO_TEXT = frozenset({"annotation", "annotation-xml"})
_SPACE_BEFORE = re.compile(r"\s+([,.;:)\]])(?!\d)")
_SPACE_AFTER = re.compile(r"([(\[])\s+")


# --------------------------------------------------------------------------- reading the XML


def _read_xml(path: Path) -> ET.Element:
    size = path.stat().st_size
    if size > _MAX_XML_BYTES:
        raise BadInput(f"{path.name}: {size} bytes of XML is over the limit of {_MAX_XML_BYTES} for one article")
    root: ET.Element | None = None
    depth = 0
    try:
        # read as a stream of events so that a tree too deep for the readers' recursion is
        # refused at its 101st level, not after 5 million levels have been built (1.4 GB)
        with path.open("rb") as handle:
            events = SafeET.iterparse(handle, events=("start", "end"), forbid_dtd=False, forbid_entities=True, forbid_external=True)
            for event, element in events:
                if event == "end":
                    depth -= 1
                    continue
                depth += 1
                if depth > _MAX_DEPTH:
                    raise BadInput(f"{path.name}: XML refused: elements nested too deeply (over {_MAX_DEPTH} levels)")
                if root is None:
                    root = element
    except EntitiesForbidden as exc:
        target = f" -> {exc.sysid}" if exc.sysid else ""
        raise BadInput(
            f"{path.name}: unsafe XML refused: it declares the entity {exc.name!r}{target} (entity declarations are how XXE and entity bombs work)"
        ) from exc
    except DefusedXmlException as exc:
        raise BadInput(f"{path.name}: unsafe XML refused: {exc}") from exc
    except ET.ParseError as exc:
        raise BadInput(f"{path.name}: XML refused: not well formed: {exc}") from exc
    if root is None:  # expat raises on an empty document first; this keeps the type honest
        raise BadInput(f"{path.name}: XML refused: no root element")
    return root


def _main_article(root: ET.Element, name: str) -> ET.Element:
    if _local(root.tag) == "article":
        return root
    # E-utilities wrap articles in <pmc-articleset>; the first one is the article asked for
    if _local(root.tag) == "pmc-articleset":
        article = _child(root, "article")
        if article is not None:
            return article
    raise BadInput(f"{name}: not a JATS article (the root element is <{_local(root.tag)}>, not <article>)")


def _local(tag: object) -> str:
    """An element's name without its namespace (MathML elements are namespaced)."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _child(element: ET.Element | None, name: str) -> ET.Element | None:
    if element is None:
        return None
    return next((child for child in element if _local(child.tag) == name), None)


def _children(element: ET.Element, name: str) -> list[ET.Element]:
    return [child for child in element if _local(child.tag) == name]


def _descendants(element: ET.Element, name: str) -> Iterator[ET.Element]:
    return (node for node in element.iter() if _local(node.tag) == name)


def _first(element: ET.Element, name: str) -> ET.Element | None:
    return next(_descendants(element, name), None)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _plain(element: ET.Element | None) -> str:
    """All the text under ``element``, whitespace collapsed: what the eval's gold reader sees."""
    return _collapse("".join(element.itertext())) if element is not None else ""


def _tidy(text: str) -> str:
    """Collapse whitespace and undo the spaces pretty-printed XML leaves inside punctuation.

    PLOS files put inline elements on lines of their own, so "frog (<italic>L. x</italic>)"
    reads "frog ( L. x )" once collapsed.
    """
    text = _collapse(text)
    text = _SPACE_BEFORE.sub(r"\1", text)
    return _SPACE_AFTER.sub(r"\1", text)


def _inline_text(element: ET.Element, skip: frozenset[str] = frozenset()) -> str:
    """Readable text of an element, with line breaks as spaces and formulas as their source."""
    return _tidy(_inline_raw(element, skip))


def _inline_raw(element: ET.Element, skip: frozenset[str] = frozenset()) -> str:
    """:func:`_inline_text` before whitespace is collapsed, so that pieces can be joined."""
    parts: list[str] = []
    walk_inline(element, parts.append, skip)
    return "".join(parts)


def walk_inline(
    element: ET.Element,
    add: Callable[[str], None],
    skip: frozenset[str] = frozenset(),
    around: Callable[[ET.Element, Callable[[], None]], None] | None = None,
) -> None:
    """Hand ``add`` the readable pieces of ``element`` in reading order: line breaks as spaces,
    formulas as their source, ``skip`` and non-text elements left out. ``around(child, read)``,
    when given, is called for each other child with ``read`` adding its own text and children
    (the citations' reader marks what ``read`` added); the child's tail follows either way."""

    def walk(node: ET.Element) -> None:
        for child in node:
            name = _local(child.tag)
            if name in skip or name in _NO_TEXT:
                pass
            elif name == "break":
                add(" ")
            elif name == "inline-formula":
                add(" " + _inline_formula(child) + " ")
            elif around is None:
                if child.text:
                    add(child.text)
                walk(child)
            else:
                around(child, functools.partial(read, child))
            if child.tail:
                add(child.tail)

    def read(child: ET.Element) -> None:
        if child.text:
            add(child.text)
        walk(child)

    if element.text:
        add(element.text)
    walk(element)


def _join_label(label: str, text: str) -> str:
    if not label:
        return text
    if not text:
        return label
    return f"{label} {text}" if label[-1] in ".:" else f"{label}. {text}"


# --------------------------------------------------------------------------- formulas


def _tex(element: ET.Element) -> str | None:
    """The LaTeX of a ``<tex-math>``, without the ``\\documentclass`` wrapper PMC puts around it."""
    node = _first(element, "tex-math")
    if node is None:
        for annotation in _descendants(element, "annotation"):
            if "tex" in (annotation.get("encoding") or "").lower():
                node = annotation
                break
    if node is None:
        return None
    tex = "".join(node.itertext())
    inner = re.search(r"\\begin\{document\}(.*)\\end\{document\}", tex, re.S)
    if inner:
        tex = inner.group(1)
    tex = tex.strip()
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("$", "$")):
        if tex.startswith(opener) and tex.endswith(closer) and len(tex) > len(opener) + len(closer):
            tex = tex[len(opener) : -len(closer)].strip()
            break
    return _collapse(tex) or None


def _mathml_text(element: ET.Element) -> str | None:
    math = _first(element, "math")
    if math is None:
        return None
    tokens: list[str] = []

    def walk(node: ET.Element) -> None:
        if _local(node.tag) in _MATHML_NO_TEXT:
            return
        if node.text and node.text.strip():
            tokens.append(node.text.strip())
        for child in node:
            walk(child)
            if child.tail and child.tail.strip():
                tokens.append(child.tail.strip())

    walk(math)
    return _collapse(" ".join(tokens)) or None


def _inline_formula(element: ET.Element) -> str:
    return _tex(element) or _mathml_text(element) or _plain(element)


# --------------------------------------------------------------------------- tables


def _table_rows(table: ET.Element) -> Iterator[ET.Element]:
    for part in table:
        name = _local(part.tag)
        if name == "tr":
            yield part
        elif name in ("thead", "tbody", "tfoot"):
            yield from _children(part, "tr")


def _cells(table: ET.Element) -> list[list[str]]:
    """Rows of cell text; a spanned cell is padded with empty cells so rows line up."""
    grid: list[list[str]] = []
    carried: dict[int, int] = {}  # column -> rows still covered by a rowspan from above
    for tr in _table_rows(table):
        row: list[str] = []
        covered = set(carried)
        for cell in tr:
            if _local(cell.tag) not in ("td", "th"):
                continue
            _pad_covered(row, covered)
            colspan = _span(cell.get("colspan"))
            rowspan = _span(cell.get("rowspan"))
            if rowspan > 1:
                carried.update(dict.fromkeys(range(len(row), len(row) + colspan), rowspan))
            row.append(_inline_text(cell))
            row.extend([""] * (colspan - 1))
        # covered columns past the row's last cell; one left behind (a malformed table) is dropped
        covered = {column for column in covered if column >= len(row)}
        while covered:
            _pad_covered(row, covered)
            if covered:  # a short row: a gap before the next covered column
                row.append("")
        for column in list(carried):
            carried[column] -= 1
            if carried[column] <= 0:
                del carried[column]
        grid.append(row)
    width = max((len(row) for row in grid), default=0)
    return [row + [""] * (width - len(row)) for row in grid]


def _pad_covered(row: list[str], covered: set[int]) -> None:
    """Empty cells for the columns a rowspan from above fills, from the row's end on."""
    while len(row) in covered:
        covered.discard(len(row))
        row.append("")


def _span(value: str | None) -> int:
    try:
        return min(max(int(value or "1"), 1), _MAX_SPAN)
    except ValueError:
        return 1


def _tables_in(element: ET.Element) -> Iterator[ET.Element]:
    """``<table>`` elements under ``element``, not those nested in another table's cells."""
    for child in element:
        if _local(child.tag) == "table":
            yield child
        else:
            yield from _tables_in(child)


def _caption(element: ET.Element) -> str:
    caption = _child(element, "caption")
    if caption is None:
        return ""
    parts = [_inline_text(part) for part in caption if _local(part.tag) in ("title", "p")]
    text = " ".join(part for part in parts if part)
    return text or _inline_text(caption)


def _label(element: ET.Element) -> str:
    return _plain(_child(element, "label"))
