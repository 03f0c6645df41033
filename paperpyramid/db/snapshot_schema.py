"""Is an untrusted database a paperpyramid corpus? Its schema compared with the one the
migrations make at its version: the check a snapshot passes before anything reads it, since
a view, trigger, computed column or virtual table in a hostile file runs inside every reader
(an endless recursive view hangs them; ``load_extension`` or ``fts3_tokenizer`` would load
code). A local corpus file gets the same check without opening its virtual tables
(``probe_virtual_tables=False``): that reads no table's rows, so a file damaged past its schema
still opens. :func:`size_problem` bounds every value, so that one row cannot make a reader
hold gigabytes."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import sqlite_utils

from paperpyramid.db.schema import MIGRATIONS, SCHEMA_VERSION, migrate
from paperpyramid.db.sqlite import sqlite3


@dataclass(frozen=True, slots=True)
class _Schema:
    """What a database declares: ordinary tables with their columns, virtual tables with
    their modules (lower case), views, triggers, and computed (generated) columns."""

    tables: dict[str, frozenset[str]]
    virtual: dict[str, str]
    views: frozenset[str]
    triggers: frozenset[str]
    computed: tuple[str, ...]


#: ``CREATE VIRTUAL TABLE name USING module``, as SQLite stores it; anything else is refused
_VIRTUAL_TABLE = re.compile(
    r"""CREATE\s+VIRTUAL\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"(?:[^"]|"")*"|\[[^\]]*\]|`(?:[^`]|``)*`|'(?:[^']|'')*'|[\w$]+)\s+USING\s+([\w$]+)""",
    re.IGNORECASE,
)
#: sqlite-vec's tables (vec_contexts_1, vec_insights_1, ...): made when a model first embeds
_VEC_PREFIX = "vec_"


def _read_schema(conn: sqlite3.Connection) -> _Schema:
    tables: dict[str, frozenset[str]] = {}
    virtual: dict[str, str] = {}
    views: set[str] = set()
    triggers: set[str] = set()
    computed: list[str] = []
    for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall():
        if kind == "view":
            views.add(name)
        elif kind == "trigger":
            triggers.add(name)
        elif kind == "table" and (sql or "").upper().startswith("CREATE VIRTUAL"):
            match = _VIRTUAL_TABLE.match(sql)
            virtual[name] = match.group(1).lower() if match else "(unreadable)"
        elif kind == "table":
            columns = conn.execute("SELECT name, hidden FROM pragma_table_xinfo(?)", [name]).fetchall()
            tables[name] = frozenset(column for column, _ in columns)
            computed += [f"{name}.{column}" for column, hidden in columns if hidden in (2, 3)]
    return _Schema(tables, virtual, frozenset(views), frozenset(triggers), tuple(computed))


@functools.cache
def _expected_schema(version: int) -> _Schema:
    """The schema of a corpus at ``version``, as the migrations make it."""
    conn = sqlite3.connect(":memory:")
    try:
        migrate(sqlite_utils.Database(conn), MIGRATIONS[:version])
        return _read_schema(conn)
    finally:
        conn.close()


def _schema_problems(conn: sqlite3.Connection, manifest_version: int, probe_virtual_tables: bool) -> Iterator[str]:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version != manifest_version:
        yield f"its database is at schema version {version}, its manifest says {manifest_version}"
        return
    if not 1 <= version <= SCHEMA_VERSION:
        yield f"schema version {version}, which this paperpyramid does not know (it reads up to {SCHEMA_VERSION})"
        return
    found, expected = _read_schema(conn), _expected_schema(version)
    for name in sorted(found.views):
        yield f"{name} is a view, not a table" if name in expected.tables or name in expected.virtual else f"it holds a view, {name}"
    for name, columns in expected.tables.items():
        if name not in found.tables:
            yield f"{name} is a virtual table, not a table" if name in found.virtual else f"it has no table {name}"
        elif missing := sorted(columns - found.tables[name]):
            yield f"its table {name} has no column {', '.join(missing)}"
    for name, module in expected.virtual.items():
        if found.virtual.get(name) != module:
            yield f"{name} is not a virtual table using {module}"
    for name, module in sorted(found.virtual.items()):
        if name not in expected.virtual and not (name.startswith(_VEC_PREFIX) and module == "vec0"):
            yield f"it holds a virtual table {name} using {module}"
    for column in found.computed:
        yield f"its column {column} is computed"
    for name in sorted(found.triggers - expected.triggers):
        yield f"it holds a trigger, {name}"
    if not probe_virtual_tables:
        return
    for name, module in found.virtual.items():
        # opening each one runs its module's checks (an unknown tokenizer, a malformed declaration)
        table = _quote(name)
        probe = (
            f"SELECT 1 FROM {table} WHERE {table} MATCH 'paperpyramid' LIMIT 1" if module == "fts5" else f"SELECT 1 FROM {table} LIMIT 1"
        )
        conn.execute(probe).fetchall()


def schema_problem(conn: sqlite3.Connection, version: int, *, probe_virtual_tables: bool = True) -> str | None:
    """The first way the database behind ``conn`` differs from a corpus at schema ``version``
    (its manifest's), or None. Opening each virtual table once (``probe_virtual_tables``) runs
    its module's own checks, so that may raise ``sqlite3.DatabaseError`` (an unknown tokenizer,
    say); without it only the schema is read, never a table's rows."""
    return next(_schema_problems(conn, version, probe_virtual_tables), None)


def size_problem(conn: sqlite3.Connection, max_text_bytes: int, max_blob_bytes: int) -> str | None:
    """The first value longer than its limit: text over ``max_text_bytes``, a blob over
    ``max_blob_bytes`` (sqlite-vec's vector chunks are the largest blobs a corpus makes); None
    when there is none. Each ordinary table is scanned once: ``octet_length`` reads a value's
    size from its record, so a huge value costs no more to measure than a small one."""
    tables = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    for name, sql in tables:
        if (sql or "").upper().startswith("CREATE VIRTUAL"):
            continue  # its rows are in its shadow tables, scanned as ordinary tables
        columns = [row[0] for row in conn.execute("SELECT name FROM pragma_table_info(?)", [name]).fetchall()]
        if not columns:
            continue
        sizes = conn.execute(f"SELECT {', '.join(_measures(column) for column in columns)} FROM {_quote(name)}").fetchone()
        for index, column in enumerate(columns):
            text, blob = sizes[2 * index] or 0, sizes[2 * index + 1] or 0
            if text > max_text_bytes:
                return f"its table {name} holds a text value of {text:,} bytes in {column} (at most {max_text_bytes:,} are allowed)"
            if blob > max_blob_bytes:
                return f"its table {name} holds a blob of {blob:,} bytes in {column} (at most {max_blob_bytes:,} are allowed)"
    return None


def _measures(column: str) -> str:
    """The longest text and the longest blob in ``column``, in bytes."""
    quoted = _quote(column)
    return f"max(iif(typeof({quoted}) = 'blob', 0, octet_length({quoted}))), max(iif(typeof({quoted}) = 'blob', octet_length({quoted}), 0))"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
