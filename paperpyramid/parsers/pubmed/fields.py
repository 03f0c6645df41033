"""A PubMed record's elements as plain values: readable text, the publication date, the authors,
the MeSH headings, the article's identifiers. They know the PubMed DTD's element names and
nothing of how a document is put together (:mod:`paperpyramid.parsers.pubmed.record` does that).
"""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from paperpyramid.dates import EARLIEST_YEAR
from paperpyramid.document import Author, MeshTerm

_MONTHS = {
    name: number for number, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
# "1998 Dec-1999 Jan", "2000 Spring", "2003 Jul-Aug": the first year, and the month right after it
_MEDLINE_DATE = re.compile(r"(\d{4})(?:\s+([A-Za-z]{3}))?")
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ELECTRONIC = "Electronic address:"
_SPACES = re.compile(r"[ \t\r\n]+")
_NAME_PARTS = frozenset({"LastName", "ForeName", "Initials", "Suffix", "CollectiveName"})
# inline elements a pretty-printer may put on a line of their own: "β\n\t\t<sub>2</sub>" reads "β2"
_TIGHT = frozenset({"sub", "sup"})
# deeper than this, an element's text is read without the pretty-printer's rule (no recursion)
_MAX_DEPTH = 50


def text(element: ET.Element | None) -> str:
    """The readable text of ``element`` (its inline markup, MathML included, read as text), each
    run of XML white space (spaces, tabs, line breaks) one space, none at either end; "" for None."""
    if element is None:
        return ""
    if len(element) == 0:
        raw = element.text or ""
    else:
        parts: list[str] = []
        _inline(element, parts, 0)
        raw = "".join(parts)
    # most texts need no change, and finding that out costs a third of rebuilding a long one
    if "\n" in raw or "\t" in raw or "  " in raw or "\r" in raw or raw[:1] == " " or raw[-1:] == " ":
        return _SPACES.sub(" ", raw).strip(" ")
    return raw


def _inline(element: ET.Element, parts: list[str], depth: int) -> None:
    if element.text:
        parts.append(element.text)
    for child in element:
        if depth >= _MAX_DEPTH:
            parts.extend(child.itertext())
        else:
            if child.tag in _TIGHT and parts:
                trimmed = parts[-1].rstrip(" \t\r\n")
                if "\n" in parts[-1][len(trimmed) :]:
                    parts[-1] = trimmed
            _inline(child, parts, depth + 1)
        if child.tail:
            parts.append(child.tail)


def texts(parent: ET.Element | None, tag: str) -> list[str]:
    """The readable text of each ``tag`` child of ``parent``, the empty ones left out, each once, in order."""
    if parent is None:
        return []
    return list(dict.fromkeys(value for element in parent if element.tag == tag and (value := text(element))))


# --------------------------------------------------------------------------- dates


def publication_date(pub_date: ET.Element | None, article_dates: Iterable[ET.Element] = ()) -> str | None:
    """A ``<PubDate>`` as ISO 8601 (``2018-05-17``, ``1998-12``, ``2000``), falling back to the
    first ``<ArticleDate>`` (the electronic publication) that names a date."""
    date = _pub_date(pub_date) if pub_date is not None else None
    if date is not None:
        return date
    for article_date in article_dates:
        date = _ymd(text(article_date.find("Year")), text(article_date.find("Month")), text(article_date.find("Day")))
        if date is not None:
            return date
    return None


def _pub_date(pub_date: ET.Element) -> str | None:
    year = text(pub_date.find("Year"))
    if year:
        return _ymd(year, text(pub_date.find("Month")), text(pub_date.find("Day")))
    medline = _MEDLINE_DATE.search(text(pub_date.find("MedlineDate")))
    if medline is None:
        return None
    return _ymd(medline.group(1), medline.group(2) or "", "")


def _ymd(year: str, month: str, day: str) -> str | None:
    """The most precise ISO date of a year, a month (a number or an English name) and a day."""
    if not (year.isascii() and year.isdigit() and len(year) == 4):
        return None
    number = int(year)
    if not EARLIEST_YEAR <= number <= datetime.date.today().year + 1:
        return None
    month_number = int(month) if month.isascii() and month.isdigit() else _MONTHS.get(month[:3].lower())
    if month_number is None or not 1 <= month_number <= 12:
        return f"{number:04d}"
    if day.isascii() and day.isdigit():
        try:
            datetime.date(number, month_number, int(day))
        except ValueError:
            pass
        else:
            return f"{number:04d}-{month_number:02d}-{int(day):02d}"
    return f"{number:04d}-{month_number:02d}"


# --------------------------------------------------------------------------- people and terms


def authors(author_list: ET.Element | None) -> list[Author]:
    """The ``<Author>`` elements of an ``<AuthorList>``: "ForeName LastName Suffix" (initials when
    there is no fore name) or the collective name, their affiliations joined by "; " and the
    e-mail address an affiliation ends with. Names PubMed marks not valid (``ValidYN="N"``, kept
    for the record of a correction) are left out."""
    if author_list is None:
        return []
    found: list[Author] = []
    for author in author_list:
        if author.tag != "Author" or author.get("ValidYN") == "N":
            continue
        parts: dict[str, str] = {}
        affiliations: list[str] = []
        email = None
        for part in author:  # one pass over the children: this runs for every author of every record
            if part.tag == "AffiliationInfo":
                affiliation, address = _split_email(text(part.find("Affiliation")))
                email = email or address
                if affiliation and affiliation not in affiliations:
                    affiliations.append(affiliation)
            elif part.tag in _NAME_PARTS:
                parts[part.tag] = text(part)
        last = parts.get("LastName")
        if last:
            name = " ".join(filter(None, (parts.get("ForeName") or parts.get("Initials"), last, parts.get("Suffix"))))
        else:
            name = parts.get("CollectiveName", "")
        if name:
            found.append(Author(name=name, affiliation="; ".join(affiliations) or None, email=email))
    return found


def _split_email(affiliation: str) -> tuple[str, str | None]:
    """An affiliation without the e-mail address it ends with ("... USA. Electronic address:
    jo@example.org."), and that address."""
    if "@" not in affiliation:
        return affiliation, None
    head, _, last = affiliation.rpartition(" ")
    address = last.rstrip(".;,")
    if _ADDRESS.fullmatch(address) is None:
        return affiliation, None
    head = head.rstrip()
    head = head.removesuffix(_ELECTRONIC)
    return head.rstrip(" ;,."), address


def mesh_terms(heading_list: ET.Element | None) -> list[MeshTerm]:
    """The ``<MeshHeading>`` elements: major when the descriptor or any qualifier is a major topic."""
    if heading_list is None:
        return []
    terms: list[MeshTerm] = []
    for heading in heading_list:
        term = ""
        term_id = None
        major = False
        qualifiers: list[str] = []
        for name in heading:  # one pass: a record has a dozen headings or more
            major = major or name.get("MajorTopicYN") == "Y"
            if name.tag == "DescriptorName":
                term, term_id = text(name), name.get("UI") or None
            elif name.tag == "QualifierName" and (qualifier := text(name)):
                qualifiers.append(qualifier)
        if term:
            terms.append(MeshTerm(term=term, major=major, ui=term_id, qualifiers=qualifiers))
    return terms


def article_id(id_lists: Iterable[ET.Element | None], kind: str) -> str | None:
    """The first ``<ArticleId IdType=kind>`` of the ``<ArticleIdList>`` elements given."""
    for id_list in id_lists:
        if id_list is None:
            continue
        for candidate in id_list:
            if candidate.get("IdType") == kind and (value := text(candidate)):
                return value
    return None


def elocation_doi(elocations: Iterable[ET.Element]) -> str | None:
    """The DOI among ``<ELocationID>`` elements, unless PubMed marks it not valid."""
    for elocation in elocations:
        if elocation.get("EIdType") == "doi" and elocation.get("ValidYN") != "N" and (value := text(elocation)):
            return value
    return None


def pmcid(value: str | None) -> str | None:
    """A PMC id as the corpus writes it, "PMC" and digits ("PMC1234567"; "1234567" gains the prefix)."""
    digits = re.fullmatch(r"(?i:pmc)?\s*(\d+)", value or "")
    return f"PMC{digits.group(1)}" if digits else None
