"""Bylines the byline probe (``benchmarks/byline_probe.py``) still read wrong, drawn as real text
with raised marks (``benchmarks.synthetic.canvas``), made-up names: letter marks where the page's
keys are found only in part or set after the comma, a two-letter surname in capitals with its
letter, a letter set apart after a degree, the particles ``de las``/``zu``/``ibn``, and a
generation's suffix ("3rd")."""

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
# the first key glued to a word no institution's word list knows, in an institution's name in
# Portuguese, and the second line read as two blocks, its key alone
_UNIVERSIDADE = "Faculty of Health Sciences, Universidade de Campinas, Campinas, Brazil"
_GLUED_FIRST = (_UNIVERSIDADE, "Institute of Pharmacology, Charité – Universitätsmedizin Berlin, Berlin, Germany", _PLACES[2])


def _title_page(byline: str, places: tuple[str, ...] = _PLACES, leading: float = 11) -> bytes:
    """A title page whose byline is ``byline``: ``^{…}`` raised marks, ``|`` a line break; the
    affiliations keyed a, b, c with raised letters set close to their first words, ``leading`` apart."""
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
    for key, place in zip("abc", places, strict=False):
        canvas.text(72 + canvas.text(72, y - 3, key, "Helvetica", 5.5), y, place, "Helvetica", 8)
        y += leading
    canvas.text(72, y, "*Correspondence: anna.berg@example.org", "Helvetica", 8)
    canvas.text(72, y + 30, "Abstract", "Helvetica-Bold", 10)
    canvas.text(
        72, y + 44, "The patients were followed for two years, and the outcomes were compared between the groups.", "Helvetica", 9.5
    )
    return write_pdf([canvas], "Outcomes")


@pytest.mark.parametrize(
    ("byline", "places", "names"),
    [
        (  # the keys found in part: "aFaculty" read as no affiliation's line, "c" found
            "Anna Berg^{b}, Carl Dahl^{a,c} and Eva Lund^{b*}",
            _GLUED_FIRST,
            ["Anna Berg", "Carl Dahl", "Eva Lund"],
        ),
        (  # letters after the comma, the last name's glued (no comma after it)
            "Anna Berg,^{a} Carl Dahl,^{b,c} Eva Lund^{a*}",
            _PLACES,
            ["Anna Berg", "Carl Dahl", "Eva Lund"],
        ),
        (  # letters after the comma and a space
            "Anna Berg,^{ a} Carl Dahl,^{ b} Eva Lund^{ c*}",
            _PLACES,
            ["Anna Berg", "Carl Dahl", "Eva Lund"],
        ),
        (  # two-letter surnames in capitals with their letters
            "ANNA BERG^{a}, KAI WU^{b}, EVA LO^{c} and LI HE^{a*}",
            _PLACES,
            ["Anna Berg", "Kai Wu", "Eva Lo", "Li He"],
        ),
        (  # a letter after a comma and a space, after degrees; the last set apart after its degree
            "Anna Berg PhD,^{ a} Carl Dahl MD,^{ b,c} Eva Lund MD^{ a*}",
            _PLACES,
            ["Anna Berg", "Carl Dahl", "Eva Lund"],
        ),
        (  # particles
            "Maria de las Nieves Ortiz^{a}, Karl zu Lund^{b}, Omar ibn Dahl^{c} and Luis de los Rios^{a*}",
            _PLACES,
            ["Maria de las Nieves Ortiz", "Karl zu Lund", "Omar ibn Dahl", "Luis de los Rios"],
        ),
        (  # a generation's suffix, with digits and with a letter
            "Anna Berg^{1}, Carl Dahl 3rd^{2*}",
            _PLACES,
            ["Anna Berg", "Carl Dahl 3rd"],
        ),
        ("Anna Berg^{a}, Carl Dahl 3rd^{b*}", _PLACES, ["Anna Berg", "Carl Dahl 3rd"]),
    ],
)
def test_letter_marks_particles_and_suffixes(tmp_path: Path, byline: str, places: tuple[str, ...], names: list[str]) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(_title_page(byline, places))
    assert [author.name for author in parse_pdf(path).authors] == names


@pytest.mark.parametrize(
    "places",
    [
        (_PLACES[0], _UNIVERSIDADE),  # the last key glued to that word: no other key tells "b"
        (_PLACES[0], "Health Sciences, Universidade de Campinas, Brazil", _PLACES[2]),  # "b" keys no known place: "a" and "c" tell it
    ],
)
def test_keys_found_in_part(tmp_path: Path, places: tuple[str, ...]) -> None:
    """Each affiliation in a block of its own, one of them not known for one: the keys run from "a"."""
    path = tmp_path / "paper.pdf"
    path.write_bytes(_title_page("Anna Berg^{b}, Carl Dahl^{a,b} and Eva Lund^{b*}", places, leading=20))
    assert [author.name for author in parse_pdf(path).authors] == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_degree_with_its_small_letter_stays_a_degree(tmp_path: Path) -> None:
    """ "MSc", "DSc" after names in capitals are degrees, not a two-letter surname in capitals and its letter mark."""
    path = tmp_path / "paper.pdf"
    path.write_bytes(_title_page("ANNA BERG MSc,^{a} CARL DAHL DSc,^{b} and EVA LUND MSc^{c*}"))
    assert [author.name for author in parse_pdf(path).authors] == ["Anna Berg", "Carl Dahl", "Eva Lund"]
