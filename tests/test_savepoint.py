"""The one savepoint helper the index rebuilds and vector conversions run in
(:func:`paperpyramid.db.sqlite.savepoint`): what the block wrote is kept when it ends and undone
when it raises, inside the caller's transaction or as its own, and the caller's own earlier
writes survive the rollback."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.db.sqlite import connect, savepoint


def _rows(conn: object) -> list[int]:
    return [row[0] for row in conn.execute("SELECT n FROM t ORDER BY n")]  # type: ignore[attr-defined]


def test_block_kept_when_it_ends(tmp_path: Path) -> None:
    conn = connect(tmp_path / "a.sqlite")
    conn.execute("CREATE TABLE t (n INTEGER)")
    with savepoint(conn, "fill"):
        conn.execute("INSERT INTO t VALUES (1)")
    assert _rows(conn) == [1]
    assert not conn.in_transaction  # released: nothing left open behind the caller


def test_block_undone_when_it_raises_inside_the_callers_transaction(tmp_path: Path) -> None:
    conn = connect(tmp_path / "a.sqlite")
    conn.execute("CREATE TABLE t (n INTEGER)")
    conn.execute("BEGIN")
    conn.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(KeyboardInterrupt), savepoint(conn, "fill"):
        conn.execute("INSERT INTO t VALUES (2)")
        raise KeyboardInterrupt
    assert conn.in_transaction  # the caller's transaction goes on
    conn.execute("COMMIT")
    assert _rows(conn) == [1]
