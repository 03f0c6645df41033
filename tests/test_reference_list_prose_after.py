"""Prose printed after a reference list without numbers is no entry (issue 32, item 5).

CSTUG's bulletin prints the article's title and abstract in the other language under the list;
Frontiers its conflict-of-interest statement and licence; JSS an appendix or an R help page. Such
a list is split at every line that starts at the margin, so each line of that prose became an
entry of its own ("vdovy a sirotky bez dalšího zásahu uživatele. …"). A run of lines at the list's
end with no year, DOI or web address and no author opening it is handed back as text.
"""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.references import split_list

_top = iter(range(100, 100_000, 12))


def _line(text: str, x0: float = 72.0) -> Line:
    top = next(_top)
    return Line(text=text, page=28, x0=x0, top=top, x1=540, bottom=top + 9, size=9.0, bold=False, italic=False, font="T")


def _entries() -> list[Line]:
    """The list's entries, each on two lines with a hanging indent, as CSTUG sets them."""
    return [_line(part, x0) for entry in _ENTRIES for part, x0 in zip(entry.split(". ", 1), (72.0, 82.0), strict=True)]


_ENTRIES = [
    "PLASS, Michael Frederick, 1981. Optimal pagination techniques for automatic typesetting systems. PhD thesis.",
    "SALTZ, I., 2019. Typography Essentials Revised and Updated. Rockport Publishers. isbn 9781631596483.",
    "THE NTS TEAM, 1998. The ε-TEX manual [online]. Available from: https://ctan.org/pkg/etex.",
    "WERMUTH, Udo, 2018. Experiments with parfillskip. TUGboat. Vol. 39, no. 3, pp. 276–303.",
]
_ABSTRACT = [
    "Automatické odstraňování vdov a sirotků pomocí balíčku",
    "lua-widow-control",
    "Balíček lua-widow-control pro LuaTEX/LuaLATEX/ConTEXt/OpTEX odstraňuje",
    "vdovy a sirotky bez dalšího zásahu uživatele. Využívá přitom sílu LuaTEXu a",
    "nebo sloupci, kde by se vdova nebo sirotek vyskytli.",
]


def test_prose_after_an_unnumbered_list_is_text_not_entries() -> None:
    references, text = split_list(_entries() + [_line(line) for line in _ABSTRACT])
    assert [reference.raw[:12] for reference in references] == ["PLASS, Micha", "SALTZ, I., 2", "THE NTS TEAM", "WERMUTH, Udo"]
    assert [[line.text for line in run] for run in text] == [_ABSTRACT]


def test_one_undated_entry_at_the_end_stays_an_entry() -> None:
    """A last entry without a year (StarTeX's "Mittelbach, Frank. The varioref package. Part of
    the LaTeX distribution.", here without its author) is one group, not a run."""
    last = "The varioref package. Part of the LATEX2e distribution, as a tool of the core team."
    references, text = split_list([*_entries(), _line(last)])
    assert len(references) == 5
    assert text == []
