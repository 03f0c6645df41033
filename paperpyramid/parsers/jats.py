"""The JATS parser: a publisher's XML (PubMed Central ``.nxml``) to a :class:`~paperpyramid.document.Document`.

JATS already knows the structure a PDF parser has to guess: the section tree, the
paragraphs, the tables with their cells, the formulas and the reference list. What it
does not know is where any of it is printed, so when the article's PDF is at hand each
paragraph is found in the PDF's text layer to give it a page number.

What is read:

- metadata from ``<front>/<article-meta>`` (title, authors, abstract, DOI, PubMed ids,
  journal, date, licence, language, keywords: :mod:`paperpyramid.parsers.jats_meta`);
- sections from the main article's ``<body>`` only; an F1000 file's referee reports are
  ``<sub-article>`` elements with bodies of their own, and they are not the paper;
- an "Abstract" section first, then the body, then from ``<back>``: acknowledgements,
  appendices and the reference list (the section numbered ``"ref"``). Back-matter notes
  and footnote groups (author contributions, competing interests) are left out;
- tables, display formulas and figure captions both as objects and as blocks at their
  place in the section, so that they are searchable like the text around them.

The XML comes from outside (a bucket, a tarball), so it is checked with defusedxml: unsafe
XML (entity declarations, external references) is :class:`~paperpyramid.errors.BadInput`.
Reading the XML and its elements is :mod:`paperpyramid.parsers.jats_xml`, the reference
list's entries :mod:`paperpyramid.parsers.jats_refs`, the citations in the text
:mod:`paperpyramid.parsers.jats_cites`; finding text in the PDF's pages is
:mod:`paperpyramid.parsers.pdf_pages`.

The parse reads a PMC article in a few times the time the C XML parser alone takes to build
its tree (``benchmarks/jats_speed.py``): text that holds no element to treat apart is read
with ``itertext`` and tidied in one pass, whatever its length, and tags are compared as the
tree has them (namespaces stripped once, when it is built), and the cyclic garbage collector
is paused while the tree is alive (:func:`_collector_paused`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import operator
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from paperpyramid.document import Block, BlockKind, Cite, Document, Figure, Formula, Reference, Section, Table
from paperpyramid.errors import BadInput, ParseTimeout, TooManyPages
from paperpyramid.parsers import jats_cites, jats_refs
from paperpyramid.parsers.jats_meta import read_metadata
from paperpyramid.parsers.jats_xml import (  # the JATS parser's own helpers, private to it
    _NO_TEXT,
    _TAG,
    _child,
    _children,
    _descendants,
    _inline_formula,
    _inline_text,
    _join_label,
    _label,
    _main_article,
    _mathml_text,
    _plain,
    _read_xml,
    _tables_in,
    _tex,
    _tidy,
)
from paperpyramid.parsers.pdf_pages import MIN_PROBE_LENGTH, PageLimits, PageLocator, normalise
from paperpyramid.parsers.xml_cites import MarkedText, moved

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
# what the running text's reader does more with than read its text
_FLOW_SPECIAL = _BLOCK_LEVEL | _NO_TEXT | {"break", "inline-formula", "xref"}
_SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(?=\S)")
_TAIL = operator.attrgetter("tail")


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
    with _collector_paused():
        return _parse_jats(xml_path, pdf_path, PageLimits(max_pages, time_limit), password)


def _parse_jats(xml_path: Path, pdf_path: Path | None, limits: PageLimits, password: str | None) -> Document:
    """:func:`parse_jats`; every object it makes but the document is freed when it returns."""
    root = _read_xml(xml_path)
    article = _main_article(root, xml_path.name)
    builder = _Builder()
    document = Document()
    front = _child(article, "front")
    meta = _child(front, "article-meta") if front is not None else None
    if meta is not None:
        read_metadata(article, meta, front, document)
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


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while an article is parsed, and left as it was
    found. The article's tree (thousands of elements) is alive all along, and each of the
    collector's passes, triggered by the many small objects the readers make, walks it again: a
    fifth of the parse's time on pmc-pairs. With the pause, one pass after the parse sees the
    document alone, once the tree is freed: the readers leave no reference cycle behind (their
    recursive walkers are methods, not closures that refer to themselves), so all else is freed
    by its count.
    The switch is the process's: another thread runs without the collector for those
    milliseconds too (ingest parses in worker processes, one article at a time)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# --------------------------------------------------------------------------- the document


@dataclass(slots=True)
class _Placed:
    """A block in document order, and how to find its page in the PDF."""

    block: Block
    probe: str  # the text to look for, normalised when the blocks are placed (only with a PDF)
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
        self.order.append(_Placed(block, probe_text, mode))

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
            if child.tag == "sec":
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
            name = child.tag
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
            entry = jats_refs.reference(ref)
            key = ref.get("id")
            if key:
                self.ref_ids.append(key)
            if entry is None:
                continue
            entry.key = key or None
            entry.arxiv_id = jats_refs.citation_arxiv_id(ref, entry.raw)
            self.references.append(entry)
            self.add(index, Block(entry.raw, 1, "list_item"), entry.raw)

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
        if not skip and _text_alone(element):  # a paragraph of text alone (many are)
            text = _tidy("".join(element.itertext()))
            if text:
                self.add(section, Block(text, 1, kind), text)
            return
        if _blocks_alone(element, skip):  # a section of paragraphs and subsections: no running text to read
            for child in element:
                if child.tag not in skip:
                    self.block_element(child, section, kind)
            return
        run = _RunningText(self, section, kind, skip)
        if element.text:
            run.marked.append(element.text)
        run.walk(element, True)
        run.flush()

    def block_element(self, element: ET.Element, section: int, kind: BlockKind) -> None:
        name = element.tag
        if name == "p":  # most blocks, read as the last branch reads them
            self.flow(element, section, kind)
        elif name == "sec":
            self.section(element, section, self.sections[section].level + 1)
        elif name == "app":
            self.section(element, section, self.sections[section].level + 1, title=_plain(_child(element, "title")) or "Appendix")
        elif name in ("list", "def-list"):
            for item in element:
                if item.tag in ("list-item", "def-item"):
                    self.labelled_flow(item, section, "list_item")
                elif item.tag == "list":
                    self.block_element(item, section, kind)
        elif name == "statement":
            self.labelled_flow(element, section, kind)
        elif name in ("table-wrap", "table"):
            self.table(element, section)
        elif name == "table-wrap-group":  # "Table 2" and its caption over parts labelled "(a)", "(b)"
            group = (_label(element), jats_cites.caption(element, self.ranges))
            for wrap in _descendants(element, "table-wrap"):
                self.table(wrap, section, group)
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
            first.probe = first.block.text
            moved(first.block.cites, len(label) + 1)

    def table(self, element: ET.Element, section: int, group: tuple[str, tuple[str, list[Cite]]] | None = None) -> None:
        """A table, or one part of a ``<table-wrap-group>`` (``group``: the group's label and
        caption with its citations, which lead the part's own)."""
        label = _label(element)
        caption, cites = jats_cites.caption(element, self.ranges)
        if group is not None:
            (group_label, (group_caption, group_cites)) = group
            label = f"{group_label} {label}".strip() if group_label and label else (group_label or label)
            if group_caption:  # each part's own copies of the group's citations: the lines below move them
                shared = [dataclasses.replace(cite) for cite in group_cites]
                cites = shared + moved(cites, len(group_caption) + 1) if caption else shared
                caption = f"{group_caption} {caption}".strip()
        tables = [element] if element.tag == "table" else list(_tables_in(element))
        cells, read = jats_cites.table_cells(tables, self.ranges)
        table = Table(caption=caption, cells=cells, page=1, label=label or None, section=section)
        heading = _join_label(label, caption)
        cites = moved(cites, jats_cites.label_offset(label, caption))
        text = heading
        if cells:
            markdown = table.markdown
            text = f"{heading}\n\n{markdown}" if heading else markdown
            if read:  # some cell may cite
                cites += moved(jats_cites.table_cites(tables, cells, self.ranges, read), len(text) - len(markdown))
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
            probe = "" if placed.mode == "fixed" else normalise(placed.probe)
            if placed.mode == "fixed" or len(probe) < MIN_PROBE_LENGTH:
                placed.block.page = cursor
                continue
            if placed.mode == "float":
                page = locator.nearest(probe, cursor)
                placed.block.page = page if page is not None else cursor
                continue
            tried += 1
            page = locator.forward(probe, cursor)
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


class _RunningText:
    """The running text of one element, read for :meth:`_Builder.flow`: its pieces and citation
    marks gathered in reading order, each run of them a block, cut at the block-level elements
    inside (handed back to the builder in place). A class rather than closures: a recursive
    closure refers to itself, a cycle only the garbage collector frees."""

    __slots__ = ("builder", "section", "kind", "skip", "marked", "cited")

    def __init__(self, builder: _Builder, section: int, kind: BlockKind, skip: frozenset[str]) -> None:
        self.builder = builder
        self.section = section
        self.kind = kind
        self.skip = skip
        self.marked = MarkedText()
        self.cited: list[str] = []  # the ids the run's xrefs point to

    def flush(self) -> None:
        """The run read so far as a block, if it holds any text."""
        text, cites = self.marked.finish(jats_cites.TIDY)
        self.marked.clear()
        if text:
            block = Block(text, 1, self.kind, cites=cites)
            self.builder.add(self.section, block, text)
            for rid in self.cited:
                self.builder.first_cited.setdefault(rid, (self.section, block))
        self.cited.clear()

    def walk(self, node: ET.Element, top: bool) -> None:
        """The children of ``node`` and their tails; ``top``: ``node`` is the element read, whose ``skip`` children are left out."""
        add, marked, skip, order = self.marked.append, self.marked, self.skip, self.builder.order
        for child in node:
            tag = child.tag
            if tag not in _FLOW_SPECIAL and not (top and tag in skip):
                text = child.text  # read once: each read of an element's text or tail is a getter call
                if text:
                    add(text)
                if len(child):
                    self.walk(child, False)
            elif top and tag in skip:
                pass
            elif tag in _BLOCK_LEVEL:
                self.flush()
                self.builder.block_element(child, self.section, self.kind)
            elif tag in _NO_TEXT:
                pass
            elif tag == "break":
                add(" ")
            elif tag == "inline-formula":
                add(" " + _inline_formula(child) + " ")
            else:  # an xref: what it points to, and whether it is a citation
                rid = child.get("rid")
                if rid:
                    self.cited.extend(rid.split())
                keys = jats_cites.cite_keys(child)
                start, opened = marked.position, len(order)
                text = child.text
                if text:
                    add(text)
                if len(child):
                    self.walk(child, False)
                if keys and len(order) == opened:  # not cut by a block inside the xref
                    jats_cites.close_cite(marked, start, keys, self.builder.ranges)
            tail = child.tail
            if tail:
                add(tail)


def _text_alone(element: ET.Element) -> bool:
    """Whether nothing under ``element`` is more to :meth:`_Builder.flow` than text: no block,
    no citation or other link, no formula, line break or element without text."""
    inside = element.iter()
    next(inside)  # the element itself
    return _FLOW_SPECIAL.isdisjoint(map(_TAG, inside))


def _blocks_alone(element: ET.Element, skip: frozenset[str]) -> bool:
    """Whether ``element`` holds block-level elements (and ``skip``'s) only, with nothing but
    whitespace between them: then :meth:`_Builder.flow` has no text of its own to gather."""
    if not (_BLOCK_LEVEL.union(skip) if skip else _BLOCK_LEVEL).issuperset(map(_TAG, element)):
        return False
    between = "".join(filter(None, map(_TAIL, element)))
    return not (element.text and not element.text.isspace()) and (not between or between.isspace())


def _abstract_paragraphs(abstract: ET.Element, ranges: list[Cite]) -> Iterator[tuple[str, list[Cite]]]:
    """An abstract's paragraphs and their cites; in a structured abstract each part's heading leads its first paragraph."""
    for child in abstract:
        name = child.tag
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
