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

from paperpyramid.db import distill_batches as db_batches
from paperpyramid.db import sqlite
from paperpyramid.db.distill_batches import BatchResult, ImportCount
from paperpyramid.errors import ConfigurationError


@dataclass(frozen=True, slots=True)
class PendingRequest:
    """One request an article waits on: its ``custom_id``, the article and the JSON body."""

    custom_id: str
    article_id: str
    body: dict[str, Any]


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
            self._conn = db_batches.open_store(self.path, _now())
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
            return db_batches.created_at(self._conn)

    def result(self, custom_id: str) -> BatchResult | None:
        with self._lock:
            return db_batches.result(self._conn, custom_id)

    def last_round(self) -> int:
        with self._lock:
            return db_batches.last_round(self._conn)

    def round_of(self, custom_id: str) -> int | None:
        """The last round whose file holds the request, or None when no file does."""
        with self._lock:
            return db_batches.round_of(self._conn, custom_id)

    def record_round(self, number: int, path: Path, requests: Sequence[PendingRequest]) -> None:
        """Note that round ``number``'s file at ``path`` holds ``requests`` (one transaction)."""
        rows = [db_batches.RequestRow(item.custom_id, item.article_id, json.dumps(item.body, ensure_ascii=False)) for item in requests]
        with self._lock:
            db_batches.record_round(self._conn, number, path, rows, _now())

    def add_results(self, results: Iterable[BatchResult], source: str) -> ImportCount:
        """Store the results of requests this store wrote, each once, all in one transaction."""
        now = _now()
        with self._lock:
            return db_batches.add_results(self._conn, results, source, now)


__all__ = ["BatchResult", "BatchStore", "ImportCount", "PendingRequest", "store_path"]
