"""Corpora written apart made one: the parallel build.

A large ingest can be split by its inputs: each process, machine or Dask worker ingests its share
into a corpus file of its own (a *part*), with its own writer, and :func:`merge_parts` then adds
the parts to one corpus. Ids are nanoids, unique across files, so every row keeps its id; only the
model calls' counters (``llm_calls.id``) are numbered again. What no part could know is made
once the rows are together:

- **duplicates**: an article of a part whose input bytes (sha256), DOI, PMID or PMCID is already
  in the corpus is not added (with all its rows); its ingest-log rows then name the article kept.
  A paper's PubMed record and its full text are joined into one article only by one writer: send
  the inputs of one paper to the same part to have them joined;
- **references between parts**: every reference of an added article is resolved against the whole
  corpus, and the references still dangling anywhere are resolved against the added articles
  (:func:`~paperpyramid.db.references.resolve_article`, as the writer does article by article,
  for the added articles one query finds a DOI, arXiv id or title in common for);
- **the indexes**: the full-text indexes take each table's added rows in one statement (the rows
  keep their order and spacing, past the corpus's own); a part whose BM25 index is current (as an
  ingest's pass leaves it from :data:`~paperpyramid.db.lexical_index.INDEX_MIN` contexts on, or
  ``lexical_index.update``) brings its segments along, its rowids shifted, when the corpus's index
  is current too; otherwise the BM25 index takes the added contexts in as an ingest's pass does
  (a segment for them, or the whole index made once the corpus is large enough), and the
  approximate vector indexes take the new vectors in.

Every part must be a corpus at this schema version with the same embedding models (a model's
vectors are only comparable with its own). A part is only read. The corpus is written under the
writer's lock, one transaction per part and one for the references and indexes: a merge killed
halfway leaves the corpus with whole parts, and merging the same parts again adds only what is
missing.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db import lexical_index, references, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.row_copy import add_rows, attached, transaction, user_tables
from paperpyramid.db.schema import SCHEMA_VERSION
from paperpyramid.db.snapshot.licences import drop_articles
from paperpyramid.db.snapshot.publish import copy_database
from paperpyramid.db.sqlite import Connection, connect, load_vec, sqlite3
from paperpyramid.db.writer import writer_lock
from paperpyramid.errors import NotACorpus, PaperPyramidError

#: the BM25 index's tables: a part's are not copied, the corpus's own index takes the added contexts in
_INDEX_TABLES = frozenset({lexical_index.POSTINGS, lexical_index.SEGMENTS, lexical_index.META})
#: the model calls, numbered in each file from 1: numbered again, each call added once
_CALLS = "llm_calls"
_CALL_COLUMNS = "article_id, step, model, prompt_version, prompt_tokens, completion_tokens, cached, attempts, seconds, created_at"
#: a part's article that is already in the corpus, under one of these
_SAME_PAPER = ("sha256", "doi", "pmid", "pmcid")
_LOG_COLUMNS = "source_uri, sha256, status, error, attempts, article_id, pages, seconds, updated_at"
#: the added articles (``:ids``, a JSON list) that references may link to or from (:func:`_may_link`)
_MAY_LINK = " UNION ".join(  # CROSS JOIN: from the added articles, whatever the size of the corpus
    "SELECT e.article_id FROM json_each(:ids) AS j CROSS JOIN bib_entries AS e ON e.article_id = j.value "
    f"CROSS JOIN articles AS m ON m.{column} = e.{column} WHERE +e.cited_article_id IS NULL AND m.id != e.article_id "
    f"UNION SELECT t.id FROM json_each(:ids) AS j CROSS JOIN articles AS t ON t.id = j.value CROSS JOIN bib_entries AS e "
    f"ON e.{column} = t.{column} WHERE +e.cited_article_id IS NULL AND e.article_id != t.id"
    for column in ("doi", "arxiv_id", "title_key")
)


class PartsError(PaperPyramidError):
    """A part cannot be merged: not a corpus, another schema version, other embedding models."""


@dataclass(frozen=True, slots=True)
class MergeReport:
    """What :func:`merge_parts` did: the ``articles`` added from the parts, the ``duplicates``
    not added (already in the corpus under the same input, DOI, PMID or PMCID), the
    ``references`` resolved across parts, and the ``seconds`` it took."""

    target: Path
    parts: int
    articles: int
    duplicates: int
    references: int
    seconds: float


def merge_parts(parts: Sequence[str | Path], target: str | Path, *, on_part: Callable[[Path, int, int], None] | None = None) -> MergeReport:
    """Add the corpora ``parts`` to the corpus at ``target`` (made new when there is none), as
    described in the module's docstring; ``on_part(part, articles added, duplicates)`` is called
    after each part. Raises :class:`PartsError` for a part that cannot be merged (before anything
    is written when it is the first problem found) and ``ValueError`` when no part is given or a
    part is the target itself."""
    started = time.monotonic()
    paths = [Path(part) for part in parts]
    target = Path(target)
    if not paths:
        raise ValueError("no part to merge")
    if any(path.resolve() == target.resolve() for path in paths if path.exists()):
        raise ValueError(f"{target} is the corpus being merged into; it cannot also be a part")
    for path in paths:
        _check_part(path)
    with writer_lock(target, doing="a merge (pid {pid}) is writing to"):
        fresh = not target.exists()
        if fresh:  # the first part is the corpus to begin with: a consistent copy of it
            copy_database(paths[0], target)
        conn = connect(target)
        try:
            conn.isolation_level = None  # transactions below are explicit
            load_vec(conn)
            first = int(conn.execute("SELECT count(*) FROM articles").fetchone()[0]) if fresh else 0
            added: list[str] = []
            duplicates = 0
            for path in paths[1:] if fresh else paths:
                ids, skipped = _merge_one(conn, path, target.parent)
                added += ids
                duplicates += skipped
                if on_part is not None:
                    on_part(path, len(ids), skipped)
            with transaction(conn):
                resolved = sum(references.resolve_article(conn, article_id) for article_id in _may_link(conn, added))
                _update_indexes(conn)
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()
    return MergeReport(target, len(paths), first + len(added), duplicates, resolved, time.monotonic() - started)


def _may_link(conn: Connection, article_ids: list[str]) -> list[str]:
    """Those of ``article_ids`` (in their order) with a dangling reference whose DOI, arXiv id or
    title key some other article has, or whose own is a dangling reference's of another article:
    the others have nothing :func:`~paperpyramid.db.references.resolve_article` could link,
    found in one query rather than a few lookups per reference of every added article."""
    if not article_ids:
        return []
    rows = conn.execute(_MAY_LINK, {"ids": json.dumps(article_ids)})
    found = {str(row[0]) for row in rows}
    return [article_id for article_id in article_ids if article_id in found]


def _update_indexes(conn: Connection) -> None:
    """The search indexes over the added rows too, as an ingest leaves them after a pass (the
    full-text indexes took the rows in as they were added): the BM25 index, unless the parts'
    segments made it current already, gets a segment for the new contexts (or is made once the
    corpus is large enough) and the approximate vector indexes take the new vectors in (trained
    again when the vectors have grown fourfold)."""
    lexical_index.maintain(conn)
    for embedder in db_vectors.embedders(conn):
        if vector_index.index_status(conn, embedder).exists:
            vector_index.build_index(conn, embedder)


def _check_part(path: Path) -> None:
    """Refuse a part that is not a corpus at this schema version."""
    if not path.is_file():
        raise PartsError(f"{path}: no such corpus file")
    try:
        conn = connect(path, read_only=True)
    except (sqlite3.DatabaseError, NotACorpus) as exc:
        raise PartsError(f"{path} is not a corpus: {exc}") from exc
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise PartsError(f"{path} is not a corpus: {exc}") from exc
    finally:
        conn.close()
    if version != SCHEMA_VERSION:
        raise PartsError(
            f"{path} is at corpus schema version {version}, not {SCHEMA_VERSION}: "
            + ("it is not a corpus" if version == 0 else "open it once with `paperpyramid status --db` after migrating it")
        )


def _merge_one(conn: Connection, part: Path, scratch: Path) -> tuple[list[str], int]:
    """Add one part's rows in one transaction: (the ids of the articles added, duplicates skipped).
    A part holding papers already in the corpus is copied without them into ``scratch``."""
    with attached(conn, part, "part"):
        _check_models(conn, part)
        same = _same_papers(conn)
        log_rows = _log_rows_of(conn, list(same))
    with tempfile.TemporaryDirectory(prefix=".merge-", dir=scratch) as tmp:
        source = part
        if same:  # a copy without them: their rows must not come along
            source = Path(tmp) / part.name
            copy_database(part, source)
            drop_articles(source, list(same), finish=False)
        indexed = _index_current(source)
        with attached(conn, source, "part"), transaction(conn):
            indexed = indexed and lexical_index.is_current(conn, lexical_index.WEIGHTS)
            ids = [str(row[0]) for row in conn.execute("SELECT id FROM part.articles WHERE id NOT IN (SELECT id FROM main.articles)")]
            offsets = add_rows(conn, "part", [name for name in user_tables(conn) if name not in _INDEX_TABLES | {_CALLS}])
            if indexed and "contexts" in offsets:
                lexical_index.add_segments_of(conn, "part", offsets["contexts"])
            conn.execute(
                f"INSERT INTO main.{_CALLS} ({_CALL_COLUMNS}) SELECT {_CALL_COLUMNS} FROM part.{_CALLS} AS p WHERE NOT EXISTS "
                f"(SELECT 1 FROM main.{_CALLS} AS m WHERE m.created_at = p.created_at AND m.step = p.step AND m.model = p.model "
                "AND m.article_id IS p.article_id)"
            )
            # the inputs of the articles not added name the article kept: ingesting them again skips them
            conn.executemany(
                f"INSERT OR IGNORE INTO ingest_log ({_LOG_COLUMNS}) VALUES ({', '.join('?' * len(_LOG_COLUMNS.split(',')))})",
                [(*row[:5], same[str(row[5])], *row[6:]) for row in log_rows],
            )
    return ids, len(same)


def _index_current(path: Path) -> bool:
    """Whether the BM25 index of the corpus at ``path`` is current: the merge then carries its
    segments over rather than index the part's contexts again."""
    conn = connect(path, read_only=True)
    try:
        return lexical_index.is_current(conn, lexical_index.WEIGHTS)
    finally:
        conn.close()


def _check_models(conn: Connection, part: Path) -> None:
    """The attached part's embedding models are the corpus's, in the same tables and format (a
    part embedded with none is fine: ``embed`` gives its contexts vectors later)."""
    query = (
        "SELECT e.name, e.dimension, e.vec_table, m.sql FROM {db}.embedders AS e "
        "LEFT JOIN {db}.sqlite_master AS m ON m.name = e.vec_table ORDER BY e.vec_table"
    )
    # the tables' storage, not their whole SQL: a table made before holds 1,024 vectors a chunk
    mine = [(*row[:3], db_vectors.declared_storage(row[3])) for row in conn.execute(query.format(db="main"))]
    theirs = [(*row[:3], db_vectors.declared_storage(row[3])) for row in conn.execute(query.format(db="part"))]
    if theirs and theirs != mine:
        raise PartsError(
            f"{part} holds vectors of {', '.join(str(row[0]) for row in theirs)}, the corpus of "
            f"{', '.join(str(row[0]) for row in mine) or 'no model'} (or in other tables or another format): vectors of different "
            "models cannot be searched together; ingest the parts with the same embedding settings"
        )


def _same_papers(conn: Connection) -> dict[str, str]:
    """The attached part's articles already in the corpus, each with the id it has there."""
    found: dict[str, str] = {}
    for column in _SAME_PAPER:
        rows = conn.execute(
            f"SELECT p.id, m.id FROM part.articles AS p JOIN main.articles AS m ON m.{column} = p.{column} "
            f"WHERE p.{column} IS NOT NULL AND p.{column} != '' AND p.id != m.id"
        )
        for part_id, main_id in rows:
            found.setdefault(str(part_id), str(main_id))
    return found


def _log_rows_of(conn: Connection, article_ids: list[str]) -> list[tuple[object, ...]]:
    """The attached part's ingest-log rows of these articles."""
    if not article_ids:
        return []
    rows = conn.execute(f"SELECT {_LOG_COLUMNS} FROM part.ingest_log WHERE article_id IN (SELECT value FROM json_each(?))",
                        [json.dumps(article_ids)])  # fmt: skip
    return [tuple(row) for row in rows]


__all__ = ["MergeReport", "PartsError", "merge_parts"]
