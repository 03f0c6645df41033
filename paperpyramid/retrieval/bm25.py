"""BM25 search over contexts, through SQLite's FTS5 index (``contexts_fts``).

User text never reaches FTS5 as syntax: :func:`fts_query` keeps only word characters, so
quotes, hyphens, colons, parentheses and the words AND/OR/NOT/NEAR are searched as text,
never parsed as operators. Each whitespace-separated word becomes a quoted term; a word
with inner punctuation (``self-attention``, ``a-b:c``) becomes a phrase of its parts (which
matches "self-attention" and "self attention") plus each part on its own. Terms are OR-ed:
BM25 then ranks contexts that match more, and rarer, terms first. The index stems with
Porter's stemmer and covers the section title beside the text.

On a large corpus the same ranking comes from the BM25 index kept beside FTS5's
(:mod:`paperpyramid.db.lexical_index`: the same scores, a few milliseconds instead of a pass over
every matching row), while it is current; otherwise from FTS5 itself.
"""

from __future__ import annotations

import re

from paperpyramid.db import lexical_index
from paperpyramid.db.queries import passages
from paperpyramid.db.queries import search as queries
from paperpyramid.db.sqlite import Connection
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters, sql_condition
from paperpyramid.retrieval.passages import hit_from_row

#: Weights of the indexed columns for bm25(): context text, then section title.
COLUMN_WEIGHTS = lexical_index.WEIGHTS

_WORD_PART = re.compile(r"\w+")

# Words that match nearly every context; dropped unless the query has nothing else.
STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
        "has", "have", "how", "in", "is", "it", "its", "of", "on", "or", "that", "the",
        "their", "there", "these", "this", "to", "was", "were", "what", "when", "where",
        "which", "who", "why", "will", "with",
    }
)  # fmt: skip


def fts_query(text: str) -> str | None:
    """Turn free text into a safe FTS5 query, or ``None`` when it holds no words.

    >>> fts_query('transformer "self-attention" AND')
    '"transformer" OR "self attention" OR "self" OR "attention"'
    """
    phrases: list[str] = []
    for word in text.split():
        parts = _WORD_PART.findall(word.lower())
        if parts:
            phrases.append(" ".join(parts))
        if len(parts) > 1:
            phrases.extend(parts)
    phrases = list(dict.fromkeys(phrases))
    content = [phrase for phrase in phrases if phrase not in STOPWORDS] or phrases
    if not content:
        return None
    return " OR ".join(f'"{phrase}"' for phrase in content)


#: an expression as :func:`fts_query` writes them: quoted phrases of word characters, OR-ed
_PHRASES = re.compile(r'"[\w ]+"(?: OR "[\w ]+")*')


def search(conn: Connection, query: str, k: int = 10, filters: Filters | None = None, *, index: bool = True) -> list[SearchHit]:
    """The ``k`` contexts that best match ``query`` by BM25, best first.

    Any text is a valid query; one without words returns no hits. ``filters`` defaults to
    everything, references included (the behaviour of ``Corpus.search`` before filters).
    ``index=False`` ranks with FTS5 even where the BM25 index is current (same results; for
    measuring one against the other).
    """
    match = fts_query(query)
    return [] if match is None else search_match(conn, match, k, filters, index=index)


def search_match(conn: Connection, match: str, k: int = 10, filters: Filters | None = None, *, index: bool = True) -> list[SearchHit]:
    """The ``k`` best contexts for an FTS5 ``match`` expression already made safe (by
    :func:`fts_query`, or a variant of it), best first."""
    if k < 1:
        return []
    condition = sql_condition(conn, filters or Filters(include_references=True))
    # with a filter, fetch more than k and widen until k pass (or every match has been seen)
    fetch = k if condition[0] == "1" else 2 * k + 20
    while True:
        top = _top(conn, match, fetch, index)
        rows = {row[-1]: row for row in passages.hit_rows_by_rowid(conn, [rowid for rowid, _ in top], condition)}
        hits = [hit_from_row(rows[rowid], -rank) for rowid, rank in top if rowid in rows]
        if len(hits) >= k or len(top) < fetch:
            return hits[:k]
        fetch *= 4


def _top(conn: Connection, match: str, fetch: int, index: bool) -> list[tuple[int, float]]:
    """(rowid, rank) of the ``fetch`` best matches, best first, rank being FTS5's ``bm25()``:
    from the BM25 index while it is current, else from FTS5."""
    if index and _PHRASES.fullmatch(match):
        found = lexical_index.search(conn, [part[1:-1] for part in match.split(" OR ")], COLUMN_WEIGHTS, fetch)
        if found is not None:
            return [(rowid, -score) for rowid, score in found]
    return queries.fts_top(conn, match, fetch)
