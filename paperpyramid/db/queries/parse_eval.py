"""What ``eval parse`` reads of a corpus to score its parses against gold files: the stored
articles and their twins (the same bytes ingested under another name), each article's sections
and their text, its reference count, its formulas' printed numbers, and article columns an
older corpus (opened read-only, never migrated) may lack."""

from __future__ import annotations

from typing import Any

from paperpyramid.db.sqlite import Connection

_SECTIONS_SQL = """
    SELECT s.id, s.section_number, s.section_title
    FROM article_sections AS a JOIN sections AS s ON s.id = a.section_id
    WHERE a.article_id = ?
    ORDER BY a.position
"""
_CONTEXTS_SQL = """
    SELECT c.text
    FROM sections_contexts AS sc JOIN contexts AS c ON c.id = sc.context_id
    WHERE sc.section_id = ?
    ORDER BY sc.position
"""


def stored_articles(conn: Connection) -> list[tuple[str, str | None, str | None, str | None]]:
    """Every stored article: (id, title, source URI, parser)."""
    return conn.execute("SELECT id, title, source_uri, parser FROM articles").fetchall()


def skipped_twins(conn: Connection) -> list[tuple[str, str]]:
    """(source URI, article id) of every input skipped as the same bytes as a stored article;
    none in a corpus without an ingest log."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'ingest_log'").fetchone() is None:
        return []
    return conn.execute("SELECT source_uri, article_id FROM ingest_log WHERE status = 'skipped' AND article_id IS NOT NULL").fetchall()


def has_tables(conn: Connection) -> bool:
    """Whether the corpus has a ``tables`` table (an older or hand-made one may not)."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tables'").fetchone() is not None


def sections(conn: Connection, article_id: str) -> list[tuple[str, str | None, str | None]]:
    """The article's sections in reading order: (section id, number, title)."""
    return conn.execute(_SECTIONS_SQL, (article_id,)).fetchall()


def section_texts(conn: Connection, section_id: str) -> list[str | None]:
    """The texts of a section's contexts in reading order."""
    return [text for (text,) in conn.execute(_CONTEXTS_SQL, (section_id,))]


def reference_count(conn: Connection, article_id: str) -> int:
    """How many reference entries the article has."""
    return int(conn.execute("SELECT COUNT(*) FROM bib_entries WHERE article_id = ?", (article_id,)).fetchone()[0])


def article_columns(conn: Connection, columns: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """``columns`` of every article, NULL for a column an older corpus lacks."""
    present = {row[1] for row in conn.execute("PRAGMA table_info(articles)")}
    listed = ", ".join(name if name in present else "NULL" for name in columns)
    return conn.execute(f"SELECT {listed} FROM articles").fetchall()


def from_xml_count(conn: Connection) -> int:
    """How many articles took their structure from JATS XML (parser ``jats``, ``jats+...``)."""
    return int(conn.execute("SELECT count(*) FROM articles WHERE parser = 'jats' OR parser LIKE 'jats+%'").fetchone()[0])


def formula_labels(conn: Connection, article_id: str) -> tuple[str, ...]:
    """The printed numbers of an article's stored formulas, in stored order."""
    rows = conn.execute("SELECT label FROM formulas WHERE article_id = ? AND label IS NOT NULL ORDER BY rowid", [article_id])
    return tuple(str(row[0]) for row in rows)


__all__ = [
    "article_columns", "formula_labels", "from_xml_count", "has_tables", "reference_count", "section_texts", "sections", "skipped_twins",
    "stored_articles",
]  # fmt: skip
