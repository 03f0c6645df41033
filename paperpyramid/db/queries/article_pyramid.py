"""One article's knowledge pyramid as the MCP ``pyramid`` tool shows it: its distillation's
status, its distilled abstract, its concepts and insights in order, the links between them and
to the verbatim contexts, and the recollections it takes part in."""

from __future__ import annotations

from paperpyramid.db.sqlite import Connection

#: (insight id, text, pages as a JSON list, section)
InsightRow = tuple[str, str, str | None, str | None]


def distillation_status(conn: Connection, article_id: str) -> str | None:
    """The article's distillation status ("done", "failed", ...), None when it was never distilled."""
    row = conn.execute("SELECT status FROM distillations WHERE article_id = ?", [article_id]).fetchone()
    return None if row is None else str(row[0])


def distilled_abstract(conn: Connection, article_id: str) -> str | None:
    """The article's distilled abstract, None when it has none."""
    row = conn.execute("SELECT text FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
    return None if row is None else str(row[0])


def insights(conn: Connection, article_id: str) -> list[InsightRow]:
    """The article's insights in order (:data:`InsightRow`)."""
    return conn.execute("SELECT id, text, pages, section FROM insights WHERE article_id = ? ORDER BY position", [article_id]).fetchall()


def concepts(conn: Connection, article_id: str) -> list[tuple[str, str]]:
    """The article's concepts in order: (concept id, text)."""
    return conn.execute("SELECT id, text FROM concepts WHERE article_id = ? ORDER BY position", [article_id]).fetchall()


def concept_insights(conn: Connection, concept_id: str) -> list[str]:
    """The ids of the insights a concept gathers."""
    return [row[0] for row in conn.execute("SELECT insight_id FROM concepts_insights WHERE concept_id = ?", [concept_id])]


def insight_contexts(conn: Connection, insight_id: str) -> list[str]:
    """The ids of the contexts an insight was distilled from, the best supporting first."""
    return [
        row[0] for row in conn.execute("SELECT context_id FROM insights_contexts WHERE insight_id = ? ORDER BY score DESC", [insight_id])
    ]


def recollections_of(conn: Connection, article_id: str, limit: int) -> list[tuple[str, str]]:
    """The first ``limit`` recollections the article takes part in, oldest first: (recollection id, text)."""
    return conn.execute(
        "SELECT DISTINCT r.id, r.text FROM recollections AS r JOIN recollections_sources AS rs ON rs.recollection_id = r.id "
        "WHERE rs.article_id = ? ORDER BY r.created_at LIMIT ?", [article_id, limit],
    ).fetchall()  # fmt: skip


__all__ = [
    "InsightRow", "concept_insights", "concepts", "distillation_status", "distilled_abstract", "insight_contexts", "insights", "recollections_of",
]  # fmt: skip
