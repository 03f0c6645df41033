"""Bylines with raised marks, as biomedical journals print them, drawn as real text with the
marks in smaller raised type (``benchmarks.synthetic.canvas``): each case is a failure class of
the byline probe (``benchmarks/byline_probe.py``), with made-up names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf

_PLACES = (
    "Department of Medicine, University of Toronto, Toronto, ON, Canada",
    "School of Public Health, Fudan University, Shanghai 200032, China",
    "Institut Pasteur, 75015 Paris, France",
)


def _title_page(byline: str) -> bytes:
    """A title page whose byline is ``byline``: ``^{…}`` raised marks, ``|`` a line break."""
    canvas = Canvas(612, 792)
    canvas.text(72, 72, "Outcomes of a Treatment in a Cohort of Adults With a Chronic Disease", "Helvetica-Bold", 15)
    x, y = 72.0, 110.0
    for piece in re.split(r"(\^\{[^}]*\}|\|)", byline):
        if piece == "|":
            x, y = 72.0, y + 14
        elif piece.startswith("^{"):
            x += canvas.text(x, y - 3.7, piece[2:-1], "Helvetica", 6.8)
        elif piece:
            x += canvas.text(x, y, piece, "Helvetica", 10.5)
    y += 22
    for key, place in zip("abc", _PLACES, strict=True):
        canvas.text(72, y - 3, key, "Helvetica", 5.5)
        canvas.text(76, y, place, "Helvetica", 8)
        y += 11
    canvas.text(72, y, "*Correspondence: anna.berg@example.org", "Helvetica", 8)
    canvas.text(72, y + 30, "Abstract", "Helvetica-Bold", 10)
    canvas.text(
        72, y + 44, "The patients were followed for two years, and the outcomes were compared between the groups.", "Helvetica", 9.5
    )
    return write_pdf([canvas], "Outcomes")


BERG_DAHL_LUND = ["Berg", "Dahl", "Lund"]


@pytest.mark.parametrize(
    ("byline", "surnames"),
    [
        ("Anna Berg^{a}, Carl Dahl^{b} and Eva Lund^{a}", BERG_DAHL_LUND),  # a raised letter, then a word space and "and"
        ("Anna Berg^{ a}, Carl Dahl^{ b}, Eva Lund^{ a*}", BERG_DAHL_LUND),  # letters set a space apart, the last with its star
        ("ANNA BERG^{a*}, CARL DAHL^{b}, EVA LUND^{a}", BERG_DAHL_LUND),  # capitals, a letter and a star
        ("Anna Berg, PhD^{a}, Carl Dahl, MD^{b}, Eva Lund, MPH^{c}", BERG_DAHL_LUND),  # a letter after a degree
        ("Anna Berg PhD^{a}, Carl Dahl MD^{b} and Eva Lund MD^{c}", BERG_DAHL_LUND),  # the Lancet's degrees, no comma
        ("Anna Berg^{1} · Carl Dahl^{2} · Eva|Lund^{1,2*}", BERG_DAHL_LUND),  # Springer's dots, broken inside the last name
        ("Anna Berg^{1}, Carl Dahl^{2} and Eva J.|Lund^{1,2*}", BERG_DAHL_LUND),  # broken after a middle initial, after "and"
        (  # broken after two given names, in a byline of three lines
            "Anna Berg,^{2,†} Carl Dahl,^{1,†} Eva Holm,^{2,3} Hyun Joo|Lund,^{3} Karin Strand,^{1,3} Erik Nord,^{1} and|Lena Falk^{2*}",
            ["Berg", "Dahl", "Holm", "Lund", "Strand", "Nord", "Falk"],
        ),
    ],
)
def test_bylines_with_raised_marks_read_every_name(tmp_path: Path, byline: str, surnames: list[str]) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(_title_page(byline))
    assert [author.name.split()[-1] for author in parse_pdf(path).authors] == surnames
