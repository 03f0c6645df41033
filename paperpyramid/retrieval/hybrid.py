"""Hybrid search: BM25 and vector results fused into one ranking.

Both retrievers return their top ``depth`` candidates. ``rrf`` (reciprocal rank fusion)
scores a passage by ``sum(weight / (60 + rank))`` over the lists it is in; ``weighted`` by a
weighted sum of each list's scores scaled to [0, 1] (a passage missing from a list gets 0
there). Which one, and the weights, are chosen by ``paperpyramid eval retrieval`` on
``../shared/qa`` (see the README's table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from paperpyramid.embeddings import Embedder
from paperpyramid.retrieval import SearchHit

Fusion = Literal["rrf", "weighted"]

#: rank offset of reciprocal rank fusion (Cormack et al. 2009)
RRF_K = 60


def mode_for(embedder: Embedder | None) -> str:
    """``hybrid`` when a query embedder is at hand, else ``bm25``: the mode the asking strategies
    and the level search use, so that none of them searches differently from the others."""
    return "hybrid" if embedder is not None else "bm25"


def fuse(
    lists: Sequence[Sequence[SearchHit]],
    weights: Sequence[float],
    k: int,
    method: Fusion = "rrf",
) -> list[SearchHit]:
    """One ranking from several, best first; each hit keeps its text and citation, with the
    fused score."""
    scores: dict[str, float] = {}
    hits: dict[str, SearchHit] = {}
    for hits_of_list, weight in zip(lists, weights, strict=True):
        if not hits_of_list:
            continue
        if method == "rrf":
            contributions = [weight / (RRF_K + rank) for rank in range(1, len(hits_of_list) + 1)]
        else:
            values = [hit.score for hit in hits_of_list]
            low, high = min(values), max(values)
            span = high - low
            contributions = [weight * ((value - low) / span if span > 0 else 1.0) for value in values]
        for hit, contribution in zip(hits_of_list, contributions, strict=True):
            scores[hit.key] = scores.get(hit.key, 0.0) + contribution
            hits.setdefault(hit.key, hit)
    ranked = sorted(scores, key=lambda key: -scores[key])[:k]
    return [replace(hits[key], score=scores[key]) for key in ranked]
