"""Rows of one corpus file added to another, table by table, through an attached database: what
merging the shards of a snapshot and merging corpora written apart have in common."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence

from paperpyramid.db import lexical_index
from paperpyramid.db.sqlite import sqlite3

#: the shadow tables FTS5 makes beside a table ``<name>``: ``<name>_data``, ...
_FTS_SHADOW_SUFFIXES = ("data", "idx", "content", "docsize", "config")


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


def add_rows(
    conn: sqlite3.Connection,
    source: str,
    tables: Sequence[str],
    *,
    where: Mapping[str, str] | None = None,
    vectors: bool = True,
) -> dict[str, int]:
    """Every row of the attached database ``source`` not yet in the main file, each table in one
    ``INSERT ... SELECT``: ordinary tables by their keys (``INSERT OR IGNORE``); a table with an
    FTS5 index in rowid order, each row at its rowid plus the table's largest rowid before (the
    rows keep their order and spacing), and their FTS5 rows added in one statement after; vectors
    by the id they belong to, each given its type in SQL. Returns that offset of each table with
    an FTS5 index.

    ``where`` takes only the rows of a table that meet its condition (SQL over the source table's
    columns; the rows in rowid order, where the table has rowids): a part of ``source``;
    ``vectors`` False leaves the vector tables out."""
    where = where or {}
    source_tables = {
        str(name): str(sql or "") for name, sql in conn.execute(f"SELECT name, sql FROM {source}.sqlite_master WHERE type = 'table'")
    }
    offsets: dict[str, int] = {}
    for table in tables:
        if table not in source_tables:
            continue
        columns = ", ".join(quote(str(row[1])) for row in conn.execute(f"PRAGMA main.table_info({quote(table)})"))
        rows = f"FROM {source}.{quote(table)}" + (f" WHERE {where[table]}" if table in where else "")
        with lexical_index.insert_trigger_dropped(conn, table) as indexed:
            if not indexed:
                ordered = " ORDER BY rowid" if table in where and "WITHOUT ROWID" not in source_tables[table].upper() else ""
                conn.execute(f"INSERT OR IGNORE INTO main.{quote(table)} ({columns}) SELECT {columns} {rows}{ordered}")
                continue
            offsets[table] = lexical_index.newest_rowid(conn, table)
            conn.execute(f"INSERT OR IGNORE INTO main.{quote(table)} (rowid, {columns}) SELECT rowid + ?, {columns} "
                         f"{rows} ORDER BY rowid", [offsets[table]])  # fmt: skip
            lexical_index.index_added_rows(conn, table, offsets[table])
    for table, (vec_columns, values) in vec_tables(conn).items() if vectors else ():
        if table in source_tables:
            _add_vectors(conn, source, table, vec_columns, values)
    return offsets


def _add_vectors(conn: sqlite3.Connection, source: str, table: str, columns: list[str], values: list[str]) -> None:
    """The vectors of ``source``'s vec0 ``table`` whose key is not in the main file's yet, looked
    up one by one (the part's size, not the corpus's): in the key index sqlite-vec keeps beside a
    table with a text key (``<table>_rowids``, a tenth of the time of a lookup through the vec0
    table), else through the table. The keys wanted are found first: a statement reading the
    table it inserts into goes through a temporary copy of its rows, which loses the type
    ``vec_int8()`` gives a blob."""
    key, listed = quote(columns[0]), ", ".join(quote(column) for column in columns)
    keys = f"{table}_rowids"
    if all(
        conn.execute(f"SELECT 1 FROM pragma_table_info(?, '{db}') WHERE name = 'id' AND type = 'TEXT'", [keys]).fetchone()
        for db in ("main", source)
    ):
        wanted = f"SELECT s.id FROM {source}.{quote(keys)} AS s WHERE NOT EXISTS (SELECT 1 FROM main.{quote(keys)} AS m WHERE m.id = s.id)"
    else:
        wanted = (f"SELECT s.{key} FROM {source}.{quote(table)} AS s "
                  f"WHERE NOT EXISTS (SELECT 1 FROM main.{quote(table)} AS m WHERE m.{key} = s.{key})")  # fmt: skip
    conn.execute("DROP TABLE IF EXISTS temp.pp_vector_keys")
    conn.execute(f"CREATE TEMP TABLE pp_vector_keys AS {wanted}")
    try:
        conn.execute(f"INSERT INTO main.{quote(table)} ({listed}) SELECT {', '.join(values)} FROM {source}.{quote(table)} "
                     f"WHERE {key} IN (SELECT * FROM temp.pp_vector_keys)")  # fmt: skip
    finally:
        conn.execute("DROP TABLE temp.pp_vector_keys")


def vec_tables(conn: sqlite3.Connection) -> dict[str, tuple[list[str], list[str]]]:
    """The sqlite-vec tables of the main file: their columns (the key first) and the SQL that
    reads each column of a stored row as what it is (an int8 or bit vector reads back as a blob
    that must say what it is: ``vec_int8(embedding)``)."""
    rows = conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'").fetchall()
    found: dict[str, tuple[list[str], list[str]]] = {}
    for name, sql in rows:
        if "USING VEC0" not in (sql or "").upper():
            continue
        columns = [str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({quote(str(name))})")]
        found[str(name)] = (columns, [_typed(column, sql) for column in columns])
    return found


def typed_insert(conn: sqlite3.Connection, table: str) -> str:
    """An ``INSERT`` of one row of the main file's vec0 ``table`` from parameters, its columns in
    :func:`vec_tables`' order, an int8 or bit vector given its type (``vec_int8(?)``)."""
    columns, values = vec_tables(conn)[table]
    typed = [value.replace(quote(column), "?") for column, value in zip(columns, values, strict=True)]
    return f"INSERT INTO main.{quote(table)} ({', '.join(map(quote, columns))}) VALUES ({', '.join(typed)})"


def _typed(column: str, sql: str) -> str:
    """``column`` as a vec0 table declared by ``sql`` takes it: an int8 or bit vector wrapped in
    the function that gives the blob its type; anything else (float32 vectors, keys) as it is."""
    declared = re.search(rf"\b{re.escape(column)}\s+(int8|bit)\[", sql, re.IGNORECASE)
    if declared is None:
        return quote(column)
    return f"vec_{declared.group(1).lower()}({quote(column)})"


def user_tables(conn: sqlite3.Connection) -> list[str]:
    """The ordinary tables, sorted: no ``sqlite_*`` tables, virtual (FTS) tables or their shadow tables."""
    rows = conn.execute(r"SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'").fetchall()
    virtual = {name for name, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL TABLE")}
    shadow = {f"{name}_{suffix}" for name in virtual for suffix in _FTS_SHADOW_SUFFIXES}
    # sqlite-vec's shadow tables: vec_contexts_1_chunks, _rowids, _info, _vector_chunks00, ...
    vec_shadow = {name for name, _ in rows for table in virtual if table.startswith("vec_") and name.startswith(f"{table}_")}
    return sorted(name for name, _ in rows if name not in virtual and name not in shadow and name not in vec_shadow)


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'
