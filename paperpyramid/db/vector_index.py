"""An approximate nearest-neighbour index over one embedder's context vectors, inside the corpus.

Exact search (:func:`paperpyramid.db.vectors.nearest`) compares the query with every stored
vector: ~15 ms at 10k vectors on this 2-core box, ~150 ms at 100k, ~1.1 s at 1M. This index
answers the same question (the ``k`` nearest contexts, with their exact cosine distances) by
reading a few percent of the data. It is an inverted file (IVF) of binary codes with a float
re-rank, all in plain SQLite tables (numpy does the arithmetic):

1. **Coarse lists.** Spherical k-means (``round(sqrt(n))`` centroids, trained on a sample of
   64 per centroid) puts every vector in the list of its nearest centroid. A query probes the
   ``nprobe`` lists whose centroids are nearest to it (default: 1/64 of them, at least 16).
2. **Binary codes.** Each vector is stored as one bit per dimension (above or below the
   corpus mean: 48 bytes for 384-d), packed per list into one row (``rowids`` and ``codes``
   BLOBs): the probed lists come back in one query. Codes are scored asymmetrically: the
   query keeps its floats and is dotted with each code read as +-1 (one 256-entry table per
   code byte), which ranks far better than Hamming distance (recall@10 0.98 against 0.94 at
   100k with the same shortlist of 200).
3. **Re-rank.** The ``shortlist`` best codes (default ``max(8k, 800)``) are re-scored with
   their stored vectors (int8 or float32, as the model's table holds them; decoded by
   ``vectors.decode``), read from a plain table keyed by the context's rowid (800 rows: ~3 ms;
   the ``vec0`` table's own lookups take ~0.3 ms each), and the best ``k`` returned with their
   cosine distances to the query as sqlite-vec compares it (coded like them for an int8 table):
   the output of ``vectors.nearest`` for every context found.

Designs measured and dropped: sqlite-vec ``vec0`` tables with a ``list`` partition key (float
or ``bit[384]``) scan every chunk row of the table whatever the partitions asked (no index on
the partition column), so a query still grows with the corpus (~8 ms for 20 of 316 lists at
100k); one float BLOB per list reads too many bytes (~20 ms for 16 lists of 1,000); int8
codes in ``vec0`` were no faster than floats.

Tables, for the model whose vectors are in ``vec_contexts_N``:

- ``vec_contexts_N_ivf_lists(list INTEGER PRIMARY KEY, rowids BLOB, codes BLOB)``;
- ``vec_contexts_N_ivf_vectors(rowid INTEGER PRIMARY KEY, context_id TEXT, embedding BLOB)``:
  the stored vectors again, in the model's format (the file grows by 384 bytes per 384-d context
  with int8, ~0.4 GB at 1M; 1.6 KB with float32), and
  the record of what is indexed (rowid = the context's rowid in ``contexts``);
- ``vec_contexts_N_ivf_meta``: one row: centroids, mean, how many vectors the lists were
  trained on, a generation token, and ``synced_rowid``: the newest rowid of sqlite-vec's
  ``vec_contexts_N_rowids`` (an AUTOINCREMENT shadow table of the vec0 table) indexed.

When it is (re)built: :func:`build_index` is idempotent and incremental, and runs in a
savepoint (inside the writer's transaction, or as its own). A first call (or one after the
vectors have grown 4-fold since training, or with ``retrain=True``) trains the lists and
indexes everything; later calls add only the vectors that have no entry yet, to the lists of
their nearest existing centroids (each touched list's row is rewritten: ~50 KB at 1M).
``paperpyramid embed`` should call it after its last batch, and an ingest that wrote vectors
at its end. Between a write of new vectors and the next build the index is stale:
:func:`is_current` (two B-tree lookups) says so, and retrieval must then search exactly, so a
new context is never missed. A context removed (an article replaced or deleted) leaves the index
through :func:`forget`; an index is rebuilt from scratch by ``build_index(..., retrain=True)`` or
dropped by :func:`drop_index`.

Measured (``benchmarks/search_scale.py``: perturbed copies of 1,660 real MiniLM vectors, the
QA questions as queries, default nprobe 16; see benchmarks/README.md): recall@10 against
exact search 0.98 / 1.00 / 0.96 and recall@100 0.97 / 0.98 / 0.91 at 10k / 100k / 1M vectors,
p50 3 / 7 / 19 ms per query with ``load_hits`` (exact: 9 / 81 / 692 ms). The 1M corpus is
~600 noisy copies of each real vector, a harder case for binary codes than real data
(near-duplicates differ only in noise); a larger ``shortlist`` buys recall there (1,600:
0.98 / 0.96) for ~4 ms more.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.sqlite import OperationalError, load_vec, savepoint
from paperpyramid.db.vectors import EmbedderRow, checked_table, count_vectors

Progress = Callable[[int, int], None]
F32 = npt.NDArray[np.float32]

_RETRAIN_GROWTH = 4  # retrain the lists once the vectors outnumber the training set this many times
_BATCH = 20_000
_CENTROIDS: dict[tuple[str, str], tuple[F32, F32]] = {}  # (table, generation) -> (centroids, mean)


@dataclass(frozen=True, slots=True)
class IndexStatus:
    """``exists``: the tables are there; ``lists``: coarse lists; ``trained_on``: vectors the
    lists were trained on; ``indexed``: vectors in the index; ``current``: every vector of the
    model is in it (as :func:`is_current`)."""

    exists: bool
    lists: int
    trained_on: int
    indexed: int
    current: bool


def _names(embedder: EmbedderRow) -> tuple[str, str, str, str]:
    table = checked_table(embedder.vec_table)
    return table, f"{table}_ivf_lists", f"{table}_ivf_vectors", f"{table}_ivf_meta"


def _meta(conn: Any, embedder: EmbedderRow) -> tuple[int, int, int, str] | None:
    """(lists, trained_on, synced_rowid, generation), or None without an index."""
    meta = _names(embedder)[3]
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [meta]).fetchone() is None:
        return None
    row = conn.execute(f"SELECT lists, trained_on, synced_rowid, generation FROM {meta} WHERE id = 1").fetchone()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]), str(row[3]))


def _last_vector_rowid(conn: Any, embedder: EmbedderRow) -> int | None:
    """The newest rowid of the model's vec0 table (None when sqlite-vec keeps no such table)."""
    try:
        row = conn.execute(f"SELECT max(rowid) FROM {embedder.vec_table}_rowids").fetchone()
    except OperationalError:  # another sqlite-vec layout: callers fall back to counting
        return None
    return int(row[0] or 0)


def is_current(conn: Any, embedder: EmbedderRow) -> bool:
    """Whether the index holds every vector of the model (cheap: two B-tree lookups)."""
    meta = _meta(conn, embedder)
    if meta is None:
        return False
    last = _last_vector_rowid(conn, embedder)
    if last is None:
        return index_status(conn, embedder).current
    return meta[2] == last


def index_status(conn: Any, embedder: EmbedderRow) -> IndexStatus:
    """What the index holds (counts every vector: a full pass over the vec0 table's rowids)."""
    vectors = _names(embedder)[2]
    meta = _meta(conn, embedder)
    if meta is None:
        return IndexStatus(False, 0, 0, 0, False)
    indexed = int(conn.execute(f"SELECT count(*) FROM {vectors}").fetchone()[0])
    return IndexStatus(True, meta[0], meta[1], indexed, indexed == count_vectors(conn, embedder))


def _kmeans(data: F32, lists: int, rng: np.random.Generator, iterations: int = 12) -> F32:
    """Spherical k-means: unit centroids maximising the summed cosine to their members."""
    centroids = data[rng.choice(len(data), lists, replace=False)].copy()
    for _ in range(iterations):
        sums = _member_sums(data, _assign(data, centroids), lists)
        empty = np.linalg.norm(sums, axis=1) == 0
        sums[empty] = data[rng.choice(len(data), int(empty.sum()), replace=False)]
        centroids = (sums / np.linalg.norm(sums, axis=1, keepdims=True)).astype(np.float32)
    return centroids


def _member_sums(data: F32, assign: npt.NDArray[np.int64], lists: int) -> F32:
    """Each list's members summed (zeros for a list without any): the members gathered list by
    list and added row after row, the additions ``np.add.at(sums, assign, data)`` makes, in its
    order, without its unbuffered scatter (4-10x slower on the k-means's sizes)."""
    order = np.argsort(assign, kind="stable")
    bounds = np.searchsorted(assign[order], np.arange(lists + 1))
    sums = np.zeros((lists, data.shape[1]), dtype=np.float32)
    for number in np.flatnonzero(np.diff(bounds)):
        sums[number] = data[order[bounds[number] : bounds[number + 1]]].sum(axis=0)
    return sums


def _assign(data: F32, centroids: F32) -> npt.NDArray[np.int64]:
    out = np.empty(len(data), dtype=np.int64)
    for start in range(0, len(data), 8192):
        out[start : start + 8192] = np.argmax(data[start : start + 8192] @ centroids.T, axis=1)
    return out


def _unindexed(conn: Any, embedder: EmbedderRow, vectors_table: str | None) -> tuple[npt.NDArray[np.int64], list[str], list[bytes], F32]:
    """(context rowids, ids, stored BLOBs, their vectors decoded) of the model's vectors not in
    the index yet (all with None)."""
    sql = f"SELECT c.rowid, c.id, v.embedding FROM {embedder.vec_table} AS v JOIN contexts AS c ON c.id = v.context_id"
    if vectors_table is not None:
        sql += f" WHERE NOT EXISTS (SELECT 1 FROM {vectors_table} AS i WHERE i.rowid = c.rowid)"
    rowids: list[int] = []
    ids: list[str] = []
    blobs: list[bytes] = []
    for rowid, context_id, blob in conn.execute(sql):
        rowids.append(int(rowid))
        ids.append(str(context_id))
        blobs.append(blob)
    return np.array(rowids, dtype=np.int64), ids, blobs, db_vectors.decode(blobs, embedder.dimension)


def _codes(data: F32, mean: F32) -> npt.NDArray[np.uint8]:
    """One bit per dimension: is the coordinate above the corpus mean."""
    return np.packbits(data > mean, axis=1, bitorder="little")


def build_index(
    conn: Any, embedder: EmbedderRow, *, on_progress: Progress | None = None, retrain: bool = False, seed: int = 0
) -> IndexStatus:
    """Bring the index up to date with the model's vectors, in one savepoint (so inside the
    caller's transaction, or as its own). Idempotent; trains the lists when there are none,
    when ``retrain``, or when the vectors have grown 4-fold since training; otherwise adds only
    the vectors not indexed yet. ``on_progress(done, total)`` follows the inserts."""
    _, lists_table, vectors, meta_table = _names(embedder)
    load_vec(conn)
    with savepoint(conn, "vector_index_build"):
        last = _last_vector_rowid(conn, embedder)
        meta = _meta(conn, embedder)
        total = count_vectors(conn, embedder)
        if meta is not None and not retrain and total < _RETRAIN_GROWTH * max(meta[1], 1):
            rowids, ids, blobs, data = _unindexed(conn, embedder, vectors)
            centroids, mean = _centroids(conn, embedder, meta[3])
        else:
            rowids, ids, blobs, data = _unindexed(conn, embedder, None)
            drop_index(conn, embedder)
            if len(rowids) == 0:
                return index_status(conn, embedder)
            rng = np.random.default_rng(seed)
            lists = max(1, min(4096, round(math.sqrt(len(data)))))
            sample = data[rng.choice(len(data), min(len(data), 64 * lists), replace=False)]
            centroids = _kmeans(sample, lists, rng)
            mean = data.mean(axis=0).astype(np.float32)
            conn.execute(f"CREATE TABLE {lists_table} (list INTEGER PRIMARY KEY, rowids BLOB NOT NULL, codes BLOB NOT NULL)")
            conn.execute(f"CREATE TABLE {vectors} (rowid INTEGER PRIMARY KEY, context_id TEXT NOT NULL, embedding BLOB NOT NULL)")
            conn.execute(
                f"CREATE TABLE {meta_table} (id INTEGER PRIMARY KEY CHECK (id = 1), lists INTEGER NOT NULL, trained_on INTEGER NOT NULL,"
                " synced_rowid INTEGER NOT NULL, generation TEXT NOT NULL, centroids BLOB NOT NULL, mean BLOB NOT NULL, built_at TEXT NOT NULL)"
            )
            conn.execute(
                f"INSERT INTO {meta_table} VALUES (1, ?, ?, 0, ?, ?, ?, ?)",
                [
                    lists,
                    len(data),
                    secrets.token_hex(8),
                    centroids.tobytes(),
                    mean.tobytes(),
                    datetime.now(UTC).isoformat(timespec="seconds"),
                ],
            )
        assign = _assign(data, centroids)
        codes = _codes(data, mean)
        for start in range(0, len(data), _BATCH):
            conn.executemany(
                f"INSERT INTO {vectors} (rowid, context_id, embedding) VALUES (?, ?, ?)",
                [(int(rowids[i]), ids[i], blobs[i]) for i in range(start, min(start + _BATCH, len(data)))],
            )
            if on_progress is not None:
                on_progress(min(start + _BATCH, len(data)), len(data))
        order = np.argsort(assign, kind="stable")
        bounds = np.searchsorted(assign[order], np.arange(len(centroids) + 1))
        for number in range(len(centroids)):
            members = order[bounds[number] : bounds[number + 1]]
            if len(members) == 0:
                continue
            old = conn.execute(f"SELECT rowids, codes FROM {lists_table} WHERE list = ?", [number]).fetchone()
            new_rowids, new_codes = rowids[members].tobytes(), codes[members].tobytes()
            if old is not None:
                new_rowids, new_codes = old[0] + new_rowids, old[1] + new_codes
            conn.execute(f"INSERT OR REPLACE INTO {lists_table} (list, rowids, codes) VALUES (?, ?, ?)", [number, new_rowids, new_codes])
        conn.execute(f"UPDATE {meta_table} SET synced_rowid = ? WHERE id = 1", [last if last is not None else -1])
    return index_status(conn, embedder)


def _centroids(conn: Any, embedder: EmbedderRow, generation: str) -> tuple[F32, F32]:
    key = (embedder.vec_table, generation)
    cached = _CENTROIDS.get(key)
    if cached is None:
        row = conn.execute(f"SELECT centroids, mean FROM {_names(embedder)[3]} WHERE id = 1").fetchone()
        centroids = np.frombuffer(row[0], dtype=np.float32).reshape(-1, embedder.dimension)
        cached = (centroids, np.frombuffer(row[1], dtype=np.float32))
        if len(_CENTROIDS) > 16:
            _CENTROIDS.clear()
        _CENTROIDS[key] = cached
    return cached


_SIGNS = (((np.arange(256)[:, None] >> np.arange(8)) & 1) * 2 - 1).astype(np.float32)  # byte -> its 8 bits as +-1


def _code_scores(codes: npt.NDArray[np.uint8], centred: F32) -> F32:
    """The dot product of the centred query with each code read as +-1 per dimension (an
    asymmetric estimate: the query keeps its floats), one 256-entry table per code byte."""
    padded = np.zeros(codes.shape[1] * 8, dtype=np.float32)
    padded[: len(centred)] = centred
    tables = padded.reshape(-1, 8) @ _SIGNS.T  # (bytes, 256)
    scores = np.zeros(len(codes), dtype=np.float32)
    for byte in range(codes.shape[1]):
        scores += tables[byte].take(codes[:, byte])
    return scores


def default_nprobe(lists: int) -> int:
    """Lists probed by default: 1/64 of them, at least 16 (all of a small index)."""
    return min(lists, max(16, round(lists / 64)))


def search(
    conn: Any,
    embedder: EmbedderRow,
    query: F32,
    k: int,
    *,
    nprobe: int | None = None,
    shortlist: int | None = None,
) -> list[tuple[str, float]]:
    """The ``k`` indexed contexts nearest to ``query``, nearest first, as (context id, cosine
    distance), like ``vectors.nearest`` but approximate: the ``nprobe`` lists nearest to the
    query are searched by binary code, and the ``shortlist`` best codes (default
    ``max(8k, 800)``) re-ranked with their float vectors. Raises ``LookupError`` without an index."""
    if k < 1:
        return []
    _, lists_table, vectors, _ = _names(embedder)
    meta = _meta(conn, embedder)
    if meta is None:
        raise LookupError(f"no vector index for {embedder.name!r}; build it with vector_index.build_index")
    centroids, mean = _centroids(conn, embedder, meta[3])
    q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
    probe = min(len(centroids), nprobe or default_nprobe(len(centroids)))
    scores = centroids @ q
    lists = np.argpartition(-scores, probe - 1)[:probe] if probe < len(centroids) else np.arange(len(centroids))
    short = max(k, shortlist or max(8 * k, 800))
    rows = conn.execute(f"SELECT rowids, codes FROM {lists_table} WHERE list IN ({','.join(str(int(x)) for x in lists)})").fetchall()
    if not rows:
        return []
    rowids = np.frombuffer(b"".join(row[0] for row in rows), dtype=np.int64)
    width = (embedder.dimension + 7) // 8
    codes = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.uint8).reshape(len(rowids), width)
    scores = _code_scores(codes, q - mean)
    if len(scores) > short:
        rowids = rowids[np.argpartition(-scores, short - 1)[:short]]
    wanted = json.dumps(sorted(int(rowid) for rowid in rowids))
    found = conn.execute(
        f"SELECT context_id, embedding FROM {vectors} WHERE rowid IN (SELECT value FROM json_each(?))",
        [wanted],
    ).fetchall()
    if not found:
        return []
    matrix = db_vectors.decode([blob for _, blob in found], embedder.dimension)
    q = db_vectors.as_compared(q, embedder.storage)  # distances as vectors.nearest gives them
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(q))
    distances = 1.0 - (matrix @ q) / np.where(norms > 0, norms, 1.0)
    best = np.argsort(distances, kind="stable")[:k]
    return [(str(found[i][0]), float(distances[i])) for i in best]


def forget(conn: Any, embedder: EmbedderRow, context_ids: Sequence[str]) -> None:
    """Remove these contexts from the index (in the caller's transaction), before the contexts
    themselves are deleted: their float vectors go, so a search never returns them; their codes
    stay in the lists, where a rowid without a vector is skipped, until the next retraining."""
    vectors = _names(embedder)[2]
    if not context_ids or _meta(conn, embedder) is None:
        return
    conn.execute(
        f"DELETE FROM {vectors} WHERE rowid IN (SELECT rowid FROM contexts WHERE id IN (SELECT value FROM json_each(?)))",
        [json.dumps(list(context_ids))],
    )


def convert_storage(conn: Any, embedder: EmbedderRow, storage: db_vectors.VectorStorage) -> EmbedderRow:
    """Store the model's vectors as ``storage`` (``vectors.convert_storage``) and rebuild its
    index, when it has one, over the rewritten tables; all in one savepoint. The model's row,
    as it now is."""
    with savepoint(conn, "convert_vector_storage"):
        had_index = _meta(conn, embedder) is not None
        drop_index(conn, embedder)
        converted = db_vectors.convert_storage(conn, embedder, storage)
        if had_index:
            build_index(conn, converted, retrain=True)
    return converted


def drop_index(conn: Any, embedder: EmbedderRow) -> None:
    """Remove the index's tables (in the caller's transaction)."""
    for name in _names(embedder)[1:]:
        conn.execute(f"DROP TABLE IF EXISTS {name}")


__all__: Sequence[str] = [
    "IndexStatus",
    "build_index",
    "convert_storage",
    "default_nprobe",
    "drop_index",
    "forget",
    "index_status",
    "is_current",
    "search",
]
