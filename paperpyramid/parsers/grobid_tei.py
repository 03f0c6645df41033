"""GROBID TEI (0.6 to 0.8) to the document model.

GROBID writes the header in ``<teiHeader>``, the body as ``<text>/<body>/<div>`` with a
``<head n="2.1">`` per section, figures and tables as ``<figure>`` (``type="table"``), display
maths as ``<formula>``, and the reference list as ``<back>//<listBibl>/<biblStruct>``.
Acknowledgements and annexes are ``<div>`` in ``<back>``; they become sections after the body.

Pages come from ``@coords`` ("page,x,y,w,h;..."), which GROBID writes only on the elements
named in its ``teiCoordinates`` option; an element without its own coordinates takes those of
its first descendant that has some (a citation ``<ref>``, a sentence ``<s>``). Where a file has
no coordinates on its text at all, every page is a guess (the last known page, else 1) and the
document says so in :attr:`Document.warnings`.

The TEI comes from a network service, so it is parsed with defusedxml.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import defusedxml
import defusedxml.ElementTree as SafeET

from paperpyramid.document import (
    Author,
    BBox,
    Block,
    BlockKind,
    Cite,
    Document,
    Figure,
    Formula,
    Reference,
    Section,
    Table,
)
from paperpyramid.errors import BadInput
from paperpyramid.parsers.xml_cites import MarkedText, arxiv_id_in, moved, normalise_arxiv_id

__all__ = ["NO_COORDINATES_WARNING", "tei_to_document"]

_TEI = "{http://www.tei-c.org/ns/1.0}"
NO_COORDINATES_WARNING = "no coordinates: page numbers unknown"
#: elements whose coordinates place running text (figures are placed even without teiCoordinates)
_TEXT_COORDINATES = frozenset({"p", "s", "head", "ref", "formula", "biblStruct"})
_SECTION_NUMBER = re.compile(r"^(?:\d+|[A-Z]|[IVXLC]+)(?:\.\d+)*\.?$")


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _text(element: ET.Element | None, skip: frozenset[str] = frozenset()) -> str:
    """The element's text, leaving out subtrees named in ``skip`` (their tails are kept)."""
    if element is None:
        return ""

    def walk(node: ET.Element) -> Iterator[str]:
        if node.text:
            yield node.text
        for child in node:
            if _local(child.tag) not in skip:
                yield from walk(child)
            if child.tail:
                yield child.tail

    return _collapse("".join(walk(element)))


def _cited_text(element: ET.Element | None, skip: frozenset[str] = frozenset()) -> tuple[str, list[Cite]]:
    """:func:`_text` and its in-text citations: each ``<ref type="bibr" target="#b12">`` is a cite
    of its own text naming key "b12"; a bibr ref without a target (GROBID did not resolve
    it) is text only."""
    if element is None:
        return "", []
    marked = MarkedText()

    def walk(node: ET.Element) -> None:
        marked.add(node.text)
        for child in node:
            if _local(child.tag) not in skip:
                start = marked.position
                walk(child)
                keys = _cite_keys(child)
                if keys:
                    marked.mark(start, keys)
            marked.add(child.tail)

    walk(element)
    return marked.finish()


def _cite_keys(ref: ET.Element) -> list[str]:
    if _local(ref.tag) != "ref" or ref.get("type") != "bibr":
        return []
    return [target[1:] for target in (ref.get("target") or "").split() if target.startswith("#") and len(target) > 1]


def _children(element: ET.Element, name: str) -> list[ET.Element]:
    return [child for child in element if _local(child.tag) == name]


def _child(element: ET.Element | None, name: str) -> ET.Element | None:
    if element is None:
        return None
    return next((child for child in element if _local(child.tag) == name), None)


def _find(element: ET.Element | None, path: str) -> ET.Element | None:
    """``path`` is slash-separated local names, e.g. ``"fileDesc/titleStmt"``."""
    for name in path.split("/"):
        element = _child(element, name)
    return element


def parse_coords(value: str | None) -> tuple[int, BBox] | None:
    """The page and ``(x0, top, x1, bottom)`` box of the first box in a GROBID ``coords`` value."""
    if not value:
        return None
    first = value.split(";", 1)[0].split(",")
    if len(first) != 5:
        return None
    try:
        page = int(float(first[0]))
        x, y, w, h = (float(part) for part in first[1:])
    except ValueError:
        return None
    return page, (x, y, x + w, y + h)


def _section_level(number: str | None) -> int:
    if not number:
        return 1
    return number.rstrip(".").count(".") + 1


class _Reader:
    """Walks one TEI tree, filling a :class:`Document`; keeps the last known page."""

    def __init__(self, root: ET.Element, source: str) -> None:
        self.root = root
        self.source = source
        self.doc = Document()
        self.page = 1
        self.text_has_coordinates = False
        self.max_page = 0
        self.stack: list[int] = []  # indices of the open sections, outermost first

    # ------------------------------------------------------------------ pages

    def locate(self, element: ET.Element, *, in_reading_order: bool = True) -> tuple[int, BBox | None]:
        """The element's page and box from its own or its first descendant's coordinates.

        GROBID moves figures to the end of the body, so their pages do not advance the
        last known page that text without coordinates falls back to.
        """
        for node in element.iter():
            found = parse_coords(node.get("coords"))
            if found is None:
                continue
            if _local(node.tag) in _TEXT_COORDINATES:
                self.text_has_coordinates = True
            page, bbox = found
            if in_reading_order:
                self.page = page
            self.max_page = max(self.max_page, page)
            return page, bbox if node is element else None
        return self.page, None

    # ------------------------------------------------------------------ sections

    @property
    def current(self) -> int | None:
        return self.stack[-1] if self.stack else None

    def open_section(self, title: str, number: str | None, page: int) -> int:
        level = _section_level(number) if number and _SECTION_NUMBER.match(number) else 1
        while self.stack and self.doc.sections[self.stack[-1]].level >= level:
            self.stack.pop()
        index = len(self.doc.sections)
        self.doc.sections.append(Section(title=title, level=level, number=number, parent=self.current, page_start=page, page_end=page))
        self.stack.append(index)
        return index

    def add_block(self, text: str, page: int, kind: BlockKind, bbox: BBox | None, cites: list[Cite] | None = None) -> None:
        if not text:
            return
        if self.current is None:  # text before the first heading: an untitled section holds it
            self.open_section("", None, page)
        section = self.doc.sections[self.stack[-1]]
        section.blocks.append(Block(text, page, kind, bbox, cites or []))
        section.page_end = max(section.page_end or page, page)

    # ------------------------------------------------------------------ body

    def read_div(self, div: ET.Element) -> None:
        head = _child(div, "head")
        title = _text(head)
        if title and head is not None:
            page, _ = self.locate(head) if head.get("coords") else self.locate(div)
            number = (head.get("n") or "").strip() or None
            self.open_section(title, number, page)
        self.read_content(div)

    def read_content(self, container: ET.Element) -> None:
        for child in container:
            name = _local(child.tag)
            if name == "div":
                self.read_div(child)
            elif name == "p":
                page, bbox = self.locate(child)
                text, cites = _cited_text(child, frozenset({"formula", "figure", "note"}))
                self.add_block(text, page, "paragraph", bbox, cites)
                for nested in child:  # GROBID 0.8 may put a formula inside a paragraph
                    if _local(nested.tag) in ("formula", "figure"):
                        self.read_content_item(nested)
            elif name == "list":
                for item in _children(child, "item"):
                    page, bbox = self.locate(item)
                    text, cites = _cited_text(item)
                    self.add_block(text, page, "list_item", bbox, cites)
            else:
                self.read_content_item(child)

    def read_content_item(self, element: ET.Element) -> None:
        name = _local(element.tag)
        if name == "formula":
            self.read_formula(element)
        elif name == "figure":
            self.read_figure(element)

    def read_formula(self, element: ET.Element) -> None:
        page, bbox = self.locate(element)
        label = _text(_child(element, "label")) or None
        text = _text(element, frozenset({"label"}))
        if not text:
            return
        self.doc.formulas.append(Formula(text=text, page=page, label=label, bbox=bbox, section=self.current))
        self.add_block(f"{text} {label}" if label else text, page, "formula", bbox)

    def read_figure(self, element: ET.Element) -> None:
        page, bbox = self.locate(element, in_reading_order=False)
        head = _text(_child(element, "head"))
        description, cites = _cited_text(_child(element, "figDesc"))
        caption = description if head and description.startswith(head) else _collapse(f"{head} {description}")
        if caption != description:
            cites = moved(cites, len(head) + 1) if head and description else []
        label = _text(_child(element, "label")) or None
        if element.get("type") == "table":
            cells = _table_cells(_child(element, "table"))
            if not caption and not cells:
                return
            self.doc.tables.append(Table(caption=caption, cells=cells, page=page, bbox=bbox, label=label, section=self.current))
            if self.current is not None:
                self.add_block(caption, page, "caption", bbox, cites)
                if cells:
                    self.add_block(self.doc.tables[-1].markdown, page, "table", bbox)
        else:
            if not caption and bbox is None:
                return
            self.doc.figures.append(Figure(caption=caption, page=page, label=label, bbox=bbox, section=self.current))
            if self.current is not None:
                self.add_block(caption, page, "caption", bbox, cites)

    # ------------------------------------------------------------------ back

    def read_back(self, back: ET.Element) -> None:
        for child in back:
            if _local(child.tag) != "div":
                continue
            if child.get("type") == "references":
                continue
            self.stack.clear()  # back matter never nests under the last body section
            self.read_div(child)
        self.stack.clear()
        bibls = [bibl for listbibl in back.iter(f"{_TEI}listBibl") for bibl in _children(listbibl, "biblStruct")]
        if not bibls:
            return
        head = next((_text(_child(div, "head")) for div in back.iter(f"{_TEI}div") if div.get("type") == "references"), "")
        section = Section(title=head or "References", level=1, number="ref")
        self.doc.sections.append(section)
        for bibl in bibls:
            page, bbox = self.locate(bibl)
            reference = _reference(bibl)
            reference.key = bibl.get("{http://www.w3.org/XML/1998/namespace}id") or None
            self.doc.references.append(reference)
            section.blocks.append(Block(reference.raw, page, "list_item", bbox))
        section.page_start = section.blocks[0].page
        section.page_end = max(block.page for block in section.blocks)

    # ------------------------------------------------------------------ header

    def read_header(self) -> None:
        header = _child(self.root, "teiHeader")
        file_desc = _child(header, "fileDesc")
        titles = _children(_child(file_desc, "titleStmt") or ET.Element("x"), "title")
        main = [t for t in titles if t.get("type") == "main"] or titles
        self.doc.title = _text(main[0]) if main else None
        self.doc.title = self.doc.title or None
        source = _find(file_desc, "sourceDesc/biblStruct")
        analytic = _child(source, "analytic")
        self.doc.authors = (
            [author for author in (_author(a) for a in _children(analytic, "author")) if author] if analytic is not None else []
        )
        monogr = _child(source, "monogr")
        self.doc.journal = _text(_child(monogr, "title")) or None
        for idno in source.iter(f"{_TEI}idno") if source is not None else ():
            if (idno.get("type") or "").upper() == "DOI" and _text(idno):
                self.doc.doi = _text(idno)
                break
        self.doc.arxiv_id = _arxiv_id(source) if source is not None else None
        dates = [_find(file_desc, "publicationStmt/date"), _find(monogr, "imprint/date")]
        for date in dates:
            if date is not None and (date.get("when") or _text(date)):
                self.doc.date_published = date.get("when") or _text(date)
                break
        profile = _child(header, "profileDesc")
        abstract = _child(profile, "abstract")
        if abstract is not None:
            paragraphs = [_text(p, frozenset({"formula", "figure", "note"})) for p in abstract.iter(f"{_TEI}p")]
            self.doc.abstract = "\n\n".join(p for p in paragraphs if p) or _text(abstract) or None

    def keep_known_cites(self) -> None:
        """Keys name entries of the reference list; a cite naming none of them is dropped."""
        known = {reference.key for reference in self.doc.references if reference.key}
        for section in self.doc.sections:
            for block in section.blocks:
                for cite in block.cites:
                    cite.keys = [key for key in dict.fromkeys(cite.keys) if key in known]
                block.cites = [cite for cite in block.cites if cite.keys]

    def version(self) -> str:
        for application in self.root.iter(f"{_TEI}application"):
            if (application.get("ident") or "").upper() == "GROBID":
                return application.get("version") or "unknown"
        return "unknown"

    def read(self) -> Document:
        self.read_header()
        text = _child(self.root, "text")
        body = _child(text, "body")
        if body is not None:
            self.read_content(body)
        self.stack.clear()
        back = _child(text, "back")
        if back is not None:
            self.read_back(back)
        self.keep_known_cites()
        surfaces = list(self.root.iter(f"{_TEI}surface"))
        self.doc.pages = len(surfaces) or self.max_page
        if not self.text_has_coordinates:
            self.doc.warnings.append(NO_COORDINATES_WARNING)
        label = f"{self.source} {self.version()}"
        self.doc.provenance = {"sections": label, "text": label, "references": label, "tables": label, "formulas": label}
        return self.doc


def _table_cells(table: ET.Element | None) -> list[list[str]]:
    """Rows of ``<row><cell>``; a cell spanning ``cols`` columns is padded with empty cells."""
    if table is None:
        return []
    rows: list[list[str]] = []
    for row in _children(table, "row"):
        cells: list[str] = []
        for cell in _children(row, "cell"):
            cells.append(_text(cell))
            try:
                span = int(cell.get("cols") or 1)
            except ValueError:
                span = 1
            cells.extend([""] * (max(span, 1) - 1))
        rows.append(cells)
    return rows


def _person_name(pers: ET.Element | None) -> str:
    if pers is None:
        return ""
    parts = [_text(name) for name in pers if _local(name.tag) in ("forename", "surname") and _text(name)]
    return " ".join(parts) or _text(pers)


def _author(author: ET.Element) -> Author | None:
    name = _person_name(_child(author, "persName"))
    if not name:
        return None
    affiliations: list[str] = []
    for affiliation in _children(author, "affiliation"):
        raw = next((_text(n) for n in _children(affiliation, "note") if n.get("type") == "raw_affiliation"), "")
        orgs = ", ".join(_text(org) for org in _children(affiliation, "orgName") if _text(org))
        if raw or orgs:
            affiliations.append(raw or orgs)
    email = _text(_child(author, "email")) or None
    return Author(name=name, affiliation="; ".join(affiliations) or None, email=email)


def _reference(bibl: ET.Element) -> Reference:
    analytic = _child(bibl, "analytic")
    monogr = _child(bibl, "monogr")
    title = _text(_child(analytic, "title")) if analytic is not None else ""
    venue = ""
    if title:
        venue = _text(_child(monogr, "title"))
    else:
        title = _text(_child(monogr, "title"))
    owner = analytic if analytic is not None and _children(analytic, "author") else monogr
    authors = [
        name for name in (_person_name(_child(a, "persName")) for a in (_children(owner, "author") if owner is not None else [])) if name
    ]
    year: int | None = None
    for date in bibl.iter(f"{_TEI}date"):
        match = re.match(r"\d{4}", date.get("when") or "") or re.search(r"\b(1[5-9]|20)\d{2}\b", _text(date))
        if match:
            year = int(match.group(0))
            break
    doi = next((_text(idno) for idno in bibl.iter(f"{_TEI}idno") if (idno.get("type") or "").upper() == "DOI" and _text(idno)), None)
    raw = next((_text(note) for note in bibl.iter(f"{_TEI}note") if note.get("type") == "raw_reference"), "")
    if not raw:
        pieces = [", ".join(authors), f"({year})" if year else "", title, venue]
        raw = ". ".join(piece for piece in pieces if piece) or _text(bibl)
    arxiv_id = _arxiv_id(bibl) or arxiv_id_in(raw)
    return Reference(raw=raw, title=title or None, authors=authors, year=year, doi=doi, venue=venue or None, arxiv_id=arxiv_id)


def _arxiv_id(bibl: ET.Element) -> str | None:
    """The id of an ``<idno type="arXiv">`` under ``bibl`` (GROBID writes "arXiv:1903.10676v2")."""
    for idno in bibl.iter(f"{_TEI}idno"):
        if (idno.get("type") or "").lower() == "arxiv" and _text(idno):
            found = normalise_arxiv_id(_text(idno))
            if found:
                return found
    return None


def tei_to_document(tei: bytes | str, *, source: str = "grobid") -> Document:
    """Read GROBID TEI (0.6 to 0.8) into a :class:`Document`; malformed XML is :class:`BadInput`.

    ``source`` names the backend in the provenance, followed by the GROBID version the TEI
    declares (``"grobid 0.8.1"``).
    """
    try:
        root = SafeET.fromstring(tei)
    except (ET.ParseError, defusedxml.DefusedXmlException) as exc:
        raise BadInput(f"GROBID returned unreadable TEI: {exc}") from exc
    if _local(root.tag) != "TEI":
        raise BadInput(f"GROBID returned XML that is not TEI (root element {_local(root.tag)!r})")
    return _Reader(root, source).read()
