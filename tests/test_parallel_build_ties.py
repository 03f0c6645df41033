"""The parallel build's comparison of search results tells the order of equal scores (each build
orders ties by its own rowids) from results that differ."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from parallel_build import _same_but_ties  # noqa: E402


def test_ties_cut_apart_are_the_same_results() -> None:
    one = [(9.0, "a"), (8.0, "b"), (8.0, "c"), (7.0, "d"), (7.0, "e")]
    parts = [(9.0, "a"), (8.0, "c"), (8.0, "b"), (7.0, "f"), (7.0, "d")]  # b/c swapped; the cut's tie took f, not e
    assert _same_but_ties(one, parts)


def test_other_scores_or_other_texts_above_the_cut_differ() -> None:
    one = [(9.0, "a"), (8.0, "b"), (7.0, "d")]
    assert not _same_but_ties(one, [(9.0, "a"), (8.5, "b"), (7.0, "d")])
    assert not _same_but_ties(one, [(9.0, "a"), (8.0, "x"), (7.0, "d")])
