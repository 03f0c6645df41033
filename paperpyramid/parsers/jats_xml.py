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
import itertools
import operator
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException, EntitiesForbidden

from paperpyramid.errors import BadInput
from paperpyramid.parsers.xml_cites import collapse, group_1

# PMC's largest articles are a few MB of XML; anything far bigger is not an article.
_MAX_XML_BYTES = 64 * 2**20
# hostile spans ("colspan=1000000000") must not become a billion empty cells
_MAX_SPAN = 1000
# the readers walk the tree by recursion, up to four frames a level; real articles nest a dozen levels
_MAX_DEPTH = 100
# files up to this size are built whole and then measured; larger ones are measured as they are read
_BUILT_WHOLE_BYTES = 2**20
_STREAM_CHUNK = 2**16
# the prolog (XML declaration, DOCTYPE) is checked a piece at a time until the root element starts
_PROLOG_CHUNK = 2**12
_TAG = operator.attrgetter("tag")
_has_children: Callable[[ET.Element], int] = len
# Inline elements that carry no readable text.
_NO_TEXT = frozenset({"object-id", "graphic", "inline-graphic", "media", "inline-media", "alternatives", "sec-meta"})
# the elements the inline readers do more with than read their text
_INLINE_SPECIAL = _NO_TEXT | {"break", "inline-formula"}
_MATHML_NO_TEXT = frozenset({"annotation", "annotation-xml"})
# the spaces pretty-printing leaves inside punctuation, in text whose whitespace is collapsed to
# single spaces, each removed as ``pattern.sub(r"\1", text)``: before closing punctuation, and
# after an opening bracket. Each starts with literal text, which the regex engine skips to; a
# character class first ("[(\[] ") would have it test every character
_SPACE_BEFORE = re.compile(r" ([,.;:)\]])(?!\d)")
_SPACE_AFTER = (re.compile(r"(\() "), re.compile(r"(\[) "))
#: the tidying of :func:`_tidy`, in order
_TIDY = (_SPACE_BEFORE, *_SPACE_AFTER)


# --------------------------------------------------------------------------- reading the XML


class _RootReached(Exception):
    """The prolog check reached the root element's start tag: no declaration can follow it."""


class _UpToRoot:
    """A parser target that stops the parse at the first start tag."""

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        raise _RootReached

    def close(self) -> None:
        return None


def _read_xml(path: Path) -> ET.Element:
    """The root of the XML file at ``path``, every element's tag without its namespace.

    Entity declarations (only an internal DTD subset, before the root element, can hold them)
    are refused by defusedxml, which reads only as far as the root's start tag; the tree is then
    built by the C parser, without a Python call per element. A tree deeper than ``_MAX_DEPTH``
    is refused: a file over a megabyte while it is read, so that 5 million nested levels are not
    built (1.4 GB) to be refused; a smaller one (some tens of MB of tree at worst) once built.
    """
    size = path.stat().st_size
    if size > _MAX_XML_BYTES:
        raise BadInput(f"{path.name}: {size} bytes of XML is over the limit of {_MAX_XML_BYTES} for one article")
    data = path.read_bytes()
    try:
        _refuse_declarations(data)
        root = _build_streaming(data, path.name) if len(data) > _BUILT_WHOLE_BYTES else _build_whole(data, path.name)
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


def _refuse_declarations(data: bytes) -> None:
    """Raise defusedxml's exception for an entity declaration or an external entity reference
    before the root element, which is the only place the XML grammar allows them."""
    parser = SafeET.DefusedXMLParser(target=_UpToRoot(), forbid_dtd=False, forbid_entities=True, forbid_external=True)
    try:
        for offset in range(0, len(data), _PROLOG_CHUNK):
            parser.feed(data[offset : offset + _PROLOG_CHUNK])
    except _RootReached:
        return
    # no root element: the tree's parser says what is wrong with the document


def _build_whole(data: bytes, name: str) -> ET.Element:
    parser = ET.XMLParser(target=ET.TreeBuilder())
    parser.feed(data)
    root = parser.close()
    # how deep, level by level: the elements with children of each level, gathered at C speed;
    # the tags are gathered on the way, which spares a second walk over the tree for them
    level = [root]
    tags: set[str] = set()
    for _ in range(_MAX_DEPTH):
        tags.update(map(_TAG, level))
        parents: Iterator[ET.Element] = filter(_has_children, level)
        level = list(itertools.chain.from_iterable(parents))
        if not level:
            break
    else:
        raise BadInput(f"{name}: XML refused: elements nested too deeply (over {_MAX_DEPTH} levels)")
    namespaced = {tag for tag in tags if "}" in tag}
    if namespaced:
        for element in root.iter():
            if element.tag in namespaced:
                element.tag = _local(element.tag)
    return root


def _build_streaming(data: bytes, name: str) -> ET.Element | None:
    """The tree of a large file, refused at its 101st level as it is read."""
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    root: ET.Element | None = None
    depth = 0
    for offset in range(0, len(data) + 1, _STREAM_CHUNK):
        if offset < len(data):
            parser.feed(data[offset : offset + _STREAM_CHUNK])
        else:
            parser.close()
        for event in parser.read_events():
            kind, element = cast(tuple[str, ET.Element], event)  # only start and end events were asked for
            if kind == "end":
                depth -= 1
                continue
            depth += 1
            if depth > _MAX_DEPTH:
                raise BadInput(f"{name}: XML refused: elements nested too deeply (over {_MAX_DEPTH} levels)")
            element.tag = _local(element.tag)
            if root is None:
                root = element
    return root


def _main_article(root: ET.Element, name: str) -> ET.Element:
    if root.tag == "article":
        return root
    # E-utilities wrap articles in <pmc-articleset>; the first one is the article asked for
    if root.tag == "pmc-articleset":
        article = _child(root, "article")
        if article is not None:
            return article
    raise BadInput(f"{name}: not a JATS article (the root element is <{root.tag}>, not <article>)")


def _local(tag: object) -> str:
    """An element's name without its namespace (MathML elements are namespaced). :func:`_read_xml`
    strips every tag so, and the readers compare tags as they are."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _child(element: ET.Element | None, name: str) -> ET.Element | None:
    return element.find(name) if element is not None else None


def _children(element: ET.Element, name: str) -> list[ET.Element]:
    return element.findall(name)


def _descendants(element: ET.Element, name: str) -> Iterator[ET.Element]:
    """``element`` and the elements under it named ``name``, in document order."""
    return element.iter(name)


def _first(element: ET.Element, name: str) -> ET.Element | None:
    return next(element.iter(name), None)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _plain(element: ET.Element | None) -> str:
    """All the text under ``element``, whitespace collapsed: what the eval's gold reader sees."""
    if element is None:
        return ""
    if len(element):
        return " ".join("".join(element.itertext()).split())
    text = element.text  # read once: each read is a getter call
    return " ".join(text.split()) if text else ""


def _tidy(text: str) -> str:
    """Collapse whitespace and undo the spaces pretty-printed XML leaves inside punctuation.

    PLOS files put inline elements on lines of their own, so "frog (<italic>L. x</italic>)"
    reads "frog ( L. x )" once collapsed.
    """
    text = collapse(text)
    if " " in text:
        text = _SPACE_BEFORE.sub(group_1, text)
        # many texts hold no bracket: looking for one character costs less than a pattern's search
        # (and than looking for the bracket and its space, a search that stops at every space)
        if "(" in text:
            text = _SPACE_AFTER[0].sub(group_1, text)
        if "[" in text:
            text = _SPACE_AFTER[1].sub(group_1, text)
    return text


def _tidy_all(texts: list[str]) -> list[str]:
    """``[_tidy(text) for text in texts]``, tidied as one text: joined by NUL, which no XML text
    holds and neither whitespace nor the punctuation the tidying looks at, and cut there again.
    Collapsing leaves at most one space on either side of a cut: removed from the whole text in
    two calls, rather than by a call per text."""
    return _tidy("\x00".join(texts)).replace(" \x00", "\x00").replace("\x00 ", "\x00").split("\x00")


def _inline_text(element: ET.Element, skip: frozenset[str] = frozenset()) -> str:
    """Readable text of an element, with line breaks as spaces and formulas as their source."""
    return _tidy(_inline_raw(element, skip))


def _inline_raw(element: ET.Element, skip: frozenset[str] = frozenset()) -> str:
    """:func:`_inline_text` before whitespace is collapsed, so that pieces can be joined."""
    if not len(element):
        return element.text or ""
    if _only_text_inside(element, _INLINE_SPECIAL.union(skip) if skip else _INLINE_SPECIAL):
        return "".join(element.itertext())
    parts: list[str] = []
    walk_inline(element, parts.append, skip)
    return "".join(parts)


def _only_text_inside(element: ET.Element, special: frozenset[str]) -> bool:
    """Whether no element under ``element`` (nor itself) is named in ``special``: then the
    readers' text is all of its text, as ``itertext`` gives it at C speed."""
    return special.isdisjoint(map(_TAG, element.iter()))


def walk_inline(
    element: ET.Element,
    add: Callable[[str], None],
    skip: frozenset[str] = frozenset(),
    around: Callable[[ET.Element, Callable[[], None]], None] | None = None,
) -> None:
    """Hand ``add`` the readable pieces of ``element`` in reading order (never an empty one):
    line breaks as spaces, formulas as their source, ``skip`` and non-text elements left out.
    ``around(xref, read)``, when given, is called for each ``<xref>`` with ``read`` adding its own
    text and children (the citations' reader marks what ``read`` added); the tail follows either way."""
    if element.text:
        add(element.text)
    _InlineWalk(add, skip, around).walk(element)


class _InlineWalk:
    """:func:`walk_inline`'s reading of one element. A class rather than closures: a recursive
    closure refers to itself, a cycle only the garbage collector frees."""

    __slots__ = ("add", "left_out", "special", "around")

    def __init__(
        self, add: Callable[[str], None], skip: frozenset[str], around: Callable[[ET.Element, Callable[[], None]], None] | None
    ) -> None:
        self.add = add
        self.left_out = _NO_TEXT.union(skip) if skip else _NO_TEXT
        special = _INLINE_SPECIAL.union(skip) if skip else _INLINE_SPECIAL
        self.special = special | {"xref"} if around is not None else special
        self.around = around

    def walk(self, node: ET.Element) -> None:
        """The children of ``node`` and their tails."""
        add, special, around = self.add, self.special, self.around
        for child in node:
            tag = child.tag
            if tag not in special:
                text = child.text  # read once: each read of an element's text or tail is a getter call
                if text:
                    add(text)
                if len(child):
                    self.walk(child)
            elif tag in self.left_out:
                pass
            elif tag == "break":
                add(" ")
            elif tag == "inline-formula":
                add(" " + _inline_formula(child) + " ")
            elif around is not None:  # an xref
                around(child, functools.partial(self.read, child))
            tail = child.tail
            if tail:
                add(tail)

    def read(self, element: ET.Element) -> None:
        """``element``'s own text, then its children."""
        text = element.text
        if text:
            self.add(text)
        self.walk(element)


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
    _mathml_tokens(math, tokens)
    return _collapse(" ".join(tokens)) or None


def _mathml_tokens(node: ET.Element, tokens: list[str]) -> None:
    """The text and tails under a MathML element, each stripped, into ``tokens``; annotations left out."""
    if node.tag in _MATHML_NO_TEXT:
        return
    if node.text and node.text.strip():
        tokens.append(node.text.strip())
    for child in node:
        _mathml_tokens(child, tokens)
        if child.tail and child.tail.strip():
            tokens.append(child.tail.strip())


def _inline_formula(element: ET.Element) -> str:
    return _tex(element) or _mathml_text(element) or _plain(element)


# --------------------------------------------------------------------------- tables


def _table_rows(table: ET.Element) -> Iterator[ET.Element]:
    for part in table:
        name = part.tag
        if name == "tr":
            yield part
        elif name in ("thead", "tbody", "tfoot"):
            yield from _children(part, "tr")


def _cell_rows(table: ET.Element) -> list[list[ET.Element | None]]:
    """Rows of ``<td>``/``<th>`` elements, with None where a cell spanned from the left or from
    above reaches, so that rows line up; a row that only draws a rule (``<hr/>``) is left out."""
    grid: list[list[ET.Element | None]] = []
    carried: dict[int, int] = {}  # column -> rows still covered by a rowspan from above
    ruled = next(table.iter("hr"), None) is not None  # most tables draw no rule: no row to look into for one
    for tr in _table_rows(table):
        if ruled and not carried and next(tr.iter("hr"), None) is not None and not "".join(tr.itertext()).strip():
            continue  # a rule drawn as a row ("<td colspan=5><hr/></td>"): no row of the table
        row: list[ET.Element | None] = []
        covered = set(carried)
        for cell in tr:
            tag = cell.tag
            if tag != "td" and tag != "th":
                continue
            if covered and len(row) in covered:  # a call only where a rowspan from above fills this column
                _pad_covered(row, covered)
            colspan_value, rowspan_value = cell.get("colspan"), cell.get("rowspan")
            colspan = 1 if colspan_value is None or colspan_value == "1" else _span(colspan_value)
            rowspan = 1 if rowspan_value is None or rowspan_value == "1" else _span(rowspan_value)
            if rowspan > 1:
                carried.update(dict.fromkeys(range(len(row), len(row) + colspan), rowspan))
            row.append(cell)
            if colspan > 1:
                row.extend([None] * (colspan - 1))
        if covered:
            # covered columns past the row's last cell; one left behind (a malformed table) is dropped
            covered = {column for column in covered if column >= len(row)}
            while covered:
                _pad_covered(row, covered)
                if covered:  # a short row: a gap before the next covered column
                    row.append(None)
        if carried:
            for column in list(carried):
                carried[column] -= 1
                if carried[column] <= 0:
                    del carried[column]
        grid.append(row)
    return grid


def _pad_covered(row: list[ET.Element | None], covered: set[int]) -> None:
    """No cell for the columns a rowspan from above fills, from the row's end on."""
    while len(row) in covered:
        covered.discard(len(row))
        row.append(None)


def _span(value: str | None) -> int:
    if value is None:
        return 1
    try:
        return min(max(int(value or "1"), 1), _MAX_SPAN)
    except ValueError:
        return 1


def _tables_in(element: ET.Element) -> Iterator[ET.Element]:
    """``<table>`` elements under ``element``, not those nested in another table's cells."""
    for child in element:
        if child.tag == "table":
            yield child
        else:
            yield from _tables_in(child)


def _caption(element: ET.Element) -> str:
    caption = _child(element, "caption")
    if caption is None:
        return ""
    parts = [_inline_text(part) for part in caption if part.tag in ("title", "p")]
    text = " ".join(part for part in parts if part)
    return text or _inline_text(caption)


def _label(element: ET.Element) -> str:
    return _plain(_child(element, "label"))
