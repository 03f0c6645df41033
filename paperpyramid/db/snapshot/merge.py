"""Shards of one corpus made one corpus file again, for a reader who fetched several.

The shards of a sharded snapshot (:mod:`.shards`) are parts of one corpus: every row keeps the
id it had there, so :func:`merge_shards` copies the first shard and adds the rows of the others,
table by table, each row once (a row every shard holds, such as a model in ``embedders`` or a
failed input in the ingest log, stays one), the vectors of each model with them. The search
indexes (full text, BM25, the approximate vector indexes) are then rebuilt over the whole, and
references that name an article of another shard find it again.
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

from paperpyramid.db import lexical_index
from paperpyramid.db.snapshot.licences import rebuild_indexes
from paperpyramid.db.snapshot.manifest import SnapshotError
from paperpyramid.db.snapshot.publish import user_tables
from paperpyramid.db.sqlite import connect, sqlite3

#: tables the merge rebuilds rather than copies
_INDEX_TABLES = frozenset({lexical_index.POSTINGS, lexical_index.SEGMENTS, lexical_index.META})


def merge_shards(shards: Sequence[Path], target: Path) -> None:
    """One corpus file at ``target`` (new, or replaced) holding every row of the corpus files
    ``shards``, parts of one corpus; its indexes built over all of them, in rollback-journal mode
    so it opens read-only anywhere."""
    if not shards:
        raise ValueError("no shard to merge")
    shutil.copyfile(shards[0], target)
    conn = connect(target)
    try:
        conn.isolation_level = None  # transactions below are explicit
        tables = [name for name in user_tables(conn) if name not in _INDEX_TABLES]
        vec_tables = _vec_tables(conn)
        # one transaction per shard (a database attached in a transaction cannot leave it); the
        # file is new, its caller's to discard if this fails halfway
        for shard in shards[1:]:
            conn.execute("ATTACH DATABASE ? AS shard", [str(shard)])
            try:
                with _transaction(conn):
                    _add_rows(conn, tables, vec_tables)
            finally:
                conn.execute("DETACH DATABASE shard")
        with _transaction(conn):
            rebuild_indexes(conn)
        conn.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"cannot merge the shards into {target}: {exc}") from exc
    finally:
        conn.close()


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _add_rows(conn: sqlite3.Connection, tables: Sequence[str], vec_tables: dict[str, tuple[list[str], str]]) -> None:
    """Every row of the attached ``shard`` not yet in the main file: ordinary tables by their keys
    (``INSERT OR IGNORE``), vectors by the id they belong to."""
    shard_tables = {str(row[0]) for row in conn.execute("SELECT name FROM shard.sqlite_master WHERE type = 'table'")}
    for table in tables:
        if table not in shard_tables:
            continue
        columns = ", ".join(_quote(str(row[1])) for row in conn.execute(f"PRAGMA main.table_info({_quote(table)})"))
        conn.execute(f"INSERT OR IGNORE INTO main.{_quote(table)} ({columns}) SELECT {columns} FROM shard.{_quote(table)}")
    for table, (vec_columns, values) in vec_tables.items():
        if table not in shard_tables:
            continue
        key, listed = _quote(vec_columns[0]), ", ".join(_quote(column) for column in vec_columns)
        # row by row through Python: INSERT ... SELECT loses the type vec_int8() gives a blob
        rows = conn.execute(
            f"SELECT {listed} FROM shard.{_quote(table)} WHERE {key} NOT IN (SELECT {key} FROM main.{_quote(table)})"
        ).fetchall()
        conn.executemany(f"INSERT INTO main.{_quote(table)} ({listed}) VALUES ({values})", rows)


def _vec_tables(conn: sqlite3.Connection) -> dict[str, tuple[list[str], str]]:
    """The sqlite-vec tables of the main file: their columns (the key first) and the placeholders
    that insert a row of them (an int8 vector reads back as a blob that must say what it is)."""
    rows = conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'").fetchall()
    found: dict[str, tuple[list[str], str]] = {}
    for name, sql in rows:
        if "USING VEC0" not in (sql or "").upper():
            continue
        columns = [str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({_quote(str(name))})")]
        int8 = {column for column in columns if re.search(rf"\b{re.escape(column)}\s+int8\[", sql, re.IGNORECASE)}
        found[str(name)] = (columns, ", ".join("vec_int8(?)" if column in int8 else "?" for column in columns))
    return found


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
