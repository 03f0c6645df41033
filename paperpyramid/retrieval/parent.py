"""Parent-document retrieval: the best hits, each widened by the passages around it.

Each hit brings the ``before`` contexts preceding it and the ``after`` following it in its
paper's reading order (across section boundaries). Windows in the same paper that overlap or
touch are merged. Papers come in the order of their best hit, and each paper's passages in
reading order, so the answering model reads every paper as it was written. The result is cut
at ``budget_tokens``; what the windows leave of a budget goes to the next best hits.
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
JOIN sections AS s ON s.id = sc.section_id
WHERE ars.article_id = ? AND (? OR s.section_number IS NOT 'ref')
ORDER BY ars.position, sc.position
"""


def widen(
    conn: Any,
    hits: Sequence[SearchHit],
    before: int = 2,
    after: int = 2,
    budget_tokens: int | None = None,
    *,
    include_references: bool = False,
    more: Sequence[SearchHit] = (),
) -> list[SearchHit]:
    """The hits with their neighbours, merged per paper, in reading order, within the budget.

    Hits are taken best first, each with its own passage first and then its neighbours nearest
    first (after, before, after, …), each side stopping at the first passage that does not fit
    in ``budget_tokens``: a budget shrinks the windows around their hits, never drops a hit for
    its neighbours. Neighbours from the references section come only with
    ``include_references``. A neighbour's score is its hit's; a passage in two windows keeps
    the higher. ``more`` (the next best hits) then fill what the budget leaves, each alone, in
    their order, merged into their papers' reading order like the rest.
    """
    papers: dict[str, dict[int, float]] = {}  # article id -> position in the paper -> score
    orders: dict[str, list[tuple[str, int]]] = {}
    used = 0

    def fits(tokens: int) -> bool:
        return budget_tokens is None or used + tokens <= budget_tokens

    for rank, hit in enumerate([*hits, *more]):
        if rank >= len(hits):
            before = after = 0  # the further hits fill what the windows left, without windows
            if budget_tokens is not None and used >= budget_tokens:
                break
            if not fits(hit.num_tokens):
                continue  # too long for what is left: its paper's reading order is not even loaded
        article_id = hit.citation.article_id
        if article_id not in orders:
            orders[article_id] = [(str(row[0]), int(row[1])) for row in conn.execute(_READING_ORDER, [article_id, include_references])]
        order = orders[article_id]
        position = next((index for index, (context_id, _) in enumerate(order) if context_id == hit.context_id), None)
        if position is None:
            continue
        chosen = papers.setdefault(article_id, {})
        sides = [
            iter(range(position + 1, min(position + after, len(order) - 1) + 1)),
            iter(range(position - 1, max(position - before, 0) - 1, -1)),
        ]
        candidates = [position]
        open_sides = [True, True]
        while any(open_sides):
            for side, steps in enumerate(sides):
                if open_sides[side]:
                    index = next(steps, None)
                    if index is None:
                        open_sides[side] = False
                    else:
                        candidates.append(index)
        stopped = {1: False, -1: False}
        for index in candidates:
            direction = 0 if index == position else (1 if index > position else -1)
            if direction and stopped[direction]:
                continue
            if index in chosen:
                chosen[index] = max(chosen[index], hit.score)
                continue
            if not fits(order[index][1]):
                if direction == 0:
                    break  # the hit itself does not fit: nor does its window
                stopped[direction] = True
                continue
            chosen[index] = hit.score
            used += order[index][1]
    scored = [(orders[article_id][index][0], chosen[index]) for article_id, chosen in papers.items() for index in sorted(chosen)]
    return load_hits(conn, scored)


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
