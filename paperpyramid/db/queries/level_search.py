"""Search over the pyramid's distilled levels (insights, concepts, abstracts, recollections):
a level's best FTS5 matches, which articles its items belong to, the items with their texts and
citations, the contexts each drills down to, and which passages a filter lets through.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from paperpyramid.db.bounded import TITLE_CHARS, measures_sizes, size_sql, text_sql
from paperpyramid.db.queries.passages import Condition
from paperpyramid.db.schema import PYRAMID_LEVELS
from paperpyramid.db.sqlite import Connection

#: An item of a level: (item id, bounded text, stored size of the text, stored tokens, article
#: id, bounded article title, page); a recollection has no article, title or page (NULL)
ItemRow = tuple[str, str | None, int | None, int | None, str | None, str | None, int | None]

_SOURCES = {
    "insights": "SELECT context_id, score FROM insights_contexts WHERE insight_id = ? ORDER BY score DESC",
    "concepts": "SELECT ic.context_id, max(ic.score) FROM concepts_insights AS ci JOIN insights_contexts AS ic ON ic.insight_id = ci.insight_id "
    "WHERE ci.concept_id = ? GROUP BY ic.context_id ORDER BY max(ic.score) DESC",
    "recollections": "SELECT ic.context_id, max(ic.score) FROM recollections_sources AS rs JOIN insights_contexts AS ic ON ic.insight_id = rs.insight_id "
    "WHERE rs.recollection_id = ? GROUP BY ic.context_id ORDER BY max(ic.score) DESC",
}


def _level(level: str) -> str:
    """``level``, a table name safe to write into SQL; ValueError for any other name."""
    if level not in PYRAMID_LEVELS:
        raise ValueError(f"no pyramid level {level!r}; the levels are {', '.join(PYRAMID_LEVELS)}")
    return level


def item_owners(conn: Connection, level: str, item_ids: Sequence[str]) -> list[tuple[str, str]]:
    """(item id, article id) for each of ``item_ids`` and each article it belongs to (a
    recollection belongs to every article it draws on)."""
    ids = json.dumps(list(item_ids))
    if _level(level) == "recollections":
        sql = "SELECT recollection_id, article_id FROM recollections_sources WHERE recollection_id IN (SELECT value FROM json_each(?))"
    else:
        sql = f"SELECT id, article_id FROM {level} WHERE id IN (SELECT value FROM json_each(?))"
    return conn.execute(sql, [ids]).fetchall()


def fts_top(conn: Connection, level: str, match: str, fetch: int) -> list[tuple[str, float]]:
    """(item id, BM25 score, higher is better) of the ``fetch`` items of ``level`` that best match
    the FTS5 expression ``match``, best first."""
    level = _level(level)
    rows = conn.execute(
        f"SELECT t.id, -bm25({level}_fts) FROM {level}_fts JOIN {level} AS t ON t.rowid = {level}_fts.rowid "
        f"WHERE {level}_fts MATCH ? ORDER BY bm25({level}_fts) LIMIT ?",
        [match, fetch],
    ).fetchall()
    return [(str(item), float(score)) for item, score in rows]


def item_rows(conn: Connection, level: str, item_ids: Sequence[str]) -> list[ItemRow]:
    """The items of ``item_ids`` (:data:`ItemRow`), in no particular order; unknown ids are left out."""
    ids = json.dumps(list(item_ids))
    measured = measures_sizes(conn)
    columns = f"{text_sql('t.text', measured=measured)}, {size_sql('t.text', measured)}, t.num_tokens"
    if _level(level) == "recollections":
        sql = f"SELECT t.id, {columns}, NULL, NULL, NULL FROM recollections AS t WHERE t.id IN (SELECT value FROM json_each(?))"
    else:
        pages = "t.page_number" if level == "insights" else "NULL"
        sql = (
            f"SELECT t.id, {columns}, a.id, {text_sql('a.title', TITLE_CHARS, measured)}, {pages} FROM {level} AS t JOIN articles AS a ON a.id = t.article_id "
            "WHERE t.id IN (SELECT value FROM json_each(?))"
        )
    return conn.execute(sql, [ids]).fetchall()


def item_sources(conn: Connection, level: str, item_id: str) -> list[tuple[str, float | None]]:
    """(context id, score) of the contexts an item of ``level`` drills down to, the best first: an
    insight's linked contexts, a concept's and a recollection's through their insights (each
    context with its best score). An abstract has none stored: ValueError."""
    if level not in _SOURCES:
        raise ValueError(f"a {level!r} item has no stored sources; the levels with sources are {', '.join(_SOURCES)}")
    return conn.execute(_SOURCES[level], [item_id]).fetchall()


def passages_passing(conn: Connection, context_ids: Sequence[str], condition: Condition) -> set[str]:
    """Those of ``context_ids`` that pass ``condition``, written over ``ars.article_id`` and
    ``s.section_number`` (:func:`paperpyramid.db.queries.search.filter_condition`)."""
    where, params = condition
    return {
        row[0]
        for row in conn.execute(
            "SELECT c.id FROM contexts AS c JOIN sections_contexts AS sc ON sc.context_id = c.id JOIN sections AS s ON s.id = sc.section_id "
            f"JOIN article_sections AS ars ON ars.section_id = s.id WHERE c.id IN (SELECT value FROM json_each(?)) AND {where}",
            [json.dumps(list(context_ids)), *params],
        )
    }


__all__ = ["ItemRow", "fts_top", "item_owners", "item_rows", "item_sources", "passages_passing"]
