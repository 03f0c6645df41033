"""A template's masthead with placeholders for the numbers a published paper gets (issue 32):
the journal is printed all the same, and a year's placeholder is no year."""

from __future__ import annotations

from paperpyramid.parsers.embedded.journal import find_journal


def test_question_marks_for_the_year_volume_and_issue() -> None:
    """Condensed Matter Physics' template: "????" for the year, "?" for the volume and issue."""
    lines = [(1, "Condensed Matter Physics, ????, Vol. ?, No. ?, ?????: 1–10"), (1, "Long title: Template and instructions")]
    assert find_journal(lines, {}) == ("Condensed Matter Physics", None, None)


def test_words_for_the_volume_and_year() -> None:
    """ijmart's head: "VOL" and "(YEAR)" where the volume and year go, in capitals."""
    lines = [(1, "ISRAEL JOURNAL OF MATHEMATICS VOL (YEAR), 1–49"), (1, "SAMPLE PAPER FOR THE CLASS")]
    assert find_journal(lines, {}) == ("Israel Journal of Mathematics", None, None)


def test_the_printed_numbers_still_give_the_year() -> None:
    """The same mastheads once published: read as before, with their year."""
    assert find_journal([(1, "Condensed Matter Physics, 2021, Vol. 24, No. 1, 13601: 1–10")], {})[:2] == ("Condensed Matter Physics", 2021)
    assert find_journal([(1, "ISRAEL JOURNAL OF MATHEMATICS 182 (2011), 1–49")], {})[:2] == ("Israel Journal of Mathematics", 2011)


def test_a_question_in_the_text_is_no_masthead() -> None:
    """A question mark in a sentence is no placeholder: nothing shaped as a citation follows."""
    assert find_journal([(1, "Is the effect real? We ask this in Section 2, Vol. 3 of the notes")], {})[0] is None
