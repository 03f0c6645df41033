"""Rows of one corpus file added to another, table by table, through an attached database: what
merging the shards of a snapshot and merging corpora written apart have in common."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence

from paperpyramid.db.sqlite import sqlite3


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One explicit transaction (the connection's ``isolation_level`` is None)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextlib.contextmanager
def attached(conn: sqlite3.Connection, path: object, name: str) -> Iterator[None]:
    """The database at ``path`` attached as ``name`` while the block runs (outside a transaction:
    a database attached in one cannot leave it)."""
    conn.execute(f"ATTACH DATABASE ? AS {name}", [str(path)])
    try:
        yield
    finally:
        conn.execute(f"DETACH DATABASE {name}")


def add_rows(conn: sqlite3.Connection, source: str, tables: Sequence[str]) -> None:
    """Every row of the attached database ``source`` not yet in the main file: ordinary tables by
    their keys (``INSERT OR IGNORE``), vectors by the id they belong to."""
    source_tables = {str(row[0]) for row in conn.execute(f"SELECT name FROM {source}.sqlite_master WHERE type = 'table'")}
    for table in tables:
        if table not in source_tables:
            continue
        columns = ", ".join(quote(str(row[1])) for row in conn.execute(f"PRAGMA main.table_info({quote(table)})"))
        conn.execute(f"INSERT OR IGNORE INTO main.{quote(table)} ({columns}) SELECT {columns} FROM {source}.{quote(table)}")
    for table, (vec_columns, values) in vec_tables(conn).items():
        if table not in source_tables:
            continue
        key, listed = quote(vec_columns[0]), ", ".join(quote(column) for column in vec_columns)
        # row by row through Python: INSERT ... SELECT loses the type vec_int8() gives a blob
        rows = conn.execute(
            f"SELECT {listed} FROM {source}.{quote(table)} WHERE {key} NOT IN (SELECT {key} FROM main.{quote(table)})"
        ).fetchall()
        conn.executemany(f"INSERT INTO main.{quote(table)} ({listed}) VALUES ({values})", rows)


def vec_tables(conn: sqlite3.Connection) -> dict[str, tuple[list[str], str]]:
    """The sqlite-vec tables of the main file: their columns (the key first) and the placeholders
    that insert a row of them (an int8 vector reads back as a blob that must say what it is)."""
    rows = conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'").fetchall()
    found: dict[str, tuple[list[str], str]] = {}
    for name, sql in rows:
        if "USING VEC0" not in (sql or "").upper():
            continue
        columns = [str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({quote(str(name))})")]
        int8 = {column for column in columns if re.search(rf"\b{re.escape(column)}\s+int8\[", sql, re.IGNORECASE)}
        found[str(name)] = (columns, ", ".join("vec_int8(?)" if column in int8 else "?" for column in columns))
    return found


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'
