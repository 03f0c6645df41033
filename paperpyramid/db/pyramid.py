"""The knowledge pyramid's rows: one article's insights, concepts and abstract stored (or its
failure recorded) in ONE transaction, and the recollections across articles.

``distill/`` produces an :class:`ArticlePyramid` and hands it to :func:`store_pyramid` through
the single writer's connection. An article is distilled once: storing it again replaces the
earlier pyramid in the same transaction (a re-distillation asked for), so a kill -9 at any
moment leaves either the old rows or the new ones, never both and never half. A bulk load
stores many articles' pyramids in one transaction with :func:`store_pyramids`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.db import lexical_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.article_rows import new_id as new_id  # re-exported: every pyramid row id is a writer id
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


#: pyramids stored together from which their levels' FTS5 rows go in one statement a table: dropping
#: and creating the triggers again changes the schema, which costs more than one article's trigger calls
SETWISE_FROM = 2


def store_pyramid(conn: Any, pyramid: ArticlePyramid) -> dict[str, list[str]]:
    """Write the article's pyramid, its calls and its ``done`` row in one transaction,
    replacing an earlier pyramid of the article; return the new ids by level."""
    return store_pyramids(conn, [pyramid])[0]


def store_pyramids(conn: Any, pyramids: Sequence[ArticlePyramid]) -> list[dict[str, list[str]]]:
    """Write these articles' pyramids, calls and ``done`` rows in ONE transaction (all or none),
    each replacing an earlier pyramid of its article as :func:`store_pyramid` would, one after
    the other; the new ids by level, one dict a pyramid, in order.

    The rows go one statement per table for the whole batch, not one per article. From
    ``SETWISE_FROM`` pyramids on, the insights, concepts and abstracts reach their FTS5 indexes in one
    ``INSERT ... SELECT`` a table (:func:`~paperpyramid.db.lexical_index.indexed_setwise`), not one
    trigger call per row: each trigger call opens a statement savepoint, on which FTS5 writes its
    pending terms out as a new segment, so a batch of 64 articles' 47 insights each cost ~1.2 ms an
    article that way against ~0.4 set-wise, and their ~8 concepts and one abstract ~0.3 ms more by
    trigger. An article given twice is stored twice, the later replacing the earlier."""
    for pyramid in pyramids:
        _check(pyramid)
    ids = [_new_ids(pyramid) for pyramid in pyramids]
    if not pyramids:
        return []
    with _transaction(conn):
        for run in _distinct_runs(pyramids, ids):
            delete_pyramids(conn, [pyramid.article_id for pyramid, _ in run])
            if len(run) < SETWISE_FROM:
                _insert_pyramids(conn, run)
                continue
            with lexical_index.indexed_setwise(conn, ("insights", "concepts", "abstracts")):
                _insert_pyramids(conn, run)
    return ids


def _new_ids(pyramid: ArticlePyramid) -> dict[str, list[str]]:
    return {
        "insights": [new_id() for _ in pyramid.insights],
        "concepts": [new_id() for _ in pyramid.concepts],
        "abstracts": [new_id()] if pyramid.abstract else [],
    }


def _distinct_runs(
    pyramids: Sequence[ArticlePyramid], ids: Sequence[dict[str, list[str]]]
) -> list[list[tuple[ArticlePyramid, dict[str, list[str]]]]]:
    """The batch cut, in order, where an article comes again: within a run every article's old
    pyramid can go first and the new ones go in together, as one at a time would leave them."""
    runs: list[list[tuple[ArticlePyramid, dict[str, list[str]]]]] = [[]]
    seen: set[str] = set()
    for pyramid, item_ids in zip(pyramids, ids, strict=True):
        if pyramid.article_id in seen:
            runs.append([])
            seen.clear()
        seen.add(pyramid.article_id)
        runs[-1].append((pyramid, item_ids))
    return runs


def _insert_pyramids(conn: Any, run: Sequence[tuple[ArticlePyramid, dict[str, list[str]]]]) -> None:
    """Insert the rows of pyramids whose articles hold none (in the caller's transaction): one
    ``executemany`` per table, the rows in the pyramids' order; their vectors one statement per
    model and level."""
    conn.executemany(
        "INSERT INTO insights (id, article_id, position, text, pages, page_number, section, num_tokens, model, prompt_version) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (iid, p.article_id, position, row.text, json.dumps(row.pages), min(row.pages, default=None), row.section, row.num_tokens,
             p.model, p.prompt_version)
            for p, ids in run
            for position, (iid, row) in enumerate(zip(ids["insights"], p.insights, strict=True), 1)
        ],
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO insights_contexts (insight_id, context_id, score) VALUES (?, ?, ?)",
        [
            (iid, context_id, score)
            for p, ids in run
            for iid, row in zip(ids["insights"], p.insights, strict=True)
            for context_id, score in dict(row.contexts).items()
        ],
    )
    conn.executemany(
        "INSERT INTO concepts (id, article_id, position, text, num_tokens, model, prompt_version) VALUES (?,?,?,?,?,?,?)",
        [
            (cid, p.article_id, position, row.text, row.num_tokens, p.model, p.prompt_version)
            for p, ids in run
            for position, (cid, row) in enumerate(zip(ids["concepts"], p.concepts, strict=True), 1)
        ],
    )
    conn.executemany(
        "INSERT INTO concepts_insights (concept_id, insight_id) VALUES (?, ?)",
        [
            (cid, ids["insights"][index])
            for p, ids in run
            for cid, row in zip(ids["concepts"], p.concepts, strict=True)
            for index in sorted(set(row.insights))
        ],
    )
    conn.executemany(
        "INSERT INTO abstracts (id, article_id, text, num_tokens, model, prompt_version) VALUES (?,?,?,?,?,?)",
        [(ids["abstracts"][0], p.article_id, p.abstract, p.abstract_tokens, p.model, p.prompt_version) for p, ids in run if p.abstract],
    )
    _insert_item_vectors(conn, run)
    stamp = _now()
    conn.executemany(_RECORD_CALL, [_call_row(p.article_id, p.prompt_version, call, stamp) for p, _ in run for call in p.calls])
    conn.executemany(
        _RECORD_STATUS,
        [_status_row(p.article_id, "done", None, p.model, p.prompt_version, p.calls, p.warnings, p.seconds, stamp) for p, _ in run],
    )


def _insert_item_vectors(conn: Any, run: Sequence[tuple[ArticlePyramid, dict[str, list[str]]]]) -> None:
    """The pyramids' vectors, one ``executemany`` per model and level (a batch has one model)."""
    groups: dict[tuple[str, int, int | None, str], tuple[list[str], list[npt.NDArray[np.float32]]]] = {}
    for p, ids in run:
        if p.vectors is not None:
            for level, matrix in p.vectors.by_level.items():
                item_ids, matrices = groups.setdefault((p.vectors.embedder, p.vectors.dimension, p.vectors.window, level), ([], []))
                item_ids.extend(ids[level])
                matrices.append(matrix)
    embedders: dict[tuple[str, int, int | None], db_vectors.EmbedderRow] = {}
    for (name, dimension, window, level), (item_ids, matrices) in groups.items():
        if (name, dimension, window) not in embedders:
            embedders[name, dimension, window] = db_vectors.ensure_embedder(conn, name, dimension, window)
        matrix = matrices[0] if len(matrices) == 1 else np.concatenate(matrices)
        db_vectors.insert_level_vectors(conn, embedders[name, dimension, window], level, item_ids, matrix)


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
        conn.execute(_RECORD_STATUS, _status_row(article_id, "failed", error, model, prompt_version, calls, [], seconds, _now()))


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


_RECORD_CALL = (
    "INSERT INTO llm_calls (article_id, step, model, prompt_version, prompt_tokens, completion_tokens, cached, attempts, seconds, "
    "created_at) VALUES (?,?,?,?,?,?,?,?,?,?)"
)

#: an article's distillation state: replaces the last one, counting the attempts
_RECORD_STATUS = """
    INSERT INTO distillations (article_id, status, error, model, prompt_version, calls, cached_calls, prompt_tokens,
                               completion_tokens, attempts, seconds, warnings, recollected, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 0, ?)
    ON CONFLICT (article_id) DO UPDATE SET
        status = excluded.status, error = excluded.error, model = excluded.model, prompt_version = excluded.prompt_version,
        calls = excluded.calls, cached_calls = excluded.cached_calls, prompt_tokens = excluded.prompt_tokens,
        completion_tokens = excluded.completion_tokens, attempts = distillations.attempts + 1, seconds = excluded.seconds,
        warnings = excluded.warnings, recollected = 0, updated_at = excluded.updated_at
"""


def _record_calls(conn: Any, article_id: str | None, prompt_version: str, calls: Sequence[LLMCallRecord]) -> None:
    stamp = _now()
    conn.executemany(_RECORD_CALL, [_call_row(article_id, prompt_version, call, stamp) for call in calls])


def _call_row(article_id: str | None, prompt_version: str, c: LLMCallRecord, stamp: str) -> tuple[Any, ...]:
    return (article_id, c.step, c.model, prompt_version, c.prompt_tokens, c.completion_tokens, int(c.cached), c.attempts, c.seconds, stamp)


def _status_row(
    article_id: str,
    status: str,
    error: str | None,
    model: str,
    prompt_version: str,
    calls: Sequence[LLMCallRecord],
    warnings: Sequence[str],
    seconds: float,
    stamp: str,
) -> tuple[Any, ...]:
    spent = [call for call in calls if not call.cached]
    prompt_tokens = sum(c.prompt_tokens for c in spent)
    completion_tokens = sum(c.completion_tokens for c in spent)
    return (article_id, status, error, model, prompt_version, len(calls), len(calls) - len(spent), prompt_tokens, completion_tokens,
            seconds, json.dumps(list(warnings), ensure_ascii=False), stamp)  # fmt: skip


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
