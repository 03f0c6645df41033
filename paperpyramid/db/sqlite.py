"""The one SQLite library every connection in the process uses, with sqlite-vec loaded.

Vectors live in ``vec0`` tables (sqlite-vec), which every connection that touches them must
load, and some Python builds (pyenv's, several distributions') cannot load extensions into the
standard ``sqlite3``. ``pysqlite3`` (the ``pysqlite3-binary`` wheel on Linux) can; sqlite-utils
prefers it when it is installed, and so does this module, so that all connections in a process
go through one SQLite library: two copies of SQLite in one process would not see each other's
file locks.

A file a reader did not write (a downloaded snapshot; any file ``Corpus.open`` reads, since
it cannot tell who wrote it) is opened ``untrusted``: its schema gets no
trust (``PRAGMA trusted_schema = OFF``), and a statement that spends more than
``query_time_limit`` seconds inside SQLite is interrupted, so neither a hostile file nor an
expensive query can hang a reader forever (Ctrl-C interrupts it too).
"""

from __future__ import annotations

import importlib
import sqlite3 as _stdlib_sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from paperpyramid.errors import ConfigurationError, NotACorpus


def _module() -> ModuleType:
    try:
        return importlib.import_module("pysqlite3")
    except ImportError:
        return _stdlib_sqlite3


sqlite3: Any = _module()
Connection = _stdlib_sqlite3.Connection  # for type hints; pysqlite3's has the same interface
DatabaseError: type[Exception] = sqlite3.DatabaseError
OperationalError: type[Exception] = sqlite3.OperationalError

#: Seconds one statement on an untrusted file may spend inside SQLite before it is interrupted:
#: far beyond any query paperpyramid makes, short of forever.
QUERY_TIME_LIMIT = 120.0
#: SQLite calls the progress handler every this many virtual-machine instructions (about 0.1 ms).
_PROGRESS_STEPS = 10_000
#: A longer wait between two calls is time spent outside SQLite (the caller pausing between rows).
_PAUSE = 0.1


def load_vec(conn: Any) -> None:
    """Load sqlite-vec into ``conn`` (a no-op when it is already there)."""
    try:
        conn.execute("SELECT vec_version()")
        return
    except sqlite3.OperationalError:
        pass
    if not hasattr(conn, "enable_load_extension"):
        raise ConfigurationError(
            "this Python's sqlite3 cannot load extensions, which vector search needs; "
            "install pysqlite3-binary (pip install pysqlite3-binary) or use a Python built with extension loading"
        )
    import sqlite_vec

    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)


def connect(
    path: str | Path,
    *,
    read_only: bool = False,
    immutable: bool = False,
    timeout: float = 5.0,
    untrusted: bool = False,
    query_time_limit: float = QUERY_TIME_LIMIT,
    check_same_thread: bool = True,
) -> Any:
    """A connection with sqlite-vec loaded; ``read_only`` opens with ``mode=ro`` (and
    ``immutable`` for a file that never changes, such as a verified snapshot).

    ``untrusted`` (a file from elsewhere, such as a snapshot): functions in its schema must be
    harmless (``trusted_schema`` off), and a statement that spends more than ``query_time_limit``
    seconds inside SQLite is interrupted with an ``OperationalError`` that says so.
    ``check_same_thread=False``: the connection may pass from one thread to another (never be
    used by two at once: SQLite here is built multi-thread, not serialized)."""
    factory = _GuardedConnection if untrusted else sqlite3.Connection
    if read_only:
        options = "mode=ro&immutable=1" if immutable else "mode=ro"
        conn = sqlite3.connect(
            f"{Path(path).resolve().as_uri()}?{options}", uri=True, timeout=timeout, factory=factory, check_same_thread=check_same_thread
        )
    else:
        conn = sqlite3.connect(str(path), timeout=timeout, factory=factory, check_same_thread=check_same_thread)
    try:
        if untrusted:
            conn.guard = _StatementGuard(str(path), query_time_limit)
            conn.set_trace_callback(conn.guard.begin)
            conn.set_progress_handler(conn.guard, _PROGRESS_STEPS)
            conn.execute("PRAGMA trusted_schema = OFF")  # before anything reads the schema's SQL
        load_vec(conn)  # its first statement reads the file's header
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise NotACorpus(f"{path} is not a paperpyramid corpus: {exc}") from exc
    return conn


@contextmanager
def savepoint(conn: Any, name: str) -> Iterator[None]:
    """Run the block inside ``SAVEPOINT name``: inside the caller's transaction, or as its own.
    Released when the block ends; rolled back to and released when it raises anything (Ctrl-C
    too), so that a half-done rebuild never stays behind in the caller's transaction."""
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield
        conn.execute(f"RELEASE {name}")
    except BaseException:
        conn.execute(f"ROLLBACK TO {name}")
        conn.execute(f"RELEASE {name}")
        raise


class _StatementGuard:
    """Interrupts a statement once it has spent ``limit`` seconds inside SQLite.

    SQLite calls it every few thousand instructions while a statement runs (the progress
    handler), and calls :meth:`begin` when a statement starts (the trace callback). The time
    counted is the sum of the gaps between calls; a gap over ``_PAUSE`` is the caller pausing
    between rows, not counted, so a slow reader of a long result is never cut off."""

    def __init__(self, shown: str, limit: float) -> None:
        self.shown = shown
        self.limit = limit
        self.busy = 0.0
        self.last = time.monotonic()
        self.stopped = False

    def begin(self, _statement: str) -> None:
        self.busy, self.last, self.stopped = 0.0, time.monotonic(), False

    def __call__(self) -> bool:
        now = time.monotonic()
        gap, self.last = now - self.last, now
        if gap < _PAUSE:
            self.busy += gap
        self.stopped = self.busy > self.limit
        return self.stopped  # true: SQLite stops the statement ("interrupted")

    def reraise(self, exc: Exception) -> NoReturn:
        """Raise ``exc`` again; SQLite's bare "interrupted", when this guard stopped the statement, as a sentence."""
        if not self.stopped or str(exc) != "interrupted":
            raise exc
        raise sqlite3.OperationalError(
            f"a query on {self.shown} ran for more than {self.limit:g} s and was interrupted "
            "(a hostile snapshot, or a query too expensive for it)"
        ) from exc


class _GuardedConnection(sqlite3.Connection):  # type: ignore[misc]
    """A connection whose statements a :class:`_StatementGuard` can stop, with its explanation
    raised wherever SQLite reports the stop (executing, or fetching a later row)."""

    guard: _StatementGuard

    def cursor(self, factory: Any = None) -> Any:
        return super().cursor(factory or _GuardedCursor)


def _reraising(name: str) -> Any:
    """``sqlite3.Cursor``'s method ``name``, with the guard's explanation of a stop raised in
    place of SQLite's bare "interrupted"."""
    method = getattr(sqlite3.Cursor, name)

    def call(self: _GuardedCursor, *args: Any) -> Any:
        try:
            return method(self, *args)
        except sqlite3.OperationalError as exc:
            self.connection.guard.reraise(exc)

    call.__name__ = name
    return call


class _GuardedCursor(sqlite3.Cursor):  # type: ignore[misc]
    # every way a statement runs or a row is fetched (__next__: once a row)
    connection: _GuardedConnection
    execute = _reraising("execute")
    executemany = _reraising("executemany")
    executescript = _reraising("executescript")
    fetchone = _reraising("fetchone")
    fetchmany = _reraising("fetchmany")
    fetchall = _reraising("fetchall")
    __next__ = _reraising("__next__")


__all__ = ["QUERY_TIME_LIMIT", "Connection", "DatabaseError", "OperationalError", "connect", "load_vec", "sqlite3"]
