"""What a snapshot may publish: its articles counted by licence, a copy cut down to some
licences, and the warning a publisher reads before sharing articles whose licence is unknown or
forbids commercial use.

A licence is one of :data:`paperpyramid.licences.KEYS` (``cc-by``, ``cc0``, ...); an article
whose licence is not known, or is words no key fits, counts as ``unknown``. Cutting a copy
(:func:`keep_licences`) removes every other article with all its rows (:mod:`paperpyramid.db.removal`),
rebuilds the search indexes from what is left so that none holds a trace of what went, and
compacts the file, so the removed text is not in its free pages either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from paperpyramid.db import lexical_index, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.removal import delete_articles
from paperpyramid.db.schema import PYRAMID_LEVELS
from paperpyramid.db.sqlite import connect, load_vec
from paperpyramid.licences import KEYS, NON_COMMERCIAL, licence_key

#: what an article without a known licence counts as
UNKNOWN = "unknown"
#: the licences the warning suggests publishing alone
OPEN = ("cc-by", "cc0")


def licence_of(stored: str | None) -> str:
    """The key a stored licence counts under: itself when it is a key, the key its words name,
    else :data:`UNKNOWN`."""
    if stored in KEYS:
        return stored
    return licence_key(stored) or UNKNOWN


def check_licences(licences: Iterable[str]) -> tuple[str, ...]:
    """The licences a snapshot is asked to publish, as keys; ``ValueError`` naming the known keys
    for any other, or for none at all."""
    asked = tuple(dict.fromkeys(given.strip().lower() for given in licences if given.strip()))
    unknown = [given for given in asked if given not in KEYS]
    if unknown or not asked:
        named = f"unknown licence {', '.join(map(repr, unknown))}" if unknown else "no licence given"
        raise ValueError(f"{named}; choose among: {', '.join(KEYS)}")
    return asked


def licence_counts(conn: Any) -> dict[str, int]:
    """Articles per licence, the keys in :data:`~paperpyramid.licences.KEYS` order, ``unknown`` last."""
    counts: dict[str, int] = {}
    for (stored,) in conn.execute("SELECT licence FROM articles"):
        key = licence_of(stored)
        counts[key] = counts.get(key, 0) + 1
    order = [*KEYS, UNKNOWN]
    return {key: counts[key] for key in order if key in counts}


def licence_warning(counts: Mapping[str, int]) -> str | None:
    """One line for a publisher when the articles counted (:func:`licence_counts`) include some
    whose licence is unknown or non-commercial; None when every one is open."""
    unknown = counts.get(UNKNOWN, 0)
    restricted = [key for key, count in counts.items() if key in NON_COMMERCIAL and count]
    commercial = sum(counts[key] for key in restricted)
    if not unknown and not commercial:
        return None
    parts = []
    if unknown:
        parts.append(f"{_articles(unknown)} {'has' if unknown == 1 else 'have'} no known licence")
    if commercial:
        counted = str(commercial) if unknown else _articles(commercial)
        parts.append(f"{counted} {'is' if commercial == 1 else 'are'} non-commercial ({', '.join(restricted)})")
    return f"warning: {' and '.join(parts)}; publish only open ones with --licence {','.join(OPEN)}"


def _articles(count: int) -> str:
    return f"{count} article{'' if count == 1 else 's'}"


def keep_licences(path: Path, licences: Iterable[str]) -> int:
    """Cut the corpus copy at ``path`` down to the articles under these licences (keys): every
    other article goes with all its rows, vectors and pyramid, the ingest log's rows of those
    articles too; the indexes are rebuilt and the file compacted. The number of articles removed."""
    kept = set(licences)
    conn = connect(path)
    try:
        dropped = [
            str(article_id) for article_id, stored in conn.execute("SELECT id, licence FROM articles") if licence_of(stored) not in kept
        ]
    finally:
        conn.close()
    return drop_articles(path, dropped)


def drop_articles(path: Path, dropped: Iterable[str], *, finish: bool = True) -> int:
    """Remove the articles ``dropped`` from the corpus copy at ``path`` with all their rows, vectors
    and pyramid, and their rows of the ingest log; rebuild the indexes and compact the file
    (:func:`finish_copy`; not when ``finish`` is False, for a copy that will be cut again). The
    number of articles removed."""
    dropped = list(dropped)
    conn = connect(path)
    try:
        load_vec(conn)  # the vector tables are sqlite-vec's
        conn.isolation_level = None  # transactions below are explicit
        conn.execute("BEGIN IMMEDIATE")
        try:
            # each article's vectors deleted apart cost a pass over every vector table (0.5 s an
            # article at 1,500 full-size ones); with the models out of sight the articles go
            # without their vectors, and then every vector whose row is gone goes, one pass a table
            columns = ", ".join(f'"{row[1]}"' for row in conn.execute("PRAGMA table_info(embedders)"))
            models = conn.execute(f"SELECT rowid, {columns} FROM embedders").fetchall()
            conn.execute("DELETE FROM embedders")
            removed = delete_articles(conn, dropped)
            if models:
                conn.executemany(f"INSERT INTO embedders (rowid, {columns}) VALUES ({', '.join('?' * len(models[0]))})", models)
            conn.execute("DELETE FROM ingest_log WHERE article_id IN (SELECT value FROM json_each(?))", [json.dumps(dropped)])
            if removed:
                _delete_orphan_vectors(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.close()
    if removed and finish:
        finish_copy(path)
    return removed


def finish_copy(path: Path) -> None:
    """Rebuild the indexes of the corpus copy at ``path`` from the rows it holds (none keeps a
    trace of a dropped article) and compact it, so that no free page holds one either."""
    conn = connect(path)
    try:
        load_vec(conn)
        conn.isolation_level = None
        conn.execute("BEGIN IMMEDIATE")
        try:
            rebuild_indexes(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("VACUUM")
    finally:
        conn.close()


#: a model's vector tables, named for the table whose rows they hold vectors of: vec_contexts_1, vec_insights_1, ...
_VECTOR_TABLE = re.compile(r"^vec_(contexts|insights|concepts|abstracts|recollections)_\d+$")


def _delete_orphan_vectors(conn: Any) -> None:
    """Every vector whose context (or insight, concept, abstract, recollection) is gone."""
    for table, sql in conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'"
    ).fetchall():
        level = _VECTOR_TABLE.match(str(table))
        if level is None or "USING VEC0" not in str(sql or "").upper():
            continue
        key = str(conn.execute(f"SELECT name FROM pragma_table_info('{table}') ORDER BY cid LIMIT 1").fetchone()[0])  # the row's id
        conn.execute(f'DELETE FROM {table} WHERE "{key}" NOT IN (SELECT id FROM {level.group(1)})')


def rebuild_indexes(conn: Any) -> None:
    """Every index made again from the rows that remain: the full-text indexes (a deleted row's
    terms stay in FTS5's segments until they merge), the BM25 index and the approximate vector
    indexes (their lists and float copies)."""
    for table in ("contexts", *PYRAMID_LEVELS):
        conn.execute(f"INSERT INTO {table}_fts ({table}_fts) VALUES ('rebuild')")
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [lexical_index.META]).fetchone() is not None:
        lexical_index.update(conn, lexical_index.WEIGHTS, rebuild=True)
    for embedder in db_vectors.embedders(conn):
        if vector_index.index_status(conn, embedder).exists:
            vector_index.build_index(conn, embedder, retrain=True)


__all__ = [
    "OPEN",
    "UNKNOWN",
    "check_licences",
    "drop_articles",
    "finish_copy",
    "keep_licences",
    "licence_counts",
    "licence_of",
    "licence_warning",
    "rebuild_indexes",
]
