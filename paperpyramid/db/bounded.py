"""Stored text read with a bound, whatever a row holds.

The writer cuts a context to the embedding model's window, but a corpus file may hold rows
nobody here wrote (a snapshot from elsewhere, a row inserted by hand), and one such row can hold
hundreds of megabytes. The queries that read text for a reader's request select it through
:func:`text_sql`: SQLite hands over at most ``chars`` characters, ending with
:data:`~paperpyramid.tokens.CUT_MARK` when cut, and a value over :data:`READ_BYTES` bytes is not
read at all: a note of its size stands in its place. SQLite knows a value's size in bytes
without reading it (``octet_length``, SQLite 3.43 and later, as pysqlite3-binary ships); an
older SQLite reads the value once to measure it, so there only what reaches Python is bounded.
Which one a query may use is the SQLite of its connection (:func:`measures_sizes`): a caller may
hand retrieval a connection of Python's own ``sqlite3`` beside paperpyramid's pysqlite3.

:func:`size_sql` selects that size beside the text, and :func:`is_whole` tells from the two
whether the text came back as stored.
"""

from __future__ import annotations

from typing import Any

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.tokens import CUT_MARK

#: the most characters of one stored passage a reader is handed: about 15,000 tokens of prose,
#: more than a context the writer cuts to the widest embedding window it knows (8,192 tokens)
PASSAGE_CHARS = 64_000
#: the most characters of a title (an article's, a section's) a reader is handed
TITLE_CHARS = 2_000
#: a stored value over this many bytes is never read: it cannot be a passage
READ_BYTES = 1 << 20

#: whether the SQLite of :mod:`paperpyramid.db.sqlite` (every connection it makes) has ``octet_length``
LIBRARY_MEASURES = tuple(sqlite3.sqlite_version_info) >= (3, 43, 0)
_MEASURES: dict[type[Any], bool] = {}


def measures_sizes(conn: Any) -> bool:
    """Whether the SQLite behind ``conn`` tells a value's size without reading it (``octet_length``,
    3.43 and later); asked once per class of connection, a class being one SQLite library's."""
    kind = type(conn)
    if kind not in _MEASURES:
        version = str(conn.execute("SELECT sqlite_version()").fetchone()[0])
        _MEASURES[kind] = tuple(int(part) for part in version.split(".")[:3]) >= (3, 43, 0)
    return _MEASURES[kind]


def size_sql(column: str, measured: bool = LIBRARY_MEASURES) -> str:
    """SQL for the size in bytes of ``column``'s value, read without the value where the SQLite
    ``measured`` (see :func:`measures_sizes`)."""
    return f"octet_length({column})" if measured else f"length(CAST({column} AS BLOB))"


def text_sql(column: str, chars: int = PASSAGE_CHARS, measured: bool = LIBRARY_MEASURES) -> str:
    """SQL for ``column``'s text cut to ``chars`` characters (and marked), or, for a value over
    :data:`READ_BYTES` bytes, a note of its size in its place."""
    size = size_sql(column, measured)
    return (
        f"CASE WHEN {size} > {READ_BYTES} THEN '[not shown: ' || {size} || ' bytes of stored text, more than a passage may hold]' "
        f"WHEN length({column}) > {chars} THEN substr({column}, 1, {chars}) || '{CUT_MARK}' ELSE {column} END"
    )


def is_whole(text: str | None, size: int | None) -> bool:
    """Whether ``text``, selected by :func:`text_sql`, is the stored value whole, ``size`` being
    what :func:`size_sql` selected beside it (its UTF-8 bytes, in a corpus the writer made)."""
    return text is None or size is None or len(text.encode("utf-8", "surrogatepass")) == size


__all__ = ["LIBRARY_MEASURES", "PASSAGE_CHARS", "READ_BYTES", "TITLE_CHARS", "is_whole", "measures_sizes", "size_sql", "text_sql"]
