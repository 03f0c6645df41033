"""What bring-your-own distillation reads: the article a distillation file names, and an
article's stored pyramid to write out in the exchange format (:mod:`paperpyramid.distill.exchange`)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from paperpyramid.db.sqlite import Connection


@dataclass(frozen=True, slots=True)
class ArticleFile:
    """The file an article was ingested from: where, its sha256, its pages."""

    source_uri: str | None
    sha256: str | None
    pages: int | None


@dataclass(frozen=True, slots=True)
class StoredInsight:
    position: int
    text: str
    pages: list[int]
    section: str | None


@dataclass(frozen=True, slots=True)
class StoredConcept:
    position: int
    text: str
    #: the positions of the insights it ties together, ascending
    insight_positions: list[int]


@dataclass(frozen=True, slots=True)
class StoredPyramid:
    """An article's distilled items in order, with the model and prompts that made them."""

    model: str
    prompt_version: str
    insights: list[StoredInsight]
    concepts: list[StoredConcept]
    abstract: str | None


def article_with_sha256(conn: Connection, sha256: str) -> str | None:
    """The id of an article whose file has this sha256 (lower-case hex), or None."""
    row = conn.execute("SELECT id FROM articles WHERE sha256 = ?", [sha256]).fetchone()
    return None if row is None else str(row[0])


def article_sources(conn: Connection) -> list[tuple[str, str | None, int | None]]:
    """(article id, source URI, pages) of every article."""
    return [(row[0], row[1], row[2]) for row in conn.execute("SELECT id, source_uri, pages FROM articles")]


def article_file(conn: Connection, article_id: str) -> ArticleFile | None:
    """Where the article came from, or None when there is no such article."""
    row = conn.execute("SELECT source_uri, sha256, pages FROM articles WHERE id = ?", [article_id]).fetchone()
    return None if row is None else ArticleFile(row[0], row[1], row[2])


def stored_pyramid(conn: Connection, article_id: str) -> StoredPyramid | None:
    """The article's pyramid as stored, or None when the article is not distilled."""
    state = conn.execute(
        "SELECT model, prompt_version FROM distillations WHERE article_id = ? AND status = 'done'", [article_id]
    ).fetchone()
    if state is None:
        return None
    insights = list(
        conn.execute("SELECT id, position, text, pages, section FROM insights WHERE article_id = ? ORDER BY position", [article_id])
    )
    number = {row[0]: row[1] for row in insights}
    concepts = []
    for cid, position, text in conn.execute("SELECT id, position, text FROM concepts WHERE article_id = ? ORDER BY position", [article_id]):
        linked = sorted(number[row[0]] for row in conn.execute("SELECT insight_id FROM concepts_insights WHERE concept_id = ?", [cid]))
        concepts.append(StoredConcept(position, text, linked))
    abstract = conn.execute("SELECT text FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
    return StoredPyramid(
        state[0],
        state[1],
        [StoredInsight(position, text, json.loads(pages), section) for _, position, text, pages, section in insights],
        concepts,
        abstract[0] if abstract else None,
    )
