"""Which articles are distilled, and what their distillations hold: the ids, the sources of the
distilled articles, the distillations' status counts and failures, and each level's size."""

from __future__ import annotations

import json
from collections.abc import Sequence

from paperpyramid.db.schema import PYRAMID_LEVELS
from paperpyramid.db.sqlite import Connection


def distilled_article_ids(conn: Connection) -> list[str]:
    """The ids of the articles whose distillation is done, in the order they were first distilled."""
    return [row[0] for row in conn.execute("SELECT article_id FROM distillations WHERE status = 'done' ORDER BY rowid")]


def distilled_sources(conn: Connection) -> list[tuple[str, str | None, int | None]]:
    """(article id, source URI, pages) of every article whose distillation is done."""
    return conn.execute(
        "SELECT a.id, a.source_uri, a.pages FROM distillations AS d JOIN articles AS a ON a.id = d.article_id WHERE d.status = 'done'"
    ).fetchall()


def status_counts(conn: Connection) -> dict[str, int]:
    """How many distillations have each status ("done", "failed")."""
    return {str(status): int(count) for status, count in conn.execute("SELECT status, count(*) FROM distillations GROUP BY status")}


def recent_failures(conn: Connection, limit: int) -> list[tuple[str, str | None, str | None]]:
    """(article id, title, error) of the ``limit`` distillations that failed last, the latest first."""
    return conn.execute(
        "SELECT a.id, a.title, d.error FROM distillations AS d JOIN articles AS a ON a.id = d.article_id WHERE d.status = 'failed' "
        "ORDER BY d.updated_at DESC LIMIT ?",
        [limit],
    ).fetchall()


def level_sizes(conn: Connection, article_ids: Sequence[str]) -> tuple[int, dict[str, tuple[int, int]]]:
    """The tokens of the contexts of ``article_ids``, and (items, tokens) of each of their distilled
    levels but recollections (which span articles)."""
    ids = json.dumps(list(article_ids))
    where = "(SELECT value FROM json_each(?))"
    contexts = int(conn.execute(f"SELECT coalesce(sum(num_tokens), 0) FROM articles WHERE id IN {where}", [ids]).fetchone()[0] or 0)
    sizes: dict[str, tuple[int, int]] = {}
    for level in PYRAMID_LEVELS:
        if level == "recollections":
            continue
        items, tokens = conn.execute(
            f"SELECT count(*), coalesce(sum(num_tokens), 0) FROM {level} WHERE article_id IN {where}", [ids]
        ).fetchone()
        sizes[level] = (int(items), int(tokens))
    return contexts, sizes


__all__ = ["distilled_article_ids", "distilled_sources", "level_sizes", "recent_failures", "status_counts"]
