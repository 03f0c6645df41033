"""The articles distillation takes: which there are, in storage order, their titles, and which
failed lately."""

from __future__ import annotations

from paperpyramid.db.sqlite import Connection


def article_ids(conn: Connection) -> list[str]:
    """Every article's id, in the order the articles were stored."""
    return [row[0] for row in conn.execute("SELECT id FROM articles ORDER BY rowid")]


def article_title(conn: Connection, article_id: str) -> str | None:
    """The article's title, None when it has none; KeyError when there is no such article."""
    row = conn.execute("SELECT title FROM articles WHERE id = ?", [article_id]).fetchone()
    if row is None:
        raise KeyError(f"no article {article_id!r}")
    title: str | None = row[0]
    return title


def failed_since(conn: Connection, since: str) -> set[str]:
    """The articles whose distillation failed at ``since`` or later (UTC, ISO seconds)."""
    return {row[0] for row in conn.execute("SELECT article_id FROM distillations WHERE status = 'failed' AND updated_at >= ?", [since])}
