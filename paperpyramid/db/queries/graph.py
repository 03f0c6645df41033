"""The citation graph's reads: an article's reference entries, the entries naming it, the
passages citing an entry, and the citations inside passages. Rows come back as tuples in the
column order each function's docstring gives; :mod:`paperpyramid.citation_graph` and the MCP
``citations`` tool make them into links."""

from __future__ import annotations

import json
from collections.abc import Sequence

from paperpyramid.db.bounded import measures_sizes, text_sql
from paperpyramid.db.sqlite import Connection

#: (entry id, citing article id, citing title, raw entry, entry title, cited article id, cited title)
EntryRow = tuple[str, str, str | None, str, str | None, str | None, str | None]
#: (entry id, context id, page, section title, bounded context text, marker start, marker end)
CitingRow = tuple[str, str, int | None, str | None, str, int, int]
#: (context id, cited article id, cited title, bounded context text, marker start, marker end)
FollowableRow = tuple[str, str, str | None, str, int, int]
#: (entry id, raw entry, cited article id, cited title (the article's, else the entry's), context text, marker start, marker end)
PassageCitationRow = tuple[str, str | None, str | None, str | None, str, int, int]

_LINKS = """
SELECT b.id, b.article_id, citing.title, b.raw, b.title, b.cited_article_id, cited.title
FROM bib_entries AS b
JOIN articles AS citing ON citing.id = b.article_id
LEFT JOIN articles AS cited ON cited.id = b.cited_article_id
"""

_PASSAGES = """
SELECT ci.bib_entry_id, c.id, c.page_number, c.section_title, {text}, ci.char_start, ci.char_end
FROM citations AS ci
JOIN contexts AS c ON c.id = ci.context_id
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
WHERE ci.bib_entry_id IN (SELECT value FROM json_each(?))
ORDER BY ars.position, sc.position, ci.char_start
"""


def entries_of(conn: Connection, article_id: str, *, in_corpus: bool = False) -> list[EntryRow]:
    """The entries of ``article_id``'s reference list in printed order (:data:`EntryRow`); only
    those naming an article of the corpus with ``in_corpus``."""
    where = "WHERE b.article_id = ?" + (" AND b.cited_article_id IS NOT NULL" if in_corpus else "")
    return conn.execute(f"{_LINKS} {where} ORDER BY b.position", [article_id]).fetchall()


def entries_naming(conn: Connection, article_id: str) -> list[EntryRow]:
    """The entries, in other articles, that name ``article_id`` (:data:`EntryRow`), the oldest
    citing article first, each article's in printed order."""
    return conn.execute(f"{_LINKS} WHERE b.cited_article_id = ? ORDER BY citing.created_at, b.position", [article_id]).fetchall()


def citing_passages(conn: Connection, entry_ids: Sequence[str]) -> list[CitingRow]:
    """The passages citing any of ``entry_ids`` (:data:`CitingRow`), in reading order."""
    sql = _PASSAGES.format(text=text_sql("c.text", measured=measures_sizes(conn)))
    return conn.execute(sql, [json.dumps(list(entry_ids))]).fetchall()


def citing_articles(conn: Connection, article_id: str) -> list[str]:
    """The ids of the articles that cite ``article_id``, oldest first."""
    rows = conn.execute(
        "SELECT DISTINCT b.article_id FROM bib_entries AS b JOIN articles AS a ON a.id = b.article_id "
        "WHERE b.cited_article_id = ? ORDER BY a.created_at", [article_id]
    )  # fmt: skip
    return [str(row[0]) for row in rows]


def followable(conn: Connection, context_ids: Sequence[str]) -> list[FollowableRow]:
    """The citations in ``context_ids`` that name an article of the corpus (:data:`FollowableRow`),
    by context, then in text order."""
    return conn.execute(
        """
        SELECT ci.context_id, b.cited_article_id, a.title, {text}, ci.char_start, ci.char_end
        FROM citations AS ci
        JOIN bib_entries AS b ON b.id = ci.bib_entry_id
        JOIN articles AS a ON a.id = b.cited_article_id
        JOIN contexts AS c ON c.id = ci.context_id
        WHERE ci.context_id IN (SELECT value FROM json_each(?))
        ORDER BY ci.context_id, ci.char_start
        """.format(text=text_sql("c.text", measured=measures_sizes(conn))),
        [json.dumps(list(context_ids))],
    ).fetchall()


def citations_in(conn: Connection, context_id: str) -> list[PassageCitationRow]:
    """Every citation in one passage, resolved or not (:data:`PassageCitationRow`), in text order."""
    return conn.execute(
        """
        SELECT ci.bib_entry_id, b.raw, b.cited_article_id, coalesce(a.title, b.title), c.text, ci.char_start, ci.char_end
        FROM citations AS ci JOIN bib_entries AS b ON b.id = ci.bib_entry_id JOIN contexts AS c ON c.id = ci.context_id
        LEFT JOIN articles AS a ON a.id = b.cited_article_id
        WHERE ci.context_id = ? ORDER BY ci.char_start
        """,
        [context_id],
    ).fetchall()


__all__ = [
    "CitingRow", "EntryRow", "FollowableRow", "PassageCitationRow", "citations_in", "citing_articles", "citing_passages", "entries_naming",
    "entries_of", "followable",
]  # fmt: skip
