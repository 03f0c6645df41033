"""Turning context ids into cited passages, one query for any number of them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperpyramid.retrieval import Citation, SearchHit

#: a context with what its citation needs, the columns :func:`hit_from_row` reads; add a WHERE
SELECT_HITS = """
SELECT c.id, c.text, c.num_tokens, a.id, a.title, s.id, s.section_number, s.section_title, c.page_number
FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN sections AS s ON s.id = sc.section_id
JOIN article_sections AS ars ON ars.section_id = s.id
JOIN articles AS a ON a.id = ars.article_id
"""
_SELECT = SELECT_HITS + "WHERE c.id IN (SELECT value FROM json_each(?))"


def hit_from_row(row: Sequence[Any], score: float) -> SearchHit:
    """A hit from a row of (context id, text, tokens, article id, title, section id, number,
    section title, page)."""
    context_id, text, num_tokens, article_id, article_title, section_id, section_number, section_title, page_number = row
    return SearchHit(
        context_id=context_id,
        text=text,
        score=float(score),
        citation=Citation(article_id, article_title, section_id, section_number, section_title, page_number),
        num_tokens=int(num_tokens),
    )


def load_hits(conn: Any, scored: Sequence[tuple[str, float]]) -> list[SearchHit]:
    """Cited passages for (context id, score) pairs, in the order given; unknown ids are skipped."""
    if not scored:
        return []
    rows = {row[0]: row for row in conn.execute(_SELECT, [json.dumps([context_id for context_id, _ in scored])])}
    return [hit_from_row(rows[context_id], score) for context_id, score in scored if context_id in rows]
