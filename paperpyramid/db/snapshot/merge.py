"""Shards of one corpus made one corpus file again, for a reader who fetched several.

The shards of a sharded snapshot (:mod:`.shards`) are parts of one corpus: every row keeps the
id it had there, so :func:`merge_shards` copies the first shard and adds the rows of the others,
table by table, each row once (a row every shard holds, such as a model in ``embedders`` or a
failed input in the ingest log, stays one), the vectors of each model with them. The search
indexes (full text, BM25, the approximate vector indexes) are then rebuilt over the whole, and
references that name an article of another shard find it again.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from paperpyramid.db import lexical_index
from paperpyramid.db.row_copy import add_rows, attached, transaction, user_tables
from paperpyramid.db.snapshot.licences import rebuild_indexes
from paperpyramid.db.snapshot.manifest import SnapshotError
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
        # one transaction per shard (a database attached in a transaction cannot leave it); the
        # file is new, its caller's to discard if this fails halfway
        for shard in shards[1:]:
            with attached(conn, shard, "shard"), transaction(conn):
                add_rows(conn, "shard", tables)
        with transaction(conn):
            rebuild_indexes(conn)
        conn.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"cannot merge the shards into {target}: {exc}") from exc
    finally:
        conn.close()
