"""Publication dates as ISO 8601: every form the parsers and the sources hand over, the ones that
cannot be read with confidence, the document boundary that applies it, and the year search reads."""

from __future__ import annotations

import datetime
import doctest

import pytest

from paperpyramid import dates
from paperpyramid.dates import iso_date
from paperpyramid.document import Document
from paperpyramid.normalise import normalise_document
from paperpyramid.retrieval.filters import year_of

#: (what a source or parser gave, what is stored)
READ = [
    # what the embedded parser stored for the shared development corpus (its front matter, the
    # journal line, the year alone)
    ("9 December 2014", "2014-12-09"),
    ("4 December 2018", "2018-12-04"),
    ("30 May 2019", "2019-05-30"),
    ("3 June 2018", "2018-06-03"),
    ("25 May 2018", "2018-05-25"),
    ("10 May 2018", "2018-05-10"),
    ("May 20, 2025", "2025-05-20"),
    ("March 20, 2018", "2018-03-20"),
    ("February 6, 2019", "2019-02-06"),
    ("December 31, 2014", "2014-12-31"),
    ("27 Jan 2015", "2015-01-27"),
    ("2016", "2016"),
    ("2024", "2024"),
    # ISO 8601 as JATS, GROBID and XMP give it, with and without a time
    ("2014-12-09", "2014-12-09"),
    ("2014-12", "2014-12"),
    ("2014-11-23T00:00:00Z", "2014-11-23"),
    ("2014-12-09T23:30:00.000-05:00", "2014-12-09"),  # the date written, not converted to UTC
    ("2014-12-09 10:00:00", "2014-12-09"),
    ("2014-1-5", "2014-01-05"),
    ("20141209", "2014-12-09"),
    ("2014/12/09", "2014-12-09"),
    # a PDF's Info dictionary
    ("D:20141209120000+01'00'", "2014-12-09"),
    ("D:20141209120000Z", "2014-12-09"),
    ("D:201412", "2014-12"),
    ("D:2014", "2014"),
    # day, month and year in the usual orders
    ("Dec 9, 2014", "2014-12-09"),
    ("December 9 2014", "2014-12-09"),
    ("December 9th, 2014", "2014-12-09"),
    ("9th of December, 2014", "2014-12-09"),
    ("9 Dec. 2014", "2014-12-09"),
    ("09-Dec-2014", "2014-12-09"),
    ("2014 Dec 9", "2014-12-09"),  # PubMed
    ("2014, December 9", "2014-12-09"),
    ("Wednesday, December 10, 2014", "2014-12-10"),
    ("Tue, 09 Dec 2014 00:00:00 GMT", "2014-12-09"),
    ("  9\n December\t2014 ", "2014-12-09"),
    # a month and a year
    ("December 2014", "2014-12"),
    ("Sept. 2014", "2014-09"),
    ("Dec-2014", "2014-12"),
    ("2014 Dec", "2014-12"),
    ("may 2014", "2014-05"),
    ("12/2014", "2014-12"),
    # a label, brackets and punctuation around the date
    ("Published: 9 December 2014", "2014-12-09"),
    ("Published online: 9th Dec. 2014", "2014-12-09"),
    ("Date of publication 9 December 2014", "2014-12-09"),
    ("epub 2014 Dec 9", "2014-12-09"),
    ("(2014)", "2014"),
    ("2014.", "2014"),
    # numbers only: the order read from the numbers, else the year alone
    ("25/12/2014", "2014-12-25"),
    ("12/25/2014", "2014-12-25"),
    ("05/05/2014", "2014-05-05"),
    ("09.12.2014", "2014-12-09"),  # with dots the day comes first
    ("Published: 12/09/2014", "2014"),  # 12 September or December 9: only the year is certain
    ("03-04-2014", "2014"),
    # the last resort: the one date, else the one year, written in the text
    ("Published online 9 December 2014 in Wiley Online Library", "2014-12-09"),
    ("Received 3 May 2014; accepted 9 December 2014", "2014"),
    ("Winter 2014", "2014"),
    ("Nov-Dec 2014", "2014"),
    ("Nov\u2013Dec 2014", "2014"),
    ("2014 Nov-Dec", "2014"),
    ("\u00a9 2014 Elsevier", "2014"),
    ("9. Dezember 2014", "2014"),  # month names are English; the year still reads
]

#: what is never stored: no date, or not one paperpyramid can be sure of
REFUSED = [
    None,
    "",
    "   ",
    "n.d.",
    "in press",
    "1066",  # before 1600
    "3000",
    "31 February 2014",  # no such day
    "2014-13-01",  # no such month
    "13/13/2014",
    "2014-2015",  # two years
    "1999/2000",
    "2014/15",
    "pp. 1203-1210, 2014",  # three four-digit numbers, any of them a year
    "2014129",
    "9 Dec 14",  # a two-digit year
]


@pytest.mark.parametrize(("given", "stored"), READ)
def test_a_date_is_stored_as_iso_8601(given: str, stored: str) -> None:
    assert iso_date(given) == stored


@pytest.mark.parametrize("given", REFUSED)
def test_what_is_not_surely_a_date_is_none(given: str | None) -> None:
    assert iso_date(given) is None


def test_the_docstrings_examples_hold() -> None:
    assert doctest.testmod(dates, raise_on_error=False).failed == 0


def test_a_year_runs_from_1600_to_next_year() -> None:
    next_year = datetime.date.today().year + 1
    assert iso_date("1600") == "1600" and iso_date("1599") is None
    assert iso_date(str(next_year)) == str(next_year) and iso_date(f"{next_year + 1}-01-01") is None


def test_an_iso_date_reads_as_itself() -> None:
    """What the writer stores is read back unchanged, so normalising twice changes nothing."""
    for _, stored in READ:
        assert iso_date(stored) == stored


def test_the_document_boundary_writes_the_date_as_iso_and_says_what_it_dropped() -> None:
    document = Document(title="Colonies", date_published="9 December 2014", warnings=["table without ruling lines"])
    normalised = normalise_document(document)
    assert normalised.date_published == "2014-12-09" and normalised.warnings == ["table without ruling lines"]
    assert document.date_published == "9 December 2014"  # a copy: the parser's document is left as it was
    assert normalise_document(normalised) is normalised  # nothing more to change
    dropped = normalise_document(Document(date_published="in press"))
    assert dropped.date_published is None
    assert dropped.warnings == ["publication date 'in press' is not a date paperpyramid can read; not stored"]
    assert normalise_document(Document(date_published="  ")).warnings == []  # blank is no date, not a warning


def test_year_of_reads_iso_dates_and_the_free_text_of_older_rows() -> None:
    assert [year_of(date) for date in ("2014-12-09", "2014-12", "2014", None, "")] == [2014, 2014, 2014, None, None]
    assert year_of("27 Jan 2015") == 2015 and year_of("Published 2014-2015") == 2014 and year_of("n.d.") is None
