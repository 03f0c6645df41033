"""The LLM response cache's file: one table of replies keyed by the sha256 of the request.

:mod:`paperpyramid.llm.cache` decides what a key is and what a stored value means; this module
opens the file and reads and writes its rows. The connection is in autocommit
(``isolation_level=None``), so every reply is committed as it is stored, and in WAL mode, so
several processes (parallel distillation workers) can share the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db import sqlite
from paperpyramid.db.sqlite import Connection

#: milliseconds a write waits for another process's write to finish
BUSY_TIMEOUT_MS = 30_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    value_json TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created_at TEXT NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class StoredReply:
    """One cached reply as stored: the model that gave it, its JSON and the tokens it cost."""

    model: str
    value_json: str
    prompt_tokens: int
    completion_tokens: int


def open_cache(path: Path) -> Connection:
    """The cache file at ``path``, created with its folders when missing. Raises OSError or
    :data:`~paperpyramid.db.sqlite.DatabaseError` when it cannot be opened (the caller says
    what to do about it)."""
    conn = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite.sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(SCHEMA)
    except (OSError, sqlite.DatabaseError):
        if conn is not None:
            conn.close()
        raise
    opened: Connection = conn
    return opened


def stored_reply(conn: Connection, key: str) -> StoredReply | None:
    """The reply stored under ``key``, or None."""
    row = conn.execute("SELECT model, value_json, prompt_tokens, completion_tokens FROM replies WHERE key = ?", (key,)).fetchone()
    return None if row is None else StoredReply(row[0], row[1], row[2], row[3])


def store_reply(conn: Connection, key: str, reply: StoredReply, created_at: str) -> None:
    """Store ``reply`` under ``key``, replacing what was there (committed at once)."""
    row = (key, reply.model, reply.value_json, reply.prompt_tokens, reply.completion_tokens, created_at)
    conn.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?, ?, ?)", row)
