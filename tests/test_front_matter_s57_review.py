"""The review's cases for batch 13's byline and venue rules: a name before a postcode and its
town stays a name, a name alone before a semicolon stays a name, and a line that opens like a
meeting's foot but goes on as a sentence names no meeting."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.byline_blocks import names_before_affiliation
from paperpyramid.parsers.embedded.journal import find_journal
from paperpyramid.parsers.embedded.layout import Line


def _byline(*texts: str) -> Block:
    """A block of lines in one 10-point type, one under the other."""
    return Block(lines=[Line(text, 1, 50, 100 + 12 * i, 500, 110 + 12 * i, 10, False, False, "F") for i, text in enumerate(texts)])


@pytest.mark.parametrize(
    ("lines", "names"),
    [
        (["Peter Mayer, 82234 Wessling, Germany"], "Peter Mayer"),
        (["Anna Berg, University of Oslo", "Carl Dahl, NIH 20892 Bethesda, USA"], "Anna Berg, Carl Dahl"),
        (["Anna Berg; Carl Dahl, Stony Brook University"], "Anna Berg, Carl Dahl"),
        # what the rules were written for still holds
        (["Anna Berg, University of Oslo", "North Ryde, NSW, 2113, Australia"], "Anna Berg"),
        (["Anna Berg, Stony Brook University; Carl Dahl,", "IBM Research; Eva Lund, University of Oslo"], "Anna Berg, Carl Dahl, Eva Lund"),
    ],
)
def test_names_before_postcodes_and_semicolons_stay_names(lines: list[str], names: str) -> None:
    assert names_before_affiliation(_byline(*lines), 10) == names


def test_a_line_that_opens_like_a_meetings_foot_but_runs_on_names_no_meeting() -> None:
    assert find_journal([(1, "COVID 2020, March 11, WHO declared a pandemic")], {})[0] is None
    assert find_journal([(1, "SMC 2009, July 23-25, Porto, Portugal")], {})[:2] == ("SMC 2009", 2009)
    assert find_journal([(1, "SMC 2009, July 23-25, Porto, Portugal 12")], {})[:2] == ("SMC 2009", 2009)
