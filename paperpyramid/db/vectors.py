"""Context vectors in the corpus file: one sqlite-vec ``vec0`` table per embedding model.

``embedders`` lists the models that have embedded contexts here; each has its own table
(``vec_contexts_1``, ``vec_contexts_2``, …) keyed by context id, so vectors of two models never
mix and switching model leaves the other model's vectors where they are. Vectors are unit length
and compared by cosine distance (0 = same direction, 2 = opposite).

Writes go through the single writer's connection (``CorpusWriter``), in the transaction of the
article they belong to, or of one batch of the ``embed`` command.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.db.sqlite import OperationalError, load_vec

_TABLE = re.compile(r"^vec_(contexts|insights|concepts|abstracts|recollections)_\d+$")

#: the distilled levels that get vectors beside the contexts' (db/schema.PYRAMID_LEVELS)
LEVELS: tuple[str, ...] = ("insights", "concepts", "abstracts", "recollections")


@dataclass(frozen=True, slots=True)
class EmbedderRow:
    """A model that has embedded contexts in this corpus, and where its vectors are."""

    name: str
    dimension: int
    window: int | None
    vec_table: str


@dataclass(frozen=True, slots=True)
class ContextVectors:
    """Vectors for a document's contexts, as a worker hands them to the writer: one row per
    context, in the order the contexts are stored (sections in order, then within each)."""

    embedder: str
    dimension: int
    window: int | None
    vectors: npt.NDArray[np.float32]


def embedders(conn: Any) -> list[EmbedderRow]:
    """The models with vectors in this corpus, oldest first."""
    rows = conn.execute("SELECT name, dimension, window, vec_table FROM embedders ORDER BY created_at, rowid")
    return [EmbedderRow(*row) for row in rows]


def find_embedder(conn: Any, name: str) -> EmbedderRow | None:
    row = conn.execute("SELECT name, dimension, window, vec_table FROM embedders WHERE name = ?", [name]).fetchone()
    return None if row is None else EmbedderRow(*row)


def ensure_embedder(conn: Any, name: str, dimension: int, window: int | None) -> EmbedderRow:
    """The model's row, creating it and its vec0 table on first use (in the caller's
    transaction). A model already registered with another dimension is an error: its stored
    vectors could not be compared with the new ones."""
    found = find_embedder(conn, name)
    if found is not None:
        if found.dimension != dimension:
            raise ValueError(
                f"embedder {name!r} stored {found.dimension}-d vectors here, but now gives {dimension}-d ones; give it another name"
            )
        return found
    load_vec(conn)
    number = int(conn.execute("SELECT count(*) FROM embedders").fetchone()[0]) + 1
    table = f"vec_contexts_{number}"
    while conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [table]).fetchone():
        number += 1
        table = f"vec_contexts_{number}"
    conn.execute(
        f"CREATE VIRTUAL TABLE {table} USING vec0(context_id TEXT PRIMARY KEY, embedding float[{int(dimension)}] distance_metric=cosine)"
    )
    conn.execute(
        "INSERT INTO embedders (name, dimension, window, vec_table, created_at) VALUES (?, ?, ?, ?, ?)",
        [name, dimension, window, table, datetime.now(UTC).isoformat(timespec="seconds")],
    )
    return EmbedderRow(name, dimension, window, table)


def insert_vectors(conn: Any, embedder: EmbedderRow, context_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
    """Store one vector per context (in the caller's transaction). A context that already has a
    vector from this model is an error, so a vector is never written twice."""
    if len(context_ids) != len(vectors):
        raise ValueError(f"{len(vectors)} vectors for {len(context_ids)} contexts")
    if len(context_ids) == 0:
        return
    _check_rows(vectors, embedder, context_ids)
    table = checked_table(embedder.vec_table)
    rows = np.ascontiguousarray(vectors, dtype=np.float32)
    conn.executemany(
        f"INSERT INTO {table} (context_id, embedding) VALUES (?, ?)", zip(context_ids, (row.tobytes() for row in rows), strict=True)
    )


def with_vectors(conn: Any, embedder: EmbedderRow, context_ids: Sequence[str]) -> set[str]:
    """Which of these contexts already have a vector from ``embedder``."""
    table = checked_table(embedder.vec_table)
    found: set[str] = set()
    for start in range(0, len(context_ids), 500):
        chunk = list(context_ids[start : start + 500])
        found |= {
            str(row[0]) for row in conn.execute(f"SELECT context_id FROM {table} WHERE context_id IN ({','.join('?' * len(chunk))})", chunk)
        }
    return found


def delete_vectors(conn: Any, context_ids: Sequence[str]) -> None:
    """Remove these contexts' vectors from every model's table (in the caller's transaction;
    sqlite-vec zeroes a deleted vector's bytes)."""
    if not context_ids:
        return
    load_vec(conn)
    for embedder in embedders(conn):
        table = checked_table(embedder.vec_table)
        for start in range(0, len(context_ids), 500):
            chunk = list(context_ids[start : start + 500])
            conn.execute(f"DELETE FROM {table} WHERE context_id IN ({','.join('?' * len(chunk))})", chunk)


def _check_rows(vectors: npt.NDArray[np.float32], embedder: EmbedderRow, ids: Sequence[str]) -> None:
    """Refuse, before anything is written, vectors that no distance can be measured to: of
    another size than the model's, NaN or infinite, or all zeros (sqlite-vec stores them, and
    every search then meets a NULL distance)."""
    if vectors.ndim != 2 or vectors.shape[1] != embedder.dimension:
        size = f"{vectors.shape[1]}-d vectors" if vectors.ndim == 2 else f"an array of shape {vectors.shape}"
        raise ValueError(f"{size} for {embedder.name!r}, which stores {embedder.dimension}-d ones")
    finite = np.isfinite(vectors).all(axis=1)
    bad = np.flatnonzero(~finite | ~np.any(vectors != 0, axis=1))
    if len(bad):
        raise ValueError(
            f"refusing to store {len(bad)} vectors of {embedder.name!r} that are NaN, infinite or all zeros (first: {ids[int(bad[0])]})"
        )


def contexts_without_vectors(conn: Any, embedder: EmbedderRow | None, limit: int, after_rowid: int = 0) -> list[tuple[int, str, str]]:
    """Up to ``limit`` (context rowid, id, text) triples past ``after_rowid`` that have no vector
    from ``embedder`` yet, in storage order (all contexts when the model has none here). Pass
    the last rowid seen to go on from there: each batch then costs the same, however many
    contexts are embedded already."""
    if embedder is None:
        return list(conn.execute("SELECT rowid, id, text FROM contexts WHERE rowid > ? ORDER BY rowid LIMIT ?", [after_rowid, limit]))
    table = checked_table(embedder.vec_table)
    return list(
        conn.execute(
            f"SELECT c.rowid, c.id, c.text FROM contexts AS c WHERE c.rowid > ? AND NOT EXISTS "
            f"(SELECT 1 FROM {table} AS v WHERE v.context_id = c.id) ORDER BY c.rowid LIMIT ?",
            [after_rowid, limit],
        )
    )


def count_vectors(conn: Any, embedder: EmbedderRow) -> int:
    """Vectors stored for the model: one per embedded context."""
    table = checked_table(embedder.vec_table)
    try:  # sqlite-vec's plain rowid table counts far faster than the vec0 table itself
        return int(conn.execute(f"SELECT count(*) FROM {table}_rowids").fetchone()[0])
    except OperationalError:  # another sqlite-vec layout
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def missing_vectors(conn: Any, name: str) -> tuple[int, int]:
    """(contexts without a vector of model ``name``, all contexts)."""
    total = int(conn.execute("SELECT count(*) FROM contexts").fetchone()[0])
    row = find_embedder(conn, name)
    return (total if row is None else total - count_vectors(conn, row)), total


#: sqlite-vec answers a KNN query for at most this many neighbours
KNN_LIMIT = 4096


def nearest(conn: Any, embedder: EmbedderRow, query: npt.NDArray[np.float32], k: int) -> list[tuple[str, float]]:
    """The ``k`` contexts nearest to ``query`` by cosine distance, exact (every vector is
    compared), nearest first, as (context id, distance)."""
    return _nearest(conn, checked_table(embedder.vec_table), "context_id", query, k)


def _nearest(conn: Any, table: str, key: str, query: npt.NDArray[np.float32], k: int) -> list[tuple[str, float]]:
    blob = np.ascontiguousarray(query, dtype=np.float32).tobytes()
    if k <= KNN_LIMIT:
        sql = f"SELECT {key}, distance FROM {table} WHERE embedding MATCH ? AND k = ? ORDER BY distance"
    else:  # past the KNN limit: a plain scan, sorted
        sql = f"SELECT {key}, vec_distance_cosine(embedding, ?) AS distance FROM {table} ORDER BY distance LIMIT ?"
    # a NaN or zero vector (stored before such vectors were refused) has no distance: skipped
    return [(str(item_id), float(distance)) for item_id, distance in conn.execute(sql, [blob, int(k)]) if distance is not None]


# The distilled levels: one vec0 table per level and model, named after the model's context
# table (vec_insights_2 beside vec_contexts_2), keyed by the item's id.


def level_table(embedder: EmbedderRow, level: str) -> str:
    """The vec0 table holding ``embedder``'s vectors of a distilled level."""
    if level not in LEVELS:
        raise ValueError(f"unknown pyramid level {level!r}; choose one of: {', '.join(LEVELS)}")
    return checked_table(embedder.vec_table.replace("vec_contexts_", f"vec_{level}_", 1))


def has_level_table(conn: Any, embedder: EmbedderRow, level: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [level_table(embedder, level)]).fetchone() is not None


def insert_level_vectors(conn: Any, embedder: EmbedderRow, level: str, item_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
    """Store one vector per distilled item (in the caller's transaction), creating the level's
    table on first use."""
    if len(item_ids) != len(vectors):
        raise ValueError(f"{len(vectors)} vectors for {len(item_ids)} {level}")
    if len(item_ids) == 0:
        return
    _check_rows(vectors, embedder, item_ids)
    table = level_table(embedder, level)
    load_vec(conn)
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING vec0(item_id TEXT PRIMARY KEY, embedding float[{int(embedder.dimension)}] distance_metric=cosine)"
    )
    rows = np.ascontiguousarray(vectors, dtype=np.float32)
    conn.executemany(f"INSERT INTO {table} (item_id, embedding) VALUES (?, ?)", zip(item_ids, (row.tobytes() for row in rows), strict=True))


def delete_level_vectors(conn: Any, level: str, item_ids: Sequence[str]) -> None:
    """Remove these items' vectors from every model's table of the level (in the caller's transaction)."""
    if not item_ids:
        return
    for embedder in embedders(conn):
        if has_level_table(conn, embedder, level):
            table = level_table(embedder, level)
            for start in range(0, len(item_ids), 500):
                chunk = list(item_ids[start : start + 500])
                conn.execute(f"DELETE FROM {table} WHERE item_id IN ({','.join('?' * len(chunk))})", chunk)


def nearest_items(conn: Any, embedder: EmbedderRow, level: str, query: npt.NDArray[np.float32], k: int) -> list[tuple[str, float]]:
    """The ``k`` items of a distilled level nearest to ``query`` (exact), as (item id, distance);
    none when the level has no vectors of this model."""
    if not has_level_table(conn, embedder, level):
        return []
    return _nearest(conn, level_table(embedder, level), "item_id", query, k)


def distances(conn: Any, embedder: EmbedderRow, query: npt.NDArray[np.float32], context_ids: Sequence[str]) -> dict[str, float]:
    """Cosine distance from ``query`` to each of these contexts that has a vector."""
    if not context_ids:
        return {}
    table = checked_table(embedder.vec_table)
    blob = np.ascontiguousarray(query, dtype=np.float32).tobytes()
    rows = [
        row
        for start in range(0, len(context_ids), 500)  # bound the statement's variables
        for row in conn.execute(
            f"SELECT context_id, vec_distance_cosine(embedding, ?) FROM {table} WHERE context_id IN ({','.join('?' * len(context_ids[start : start + 500]))})",
            [blob, *context_ids[start : start + 500]],
        )
    ]
    return {str(context_id): float(distance) for context_id, distance in rows if distance is not None}


def checked_table(table: str) -> str:
    # table names come from the embedders table; never let one be anything but ours
    if not _TABLE.fullmatch(table):
        raise ValueError(f"not a vector table: {table!r}")
    return table
