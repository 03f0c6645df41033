"""Bylines as journals print them, each case a failure class of the byline probe
(``benchmarks/byline_probe.py``) on a fresh seed, with made-up names: a name's initials cut from
its surname at a line's end, letter marks after the comma set over a line's end, and capitals
before a name that are its initials ("AJE Smith") rather than a surname set first ("ZHANG Wei")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.author_names import split_names

_PLACES = ("Department of Medicine, University of Toronto, Toronto, ON, Canada", "Institut Pasteur, Paris, France")


def _title_page(lines: list[str], keys: str = "") -> bytes:
    """A title page whose byline is ``lines``, one under the other (``^{…}`` a raised mark), over
    affiliations keyed by ``keys``."""
    canvas = Canvas(612, 792)
    canvas.text(72, 72, "Outcomes of a Treatment in a Cohort of Adults With a Chronic Disease", "Helvetica-Bold", 15)
    y = 110.0
    for line in lines:
        x = 72.0
        for piece in re.split(r"(\^\{[^}]*\})", line):
            raised = piece.startswith("^{")
            x += canvas.text(x, y - 3.7 if raised else y, piece[2:-1] if raised else piece, "Helvetica", 6.8 if raised else 10.5)
        y += 14
    y += 10
    for key, place in zip(keys or " ", _PLACES, strict=False):
        canvas.text(72, y, f"{key} {place}".strip(), "Helvetica", 8)
        y += 11
    canvas.text(72, y + 30, "Abstract", "Helvetica-Bold", 10)
    canvas.text(72, y + 44, "The patients were followed for two years, and the outcomes were compared.", "Helvetica", 9.5)
    return write_pdf([canvas], "Outcomes")


def _authors(tmp_path: Path, lines: list[str], keys: str = "") -> list[str]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(_title_page(lines, keys))
    return [author.name for author in parse_pdf(path).authors]


@pytest.mark.parametrize(
    "lines",
    [
        ["A. Berg^{*}, C. Dahl, E. Lund, J. C. R. Silva, A. D.", "Novak"],  # initials at the line's end, the surname under them
        ["A. Berg^{*}, C. Dahl, E. Lund, K. Okafor, A.", "Novak"],
    ],
)
def test_initials_cut_from_their_surname_at_the_lines_end_make_one_name(tmp_path: Path, lines: list[str]) -> None:
    # the initials alone and the surname alone were each no name: the last author was lost
    assert _authors(tmp_path, lines)[-1].endswith("Novak")
    assert len(_authors(tmp_path, lines)) == 5


def test_a_name_cut_after_its_given_name_past_a_letter_mark_is_one_name(tmp_path: Path) -> None:
    # ACS and AIP set the letters after the comma: "Johnson, c Bethany" / "Albers a*"
    lines = ["Anna Berg,^{ a} Carl Dahl,^{ b} Eva Lund,^{ a} Helen L. Johnson,^{ b} Bethany", "Albers^{ a*}"]
    assert _authors(tmp_path, lines, "ab") == ["Anna Berg", "Carl Dahl", "Eva Lund", "Helen L. Johnson", "Bethany Albers"]


def test_letter_marks_after_the_comma_over_a_lines_end_are_no_names(tmp_path: Path) -> None:
    # the letters closing a line's last name open the next line: "… Laurentiu Pirtea," / "b Max Kipf, …"
    lines = [
        "Sarah R. Chang,^{ a,b*} Kenneth H. Silver,^{ a,b} Laurentiu Pirtea,",
        "^{b} Max Kipf,^{ b} Roger Cheng^{ a,b} and Edel Olsen^{ a*}",
    ]
    expected = ["Sarah R. Chang", "Kenneth H. Silver", "Laurentiu Pirtea", "Max Kipf", "Roger Cheng", "Edel Olsen"]
    assert _authors(tmp_path, lines, "ab") == expected


@pytest.mark.parametrize(
    ("byline", "families"),
    [
        ("AJE Smith", ["Smith"]),  # initials without full stops before the surname (BMJ, Indian journals)
        ("AJE Smith, JA Jones", ["Smith", "Jones"]),
        ("JA Smith", ["Smith"]),
        ("SOUZA Tianyi", ["Souza"]),  # a surname set first in capitals (Chinese, French, Brazilian journals)
        ("LIU Wei, LI Na", ["Liu", "Li"]),
        ("SHI Wei", ["Shi"]),
        ("ZHANG Wei, LI Na", ["Zhang", "Li"]),
        ("DUPONT Jean-Marc, LOGRIECO A. F.", ["Dupont", "Logrieco"]),
    ],
)
def test_capitals_before_a_name_are_its_initials_or_its_surname_set_first(byline: str, families: list[str]) -> None:
    assert [name.split()[-1] for name in split_names(byline)] == families


@pytest.mark.parametrize(
    "lines",
    [
        ["R. G. MEHTA MD,^{1} R. A. PANDEY MD,^{2} S. Y.", "CHEN PhD,^{1} L. LUND MPH^{2*}"],  # initials over a surname in capitals
        ["Anna Berg MD,^{1} Carl Dahl MD,^{2} Eva Lund", "MD PhD,^{1} Kai Novak PhD^{2*}"],  # a degree opens the next line
    ],
)
def test_a_name_cut_before_its_surname_in_capitals_or_its_degrees_is_one_name(tmp_path: Path, lines: list[str]) -> None:
    families = [name.split()[-1] for name in _authors(tmp_path, lines, "12")]
    assert families in (["Mehta", "Pandey", "Chen", "Lund"], ["Berg", "Dahl", "Lund", "Novak"])
