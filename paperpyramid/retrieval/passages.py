"""Turning context ids into cited passages, one query for any number of them.

A passage's text comes back bounded (:mod:`paperpyramid.db.bounded`) and its ``num_tokens`` is
what it costs against a token budget (:func:`paperpyramid.tokens.stored_cost`): the stored
count, unless the text was cut or the count is implausible for it, whatever a row holds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperpyramid.db.bounded import TITLE_CHARS, is_whole, measures_sizes, size_sql, text_sql
from paperpyramid.retrieval import Citation, SearchHit
from paperpyramid.tokens import stored_cost


def select_hits(conn: Any) -> str:
    """SQL for a context with what its citation needs, the columns :func:`hit_from_row` reads, and
    its rowid last, for ``conn``'s SQLite; add a WHERE."""
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


def hit_from_row(row: Sequence[Any], score: float) -> SearchHit:
    """A hit from a row of :func:`select_hits` (context id, text, its stored size, tokens, article
    id, title, section id, number, section title, page, rowid)."""
    context_id, text, size, num_tokens, article_id, article_title, section_id, section_number, section_title, page_number, _ = row
    text = text or ""
    return SearchHit(
        context_id=context_id,
        text=text,
        score=float(score),
        citation=Citation(article_id, article_title, section_id, section_number, section_title, page_number),
        num_tokens=stored_cost(text, num_tokens, whole=is_whole(text, size)),
    )


def load_hits(conn: Any, scored: Sequence[tuple[str, float]]) -> list[SearchHit]:
    """Cited passages for (context id, score) pairs, in the order given; unknown ids are skipped."""
    if not scored:
        return []
    sql = select_hits(conn) + "WHERE c.id IN (SELECT value FROM json_each(?))"
    rows = {row[0]: row for row in conn.execute(sql, [json.dumps([context_id for context_id, _ in scored])])}
    return [hit_from_row(rows[context_id], score) for context_id, score in scored if context_id in rows]
