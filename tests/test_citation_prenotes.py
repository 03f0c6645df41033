"""A bracketed citation with a note before its numbers, as natbib's ``\\cite[e.g.,][]{…}`` prints
it: "[e.g., 5–7, 11, 17, 30, 31, 33]" (batch 12's HotOS paper: 8 entries cited so were not linked)."""

from __future__ import annotations

from paperpyramid.citations.marker_patterns import numeric_brackets


def _found(text: str) -> list[tuple[str, list[int]]]:
    return [(text[marker.start : marker.end], marker.numbers) for marker in numeric_brackets(text)]


def test_a_note_before_the_numbers_is_part_of_the_marker() -> None:
    text = "Applications have been devised [e.g., 5–7, 11, 17], and others [see also 3] or [cf. 12, 14]."
    assert _found(text) == [("[e.g., 5–7, 11, 17]", [5, 6, 7, 11, 17]), ("[see also 3]", [3]), ("[cf. 12, 14]", [12, 14])]


def test_words_in_brackets_without_numbers_stay_unread() -> None:
    assert _found("a range [e.g., small] and an example [see below]") == []
