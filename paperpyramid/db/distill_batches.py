"""The batch store's file: the requests a batch distillation wrote to round files and the
results imported for them (:mod:`paperpyramid.distill.batch.store` says what it is for).

The connection is in autocommit (``isolation_level=None``) and every write below is one
transaction, so a kill -9 leaves a results file imported whole or not at all; results are keyed
by the request's ``custom_id`` and inserted once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db import sqlite
from paperpyramid.db.sqlite import Connection

#: milliseconds a write waits for another process's write to finish
BUSY_TIMEOUT_MS = 30_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS requests (
    custom_id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL,
    body TEXT NOT NULL,             -- the request's JSON body, as written to the round file
    first_round INTEGER NOT NULL,
    last_round INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    custom_id TEXT PRIMARY KEY REFERENCES requests (custom_id),
    status_code INTEGER NOT NULL,   -- 200, or the error's status (0 when the line gave none)
    completion TEXT,                -- the chat completion's JSON body when status_code is 200
    error TEXT,                     -- why the request failed, one line
    source TEXT NOT NULL,           -- the file it was imported from
    imported_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    number INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    requests INTEGER NOT NULL,
    written_at TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One line of a batch output file, read: a completion's JSON body (status 200), or why the
    request failed (``error``)."""

    custom_id: str
    status_code: int
    completion: str | None
    error: str | None


@dataclass(frozen=True, slots=True)
class ImportCount:
    new: int = 0  # results stored now
    again: int = 0  # results stored before (the same file imported twice, or a line repeated)
    unknown: int = 0  # lines naming a request this store never wrote


@dataclass(frozen=True, slots=True)
class RequestRow:
    """A request as a round file holds it: its ``custom_id``, the article and the JSON body."""

    custom_id: str
    article_id: str
    body_json: str


def open_store(path: Path, created_at: str) -> Connection:
    """The store at ``path`` (created when missing, its creation time noted once), safe to
    share between threads under the caller's lock. Raises
    :data:`~paperpyramid.db.sqlite.DatabaseError` when the file is not a store."""
    conn: Connection = sqlite.sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.executescript(SCHEMA)
    conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('created_at', ?)", [created_at])
    return conn


def created_at(conn: Connection) -> str:
    """When the store was created (UTC, ISO seconds)."""
    return str(conn.execute("SELECT value FROM meta WHERE key = 'created_at'").fetchone()[0])


def result(conn: Connection, custom_id: str) -> BatchResult | None:
    """The result imported for the request ``custom_id``, or None."""
    row = conn.execute("SELECT status_code, completion, error FROM results WHERE custom_id = ?", [custom_id]).fetchone()
    return None if row is None else BatchResult(custom_id, int(row[0]), row[1], row[2])


def last_round(conn: Connection) -> int:
    """The number of the last round written (0 before the first)."""
    return int(conn.execute("SELECT coalesce(max(number), 0) FROM rounds").fetchone()[0])


def round_of(conn: Connection, custom_id: str) -> int | None:
    """The last round whose file holds the request, or None when no file does."""
    row = conn.execute("SELECT last_round FROM requests WHERE custom_id = ?", [custom_id]).fetchone()
    return None if row is None else int(row[0])


def record_round(conn: Connection, number: int, path: Path, requests: Sequence[RequestRow], written_at: str) -> None:
    """Note that round ``number``'s file at ``path`` holds ``requests``, in one transaction."""
    with _transaction(conn):
        conn.executemany(
            "INSERT INTO requests (custom_id, article_id, body, first_round, last_round) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (custom_id) DO UPDATE SET last_round = excluded.last_round",
            [(item.custom_id, item.article_id, item.body_json, number, number) for item in requests],
        )
        conn.execute(
            "INSERT OR REPLACE INTO rounds (number, path, requests, written_at) VALUES (?, ?, ?, ?)",
            [number, str(path), len(requests), written_at],
        )


def add_results(conn: Connection, results: Iterable[BatchResult], source: str, imported_at: str) -> ImportCount:
    """Store the results of requests the store holds, each once, all in one transaction."""
    new = again = unknown = 0
    with _transaction(conn):
        for item in results:
            if conn.execute("SELECT 1 FROM requests WHERE custom_id = ?", [item.custom_id]).fetchone() is None:
                unknown += 1
                continue
            cursor = conn.execute(
                "INSERT OR IGNORE INTO results (custom_id, status_code, completion, error, source, imported_at) VALUES (?, ?, ?, ?, ?, ?)",
                [item.custom_id, item.status_code, item.completion, item.error, source, imported_at],
            )
            if cursor.rowcount:
                new += 1
            else:
                again += 1
    return ImportCount(new, again, unknown)


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
