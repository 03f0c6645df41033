"""An approximate nearest-neighbour index over one embedder's context vectors, inside the corpus.

Exact search (:func:`paperpyramid.db.vectors.nearest`) compares the query with every stored
vector: ~15 ms at 10k vectors on this 2-core box, ~150 ms at 100k, ~1.1 s at 1M. This index
answers the same question (the ``k`` nearest contexts, with their exact cosine distances) by
reading a few percent of the data. It is an inverted file (IVF) of compact codes, all in plain
SQLite tables (numpy does the arithmetic; the codes are :mod:`paperpyramid.db.vector_codes`):

1. **Coarse lists.** Spherical k-means (``round(sqrt(n))`` centroids, trained on a sample of
   64 per centroid) puts every vector in the list of its nearest centroid. A query probes the
   ``nprobe`` lists whose centroids are nearest to it (default: 1/64 of them, at least 16).
2. **Binary codes.** Each vector is stored as one bit per dimension (48 bytes for 384-d),
   packed per list into one row (``rowids`` and ``codes`` BLOBs): the probed lists come back in
   one query, and their codes, scored asymmetrically, give a ``shortlist`` (default
   ``max(8k, 800)``).
3. **4-bit codes.** The shortlist is re-ranked by each vector's 4-bit code (192 bytes for
   384-d), read from a table keyed by the context's rowid.
4. **Exact distances.** The best ``k + max(30, k/2)`` of those are compared with their stored
   vectors (int8 or float32, as the model's table holds them), read in place from sqlite-vec's
   chunks (:func:`vec_chunks.context_vectors`), and the best ``k`` returned with their cosine
   distances as sqlite-vec compares them: the output of ``vectors.nearest`` for every context
   found. The margin was measured on the 173 QA questions at 100k vectors (perturbed copies:
   near-duplicates, the hard case): the exact top 10 was within the 4-bit codes' best 39 for
   every question, the top 100 within their best 150 for 171 of them.

A chunk is a chain of overflow pages that SQLite walks to the offset read: ~10 us a vector when
the pages are memory-mapped (``PRAGMA mmap_size``) or in SQLite's page cache; with the default
2 MB cache at 100k int8 vectors ~17 us in the chunks of 128 vectors paperpyramid's tables have
(``vectors.CHUNK_SIZE``), 40-160 us in sqlite-vec's default chunks of 1,024 (tables made
before). Search time so depends on the connection's settings and the table's chunks more than
it did with a copy of the vectors in the index (which cost 384 bytes per int8 context more).

Designs measured and dropped: sqlite-vec ``vec0`` tables with a ``list`` partition key (float
or ``bit[384]``) scan every chunk row of the table whatever the partitions asked (no index on
the partition column), so a query still grows with the corpus (~8 ms for 20 of 316 lists at
100k); one float BLOB per list reads too many bytes (~20 ms for 16 lists of 1,000); int8
codes in ``vec0`` were no faster than floats; re-ranking the whole shortlist with vectors read
from sqlite-vec's chunks took 1.7x / 2.5x the time at 10k / 100k.

Tables, for the model whose vectors are in ``vec_contexts_N``:

- ``vec_contexts_N_ivf_lists(list INTEGER PRIMARY KEY, rowids BLOB, codes BLOB)``;
- ``vec_contexts_N_ivf_codes(rowid INTEGER PRIMARY KEY, vector INTEGER, code BLOB)``: the 4-bit
  codes, and the record of what is indexed (rowid = the context's rowid in ``contexts``;
  ``vector``: its vector's rowid in sqlite-vec's ``vec_contexts_N_rowids``, which says where the
  vector is without a lookup of the context's id, a sixth of the time; NULL in a layout without
  that table, where the vectors are looked up by their contexts' ids);
- ``vec_contexts_N_ivf_meta``: one row: centroids, mean, the 4-bit codes' ranges
  (``code_low``, ``code_step``), how many vectors the lists were trained on, a generation token,
  and ``synced_rowid``: the newest rowid of sqlite-vec's ``vec_contexts_N_rowids`` (an
  AUTOINCREMENT shadow table of the vec0 table) indexed.

An index built before the 4-bit codes keeps ``vec_contexts_N_ivf_vectors(rowid, context_id,
embedding)``, its own copy of the stored vectors, instead of ``_ivf_codes``: it is searched as
it was (its shortlist re-ranked with that copy) until the next :func:`build_index` rebuilds it.

When it is (re)built: :func:`build_index` is idempotent and incremental, and runs in a
savepoint (inside the writer's transaction, or as its own). A first call (or one after the
vectors have grown 4-fold since training, or with ``retrain=True``) trains the lists and the
4-bit ranges and indexes everything; later calls add only the vectors that have no entry yet,
to the lists of their nearest existing centroids (each touched list's row is rewritten: ~50 KB
at 1M). ``paperpyramid embed`` should call it after its last batch, and an ingest that wrote
vectors at its end. Between a write of new vectors and the next build the index is stale:
:func:`is_current` (a few B-tree lookups) says so, and retrieval must then search exactly, so a
new context is never missed. A context removed (an article replaced or deleted) leaves the index
through :func:`forget`; an index is rebuilt from scratch by ``build_index(..., retrain=True)`` or
dropped by :func:`drop_index`.

Measured (``benchmarks/search_scale.py``'s corpora: perturbed copies of real MiniLM vectors, the
QA questions as queries, default nprobe 16): recall@10 against exact search 0.98 / 1.00 / 0.96
and recall@100 0.97 / 0.98 / 0.91 at 10k / 100k / 1M vectors with a copy of the vectors in the
index; the 4-bit codes give the same top 10 on all 173 questions at 10k and 100k (the same top
100 on 171 at 100k). The 1M corpus is ~600 noisy copies of each real vector, a harder case for
binary codes than real data (near-duplicates differ only in noise); a larger ``shortlist``
buys recall there (1,600: 0.98 / 0.96).
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

from paperpyramid.db import vec_chunks
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.sqlite import OperationalError, load_vec, savepoint
from paperpyramid.db.vector_codes import Quantiser, binary_codes, binary_scores
from paperpyramid.db.vectors import EmbedderRow, checked_table, count_vectors

Progress = Callable[[int, int], None]
F32 = npt.NDArray[np.float32]

_RETRAIN_GROWTH = 4  # retrain the lists once the vectors outnumber the training set this many times
_BATCH = 20_000
_EXACT_MARGIN = 30  # the 4-bit codes' best k + max(_EXACT_MARGIN, k // 2) are compared with their stored vectors
_TRAINED: dict[tuple[str, str], _Trained] = {}  # (table, generation) -> what the index was trained to


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


@dataclass(frozen=True, slots=True)
class _Meta:
    """The index's meta row; ``copy``: the index keeps its own copy of the stored vectors (as
    indexes built before the 4-bit codes do) in ``_ivf_vectors``."""

    lists: int
    trained_on: int
    synced_rowid: int
    generation: str
    copy: bool


@dataclass(frozen=True, slots=True)
class _Trained:
    centroids: F32
    mean: F32
    quantiser: Quantiser | None  # None for an index with its own copy of the vectors


@dataclass(frozen=True, slots=True)
class _Names:
    table: str
    lists: str
    codes: str
    copy: str
    meta: str


def _names(embedder: EmbedderRow) -> _Names:
    table = checked_table(embedder.vec_table)
    return _Names(table, f"{table}_ivf_lists", f"{table}_ivf_codes", f"{table}_ivf_vectors", f"{table}_ivf_meta")


def _meta(conn: Any, embedder: EmbedderRow) -> _Meta | None:
    names = _names(embedder)
    found = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE name IN (?, ?)", [names.meta, names.codes])}
    if names.meta not in found:
        return None
    row = conn.execute(f"SELECT lists, trained_on, synced_rowid, generation FROM {names.meta} WHERE id = 1").fetchone()
    return None if row is None else _Meta(int(row[0]), int(row[1]), int(row[2]), str(row[3]), names.codes not in found)


def _last_vector_rowid(conn: Any, embedder: EmbedderRow) -> int | None:
    """The newest rowid of the model's vec0 table (None when sqlite-vec keeps no such table)."""
    try:
        row = conn.execute(f"SELECT max(rowid) FROM {embedder.vec_table}_rowids").fetchone()
    except OperationalError:  # another sqlite-vec layout: callers fall back to counting
        return None
    return int(row[0] or 0)


def is_current(conn: Any, embedder: EmbedderRow) -> bool:
    """Whether the index holds every vector of the model (cheap: a few B-tree lookups)."""
    meta = _meta(conn, embedder)
    if meta is None:
        return False
    last = _last_vector_rowid(conn, embedder)
    if last is None:
        return index_status(conn, embedder).current
    return meta.synced_rowid == last


def index_status(conn: Any, embedder: EmbedderRow) -> IndexStatus:
    """What the index holds (counts every vector: a full pass over the vec0 table's rowids)."""
    names = _names(embedder)
    meta = _meta(conn, embedder)
    if meta is None:
        return IndexStatus(False, 0, 0, 0, False)
    indexed = int(conn.execute(f"SELECT count(*) FROM {names.copy if meta.copy else names.codes}").fetchone()[0])
    return IndexStatus(True, meta.lists, meta.trained_on, indexed, indexed == count_vectors(conn, embedder))


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


def _unindexed(conn: Any, embedder: EmbedderRow, codes_table: str | None) -> tuple[npt.NDArray[np.int64], list[int | None], F32]:
    """(context rowids, the vectors' rowids in sqlite-vec's ``_rowids`` table (None in a layout
    without it), vectors decoded) of the model's vectors not in the index yet (all with None)."""
    table = embedder.vec_table
    place = "NULL" if _last_vector_rowid(conn, embedder) is None else f"(SELECT r.rowid FROM {table}_rowids AS r WHERE r.id = v.context_id)"
    sql = f"SELECT c.rowid, {place}, v.embedding FROM {table} AS v JOIN contexts AS c ON c.id = v.context_id"
    if codes_table is not None:
        sql += f" WHERE NOT EXISTS (SELECT 1 FROM {codes_table} AS i WHERE i.rowid = c.rowid)"
    rows = conn.execute(sql).fetchall()
    rowids = np.array([int(row[0]) for row in rows], dtype=np.int64)
    return (
        rowids,
        [None if row[1] is None else int(row[1]) for row in rows],
        db_vectors.decode([row[2] for row in rows], embedder.dimension),
    )


def build_index(
    conn: Any, embedder: EmbedderRow, *, on_progress: Progress | None = None, retrain: bool = False, seed: int = 0
) -> IndexStatus:
    """Bring the index up to date with the model's vectors, in one savepoint (so inside the
    caller's transaction, or as its own). Idempotent; trains the lists when there are none,
    when ``retrain``, when the vectors have grown 4-fold since training, or when the index keeps
    its own copy of the vectors (made before the 4-bit codes); otherwise adds only the vectors
    not indexed yet. ``on_progress(done, total)`` follows the inserts."""
    names = _names(embedder)
    load_vec(conn)
    with savepoint(conn, "vector_index_build"):
        last = _last_vector_rowid(conn, embedder)
        meta = _meta(conn, embedder)
        total = count_vectors(conn, embedder)
        if meta is not None and not meta.copy and not retrain and total < _RETRAIN_GROWTH * max(meta.trained_on, 1):
            rowids, vectors, data = _unindexed(conn, embedder, names.codes)
            trained = _trained(conn, embedder, meta.generation)
        else:
            rowids, vectors, data = _unindexed(conn, embedder, None)
            drop_index(conn, embedder)
            if len(rowids) == 0:
                return index_status(conn, embedder)
            trained = _train(conn, names, data, seed)
        _insert(conn, names, (rowids, vectors), data, trained, on_progress)
        conn.execute(f"UPDATE {names.meta} SET synced_rowid = ? WHERE id = 1", [last if last is not None else -1])
    return index_status(conn, embedder)


def _train(conn: Any, names: _Names, data: F32, seed: int) -> _Trained:
    """The lists' centroids, the mean and the 4-bit quantiser learnt from ``data``, and the
    index's (empty) tables made, its meta row written."""
    rng = np.random.default_rng(seed)
    lists = max(1, min(4096, round(math.sqrt(len(data)))))
    sample = data[rng.choice(len(data), min(len(data), 64 * lists), replace=False)]
    trained = _Trained(_kmeans(sample, lists, rng), data.mean(axis=0).astype(np.float32), Quantiser.train(data))
    assert trained.quantiser is not None
    conn.execute(f"CREATE TABLE {names.lists} (list INTEGER PRIMARY KEY, rowids BLOB NOT NULL, codes BLOB NOT NULL)")
    conn.execute(f"CREATE TABLE {names.codes} (rowid INTEGER PRIMARY KEY, vector INTEGER, code BLOB NOT NULL)")
    conn.execute(
        f"CREATE TABLE {names.meta} (id INTEGER PRIMARY KEY CHECK (id = 1), lists INTEGER NOT NULL, trained_on INTEGER NOT NULL,"
        " synced_rowid INTEGER NOT NULL, generation TEXT NOT NULL, centroids BLOB NOT NULL, mean BLOB NOT NULL, built_at TEXT NOT NULL,"
        " code_low BLOB NOT NULL, code_step BLOB NOT NULL)"
    )
    conn.execute(
        f"INSERT INTO {names.meta} VALUES (1, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
        [
            lists,
            len(data),
            secrets.token_hex(8),
            trained.centroids.tobytes(),
            trained.mean.tobytes(),
            datetime.now(UTC).isoformat(timespec="seconds"),
            trained.quantiser.low.tobytes(),
            trained.quantiser.step.tobytes(),
        ],
    )
    return trained


def _insert(
    conn: Any,
    names: _Names,
    keys: tuple[npt.NDArray[np.int64], list[int | None]],
    data: F32,
    trained: _Trained,
    on_progress: Progress | None,
) -> None:
    """Each vector's 4-bit code into the codes table beside its rowid in sqlite-vec's tables
    (``keys``: the contexts' rowids, the vectors'), and its context's rowid and binary code
    appended to the row of the list of its nearest centroid."""
    assert trained.quantiser is not None
    rowids, vectors = keys
    for start in range(0, len(data), _BATCH):
        part = slice(start, min(start + _BATCH, len(data)))
        codes = trained.quantiser.encode(data[part])
        conn.executemany(
            f"INSERT INTO {names.codes} (rowid, vector, code) VALUES (?, ?, ?)",
            zip(rowids[part].tolist(), vectors[part], codes, strict=True),
        )
        if on_progress is not None:
            on_progress(part.stop, len(data))
    assign = _assign(data, trained.centroids)
    codes_bits = binary_codes(data, trained.mean)
    order = np.argsort(assign, kind="stable")
    bounds = np.searchsorted(assign[order], np.arange(len(trained.centroids) + 1))
    for number in np.flatnonzero(np.diff(bounds)):
        members = order[bounds[number] : bounds[number + 1]]
        old = conn.execute(f"SELECT rowids, codes FROM {names.lists} WHERE list = ?", [int(number)]).fetchone()
        new_rowids, new_codes = rowids[members].tobytes(), codes_bits[members].tobytes()
        if old is not None:
            new_rowids, new_codes = old[0] + new_rowids, old[1] + new_codes
        conn.execute(f"INSERT OR REPLACE INTO {names.lists} (list, rowids, codes) VALUES (?, ?, ?)", [int(number), new_rowids, new_codes])


def _trained(conn: Any, embedder: EmbedderRow, generation: str) -> _Trained:
    key = (embedder.vec_table, generation)
    cached = _TRAINED.get(key)
    if cached is None:
        names = _names(embedder)
        columns = {str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({names.meta})")}
        quantised = "code_low" in columns
        sql = "centroids, mean, code_low, code_step" if quantised else "centroids, mean"
        row = conn.execute(f"SELECT {sql} FROM {names.meta} WHERE id = 1").fetchone()
        centroids = np.frombuffer(row[0], dtype=np.float32).reshape(-1, embedder.dimension)
        quantiser = Quantiser.from_bytes(row[2], row[3]) if quantised else None
        cached = _Trained(centroids, np.frombuffer(row[1], dtype=np.float32), quantiser)
        if len(_TRAINED) > 16:
            _TRAINED.clear()
        _TRAINED[key] = cached
    return cached


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
    query are searched by binary code, the ``shortlist`` best codes (default ``max(8k, 800)``)
    re-ranked by their 4-bit codes, and the best ``k + max(30, k/2)`` of those compared with
    their stored vectors; a ``shortlist`` given is compared with them whole (with every list
    probed too, the search is exact). Raises ``LookupError`` without an index."""
    if k < 1:
        return []
    meta = _meta(conn, embedder)
    if meta is None:
        raise LookupError(f"no vector index for {embedder.name!r}; build it with vector_index.build_index")
    trained = _trained(conn, embedder, meta.generation)
    q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
    short = max(k, shortlist or max(8 * k, 800))
    rowids = _shortlist(conn, embedder, trained, q, short, nprobe)
    if len(rowids) == 0:
        return []
    wanted = json.dumps(sorted(int(rowid) for rowid in rowids))
    if meta.copy:
        found = conn.execute(
            f"SELECT context_id, embedding FROM {_names(embedder).copy} WHERE rowid IN (SELECT value FROM json_each(?))", [wanted]
        )
        ids, blobs = _columns(found.fetchall())
    else:
        exact = short if shortlist else k + max(_EXACT_MARGIN, k // 2)
        ids, blobs = vec_chunks.context_vectors(conn, embedder, _best_codes(conn, embedder, trained, q, wanted, exact))
    if not ids:
        return []
    matrix = db_vectors.decode(blobs, embedder.dimension)
    q = db_vectors.as_compared(q, embedder.storage)  # distances as vectors.nearest gives them
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(q))
    distances = 1.0 - (matrix @ q) / np.where(norms > 0, norms, 1.0)
    best = np.argsort(distances, kind="stable")[:k]
    return [(ids[i], float(distances[i])) for i in best]


def _shortlist(conn: Any, embedder: EmbedderRow, trained: _Trained, q: F32, short: int, nprobe: int | None) -> npt.NDArray[np.int64]:
    """The rowids of the ``short`` best binary codes of the ``nprobe`` lists nearest to ``q``."""
    centroids = trained.centroids
    probe = min(len(centroids), nprobe or default_nprobe(len(centroids)))
    scores = centroids @ q
    lists = np.argpartition(-scores, probe - 1)[:probe] if probe < len(centroids) else np.arange(len(centroids))
    sql = f"SELECT rowids, codes FROM {_names(embedder).lists} WHERE list IN ({','.join(str(int(x)) for x in lists)})"
    rows = conn.execute(sql).fetchall()
    rowids = np.frombuffer(b"".join(row[0] for row in rows), dtype=np.int64)
    codes = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.uint8).reshape(len(rowids), (embedder.dimension + 7) // 8)
    scores = binary_scores(codes, q - trained.mean)
    return rowids[np.argpartition(-scores, short - 1)[:short]] if len(scores) > short else rowids


def _best_codes(conn: Any, embedder: EmbedderRow, trained: _Trained, q: F32, wanted: str, count: int) -> list[tuple[int, int | None]]:
    """(context rowid, vector rowid) of the ``count`` contexts among ``wanted`` (a JSON list of
    rowids) whose 4-bit codes are nearest to ``q``."""
    assert trained.quantiser is not None
    sql = f"SELECT rowid, vector, code FROM {_names(embedder).codes} WHERE rowid IN (SELECT value FROM json_each(?))"
    rows = conn.execute(sql, [wanted]).fetchall()
    if len(rows) > count:
        best = np.argsort(-trained.quantiser.cosines([row[2] for row in rows], q), kind="stable")[:count]
        rows = [rows[i] for i in best]
    return [(int(row[0]), None if row[1] is None else int(row[1])) for row in rows]


def _columns(rows: list[Any]) -> tuple[list[Any], list[bytes]]:
    return [row[0] for row in rows], [row[1] for row in rows]


def forget(conn: Any, embedder: EmbedderRow, context_ids: Sequence[str]) -> None:
    """Remove these contexts from the index (in the caller's transaction), before the contexts
    themselves are deleted: their 4-bit codes go, so a search never returns them; their binary
    codes stay in the lists, where a rowid without a 4-bit code is skipped, until the next retraining."""
    names = _names(embedder)
    meta = _meta(conn, embedder)
    if not context_ids or meta is None:
        return
    conn.execute(
        f"DELETE FROM {names.copy if meta.copy else names.codes} WHERE rowid IN (SELECT rowid FROM contexts WHERE id IN (SELECT value FROM json_each(?)))",
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
    names = _names(embedder)
    for name in (names.lists, names.codes, names.copy, names.meta):
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
