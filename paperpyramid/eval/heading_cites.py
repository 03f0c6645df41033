"""Citations in a LaTeX heading written as the page prints them.

A heading that cites ("Comparison to \\citet{cirpka2007}") prints the citation among its words
("Comparison to Cirpka et al. (2007)"), and a parser reads it so; the gold drops what it cannot
know and keeps the heading's other words. What a citation prints comes from the entries of the
reference list (the compiled ``.bbl`` beside the source, or the document's ``thebibliography``)
and from the citation style the source asks for:

- author-year (natbib's default, where the entries carry the ``Short(Year)Long`` labels of a
  bibliography style made for natbib):
  ``\\citet`` and ``\\cite`` print "Cirpka et al. (2007)", ``\\citep`` "(Cirpka et al., 2007)",
  ``\\citealt`` and ``\\citealp`` the same without brackets, ``\\citeauthor`` the names and
  ``\\citeyear`` the year;
- numbered (natbib's ``numbers`` or ``super`` option, elsarticle without ``authoryear``, REVTeX,
  or entries without an author-year label): the entry's label in brackets, "[27]", its number
  in the list where it has no label of its own ("[Knu84]" where it does).

A citation of a key the list does not hold, or a command this does not know, is left as it
was, for :func:`~paperpyramid.eval.gold.latex_to_text` to drop. The result is LaTeX still
("Cirpka et~al."): the heading is turned into text as a whole afterwards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["BIBITEM", "HeadingCites"]

#: an entry of a reference list: ``\bibitem[label]{key}``, its optional label (group 1) and its key (group 2)
BIBITEM = re.compile(r"\\bibitem(?![A-Za-z])\s*(?:\[((?:[^\[\]]|\[[^\]]*\])*)\])?\s*\{([^}]*)\}")
#: natbib's label: the short names, the year in brackets, the full names ("Botter et~al.(2011)Botter, …")
_AUTHOR_YEAR = re.compile(r"^(?P<names>[^()]+?)\s*\((?P<year>[^()]*(?:\([^()]*\)[^()]*)*)\)", re.DOTALL)
#: a citing command with natbib's notes before and after (not printed here) and its keys
_CITE = re.compile(r"\\(?P<command>[Cc]ite[a-z]*)\*?\s*(?:\[[^\]]*\]\s*){0,2}\{(?P<keys>[^{}]*)\}")
#: where a source chooses its citation style: natbib's options, ``\setcitestyle``, elsarticle's ``\biboptions``
_STYLE_CHOICE = re.compile(r"\\usepackage\s*\[([^\]]*)\]\s*\{natbib\}|\\(?:setcitestyle|biboptions)\s*\{([^}]*)\}")
_CLASS = re.compile(r"\\documentclass\s*(?:\[([^\]]*)\])?\s*\{\s*([^}\s]+)\s*\}")
#: classes that load natbib for numbered citations unless told ``authoryear``
_NUMBERED_CLASSES = ("elsarticle", "revtex")


@dataclass(frozen=True)
class _Entry:
    number: int
    label: str | None  # the label the list prints, where it is not a number
    names: str | None = None  # natbib's short names and year, for an author-year label
    year: str | None = None


class HeadingCites:
    """The entries of a reference list and the citation style of a source (see the module's
    docstring); call it on a heading's LaTeX to write its citations as printed."""

    def __init__(self, bibliography: str, source: str) -> None:
        """``bibliography``: the text holding the list's ``\\bibitem`` entries (a ``.bbl``, or a
        document with its own list); ``source``: the preamble and document, for the style."""
        self._entries: dict[str, _Entry] = {}
        for number, item in enumerate(BIBITEM.finditer(bibliography), 1):
            self._entries.setdefault(item.group(2).strip(), _entry(number, item.group(1)))
        self._author_year = not _numbered_style(source)

    def __call__(self, latex: str) -> str:
        """``latex`` with each citation of known entries written as the page prints it."""
        return _CITE.sub(self._printed, latex) if self._entries else latex

    def _printed(self, match: re.Match[str]) -> str:
        command = match["command"].lower()
        entries = [self._entries.get(key.strip()) for key in match["keys"].split(",")]
        known = [entry for entry in entries if entry is not None]
        if not known or len(known) < len(entries):
            return match.group(0)
        if self._author_year and all(entry.names is not None for entry in known):
            printed = _author_year(command, known)
        else:
            printed = _numbered(command, known)
        return match.group(0) if printed is None else f" {printed} "


def _entry(number: int, optional: str | None) -> _Entry:
    """An entry from its position in the list and its ``\\bibitem``'s optional label."""
    label = (optional or "").strip()
    if label.startswith("{") and label.endswith("}"):
        label = label[1:-1].strip()
    natbib = _AUTHOR_YEAR.match(label)
    if natbib is not None:
        return _Entry(number, None, natbib["names"].strip(), natbib["year"].strip())
    return _Entry(number, label or None)


def _numbered_style(source: str) -> bool:
    """Whether the source asks for numbered citations (see the module's docstring): by an option
    of its class or of natbib, else by its class's default."""
    declared = _CLASS.search(source)
    options = (declared[1] or "").split(",") if declared is not None else []
    options += [option for found in _STYLE_CHOICE.finditer(source) for option in (found[1] or found[2]).split(",")]
    choices = {option.strip() for option in options}
    if "authoryear" in choices:
        return False
    return bool(choices & {"numbers", "super"}) or (declared is not None and declared[2].startswith(_NUMBERED_CLASSES))


def _author_year(command: str, entries: list[_Entry]) -> str | None:
    """natbib's author-year forms of a citation, several entries apart by semicolons."""
    forms = {
        "cite": "{names} ({year})",
        "citet": "{names} ({year})",
        "citealt": "{names} {year}",
        "citep": "{names}, {year}",
        "citealp": "{names}, {year}",
        "citeauthor": "{names}",
        "citeyear": "{year}",
    }
    form = forms.get(command)
    if form is None:
        return None
    printed = "; ".join(form.format(names=entry.names, year=entry.year) for entry in entries)
    return f"({printed})" if command == "citep" else printed


def _numbered(command: str, entries: list[_Entry]) -> str | None:
    """A numbered citation: the entries' labels in brackets ("[3, 7]")."""
    if command not in ("cite", "citep"):
        return None
    return "[" + ", ".join(entry.label or str(entry.number) for entry in entries) + "]"
