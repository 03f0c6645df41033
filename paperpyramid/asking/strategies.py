"""The LLM-driven strategies, by name, behind one call: :func:`find`.

- ``multiquery``: query variants, fusion, a relevance filter, parent passages
  (:mod:`paperpyramid.asking.multiquery`);
- ``walk``: the model reads a paper section by section, choosing where to go next
  (:mod:`paperpyramid.asking.walk`);
- ``walkingrag``: rounds of partial facts, each saying where to look next
  (:mod:`paperpyramid.asking.walkingrag`);
- ``pyramid``: the search agent over the knowledge pyramid's levels
  (:mod:`paperpyramid.asking.pyramid_agent`).

Every strategy returns a :class:`~paperpyramid.asking.trace.Found`: the passages it would
hand to the answering model (cut to ``budget_tokens``), the facts it gathered and the steps it
took with their token usage; each stops within its :class:`~paperpyramid.asking.trace.Limits`.
"""

from __future__ import annotations

from collections.abc import Callable

from paperpyramid.asking.trace import Found, Limits, Step, Tracker
from paperpyramid.db.sqlite import Connection
from paperpyramid.embeddings import Embedder
from paperpyramid.llm import LLM
from paperpyramid.retrieval.filters import Filters
from paperpyramid.settings import LLM_STRATEGIES

STRATEGIES: tuple[str, ...] = LLM_STRATEGIES


def find(
    conn: Connection,
    strategy: str,
    question: str,
    llm: LLM,
    *,
    budget_tokens: int | None = None,
    embedder: Embedder | None = None,
    filters: Filters | None = None,
    limits: Limits | None = None,
    on_step: Callable[[Step], None] | None = None,
    filter_llm: LLM | None = None,
) -> Found:
    """The passages (and facts) ``strategy`` finds for ``question``; see the module docstring."""
    tracker = Tracker(limits, on_step)
    filters = filters or Filters()
    if strategy == "multiquery":
        from paperpyramid.asking.multiquery import multiquery

        found = Found(
            multiquery(
                conn, question, llm, filter_llm=filter_llm, budget_tokens=budget_tokens, embedder=embedder, filters=filters, tracker=tracker
            )
        )
    elif strategy == "walk":
        from paperpyramid.asking.walk import walk

        found = walk(conn, question, llm, tracker=tracker, budget_tokens=budget_tokens, embedder=embedder, filters=filters)
    elif strategy == "walkingrag":
        from paperpyramid.asking.walkingrag import walkingrag

        found = walkingrag(conn, question, llm, tracker=tracker, budget_tokens=budget_tokens, embedder=embedder, filters=filters)
    elif strategy == "pyramid":
        from paperpyramid.asking.pyramid_agent import pyramid_agent

        found = pyramid_agent(conn, question, llm, tracker=tracker, budget_tokens=budget_tokens, embedder=embedder, filters=filters)
    else:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")
    found.steps = tracker.steps
    return found
