"""The headings a reference list is printed under, in the languages papers are written in: one
list for every parser (the embedded PDF parser, the LaTeX parser) and for the scorer, so that a
German "Literaturverzeichnis" or a Russian "Список литературы" opens the list everywhere alike.

Headings are kept in lower case with single spaces (as the PDF parser compares a printed
title); :data:`SQUASHED_REFERENCE_HEADINGS` holds them with everything but letters and digits
removed (as the LaTeX parser and the scorer compare a ``\\section{}`` argument). A heading with a
qualifier after it ("References sorted by name", "References for Chapter 2", "Bibliography
(primary sources)", where a work prints several lists) opens a list too: ask
:func:`is_reference_heading`, not the set."""

from __future__ import annotations

import re

#: what follows a reference heading where a work prints several lists, each sorted or scoped its
#: own way: multibibliography's "References sorted by name", a book's "References for Chapter 2",
#: "Bibliography (primary sources)"
_QUALIFIED = re.compile(
    r"^(?P<head>[^\W\d_][^\W\d_ ]*(?: [^\W\d_]+){0,2}?)\s*(?:\s(?:sorted|ordered|arranged)\s+by\s+[^\W\d_]+(?:\s[^\W\d_]+){0,2}"
    r"|\s(?:for|of)\s+(?:chapter|part|section|appendix)\s+\w{1,8}|\s?\([^()]{1,40}\))$"
)

REFERENCE_HEADINGS = frozenset(
    {
        # English
        "references",
        "reference",
        "bibliography",
        "literature cited",
        "cited literature",
        "references and notes",
        "notes and references",
        "works cited",
        # spelled other ways: GSA, USGS and grant proposals ("References Cited"), Harvard and APA
        # guides ("Reference List"), theses ("List of References")
        "references cited",
        "cited references",
        "reference list",
        "list of references",
        "bibliographic references",
        # German
        "literatur",
        "literaturverzeichnis",
        "quellenverzeichnis",
        # French
        "références",
        "références bibliographiques",
        "bibliographie",
        # Spanish
        "referencias",
        "referencias bibliográficas",
        "bibliografía",
        # Portuguese
        "referências",
        "referências bibliográficas",
        # Italian and Polish
        "riferimenti bibliografici",
        "bibliografia",
        # Dutch
        "literatuur",
        "literatuurlijst",
        "referenties",
        # Polish, and Spanish and Portuguese
        "literatura",
        # Russian
        "список литературы",
        "литература",
        # Chinese and Japanese
        "参考文献",
        "參考文獻",
    }
)


def is_reference_heading(title: str) -> bool:
    """Whether a printed title (lower case, single spaces) opens a reference list: one of
    :data:`REFERENCE_HEADINGS`, or one of them with a qualifier after it (:data:`_QUALIFIED`)."""
    if title in REFERENCE_HEADINGS:
        return True
    match = _QUALIFIED.match(title)
    return match is not None and match.group("head") in REFERENCE_HEADINGS


def squash(title: str) -> str:
    """A title in lower case with everything but letters and digits removed ("References and
    Notes" -> "referencesandnotes")."""
    return re.sub(r"\W+", "", title.lower())


SQUASHED_REFERENCE_HEADINGS = frozenset(squash(heading) for heading in REFERENCE_HEADINGS)


#: what a document may print right after its reference list under a heading no layout marks as
#: one: ltxdoc's "Change History" and "Index", set as a line of text of their own; each ends the list
AFTER_LIST_HEADINGS = frozenset({"index", "change history", "subject index", "author index", "name index", "index of names"})
