"""Publication dates as ISO 8601: ``2014-12-09``, ``2014-12``, or ``2014`` when that is all there is.

Sources print dates every way: "9 December 2014", "Dec 9, 2014", "2014 Dec 9" (PubMed),
"December 2014", "2014-11-23T00:00:00Z" (XMP, GROBID), "D:20141209120000+01'00'" (a PDF's Info
dictionary), "20141209", "12/25/2014". :func:`iso_date` reads each of them as the date it
names, to the precision it names, and gives None for anything it cannot read with confidence:
a corpus stores a date it can sort and filter by, or none, never a guess.

The rules, in the order they are tried (month names are English, full or cut to three letters
or more, with or without a full stop; case does not matter):

- a label before the date is dropped ("Published online: ", "Date of publication", any words
  ending in a colon), and so are a weekday, ordinal suffixes ("9th"), a time of day and a time
  zone (the date is the one written, never converted), and brackets or punctuation around it;
- ISO 8601 extended (``2014-12-09``, ``2014-12``, ``2014``, with a time after ``T``), the same
  with ``/`` or ``.`` between the numbers (``2014/12/09``), basic (``20141209``), and PDF dates
  (``D:YYYYMMDDHHmmSS...``, ``D:2014``);
- a day, a month name and a year in any of the usual orders ("9 December 2014", "09-Dec-2014",
  "Dec 9, 2014", "2014 Dec 9"), or a month name and a year ("December 2014", "2014 Dec");
- numbers only, day and month first (``DD/MM/YYYY`` or ``MM/DD/YYYY``): with ``.`` between them
  the day comes first (``09.12.2014``, as the countries that write dots do). With ``/`` or ``-``
  the order is read from the numbers: a first number above 12 is the day (``25/12/2014``), a
  second above 12 is the day (``12/25/2014``), and two equal numbers need no order. When both
  could be the month (``12/09/2014``: 12 September in Europe, December 9 in the United States)
  only the year is kept, ``2014``. ``MM/YYYY`` is a month;
- anything else: the one full date written in the text when there is exactly one ("Published
  online 9 December 2014 in Wiley Online Library"), else the one year written in it when all its
  four-digit numbers are that year ("Winter 2014", "Nov-Dec 2014", "© 2014"), else None.

A year must be between 1600 and next year; a month, 1 to 12; a day, one the month has ("31
February 2014" is None). Text that fits a form but names no such date is None, not the part
that looked right.
"""

from __future__ import annotations

import datetime
import re

#: The earliest year a publication date may have.
EARLIEST_YEAR = 1600

_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december")
_MONTH = r"(?P<month>[a-z]{3,9})\.?"
_DAY = r"(?P<day>\d{1,2})"
_YEAR = r"(?P<year>\d{4})"
_TIME = r"(?:[t\s]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*(?:[ap]\.?m\.?))?(?:\s*(?:z|utc|gmt|[+-]\d{2}(?::?\d{2})?))?)"

_LABEL = re.compile(
    r"^(?:(?:first|latest|date\s+of|date)\s+)?(?:published|publication(?:\s+date)?|issued|issue\s+date|epub|date)(?:\s+online)?\s*[:.]?\s*"
    r"|^[^\d:]{1,40}:\s*"
)
_WEEKDAY = re.compile(r"^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+")
_ORDINAL = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b")
_TRAILING_TIME = re.compile(rf"(?<=\d){_TIME}$")

_PDF = re.compile(r"d:(?P<year>\d{4})(?:(?P<month>\d{2})(?P<day>\d{2})?)?(?:\d{2,6})?(?:z|[+-]\d{2}'?(?:\d{2}'?)?)?")
_FORMS = [
    ("ymd", re.compile(rf"{_YEAR}(?:(?P<sep>[-/.])(?P<month>\d{{1,2}})(?:(?P=sep){_DAY})?)?")),
    ("ymd", re.compile(rf"{_YEAR}(?P<month>\d{{2}})(?P<day>\d{{2}})(?:t\d{{2,6}}(?:[.,]\d+)?(?:z|[+-]\d{{2}}:?\d{{2}})?)?")),
    ("named", re.compile(rf"{_DAY}(?:\s*-\s*|\s+|\.\s*){_MONTH}(?:\s*[-,]\s*|\s+){_YEAR}")),
    ("named", re.compile(rf"{_MONTH}(?:\s*-\s*|\s+){_DAY},?\s+{_YEAR}")),
    ("named", re.compile(rf"{_YEAR},?\s+{_MONTH}(?:\s+{_DAY})?")),
    ("named", re.compile(rf"{_MONTH}(?:\s*[-,]\s*|\s+){_YEAR}")),
    ("numeric", re.compile(r"(?P<first>\d{1,2})(?P<sep>[-/.])(?P<second>\d{1,2})(?P=sep)(?P<year>\d{4})")),
    ("ymd", re.compile(r"(?P<month>\d{1,2})[-/.](?P<year>\d{4})")),
]
#: full dates that may stand inside longer text (the last resort)
_EMBEDDED = [
    re.compile(rf"(?<![\d-]){_YEAR}-(?P<month>\d{{1,2}})-{_DAY}(?![\d-])"),
    re.compile(rf"(?<![\w.]){_DAY}(?:\s*-\s*|\s+){_MONTH}(?:\s*[-,]\s*|\s+){_YEAR}(?!\d)"),
    re.compile(rf"(?<!\w){_MONTH}\s+{_DAY},?\s+{_YEAR}(?!\d)"),
]
_FOUR_DIGITS = re.compile(r"(?<!\d)\d{4}(?!\d)")


def iso_date(text: str | None) -> str | None:
    """The publication date ``text`` names, as ISO 8601 to the precision it names; None when
    there is none or it cannot be read with confidence (the module's docstring has the rules).

    >>> iso_date("9 December 2014"), iso_date("Dec 9, 2014"), iso_date("2014 Dec 9")
    ('2014-12-09', '2014-12-09', '2014-12-09')
    >>> iso_date("December 2014"), iso_date("2019"), iso_date("2014-11-23T00:00:00Z")
    ('2014-12', '2019', '2014-11-23')
    >>> iso_date("D:20141209120000+01'00'"), iso_date("Published online: 9th Dec. 2014")
    ('2014-12-09', '2014-12-09')
    >>> iso_date("25/12/2014"), iso_date("12/25/2014"), iso_date("Published: 12/09/2014")
    ('2014-12-25', '2014-12-25', '2014')
    >>> iso_date("Winter 2014"), iso_date("31 February 2014"), iso_date("1066"), iso_date("n.d.")
    ('2014', None, None, None)
    """
    if not text:
        return None
    plain = _plain(text)
    pdf = _PDF.fullmatch(plain)
    if pdf:
        return _iso(pdf.group("year"), pdf.group("month"), pdf.group("day"))
    plain = _bare(plain)
    formed, date = _in_a_form(plain)
    return date if formed else _written_in(plain)


def date_alone(text: str) -> bool:
    """Whether ``text`` is one date in one of the forms and nothing else, a label before it and a
    note's mark or a remark in brackets after it allowed ("November 2017", "March 3, 2016",
    "2009-06-29", "Modified: October 24, 2011", "Jan. 2008 (added note in June 2010)", "October
    2014 ∗"): a line that dates a document, which is never a name or part of an address."""
    formed, date = _in_a_form(_bare(_AFTER_DATE.sub("", _plain(text))))
    return formed and date is not None


#: what may follow a date on its line: a note's mark, a remark in brackets ("(revised in May 2020)")
_AFTER_DATE = re.compile(r"(?<=\d)[\s*∗†‡]*(?:\([^()]*\))?[\s*∗†‡]*$")


def _in_a_form(plain: str) -> tuple[bool, str | None]:
    """Whether the bare ``plain`` is written in one of the forms, and the date it names there."""
    for kind, form in _FORMS:
        found = form.fullmatch(plain)
        if found is None:
            continue
        if kind == "numeric":
            return True, _day_month(int(found.group("first")), int(found.group("second")), found.group("sep"), found.group("year"))
        fields = found.groupdict()
        month = None if fields["month"] is None else _month_number(fields["month"])
        if kind == "named" and month is None:
            continue  # "Winter 2014": no month; the last resort reads its year
        return True, _iso(fields["year"], month, fields.get("day"))
    return False, None


def unread_date_warning(text: str) -> str:
    """The warning an article keeps when its publication date ``text`` is no date :func:`iso_date` reads (and is not stored)."""
    return f"publication date {text.strip()!r} is not a date paperpyramid can read; not stored"


def _plain(text: str) -> str:
    """``text`` in lower case, its dashes hyphens and its spaces single."""
    return " ".join(text.replace("\u2013", "-").replace("\u2014", "-").split()).lower()


def _bare(text: str) -> str:
    """``text`` without a label, a weekday, ordinal suffixes, a time of day or the punctuation around the date."""
    text = _LABEL.sub("", text, count=1)
    text = _WEEKDAY.sub("", text, count=1)
    text = _ORDINAL.sub(r"\1", text).replace(" of ", " ")
    text = _TRAILING_TIME.sub("", text.strip(" ()[],;"))
    return text.rstrip(".")


def _written_in(text: str) -> str | None:
    """The last resort: the one full date in ``text``, else its one year, else None."""
    dates = {
        iso
        for pattern in _EMBEDDED
        for found in pattern.finditer(text)
        if (iso := _iso(found.group("year"), _month_number(found.group("month")), found.group("day"))) is not None
    }
    if len(dates) == 1:
        return dates.pop()
    years = set(_FOUR_DIGITS.findall(text))
    return _iso(years.pop(), None, None) if len(years) == 1 else None


def _day_month(first: int, second: int, separator: str, year: str) -> str | None:
    """``first`` and ``second`` of a numeric date read as day and month (see the module's docstring)."""
    if separator == "." or first > 12 or first == second:
        return _iso(year, second, first)
    if second > 12:
        return _iso(year, first, second)
    return _iso(year, None, None)  # 12/09/2014: the month cannot be told from the day


def _month_number(name: str) -> int | None:
    """The month a name ("December", "dec", "Sept.") or a number ("12") names, or None."""
    name = name.rstrip(".")
    if name.isdigit():
        return int(name)
    if len(name) < 3:
        return None
    return next((number for number, full in enumerate(_MONTH_NAMES, 1) if full.startswith(name)), None)


def _iso(year: str, month: int | str | None, day: int | str | None) -> str | None:
    """``year``, ``month`` and ``day`` as ISO 8601 when they name a date (a year in range)."""
    number = int(year)
    if not EARLIEST_YEAR <= number <= datetime.date.today().year + 1:
        return None
    if month is None:
        return f"{number:04d}"
    try:
        datetime.date(number, int(month), int(day or 1))
    except ValueError:
        return None
    return f"{number:04d}-{int(month):02d}" + ("" if day is None else f"-{int(day):02d}")


__all__ = ["EARLIEST_YEAR", "date_alone", "iso_date", "unread_date_warning"]
