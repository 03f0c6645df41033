"""A raised or bracketed list of numbers with an empty place ("1,", "3–", a lone dash raised in a
formula) is no citation: reading it once stopped the linking of a whole paper's markers with a
ValueError."""

from __future__ import annotations

import pytest

from paperpyramid.citations.marker_patterns import numbers_in
from paperpyramid.citations.raised import raised_markers


@pytest.mark.parametrize("listed", ["1,", "3–", "–", ",", "2;", "1–2–", "¹"])
def test_a_list_with_an_empty_place_or_no_number_is_no_citation(listed: str) -> None:
    assert numbers_in(listed) is None


def test_a_list_of_numbers_and_ranges_reads_in_order() -> None:
    assert numbers_in("1, 4, 7–9") == [1, 4, 7, 8, 9]
    assert numbers_in("12") == [12]


def test_raised_marks_with_an_empty_place_are_passed_over() -> None:
    text = "The method converges quickly,3 and the bound holds for every step."
    markers = raised_markers(text, (("quickly,", "3"), ("for every step", "1,")), {})
    assert [marker.numbers for marker in markers] == [[3]]
