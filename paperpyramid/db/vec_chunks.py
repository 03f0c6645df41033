"""Single vectors read straight from the storage sqlite-vec keeps behind a ``vec0`` table.

sqlite-vec (0.1.9) stores a ``vec0`` table keyed by a text id in shadow tables:

- ``<table>_rowids(rowid INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, chunk_id
  INTEGER, chunk_offset INTEGER)``: where each vector is (a deleted vector's row goes);
- ``<table>_vector_chunks00(rowid PRIMARY KEY, vectors BLOB NOT NULL)``: one BLOB per chunk
  (``chunk_size`` vectors: sqlite-vec's default 1,024, :data:`~paperpyramid.db.vectors.CHUNK_SIZE`
  in a table paperpyramid makes), vector ``chunk_offset`` at byte ``chunk_offset * width``, the
  bytes ``SELECT embedding`` gives (``width``: the dimension for ``int8[D]``, four times it for
  ``float[D]``); sqlite-vec opens the BLOB by its SQLite rowid, the chunk id.

A BLOB opened for incremental I/O (``blobopen`` in the standard library, ``open_blob`` in
pysqlite3) reads only the pages up to the bytes asked for, one opening per chunk for all of a
query's vectors in it. A chunk is a chain of overflow pages that SQLite walks page by page, so a
vector costs ~10 us when the pages are memory-mapped or in SQLite's page cache, and more when
each page walked is a ``read()`` (the default 2 MB cache), in proportion to the chunk's pages:
at 100k int8 vectors ~17 us in chunks of 128, 40-160 us in chunks of 1,024 (four times the
pages for float32); a lookup through the ``vec0`` table walks the same way and costs more.
:func:`layout_problem` checks that a file holds this layout before anyone relies on it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from paperpyramid.db.sqlite import OperationalError
from paperpyramid.db.vectors import EmbedderRow

_COLUMNS = {"_rowids": ["rowid", "id", "chunk_id", "chunk_offset"], "_vector_chunks00": ["rowid", "vectors"]}
_READABLE: dict[tuple[str, str, str, type], bool] = {}  # (file, table, storage, connection class) -> chunks read in place
log = logging.getLogger(__name__)


def _open(conn: Any, table: str, chunk_id: int) -> Any:
    """A read-only handle on one chunk's BLOB."""
    if hasattr(conn, "blobopen"):
        return conn.blobopen(f"{table}_vector_chunks00", "vectors", chunk_id, readonly=True)
    return conn.open_blob(f"{table}_vector_chunks00", "vectors", chunk_id, readonly=True)


def read_vectors(conn: Any, table: str, places: Sequence[tuple[int, int]], width: int) -> list[bytes]:
    """The stored bytes of the vectors at these (chunk id, chunk offset) places of ``table``,
    in the order given; each chunk opened once and read in the order of its offsets."""
    out = [b""] * len(places)
    blob: Any = None
    current = None
    try:
        for index in sorted(range(len(places)), key=places.__getitem__):
            chunk_id, offset = places[index]
            if chunk_id != current:
                if blob is not None:
                    blob.close()
                blob, current = _open(conn, table, chunk_id), chunk_id
            blob.seek(offset * width)
            out[index] = blob.read(width)
    finally:
        if blob is not None:
            blob.close()
    short = next((index for index, data in enumerate(out) if len(data) != width), None)
    if short is not None:
        raise ValueError(f"chunk {places[short][0]} of {table} holds no vector at offset {places[short][1]}")
    return out


def layout_problem(conn: Any, table: str, key: str, width: int) -> str | None:
    """Why vectors of ``table`` (keyed by its text column ``key``) cannot be read by
    :func:`read_vectors`: another layout of sqlite-vec's tables, a connection without incremental
    BLOB I/O, or its newest vector reading back other than ``vec0`` gives it; None when they can."""
    if not hasattr(conn, "blobopen") and not hasattr(conn, "open_blob"):
        return "this sqlite3 module cannot read a BLOB in parts"
    for suffix, expected in _COLUMNS.items():
        columns = [str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({table}{suffix})")]
        if columns != expected:
            return f"{table}{suffix} has the columns {columns}, not {expected}"
    newest = conn.execute(f"SELECT id, chunk_id, chunk_offset FROM {table}_rowids ORDER BY rowid DESC LIMIT 1").fetchone()
    if newest is None:
        return None
    stored = conn.execute(f"SELECT embedding FROM {table} WHERE {key} = ?", [newest[0]]).fetchone()
    try:
        read = read_vectors(conn, table, [(int(newest[1]), int(newest[2]))], width)[0]
    except (OperationalError, ValueError) as exc:
        return f"reading {table}'s chunk {newest[1]} failed: {exc}"
    if stored is None or bytes(stored[0]) != read:
        return f"the vector of {newest[0]!r} in {table}'s chunk {newest[1]} is not the one {table} gives"
    return None


def context_vectors(conn: Any, embedder: EmbedderRow, wanted: Sequence[tuple[int, int | None]]) -> tuple[list[str], list[bytes]]:
    """(context ids, stored vectors) of the model's contexts ``wanted``, each given as (its rowid
    in ``contexts``, its vector's rowid in ``<table>_rowids`` or None), that have a vector: read
    from the chunks in place, found by the vectors' rowids, in their order; or through the
    ``vec0`` table's own lookups where they cannot be read here, in the contexts' order."""
    table = embedder.vec_table
    vectors = [vector for _, vector in wanted]
    if _reads_in_place(conn, embedder) and None not in vectors:
        rows = conn.execute(
            f"SELECT id, chunk_id, chunk_offset FROM {table}_rowids WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid",
            [json.dumps(vectors)],
        ).fetchall()
        places = [(int(row[1]), int(row[2])) for row in rows]
        return [str(row[0]) for row in rows], read_vectors(conn, table, places, _width(embedder))
    ids: list[str] = []
    blobs: list[bytes] = []
    for (context_id,) in conn.execute(
        "SELECT id FROM contexts WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid",
        [json.dumps([rowid for rowid, _ in wanted])],
    ).fetchall():
        stored = conn.execute(f"SELECT embedding FROM {table} WHERE context_id = ?", [context_id]).fetchone()
        if stored is not None:
            ids.append(str(context_id))
            blobs.append(stored[0])
    return ids, blobs


def _width(embedder: EmbedderRow) -> int:
    """Bytes of one stored vector."""
    return embedder.dimension if embedder.storage == "int8" else 4 * embedder.dimension


def _reads_in_place(conn: Any, embedder: EmbedderRow) -> bool:
    """Whether the model's chunks can be read in place on this kind of connection (checked once
    a file, table, format and connection class; a log line when they cannot)."""
    file = next((str(row[2]) for row in conn.execute("PRAGMA database_list") if row[1] == "main"), "")
    key = (file, embedder.vec_table, embedder.storage, type(conn))
    readable = _READABLE.get(key)
    if readable is None:
        problem = layout_problem(conn, embedder.vec_table, "context_id", _width(embedder))
        if problem is not None:
            log.warning("vectors of %s are read one by one through %s: %s", embedder.name, embedder.vec_table, problem)
        readable = problem is None
        if len(_READABLE) > 16:
            _READABLE.clear()
        _READABLE[key] = readable
    return readable


__all__: Sequence[str] = ["context_vectors", "layout_problem", "read_vectors"]
