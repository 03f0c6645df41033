"""Vector search: the contexts nearest to the query's embedding, best first; the score is the
cosine similarity. Exact (every stored vector of the active model compared, by sqlite-vec), or,
once the model's approximate index (:mod:`paperpyramid.db.vector_index`, built by
``paperpyramid embed`` for large corpora) holds every vector, through that index."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.queries import search as queries
from paperpyramid.db.queries.passages import Condition
from paperpyramid.db.sqlite import Connection
from paperpyramid.errors import ConfigurationError
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters, sql_condition
from paperpyramid.retrieval.passages import load_hits


def embedder_row(conn: Connection, name: str) -> db_vectors.EmbedderRow:
    """The stored vectors of model ``name``, or a clear error saying how to make them."""
    row = db_vectors.find_embedder(conn, name)
    if row is None:
        present = ", ".join(item.name for item in db_vectors.embedders(conn)) or "none"
        raise ConfigurationError(
            f"this corpus has no vectors from {name!r} (models with vectors: {present}); run: paperpyramid embed --db PATH"
        )
    return row


#: with a filter that leaves at most this many contexts, they are compared directly
DIRECT_LIMIT = 2000


def search(
    conn: Connection, embedder: db_vectors.EmbedderRow, query: npt.NDArray[np.float32], k: int = 10, filters: Filters | None = None
) -> list[SearchHit]:
    """The ``k`` contexts nearest to ``query`` (a unit vector) that pass ``filters``.

    A filter that leaves few contexts (a few articles) compares exactly those. Otherwise the
    nearest neighbours are fetched in growing rounds (k, then 4 times as many, …) until ``k`` of
    them pass the filters or every vector has been seen, so a filter never hides a match that
    exact search would have found.
    """
    if k < 1:
        return []
    filters = filters or Filters()
    condition = sql_condition(conn, filters)
    if filters.restricts_articles:
        allowed = queries.contexts_passing(conn, condition, DIRECT_LIMIT + 1)
        if len(allowed) <= DIRECT_LIMIT:
            near = db_vectors.distances(conn, embedder, query, allowed)
            ranked = sorted(near.items(), key=lambda item: item[1])[:k]
            return load_hits(conn, [(context_id, 1.0 - distance) for context_id, distance in ranked])
    # the approximate index answers when it holds every vector; else exact search, so that a
    # context embedded since the index was built is never missed
    approximate = vector_index.is_current(conn, embedder)
    fetch = max(k * 2, 50)
    while True:
        if approximate:
            nearest = vector_index.search(conn, embedder, query, fetch)
            if len(nearest) < fetch:  # the probed lists hold fewer: search exactly from here on
                approximate = False
                continue
        else:
            nearest = db_vectors.nearest(conn, embedder, query, fetch)
        passing = _passing(conn, [context_id for context_id, _ in nearest], condition)
        kept = [(context_id, 1.0 - distance) for context_id, distance in nearest if context_id in passing]
        if len(kept) >= k or (not approximate and len(nearest) < fetch):  # enough, or every vector seen
            return load_hits(conn, kept[:k])
        fetch *= 4


def _passing(conn: Connection, context_ids: list[str], condition: Condition) -> set[str]:
    if condition[0] == "1" or not context_ids:
        return set(context_ids)
    return queries.which_pass(conn, context_ids, condition)
