"""``retrieve``: the one entry point every retriever plugs into, by name in the registry
:data:`RETRIEVERS` (:class:`paperpyramid.registry.Registry`, the one the parsers use).

Modes:

- ``bm25``: keywords, FTS5's BM25 (Porter stemming, section titles indexed);
- ``vector``: nearest neighbours of the query's embedding (exact, or through the model's
  approximate index while it holds every vector: :mod:`paperpyramid.db.vector_index`);
- ``hybrid``: the two fused (see :mod:`paperpyramid.retrieval.hybrid`);
- ``parent``: the best ``options.parent_hits`` (5) hybrid hits (BM25 hits without an
  embedder), each with the passages around it (see :mod:`paperpyramid.retrieval.parent`); ``k``
  does not apply; with ``budget_tokens``, the next best hits (up to ``options.fill``), each
  alone, fill what the windows leave of the budget;
- ``cross``: verbatim contexts ranked by fusing their hybrid ranks with those of the distilled
  insights that drill down to them (see :mod:`paperpyramid.retrieval.levels`).

``level`` chooses what is searched: ``contexts`` (default, every mode) or a level of the
knowledge pyramid (``insights``, ``concepts``, ``abstracts``, ``recollections``; modes bm25,
vector and hybrid), whose hits carry their own text and their verbatim source contexts.

Every mode returns cited passages best first (``parent``: papers by their best hit, each in
reading order), cut at ``budget_tokens`` when given. A query without words returns nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paperpyramid.embeddings import Embedder
from paperpyramid.registry import Registry
from paperpyramid.retrieval import SearchHit, bm25, hybrid, levels, parent, vector
from paperpyramid.retrieval.filters import Filters
from paperpyramid.settings import SEARCH_MODES, SearchMode

Mode = SearchMode
MODES: tuple[str, ...] = SEARCH_MODES


@dataclass(frozen=True, slots=True)
class RetrievalOptions:
    """How the modes are tuned; the defaults are the ones measured best on the development QA set
    (the benchmarks page gives the figures)."""

    depth: int = 100  # candidates each retriever hands to the fusion
    fusion: hybrid.Fusion = "weighted"
    bm25_weight: float = 1.0
    vector_weight: float = 0.7
    parent_hits: int = 5  # hybrid hits that parent widens
    before: int = 2  # contexts before each parent hit
    after: int = 2  # contexts after it
    fill: int = 95  # with a budget: the next hybrid hits, each alone, fill what the windows leave


def retrieve(
    conn: Any,
    query: str,
    *,
    mode: str = "hybrid",
    k: int = 10,
    budget_tokens: int | None = None,
    filters: Filters | None = None,
    embedder: Embedder | None = None,
    options: RetrievalOptions | None = None,
    level: str = "contexts",
) -> list[SearchHit]:
    """The passages for ``query`` by ``mode``; ``embedder`` embeds the query for the modes that
    use vectors (its stored vectors must be in the corpus)."""
    if mode not in MODES:
        raise ValueError(f"unknown retrieval mode {mode!r}; choose one of: {', '.join(MODES)}")
    if level not in levels.LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(levels.LEVELS)}")
    if level != "contexts" and mode in ("parent", "cross"):
        raise ValueError(f"mode {mode!r} returns contexts; search a distilled level with bm25, vector or hybrid")
    if budget_tokens is not None and budget_tokens < 1:
        raise ValueError("budget_tokens must be at least 1")
    options = options or RetrievalOptions()
    filters = filters or Filters()
    if k < 1 or bm25.fts_query(query) is None:
        return []  # no words: nothing to look for, in any mode (an embedding of "" matches noise)
    if level != "contexts":
        hits = levels.search_level(
            conn, query, level, mode=mode, k=k, filters=filters, embedder=embedder, depth=options.depth, vector_weight=options.vector_weight
        )
        return parent.cut_to_budget(hits, budget_tokens)
    return RETRIEVERS.get(mode)(Search(conn, query, k, filters, embedder, options, budget_tokens))


@dataclass(frozen=True, slots=True)
class Search:
    """One search of the contexts as a mode receives it, checked: a query with words, ``k`` at
    least 1, the filters and options filled in."""

    conn: Any
    query: str
    k: int
    filters: Filters
    embedder: Embedder | None
    options: RetrievalOptions
    budget_tokens: int | None


#: a retrieval mode: the passages for a search, best first, within its budget
Retriever = Callable[[Search], list[SearchHit]]


def _bm25_mode(search: Search) -> list[SearchHit]:
    return parent.cut_to_budget(bm25.search(search.conn, search.query, search.k, search.filters), search.budget_tokens)


def _vector_mode(search: Search) -> list[SearchHit]:
    hits = _vector(search.conn, search.query, search.k, search.filters, search.embedder)
    return parent.cut_to_budget(hits, search.budget_tokens)


def _hybrid_mode(search: Search) -> list[SearchHit]:
    hits = _hybrid(search.conn, search.query, search.k, search.filters, search.embedder, search.options)
    return parent.cut_to_budget(hits, search.budget_tokens)


def _parent_mode(search: Search) -> list[SearchHit]:
    """Without an embedder (a corpus without vectors), the best BM25 hits are widened."""
    conn, query, filters, embedder, options = search.conn, search.query, search.filters, search.embedder, search.options
    wanted = options.parent_hits + (options.fill if search.budget_tokens is not None else 0)
    best = _hybrid(conn, query, wanted, filters, embedder, options) if embedder is not None else bm25.search(conn, query, wanted, filters)
    return parent.widen(
        conn,
        best[: options.parent_hits],
        options.before,
        options.after,
        search.budget_tokens,
        include_references=filters.include_references,
        more=best[options.parent_hits :],
    )


def _cross_mode(search: Search) -> list[SearchHit]:
    conn, query, filters, embedder, options = search.conn, search.query, search.filters, search.embedder, search.options
    contexts = (
        _hybrid(conn, query, options.depth, filters, embedder, options)
        if embedder is not None
        else bm25.search(conn, query, options.depth, filters)
    )
    hits = levels.cross(conn, query, search.k, filters, embedder, contexts, depth=options.depth)
    return parent.cut_to_budget(hits, search.budget_tokens)


def _vector(conn: Any, query: str, k: int, filters: Filters, embedder: Embedder | None) -> list[SearchHit]:
    if embedder is None:
        raise ValueError("vector and hybrid retrieval need an embedder for the query")
    row = vector.embedder_row(conn, embedder.name)
    return vector.search(conn, row, embedder.embed_query(query), k, filters)


def _hybrid(conn: Any, query: str, k: int, filters: Filters, embedder: Embedder | None, options: RetrievalOptions) -> list[SearchHit]:
    depth = max(options.depth, k)
    lexical = bm25.search(conn, query, depth, filters)
    semantic = _vector(conn, query, depth, filters, embedder)
    return hybrid.fuse([lexical, semantic], [options.bm25_weight, options.vector_weight], k, options.fusion)


#: The retrieval modes by the name settings give them (:data:`MODES`, in that order).
RETRIEVERS: Registry[Retriever] = Registry(
    "retrieval mode", {"bm25": _bm25_mode, "vector": _vector_mode, "hybrid": _hybrid_mode, "parent": _parent_mode, "cross": _cross_mode}
)
