"""The document model: the one contract every parser returns.

A parser turns a PDF (or JATS, TEI, LaTeX) into a :class:`Document`. The database
layer stores documents; nothing downstream knows which parser produced one except
through :attr:`Document.provenance`.

The article's parts (:class:`Table`, :class:`Formula`, :class:`Figure`, :class:`Reference`) are
also what :class:`paperpyramid.Corpus` reads back: the same classes, with their stored identity
(``id``, ``article_id``, the ``section_id`` or list ``position``) filled in; while parsing those
are None.

Pages are 1-based. Boxes are ``(x0, top, x1, bottom)`` in PDF points with the origin
at the top-left of the page, as pdfplumber and GROBID's coordinates use.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Literal

BBox = tuple[float, float, float, float]

#: Kinds of body block a section holds, in reading order.
BlockKind = Literal["paragraph", "formula", "table", "caption", "list_item"]


@dataclass(slots=True)
class Author:
    name: str
    affiliation: str | None = None
    email: str | None = None


@dataclass(slots=True)
class Cite:
    """An in-text citation inside a block: ``block.text[start:end]`` is its marker as the text
    reads ("[12]", "[3–5]", "(Smith et al., 2019)", a superscript "4"), ``keys`` the
    :attr:`Reference.key` of each entry it cites, in the order cited."""

    start: int
    end: int
    keys: list[str]


@dataclass(slots=True)
class Block:
    """One body block: a paragraph, a display formula, a table rendering or a caption;
    ``cites`` are its in-text citations, in text order.

    ``raised`` is what a PDF parser saw of the numbers printed raised in it, each as (the character
    before it, the number as printed): ``("T", "18")`` for "DEET¹⁸", whose text reads "DEET18".
    The citation linker reads superscript citations from it (:mod:`paperpyramid.citations.raised`).
    None where the parser did not look (XML, LaTeX, OCR text): the text alone is read there."""

    text: str
    page: int
    kind: BlockKind = "paragraph"
    bbox: BBox | None = None
    cites: list[Cite] = field(default_factory=list)
    raised: tuple[tuple[str, str], ...] | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Section:
    """A node of the section tree, stored flat in reading order.

    ``number`` is the printed numbering ("2.1", "II", "A") or ``None``; ``parent`` is the
    index of the enclosing section in :attr:`Document.sections`, or ``None`` at top level.
    The references section has ``number == "ref"``.
    """

    title: str
    level: int = 1
    number: str | None = None
    parent: int | None = None
    blocks: list[Block] = field(default_factory=list)
    page_start: int | None = None
    page_end: int | None = None

    @property
    def text(self) -> str:
        return "\n\n".join(block.text for block in self.blocks)


@dataclass(slots=True)
class Table:
    """A table: ``label`` is its number as printed (``"2"`` for Table 2), ``caption`` the whole
    caption, ``cells`` its cells row by row (the first row is the header; :attr:`markdown` is the
    same as a Markdown table), ``page`` where it is printed, ``notes`` the small print under it.

    A parser fills the parse fields; the stored ones (``id``, ``article_id``, ``section_id``) are
    None until the table is read back from a corpus (:meth:`paperpyramid.Corpus.tables`)."""

    caption: str
    cells: list[list[str]]
    page: int
    bbox: BBox | None = None
    label: str | None = None
    #: the index of the section it is in, in the article's reading order (``Document.sections``)
    section: int | None = None
    _: KW_ONLY
    #: its notes ("Note: …", "a p < 0.05"), each as printed, in reading order, as a JATS table's foot;
    #: the section's text holds them under the cells. Not stored: empty when read back from a corpus
    notes: list[str] = field(default_factory=list)
    #: the backend (and version) that produced it, as stored; while parsing, set only where it is not the document's
    provenance: str | None = None
    id: str | None = None
    article_id: str | None = None
    #: the stored id of the section it is in
    section_id: str | None = None

    @property
    def markdown(self) -> str:
        """The cells as a GitHub-flavoured Markdown table, the first row as its header."""
        return cells_to_markdown(self.cells)


@dataclass(slots=True)
class Formula:
    """A display formula: ``text`` as printed, ``latex`` where a backend (Nougat, a LaTeX
    source) produced it, ``label`` its equation number without brackets. The stored fields
    (``id``, ``article_id``, ``section_id``) are None until it is read back from a corpus."""

    text: str
    page: int
    latex: str | None = None
    label: str | None = None
    bbox: BBox | None = None
    #: the index of the section it is in, in the article's reading order (``Document.sections``)
    section: int | None = None
    _: KW_ONLY
    #: the backend (and version) that produced it, as stored; while parsing, set only where it is not the document's
    provenance: str | None = None
    id: str | None = None
    article_id: str | None = None
    #: the stored id of the section it is in
    section_id: str | None = None


@dataclass(slots=True)
class Figure:
    """A figure's caption (images are not stored): ``label`` its number as printed. The stored
    fields (``id``, ``article_id``, ``section_id``) are None until it is read back from a corpus."""

    caption: str
    page: int
    label: str | None = None
    bbox: BBox | None = None
    #: the index of the section it is in, in the article's reading order (``Document.sections``)
    section: int | None = None
    _: KW_ONLY
    #: the backend (and version) that produced it, as stored; while parsing, set only where it is not the document's
    provenance: str | None = None
    id: str | None = None
    article_id: str | None = None
    #: the stored id of the section it is in
    section_id: str | None = None


@dataclass(slots=True)
class Reference:
    """One entry of the reference list, in the order printed.

    ``raw`` is the entry as printed; ``title``, ``authors``, ``year``, ``doi``, ``venue`` and
    ``arxiv_id`` are what the parser could split out of it (any may be missing). ``key`` is what
    in-text citations name it by: a LaTeX cite key, a JATS/TEI xml id, or the printed label
    ("12") of a numbered list; unique within its document, or None when nothing cites it by a key.
    The stored fields (``id``, ``article_id``, ``position``, ``cited_article_id``) are None until
    it is read back from a corpus (:meth:`paperpyramid.Corpus.references`)."""

    raw: str
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    doi: str | None = None
    venue: str | None = None
    key: str | None = None
    #: "2101.00001" or "hep-th/9901001", without a version
    arxiv_id: str | None = None
    _: KW_ONLY
    id: str | None = None
    article_id: str | None = None
    #: its place in the reference list, from 0
    position: int | None = None
    #: the article of the corpus it names, once resolved (``Corpus.cites``)
    cited_article_id: str | None = None


@dataclass(slots=True)
class MeshTerm:
    """A MeSH heading of a PubMed record: the descriptor's name, whether it is a major topic of
    the article (``MajorTopicYN="Y"`` on the descriptor or any of its qualifiers), its unique
    id (``D005260``) and the qualifiers' names."""

    term: str
    major: bool = False
    ui: str | None = None
    qualifiers: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Document:
    title: str | None = None
    authors: list[Author] = field(default_factory=list)
    abstract: str | None = None
    #: the publication date as the source gives it ("9 December 2014", "2014-12-09T00:00:00Z");
    #: :func:`paperpyramid.normalise.normalise_document` rewrites it as ISO 8601 before it is stored
    date_published: str | None = None
    journal: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None  # the paper's own arXiv id, without a version
    pmid: str | None = None  # PubMed's id, digits only
    pmcid: str | None = None  # PubMed Central's id with its prefix: "PMC1234567"
    #: the article's licence as a short key (``cc-by``, ``cc-by-nc-nd``, ``cc0``, ``pd``), or the
    #: licence's own words or URL where no key fits; None: not known
    licence: str | None = None
    language: str | None = None  # as the source gives it: PubMed's ISO 639-2 ("eng"), JATS xml:lang ("en")
    #: PubMed publication types ("Journal Article", "Review", "Randomized Controlled Trial")
    publication_types: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    mesh: list[MeshTerm] = field(default_factory=list)
    pages: int = 0
    #: False for a source read without its PDF (JATS XML alone): no part has a page, and the
    #: page numbers the parser gave (all 1) are stored as NULL; citations then name the section
    paged: bool = True
    sections: list[Section] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    formulas: list[Formula] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    #: which backend (and version) produced what: {"sections": "embedded 0.1.0 / pdfium 159", ...}
    provenance: dict[str, str] = field(default_factory=dict)
    #: things a person should know about this parse (OCR layer used, table without cells, ...)
    warnings: list[str] = field(default_factory=list)
    #: the share of the PDF text layer's words this document holds (set by ingest; None: not measured)
    coverage: float | None = None
    #: what the glyphs of fonts without a Unicode map read as, learnt by OCR ((font, code) -> text;
    #: the embedded parser sets it, coverage reads the text layer with it; not stored)
    glyph_map: dict[tuple[str, int], str] = field(default_factory=dict)
    #: the pages (1-based) whose text was read by OCR instead of the PDF's text layer
    ocr_pages: list[int] = field(default_factory=list)
    #: what OCR read on those pages, page by page (coverage measures against it; not stored)
    ocr_text: dict[int, str] = field(default_factory=dict)

    @property
    def parser(self) -> str:
        """The backends that produced this document, e.g. ``"embedded"`` or ``"grobid+embedded"``."""
        # "none": no backend produced that part (the pages of an XML read without its PDF)
        names = dict.fromkeys(value.split()[0] for value in self.provenance.values() if value != "none")
        return "+".join(names) or "unknown"


def cells_to_markdown(cells: list[list[str]]) -> str:
    """Render table cells as a GitHub-flavoured markdown table; the first row is the header."""
    if not cells:
        return ""
    width = max(len(row) for row in cells)

    def render(row: list[str]) -> str:
        padded = [cell.replace("|", "\\|").replace("\n", " ").strip() for cell in row]
        padded += [""] * (width - len(row))
        return "| " + " | ".join(padded) + " |"

    lines = [render(cells[0]), "|" + "---|" * width]
    lines += [render(row) for row in cells[1:]]
    return "\n".join(lines)
