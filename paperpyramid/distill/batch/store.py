"""The batch store: the requests written to round files and the results imported for them,
kept in an SQLite file beside the corpus (``<corpus>.batch.sqlite``).

It is apart from the corpus because it is working state, not part of the corpus a snapshot
ships; and the corpus stays the only record of what was distilled. Every write is one
transaction (autocommit between them), so a kill -9 leaves a results file imported whole or not
at all; results are keyed by the request's ``custom_id`` and inserted once, so importing the
same file twice stores nothing twice. Only results for requests this store wrote are kept: a
line naming another request (another corpus's file, a hand-written line) is counted and ignored.
Safe to call from several threads (the distillation's workers read results from it).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperpyramid.db import sqlite
from paperpyramid.errors import ConfigurationError

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
class PendingRequest:
    """One request an article waits on: its ``custom_id``, the article and the JSON body."""

    custom_id: str
    article_id: str
    body: dict[str, Any]


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


def store_path(db_path: str | Path) -> Path:
    """Where the batch store of the corpus at ``db_path`` lives."""
    return Path(f"{db_path}.batch.sqlite")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class BatchStore:
    """The batch store at ``path`` (created when missing); see the module docstring."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._conn = sqlite.sqlite3.connect(
                str(self.path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.executescript(SCHEMA)
            self._conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('created_at', ?)", [_now()])
        except sqlite.DatabaseError as exc:
            raise ConfigurationError(f"cannot open the batch store {self.path}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> BatchStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def created_at(self) -> str:
        """When the batch began (UTC, ISO seconds, as the corpus writes its times)."""
        with self._lock:
            return str(self._conn.execute("SELECT value FROM meta WHERE key = 'created_at'").fetchone()[0])

    def result(self, custom_id: str) -> BatchResult | None:
        with self._lock:
            row = self._conn.execute("SELECT status_code, completion, error FROM results WHERE custom_id = ?", [custom_id]).fetchone()
        return None if row is None else BatchResult(custom_id, int(row[0]), row[1], row[2])

    def last_round(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT coalesce(max(number), 0) FROM rounds").fetchone()[0])

    def round_of(self, custom_id: str) -> int | None:
        """The last round whose file holds the request, or None when no file does."""
        with self._lock:
            row = self._conn.execute("SELECT last_round FROM requests WHERE custom_id = ?", [custom_id]).fetchone()
        return None if row is None else int(row[0])

    def record_round(self, number: int, path: Path, requests: Sequence[PendingRequest]) -> None:
        """Note that round ``number``'s file at ``path`` holds ``requests`` (one transaction)."""
        with self._lock, _transaction(self._conn):
            self._conn.executemany(
                "INSERT INTO requests (custom_id, article_id, body, first_round, last_round) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (custom_id) DO UPDATE SET last_round = excluded.last_round",
                [(item.custom_id, item.article_id, json.dumps(item.body, ensure_ascii=False), number, number) for item in requests],
            )
            self._conn.execute(
                "INSERT OR REPLACE INTO rounds (number, path, requests, written_at) VALUES (?, ?, ?, ?)",
                [number, str(path), len(requests), _now()],
            )

    def add_results(self, results: Iterable[BatchResult], source: str) -> ImportCount:
        """Store the results of requests this store wrote, each once, all in one transaction."""
        new = again = unknown = 0
        now = _now()
        with self._lock, _transaction(self._conn):
            for result in results:
                if self._conn.execute("SELECT 1 FROM requests WHERE custom_id = ?", [result.custom_id]).fetchone() is None:
                    unknown += 1
                    continue
                cursor = self._conn.execute(
                    "INSERT OR IGNORE INTO results (custom_id, status_code, completion, error, source, imported_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [result.custom_id, result.status_code, result.completion, result.error, source, now],
                )
                if cursor.rowcount:
                    new += 1
                else:
                    again += 1
        return ImportCount(new, again, unknown)


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


__all__ = ["BatchResult", "BatchStore", "ImportCount", "PendingRequest", "store_path"]
