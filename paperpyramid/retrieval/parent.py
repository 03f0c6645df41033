"""Parent-document retrieval: the best hits, each widened by the passages around it.

Each hit brings the ``before`` contexts preceding it and the ``after`` following it in its
paper's reading order (across section boundaries). Windows in the same paper that overlap or
touch are merged. Papers come in the order of their best hit, and each paper's passages in
reading order, so the answering model reads every paper as it was written. The result is cut
at ``budget_tokens``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.passages import load_hits

_READING_ORDER = """
SELECT c.id, c.num_tokens FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
WHERE ars.article_id = ?
ORDER BY ars.position, sc.position
"""


def widen(conn: Any, hits: Sequence[SearchHit], before: int = 2, after: int = 2, budget_tokens: int | None = None) -> list[SearchHit]:
    """The hits with their neighbours, merged per paper, in reading order, within the budget.

    A neighbour's score is its hit's score; a passage in two windows keeps the higher.
    """
    papers: dict[str, dict[int, float]] = {}  # article id -> position in the paper -> score
    orders: dict[str, list[str]] = {}
    for hit in hits:
        article_id = hit.citation.article_id
        if article_id not in orders:
            orders[article_id] = [row[0] for row in conn.execute(_READING_ORDER, [article_id])]
        order = orders[article_id]
        try:
            position = order.index(hit.context_id)
        except ValueError:
            continue
        chosen = papers.setdefault(article_id, {})
        for index in range(max(position - before, 0), min(position + after, len(order) - 1) + 1):
            chosen[index] = max(chosen.get(index, float("-inf")), hit.score)
    scored = [(orders[article_id][index], chosen[index]) for article_id, chosen in papers.items() for index in sorted(chosen)]
    passages = load_hits(conn, scored)
    return cut_to_budget(passages, budget_tokens)


def cut_to_budget(passages: Sequence[SearchHit], budget_tokens: int | None) -> list[SearchHit]:
    """The leading passages whose tokens add up to at most ``budget_tokens`` (all when None)."""
    if budget_tokens is None:
        return list(passages)
    kept: list[SearchHit] = []
    used = 0
    for passage in passages:
        if used + passage.num_tokens > budget_tokens:
            break
        kept.append(passage)
        used += passage.num_tokens
    return kept
