"""The year a paper appeared, where no line printing its citation gives one: the fallbacks of
:func:`.journal.find_journal`, kept apart from its journal-name shapes because they read other
lines (stamps, copyright lines, a paper's history) for one number.

The year is the journal line's, a page's over the Info or XMP's (:mod:`.journal`); else, on the
first page only, the arXiv stamp's date (bioRxiv's "posted" date), a copyright line's year (its ©
read as ``c`` too), a date alone on a line where a series issued the document ("Technical Report
TR-2019-04" / "April 2019"), the year accepted, the year received ("Accepted Date: 5 May 2018"
too). Without the series a date alone under the title is not read: it is the date an unpublished
document was written or compiled (article's ``\\date{\\today}``, a vignette's "Modified: …", a
report's version date), which a masthead, a citation line or a stamp would give where the paper
was published. Last, a meeting's two digits after an apostrophe in the name found (``EuroTeX'99
Proceedings``).
"""

from __future__ import annotations

import re

from paperpyramid.dates import date_alone, iso_date

#: a month's name as a citation line prints it, whole or cut ("Dec.", "December"); also read by :mod:`.journal`
MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
#: a publication year, as the group ``year``; also read by :mod:`.journal`
YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY_DATE = rf"(?:\d{{1,2}}\s+{MONTH}\s+|{MONTH}\s+\d{{1,2}},?\s+){YEAR}"
# fallbacks for the year, best first
_POSTED = re.compile(rf"\bthis version posted\s+{_DAY_DATE}")  # bioRxiv, medRxiv
_ARXIV = re.compile(rf"\barXiv:\s*(?P<id>\d{{4}})\.\d{{4,5}}(?:v\d+)?\s*\[[^\]]+\]\s*(?P<date>\d{{1,2}}\s+{MONTH}\s+(?:19|20)\d\d)?")
# a series that issues the document under a number, on a line of its own: "Technical Report TR-2019-04"
_SERIES = re.compile(r"^(?:(?:technical|research|internal)\s+report|working\s+paper|discussion\s+paper|report\s+no\.?)\b", re.I)
_COPYRIGHTS = [
    re.compile(rf"(?:©|\(c\)|\bCopyright\b)\s*(?:©\s*)?(?:[^.;\d]{{0,60}}?\s)?{YEAR}\b"),
    # a TeX font's © read as its letter: "c 2020 Association for Computational Linguistics", "c 2009 ACM"
    re.compile(rf"^c\s+{YEAR}\s+[A-Z]"),
]
# (Elsevier's accepted manuscript: "Accepted Date: 5 May 2018")
_HISTORY = [
    re.compile(rf"\b(?:Available online|Accepted)(?:\s+Date)?\s*:?\s*{_DAY_DATE}"),
    re.compile(rf"\bReceived(?:\s+Date)?\s*:?\s*{_DAY_DATE}"),
]


def year_elsewhere(lines: list[tuple[int, str]], journal: str | None) -> int | None:
    """The year where no journal line gives one: the first page's (:func:`_first_page_year`),
    else the meeting's in the name of ``journal`` as found (:func:`_meeting_year`). ``lines`` are
    :func:`.citation_lines.citation_lines`'s (page, text)."""
    return _first_page_year(lines) or _meeting_year(journal)


def _meeting_year(name: str | None) -> int | None:
    """The year a meeting's name gives in two digits after an apostrophe ("EuroTeX'99
    Proceedings", "PLDI'09"): the proceedings' year where no line prints it whole."""
    match = re.search(r"['’](\d\d)\b", name or "")
    if match is None:
        return None
    return (1900 if int(match.group(1)) >= 50 else 2000) + int(match.group(1))


def _first_page_year(lines: list[tuple[int, str]]) -> int | None:
    """The first page's year where no journal line gives one: the arXiv stamp, a copyright line,
    a date alone on a line where the page names the series that issued the document (a technical
    report's or working paper's number), the year accepted or received; never a later page's
    (references), nor an unpublished document's date alone (see the module)."""
    first = [text for page, text in lines if page == 1]
    for text in first:
        stamp = _ARXIV.search(text)
        if stamp:
            return int(stamp.group("date")[-4:]) if stamp.group("date") else 2000 + int(stamp.group("id")[:2])
        posted = _POSTED.search(text)
        if posted:
            return int(posted.group("year"))
    year = _first_year(_COPYRIGHTS, [text for text in first if not _revised_copyright(text)])
    if year is None and any(_SERIES.match(text.strip()) for text in first):
        dated = next((found for text in first if date_alone(text) and (found := iso_date(text))), None)
        year = int(dated[:4]) if dated else None
    return year if year is not None else _first_year(_HISTORY, first)


# a publisher's, a society's or the authors' copyright, as a published paper prints it ("© 2015, 2016 Elsevier Ltd.",
# "Copyright 2016 by the American Physical Society", "© The Author(s) 2018", "Oxford University Press")
_PUBLISHER = re.compile(
    r"\b(?:press|publish\w*|society|association|acm|ieee|elsevier|springer|wiley|sage|kluwer|gruyter|taylor|informa|reviews"
    r"|limited|ltd|inc|gmbh|llc|b\.v|trading|the\s+authors?|et\s+al)\b",
    re.I,
)
# a copyright's years as a span or a list ("Copyright 2003-2004", "© 2011 - 2022", "© 2009, 2011"): the years a document was revised
_SPAN = re.compile(rf"{YEAR}\s*(?:[-–—]|,|and)\s*(?:19|20)\d\d\b")


def _revised_copyright(text: str) -> bool:
    """Whether ``text``'s copyright line is a document's own, revised over the years its notice
    gives as a span or a list ("Copyright 2003-2004 by", "© 2011 - 2022", "© 2009, 2011 Sébastien
    Villemot"), no publication's: a manual's or a vignette's, whose years give no year of
    publication. A publisher's, a society's or the authors' notice ("© 2015, 2016 Elsevier Ltd.")
    is a paper's; so is a single year, whoever holds it (a manual's "Copyright © 2007 by Mark
    Trettin" reads as a law review's "Copyright © 2014 by Anna Berg" or ASME's "Copyright © 2019
    by ASME", and "© 2006 University of Maryland Center for Bioinformatics" as a university
    press's "© 2016 by The University of Chicago")."""
    mark = re.search(r"©|\(c\)|\bcopyright\b|^c\s+(?=(?:19|20)\d\d)", text, re.I)
    if mark is None:
        return False
    # the notice and its publisher's sentence ("© 2015, 2016 The Franklin Institute. Published by Elsevier Ltd."), not a
    # licence after it ("Permission is granted … published by the Free Software Foundation")
    sentences = re.split(r"\.\s+(?=[A-Z])", text[mark.start() :])
    notice = " ".join(sentences[:1] + [s for s in sentences[1:2] if re.match(r"(?i:published|publishing|production)\b", s)])
    return bool(_SPAN.search(notice)) and not _PUBLISHER.search(notice)


def _first_year(patterns: list[re.Pattern[str]], texts: list[str]) -> int | None:
    """The year of the first of ``patterns`` that one of ``texts`` matches."""
    for pattern in patterns:
        for text in texts:
            match = pattern.search(text.strip())
            if match:
                return int(match.group("year"))
    return None
