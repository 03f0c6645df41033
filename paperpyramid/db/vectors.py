"""Context vectors in the corpus file: one sqlite-vec ``vec0`` table per embedding model.

``embedders`` lists the models that have embedded contexts here; each has its own table
(``vec_contexts_1``, ``vec_contexts_2``, …) keyed by context id, so vectors of two models never
mix and switching model leaves the other model's vectors where they are. Vectors are unit length
and compared by cosine distance (0 = same direction, 2 = opposite).

How a model's vectors are stored is chosen when its table is made (:data:`STORAGES`):

- ``int8`` (default): sqlite-vec ``int8[D]``, one byte per dimension, a quarter of float32. Each
  vector is scaled so that its largest coordinate is ±127 and rounded. Cosine distance ignores a
  vector's length, so sqlite-vec compares the codes as they are (the query is coded the same way)
  and the scale needs no column: a decoded vector is the codes brought back to unit length.
  Scales per dimension were not used: they would change the codes' lengths and so the cosine
  sqlite-vec measures.
- ``float32``: sqlite-vec ``float[D]``, as corpora made before ``int8`` hold them.

Every reader takes the format from the table's declaration (:func:`table_storage`), so a corpus
holding either opens and searches alike; :func:`convert_storage` rewrites a model's tables in the
other format.

Writes go through the single writer's connection (``CorpusWriter``), in the transaction of the
article they belong to, or of one batch of the ``embed`` command.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from paperpyramid.db.sqlite import OperationalError, load_vec, savepoint

_TABLE = re.compile(r"^vec_(contexts|insights|concepts|abstracts|recollections)_\d+$")
_INT8_COLUMN = re.compile(r"\bembedding\s+int8\[", re.IGNORECASE)  # in a vec0 table's declaration

#: the distilled levels that get vectors beside the contexts' (db/schema.PYRAMID_LEVELS)
LEVELS: tuple[str, ...] = ("insights", "concepts", "abstracts", "recollections")

#: how stored vectors are encoded (see the module's docstring)
VectorStorage = Literal["int8", "float32"]
STORAGES: tuple[VectorStorage, ...] = get_args(VectorStorage)
#: the format of a model's first table unless the caller asks for another
DEFAULT_STORAGE: VectorStorage = "int8"
_COLUMN = {"int8": "int8", "float32": "float"}
#: vectors in one of sqlite-vec's chunks (one BLOB each) in a table made here; sqlite-vec's
#: default is 1,024. The approximate index reads single vectors from the chunks
#: (db/vec_chunks), and SQLite walks a chunk's overflow pages up to the offset read: at 100k
#: int8 vectors 100 reads cost 1.7 ms at 128 against 4.1 ms at 1,024, exact search the same.
#: A table made with another size keeps it.
CHUNK_SIZE = 128
F32 = npt.NDArray[np.float32]


def encode(vectors: npt.NDArray[np.floating[Any]], storage: VectorStorage) -> list[bytes]:
    """One BLOB per row of ``vectors`` in ``storage``'s format (int8: each row scaled so that
    its largest coordinate is ±127, then rounded)."""
    rows = np.ascontiguousarray(np.atleast_2d(vectors), dtype=np.float32)
    if storage == "float32":
        return [row.tobytes() for row in rows]
    peak = np.abs(rows).max(axis=1, keepdims=True)
    codes = np.clip(np.rint(rows * (127.0 / np.where(peak > 0, peak, 1.0))), -127, 127).astype(np.int8)
    return [row.tobytes() for row in codes]


def decode(blobs: Sequence[bytes], dimension: int) -> F32:
    """The vectors these BLOBs hold, one row each, as float32: int8 codes brought back to unit
    length, float32 as stored (unit length as written). The format is read from each BLOB's size."""
    sizes = {len(blob) for blob in blobs}
    if sizes == {dimension}:  # one format throughout (the usual case): one frombuffer
        codes = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), dimension).astype(np.float32)
        norms = np.linalg.norm(codes, axis=1, keepdims=True)
        return (codes / np.where(norms > 0, norms, 1.0)).astype(np.float32, copy=False)
    if sizes == {4 * dimension}:
        return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dimension)  # read-only, as stored
    out = np.empty((len(blobs), dimension), dtype=np.float32)
    for index, blob in enumerate(blobs):
        if len(blob) == dimension:
            out[index] = np.frombuffer(blob, dtype=np.int8)
        elif len(blob) == 4 * dimension:
            out[index] = np.frombuffer(blob, dtype=np.float32)
        else:
            raise ValueError(f"a stored vector of {len(blob)} bytes is neither {dimension} int8 nor float32 values")
    int8_rows = np.fromiter((len(blob) == dimension for blob in blobs), dtype=bool, count=len(blobs))
    if int8_rows.any():
        norms = np.linalg.norm(out[int8_rows], axis=1, keepdims=True)
        out[int8_rows] /= np.where(norms > 0, norms, 1.0)
    return out


def as_compared(query: npt.NDArray[np.floating[Any]], storage: VectorStorage) -> F32:
    """The query as sqlite-vec compares it with vectors stored as ``storage`` (int8: coded like
    them, then decoded), so that distances computed in numpy are the ones sqlite-vec gives."""
    compared: F32 = decode(encode(np.reshape(query, (1, -1)), storage), int(np.size(query)))[0]
    return compared


def table_storage(conn: Any, table: str) -> VectorStorage:
    """The format of a vec0 table's vectors, from its declaration (float32 when it is not there)."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [checked_table(table)]).fetchone()
    return declared_storage(None if row is None else str(row[0]))


def declared_storage(sql: str | None) -> VectorStorage:
    """The format of a vec0 table's vectors, from its ``CREATE`` statement (float32 when it says
    none): what two tables must share for their vectors to be compared, whatever else their
    statements say (the size of sqlite-vec's chunks)."""
    return "int8" if sql is not None and _INT8_COLUMN.search(sql) else "float32"


def _vec_table_sql(table: str, key: str, dimension: int, storage: VectorStorage) -> str:
    return (
        f"CREATE VIRTUAL TABLE {checked_table(table)} USING vec0({key} TEXT PRIMARY KEY, "
        f"embedding {_COLUMN[storage]}[{int(dimension)}] distance_metric=cosine, chunk_size={CHUNK_SIZE})"
    )


def _value(storage: VectorStorage) -> str:
    """The SQL that reads a bound BLOB as a vector of ``storage``'s type."""
    return "vec_int8(?)" if storage == "int8" else "?"


@dataclass(frozen=True, slots=True)
class EmbedderRow:
    """A model that has embedded contexts in this corpus, and where its vectors are."""

    name: str
    dimension: int
    window: int | None
    vec_table: str
    storage: VectorStorage = "float32"


@dataclass(frozen=True, slots=True)
class ContextVectors:
    """Vectors for a document's contexts, as a worker hands them to the writer: one row per
    context, in the order the contexts are stored (sections in order, then within each)."""

    embedder: str
    dimension: int
    window: int | None
    vectors: npt.NDArray[np.float32]
    storage: VectorStorage = DEFAULT_STORAGE


_EMBEDDER_SQL = (
    "SELECT e.name, e.dimension, e.window, e.vec_table, m.sql FROM embedders AS e LEFT JOIN sqlite_master AS m ON m.name = e.vec_table"
)


def _row(name: str, dimension: int, window: int | None, vec_table: str, sql: str | None) -> EmbedderRow:
    return EmbedderRow(name, dimension, window, vec_table, declared_storage(sql))


def embedders(conn: Any) -> list[EmbedderRow]:
    """The models with vectors in this corpus, oldest first."""
    return [_row(*row) for row in conn.execute(f"{_EMBEDDER_SQL} ORDER BY e.created_at, e.rowid")]


def find_embedder(conn: Any, name: str) -> EmbedderRow | None:
    row = conn.execute(f"{_EMBEDDER_SQL} WHERE e.name = ?", [name]).fetchone()
    return None if row is None else _row(*row)


def ensure_embedder(conn: Any, name: str, dimension: int, window: int | None, storage: VectorStorage = DEFAULT_STORAGE) -> EmbedderRow:
    """The model's row, creating it and its vec0 table on first use (in the caller's
    transaction), its vectors stored as ``storage``; a model already here keeps the format it
    has. A model already registered with another dimension is an error: its stored vectors
    could not be compared with the new ones."""
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
    if storage not in STORAGES:
        raise ValueError(f"unknown vector storage {storage!r}; choose one of: {', '.join(STORAGES)}")
    conn.execute(_vec_table_sql(table, "context_id", dimension, storage))
    conn.execute(
        "INSERT INTO embedders (name, dimension, window, vec_table, created_at) VALUES (?, ?, ?, ?, ?)",
        [name, dimension, window, table, datetime.now(UTC).isoformat(timespec="seconds")],
    )
    return EmbedderRow(name, dimension, window, table, storage)


def insert_vectors(conn: Any, embedder: EmbedderRow, context_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
    """Store one vector per context (in the caller's transaction). A context that already has a
    vector from this model is an error, so a vector is never written twice."""
    if len(context_ids) != len(vectors):
        raise ValueError(f"{len(vectors)} vectors for {len(context_ids)} contexts")
    if len(context_ids) == 0:
        return
    _check_rows(vectors, embedder, context_ids)
    table = checked_table(embedder.vec_table)
    conn.executemany(
        f"INSERT INTO {table} (context_id, embedding) VALUES (?, {_value(embedder.storage)})",
        zip(context_ids, encode(vectors, embedder.storage), strict=True),
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
    return _nearest(conn, checked_table(embedder.vec_table), "context_id", embedder.storage, query, k)


def _nearest(conn: Any, table: str, key: str, storage: VectorStorage, query: npt.NDArray[np.float32], k: int) -> list[tuple[str, float]]:
    blob = encode(query.reshape(1, -1), storage)[0]
    if k <= KNN_LIMIT:
        sql = f"SELECT {key}, distance FROM {table} WHERE embedding MATCH {_value(storage)} AND k = ? ORDER BY distance"
    else:  # past the KNN limit: a plain scan, sorted
        sql = f"SELECT {key}, vec_distance_cosine(embedding, {_value(storage)}) AS distance FROM {table} ORDER BY distance LIMIT ?"
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
    if not has_level_table(conn, embedder, level):  # a level's table takes its model's format
        conn.execute(_vec_table_sql(table, "item_id", embedder.dimension, embedder.storage))
    storage = table_storage(conn, table)
    conn.executemany(
        f"INSERT INTO {table} (item_id, embedding) VALUES (?, {_value(storage)})", zip(item_ids, encode(vectors, storage), strict=True)
    )


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
    table = level_table(embedder, level)
    return _nearest(conn, table, "item_id", table_storage(conn, table), query, k)


def item_vector(conn: Any, embedder: EmbedderRow, level: str, item_id: str) -> F32 | None:
    """The stored vector (unit length, float32) of one item of a distilled level, or None."""
    if not has_level_table(conn, embedder, level):
        return None
    row = conn.execute(f"SELECT embedding FROM {level_table(embedder, level)} WHERE item_id = ?", [item_id]).fetchone()
    return None if row is None else decode([row[0]], embedder.dimension)[0]


def distances(conn: Any, embedder: EmbedderRow, query: npt.NDArray[np.float32], context_ids: Sequence[str]) -> dict[str, float]:
    """Cosine distance from ``query`` to each of these contexts that has a vector."""
    if not context_ids:
        return {}
    table = checked_table(embedder.vec_table)
    blob = encode(query.reshape(1, -1), embedder.storage)[0]
    rows = [
        row
        for start in range(0, len(context_ids), 500)  # bound the statement's variables
        for row in conn.execute(
            f"SELECT context_id, vec_distance_cosine(embedding, {_value(embedder.storage)}) FROM {table} "
            f"WHERE context_id IN ({','.join('?' * len(context_ids[start : start + 500]))})",
            [blob, *context_ids[start : start + 500]],
        )
    ]
    return {str(context_id): float(distance) for context_id, distance in rows if distance is not None}


def checked_table(table: str) -> str:
    # table names come from the embedders table; never let one be anything but ours
    if not _TABLE.fullmatch(table):
        raise ValueError(f"not a vector table: {table!r}")
    return table


def convert_storage(conn: Any, embedder: EmbedderRow, storage: VectorStorage) -> EmbedderRow:
    """Rewrite the model's context and level tables in ``storage``'s format (in one savepoint,
    so inside the caller's transaction or as its own); the model's row, as it now is. The
    tables are made again, so an approximate index over them (db/vector_index) must be rebuilt:
    ``vector_index.convert_storage`` does both."""
    if storage not in STORAGES:
        raise ValueError(f"unknown vector storage {storage!r}; choose one of: {', '.join(STORAGES)}")
    load_vec(conn)
    tables = [(checked_table(embedder.vec_table), "context_id")]
    tables += [(level_table(embedder, level), "item_id") for level in LEVELS if has_level_table(conn, embedder, level)]
    with savepoint(conn, "convert_vectors"):
        for table, key in tables:
            if table_storage(conn, table) == storage:
                continue
            rows = conn.execute(f"SELECT {key}, embedding FROM {table}").fetchall()  # a full scan: in insertion order
            matrix = decode([blob for _, blob in rows], embedder.dimension)
            conn.execute(f"DROP TABLE {table}")
            conn.execute(_vec_table_sql(table, key, embedder.dimension, storage))
            for start in range(0, len(rows), 5000):
                part = rows[start : start + 5000]
                conn.executemany(
                    f"INSERT INTO {table} ({key}, embedding) VALUES (?, {_value(storage)})",
                    zip([item for item, _ in part], encode(matrix[start : start + 5000], storage), strict=True),
                )
    return EmbedderRow(embedder.name, embedder.dimension, embedder.window, embedder.vec_table, storage)
