"""Shards of a corpus made by copying their articles' rows into fresh corpus files.

:func:`copy_shards` makes the schema of the whole corpus anew in an empty file per shard (its
tables, the full-text and vector tables; the B-tree indexes and triggers once the rows are in),
adds the rows of the shard's articles table by table, each in one ``INSERT ... SELECT`` from the
attached whole (:func:`~paperpyramid.db.row_copy.add_rows`, the copier the merges use), then the
vectors of every shard in one pass over each of the whole's vector tables (sqlite-vec finds a set
of keys only by reading its table through, so once for all shards rather than once for each; each
vector given its type, ``vec_int8(?)``), then builds each shard's search indexes once. No row of
another article is written or deleted, and no trace of one is in a shard's file.

What a shard holds is what :func:`~paperpyramid.db.snapshot.licences.drop_articles` would leave of
the whole after removing every other article, with one difference on purpose: a reference that
names an article of another shard keeps naming it, so that the shards merged again
(:mod:`.merge`) have their citation links whole. Recollections that drew on an article of another
shard are in none: a shard holds only what its own articles support.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from paperpyramid.db import lexical_index, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.row_copy import add_rows, attached, quote, transaction, typed_insert, user_tables, vec_tables
from paperpyramid.db.snapshot.licences import rebuild_indexes
from paperpyramid.db.snapshot.manifest import SnapshotError
from paperpyramid.db.sqlite import connect, load_vec, sqlite3

#: the articles of the shard, in a temporary table of the shard's connection
_KEEP = "(SELECT id FROM temp.pp_shard_articles)"
#: a row of an article of the shard, or of no article of the corpus (a failed input, a model call
#: made for none): what removing the other articles leaves
_NOT_DROPPED = f"article_id IS NULL OR article_id IN {_KEEP} OR article_id NOT IN (SELECT id FROM whole.articles)"
#: which rows of each table the shard takes (a condition over the whole's table), in an order that
#: lets a table follow rows already in the shard; a table not named here follows ``article_id``
#: when it has one and is copied whole otherwise (``embedders``). A second condition on a key is
#: written ``+column``: a filter on the rows the first finds, not a second index to probe (the two
#: lists probed together cost their product)
ROWS: dict[str, str] = {
    "articles": f"id IN {_KEEP}",
    "article_sections": f"article_id IN {_KEEP}",
    "sections": "id IN (SELECT section_id FROM main.article_sections)",
    "sections_contexts": "section_id IN (SELECT id FROM main.sections)",
    "contexts": "id IN (SELECT context_id FROM main.sections_contexts)",
    "bib_entries": f"article_id IN {_KEEP}",
    "citations": "bib_entry_id IN (SELECT id FROM main.bib_entries) AND +context_id IN (SELECT id FROM main.contexts)",
    **{table: f"article_id IN {_KEEP}" for table in ("tables", "formulas", "figures", "mesh_terms", "merged_sources")},
    "insights": f"article_id IN {_KEEP}",
    "concepts": f"article_id IN {_KEEP}",
    "abstracts": f"article_id IN {_KEEP}",
    "insights_contexts": "insight_id IN (SELECT id FROM main.insights) AND +context_id IN (SELECT id FROM main.contexts)",
    "concepts_insights": "concept_id IN (SELECT id FROM main.concepts) AND +insight_id IN (SELECT id FROM main.insights)",
    "recollections": f"id NOT IN (SELECT recollection_id FROM whole.recollections_sources WHERE article_id NOT IN {_KEEP})",
    "recollections_sources": "recollection_id IN (SELECT id FROM main.recollections)",
    "recollection_history": "recollection_id IN (SELECT id FROM main.recollections)",
    "llm_calls": _NOT_DROPPED,
    "ingest_log": _NOT_DROPPED,
}
#: tables whose rows are not copied: the BM25 index is built for the shard's contexts
_NOT_COPIED = frozenset({lexical_index.POSTINGS, lexical_index.SEGMENTS, lexical_index.META})
#: shards written at once by the pass over the vectors (each an open file)
_OPEN_AT_ONCE = 64
#: vectors a shard is given at a time
_BATCH = 2048
#: a vector table of a model (``vec_contexts_1``, ...) and the table whose rows it holds vectors of
_VECTOR_TABLE = re.compile(r"^vec_(contexts|insights|concepts|abstracts|recollections)_\d+$")


def copy_shard(whole: Path, article_ids: Sequence[str], target: Path) -> None:
    """A new corpus file at ``target`` holding the articles ``article_ids`` of the corpus ``whole``
    with all their rows, as described in the module's docstring, in rollback-journal mode;
    ``SnapshotError`` when ``whole`` cannot be read or ``target`` written."""
    copy_shards(whole, [(article_ids, target)])


def copy_shards(whole: Path, shards: Sequence[tuple[Sequence[str], Path]]) -> None:
    """:func:`copy_shard` for each (article ids, target) of ``shards``: the rows of each, then the
    vectors of all of them in one pass over each vector table of ``whole`` (sqlite-vec finds a
    set of keys by reading the whole table: once for all shards, not once for each), then the
    indexes of each."""
    try:
        indexed = [_copy_rows(whole, article_ids, target) for article_ids, target in shards]
        targets = [target for _, target in shards]
        for first in range(0, len(targets), _OPEN_AT_ONCE):
            _copy_vectors(whole, targets[first : first + _OPEN_AT_ONCE])
        for target, models in zip(targets, indexed, strict=True):
            _make_search_indexes(target, models)
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"cannot cut {whole.name} into shards: {exc}") from exc


def _copy_rows(whole: Path, article_ids: Sequence[str], target: Path) -> set[str]:
    """The shard's schema and rows at ``target`` (made new), its B-tree indexes and triggers, no
    vectors yet; the vector tables of the models the whole has an approximate index for."""
    target.unlink(missing_ok=True)
    conn = connect(target)
    try:
        conn.isolation_level = None  # transactions below are explicit
        load_vec(conn)
        with attached(conn, whole, "whole"):
            indexed = _make_schema(conn)
            conn.execute("CREATE TEMP TABLE pp_shard_articles (id TEXT PRIMARY KEY)")
            conn.executemany("INSERT INTO temp.pp_shard_articles VALUES (?)", [(article_id,) for article_id in article_ids])
            with transaction(conn):
                add_rows(conn, "whole", _in_order(user_tables(conn)), where=_conditions(conn), vectors=False)
                conn.execute(f"UPDATE recollection_history SET article_id = NULL WHERE article_id NOT IN {_KEEP}")
                _make_indexes(conn)
            conn.execute("DROP TABLE temp.pp_shard_articles")
        return indexed
    finally:
        conn.close()


def _copy_vectors(whole: Path, targets: Sequence[Path]) -> None:
    """Each vector of ``whole`` whose row (context, insight, ...) is in one of the shards
    ``targets`` added to that shard, reading each vector table of ``whole`` once."""
    source = connect(whole, read_only=True)
    shards = [connect(target) for target in targets]
    try:
        load_vec(source)
        for shard in shards:
            shard.isolation_level = None
            load_vec(shard)
            shard.execute("BEGIN IMMEDIATE")
        for table, (columns, _) in vec_tables(source).items():
            level = _VECTOR_TABLE.match(table)
            if level is None:
                continue
            owner = {
                str(row[0]): number for number, shard in enumerate(shards) for row in shard.execute(f"SELECT id FROM {level.group(1)}")
            }
            insert = typed_insert(shards[0], table)
            pending: list[list[tuple[object, ...]]] = [[] for _ in shards]
            for row in source.execute(f"SELECT {', '.join(map(quote, columns))} FROM {quote(table)}"):
                number = owner.get(str(row[0]))
                if number is not None:
                    pending[number].append(tuple(row))
                    if len(pending[number]) >= _BATCH:
                        shards[number].executemany(insert, pending[number])
                        pending[number].clear()
            for shard, rows in zip(shards, pending, strict=True):
                shard.executemany(insert, rows)
        for shard in shards:
            shard.execute("COMMIT")
    finally:
        for conn in [source, *shards]:
            conn.close()


def _make_search_indexes(target: Path, indexed: set[str]) -> None:
    """The shard's full-text and BM25 indexes built from its rows, and the approximate vector
    index of each model in ``indexed`` trained on its vectors."""
    conn = connect(target)
    try:
        conn.isolation_level = None
        load_vec(conn)
        with transaction(conn):
            rebuild_indexes(conn)
            for embedder in db_vectors.embedders(conn):
                if embedder.vec_table in indexed:
                    vector_index.build_index(conn, embedder, retrain=True)
    finally:
        conn.close()


def _make_schema(conn: sqlite3.Connection) -> set[str]:
    """The attached whole's settings and tables made in the empty main file (virtual tables make
    their own shadow tables; an approximate vector index is built afresh, not copied); the
    vector tables of the models the whole has an approximate index for."""
    for setting in ("page_size", "auto_vacuum", "user_version", "application_id"):
        value = int(conn.execute(f"PRAGMA whole.{setting}").fetchone()[0])
        conn.execute(f"PRAGMA main.{setting} = {value}")
    rows = conn.execute(r"SELECT name, sql FROM whole.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' "
                        "ORDER BY rowid").fetchall()  # fmt: skip
    virtual = [str(name) for name, sql in rows if str(sql or "").upper().startswith("CREATE VIRTUAL TABLE")]
    # FTS5 marks its shadow tables; sqlite-vec's (and the approximate index's) are named for their table
    shadow = {str(row[1]) for row in conn.execute("PRAGMA whole.table_list") if row[2] == "shadow"}
    vec_shadow = tuple(f"{name}_" for name in virtual if name.startswith("vec_"))
    with transaction(conn):
        for name, sql in rows:
            if str(name) not in shadow and not str(name).startswith(vec_shadow):
                conn.execute(str(sql))
    indexed = conn.execute(r"SELECT name FROM whole.sqlite_master WHERE type = 'table' AND name LIKE 'vec\_%\_ivf\_meta' ESCAPE '\'")
    return {str(row[0])[: -len("_ivf_meta")] for row in indexed}


def _make_indexes(conn: sqlite3.Connection) -> None:
    """The whole's B-tree indexes, triggers and views over the tables the shard has, made once
    the rows are in (an index built over them at once, no trigger run for each)."""
    tables = {str(row[0]) for row in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}
    for kind in ("index", "trigger", "view"):
        for name, table, sql in conn.execute(
            "SELECT name, tbl_name, sql FROM whole.sqlite_master WHERE type = ? AND sql IS NOT NULL ORDER BY rowid", [kind]
        ).fetchall():
            if (kind == "view" or str(table) in tables) and str(name) not in tables:
                conn.execute(str(sql))


def _in_order(tables: Sequence[str]) -> list[str]:
    """``tables`` to copy, those of :data:`ROWS` first, in its order."""
    return [name for name in ROWS if name in tables] + [name for name in tables if name not in ROWS and name not in _NOT_COPIED]


def _conditions(conn: sqlite3.Connection) -> dict[str, str]:
    """The condition each ordinary table's rows meet to be the shard's (see :data:`ROWS`)."""
    found: dict[str, str] = {}
    for table in user_tables(conn):
        columns = {str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({quote(table)})")}
        if table in ROWS:
            found[table] = ROWS[table]
        elif "article_id" in columns:
            found[table] = _NOT_DROPPED
    return found


__all__ = ["ROWS", "copy_shard", "copy_shards"]
