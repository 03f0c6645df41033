"""Passages (contexts) as search hands them out: each with what its citation needs, by id, by
rowid under a filter's condition, or a section's in reading order; a paper's reading order; its
outline and a section's neighbours. The references section counts only with
``include_references``, as in search.

Texts and titles come back bounded (:mod:`paperpyramid.db.bounded`), each text beside its stored
size, so that a reader can tell a text cut short from a whole one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperpyramid.db.bounded import TITLE_CHARS, measures_sizes, size_sql, text_sql
from paperpyramid.db.sqlite import Connection

#: A passage with its citation: (context id, bounded text, stored size of the text, stored
#: tokens, article id, bounded article title, section id, section number, bounded section
#: title, page, context rowid)
HitRow = tuple[str, str | None, int | None, int | None, str, str | None, str, str | None, str | None, int | None, int]
#: A section as an outline shows it: (section id, article id, position in the paper's reading
#: order, number, title, level, first page)
HeadingRow = tuple[str, str, int, str | None, str | None, int | None, int | None]
#: A filter's SQL condition over a context joined to its section and article, with its parameters
#: (:func:`paperpyramid.db.queries.search.filter_condition` writes them)
Condition = tuple[str, list[Any]]


def _select_hits(conn: Connection) -> str:
    """The SELECT of :data:`HitRow` for ``conn``'s SQLite; add a WHERE."""
    measured = measures_sizes(conn)
    return f"""
SELECT c.id, {text_sql("c.text", measured=measured)}, {size_sql("c.text", measured)}, c.num_tokens, a.id,
       {text_sql("a.title", TITLE_CHARS, measured)}, s.id, s.section_number, {text_sql("s.section_title", TITLE_CHARS, measured)},
       c.page_number, c.rowid
FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN sections AS s ON s.id = sc.section_id
JOIN article_sections AS ars ON ars.section_id = s.id
JOIN articles AS a ON a.id = ars.article_id
"""


def hit_rows(conn: Connection, context_ids: Sequence[str]) -> list[HitRow]:
    """The passages of ``context_ids`` (:data:`HitRow`), in no particular order; unknown ids are
    left out."""
    sql = _select_hits(conn) + "WHERE c.id IN (SELECT value FROM json_each(?))"
    return conn.execute(sql, [json.dumps(list(context_ids))]).fetchall()


def hit_rows_by_rowid(conn: Connection, rowids: Sequence[int], condition: Condition) -> list[HitRow]:
    """The passages of context ``rowids`` that pass ``condition`` (:data:`HitRow`), in no
    particular order."""
    where, params = condition
    sql = _select_hits(conn) + f"WHERE c.rowid IN (SELECT value FROM json_each(?)) AND {where}"
    return conn.execute(sql, [json.dumps(list(rowids)), *params]).fetchall()


def section_hit_rows(conn: Connection, section_id: str, include_references: bool) -> list[HitRow]:
    """The section's passages in reading order (:data:`HitRow`); none for the references section
    unless ``include_references``."""
    sql = _select_hits(conn) + "WHERE s.id = ? AND (? OR s.section_number IS NOT 'ref') ORDER BY sc.position"
    return conn.execute(sql, [section_id, include_references]).fetchall()


def context_text_page(conn: Connection, context_id: str) -> tuple[str, int | None] | None:
    """A passage's stored text, whole, and its page; None for an unknown id."""
    row = conn.execute("SELECT text, page_number FROM contexts WHERE id = ?", [context_id]).fetchone()
    return None if row is None else (row[0], row[1])


_READING_ORDER = """
SELECT sc.context_id FROM sections_contexts AS sc
JOIN article_sections AS ars ON ars.section_id = sc.section_id
JOIN sections AS s ON s.id = sc.section_id
WHERE ars.article_id = ? AND (? OR s.section_number IS NOT 'ref')
ORDER BY ars.position, sc.position
"""

_READING_ORDER_COSTS = """
SELECT c.id, c.num_tokens, {size} FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
JOIN sections AS s ON s.id = sc.section_id
WHERE ars.article_id = ? AND (? OR s.section_number IS NOT 'ref')
ORDER BY ars.position, sc.position
"""


def reading_order(conn: Connection, article_id: str, include_references: bool) -> list[str]:
    """The ids of the paper's passages in reading order."""
    return [str(row[0]) for row in conn.execute(_READING_ORDER, [article_id, include_references])]


def reading_order_sizes(conn: Connection, article_id: str, include_references: bool) -> list[tuple[str, int | None, int | None]]:
    """The paper's passages in reading order, each as (context id, stored tokens, stored size of
    its text in bytes)."""
    sql = _READING_ORDER_COSTS.format(size=size_sql("c.text", measures_sizes(conn)))
    return conn.execute(sql, [article_id, include_references]).fetchall()


_HEADING = """
SELECT s.id, ars.article_id, ars.position, s.section_number, s.section_title, s.level, s.page_start
FROM sections AS s JOIN article_sections AS ars ON ars.section_id = s.id
"""


def outline(conn: Connection, article_id: str, include_references: bool) -> list[HeadingRow]:
    """The paper's sections in reading order (:data:`HeadingRow`)."""
    return conn.execute(
        f"{_HEADING} WHERE ars.article_id = ? AND (? OR s.section_number IS NOT 'ref') ORDER BY ars.position",
        [article_id, include_references],
    ).fetchall()


def heading(conn: Connection, section_id: str) -> HeadingRow | None:
    """One section by id (:data:`HeadingRow`), or None."""
    row: HeadingRow | None = conn.execute(f"{_HEADING} WHERE s.id = ?", [section_id]).fetchone()
    return row


def neighbour(conn: Connection, article_id: str, position: int, *, after: bool, include_references: bool) -> HeadingRow | None:
    """The section nearest to ``position`` in the paper's reading order, after it or before it
    (:data:`HeadingRow`); None at the paper's end or start."""
    compare, order = (">", "ASC") if after else ("<", "DESC")
    row: HeadingRow | None = conn.execute(
        f"{_HEADING} WHERE ars.article_id = ? AND ars.position {compare} ? AND (? OR s.section_number IS NOT 'ref') "
        f"ORDER BY ars.position {order} LIMIT 1",
        [article_id, position, include_references],
    ).fetchone()
    return row


__all__ = [
    "Condition", "HeadingRow", "HitRow", "context_text_page", "heading", "hit_rows", "hit_rows_by_rowid", "neighbour", "outline",
    "reading_order", "reading_order_sizes", "section_hit_rows",
]  # fmt: skip
