"""A batch of new articles stored table by table: one ``executemany`` per table for the whole batch.

The writer (:meth:`~paperpyramid.db.writer.CorpusWriter.store_many`) decides per document
first: one whose bytes or identifiers (PMID, PMCID, DOI) the file or an earlier document of the
batch already has may be a twin, a newer version or another source of a stored article, and is
stored on its own (:meth:`~paperpyramid.db.writer.CorpusWriter.add_document`); the others are new
articles, whose rows (:mod:`~paperpyramid.db.article_rows`) go in here together, in the batch's
order, so that every table's rowids come out as storing them one at a time gives them. A PubMed
record has a dozen tables of zero to three rows each: a statement per table per article, not
the rows, was most of its cost.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np

from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.article_rows import ArticleRows, now
from paperpyramid.document import Document

#: an ingest log row: replaces the source's last outcome, except that ``done`` is never replaced by
#: ``skipped`` for the same bytes; ``attempts`` counts every outcome logged
LOG_OUTCOME = """
INSERT INTO ingest_log
    (source_uri, sha256, status, error, attempts, article_id, pages, seconds, updated_at, etag)
VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
ON CONFLICT (source_uri) DO UPDATE SET
    sha256 = excluded.sha256,
    status = excluded.status,
    error = excluded.error,
    attempts = ingest_log.attempts + 1,
    article_id = excluded.article_id,
    pages = excluded.pages,
    seconds = excluded.seconds,
    updated_at = excluded.updated_at,
    etag = excluded.etag
WHERE NOT (ingest_log.status = 'done' AND excluded.status = 'skipped' AND ingest_log.sha256 IS excluded.sha256)
"""

#: the tables of an article's rows, in an order the foreign keys allow (vectors after ``contexts``)
_BEFORE_VECTORS = ("articles", "sections", "article_sections", "contexts", "sections_contexts")
_AFTER_VECTORS = ("bib_entries", "citations", "tables", "formulas", "figures", "mesh_terms")


@dataclass(frozen=True, slots=True)
class NewArticle:
    """A document of the batch that is a new article: its rows, its vectors (one per context, in
    storage order) and what its ``done`` log row says."""

    rows: ArticleRows
    vectors: db_vectors.ContextVectors | None
    source_uri: str
    sha256: str
    pages: int | None
    seconds: float | None
    etag: str | None


def identifiers(doc: Document) -> list[tuple[str, str]]:
    """What a stored article is matched by (:func:`~paperpyramid.db.merging.find_stored`), as
    (column, value): its PMID, PMCID and DOI, normalised."""
    return [(column, value) for column, value in (("pmid", doc.pmid), ("pmcid", doc.pmcid), ("doi", doc.doi)) if value]


def stored_keys(conn: Any, sha256s: Iterable[str], docs: Iterable[Document]) -> tuple[set[str], set[tuple[str, str]]]:
    """Which of these sha256s the file knows (an article's, or one an article took in), and which
    of these documents' identifiers a stored article has, as (column, value); two statements."""
    given = json.dumps(sorted(set(sha256s)))
    known = {
        str(row[0])
        for row in conn.execute(
            "SELECT sha256 FROM articles WHERE sha256 IN (SELECT value FROM json_each(?)) "
            "UNION SELECT sha256 FROM merged_sources WHERE sha256 IN (SELECT value FROM json_each(?))",
            [given, given],
        )
    }
    wanted: dict[str, set[str]] = {"pmid": set(), "pmcid": set(), "doi": set()}
    for doc in docs:
        for column, value in identifiers(doc):
            wanted[column].add(value)
    found: set[tuple[str, str]] = set()
    for column, values in wanted.items():
        if values:
            rows = conn.execute(f"SELECT DISTINCT {column} FROM articles WHERE {column} IN (SELECT value FROM json_each(?))",
                                [json.dumps(sorted(values))])  # fmt: skip
            found |= {(column, str(row[0])) for row in rows}
    return known, found


def insert_articles(conn: Any, articles: Sequence[NewArticle]) -> None:
    """Insert the rows of new articles (in the caller's transaction): one statement per table,
    the rows in the articles' order; their vectors one statement per model."""
    tables = {table: [row for article in articles for row in _rows(article.rows, table)] for table in (*_BEFORE_VECTORS, *_AFTER_VECTORS)}
    for table in _BEFORE_VECTORS:
        insert_rows(conn, table, tables[table])
    _insert_vectors(conn, articles)
    for table in _AFTER_VECTORS:
        insert_rows(conn, table, tables[table])


def _rows(rows: ArticleRows, table: str) -> list[dict[str, Any]]:
    if table == "articles":
        return [rows.article]
    found: list[dict[str, Any]] = getattr(rows, table)
    return found


def _insert_vectors(conn: Any, articles: Sequence[NewArticle]) -> None:
    """The articles' context vectors, one ``executemany`` per model (a batch has one)."""
    by_model: dict[tuple[str, int, int | None, db_vectors.VectorStorage], list[NewArticle]] = {}
    for article in articles:
        if article.vectors is not None:
            given = article.vectors
            by_model.setdefault((given.embedder, given.dimension, given.window, given.storage), []).append(article)
    for (name, dimension, window, storage), group in by_model.items():
        embedder = db_vectors.ensure_embedder(conn, name, dimension, window, storage)
        ids = [row["id"] for article in group for row in article.rows.contexts]
        matrices = [article.vectors.vectors for article in group if article.vectors is not None]
        db_vectors.insert_vectors(conn, embedder, ids, matrices[0] if len(matrices) == 1 else np.concatenate(matrices))


def log_done(conn: Any, articles: Sequence[NewArticle]) -> None:
    """Each article's ``done`` row in the ingest log, in one statement."""
    stamp = now()
    conn.executemany(
        LOG_OUTCOME,
        [[a.source_uri, a.sha256, "done", None, a.rows.id, a.pages, a.seconds, stamp, a.etag] for a in articles],
    )


def insert_rows(conn: Any, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Insert rows built by :mod:`~paperpyramid.db.article_rows` (JSON already encoded) in one
    ``executemany``; a column a row lacks is NULL."""
    if not rows:
        return
    first = rows[0].keys()
    if all(row.keys() == first for row in rows):  # as a table's rows are built: read in C, not key by key in Python
        columns = list(first)
        values: Iterable[Any] = map(itemgetter(*columns), rows) if len(columns) > 1 else ([row[columns[0]]] for row in rows)
    else:
        columns = list(dict.fromkeys(name for row in rows for name in row))
        values = ([row.get(name) for name in columns] for row in rows)
    sql = f"INSERT INTO [{table}] ({', '.join(f'[{name}]' for name in columns)}) VALUES ({', '.join('?' * len(columns))})"
    conn.executemany(sql, values)


__all__ = ["LOG_OUTCOME", "NewArticle", "identifiers", "insert_articles", "insert_rows", "log_done", "stored_keys"]
