"""What an article holds besides its text, as rows a researcher reads: its references, tables,
display formulas and figure captions, and its sections as a tree. Read through
:class:`paperpyramid.Corpus` (``corpus.references(article_id)`` and so on)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Reference:
    """One entry of the article's reference list, in the order printed (``position`` from 0).

    ``raw`` is the entry as printed; ``title``, ``authors``, ``year``, ``doi``, ``venue`` and
    ``arxiv_id`` are what the parser could split out of it (any may be missing); ``key`` is what
    in-text citations name it by; ``cited_article_id`` the article of this corpus it names, once
    resolved (:meth:`~paperpyramid.corpus.Corpus.cites`)."""

    id: str
    article_id: str
    position: int
    raw: str
    title: str | None
    authors: tuple[str, ...]
    year: int | None
    doi: str | None
    venue: str | None
    key: str | None = None
    arxiv_id: str | None = None
    cited_article_id: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A table: ``label`` is its number as printed (``"2"`` for Table 2), ``caption`` the whole
    caption, ``rows`` its cells row by row (the first row is the header), ``markdown`` the same as
    a Markdown table, ``page`` where it is printed, ``section_id`` the section it is in."""

    id: str
    article_id: str
    section_id: str | None
    label: str | None
    caption: str | None
    rows: tuple[tuple[str, ...], ...]
    markdown: str | None
    page: int | None
    provenance: str | None


@dataclass(frozen=True, slots=True)
class Formula:
    """A display formula: ``text`` as printed, ``latex`` where a backend (Nougat) produced it,
    ``label`` its equation number without brackets."""

    id: str
    article_id: str
    section_id: str | None
    label: str | None
    text: str
    latex: str | None
    page: int | None
    provenance: str | None


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure's caption (images are not stored): ``label`` its number as printed."""

    id: str
    article_id: str
    section_id: str | None
    label: str | None
    caption: str | None
    page: int | None
    provenance: str | None


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


def read_references(conn: Any, article_id: str) -> list[Reference]:
    rows = conn.execute("SELECT id, article_id, position, raw, title, authors, year, doi, venue, key, arxiv_id, cited_article_id "
                        "FROM bib_entries WHERE article_id = ? ORDER BY position", [article_id])  # fmt: skip
    return [Reference(row[0], row[1], row[2], row[3], row[4], tuple(json.loads(row[5] or "[]")), *row[6:]) for row in rows]


def _order(part: str) -> str:
    # printed order: by page, then as stored (the parser stores them in reading order)
    return f"SELECT {part} WHERE article_id = ? ORDER BY page IS NULL, page, rowid"


def read_tables(conn: Any, article_id: str) -> list[Table]:
    rows = conn.execute(_order("id, article_id, section_id, label, caption, cells, markdown, page, provenance FROM tables"), [article_id])
    return [Table(row[0], row[1], row[2], row[3], row[4], tuple(tuple(str(cell) for cell in cells) for cells in json.loads(row[5] or "[]")),
                  row[6], row[7], row[8]) for row in rows]  # fmt: skip


def read_formulas(conn: Any, article_id: str) -> list[Formula]:
    rows = conn.execute(_order("id, article_id, section_id, label, text, latex, page, provenance FROM formulas"), [article_id])
    return [Formula(*row) for row in rows]


def read_figures(conn: Any, article_id: str) -> list[Figure]:
    rows = conn.execute(_order("id, article_id, section_id, label, caption, page, provenance FROM figures"), [article_id])
    return [Figure(*row) for row in rows]


def section_tree(sections: list[Any]) -> list[SectionNode]:
    """The tree of ``sections`` (an article's :class:`~paperpyramid.corpus.SectionRow` list in
    reading order, each with its ``parent_id``): the top-level sections, each with its subsections."""
    children: dict[str | None, list[Any]] = {}
    known = {section.id for section in sections}
    for section in sections:
        children.setdefault(section.parent_id if section.parent_id in known else None, []).append(section)

    def node(section: Any) -> SectionNode:
        return SectionNode(section.id, section.number, section.title, section.level, section.page_start, section.page_end, section.num_tokens,
                           tuple(node(child) for child in children.get(section.id, [])))  # fmt: skip

    return [node(section) for section in children.get(None, [])]


__all__ = [
    "Figure",
    "Formula",
    "Reference",
    "SectionNode",
    "Table",
    "read_figures",
    "read_formulas",
    "read_references",
    "read_tables",
    "section_tree",
]
