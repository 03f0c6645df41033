"""``batch_store.insert_rows``: rows built with the same columns (in any order) and rows that lack
some (NULL there) go in with the values under their own columns; so do single-column rows."""

from __future__ import annotations

from paperpyramid.db.batch_store import insert_rows
from paperpyramid.db.sqlite import sqlite3


def test_rows_go_in_under_their_columns() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (a, b, c)")
    insert_rows(conn, "t", [{"a": 1, "b": 2, "c": 3}, {"c": 6, "a": 4, "b": 5}])  # the same columns, another order
    insert_rows(conn, "t", [{"a": 7, "b": 8}, {"b": 9, "c": 10}])  # some lack one: NULL
    insert_rows(conn, "t", [{"c": 11}, {"c": 12}])  # one column
    insert_rows(conn, "t", [])
    assert conn.execute("SELECT a, b, c FROM t ORDER BY rowid").fetchall() == [
        (1, 2, 3), (4, 5, 6), (7, 8, None), (None, 9, 10), (None, None, 11), (None, None, 12),
    ]  # fmt: skip
