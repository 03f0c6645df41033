"""The knowledge pyramid's rows: one article's insights, concepts and abstract stored (or its
failure recorded) in ONE transaction, and the recollections across articles.

``distill/`` produces an :class:`ArticlePyramid` and hands it to :func:`store_pyramid` through
the single writer's connection. An article is distilled once: storing it again replaces the
earlier pyramid in the same transaction (a re-distillation asked for), so a kill -9 at any
moment leaves either the old rows or the new ones, never both and never half.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.schema import PYRAMID_LEVELS
from paperpyramid.db.sqlite import Connection


@dataclass(frozen=True, slots=True)
class LLMCallRecord:
    """One model call and what it cost; ``cached`` calls cost nothing this time."""

    step: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool = False
    attempts: int = 1
    seconds: float = 0.0


@dataclass(slots=True)
class InsightRow:
    text: str
    pages: list[int]
    section: str | None
    num_tokens: int
    #: (context id, match score), best first: where a hit on the insight drills down to
    contexts: list[tuple[str, float]] = field(default_factory=list)


@dataclass(slots=True)
class ConceptRow:
    text: str
    num_tokens: int
    #: 0-based indices into the article's insights
    insights: list[int] = field(default_factory=list)


@dataclass(slots=True)
class LevelVectors:
    """Vectors of one model for a pyramid's items, level by level, in the items' order."""

    embedder: str
    dimension: int
    window: int | None
    by_level: dict[str, npt.NDArray[np.float32]] = field(default_factory=dict)


@dataclass(slots=True)
class ArticlePyramid:
    """Everything distilled from one article, ready to store."""

    article_id: str
    model: str
    prompt_version: str
    insights: list[InsightRow]
    concepts: list[ConceptRow]
    abstract: str | None
    abstract_tokens: int = 0
    calls: list[LLMCallRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    vectors: LevelVectors | None = None


def new_id() -> str:
    from paperpyramid.db.writer import new_id as writer_new_id

    return writer_new_id()


def store_pyramid(conn: Any, pyramid: ArticlePyramid) -> dict[str, list[str]]:
    """Write the article's pyramid, its calls and its ``done`` row in one transaction,
    replacing an earlier pyramid of the article; return the new ids by level."""
    insight_ids = [new_id() for _ in pyramid.insights]
    concept_ids = [new_id() for _ in pyramid.concepts]
    abstract_ids = [new_id()] if pyramid.abstract else []
    _check(pyramid)
    with _transaction(conn):
        delete_pyramid(conn, pyramid.article_id)
        conn.executemany(
            "INSERT INTO insights (id, article_id, position, text, pages, page_number, section, num_tokens, model, prompt_version) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    iid,
                    pyramid.article_id,
                    position,
                    row.text,
                    json.dumps(row.pages),
                    min(row.pages, default=None),
                    row.section,
                    row.num_tokens,
                    pyramid.model,
                    pyramid.prompt_version,
                )
                for position, (iid, row) in enumerate(zip(insight_ids, pyramid.insights, strict=True), 1)
            ],
        )
        conn.executemany(
            "INSERT INTO insights_contexts (insight_id, context_id, score) VALUES (?, ?, ?)",
            [
                (iid, context_id, score)
                for iid, row in zip(insight_ids, pyramid.insights, strict=True)
                for context_id, score in dict(row.contexts).items()
            ],
        )
        conn.executemany(
            "INSERT INTO concepts (id, article_id, position, text, num_tokens, model, prompt_version) VALUES (?,?,?,?,?,?,?)",
            [
                (cid, pyramid.article_id, position, row.text, row.num_tokens, pyramid.model, pyramid.prompt_version)
                for position, (cid, row) in enumerate(zip(concept_ids, pyramid.concepts, strict=True), 1)
            ],
        )
        conn.executemany(
            "INSERT INTO concepts_insights (concept_id, insight_id) VALUES (?, ?)",
            [
                (cid, insight_ids[index])
                for cid, row in zip(concept_ids, pyramid.concepts, strict=True)
                for index in sorted(set(row.insights))
            ],
        )
        if pyramid.abstract:
            conn.execute(
                "INSERT INTO abstracts (id, article_id, text, num_tokens, model, prompt_version) VALUES (?,?,?,?,?,?)",
                [abstract_ids[0], pyramid.article_id, pyramid.abstract, pyramid.abstract_tokens, pyramid.model, pyramid.prompt_version],
            )
        if pyramid.vectors is not None:
            ids = {"insights": insight_ids, "concepts": concept_ids, "abstracts": abstract_ids}
            embedder = db_vectors.ensure_embedder(conn, pyramid.vectors.embedder, pyramid.vectors.dimension, pyramid.vectors.window)
            for level, matrix in pyramid.vectors.by_level.items():
                db_vectors.insert_level_vectors(conn, embedder, level, ids[level], matrix)
        _record_calls(conn, pyramid.article_id, pyramid.prompt_version, pyramid.calls)
        _record_status(
            conn, pyramid.article_id, "done", None, pyramid.model, pyramid.prompt_version, pyramid.calls, pyramid.warnings, pyramid.seconds
        )
    return {"insights": insight_ids, "concepts": concept_ids, "abstracts": abstract_ids}


def record_failure(
    conn: Any, article_id: str, model: str, prompt_version: str, error: str, calls: Sequence[LLMCallRecord], seconds: float = 0.0
) -> None:
    """Note why the article could not be distilled (its earlier pyramid, if any, stays), with
    the calls it cost; a re-run tries it again."""
    with _transaction(conn):
        _record_calls(conn, article_id, prompt_version, calls)
        previous = conn.execute("SELECT status FROM distillations WHERE article_id = ?", [article_id]).fetchone()
        if previous is not None and previous[0] == "done":
            # keep the pyramid it has and say the re-distillation failed
            conn.execute(
                "UPDATE distillations SET warnings = json_insert(warnings, '$[#]', ?), updated_at = ? WHERE article_id = ?",
                [f"re-distillation with {model} failed: {error}", _now(), article_id],
            )
            return
        _record_status(conn, article_id, "failed", error, model, prompt_version, calls, [], seconds)


def roll_back(conn: Connection) -> None:
    """Undo the connection's open transaction, if one is open (what a failed store left)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def delete_pyramid(conn: Any, article_id: str) -> None:
    """Remove an article's insights, concepts and abstract with their links and vectors (in
    the caller's transaction). Recollections keep the article as a source, without its insights."""
    delete_pyramids(conn, [article_id])


def delete_pyramids(conn: Any, article_ids: Sequence[str]) -> None:
    """:func:`delete_pyramid` for many articles at once: each kind of row goes by one statement
    over all of them, not one an article (``recollections_sources`` has no index on its insight,
    so an article at a time would read it whole once an article)."""
    articles = json.dumps(list(article_ids))
    for level in ("insights", "concepts", "abstracts"):
        ids = [row[0] for row in conn.execute(f"SELECT id FROM {level} WHERE article_id IN (SELECT value FROM json_each(?))", [articles])]
        if not ids:
            continue
        db_vectors.delete_level_vectors(conn, level, ids)
        items = json.dumps(ids)
        if level == "insights":
            conn.execute("DELETE FROM insights_contexts WHERE insight_id IN (SELECT value FROM json_each(?))", [items])
            conn.execute("DELETE FROM concepts_insights WHERE insight_id IN (SELECT value FROM json_each(?))", [items])
            conn.execute(
                "UPDATE OR IGNORE recollections_sources SET insight_id = NULL WHERE insight_id IN (SELECT value FROM json_each(?))", [items]
            )
            conn.execute("DELETE FROM recollections_sources WHERE insight_id IN (SELECT value FROM json_each(?))", [items])
        if level == "concepts":
            conn.execute("DELETE FROM concepts_insights WHERE concept_id IN (SELECT value FROM json_each(?))", [items])
        conn.execute(f"DELETE FROM {level} WHERE id IN (SELECT value FROM json_each(?))", [items])


def save_recollection(
    conn: Connection,
    recollection_id: str | None,
    text: str,
    num_tokens: int,
    article_id: str,
    sources: Sequence[tuple[str, str | None]],
    model: str,
    prompt_version: str,
    now: str,
) -> str:
    """Create a recollection (``recollection_id`` None) or update one to a new version, note
    the change in its history as made for ``article_id``, and add its ``sources`` ((article id,
    insight id or None) pairs, each once); return its id. In the caller's transaction."""
    if recollection_id is None:
        rid, version, change = new_id(), 1, "created"
        conn.execute(
            "INSERT INTO recollections (id, text, num_tokens, version, model, prompt_version, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
            [rid, text, num_tokens, 1, model, prompt_version, now, now],
        )
    else:
        rid, change = recollection_id, "updated"
        version = int(conn.execute("SELECT version FROM recollections WHERE id = ?", [rid]).fetchone()[0]) + 1
        conn.execute(
            "UPDATE recollections SET text = ?, num_tokens = ?, version = ?, model = ?, prompt_version = ?, updated_at = ? WHERE id = ?",
            [text, num_tokens, version, model, prompt_version, now, rid],
        )
    conn.execute(
        "INSERT INTO recollection_history (recollection_id, version, text, change, article_id, model, prompt_version, changed_at) VALUES (?,?,?,?,?,?,?,?)",
        [rid, version, text, change, article_id, model, prompt_version, now],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO recollections_sources (recollection_id, article_id, insight_id, added_at) VALUES (?,?,?,?)",
        [(rid, aid, iid, now) for aid, iid in sources],
    )
    return rid


def mark_recollected(conn: Connection, article_id: str) -> None:
    """Note that the recollections step has run for the article (in the caller's transaction)."""
    conn.execute("UPDATE distillations SET recollected = 1 WHERE article_id = ?", [article_id])


@dataclass(frozen=True, slots=True)
class DistillState:
    status: str
    model: str
    prompt_version: str
    error: str | None
    recollected: bool


def distill_states(conn: Any) -> dict[str, DistillState]:
    """Every article's distillation state by article id (articles never tried are absent)."""
    rows = conn.execute("SELECT article_id, status, model, prompt_version, error, recollected FROM distillations")
    return {row[0]: DistillState(row[1], row[2], row[3], row[4], bool(row[5])) for row in rows}


def level_counts(conn: Any) -> dict[str, tuple[int, int]]:
    """(items, tokens) per distilled level, and the contexts' for comparison."""
    counts = {}
    for level in ("contexts", *PYRAMID_LEVELS):
        items, tokens = conn.execute(f"SELECT count(*), coalesce(sum(num_tokens), 0) FROM {level}").fetchone()
        counts[level] = (int(items), int(tokens))
    return counts


def _check(pyramid: ArticlePyramid) -> None:
    for row in pyramid.concepts:
        bad = [index for index in row.insights if not 0 <= index < len(pyramid.insights)]
        if bad:
            raise ValueError(f"a concept links insights {bad}, but the article has {len(pyramid.insights)}")
    if pyramid.vectors is not None:
        sizes = {"insights": len(pyramid.insights), "concepts": len(pyramid.concepts), "abstracts": 1 if pyramid.abstract else 0}
        for level, matrix in pyramid.vectors.by_level.items():
            if level not in sizes or len(matrix) != sizes[level]:
                raise ValueError(f"{len(matrix)} vectors for {sizes.get(level, 0)} {level}")


def _record_calls(conn: Any, article_id: str | None, prompt_version: str, calls: Sequence[LLMCallRecord]) -> None:
    now = _now()
    conn.executemany(
        "INSERT INTO llm_calls (article_id, step, model, prompt_version, prompt_tokens, completion_tokens, cached, attempts, seconds, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (article_id, c.step, c.model, prompt_version, c.prompt_tokens, c.completion_tokens, int(c.cached), c.attempts, c.seconds, now)
            for c in calls
        ],
    )


def _record_status(
    conn: Any,
    article_id: str,
    status: str,
    error: str | None,
    model: str,
    prompt_version: str,
    calls: Sequence[LLMCallRecord],
    warnings: Sequence[str],
    seconds: float,
) -> None:
    spent = [call for call in calls if not call.cached]
    conn.execute(
        """
        INSERT INTO distillations (article_id, status, error, model, prompt_version, calls, cached_calls, prompt_tokens,
                                   completion_tokens, attempts, seconds, warnings, recollected, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 0, ?)
        ON CONFLICT (article_id) DO UPDATE SET
            status = excluded.status, error = excluded.error, model = excluded.model, prompt_version = excluded.prompt_version,
            calls = excluded.calls, cached_calls = excluded.cached_calls, prompt_tokens = excluded.prompt_tokens,
            completion_tokens = excluded.completion_tokens, attempts = distillations.attempts + 1, seconds = excluded.seconds,
            warnings = excluded.warnings, recollected = 0, updated_at = excluded.updated_at
        """,
        [
            article_id,
            status,
            error,
            model,
            prompt_version,
            len(calls),
            len(calls) - len(spent),
            sum(c.prompt_tokens for c in spent),
            sum(c.completion_tokens for c in spent),
            seconds,
            json.dumps(list(warnings), ensure_ascii=False),
            _now(),
        ],
    )


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT on a plain connection, or a savepoint inside an open one."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.outer = not conn.in_transaction

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE" if self.outer else "SAVEPOINT pyramid")

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT" if self.outer else "RELEASE pyramid")
        elif not self.conn.in_transaction:
            return  # SQLite rolled back already (disk full, I/O error): let the original error through
        elif self.outer:
            self.conn.execute("ROLLBACK")
        else:
            self.conn.execute("ROLLBACK TO pyramid")
            self.conn.execute("RELEASE pyramid")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
