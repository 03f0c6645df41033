"""The rows the read side returns and the SQL that reads them: an article's metadata, a section
(and the section tree), a context (passage), an ingest-log entry, as small frozen dataclasses;
and what an article holds besides its text (its references, tables, display formulas and figure
captions), read as the document model's own classes (:mod:`paperpyramid.document`) with their
stored ids filled in. :class:`~paperpyramid.db.reader.CorpusReader` serves them by id."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from paperpyramid.db.bounded import TITLE_CHARS, text_sql
from paperpyramid.db.merging import json_strings
from paperpyramid.document import Author, BBox, Figure, Formula, MeshTerm, Reference, Table


@dataclass(frozen=True, slots=True)
class Article:
    """An article's metadata: ``title``, ``authors``, ``doi``, ``abstract``, ``date_published`` (ISO
    8601: ``2014-12-09``, ``2014-12`` or ``2014``), ``journal``, ``pages``, ``num_tokens`` of its contexts, the ``parser`` that read it,
    where it came from (``source_uri``, ``sha256``), ``provenance`` (which backend produced each
    part), the parser's ``warnings`` and ``coverage``: the share of the PDF text layer's words the
    article holds (None where it was not measured), ``ocr_pages``: the pages read by OCR, and its
    ``arxiv_id`` where its source or name gave one.

    From PubMed and PMC (and any source that states them): ``pmid`` (digits), ``pmcid``
    ("PMC1234567"), ``licence`` (a short key such as ``cc-by`` or ``cc0``, see
    :mod:`paperpyramid.licences`, the licence's own words where no key fits, None when unknown),
    ``language`` as the source gives it ("eng", "en"), ``publication_types`` ("Journal Article",
    "Review"), ``keywords`` and ``mesh``, its MeSH headings in the record's order."""

    id: str
    title: str | None
    authors: tuple[Author, ...]
    doi: str | None
    abstract: str | None
    date_published: str | None
    journal: str | None
    pages: int | None
    num_tokens: int
    parser: str | None
    source_uri: str | None
    sha256: str
    created_at: str
    provenance: dict[str, str]
    warnings: tuple[str, ...]
    coverage: float | None = None
    ocr_pages: tuple[int, ...] = ()
    arxiv_id: str | None = None
    pmid: str | None = None
    pmcid: str | None = None
    licence: str | None = None
    language: str | None = None
    publication_types: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    mesh: tuple[MeshTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class SectionRow:
    """A section: ``number`` as printed ("2.1"; ``"ref"`` for the references), ``title``,
    ``level`` (1 for the top), ``parent_id`` (None at the top), ``position`` its place in the
    article's reading order (from 0), its pages and its tokens. ``Corpus.section_tree`` nests them."""

    id: str
    article_id: str
    position: int
    number: str | None
    title: str | None
    level: int
    parent_id: str | None
    num_tokens: int
    page_start: int | None
    page_end: int | None


@dataclass(frozen=True, slots=True)
class SectionNode:
    """A section in the tree of its article: ``children`` are its subsections in reading order."""

    id: str
    number: str | None
    title: str | None
    level: int
    page_start: int | None
    page_end: int | None
    num_tokens: int
    children: tuple[SectionNode, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class ContextRow:
    """A passage (context): ``text`` that fits the embedding model's window (a stored text longer
    than :data:`~paperpyramid.db.bounded.PASSAGE_CHARS` comes back cut, ending in "…"), ``position`` its
    place in its section (from 0), ``page_number`` where it starts, ``num_tokens``, ``stop_reason``
    (``Section``: it closes its section; ``Token limit``), ``kind`` (text, table, ...).
    ``section_number`` and ``section_title`` are its section's ``number`` and ``title`` (named for
    the section they belong to, as the stored columns are)."""

    id: str
    article_id: str
    section_id: str
    position: int
    text: str
    section_number: str | None
    section_title: str | None
    num_tokens: int
    page_number: int | None
    stop_reason: str
    kind: str


@dataclass(frozen=True, slots=True)
class IngestLogRow:
    """One input's latest outcome: ``status`` done / failed / skipped, ``error`` the reason."""

    source_uri: str
    sha256: str | None
    status: str
    error: str | None
    attempts: int
    article_id: str | None
    pages: int | None
    seconds: float | None
    updated_at: str


#: an article's MeSH headings, in order, as one JSON list of [term, major, ui, qualifiers] (a
#: correlated subquery: the columns are read ``FROM articles``)
_MESH = (
    "(SELECT json_group_array(json_array(m.term, m.major, m.ui, m.qualifiers)) "
    "FROM (SELECT * FROM mesh_terms WHERE article_id = articles.id ORDER BY position) AS m)"
)
ARTICLE_COLUMNS = (
    "id, title, authors, doi, abstract, date_published, journal, pages, num_tokens, parser, "
    "source_uri, sha256, created_at, provenance, warnings, coverage, ocr_pages, arxiv_id, "
    f"pmid, pmcid, licence, language, publication_types, keywords, {_MESH}"
)
SECTION_SELECT = """
SELECT s.id, ars.article_id, ars.position, s.section_number, s.section_title, s.level,
       s.parent_id, s.num_tokens, s.page_start, s.page_end
FROM sections AS s JOIN article_sections AS ars ON ars.section_id = s.id
"""
#: a context's text and section title come back bounded (:mod:`paperpyramid.db.bounded`), whatever a row holds
CONTEXT_SELECT = f"""
SELECT c.id, ars.article_id, sc.section_id, sc.position, {text_sql("c.text")}, c.section_number,
       {text_sql("c.section_title", TITLE_CHARS)}, c.num_tokens, c.page_number, c.stop_reason, c.kind
FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
"""


def article_row(row: tuple[Any, ...]) -> Article:
    (id_, title, authors, doi, abstract, date_published, journal, pages, num_tokens, parser,
     source_uri, sha256, created_at, provenance, warnings, coverage, ocr_pages, arxiv_id,
     pmid, pmcid, licence, language, publication_types, keywords, mesh) = row  # fmt: skip
    return Article(
        id=id_,
        title=title,
        authors=tuple(Author(**author) for author in json.loads(authors)),
        doi=doi,
        abstract=abstract,
        date_published=date_published,
        journal=journal,
        pages=pages,
        num_tokens=num_tokens,
        parser=parser,
        source_uri=source_uri,
        sha256=sha256,
        created_at=created_at,
        provenance=json.loads(provenance),
        warnings=tuple(json.loads(warnings)),
        coverage=coverage,
        ocr_pages=tuple(json.loads(ocr_pages)) if ocr_pages else (),
        arxiv_id=arxiv_id,
        pmid=pmid,
        pmcid=pmcid,
        licence=licence,
        language=language,
        publication_types=tuple(json_strings(publication_types)),
        keywords=tuple(json_strings(keywords)),
        mesh=_mesh(mesh),
    )


def _mesh(stored: str | None) -> tuple[MeshTerm, ...]:
    """The headings :data:`_MESH` gathers, as the document model's :class:`MeshTerm`."""
    terms: list[MeshTerm] = []
    for term, major, ui, qualifiers in json.loads(stored or "[]"):
        terms.append(MeshTerm(str(term), bool(major), ui, json_strings(qualifiers)))
    return tuple(terms)


def section_tree(sections: list[SectionRow]) -> list[SectionNode]:
    """The tree of ``sections`` (an article's sections in reading order, each with its
    ``parent_id``): the top-level sections, each with its subsections."""
    children: dict[str | None, list[SectionRow]] = {}
    known = {section.id for section in sections}
    for section in sections:
        children.setdefault(section.parent_id if section.parent_id in known else None, []).append(section)

    def node(section: SectionRow) -> SectionNode:
        return SectionNode(section.id, section.number, section.title, section.level, section.page_start, section.page_end, section.num_tokens,
                           tuple(node(child) for child in children.get(section.id, [])))  # fmt: skip

    return [node(section) for section in children.get(None, [])]


def read_references(conn: Any, article_id: str) -> list[Reference]:
    """The article's reference list, in the order printed."""
    rows = conn.execute("SELECT id, article_id, position, raw, title, authors, year, doi, venue, key, arxiv_id, cited_article_id "
                        "FROM bib_entries WHERE article_id = ? ORDER BY position", [article_id])  # fmt: skip
    references: list[Reference] = []
    for id_, article, position, raw, title, authors, year, doi, venue, key, arxiv_id, cited in rows:
        reference = Reference(raw, title, json.loads(authors or "[]"), year, doi, venue, key, arxiv_id)
        reference.id, reference.article_id, reference.position, reference.cited_article_id = id_, article, position, cited
        references.append(reference)
    return references


def read_tables(conn: Any, article_id: str) -> list[Table]:
    """The article's tables in printed order."""
    return [
        Table(caption, [[str(cell) for cell in row] for row in json.loads(cells or "[]")], label=label, **stored)
        for stored, (label, caption, cells) in _parts(conn, "tables", "label, caption, cells", article_id)
    ]


def read_formulas(conn: Any, article_id: str) -> list[Formula]:
    """The article's display formulas in printed order."""
    return [
        Formula(text, latex=latex, label=label, **stored)
        for stored, (label, text, latex) in _parts(conn, "formulas", "label, text, latex", article_id)
    ]


def read_figures(conn: Any, article_id: str) -> list[Figure]:
    """The article's figure captions in printed order."""
    return [Figure(caption, label=label, **stored) for stored, (label, caption) in _parts(conn, "figures", "label, caption", article_id)]


def _parts(conn: Any, table: str, columns: str, article_id: str) -> Iterator[tuple[dict[str, Any], tuple[Any, ...]]]:
    """Each stored part of the article in printed order (by page, then as the writer stored them:
    in reading order): the fields every part has, by name, and the values of its own ``columns``.
    Its ``section`` is the place of its section in the article's reading order, which is the
    section's index in the document the parser returned."""
    own = ", ".join(f"part.{column.strip()}" for column in columns.split(","))
    rows = conn.execute(f"SELECT part.id, part.article_id, part.section_id, part.page, part.bbox, part.provenance, ars.position, {own} "
                        f"FROM {table} AS part LEFT JOIN article_sections AS ars ON ars.section_id = part.section_id "
                        "WHERE part.article_id = ? ORDER BY part.page IS NULL, part.page, part.rowid", [article_id])  # fmt: skip
    for id_, article, section_id, page, bbox, provenance, section, *values in rows:
        stored = {"id": id_, "article_id": article, "section_id": section_id, "page": page, "bbox": _bbox(bbox), "provenance": provenance,
                  "section": section}  # fmt: skip
        yield stored, tuple(values)


def _bbox(stored: str | None) -> BBox | None:
    if stored is None:
        return None
    x0, top, x1, bottom = json.loads(stored)
    return (x0, top, x1, bottom)
