"""The JATS parser: a publisher's XML (PubMed Central ``.nxml``) to a :class:`~paperpyramid.document.Document`.

JATS already knows the structure a PDF parser has to guess: the section tree, the
paragraphs, the tables with their cells, the formulas and the reference list. What it
does not know is where any of it is printed, so when the article's PDF is at hand each
paragraph is found in the PDF's text layer to give it a page number.

What is read:

- metadata from ``<front>/<article-meta>`` (title, authors, abstract, DOI, journal, date);
- sections from the main article's ``<body>`` only; an F1000 file's referee reports are
  ``<sub-article>`` elements with bodies of their own, and they are not the paper;
- an "Abstract" section first, then the body, then from ``<back>``: acknowledgements,
  appendices and the reference list (the section numbered ``"ref"``). Back-matter notes
  and footnote groups (author contributions, competing interests) are left out;
- tables, display formulas and figure captions both as objects and as blocks at their
  place in the section, so that they are searchable like the text around them.

The XML comes from outside (a bucket, a tarball), so it is parsed with defusedxml: unsafe
XML (entity declarations, external references) is :class:`~paperpyramid.errors.BadInput`.
Reading the XML and its elements is :mod:`paperpyramid.parsers.jats_xml`; finding text in
the PDF's pages is :mod:`paperpyramid.parsers.pdf_pages`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from paperpyramid.document import Author, Block, BlockKind, Cite, Document, Figure, Formula, Reference, Section, Table
from paperpyramid.errors import BadInput, ParseTimeout, TooManyPages
from paperpyramid.parsers import jats_cites
from paperpyramid.parsers.jats_xml import (  # the JATS parser's own helpers, private to it
    _NO_TEXT,
    _cells,
    _child,
    _children,
    _collapse,
    _descendants,
    _first,
    _inline_formula,
    _inline_raw,
    _inline_text,
    _join_label,
    _label,
    _local,
    _main_article,
    _mathml_text,
    _plain,
    _read_xml,
    _tables_in,
    _tex,
    _tidy,
)
from paperpyramid.parsers.pdf_pages import MIN_PROBE_LENGTH, PageLimits, PageLocator, normalise
from paperpyramid.parsers.xml_cites import MarkedText, arxiv_id_in, moved, normalise_arxiv_id

__all__ = ["NAME", "parse_jats"]

NAME = "jats"

# Elements that interrupt running text: the paragraph is cut around them and they
# become blocks of their own, in place.
_BLOCK_LEVEL = frozenset(
    {
        "p", "sec", "list", "def-list", "table-wrap", "table-wrap-group", "table", "fig", "fig-group",
        "disp-formula", "disp-formula-group", "boxed-text", "disp-quote", "statement", "speech",
        "verse-group", "supplementary-material", "preformat", "code", "fn-group", "glossary", "ref-list", "app",
    }
)  # fmt: skip
_SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(?=\S)")
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+")
_PAREN_YEAR = re.compile(r"\((1[5-9]\d\d|20\d\d)[a-z]?\)")
_EMAIL_TAIL = re.compile(r"[;,.]?\s*e-?mails?\s*:.*$", re.I | re.S)
_MONTHS = {
    name: number for number, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}


def parse_jats(
    xml_path: Path,
    *,
    pdf_path: Path | None = None,
    password: str | None = None,
    max_pages: int | None = None,
    time_limit: float | None = None,
) -> Document:
    """Parse a JATS article (a PubMed Central ``.nxml``) into a :class:`Document`.

    With ``pdf_path`` (the same article's PDF) every block gets the page it is printed on,
    found by matching its text against the PDF's text layer, and ``Document.pages`` is the
    PDF's page count. Without it the document is not ``paged`` (every page number is 1, stored
    as none) and a warning says so; a PDF that
    cannot be opened (or whose text matches few paragraphs) is also a warning, not an
    error, because the XML alone is a complete parse.

    Raises :class:`~paperpyramid.errors.BadInput` for XML that is not well formed, not a
    JATS article, unsafe (entity declarations, external references) or nested too deeply;
    :class:`~paperpyramid.errors.TooManyPages` for a PDF of more than ``max_pages`` pages,
    and :class:`~paperpyramid.errors.ParseTimeout` when the whole parse takes more than
    ``time_limit`` seconds (checked between the PDF's pages and between the blocks placed
    on them), as the embedded parser does for a PDF alone.
    """
    limits = PageLimits(max_pages, time_limit)
    root = _read_xml(xml_path)
    article = _main_article(root, xml_path.name)
    builder = _Builder()
    document = Document()
    front = _child(article, "front")
    meta = _child(front, "article-meta") if front is not None else None
    if meta is not None:
        _read_metadata(meta, front, document)
        builder.abstract(meta)
    body = _child(article, "body")
    if body is not None:
        builder.body(body)
    back = _child(article, "back")
    if back is not None:
        builder.back(back)
    floats = _child(article, "floats-group")
    if floats is not None:
        builder.floats(floats)
    builder.resolve_cites()
    document.abstract = builder.abstract_text

    document.sections = builder.sections
    document.tables = builder.tables
    document.formulas = builder.formulas
    document.figures = builder.figures
    document.references = builder.references
    pages_from = "none"
    if pdf_path is None:
        document.paged = False
        document.warnings.append("no PDF: page numbers unknown")
    else:
        try:
            locator = PageLocator.from_pdf(pdf_path, password=password, limits=limits)
        except (TooManyPages, ParseTimeout):
            raise  # the run's limits, not a flaw of this PDF: the article fails as a PDF would
        except BadInput as exc:
            document.paged = False
            document.warnings.append(f"PDF not used for page numbers: {exc}")
        else:
            document.pages = locator.page_count
            found, tried = builder.place(locator, limits, pdf_path)
            pages_from = "embedded pdf text"
            if tried >= 5 and found < 0.5 * tried:
                document.warnings.append(
                    f"only {found} of {tried} paragraphs were found in the PDF's text layer; page numbers are approximate"
                )
    builder.finish_pages()
    imaged = sum(1 for table in document.tables if not table.cells)
    if imaged:
        document.warnings.append(f"{imaged} of {len(document.tables)} tables have no cells in the XML (only an image of the table)")
    document.provenance = {"sections": NAME, "text": NAME, "references": NAME, "tables": NAME, "pages": pages_from}
    return document


# --------------------------------------------------------------------------- the document


@dataclass(slots=True)
class _Placed:
    """A block in document order, and how to find its page in the PDF."""

    block: Block
    probe: str  # normalised text to look for
    mode: str  # "flow": in reading order; "float": tables and figures move; "fixed": no text to match


@dataclass
class _Builder:
    sections: list[Section] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    formulas: list[Formula] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    abstract_text: str | None = None
    order: list[_Placed] = field(default_factory=list)
    # the objects whose page is their block's page, set once the blocks are placed
    linked: list[tuple[Table | Formula | Figure, Block]] = field(default_factory=list)
    # id of a table or figure -> (section, block) of the first paragraph that cites it
    first_cited: dict[str, tuple[int, Block]] = field(default_factory=dict)
    # cites of two xrefs with a dash between, expanded once the reference list is read
    ranges: list[Cite] = field(default_factory=list)
    ref_ids: list[str] = field(default_factory=list)  # every <ref id>, in list order

    # ---- sections

    def new_section(self, title: str, level: int, number: str | None = None, parent: int | None = None) -> int:
        self.sections.append(Section(title=title, level=level, number=number, parent=parent))
        return len(self.sections) - 1

    def add(self, section: int, block: Block, probe_text: str, mode: str = "flow") -> None:
        self.sections[section].blocks.append(block)
        self.order.append(_Placed(block, normalise(probe_text), mode))

    def abstract(self, meta: ET.Element) -> None:
        abstracts = _children(meta, "abstract")
        if not abstracts:
            return
        # the plain abstract, not a "toc" teaser or a graphical or lay summary
        chosen = next((a for a in abstracts if a.get("abstract-type") in (None, "", "abstract")), abstracts[0])
        paragraphs = list(_abstract_paragraphs(chosen, self.ranges))
        if not paragraphs:
            return
        section = self.new_section("Abstract", 1)
        for text, cites in paragraphs:
            self.add(section, Block(text, 1, "paragraph", cites=cites), text)
        self.abstract_text = "\n\n".join(text for text, _ in paragraphs)

    def body(self, body: ET.Element) -> None:
        """The body's sections, with text outside any ``<sec>`` in untitled sections."""
        loose: list[ET.Element] = []
        for child in body:
            if _local(child.tag) == "sec":
                self.loose(loose)
                loose = []
                self.section(child, None, 1)
            else:
                loose.append(child)
        self.loose(loose)

    def loose(self, elements: list[ET.Element]) -> None:
        # a body that opens with paragraphs before its first heading (common in PMC)
        if not elements:
            return
        holder = ET.Element("sec")
        holder.extend(elements)
        index = self.new_section("", 1)
        self.flow(holder, index, "paragraph")
        if not self.sections[index].blocks and index == len(self.sections) - 1:
            self.sections.pop()

    def section(self, sec: ET.Element, parent: int | None, level: int, title: str | None = None) -> int:
        heading = _plain(_child(sec, "title")) if title is None else title
        label = _plain(_child(sec, "label")).rstrip(".") or None
        number = label
        if number is None:
            # MDPI prints the numbering in the title: "3.1. Fungal Cultures"
            match = _SECTION_NUMBER.match(heading)
            number = match.group(1) if match else None
        index = self.new_section(heading, level, number, parent)
        self.flow(sec, index, "paragraph", skip=frozenset({"title", "label", "sec-meta"}))
        return index

    def back(self, back: ET.Element) -> None:
        for child in back:
            name = _local(child.tag)
            if name == "ack":
                self.section(child, None, 1, title="Acknowledgements")
            elif name == "sec":
                self.section(child, None, 1)
            elif name == "app-group":
                title = _plain(_child(child, "title"))
                if title:
                    self.section(child, None, 1)
                else:
                    for app in _children(child, "app"):
                        self.section(app, None, 1, title=_plain(_child(app, "title")) or "Appendix")
            elif name == "app":
                self.section(child, None, 1, title=_plain(_child(child, "title")) or "Appendix")
        self.reference_list(back)

    def reference_list(self, back: ET.Element) -> None:
        lists = list(_descendants(back, "ref-list"))
        if not lists:
            return
        seen: set[int] = set()
        refs: list[ET.Element] = []
        for ref_list in lists:  # ref-lists may nest; each <ref> once, as the eval counts them
            for ref in _descendants(ref_list, "ref"):
                if id(ref) not in seen:
                    seen.add(id(ref))
                    refs.append(ref)
        title = next((_plain(_child(ref_list, "title")) for ref_list in lists if _child(ref_list, "title") is not None), "")
        index = self.new_section(title or "References", 1, "ref")
        for ref in refs:
            reference = _reference(ref)
            if ref.get("id"):
                self.ref_ids.append(ref.get("id") or "")
            if reference is None:
                continue
            reference.key = ref.get("id") or None
            reference.arxiv_id = _citation_arxiv_id(ref, reference.raw)
            self.references.append(reference)
            self.add(index, Block(reference.raw, 1, "list_item"), reference.raw)

    def floats(self, floats: ET.Element) -> None:
        """A ``<floats-group>``: tables and figures kept apart from the text, placed after their first citation."""
        fallback = next((i for i in range(len(self.sections) - 1, -1, -1) if self.sections[i].number != "ref"), None)
        moved: set[int] = set()  # ids of the blocks already moved, so that floats citing one paragraph keep their order
        for element in floats:
            cited = self.first_cited.get(element.get("id") or "")
            after: Block | None = None
            if cited is not None:
                section, after = cited
            else:
                if fallback is None:  # nothing but floats and references: give the floats a home
                    fallback = self.new_section("", 1)
                section = fallback
            mark = len(self.order)
            self.block_element(element, section, "paragraph")
            added = self.order[mark:]
            del self.order[mark:]
            if after is None:
                self.order.extend(added)
                continue
            # move the new blocks (appended at the section's end) to just after the citing paragraph
            blocks = self.sections[section].blocks
            new_blocks = [placed.block for placed in added]
            del blocks[len(blocks) - len(new_blocks) :]
            at = next(i for i, block in enumerate(blocks) if block is after) + 1
            while at < len(blocks) and id(blocks[at]) in moved:
                at += 1
            blocks[at:at] = new_blocks
            order_at = next(i for i, placed in enumerate(self.order) if placed.block is after) + 1
            while order_at < len(self.order) and id(self.order[order_at].block) in moved:
                order_at += 1
            self.order[order_at:order_at] = added
            moved.update(id(block) for block in new_blocks)

    # ---- running text

    def flow(self, element: ET.Element, section: int, kind: BlockKind, skip: frozenset[str] = frozenset()) -> None:
        """Blocks from an element's mixed content: text runs become ``kind`` blocks, cut
        around the block-level elements inside, which are handled in place."""
        marked = MarkedText()
        cited: list[str] = []

        def flush() -> None:
            text, cites = marked.finish(jats_cites.TIDY)
            marked.clear()
            if text:
                block = Block(text, 1, kind, cites=cites)
                self.add(section, block, text)
                for rid in cited:
                    self.first_cited.setdefault(rid, (section, block))
            cited.clear()

        def walk(node: ET.Element, top: bool) -> None:
            for child in node:
                name = _local(child.tag)
                if top and name in skip:
                    pass
                elif name in _BLOCK_LEVEL:
                    flush()
                    self.block_element(child, section, kind)
                elif name in _NO_TEXT:
                    pass
                elif name == "break":
                    marked.add(" ")
                elif name == "inline-formula":
                    marked.add(" " + _inline_formula(child) + " ")
                else:
                    if name == "xref" and child.get("rid"):
                        cited.extend((child.get("rid") or "").split())
                    keys = jats_cites.cite_keys(child)
                    start, opened = marked.position, len(self.order)
                    marked.add(child.text)
                    walk(child, False)
                    if keys and len(self.order) == opened:  # not cut by a block inside the xref
                        jats_cites.close_cite(marked, start, keys, self.ranges)
                marked.add(child.tail)

        marked.add(element.text)
        walk(element, True)
        flush()

    def block_element(self, element: ET.Element, section: int, kind: BlockKind) -> None:
        name = _local(element.tag)
        if name == "sec":
            self.section(element, section, self.sections[section].level + 1)
        elif name == "app":
            self.section(element, section, self.sections[section].level + 1, title=_plain(_child(element, "title")) or "Appendix")
        elif name in ("list", "def-list"):
            for item in element:
                if _local(item.tag) in ("list-item", "def-item"):
                    self.labelled_flow(item, section, "list_item")
                elif _local(item.tag) == "list":
                    self.block_element(item, section, kind)
        elif name == "statement":
            self.labelled_flow(element, section, kind)
        elif name in ("table-wrap", "table"):
            self.table(element, section)
        elif name == "table-wrap-group":
            for wrap in _descendants(element, "table-wrap"):
                self.table(wrap, section)
        elif name == "fig":
            self.figure(element, section)
        elif name == "fig-group":
            for fig in _descendants(element, "fig"):
                self.figure(fig, section)
        elif name == "disp-formula":
            self.formula(element, section)
        elif name == "disp-formula-group":
            for formula in _descendants(element, "disp-formula"):
                self.formula(formula, section)
        elif name == "supplementary-material":
            label = _label(element)
            text, cites = jats_cites.caption(element, self.ranges)
            caption = _join_label(label, text)
            if caption:
                block = Block(caption, 1, "caption", cites=moved(cites, jats_cites.label_offset(label, text)))
                self.add(section, block, caption, "float")
        elif name == "ref-list":
            pass  # a reference list inside the body is not the article's bibliography
        else:  # boxed text, quotes, code: their paragraphs read like any other
            self.flow(element, section, kind)

    def labelled_flow(self, element: ET.Element, section: int, kind: BlockKind) -> None:
        """A list item or a statement: its label ("1.", "Theorem 2") leads its first block
        rather than standing alone as a block of its own."""
        label = " ".join(part for part in (_label(element), _plain(_child(element, "title"))) if part)
        mark = len(self.order)
        self.flow(element, section, kind, skip=frozenset({"label", "title"}))
        if label and len(self.order) > mark:
            first = self.order[mark]
            first.block.text = f"{label} {first.block.text}"
            first.probe = normalise(first.block.text)
            moved(first.block.cites, len(label) + 1)

    def table(self, element: ET.Element, section: int) -> None:
        label = _label(element)
        caption, cites = jats_cites.caption(element, self.ranges)
        tables = [element] if _local(element.tag) == "table" else list(_tables_in(element))
        cells = [row for table in tables for row in _cells(table)]
        if tables:
            width = max((len(row) for row in cells), default=0)
            cells = [row + [""] * (width - len(row)) for row in cells]
        table = Table(caption=caption, cells=cells, page=1, label=label or None, section=section)
        heading = _join_label(label, caption)
        cites = moved(cites, jats_cites.label_offset(label, caption))
        text = heading
        if cells:
            text = f"{heading}\n\n{table.markdown}" if heading else table.markdown
            cites += moved(jats_cites.table_cites(tables, cells, self.ranges), len(text) - len(table.markdown))
        foot = _child(element, "table-wrap-foot")
        foot_text, foot_cites = jats_cites.inline_text(foot, self.ranges) if foot is not None else ("", [])
        if foot_text:
            text = f"{text}\n\n{foot_text}"
            cites += moved(foot_cites, len(text) - len(foot_text))
        block = Block(text, 1, "table", cites=cites)
        self.tables.append(table)
        self.linked.append((table, block))
        if text:
            self.add(section, block, heading or text, "float")

    def figure(self, element: ET.Element, section: int) -> None:
        label = _label(element)
        caption, cites = jats_cites.caption(element, self.ranges)
        figure = Figure(caption=caption, page=1, label=label or None, section=section)
        block = Block(_join_label(label, caption), 1, "caption", cites=moved(cites, jats_cites.label_offset(label, caption)))
        self.figures.append(figure)
        self.linked.append((figure, block))
        if block.text:
            self.add(section, block, block.text, "float")

    def formula(self, element: ET.Element, section: int) -> None:
        label = _label(element)
        latex = _tex(element)
        mathml = _mathml_text(element)
        text = mathml or latex or _inline_text(element, skip=frozenset({"label"}))
        formula = Formula(text=text, page=1, latex=latex, label=label or None, section=section)
        shown = latex or text
        block = Block(f"{shown} {label}".strip() if shown else "", 1, "formula")
        self.formulas.append(formula)
        self.linked.append((formula, block))
        if block.text:
            # MathML flattens to tokens in no printed order; nothing to match in the PDF
            self.add(section, block, "", "fixed")

    def resolve_cites(self) -> None:
        """Once the reference list is read: expand the ranges, keep the keys it holds."""
        known = {reference.key for reference in self.references if reference.key}
        jats_cites.resolve_cites(self.sections, self.ranges, self.ref_ids, known)

    # ---- pages

    def place(self, locator: PageLocator, limits: PageLimits, pdf: Path) -> tuple[int, int]:
        """Give every block a page; returns (paragraphs found in the PDF, paragraphs tried).

        A block not found costs a scan of the whole text, and an XML may hold hundreds of
        thousands of them: the time limit is checked before each.
        """
        cursor = 1
        found = tried = 0
        for number, placed in enumerate(self.order, 1):
            limits.check_time(pdf, f"stopped placing block {number} of {len(self.order)} on the PDF's pages")
            if placed.mode == "fixed" or len(placed.probe) < MIN_PROBE_LENGTH:
                placed.block.page = cursor
                continue
            if placed.mode == "float":
                page = locator.nearest(placed.probe, cursor)
                placed.block.page = page if page is not None else cursor
                continue
            tried += 1
            page = locator.forward(placed.probe, cursor)
            if page is not None:
                found += 1
                cursor = page
            placed.block.page = cursor
        return found, tried

    def finish_pages(self) -> None:
        for item, block in self.linked:
            item.page = block.page
        # a section spans its own blocks and its subsections' (a parent may hold no text)
        for section in self.sections:
            pages = [block.page for block in section.blocks]
            section.page_start = min(pages, default=None)
            section.page_end = max(pages, default=None)
        for index in range(len(self.sections) - 1, -1, -1):
            section = self.sections[index]
            if section.parent is None or section.page_start is None or section.page_end is None:
                continue
            parent = self.sections[section.parent]
            parent.page_start = section.page_start if parent.page_start is None else min(parent.page_start, section.page_start)
            parent.page_end = section.page_end if parent.page_end is None else max(parent.page_end, section.page_end)
        for section in self.sections:
            if section.page_start is None:
                section.page_start = section.page_end = 1


def _abstract_paragraphs(abstract: ET.Element, ranges: list[Cite]) -> Iterator[tuple[str, list[Cite]]]:
    """An abstract's paragraphs and their cites; in a structured abstract each part's heading leads its first paragraph."""
    for child in abstract:
        name = _local(child.tag)
        if name == "sec":
            heading = _plain(_child(child, "title"))
            texts = list(_abstract_paragraphs(child, ranges))
            if texts and heading:
                text, cites = texts[0]
                texts[0] = (f"{heading}: {text}", moved(cites, len(heading) + 2))
            yield from texts
        elif name == "p":
            text, cites = jats_cites.inline_text(child, ranges)
            if text:
                yield text, cites
        elif name not in ("title", "label", "object-id"):
            yield from _abstract_paragraphs(child, ranges)


# --------------------------------------------------------------------------- metadata


def _read_metadata(meta: ET.Element, front: ET.Element | None, document: Document) -> None:
    document.title = _plain(meta.find("title-group/article-title")) or None
    for article_id in _children(meta, "article-id"):
        if article_id.get("pub-id-type") == "doi" and _plain(article_id):
            document.doi = _plain(article_id)
            break
    document.arxiv_id = _article_arxiv_id(meta)
    journal_meta = _child(front, "journal-meta")
    if journal_meta is not None:
        document.journal = _plain(_first(journal_meta, "journal-title")) or None
    document.date_published = _publication_date(meta)
    document.authors = _authors(meta)


def _publication_date(meta: ET.Element) -> str | None:
    def rank(date: ET.Element) -> int:
        # JATS 1.0 says pub-type="epub"; 1.1 and later say date-type="pub" publication-format="electronic"
        kind = date.get("pub-type") or ""
        if not kind:
            date_type = date.get("date-type") or "pub"
            kind = (date.get("publication-format") or "pub") if date_type == "pub" else date_type
        order = {"epub": 0, "electronic": 0, "ppub": 1, "print": 1, "epub-ppub": 2, "pub": 3, "collection": 4}
        return order.get(kind, 5 if kind != "pmc-release" else 6)

    dates = sorted(_children(meta, "pub-date"), key=rank)
    for date in dates:
        year = re.search(r"\d{4}", _plain(_child(date, "year")))
        if year is None:
            continue
        month = _month(_plain(_child(date, "month")))
        day = _plain(_child(date, "day"))
        if month and day.isdigit() and 1 <= int(day) <= 31:
            return f"{year.group()}-{month:02d}-{int(day):02d}"
        if month:
            return f"{year.group()}-{month:02d}"
        return year.group()
    return None


def _month(text: str) -> int | None:
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    return _MONTHS.get(text[:3].lower())


def _authors(meta: ET.Element) -> list[Author]:
    affiliations = {aff.get("id"): _affiliation(aff) for aff in _descendants(meta, "aff") if aff.get("id")}
    lone = list(_descendants(meta, "aff"))
    correspondence = {node.get("id"): node for node in _descendants(meta, "corresp") if node.get("id")}
    authors: list[Author] = []
    for group in _descendants(meta, "contrib-group"):
        for contrib in _children(group, "contrib"):
            if contrib.get("contrib-type") not in (None, "author"):
                continue
            name = _person_name(contrib)
            if not name:
                continue
            affs: list[str] = []
            email = _plain(_first(contrib, "email")) or None
            for xref in _descendants(contrib, "xref"):
                for rid in (xref.get("rid") or "").split():
                    if xref.get("ref-type") == "aff" and affiliations.get(rid):
                        affs.append(affiliations[rid])
                    elif xref.get("ref-type") == "corresp" and email is None and rid in correspondence:
                        emails = list(_descendants(correspondence[rid], "email"))
                        if len(emails) == 1:  # with several, whose is whose is not written down
                            email = _plain(emails[0])
            affs += [_affiliation(aff) for aff in _children(contrib, "aff")]
            if not affs and len(lone) == 1:
                affs.append(_affiliation(lone[0]))
            affiliation = "; ".join(dict.fromkeys(aff for aff in affs if aff)) or None
            authors.append(Author(name=name, affiliation=affiliation, email=email))
    return authors


def _person_name(contrib: ET.Element) -> str:
    name = _child(contrib, "name")
    if name is None:
        name = _child(contrib, "string-name")
    if name is not None:
        given = _plain(_child(name, "given-names"))
        surname = _plain(_child(name, "surname"))
        suffix = _plain(_child(name, "suffix"))
        if surname:
            return " ".join(part for part in (given, surname, suffix) if part)
        return _plain(name)
    return _plain(_child(contrib, "collab"))


def _affiliation(aff: ET.Element) -> str:
    """An affiliation without its label and e-mail addresses; parts without separators get commas."""
    pieces: list[str] = [aff.text or ""]
    for child in aff:
        if _local(child.tag) not in ("label", "sup", "email", "xref", "fn"):
            pieces.append(_plain(child))
        tail = child.tail or ""
        pieces.append(tail if tail.strip() else ", ")
    text = _collapse("".join(pieces))
    text = _EMAIL_TAIL.sub("", text)
    text = re.sub(r"(\s*,\s*)+", ", ", text)
    return text.strip(" ,;")


# --------------------------------------------------------------------------- references

_CITATIONS = ("mixed-citation", "element-citation", "citation", "nlm-citation")


def _reference(ref: ET.Element) -> Reference | None:
    found = [node for node in ref.iter() if _local(node.tag) in _CITATIONS]
    if not found:
        text = _inline_text(ref, skip=frozenset({"label"}))
        return Reference(raw=text) if text else None
    mixed = [node for node in found if _local(node.tag) == "mixed-citation"]
    citation = mixed[0] if mixed else found[0]
    authors, etal = _citation_authors(citation)
    article_title = _field(citation, "article-title")
    chapter_title = _field(citation, "chapter-title")
    source = _field(citation, "source")
    title = (article_title or chapter_title or source).rstrip(".") or None
    venue = source if (article_title or chapter_title) and source else (_plain(citation.find("publisher-name")) or None)
    raw = _citation_text(citation) if _has_own_text(citation) else _compose(citation, authors, etal, title, source)
    year_match = re.search(r"\d{4}", _plain(citation.find("year")))
    year = int(year_match.group()) if year_match else None
    if year is None:
        paren = _PAREN_YEAR.search(raw)
        year = int(paren.group(1)) if paren else None
    return Reference(raw=raw, title=title, authors=authors, year=year, doi=_citation_doi(citation, raw), venue=venue)


def _field(citation: ET.Element, name: str) -> str:
    node = _child(citation, name)
    return _inline_text(node) if node is not None else ""


def _has_own_text(citation: ET.Element) -> bool:
    """Whether a citation carries its own punctuation between fields (mixed content), so its text reads as printed."""
    if citation.text and citation.text.strip():
        return True
    return any(child.tail and child.tail.strip() for child in citation)


def _citation_text(citation: ET.Element) -> str:
    """A mixed citation as printed; a list of names without separators (F1000 leaves the
    commas to its stylesheet) is written out as "Surname GI, Surname GI, et al"."""
    parts = [citation.text or ""]
    for child in citation:
        if _local(child.tag) == "person-group" and not _has_own_text(child):
            names, etal = _names(child)
            parts.append(" " + ", ".join(names) + (", et al" if etal and names else "") + " ")
        elif _local(child.tag) not in _NO_TEXT:
            parts.append(_inline_raw(child))
        parts.append(child.tail or "")
    return _tidy("".join(parts))


def _citation_authors(citation: ET.Element) -> tuple[list[str], bool]:
    """The authors of a cited work (not its editors) as "Surname GI", and whether "et al" follows."""
    groups = [group for group in citation.iter() if _local(group.tag) == "person-group"]
    holders = [group for group in groups if group.get("person-group-type") in (None, "author")] if groups else [citation]
    names: list[str] = []
    etal = False
    for holder in holders:
        more, holder_etal = _names(holder)
        names += more
        etal = etal or holder_etal
    return names, etal


def _names(holder: ET.Element) -> tuple[list[str], bool]:
    names: list[str] = []
    etal = False
    for node in holder:
        name = _local(node.tag)
        if name in ("name", "string-name"):
            surname = _plain(_child(node, "surname"))
            initials = _initials(_plain(_child(node, "given-names")))
            names.append(f"{surname} {initials}".strip() if surname else _plain(node))
        elif name == "collab":
            names.append(_plain(node))
        elif name == "etal":
            etal = True
    return [name for name in names if name], etal


def _initials(given: str) -> str:
    """ "Djoko T." -> "DT", "H.W." -> "HW"; given names already written as initials ("DT") stay."""
    if re.fullmatch(r"[A-Z]{1,4}", given):
        return given
    return "".join(part[0].upper() for part in re.split(r"[\s.\-]+", given) if part and part[0].isalpha())


def _compose(citation: ET.Element, authors: list[str], etal: bool, title: str | None, source: str) -> str:
    """A reference string in Vancouver order, for element citations that hold fields without punctuation."""
    who = ", ".join(authors) + (", et al" if etal and authors else "")
    year = _plain(citation.find("year"))
    volume = _plain(citation.find("volume"))
    issue = _plain(citation.find("issue"))
    first = _plain(citation.find("fpage"))
    last = _plain(citation.find("lpage"))
    where = year
    if volume:
        where += f";{volume}"
    if issue:
        where += f"({issue})"
    if first:
        where += f":{first}" + (f"-{last}" if last else "")
    parts = [who, title or "", source if source and source != title else "", where.strip(";")]
    doi = _citation_doi(citation, "")
    if doi:
        parts.append(f"doi:{doi}")
    return ". ".join(part.rstrip(".") for part in parts if part) + "."


def _article_arxiv_id(meta: ET.Element) -> str | None:
    """The article's own arXiv id: an ``<article-id pub-id-type="arxiv">``, else a link to its arXiv page."""
    for article_id in _children(meta, "article-id"):
        if (article_id.get("pub-id-type") or "").lower() == "arxiv" and _plain(article_id):
            return normalise_arxiv_id(_plain(article_id))
    for link in (*_children(meta, "self-uri"), *_children(meta, "ext-link")):
        for value in (v for k, v in link.attrib.items() if k.endswith("href")):
            if "arxiv.org/" in value.lower():
                return arxiv_id_in(value)
    return None


def _citation_arxiv_id(ref: ET.Element, raw: str) -> str | None:
    """A cited work's arXiv id: a ``<pub-id pub-id-type="arxiv">``, an arXiv link, else "arXiv:…" in its text."""
    for pub_id in _descendants(ref, "pub-id"):
        if (pub_id.get("pub-id-type") or "").lower() == "arxiv" and _plain(pub_id):
            found = normalise_arxiv_id(_plain(pub_id))
            if found:
                return found
    for link in _descendants(ref, "ext-link"):
        for value in [*(v for k, v in link.attrib.items() if k.endswith("href")), _plain(link)]:
            found = arxiv_id_in(value)
            if found:
                return found
    return arxiv_id_in(raw) or arxiv_id_in(_plain(ref))


def _citation_doi(citation: ET.Element, raw: str) -> str | None:
    for pub_id in _descendants(citation, "pub-id"):
        if pub_id.get("pub-id-type") == "doi" and _plain(pub_id):
            return _plain(pub_id)
    for link in _descendants(citation, "ext-link"):
        for value in [_plain(link), *(v for k, v in link.attrib.items() if k.endswith("href"))]:
            match = _DOI.search(value)
            if match:
                return match.group().rstrip(".,;)")
    match = _DOI.search(raw)
    return match.group().rstrip(".,;)") if match else None
