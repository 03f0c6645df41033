"""The embedded parser: PDF in, :class:`~paperpyramid.document.Document` out, offline.

Passes, in order: open and vet the file; characters to lines (``layout``); running heads,
page numbers and side stamps out, columns into reading order (``reading_order``); lines to
classified blocks (``blocks``); the outline, when the PDF has one, names the headings;
front matter to title, authors and abstract; blocks to the section tree, with tables,
formulas, figure captions and the reference list pulled out on the way (``assembly``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from paperpyramid._version import __version__
from paperpyramid.document import Document
from paperpyramid.errors import NeedsOcr, NotAPdf, ParseTimeout, PdfCorrupt, PdfEncrypted, TooManyPages
from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded import citation_lines as cl
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.affiliations import attach_affiliations
from paperpyramid.parsers.embedded.assembly import assemble, block_bbox, merge_continuations
from paperpyramid.parsers.embedded.back_headings import demote_sample_lists, mark_sections_on_citing
from paperpyramid.parsers.embedded.back_matter import split_overgrown_back_matter
from paperpyramid.parsers.embedded.bitmap_fonts import code_glyphs, dingbat_text, nameless_text
from paperpyramid.parsers.embedded.block_breaks import split_blocks
from paperpyramid.parsers.embedded.blocks import Block, classify, is_reference_heading
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.contents import set_aside_contents
from paperpyramid.parsers.embedded.displays import set_displays
from paperpyramid.parsers.embedded.figure_labels import set_aside_plot_text
from paperpyramid.parsers.embedded.footnotes import set_footnotes_apart
from paperpyramid.parsers.embedded.glyphs import GlyphMap
from paperpyramid.parsers.embedded.heading_styles import heading_style, prose
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.institutions import affiliation_like
from paperpyramid.parsers.embedded.layout import Line, Page, extract_page, normalize_text, page_graphics, user_size
from paperpyramid.parsers.embedded.line_numbers import LineNumbering
from paperpyramid.parsers.embedded.notes import set_apart_notes
from paperpyramid.parsers.embedded.outline import OUTLINE_ENTRIES, apply_outline
from paperpyramid.parsers.embedded.reading_order import (
    body_font,
    body_font_size,
    drop_unreadable_lines,
    furniture_keys,
    order_page,
    page_furniture,
    remove_page_furniture,
)
from paperpyramid.parsers.embedded.references import unheaded_list_start
from paperpyramid.parsers.embedded.run_in import split_run_in_headings
from paperpyramid.parsers.embedded.scan_reading import read_scans, read_unmapped_fonts
from paperpyramid.parsers.embedded.scans import OcrMode, OcrPage
from paperpyramid.parsers.embedded.scripts import unreadable_words
from paperpyramid.parsers.embedded.table_detect import mark_uncaptioned
from paperpyramid.parsers.embedded.table_engine import TablePart, table_page, table_parts
from paperpyramid.parsers.embedded.table_reader import add_parts, claim_held, collect_table, join_continued, reads_as_prose, table_cells
from paperpyramid.parsers.embedded.table_rules import BBox, Rule, read_marks
from paperpyramid.parsers.embedded.xmp import read_xmp

log = logging.getLogger(__name__)

#: the cells of the table under a caption (page number, caption's bbox), or None: the parser's own
TableReader = Callable[[int, BBox], list[list[str]] | None]

NAME = "embedded"
_MIN_CHARS_PER_PAGE = 40


def parse_pdf(
    path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None, ocr: OcrMode = "auto"
) -> Document:
    """Parse a PDF with the embedded (offline, service-free) parser.

    ``ocr`` says which pages are read by OCR (Tesseract, when installed) instead of their text
    layer: ``auto`` scans without a text layer and scans whose OCR layer fails the quality test,
    ``always`` every page, ``never`` none (:mod:`.scans`); ``Document.ocr_pages`` lists them.

    Raises a :class:`~paperpyramid.errors.BadInput` subclass when the file cannot be used:
    not a PDF, corrupt, encrypted without the right password, image-only with OCR off or
    missing, over ``max_pages``, or slower than ``time_limit`` seconds.
    """
    started = time.monotonic()
    pdf = open_pdf(path, password=password)
    try:
        count = len(pdf)
        if count == 0:
            raise PdfCorrupt(f"{path.name}: the PDF has no pages")
        if count > max_pages:
            raise TooManyPages(f"{path.name}: {count} pages is over the limit of {max_pages} (raise --max-pages to parse it)")
        pages = _extract_pages(pdf, path, started, time_limit)
        dingbats = dingbat_text(pages)
        by_code = code_glyphs(path) if dingbats or nameless_text(pages) else {}
        if by_code:  # TeX's bitmap fonts mapped to dingbats or left unmapped: read again by their codes
            pages = _extract_pages(pdf, path, started, time_limit, by_code)
            dingbats = dingbat_text(pages)
        glyphs, glyph_note = read_unmapped_fonts(pdf, pages, deadline=None if time_limit is None else started + time_limit)
        glyphs = {**by_code, **glyphs}
        if glyphs.keys() - by_code.keys():  # read again with the glyphs OCR taught
            pages = _extract_pages(pdf, path, started, time_limit, glyphs)
            dingbats = dingbat_text(pages)
        scanned = read_scans(pdf, path, pages, ocr, deadline=None if time_limit is None else started + time_limit)
        encrypted = pdfium_c.FPDF_GetSecurityHandlerRevision(pdf.raw) != -1
        toc = _outline(pdf)
        metadata = pdf.get_metadata_dict(skip_empty=True)
        metadata.update({f"xmp:{key}": value for key, value in read_xmp(path).items()})
        _check_text_layer(path, pages, dingbats)
        dropped, total = drop_unreadable_lines(pages)
        if total and dropped > 0.5 * total:
            raise NeedsOcr(
                f"{path.name}: the text layer is unreadable ({dropped} of {total} lines are mojibake: fonts without a Unicode mapping); run OCR first"
            )
        furniture = furniture_keys(pages)  # the running heads, for the parser and the table engine alike
        document = build_document(
            pages,
            toc,
            metadata,
            tables=_table_reader(pdf, path, pages, scanned.pages, furniture),
            graphics=lambda page: [] if page.number in scanned.pages else page_graphics(pdf, page),
            furniture=furniture,
            rules=lambda number: [] if number in scanned.pages else _flat_rules(pdf, pages[number - 1]),
        )
    finally:
        pdf.close()
    document.glyph_map = glyphs
    document.ocr_pages = sorted(scanned.pages)
    document.ocr_text = {number: page.text for number, page in scanned.pages.items()}
    document.warnings += scanned.warnings
    if glyph_note:
        document.warnings.append(glyph_note)
    if by_code:
        document.warnings.append(f"TeX's bitmap fonts mapped to dingbats or unmapped: {len(by_code)} characters read by their codes")
    if dropped:
        document.warnings.append(f"{dropped} of {total} lines dropped as unreadable (fonts without a Unicode mapping)")
    document.provenance = {
        "text": f"{NAME} {__version__} (pdfium {pdfium.PDFIUM_INFO.build})",
        "structure": f"{NAME} {__version__}",
    }
    if encrypted:
        document.warnings.append(
            "encrypted PDF opened with "
            + ("the password given" if password else "an empty user password (owner-password restrictions only)")
        )
    layer_read = sum(1 for page in pages if page.invisible_text)
    if layer_read:
        document.warnings.append(f"scanned: text read from the OCR text layer of {layer_read} of {len(pages)} pages; OCR errors are likely")
    return document


def _extract_pages(
    pdf: pdfium.PdfDocument, path: Path, started: float, time_limit: float | None, glyphs: GlyphMap | None = None
) -> list[Page]:
    """Every page read into lines (``glyphs``: see :func:`extract_page`), stopping with
    :class:`ParseTimeout` once ``time_limit`` seconds have passed since ``started``."""
    count = len(pdf)
    pages: list[Page] = []
    numbering = LineNumbering()  # a review copy's line numbers, learnt page by page
    for index in range(count):
        if time_limit is not None and time.monotonic() - started > time_limit:
            raise ParseTimeout(f"{path.name}: parsing took longer than {time_limit:g} s (stopped at page {index + 1} of {count})")
        try:
            page = pdf[index]
        except pdfium.PdfiumError as exc:
            raise PdfCorrupt(f"{path.name}: corrupt PDF: page {index + 1} of {count} cannot be loaded") from exc
        try:
            pages.append(extract_page(page, index + 1, glyphs=glyphs, numbering=numbering))
        finally:
            page.close()
    return pages


def _flat_rules(pdf: pdfium.PdfDocument, page: Page) -> list[BBox]:
    """The boxes (top-left origin) of the page's thin horizontal strokes drawn on the page itself
    (not inside a form or a figure): where a footnote rule is looked for; none on a page set sideways."""
    if page.turn:
        return []
    pdf_page = pdf[page.number - 1]
    try:
        height = user_size(pdf_page)[1]
        boxes = []
        for obj in pdf_page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=1):
            left, bottom, right, top = obj.get_bounds()
            if top - bottom <= _RULE_THICKNESS and right - left >= _RULE_THICKNESS * 4:
                boxes.append((left, height - top, right, height - bottom))
        return boxes
    finally:
        pdf_page.close()


#: the most a rule may be thick (points), a footnote's 0.4 pt drawn as a filled box included
_RULE_THICKNESS = 2.0


def open_pdf(path: Path, *, password: str | None = None) -> pdfium.PdfDocument:
    """Open a PDF, turning pdfium's error codes into errors a person understands."""
    with path.open("rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" not in head:
        kind = "an HTML page" if b"<html" in head.lower() or b"<!doctype" in head.lower() else "not a PDF"
        raise NotAPdf(f"{path.name}: no %PDF header ({kind}; {path.stat().st_size} bytes)")
    try:
        return pdfium.PdfDocument(path, password=password)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            hint = "the password given is wrong" if password else "it needs a password (pass --password)"
            raise PdfEncrypted(f"{path.name}: encrypted PDF: {hint}") from exc
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise PdfEncrypted(f"{path.name}: unsupported encryption") from exc
        raise PdfCorrupt(f"{path.name}: corrupt or truncated PDF ({exc})") from exc


def _check_text_layer(path: Path, pages: list[Page], dingbats: bool) -> None:
    """Refuse a text layer that cannot be read (``dingbats``: :func:`.dingbat_text` of ``pages``, read once)."""
    chars = sum(page.n_chars for page in pages)
    if chars < _MIN_CHARS_PER_PAGE * len(pages) and sum(1 for page in pages if page.n_images) >= max(1, len(pages) // 2):
        raise NeedsOcr(
            f"{path.name}: image-only scan with no text layer ({len(pages)} pages); it is read by OCR with --ocr auto or always "
            "when Tesseract is installed (apt-get install tesseract-ocr)"
        )
    if chars == 0:
        raise NeedsOcr(f"{path.name}: no extractable text on any of {len(pages)} pages")
    # odd words, not letters of a script other than Latin, mark a font without a Unicode map
    unreadable, words = unreadable_words(" ".join(line.text for page in pages[:3] for line in page.lines))
    if (words >= 50 and unreadable > 0.5 * words) or dingbats:
        raise NeedsOcr(f"{path.name}: the text layer is unreadable (fonts without a Unicode mapping); run OCR first")


class _DeeperOutline(logging.Filter):
    """Drops pypdfium2's warning that an outline's levels under the sixth were not read: the
    headings are in the levels over them, and the warning told a user nothing they could act on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Maximum recursion depth")


logging.getLogger("pypdfium2._helpers.document").addFilter(_DeeperOutline())


def _outline(pdf: pdfium.PdfDocument) -> list[tuple[int, str, int | None]]:
    items = []
    try:
        for item in pdf.get_toc(max_depth=6):
            title = normalize_text(item.get_title() or "").strip()  # a bookmark's UTF-16 byte order mark too
            page = item.get_dest().get_index() if item.get_dest() is not None else None
            if title:
                items.append((item.level + 1, title, None if page is None else page + 1))
    except pdfium.PdfiumError:
        return []
    return items


def _table_reader(
    pdf: pdfium.PdfDocument,
    path: Path,
    read: list[Page],
    ocr_pages: dict[int, OcrPage] | None = None,
    furniture: set[str] | None = None,
) -> TableReader:
    """Reads the table under a caption from the open PDF (:mod:`.table_engine`): its own
    look at the page's lines (cut into words, from the parser's reading of the page, ``read``)
    and drawn rules (a page read by OCR: its OCR lines, no rules),
    without the page's running head and foot (``furniture``, :func:`.reading_order.furniture_keys`).
    A failure there costs that table's engine cells only: the parser's own cells stand in."""
    return _PageTables(pdf, path, {page.number: page for page in read}, ocr_pages or {}, furniture or set())


class _PageTables:
    """The table reader :func:`_table_reader` makes: called as a :data:`TableReader`, it gives the
    caption's own table; :meth:`parts` gives every part of subtables stacked under that caption
    (:func:`~.table_engine.table_parts`), read in the same call."""

    def __init__(
        self, pdf: pdfium.PdfDocument, path: Path, by_number: dict[int, Page], ocr_pages: dict[int, OcrPage], furniture: set[str]
    ) -> None:
        self.pdf, self.path, self.by_number, self.furniture = pdf, path, by_number, furniture
        # a page with several captions is read once
        self.pages: dict[int, tuple[list[Line], list[Rule], BBox]] = {
            number: (scan.page.lines, [], (0.0, 0.0, scan.page.width, scan.page.height)) for number, scan in ocr_pages.items()
        }
        self.read: dict[tuple[int, BBox], list[TablePart]] = {}
        self.drawn: dict[int, list[BBox]] = {number: [] for number in ocr_pages}  # a scan's drawings are pixels

    def __call__(self, page_number: int, caption_bbox: BBox) -> list[list[str]] | None:
        found = self.parts(page_number, caption_bbox)
        return found[0].cells if found else None

    def marks(self, page_number: int) -> list[BBox]:
        """The page's drawn marks (:func:`~.table_rules.read_marks`), read once, when rows found
        without a caption ask whether they are a plot's labels."""
        if page_number not in self.drawn:
            pdf_page = self.pdf[page_number - 1]
            try:
                self.drawn[page_number] = read_marks(pdf_page, turn=self.by_number[page_number].turn)
            finally:
                pdf_page.close()
        return self.drawn[page_number]

    def parts(self, page_number: int, caption_bbox: BBox) -> list[TablePart]:
        key = (page_number, caption_bbox)
        if key not in self.read:
            self.read[key] = self._parts(page_number, caption_bbox)
        return self.read[key]

    def _parts(self, page_number: int, caption_bbox: BBox) -> list[TablePart]:
        try:
            if page_number not in self.pages:
                lines, rules, box = table_page(self.pdf, self.by_number[page_number])
                heads = page_furniture(lines, box[3], self.furniture)
                self.pages[page_number] = ([line for line in lines if not any(line is head for head in heads)], rules, box)
            return table_parts(*self.pages[page_number], caption_bbox)
        except Exception as exc:  # a table, not the document: the caller falls back
            log.warning(
                "%s: the table engine failed on page %d (%s: %s); the parser's own cells are used",
                self.path.name,
                page_number,
                type(exc).__name__,
                exc,
            )
            return []


def build_document(
    pages: list[Page],
    toc: list[tuple[int, str, int | None]],
    metadata: dict[str, str],
    *,
    tables: TableReader | None = None,
    graphics: Callable[[Page], list[BBox]] | None = None,
    furniture: set[str] | None = None,
    rules: Callable[[int], list[BBox]] | None = None,
) -> Document:
    """The document of a parsed PDF's pages, outline and metadata (Info and XMP fields);
    ``graphics`` reads a page's drawings and images from the open PDF when a display candidate
    needs them (:func:`~.layout.page_graphics`); ``furniture``, the pages' running heads
    (:func:`~.reading_order.furniture_keys`), where the caller has them already; ``rules``, a
    page's horizontal rules by its number, when a footnote's rule is looked for (:func:`_flat_rules`)."""
    # words broken at a line end are joined as this paper writes them elsewhere
    token = blk.VOCABULARY.set(blk.Vocabulary.of([line.text for page in pages for line in page.lines]))
    try:
        return _build_document(pages, toc, metadata, tables, graphics, furniture, rules)
    finally:
        blk.VOCABULARY.reset(token)


def _build_document(
    pages: list[Page],
    toc: list[tuple[int, str, int | None]],
    metadata: dict[str, str],
    tables: TableReader | None,
    graphics: Callable[[Page], list[BBox]] | None = None,
    furniture: set[str] | None = None,
    rules: Callable[[int], list[BBox]] | None = None,
) -> Document:
    # running heads often carry the DOI: read it before they are removed
    first_page_text = " ".join(line.text for page in pages[:2] for line in page.lines)
    citation_lines = cl.citation_lines(pages)
    last_page_text = " ".join(line.text for line in pages[-1].lines) if len(pages) > 2 else ""
    remove_page_furniture(pages, furniture)
    body_size = body_font_size(pages)
    font = body_font(pages)
    blocks: list[Block] = []
    for page in pages:
        drawn = (lambda page=page: graphics(page)) if graphics is not None else tuple
        page_blocks = split_blocks(set_displays(order_page(page), body_size, drawn), body_size)
        for block in page_blocks:
            classify(block, body_size, font)
            block.kind = "aside" if "aside" in block.lines[0].tags else block.kind  # a box beside the body
        blocks += blk.join_displays(blk.number_equations(page_blocks))
    _drop_small_print(blocks, body_size)
    set_aside_plot_text(blocks)
    _mark_tables(blocks, body_size, tables)
    document = Document(pages=len(pages))
    title_blocks = fm.find_title(blocks, pages, body_size)
    document.title = fm.title_text(blocks, title_blocks, metadata)
    for index in title_blocks:
        blocks[index].kind = "title"
    document.authors = fm.find_authors(blocks, title_blocks[-1] if title_blocks else -1, metadata)
    heights = {page.number: page.height for page in pages}
    attach_affiliations(document.authors, blocks, title_blocks[-1] if title_blocks else -1, body_size, heights)
    _demote_front_matter(blocks)
    _fold_abstract_labels(blocks)
    blk.join_appendix_labels(blocks)
    set_aside_contents(blocks)
    mark_sections_on_citing(blocks)
    outlined = len(toc) >= OUTLINE_ENTRIES
    if outlined:  # an outline names run-in headings too ("9.3. Dots. Normally …"): cut them out to be found
        _renumber_members(blocks, split_run_in_headings(blocks))
    if not apply_outline(blocks, toc, body_size):
        _require_following_text(blocks)
        if not outlined:
            _renumber_members(blocks, split_run_in_headings(blocks))
        filter_headings(blocks, body_size)
    document.doi = fm.find_doi(first_page_text, metadata, last_page_text)
    surnames = frozenset(author.name.split()[-1].lower() for author in document.authors if author.name.split())
    document.journal, year, journal_date = fm.find_journal(citation_lines, metadata, surnames)
    document.date_published = fm.find_date(first_page_text) or journal_date or (str(year) if year else None) or metadata.get("xmp:date")
    demote_sample_lists(blocks)  # after the headings are settled: it reads their numbers
    set_footnotes_apart(blocks, {page.number: page.height for page in pages}, body_size, rules)
    asides = assemble(document, blocks, body_size)
    add_parts(document, [block for block in blocks if block.extra.get("parts")])
    join_continued(document)
    set_apart_notes(document, asides)
    merge_continuations(document)
    split_overgrown_back_matter(document)
    abstract = next((s for s in document.sections if s.title.lower() in ("abstract", "summary") and s.blocks), None)
    if abstract is not None:  # as merged: a paragraph cut by a column or page break is one
        document.abstract = "\n\n".join(block.text for block in abstract.blocks if block.kind == "paragraph") or document.abstract
    return document


def _mark_tables(blocks: list[Block], body_size: float, tables: TableReader | None = None) -> None:
    """Read the table at each table caption and claim the blocks under it before headings
    are chosen (bold column headers are not section headings). Where the engine finds no
    table and the blocks under the caption read as prose (a caption printed below its table),
    nothing is claimed: the text stays text and the table is kept without cells."""
    captions = [index for index, block in enumerate(blocks) if block.kind == "caption" and block.extra.get("caption_kind") == "table"]
    listed = unheaded_list_start(blocks) if captions else None  # a table never runs on into a list printed without a heading
    for index in captions:
        if "members" not in blocks[index].extra:
            _mark_table(blocks, index, body_size, tables, listed)
    for index in _part_continuations(blocks, captions):
        _mark_table(blocks, index, body_size, tables, listed)
    _drop_mentions(blocks, captions)
    if tables is not None:  # and tables printed without a caption, not where a plot's marks lie around them
        mark_uncaptioned(blocks, tables, tables.marks if isinstance(tables, _PageTables) else None)


def _mark_table(blocks: list[Block], index: int, body_size: float, tables: TableReader | None, listed: int | None = None) -> None:
    """The table at one caption (:func:`_mark_tables`), with the parts of subtables stacked under
    it (``extra["parts"]``), which :func:`~.table_reader.add_parts` stores apart; it claims no block
    from ``listed`` on, where a reference list printed without a heading begins (REVTeX sets it
    in the small type of a table's notes, right under a table at the foot of a column)."""
    block = blocks[index]
    found = tables(block.page, block_bbox(block, [])) if tables is not None else None
    members = _before_heading(blocks, index, collect_table(blocks, index, body_size), body_size)
    if not found and reads_as_prose(table_cells([line for member in members for line in blocks[member].lines])):
        members = []
    if found:  # the blocks over a caption printed below its table, and rows the blocks under it missed
        read = tables.parts(block.page, block_bbox(block, [])) if isinstance(tables, _PageTables) else []
        members = claim_held(blocks, index, members, found, read[0].box if read else None)
    if listed is not None and index < listed:
        members = [member for member in members if member < listed]
    for member in members:
        blocks[member].kind = "table_part"
    block.extra["members"] = members
    block.extra["found"] = found
    stacked = tables.parts(block.page, block_bbox(block, [])) if found and isinstance(tables, _PageTables) else []
    if len(stacked) >= 2:  # subtables stacked under the caption: each part is stored as a table
        block.extra["parts"] = stacked
    elif found and "part" in block.extra:  # a part continued on this page (:func:`_part_continuations`)
        block.extra["parts"] = [stacked[0]._replace(mark=str(block.extra["part"]))]


def _part_continuations(blocks: list[Block], captions: list[int]) -> list[int]:
    """Indices of the lines "(b) Continued." that head the rest of the last part of subtables
    stacked under a caption (:mod:`.table_stacks`) on the next page, made captions of that part
    (labelled as the caption is, ``extra["part"]`` its mark) so that its rows join it
    (:func:`~.table_reader.join_continued`); a furniture-like line at the page's top otherwise."""
    found = []
    for index in captions:
        caption = blocks[index]
        if not caption.extra.get("parts"):
            continue
        mark = cast("list[TablePart]", caption.extra["parts"])[-1].mark
        heads = re.compile(rf"^{re.escape(mark)}\s*\(?(?:continued|cont(?:'d|\.))\)?\.?$", re.IGNORECASE)
        for other, block in enumerate(blocks):
            if block.page == caption.page + 1 and block.kind in ("paragraph", "furniture", "heading") and heads.match(block.text.strip()):
                block.kind, block.label = "caption", caption.label
                block.extra.update(caption_kind="table", part=mark)
                found.append(other)
                break
    return found


def _before_heading(blocks: list[Block], caption: int, members: list[int], body_size: float) -> list[int]:
    """The blocks a table under ``caption`` claimed, up to a section heading set larger than the
    body: a table ends where the next section begins (PLOS closes a table with its DOI line,
    which looks like a cell, and the heading after it must not be read as one)."""
    larger = body_size + max(0.8, body_size * 0.1)
    for position, member in enumerate(members):
        block = blocks[member]
        if member > caption and block.kind == "heading" and block.size >= larger and len(block.lines) <= 2:
            return members[:position]
    return members


def _drop_mentions(blocks: list[Block], captions: list[int]) -> None:
    """A "caption" with no table under it whose label a caption with a table also has is a
    sentence that begins by naming the table ("Table 4. On average, …"): it becomes text."""
    held = {blocks[index].label for index in captions if blocks[index].extra.get("found") or blocks[index].extra.get("members")}
    for index in captions:
        block = blocks[index]
        if not block.extra.get("found") and not block.extra.get("members") and block.label in held:
            block.kind = "paragraph"


def _renumber_members(blocks: list[Block], new: list[Block]) -> None:
    """Put ``new`` in place of ``blocks``, where a table caption's ``members`` (the indices
    of the blocks its table claimed, which are never split) now stand."""
    position = {id(block): index for index, block in enumerate(new)}
    for block in blocks:
        if "members" in block.extra:
            block.extra["members"] = [position[id(blocks[member])] for member in block.extra["members"]]  # type: ignore[attr-defined]
    blocks[:] = new


def _require_following_text(blocks: list[Block]) -> None:
    """A heading introduces text. Labels inside figures ("Claim 1", "Supports") are
    followed by more labels and a caption, never by a paragraph. A listing is text too:
    "Session Information" over one short line of code ("R> toLatex(sessionInfo())"), and so is a
    short line that ends in a colon over a listing ("Stemming is done by:")."""
    content = [index for index, block in enumerate(blocks) if block.kind not in ("furniture", "aside", "title")]

    def introduces_text(position: int, depth: int) -> bool:
        if position + 1 >= len(content):
            return True  # last block of the document: nothing to judge by
        nxt = blocks[content[position + 1]]
        if nxt.kind == "paragraph":
            return (
                len(nxt.text) >= 80
                or nxt.page != blocks[content[position]].page
                or prose(nxt.text)
                or _listing(nxt)
                or _introduces_listing(position + 1)
                or _bulleted_list(position + 1)
            )
        if nxt.kind in ("table_part", "caption"):
            return nxt.kind == "caption" and nxt.extra.get("caption_kind") == "table"
        if nxt.kind == "heading":
            return (
                nxt.number is not None
                or nxt.title.lower() in blk.KNOWN_HEADINGS
                or (depth < 2 and introduces_text(position + 1, depth + 1))
            )
        return True

    def _introduces_listing(position: int) -> bool:
        # "Stemming is done by:" over "> tm_map(reuters, stemDocument)": a short sentence that
        # hands over to a listing is text, though too short to read as prose
        after = blocks[content[position + 1]] if position + 1 < len(content) else None
        return blocks[content[position]].text.rstrip().endswith(":") and after is not None and _listing(after)

    def _bulleted_list(position: int) -> bool:
        # "Hyper-g prior" over "• Argument: g="hyper"", "• Concept: A Beta prior …": a list is
        # text however short its first item; a plot's legend has no run of items that long
        mark = _BULLET.match(blocks[content[position]].text)
        run = []
        for later in content[position : position + _LIST_ITEMS]:
            block = blocks[later]
            if block.kind != "paragraph" or mark is None or not block.text.startswith(mark.group(1)):
                break
            run.append(block.text)
        return len(run) >= 2 and sum(map(len, run)) >= _LIST_TEXT

    verdicts = {}
    for position, index in enumerate(content):
        block = blocks[index]
        if block.kind == "heading" and block.number is None and block.title.lower() not in blk.KNOWN_HEADINGS:
            verdicts[index] = introduces_text(position, 0)
    for index, keep in verdicts.items():
        if not keep:
            blocks[index].kind = "paragraph"


#: a list item's bullet and the space after it: "•", "▪", "–", or a TeX dingbat read as a
#: control or private-use character ("\x88", pifont's bullet under a font without a Unicode map)
_BULLET = re.compile(r"^([•◦▪▫‣∙●○■□►▸–\x80-\x9f\ue000-\uf8ff])\s+\w")
#: how many items of a list under a heading are read, and how much text they hold at least
_LIST_ITEMS, _LIST_TEXT = 4, 60


def _listing(block: Block) -> bool:
    """Code set in a typewriter face, every line of it: what a heading over a listing introduces."""
    return bool(block.lines) and all(MONOSPACE_FONT.search(line.font) for line in block.lines)


_ABSTRACT_LABELS = {
    "background",
    "objective",
    "objectives",
    "aim",
    "aims",
    "purpose",
    "methods",
    "method",
    "results",
    "conclusion",
    "conclusions",
    "findings",
    "context",
    "design",
    "setting",
    "participants",
    "interpretation",
    "significance",
    "materials and methods",
    "main outcome measures",
    "trial registration",
    "keywords",
    "key words",
}


def _fold_abstract_labels(blocks: list[Block]) -> None:
    """Structured abstracts have their own Background/Methods/Results labels: while on the
    abstract's page and before any numbered heading, those stay inside the abstract."""
    abstract = next((index for index, block in enumerate(blocks) if block.kind == "heading" and block.title.lower() == "abstract"), None)
    if abstract is None:
        return
    page = blocks[abstract].page
    following = [block for block in blocks[abstract + 1 :] if block.kind not in ("furniture", "aside", "title")]
    if not following or following[0].kind != "heading" or following[0].title.lower() not in _ABSTRACT_LABELS:
        return  # a structured abstract opens with its first label
    seen: set[str] = set()
    for block in following:
        if block.page != page or (block.kind == "heading" and block.number):
            break
        if block.kind == "heading":
            label = block.title.lower()
            if label not in _ABSTRACT_LABELS or label in seen:
                break
            seen.add(label)
            block.kind = "paragraph"


def _demote_front_matter(blocks: list[Block]) -> None:
    """Before the first real heading (Abstract, Introduction, "1 ..."), styled lines are
    the title page's furniture (journal name, authors, affiliations), not sections. An
    affiliation marked "1" ("1 Department of Biology, University of ...") is no heading "1"."""
    anchor = None
    for index, block in enumerate(blocks):
        if block.kind != "heading":
            continue
        plain = block.title.lower().strip()
        if plain in blk.KNOWN_HEADINGS or (block.number in ("1", "I", "1.") and not affiliation_like(block.title)):
            anchor = index
            break
    if anchor is None:
        return
    # a section before the anchor, after the first long paragraph, set as the headings from the
    # anchor on are: "First section" where the first heading the parser knows is "References";
    # and a heading under such a section, set no larger than it: its subsection ("Exposure-stratified
    # designs" under "Case–cohort designs", with "References" the first heading known)
    body_styles = {heading_style(block) for block in blocks[anchor:] if block.kind == "heading"}
    text_at = next((index for index, block in enumerate(blocks) if block.kind == "paragraph" and len(block.text) > 200), anchor)
    section: Block | None = None  # the last section kept before the anchor
    for index, block in enumerate(blocks[:anchor]):
        if index > text_at and block.kind == "heading" and heading_style(block) in body_styles:
            section = block
            continue
        if section is not None and block.kind == "heading" and block.size <= section.size:
            continue
        if block.kind == "heading" and not block.extra.get("outline"):
            block.kind = "paragraph"
            block.extra.pop("text", None) if not block.extra.get("run_in") else None


def _drop_small_print(blocks: list[Block], body_size: float) -> None:
    """Small, short-lined blocks that are not captions: a figure's labels and numbers are dropped,
    small print with words (a first page's side box with the citation and editor, a figure's
    legend, a footnote) is set aside, to be kept with the notes out of the reading flow. After
    the reference list's heading, a piece of an entry (its last line, "Fish. 1997; 50(3): 331–341.",
    set apart from the rest by a change of weight) is no small print, and neither is a program's
    output set small in a typewriter face (:func:`_listing`): it is text the paper prints, which
    the table finder no longer takes as a table."""
    listed = False
    for block in blocks:
        listed = listed or (block.kind == "heading" and is_reference_heading(block.title.lower().strip()))
        if block.kind != "paragraph" or (listed and _ENTRY_PIECE.search(block.text)) or _listing(block):
            continue
        if block.size < body_size * 0.8:
            mean = sum(len(line.text) for line in block.lines) / len(block.lines)
            if mean < 45 or len(block.text) < 30:
                block.kind = "aside" if len(_PROSE_WORD.findall(block.text)) >= _SMALL_PRINT_WORDS else "furniture"


#: what a reference entry's piece holds and a figure's labels do not: a year ("1997;"), pages ("; 50(3): 331–341", "684–691.")
_ENTRY_PIECE = re.compile(r"\b(?:1[89]\d\d|20\d\d)[a-z]?[;:.,)]|[:,]\s?\d{1,5}\s?[–-]\s?\d{1,5}\b|^\s*\d{1,5}\s?[–-]\s?\d{1,5}\.?\s*$")
# small print with this many words of three letters or more is text, not a figure's labels
_SMALL_PRINT_WORDS = 4
_PROSE_WORD = re.compile(r"[^\W\d_]{3,}")
