"""The rows a :class:`~paperpyramid.Corpus` returns, as small frozen dataclasses, and the SQL
that reads them: an article's metadata, a section, a context (passage), an ingest-log entry."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from paperpyramid.document import Author


@dataclass(frozen=True, slots=True)
class Article:
    """An article's metadata: ``title``, ``authors``, ``doi``, ``abstract``, ``date_published`` (as
    printed), ``journal``, ``pages``, ``num_tokens`` of its contexts, the ``parser`` that read it,
    where it came from (``source_uri``, ``sha256``), ``provenance`` (which backend produced each
    part), the parser's ``warnings`` and ``coverage``: the share of the PDF text layer's words the
    article holds (None where it was not measured), ``ocr_pages``: the pages read by OCR, and its
    ``arxiv_id`` where its source or name gave one."""

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
class ContextRow:
    """A passage (context): ``text`` that fits the embedding model's window, ``position`` its
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


ARTICLE_COLUMNS = (
    "id, title, authors, doi, abstract, date_published, journal, pages, num_tokens, parser, "
    "source_uri, sha256, created_at, provenance, warnings, coverage, ocr_pages, arxiv_id"
)
SECTION_SELECT = """
SELECT s.id, ars.article_id, ars.position, s.section_number, s.section_title, s.level,
       s.parent_id, s.num_tokens, s.page_start, s.page_end
FROM sections AS s JOIN article_sections AS ars ON ars.section_id = s.id
"""
CONTEXT_SELECT = """
SELECT c.id, ars.article_id, sc.section_id, sc.position, c.text, c.section_number,
       c.section_title, c.num_tokens, c.page_number, c.stop_reason, c.kind
FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
"""


def article_row(row: tuple[Any, ...]) -> Article:
    (id_, title, authors, doi, abstract, date_published, journal, pages, num_tokens, parser,
     source_uri, sha256, created_at, provenance, warnings, coverage, ocr_pages, arxiv_id) = row  # fmt: skip
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
    )
