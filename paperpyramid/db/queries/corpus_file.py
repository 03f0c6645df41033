"""What opening a corpus file asks of it before anything else: its schema version."""

from __future__ import annotations

from paperpyramid.db.sqlite import Connection


def schema_version(conn: Connection) -> int:
    """The corpus schema version the file is at (``PRAGMA user_version``: 0 for a file that is no corpus)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


__all__ = ["schema_version"]
