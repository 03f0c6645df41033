"""The journal as German citation lines print it: the issue over the year ("3/2014") and the pages
after "S." (Seite), on a reprint's cover block."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.journal import find_journal


@pytest.mark.parametrize(
    ("line", "journal", "year"),
    [
        ("Die TeXnische Komödie 3/2014, S. 19-46.", "Die TeXnische Komödie", 2014),
        ("Zeitschrift für Naturforschung, Bd. 62, Nr. 3, 2007, S. 401-410", "Zeitschrift für Naturforschung", 2007),
    ],
)
def test_a_german_citation_line_names_its_journal_and_year(line: str, journal: str, year: int) -> None:
    assert find_journal([(1, line)], {})[:2] == (journal, year)


def test_a_reprints_foot_with_its_issue_alone_names_no_journal_by_itself() -> None:
    # "– Nachdruck" (reprint) after the issue: no citation's shape without the pages
    assert find_journal([(1, "Die TeXnische Komödie 3/2014 – Nachdruck")], {})[0] is None
