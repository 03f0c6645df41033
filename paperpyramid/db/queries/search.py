"""What search asks of the contexts beside their passages: FTS5's best matches, the articles'
facets a filter reads, a filter's SQL condition, and which contexts pass it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperpyramid.db import lexical_index
from paperpyramid.db.queries.passages import Condition
from paperpyramid.db.sqlite import Connection

_WEIGHTS = ", ".join(str(weight) for weight in lexical_index.WEIGHTS)

# FTS5 ranks inside its own table first; only the top rows are joined to their sections and
# articles (joining every match before sorting cost 8-9 times more at 1M contexts)
_TOP = f"SELECT rowid, bm25(contexts_fts, {_WEIGHTS}) AS rank FROM contexts_fts WHERE contexts_fts MATCH ? ORDER BY rank LIMIT ?"


def fts_top(conn: Connection, match: str, fetch: int) -> list[tuple[int, float]]:
    """(rowid, rank) of the ``fetch`` contexts that best match the FTS5 expression ``match``, best
    first, rank being FTS5's ``bm25()`` with the index's column weights (lower is better)."""
    return [(int(rowid), float(rank)) for rowid, rank in conn.execute(_TOP, [match, fetch])]


def article_facets(conn: Connection) -> list[tuple[str, str | None, str | None, str | None]]:
    """Every article as a filter sees it: (id, publication date, journal, publication types as a
    JSON list)."""
    return conn.execute("SELECT id, date_published, journal, publication_types FROM articles").fetchall()


def filter_condition(
    include_references: bool, allowed: Sequence[str] | None, article: str = "a.id", section_number: str = "s.section_number"
) -> Condition:
    """A SQL condition (and its parameters) over a row joined to its article (``article`` names
    its id) and section (``section_number``): the references section left out unless
    ``include_references``, and only the ``allowed`` articles unless that is None."""
    parts: list[str] = []
    params: list[Any] = []
    if not include_references:
        parts.append(f"{section_number} IS NOT 'ref'")
    if allowed is not None:
        parts.append(f"{article} IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(list(allowed)))
    return (" AND ".join(parts) or "1"), params


_CONTEXTS_WHERE = """
SELECT c.id FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN sections AS s ON s.id = sc.section_id
JOIN article_sections AS ars ON ars.section_id = s.id
JOIN articles AS a ON a.id = ars.article_id
WHERE {condition}
"""


def contexts_passing(conn: Connection, condition: Condition, limit: int) -> list[str]:
    """The ids of at most ``limit`` contexts that pass ``condition`` (a :func:`filter_condition`)."""
    where, params = condition
    rows = conn.execute(_CONTEXTS_WHERE.format(condition=where) + " LIMIT ?", [*params, limit])
    return [str(row[0]) for row in rows]


def which_pass(conn: Connection, context_ids: Sequence[str], condition: Condition) -> set[str]:
    """Those of ``context_ids`` that pass ``condition`` (a :func:`filter_condition`)."""
    where, params = condition
    sql = _CONTEXTS_WHERE.format(condition=f"c.id IN (SELECT value FROM json_each(?)) AND {where}")
    return {str(row[0]) for row in conn.execute(sql, [json.dumps(list(context_ids)), *params])}


__all__ = ["article_facets", "contexts_passing", "filter_condition", "fts_top", "which_pass"]
