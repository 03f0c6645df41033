"""The read side of a corpus over one connection: articles, their sections in order, contexts
and neighbours, and what an article holds besides its text. Rows come back as the frozen
dataclasses of :mod:`paperpyramid.db.corpus_rows`; references, tables, formulas and figures as
the document model's own classes with their stored ids. Methods that take an id raise
``KeyError`` naming the id when it is not in the corpus.

:class:`paperpyramid.Corpus` is a :class:`CorpusReader` with search, answers and the write side
on top; whatever only reads stored rows (the export, citations) takes a reader, so that it never
needs the corpus above it. The navigation methods (``next_section``, ``previous_section``,
``parent_contexts``) are also tools an LLM is given to walk a paper; their docstrings are
written for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db.corpus_rows import (
    ARTICLE_COLUMNS,
    CONTEXT_SELECT,
    SECTION_SELECT,
    Article,
    ContextRow,
    IngestLogRow,
    SectionNode,
    SectionRow,
    article_row,
    read_figures,
    read_formulas,
    read_references,
    read_tables,
    section_tree,
)
from paperpyramid.db.writer import normalize_doi
from paperpyramid.document import Figure, Formula, Reference, Table


class CorpusReader:
    """Named queries over an open corpus connection ``conn`` (which it does not close)."""

    def __init__(self, conn: db_sqlite.Connection) -> None:
        self.conn = conn

    # articles

    def articles(self) -> Iterator[Article]:
        """Every article, in the order they were stored."""
        for row in self.conn.execute(f"SELECT {ARTICLE_COLUMNS} FROM articles ORDER BY created_at, rowid"):
            yield article_row(row)

    def article(self, id_or_doi: str) -> Article:
        """The article with this id, or else with this DOI (any case, with or without a
        ``https://doi.org/`` or ``doi:`` prefix)."""
        row = self.conn.execute(f"SELECT {ARTICLE_COLUMNS} FROM articles WHERE id = ?", [id_or_doi]).fetchone()
        if row is None:
            row = self.conn.execute(
                f"SELECT {ARTICLE_COLUMNS} FROM articles WHERE doi = ? ORDER BY rowid LIMIT 1",
                [normalize_doi(id_or_doi)],
            ).fetchone()
        if row is None:
            raise KeyError(f"no article with id or DOI {id_or_doi!r}")
        return article_row(row)

    # sections

    def sections(self, article_id: str) -> list[SectionRow]:
        """The article's sections in reading order (subsections follow their parent)."""
        self._require("articles", article_id)
        rows = self.conn.execute(f"{SECTION_SELECT} WHERE ars.article_id = ? ORDER BY ars.position", [article_id])
        return [SectionRow(*row) for row in rows]

    def section(self, section_id: str) -> SectionRow:
        """One section by id."""
        row = self.conn.execute(f"{SECTION_SELECT} WHERE s.id = ?", [section_id]).fetchone()
        if row is None:
            raise KeyError(f"no section with id {section_id!r}")
        return SectionRow(*row)

    def next_section(self, section_id: str) -> SectionRow | None:
        """The section that follows this one in the same paper, or None at the paper's end.

        Call it to keep reading when a section's text stops short of what you need; read
        its text with ``contexts(section.id)``.
        """
        return self._neighbour(section_id, ">", "ASC")

    def previous_section(self, section_id: str) -> SectionRow | None:
        """The section before this one in the same paper, or None at the paper's start.

        Call it when a passage refers back to something defined earlier.
        """
        return self._neighbour(section_id, "<", "DESC")

    def _neighbour(self, section_id: str, compare: str, order: str) -> SectionRow | None:
        here = self.section(section_id)
        row = self.conn.execute(
            f"{SECTION_SELECT} WHERE ars.article_id = ? AND ars.position {compare} ? ORDER BY ars.position {order} LIMIT 1",
            [here.article_id, here.position],
        ).fetchone()
        return None if row is None else SectionRow(*row)

    def section_tree(self, article_id: str) -> list[SectionNode]:
        """The article's sections as a tree: the top-level sections in reading order, each with
        its subsections (``children``)."""
        return section_tree(self.sections(article_id))

    # what an article holds besides its text

    def references(self, article_id: str) -> list[Reference]:
        """The article's reference list, in the order printed, each with its stored ``id`` and
        ``position`` (from 0)."""
        self._require("articles", article_id)
        return read_references(self.conn, article_id)

    def tables(self, article_id: str) -> list[Table]:
        """The article's tables in printed order, each as rows of cells (``cells``) and as
        Markdown (``markdown``), with its caption and page."""
        self._require("articles", article_id)
        return read_tables(self.conn, article_id)

    def formulas(self, article_id: str) -> list[Formula]:
        """The article's display formulas, as text (and LaTeX where a backend produced it)."""
        self._require("articles", article_id)
        return read_formulas(self.conn, article_id)

    def figures(self, article_id: str) -> list[Figure]:
        """The article's figure captions (images are not stored)."""
        self._require("articles", article_id)
        return read_figures(self.conn, article_id)

    # contexts

    def contexts(self, section_id: str) -> list[ContextRow]:
        """The section's contexts (its text, in passages) in reading order."""
        self._require("sections", section_id)
        rows = self.conn.execute(f"{CONTEXT_SELECT} WHERE sc.section_id = ? ORDER BY sc.position", [section_id])
        return [ContextRow(*row) for row in rows]

    def context(self, context_id: str) -> ContextRow:
        """One context by id."""
        row = self.conn.execute(f"{CONTEXT_SELECT} WHERE c.id = ?", [context_id]).fetchone()
        if row is None:
            raise KeyError(f"no context with id {context_id!r}")
        return ContextRow(*row)

    def parent_contexts(self, context_id: str, before: int = 2, after: int = 2) -> list[ContextRow]:
        """A passage with its neighbours: the ``before`` passages preceding it and the ``after``
        following it, the passage itself among them (the "parent document" a hit stands in).

        Neighbours are taken in the paper's reading order and may come from the previous or
        next section; fewer come back at the paper's start or end. Call it when a search hit
        is too short to answer from, to read around it.
        """
        if before < 0 or after < 0:
            raise ValueError("before and after must not be negative")
        here = self.context(context_id)
        rows = self.conn.execute(
            f"""
            WITH ordered AS (
                SELECT c.id AS id, ROW_NUMBER() OVER (ORDER BY ars.position, sc.position) AS n
                FROM contexts AS c
                JOIN sections_contexts AS sc ON sc.context_id = c.id
                JOIN article_sections AS ars ON ars.section_id = sc.section_id
                WHERE ars.article_id = :article
            ),
            target AS (SELECT n FROM ordered WHERE id = :context)
            {CONTEXT_SELECT}
            JOIN ordered ON ordered.id = c.id
            WHERE ordered.n BETWEEN (SELECT n FROM target) - :before AND (SELECT n FROM target) + :after
            ORDER BY ordered.n
            """,
            {"article": here.article_id, "context": context_id, "before": before, "after": after},
        )
        return [ContextRow(*row) for row in rows]

    # ingest log

    def ingest_log(self) -> list[IngestLogRow]:
        """Every source the ingest has seen, with its latest status, oldest update first."""
        rows = self.conn.execute(
            "SELECT source_uri, sha256, status, error, attempts, article_id, pages, seconds, updated_at "
            "FROM ingest_log ORDER BY updated_at, rowid"
        )
        return [IngestLogRow(*row) for row in rows]

    def _require(self, table: str, id_: str) -> None:
        if self.conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", [id_]).fetchone() is None:
            raise KeyError(f"no {table.rstrip('s')} with id {id_!r}")


def articles_dated(conn: db_sqlite.Connection, year: str | None) -> list[tuple[Any, ...]]:
    """``(id, title, authors as stored, date_published)`` of the articles whose date holds
    ``year`` (None: those without a date), in the order they were stored."""
    where = "date_published LIKE ?" if year else "date_published IS NULL"
    sql = f"SELECT id, title, authors, date_published FROM articles WHERE {where} ORDER BY created_at, rowid"
    return list(conn.execute(sql, [f"%{year}%"] if year else []).fetchall())


__all__ = ["CorpusReader", "articles_dated"]
