"""Parent-document retrieval: the best hits, each widened by the passages around it.

Each hit brings the ``before`` contexts preceding it and the ``after`` following it in its
paper's reading order (across section boundaries). Windows in the same paper that overlap or
touch are merged. Papers come in the order of their best hit, and each paper's passages in
reading order, so the answering model reads every paper as it was written. The result is cut
at ``budget_tokens``; what the windows leave of a budget goes to the next best hits. A passage
counts what it costs against a budget (:func:`paperpyramid.tokens.stored_cost`), and one larger
than the whole budget is cut to what is left of it, never handed over whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import zip_longest

from paperpyramid.db.bounded import PASSAGE_CHARS
from paperpyramid.db.queries import passages
from paperpyramid.db.sqlite import Connection
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.passages import load_hits
from paperpyramid.tokens import CHARS_PER_TOKEN, cut_to_cost


class _Paper:
    """A paper's contexts in reading order with what each costs: the stored count where the text
    comes back whole and the count is plausible for its size (bytes are at least characters), as
    :func:`~paperpyramid.retrieval.passages.hit_from_row` would find; else what the text a reader
    is handed costs, loaded once."""

    def __init__(self, conn: Connection, article_id: str, include_references: bool) -> None:
        self.conn = conn
        rows = passages.reading_order_sizes(conn, article_id, include_references)
        self.ids = [str(row[0]) for row in rows]
        self.costs: list[int | None] = [
            int(tokens) if tokens and (size or 0) <= min(tokens * CHARS_PER_TOKEN, PASSAGE_CHARS) else None for _, tokens, size in rows
        ]

    def cost(self, index: int) -> int:
        cost = self.costs[index]
        if cost is None:
            loaded = load_hits(self.conn, [(self.ids[index], 0.0)])
            cost = self.costs[index] = loaded[0].num_tokens if loaded else 0
        return cost


def widen(
    conn: Connection,
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
    its neighbours (a hit larger than the whole budget is cut to what is left of it). Neighbours from the
    references section come only with ``include_references``. A neighbour's score is its hit's; a
    passage in two windows keeps the higher. ``more`` (the next best hits) then fill what the
    budget leaves, each alone, in their order, merged into their papers' reading order like the rest.
    """
    papers: dict[str, dict[int, float]] = {}  # article id -> position in the paper -> score
    orders: dict[str, _Paper] = {}
    cut: dict[str, SearchHit] = {}  # context id -> the hit, cut to the budget
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
            orders[article_id] = _Paper(conn, article_id, include_references)
        order = orders[article_id]
        position = next((index for index, context_id in enumerate(order.ids) if context_id == hit.context_id), None)
        if position is None:
            continue
        chosen = papers.setdefault(article_id, {})
        if position not in chosen and budget_tokens is not None and used + hit.num_tokens > budget_tokens:
            if hit.num_tokens <= budget_tokens:
                continue  # the hit itself does not fit: nor does its window
            shortened = cut_to_cost(hit.text, budget_tokens - used)  # larger than the whole budget: cut to what is left
            if shortened is None:
                continue
            cut[hit.context_id] = replace(hit, text=shortened[0], num_tokens=shortened[1])
            chosen[position] = hit.score
            used += shortened[1]
            continue
        used += _window(chosen, order, position, hit, before, after, None if budget_tokens is None else budget_tokens - used)
    scored = [(orders[article_id].ids[index], chosen[index]) for article_id, chosen in papers.items() for index in sorted(chosen)]
    return [replace(cut[hit.context_id], score=hit.score) if hit.context_id in cut else hit for hit in load_hits(conn, scored)]


def _window(chosen: dict[int, float], order: _Paper, position: int, hit: SearchHit, before: int, after: int, room: int | None) -> int:
    """Adds the hit's passage, then its neighbours nearest first (after, before, after, …), to
    ``chosen`` while they fit in ``room`` tokens (None: no bound), each side stopping at the first
    that does not; the tokens added."""
    last = len(order.ids) - 1
    following = range(position + 1, min(position + after, last) + 1)
    preceding = range(position - 1, max(position - before, 0) - 1, -1)
    candidates = [position, *(index for pair in zip_longest(following, preceding) for index in pair if index is not None)]
    stopped = {1: False, -1: False}
    added = 0
    for index in candidates:
        direction = 0 if index == position else (1 if index > position else -1)
        if direction and stopped[direction]:
            continue
        if index in chosen:
            chosen[index] = max(chosen[index], hit.score)
            continue
        cost = hit.num_tokens if index == position else order.cost(index)
        if room is not None and added + cost > room:
            if direction == 0:
                break  # the hit itself does not fit: nor does its window
            stopped[direction] = True
            continue
        chosen[index] = hit.score
        added += cost
    return added


def cut_to_budget(passages: Sequence[SearchHit], budget_tokens: int | None) -> list[SearchHit]:
    """The leading passages whose tokens add up to at most ``budget_tokens`` (all when None). A
    passage larger than the whole budget (a row written elsewhere) is cut to what is left of it,
    ending in "…"; any other passage that does not fit ends the list."""
    if budget_tokens is None:
        return list(passages)
    kept: list[SearchHit] = []
    used = 0
    for passage in passages:
        if used + passage.num_tokens > budget_tokens:
            shortened = cut_to_cost(passage.text, budget_tokens - used) if passage.num_tokens > budget_tokens else None
            if shortened is None:
                break
            passage = replace(passage, text=shortened[0], num_tokens=shortened[1])
        kept.append(passage)
        used += passage.num_tokens
    return kept
