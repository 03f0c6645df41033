"""Numbered citations that say where in the work they cite, inside the bracket: a FAQ's question or
version, or the quoted title of the part cited, as l2tabu's guide to LaTeX usage prints them
(unseen batch 16)."""

from __future__ import annotations

import pytest

from paperpyramid.citations.marker_patterns import numeric_brackets


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("nor the De-TeX-FAQ [7, question 5.1.5] nor", 7),
        ("see the De-TeX-FAQ [7, questions 5.3.2, 5.3.3, 10.1.10], and", 7),
        ("nor the UK FAQ [4, version 3.16]. Our", 4),
        ("or the UK FAQ [4, ‘Hyphenation’, section Q.7]; put", 4),
        ("see the UK FAQ [4, ‘The wrong type of fonts in PDF’, question 114].", 4),
        ("as the proof [3, p. xii] shows", 3),
        ("as [6, Eq. (3)] gives", 6),
        ("see [5, Chapter II] for", 5),
    ],
)
def test_a_bracket_with_a_locator_after_its_number_is_a_citation(text: str, number: int) -> None:
    assert [marker.numbers for marker in numeric_brackets(text)] == [[number]]


@pytest.mark.parametrize(
    "text",
    [
        "on the interval [2, n] and",
        "the values x[1, 'a'] and",
        "the pair [3, 4x] of",
        "the first cell, data[1, column], is",
        "indexed as table [2, row] and",
    ],
)
def test_a_bracket_with_a_letter_or_a_plain_quote_after_its_number_is_none(text: str) -> None:
    assert numeric_brackets(text) == []
