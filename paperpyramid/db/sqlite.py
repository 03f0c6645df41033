"""The one SQLite library every connection in the process uses, with sqlite-vec loaded.

Vectors live in ``vec0`` tables (sqlite-vec), which every connection that touches them must
load, and some Python builds (pyenv's, several distributions') cannot load extensions into the
standard ``sqlite3``. ``pysqlite3`` (the ``pysqlite3-binary`` wheel on Linux) can; sqlite-utils
prefers it when it is installed, and so does this module, so that all connections in a process
go through one SQLite library: two copies of SQLite in one process would not see each other's
file locks.
"""

from __future__ import annotations

import importlib
import sqlite3 as _stdlib_sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

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


def connect(path: str | Path, *, read_only: bool = False, immutable: bool = False, timeout: float = 5.0) -> Any:
    """A connection with sqlite-vec loaded; ``read_only`` opens with ``mode=ro`` (and
    ``immutable`` for a file that never changes, such as a verified snapshot)."""
    if read_only:
        options = "mode=ro&immutable=1" if immutable else "mode=ro"
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?{options}", uri=True, timeout=timeout)
    else:
        conn = sqlite3.connect(str(path), timeout=timeout)
    try:
        load_vec(conn)  # its first statement reads the file's header
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise NotACorpus(f"{path} is not a paperpyramid corpus: {exc}") from exc
    return conn


__all__ = ["Connection", "DatabaseError", "OperationalError", "connect", "load_vec", "sqlite3"]
