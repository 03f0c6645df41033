"""Which of the pyramid's distilled levels hold anything for a set of articles: the ``pyramid``
strategy searches only those (:mod:`paperpyramid.asking.pyramid_agent`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from paperpyramid.db.schema import PYRAMID_LEVELS
from paperpyramid.db.sqlite import Connection

#: the table that says which articles a level's items belong to: a recollection belongs to
#: every article it connects
_OWNERS = {"recollections": "recollections_sources"}


def levels_holding(conn: Connection, levels: Sequence[str], article_ids: Sequence[str] | None) -> list[str]:
    """Those of ``levels``, in their order, that hold an item of one of ``article_ids`` (of any
    article when None)."""
    unknown = [level for level in levels if level not in PYRAMID_LEVELS]
    if unknown:
        raise ValueError(f"no pyramid level {unknown[0]!r}; the levels are {', '.join(PYRAMID_LEVELS)}")
    scope, params = (
        ("", []) if article_ids is None else (" WHERE article_id IN (SELECT value FROM json_each(?))", [json.dumps(article_ids)])
    )
    return [level for level in levels if conn.execute(f"SELECT 1 FROM {_OWNERS.get(level, level)}{scope} LIMIT 1", params).fetchone()]
