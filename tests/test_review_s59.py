"""The review of the stop's title-page rules (2026-12-01, second stop): four ways they read a real
byline or first page wrong, each found by a case the sets do not hold.

- A surname-first byline with letter marks ("ZHANG Wei^a") was turned given-first before the
  marks were taken off each name's end, so the mark stayed on the given name ("Weia Zhang").
- A German company's "AG" also matched initials after a surname (Vancouver style "Smith AG"),
  which made the byline an affiliation and lost its names.
- A citation box's later matches were tried inside an abbreviated name ("J. Geophys. Res. Oceans"
  read as "Res. Oceans"), and a title's end was cut before an abbreviation ("Philos. Trans.").
- "© … Published by" took the capitalised words that open the line: an author's name joined to
  it, or the article's type ("Review")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.byline_blocks import affiliation_line
from paperpyramid.parsers.embedded.journal import find_journal

PLACES = (
    "Department of Medicine, University of Toronto, Toronto, ON, Canada",
    "School of Public Health, Fudan University, Shanghai 200032, China",
    "Institut Pasteur, 75015 Paris, France",
)


def _page(byline: str, keys: str) -> bytes:
    """A first page: a title, the byline (raised marks as ``^{a}``), the affiliations under their keys, an abstract."""
    canvas = Canvas(612, 792)
    canvas.text(72, 72, "Outcomes of a Treatment in a Cohort of Adults With a Chronic Disease", "Helvetica-Bold", 15)
    x, y = 72.0, 110.0
    for piece in re.split(r"(\^\{[^}]*\})", byline):
        if piece.startswith("^{"):
            x += canvas.text(x, y - 3.7, piece[2:-1], "Helvetica", 6.8)
        elif piece:
            x += canvas.text(x, y, piece, "Helvetica", 10.5)
    y += 22
    for key, place in zip(keys, PLACES, strict=False):
        canvas.text(72, y - 3, key, "Helvetica", 5.5)
        canvas.text(76, y, place, "Helvetica", 8)
        y += 11
    canvas.text(72, y, "*Correspondence: anna.berg@example.org", "Helvetica", 8)
    canvas.text(72, y + 30, "Abstract", "Helvetica-Bold", 10)
    canvas.text(
        72, y + 44, "The patients were followed for two years, and the outcomes were compared between the groups.", "Helvetica", 9.5
    )
    return write_pdf([canvas], "Outcomes")


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("ZHANG Wei^{a}, WANG Li^{b}", ["Wei Zhang", "Li Wang"]),
        ("DUPONT Jean-Marc^{a}, MARTIN Claire^{b}", ["Jean-Marc Dupont", "Claire Martin"]),
    ],
)
def test_a_surname_first_byline_loses_its_letter_marks(tmp_path: Path, byline: str, names: list[str]) -> None:
    path = tmp_path / "byline.pdf"
    path.write_bytes(_page(byline, "ab"))
    assert [author.name for author in parse_pdf(path).authors] == names


def test_initials_after_a_surname_are_no_company() -> None:
    assert not affiliation_line("Smith AG, Jones KL, Brown A")
    assert not affiliation_line("Jones KL, Smith AG")
    assert affiliation_line("Bayer AG, Leverkusen, Germany")  # control: a company's legal form
    assert affiliation_line("Merck KGaA, Darmstadt, Germany")


@pytest.mark.parametrize(
    "line",
    [
        "Citation: Smith, J., and A. Berg (2016), A study of the ocean, J. Geophys. Res. Oceans, 121, 1234–1245, doi:10.1002/2016JC011111.",
        "Citation: Smith, J., and A. Berg (2016), A study of the ocean, Geophys. Res. Lett., 43, 1234–1245, doi:10.1002/2016GL011111.",
    ],
)
def test_a_citation_box_names_no_journal_from_inside_an_abbreviated_name(line: str) -> None:
    journal, _, _ = find_journal([(1, line)], {})
    assert journal not in {"Res. Oceans", "Res. Lett", "Res. Lett."}, journal


@pytest.mark.parametrize(
    ("line", "surnames"),
    [
        ("Anna Berg © 2016 The Authors. Published by Elsevier B.V.", frozenset({"berg"})),
        ("Review © The Author(s) 2019. Published by Oxford University Press", frozenset()),
    ],
)
def test_a_copyright_line_names_no_author_or_article_type_as_the_journal(line: str, surnames: frozenset[str]) -> None:
    journal, _, _ = find_journal([(1, line)], {}, surnames)
    assert journal is None, journal
