"""A BM25 index of the contexts beside FTS5's, inside the corpus, for large corpora.

FTS5 ranks a query by visiting every row that matches any of its terms. Questions are long and
their terms are OR-ed, so at 1M contexts one matches ~270k rows and ranking them takes ~325 ms on
this 2-core box, growing linearly with the corpus. This index answers the same query with the
same scores by adding up one array per query term in numpy (term-at-a-time over postings kept as
BLOBs), which costs a few milliseconds per million postings read.

**Exact, not approximate.** A hit's score is FTS5's ``bm25()`` for the same query, bit for bit:

- the terms are FTS5's own: query words and (for an incremental update) new rows are tokenized
  by an FTS5 table with the corpus's ``tokenize`` option, and the full build reads the corpus's
  FTS5 index through ``fts5vocab``;
- the statistics are FTS5's: the number of rows and total tokens come from its averages record,
  a row's length from its ``docsize`` table, a term's document count from its postings;
- the arithmetic is FTS5's, in the same order: for each phrase, ``idf * (f * (k1 + 1)) /
  (f + k1 * (1 - b + b * D / avgdl))`` with ``f`` the column-weighted count, ``idf =
  log((N - n + 0.5) / (n + 0.5))`` (1e-6 when not positive), summed phrase by phrase.

A phrase of several tokens (a query word with inner punctuation, ``self-attention``) needs
positions, which the index does not keep: its share of each score is asked of FTS5 (a
one-phrase ``bm25()``, the same number), which is cheap because such phrases are rare and
their matches few.

Tables:

- ``contexts_bm25_postings(term, segment, rowids, freqs)``: per term and segment, the rowids of
  the contexts holding it (uint32, ascending) and the column-weighted count in each (float32:
  sums of the weights, exact);
- ``contexts_bm25_segments(segment, rowids, lengths)``: the token count of each row indexed;
- ``contexts_bm25_meta``: one row: the column weights, ``synced_rowid`` (the newest context
  indexed), FTS5's averages record as it was then, the number of segments and a generation
  token.

When it is current: :func:`is_current` (three B-tree lookups) holds while the contexts' newest
rowid and FTS5's averages record (rows and tokens) are what the index last saw, and the
weights are the ones asked for; otherwise retrieval must use FTS5, so nothing is ever missed.
:func:`update` brings it up to date: it adds a segment holding only the contexts added since
(tokenized by an in-memory FTS5 table), or rebuilds the whole index when there is none, when
contexts were removed or changed, or when ``MAX_SEGMENTS`` segments have piled up.
:func:`add_segments_of` takes in the segments of a part of a parallel build
(:mod:`paperpyramid.db.parts`) with its contexts, their rowids shifted, rather than tokenize them again.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.db.sqlite import savepoint, sqlite3

FTS = "contexts_fts"
POSTINGS = "contexts_bm25_postings"
SEGMENTS = "contexts_bm25_segments"
META = "contexts_bm25_meta"
#: columns of ``contexts_fts``, in order, and their weights in bm25() (retrieval's ranking)
COLUMNS = ("text", "section_title")
WEIGHTS = (1.0, 0.5)
#: from this many contexts on, ingest keeps the index (FTS5 alone takes ~5 ms at 10k contexts,
#: ~35 ms at 100k, ~325 ms at 1M on this 2-core box: benchmarks/search_scale.py)
INDEX_MIN = 50_000
#: FTS5's bm25() constants
K1 = 1.2
B = 0.75
#: FTS5's buffer of pending terms in bytes (its default: 1 MiB), kept in each FTS5 index's config: a
#: batch's contexts (~3 MB of text for 64 full-size articles) reach the file as one segment at the
#: commit, not as three that FTS5 then merges again
PENDING_BYTES = 32 * 2**20
#: segments before an update rebuilds the whole index (a query reads one row per segment and term)
MAX_SEGMENTS = 16
_FETCH_ROWS = 200_000  # instances read at a time during a build

F64 = npt.NDArray[np.float64]
Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class LexicalIndexStatus:
    """``exists``: the tables are there; ``rows``: contexts indexed; ``terms``: distinct terms;
    ``segments``: how many; ``current``: it answers exactly as FTS5 would (as :func:`is_current`)."""

    exists: bool
    rows: int
    terms: int
    segments: int
    current: bool


# --------------------------------------------------------------------------- FTS5 rows added set-wise


@contextmanager
def insert_trigger_dropped(conn: Any, table: str) -> Iterator[bool]:
    """Inside the caller's transaction: the insert trigger that adds each new row of the main
    file's ``table`` to its FTS5 index (``<table>_ai``) dropped for the block and created again,
    from its own SQL, at its end, so that no other connection ever sees it missing (an exception
    leaves it dropped: the caller's rollback brings it back). Yields whether there was one: the
    block then adds the FTS5 rows itself, with :func:`index_added_rows`, one ``INSERT ... SELECT``
    instead of one trigger call per row, which costs about 2.5 times as much for the writer's
    batches and about 1.1 times as much for a part's rows added in one statement."""
    trigger = f"{table}_ai"
    row = conn.execute("SELECT sql FROM main.sqlite_master WHERE type = 'trigger' AND name = ?", [trigger]).fetchone()
    if row is None:
        yield False
        return
    conn.execute(f'DROP TRIGGER main."{trigger}"')
    yield True
    conn.execute(row[0])


@contextmanager
def indexed_setwise(conn: Any, tables: Sequence[str]) -> Iterator[None]:
    """Inside the caller's transaction: the rows the block adds to these tables of the main file
    reach their FTS5 indexes at its end, one ``INSERT ... SELECT`` a table
    (:func:`insert_trigger_dropped`, :func:`index_added_rows`), not one trigger call per row. The
    block must not remove or rewrite rows of these tables."""
    with ExitStack() as stack:
        newest = {table: newest_rowid(conn, table) for table in tables if stack.enter_context(insert_trigger_dropped(conn, table))}
        yield
        for table, after_rowid in newest.items():
            index_added_rows(conn, table, after_rowid)


def set_pending_bytes(conn: Any, tables: Sequence[str]) -> None:
    """Give the FTS5 index of each of these tables of the main file (``<table>_fts``) a buffer of
    ``PENDING_BYTES`` (in the caller's transaction); its config is written only where it differs."""
    for table in tables:
        fts = f"{table}_fts"
        row = conn.execute(f"SELECT v FROM main.\"{fts}_config\" WHERE k = 'hashsize'").fetchone()
        if row is None or row[0] != PENDING_BYTES:
            conn.execute(f'INSERT INTO main."{fts}" ("{fts}", rank) VALUES (\'hashsize\', ?)', [PENDING_BYTES])


def index_added_rows(conn: Any, table: str, after_rowid: int) -> int:
    """Add the rows of the main file's ``table`` past ``after_rowid`` to its FTS5 index
    (``<table>_fts``, its columns by name) in one ``INSERT ... SELECT``, as its insert trigger would
    one by one; the newest rowid of ``table``."""
    fts = f"{table}_fts"
    columns = ", ".join(f'"{row[1]}"' for row in conn.execute(f'PRAGMA main.table_info("{fts}")'))
    conn.execute(f'INSERT INTO main."{fts}" (rowid, {columns}) SELECT rowid, {columns} FROM main."{table}" WHERE rowid > ? ORDER BY rowid',
                 [after_rowid])  # fmt: skip
    return newest_rowid(conn, table)


def newest_rowid(conn: Any, table: str) -> int:
    """The largest rowid of the main file's ``table`` (0 when it is empty)."""
    return int(conn.execute(f'SELECT coalesce(max(rowid), 0) FROM main."{table}"').fetchone()[0])


# --------------------------------------------------------------------------- FTS5's own numbers


def _varints(blob: bytes) -> list[int]:
    """SQLite's varints (big-endian groups of 7 bits, the 9th byte whole), as FTS5 writes them."""
    values: list[int] = []
    i = 0
    while i < len(blob):
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        values.append(value)
    return values


def _averages(conn: Any) -> bytes:
    """FTS5's averages record: the number of rows, then the tokens of each column."""
    row = conn.execute(f"SELECT block FROM {FTS}_data WHERE id = 1").fetchone()
    return b"" if row is None or row[0] is None else bytes(row[0])


def _rows_and_tokens(averages: bytes) -> tuple[int, int]:
    values = _varints(averages)
    return (values[0], sum(values[1:])) if values else (0, 0)


def _last_rowid(conn: Any) -> int:
    return int(conn.execute("SELECT max(rowid) FROM contexts").fetchone()[0] or 0)


def _tokenize_option(conn: Any) -> str:
    """The ``tokenize=`` clause of the corpus's FTS5 table, to tokenize exactly as it does."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [FTS]).fetchone()
    found = re.search(r"tokenize\s*=\s*('(?:[^']|'')*'|\"[^\"]*\"|\w+)", row[0] if row else "", re.I)
    return f"tokenize={found.group(1)}" if found else "tokenize='unicode61'"


# --------------------------------------------------------------------------- reading


def _meta(conn: Any) -> tuple[tuple[float, ...], int, bytes, int, str] | None:
    """(weights, synced_rowid, averages, segments, generation), or None without an index."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [META]).fetchone() is None:
        return None
    row = conn.execute(f"SELECT weights, synced_rowid, averages, segments, generation FROM {META} WHERE id = 1").fetchone()
    if row is None:
        return None
    return tuple(json.loads(row[0])), int(row[1]), bytes(row[2]), int(row[3]), str(row[4])


def _current_meta(conn: Any, weights: Sequence[float]) -> tuple[tuple[float, ...], int, bytes, int, str] | None:
    """The index's record when it scores every context as FTS5 would now, with these column
    weights; else None."""
    meta = _meta(conn)
    current = meta is not None and meta[0] == tuple(weights) and meta[1] == _last_rowid(conn) and meta[2] == _averages(conn)
    return meta if current else None


def is_current(conn: Any, weights: Sequence[float]) -> bool:
    """Whether the index scores every context as FTS5 would now, with these column weights."""
    return _current_meta(conn, weights) is not None


def index_status(conn: Any, weights: Sequence[float]) -> LexicalIndexStatus:
    """What the index holds (counts its terms: a pass over the postings' keys)."""
    meta = _meta(conn)
    if meta is None:
        return LexicalIndexStatus(False, 0, 0, 0, False)
    terms = int(conn.execute(f"SELECT count(DISTINCT term) FROM {POSTINGS}").fetchone()[0])
    return LexicalIndexStatus(True, _rows_and_tokens(meta[2])[0], terms, meta[3], is_current(conn, weights))


_LENGTHS: dict[str, tuple[F64, int, float]] = {}  # generation -> (k1 * (1 - b + b * D / avgdl) by rowid, N, avgdl)
_LENGTHS_LOCK = threading.Lock()


def _length_terms(conn: Any, generation: str, averages: bytes) -> tuple[F64, int]:
    """FTS5's length normalisation of every indexed row (by rowid) and the number of rows,
    read once per index generation."""
    with _LENGTHS_LOCK:
        cached = _LENGTHS.get(generation)
    if cached is None:
        n_rows, n_tokens = _rows_and_tokens(averages)
        avgdl = n_tokens / n_rows
        size = _last_rowid(conn) + 1
        lengths = np.zeros(size, dtype=np.float64)
        for rowids, counts in conn.execute(f"SELECT rowids, lengths FROM {SEGMENTS}"):
            lengths[np.frombuffer(rowids, dtype=np.uint32)] = np.frombuffer(counts, dtype=np.uint32)
        norm = K1 * ((1 - B) + B * lengths / avgdl)
        cached = (norm, n_rows, avgdl)
        with _LENGTHS_LOCK:
            _LENGTHS.clear()  # one corpus's generation at a time is what a process searches
            _LENGTHS[generation] = cached
    return cached[0], cached[1]


class _Tokenizer(threading.local):
    """An in-memory FTS5 table per thread that tokenizes text as the corpus's index does."""

    def __init__(self) -> None:
        self.conns: dict[str, Any] = {}

    def tokens(self, option: str, phrases: Sequence[str]) -> list[list[str]]:
        conn = self.conns.get(option)
        if conn is None:
            conn = sqlite3.connect(":memory:")
            conn.execute(f"CREATE VIRTUAL TABLE words USING fts5(t, {option})")
            conn.execute("CREATE VIRTUAL TABLE word_tokens USING fts5vocab(words, 'instance')")
            self.conns[option] = conn
        conn.execute("DELETE FROM words")
        conn.executemany("INSERT INTO words (rowid, t) VALUES (?, ?)", list(enumerate(phrases, 1)))
        out: list[list[tuple[int, str]]] = [[] for _ in phrases]
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM word_tokens"):
            out[int(doc) - 1].append((int(offset), str(term)))
        return [[term for _, term in sorted(found)] for found in out]


_TOKENIZER = _Tokenizer()


def search(conn: Any, phrases: Sequence[str], weights: Sequence[float], fetch: int) -> list[tuple[int, float]] | None:
    """The ``fetch`` best contexts for the OR of ``phrases`` as (rowid, score), best first, the
    score being FTS5's ``-bm25()``; None when the index is missing or not current (search FTS5)."""
    meta = _current_meta(conn, weights)
    if meta is None:
        return None
    norm, n_rows = _length_terms(conn, meta[4], meta[2])
    scores = np.zeros(len(norm), dtype=np.float64)
    for phrase, tokens in zip(phrases, _TOKENIZER.tokens(_tokenize_option(conn), phrases), strict=True):
        if len(tokens) == 1:
            rowids, freqs = _postings(conn, tokens[0])
            if len(rowids):
                idf = math.log((n_rows - len(rowids) + 0.5) / (len(rowids) + 0.5))
                idf = idf if idf > 0 else 1e-6
                scores[rowids] += idf * ((freqs * (K1 + 1.0)) / (freqs + norm[rowids]))
        elif tokens:  # a phrase: FTS5 knows where its words stand (its text, not its stems: stems stem again)
            match = '"' + phrase.replace('"', '""') + '"'
            weight_args = ", ".join(str(float(w)) for w in weights)
            sql = f"SELECT rowid, -bm25({FTS}, {weight_args}) FROM {FTS} WHERE {FTS} MATCH ?"
            for rowid, score in conn.execute(sql, [match]):
                scores[int(rowid)] += float(score)
    found = np.flatnonzero(scores)
    if len(found) > fetch:
        found = found[np.argpartition(-scores[found], fetch - 1)[:fetch]]
    order = np.lexsort((found, -scores[found]))
    return [(int(found[i]), float(scores[found[i]])) for i in order]


def _postings(conn: Any, term: str) -> tuple[npt.NDArray[np.int64], F64]:
    rowids: list[npt.NDArray[np.uint32]] = []
    freqs: list[npt.NDArray[np.float32]] = []
    for ids, counts in conn.execute(f"SELECT rowids, freqs FROM {POSTINGS} WHERE term = ? ORDER BY segment", [term]):
        rowids.append(np.frombuffer(ids, dtype=np.uint32))
        freqs.append(np.frombuffer(counts, dtype=np.float32))
    if not rowids:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    return np.concatenate(rowids).astype(np.int64), np.concatenate(freqs).astype(np.float64)


# --------------------------------------------------------------------------- building


def _create(conn: Any) -> None:
    conn.execute(f"CREATE TABLE IF NOT EXISTS {POSTINGS} (term TEXT NOT NULL, segment INTEGER NOT NULL, rowids BLOB NOT NULL, "
                 "freqs BLOB NOT NULL, PRIMARY KEY (term, segment)) WITHOUT ROWID")  # fmt: skip
    conn.execute(f"CREATE TABLE IF NOT EXISTS {SEGMENTS} (segment INTEGER PRIMARY KEY, rowids BLOB NOT NULL, lengths BLOB NOT NULL)")
    conn.execute(f"CREATE TABLE IF NOT EXISTS {META} (id INTEGER PRIMARY KEY CHECK (id = 1), weights TEXT NOT NULL, "
                 "synced_rowid INTEGER NOT NULL, averages BLOB NOT NULL, segments INTEGER NOT NULL, generation TEXT NOT NULL)")  # fmt: skip


def maintain(conn: Any, min_rows: int = INDEX_MIN, on_progress: Progress | None = None) -> LexicalIndexStatus | None:
    """:func:`update` the index when it exists or the corpus has grown to ``min_rows``
    contexts (None: neither, nothing done)."""
    if _meta(conn) is None and _rows_and_tokens(_averages(conn))[0] < min_rows:
        return None
    return update(conn, WEIGHTS, on_progress=on_progress)


def invalidate(conn: Any) -> None:
    """Mark the index stale (in the caller's transaction) after contexts were removed or
    rewritten: a context added later may take a removed one's rowid, which the index would
    otherwise take for the row it indexed. Retrieval then uses FTS5 until :func:`update`
    rebuilds it."""
    if _meta(conn) is not None:
        conn.execute(f"UPDATE {META} SET synced_rowid = -1 WHERE id = 1")


def drop_index(conn: Any) -> None:
    """Remove the index (retrieval goes back to FTS5)."""
    for table in (POSTINGS, SEGMENTS, META):
        conn.execute(f"DROP TABLE IF EXISTS {table}")


def _write_segment(
    conn: Any,
    segment: int,
    instances: Iterable[tuple[str, int, str]],
    docsizes: Iterable[tuple[int, bytes]],
    weights: Sequence[float],
    on_progress: Progress | None,
) -> None:
    """Store one segment: ``instances`` are (term, rowid, column) in term order then rowid order
    (as fts5vocab's 'instance' table gives them), ``docsizes`` FTS5's (rowid, sz) rows."""
    column_weight = dict(zip(COLUMNS, weights, strict=True))
    rows: list[tuple[str, int, bytes, bytes]] = []
    terms = 0

    def flush_term(term: str, docs: list[int], cols: list[str]) -> None:
        nonlocal terms
        ids = np.asarray(docs, dtype=np.int64)
        weight = np.fromiter((column_weight.get(col, 0.0) for col in cols), dtype=np.float64, count=len(cols))
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        # every row holding the term counts towards its document frequency, as in FTS5, even
        # one where it stands only in a column of weight 0 (that row then scores 0 and, unlike
        # FTS5's, is not returned: no weight here is 0)
        freqs = np.add.reduceat(weight, starts)
        rows.append((term, segment, ids[starts].astype(np.uint32).tobytes(), freqs.astype(np.float32).tobytes()))
        terms += 1
        if len(rows) >= 5000:
            conn.executemany(f"INSERT INTO {POSTINGS} (term, segment, rowids, freqs) VALUES (?, ?, ?, ?)", rows)
            rows.clear()
            if on_progress is not None:
                on_progress(f"{terms:,} terms")

    current: str | None = None
    docs: list[int] = []
    cols: list[str] = []
    for term, doc, col in instances:
        if term != current:
            if current is not None:
                flush_term(current, docs, cols)
            current, docs, cols = term, [], []
        docs.append(doc)
        cols.append(col)
    if current is not None:
        flush_term(current, docs, cols)
    if rows:
        conn.executemany(f"INSERT INTO {POSTINGS} (term, segment, rowids, freqs) VALUES (?, ?, ?, ?)", rows)
    ids: list[int] = []
    lengths: list[int] = []
    for rowid, size in docsizes:
        ids.append(int(rowid))
        lengths.append(sum(_varints(bytes(size))))
    conn.execute(f"INSERT INTO {SEGMENTS} (segment, rowids, lengths) VALUES (?, ?, ?)",
                 [segment, np.asarray(ids, dtype=np.uint32).tobytes(), np.asarray(lengths, dtype=np.uint32).tobytes()])  # fmt: skip


def _instances(cursor: Any) -> Iterable[tuple[str, int, str]]:
    while True:
        batch = cursor.fetchmany(_FETCH_ROWS)
        if not batch:
            return
        yield from batch


def update(conn: Any, weights: Sequence[float], *, rebuild: bool = False, on_progress: Progress | None = None) -> LexicalIndexStatus:
    """Bring the index up to date with the contexts, in one savepoint (inside the caller's
    transaction, or as its own): a new segment for the contexts added since the last update, or
    the whole index again (first time, ``rebuild``, rows removed or changed, too many segments)."""
    with savepoint(conn, "lexical_index_update"):
        meta = _meta(conn)
        last = _last_rowid(conn)
        averages = _averages(conn)
        if not rebuild and _current_meta(conn, weights) is not None:
            pass  # current already
        elif (
            meta is not None and not rebuild and meta[0] == tuple(weights) and meta[3] < MAX_SEGMENTS and _only_added(conn, meta, averages)
        ):
            _add_segment(conn, meta[1], meta[3], weights, on_progress)
            _set_meta(conn, weights, last, averages, meta[3] + 1)
        else:
            drop_index(conn)
            _create(conn)
            conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.pp_bm25_instances USING fts5vocab(main, {FTS}, 'instance')")
            try:
                cursor = conn.execute("SELECT term, doc, col FROM temp.pp_bm25_instances")
                docsizes = conn.execute(f"SELECT id, sz FROM {FTS}_docsize ORDER BY id")
                _write_segment(conn, 0, _instances(cursor), docsizes, weights, on_progress)
            finally:
                conn.execute("DROP TABLE IF EXISTS temp.pp_bm25_instances")
            _set_meta(conn, weights, last, averages, 1)
    return index_status(conn, weights)


def _only_added(conn: Any, meta: tuple[tuple[float, ...], int, bytes, int, str], averages: bytes) -> bool:
    """Whether FTS5's rows are the indexed ones plus those past ``synced_rowid`` (nothing removed
    or rewritten: the rows and tokens add up)."""
    rows_then, tokens_then = _rows_and_tokens(meta[2])
    rows_now, tokens_now = _rows_and_tokens(averages)
    sizes = [sum(_varints(bytes(sz))) for (sz,) in conn.execute(f"SELECT sz FROM {FTS}_docsize WHERE id > ?", [meta[1]])]
    return rows_now == rows_then + len(sizes) and tokens_now == tokens_then + sum(sizes)


def _add_segment(conn: Any, synced_rowid: int, segment: int, weights: Sequence[float], on_progress: Progress | None) -> None:
    """Index the contexts past ``synced_rowid`` as one new segment, tokenized by an in-memory
    FTS5 table made like the corpus's."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.execute(f"CREATE VIRTUAL TABLE fresh USING fts5({', '.join(COLUMNS)}, {_tokenize_option(conn)})")
        rows = conn.execute(f"SELECT rowid, {', '.join(COLUMNS)} FROM contexts WHERE rowid > ? ORDER BY rowid", [synced_rowid])
        while batch := rows.fetchmany(10_000):
            memory.executemany(f"INSERT INTO fresh (rowid, {', '.join(COLUMNS)}) VALUES (?, ?, ?)", batch)
        memory.execute("CREATE VIRTUAL TABLE fresh_instances USING fts5vocab(fresh, 'instance')")
        cursor = memory.execute("SELECT term, doc, col FROM fresh_instances")
        docsizes = memory.execute("SELECT id, sz FROM fresh_docsize ORDER BY id").fetchall()
        _write_segment(conn, segment, _instances(cursor), docsizes, weights, on_progress)
    finally:
        memory.close()


def add_segments_of(conn: Any, source: str, offset: int) -> bool:
    """Inside the caller's transaction: the segments of the attached database ``source``'s index
    added to the main file's, each row's rowid plus ``offset``, for contexts that ``source`` holds
    and the main file took in at their rowid plus ``offset``
    (:func:`~paperpyramid.db.row_copy.add_rows`): FTS5 scores a row by its own counts and the
    totals, so the main file's index then answers as one built over all its contexts would,
    without tokenizing them again. The caller has checked that both indexes were current (the
    main file's before the contexts came in) with the same weights. False, and nothing done, when
    the main file did not take every context of ``source`` in, the segments would be more than
    ``MAX_SEGMENTS``, or a rowid would pass 32 bits: :func:`update` then indexes them."""
    mine, theirs = _meta(conn), _source_meta(conn, source)
    if mine is None or theirs is None:
        return False
    added = conn.execute("SELECT count(*), coalesce(max(rowid), 0) FROM main.contexts WHERE rowid > ?", [offset]).fetchone()
    held = int(conn.execute(f"SELECT count(*) FROM {source}.contexts").fetchone()[0])
    if int(added[0]) != held or mine[3] + theirs[1] > MAX_SEGMENTS or int(added[1]) >= 2**32:
        return False
    conn.create_function("pp_shifted_rowids", 2, _shifted_rowids, deterministic=True)
    conn.execute(f"INSERT INTO main.{POSTINGS} (term, segment, rowids, freqs) SELECT term, segment + ?, pp_shifted_rowids(rowids, ?), "
                 f"freqs FROM {source}.{POSTINGS}", [mine[3], offset])  # fmt: skip
    conn.execute(f"INSERT INTO main.{SEGMENTS} (segment, rowids, lengths) SELECT segment + ?, pp_shifted_rowids(rowids, ?), lengths "
                 f"FROM {source}.{SEGMENTS}", [mine[3], offset])  # fmt: skip
    _set_meta(conn, mine[0], _last_rowid(conn), _averages(conn), mine[3] + theirs[1])
    return True


def _source_meta(conn: Any, source: str) -> tuple[int, int] | None:
    """(synced_rowid, segments) of the attached database ``source``'s index, or None without one."""
    if conn.execute(f"SELECT 1 FROM {source}.sqlite_master WHERE name = ?", [META]).fetchone() is None:
        return None
    row = conn.execute(f"SELECT synced_rowid, segments FROM {source}.{META} WHERE id = 1").fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def _shifted_rowids(rowids: bytes, offset: int) -> bytes:
    shifted: bytes = (np.frombuffer(rowids, dtype=np.uint32) + np.uint32(offset)).tobytes()
    return shifted


def _set_meta(conn: Any, weights: Sequence[float], synced_rowid: int, averages: bytes, segments: int) -> None:
    conn.execute(f"INSERT OR REPLACE INTO {META} (id, weights, synced_rowid, averages, segments, generation) VALUES (1, ?, ?, ?, ?, ?)",
                 [json.dumps(list(weights)), synced_rowid, averages, segments, secrets.token_hex(8)])  # fmt: skip


__all__ = [
    "INDEX_MIN",
    "add_segments_of",
    "WEIGHTS",
    "LexicalIndexStatus",
    "drop_index",
    "index_added_rows",
    "index_status",
    "indexed_setwise",
    "insert_trigger_dropped",
    "invalidate",
    "is_current",
    "maintain",
    "newest_rowid",
    "search",
    "set_pending_bytes",
    "update",
]
