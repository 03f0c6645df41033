"""What the recollections step reads (:mod:`paperpyramid.distill.recollections`): the articles
waiting for it, a paper's title and abstract, the candidates to connect it with, and the
recollections and concepts it is shown. The step's writes are in :mod:`paperpyramid.db.pyramid`."""

from __future__ import annotations

from collections.abc import Sequence

from paperpyramid.db.sqlite import Connection

#: ids asked in one ``IN (...)``: well under SQLite's limit on a statement's parameters
_CHUNK = 500


def pending_articles(conn: Connection) -> list[str]:
    """The distilled articles the step has not run for, those distilled first first."""
    return [
        row[0]
        for row in conn.execute("SELECT article_id FROM distillations WHERE status = 'done' AND recollected = 0 ORDER BY updated_at, rowid")
    ]


def is_recollected(conn: Connection, article_id: str) -> bool:
    """Whether the step has run for the (distilled) article."""
    return bool(conn.execute("SELECT recollected FROM distillations WHERE article_id = ?", [article_id]).fetchone()[0])


def recollected_among(conn: Connection, article_ids: Sequence[str]) -> set[str]:
    """Those of ``article_ids`` that are distilled and have had the step."""
    ids = list(article_ids)
    return {
        row[0]
        for start in range(0, len(ids), _CHUNK)
        for row in conn.execute(
            f"SELECT article_id FROM distillations WHERE status = 'done' AND recollected = 1 AND article_id IN ({','.join('?' * len(ids[start : start + _CHUNK]))})",
            ids[start : start + _CHUNK],
        )
    }


def title(conn: Connection, article_id: str) -> str | None:
    """The article's title; None when it has none or there is no such article."""
    row = conn.execute("SELECT title FROM articles WHERE id = ?", [article_id]).fetchone()
    return None if row is None else row[0]


def abstract_text(conn: Connection, article_id: str) -> str | None:
    """The text of the article's distilled abstract, or None when it has none."""
    row = conn.execute("SELECT text FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
    return None if row is None else row[0]


def abstract_id(conn: Connection, article_id: str) -> str | None:
    """The id of the article's distilled abstract, or None."""
    row = conn.execute("SELECT id FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
    return None if row is None else str(row[0])


def latest_abstracts(conn: Connection, other_than: str, limit: int) -> list[str]:
    """The ids of the ``limit`` abstracts stored last, of articles other than ``other_than``."""
    return [
        row[0] for row in conn.execute("SELECT id FROM abstracts WHERE article_id != ? ORDER BY rowid DESC LIMIT ?", [other_than, limit])
    ]


def abstract_owners(conn: Connection, abstract_ids: Sequence[str]) -> list[str]:
    """The article of each abstract, in order (an id that names no abstract is left out)."""
    rows = (conn.execute("SELECT article_id FROM abstracts WHERE id = ?", [aid]).fetchone() for aid in abstract_ids)
    return [row[0] for row in rows if row]


def latest_recollections(conn: Connection, limit: int) -> list[str]:
    """The ids of the ``limit`` recollections changed last."""
    return [row[0] for row in conn.execute("SELECT id FROM recollections ORDER BY updated_at DESC LIMIT ?", [limit])]


def recollection_text(conn: Connection, recollection_id: str) -> str:
    """The recollection's statement."""
    return str(conn.execute("SELECT text FROM recollections WHERE id = ?", [recollection_id]).fetchone()[0])


def concepts(conn: Connection, article_id: str) -> list[tuple[str, str]]:
    """(id, text) of the article's concepts, in order."""
    return [(row[0], row[1]) for row in conn.execute("SELECT id, text FROM concepts WHERE article_id = ? ORDER BY position", [article_id])]


def concept_insights(conn: Connection, concept_id: str) -> list[str]:
    """The ids of the insights the concept ties together."""
    return [row[0] for row in conn.execute("SELECT insight_id FROM concepts_insights WHERE concept_id = ?", [concept_id])]
