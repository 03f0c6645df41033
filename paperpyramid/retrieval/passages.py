"""Turning context ids into cited passages, one query for any number of them.

A passage's text comes back bounded (:mod:`paperpyramid.db.bounded`) and its ``num_tokens`` is
what it costs against a token budget (:func:`paperpyramid.tokens.stored_cost`): the stored
count, unless the text was cut or the count is implausible for it, whatever a row holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paperpyramid.db.bounded import is_whole
from paperpyramid.db.queries import passages
from paperpyramid.db.sqlite import Connection
from paperpyramid.retrieval import Citation, SearchHit
from paperpyramid.tokens import stored_cost


def hit_from_row(row: Sequence[Any], score: float) -> SearchHit:
    """A hit from a :data:`~paperpyramid.db.queries.passages.HitRow` (context id, text, its stored
    size, tokens, article id, title, section id, number, section title, page, rowid)."""
    context_id, text, size, num_tokens, article_id, article_title, section_id, section_number, section_title, page_number, _ = row
    text = text or ""
    return SearchHit(
        context_id=context_id,
        text=text,
        score=float(score),
        citation=Citation(article_id, article_title, section_id, section_number, section_title, page_number),
        num_tokens=stored_cost(text, num_tokens, whole=is_whole(text, size)),
    )


def load_hits(conn: Connection, scored: Sequence[tuple[str, float]]) -> list[SearchHit]:
    """Cited passages for (context id, score) pairs, in the order given; unknown ids are skipped."""
    if not scored:
        return []
    rows = {row[0]: row for row in passages.hit_rows(conn, [context_id for context_id, _ in scored])}
    return [hit_from_row(rows[context_id], score) for context_id, score in scored if context_id in rows]
