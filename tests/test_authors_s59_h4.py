"""Bylines as biomedical journals print them, drawn as real text (``benchmarks.synthetic.canvas``):
each case is a failure class of the byline probe (``benchmarks/byline_probe.py``), with made-up
names: surnames first in capitals, degrees that open a line, names cut at a line's end, letter
marks set apart at a line's end or glued to accented capitals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.author_names import split_names
from paperpyramid.parsers.embedded.authors import find_authors
from paperpyramid.parsers.embedded.blocks import Block
from tests.block_builders import Stack

_PLACES = (
    "Department of Medicine, University of Toronto, Toronto, ON, Canada",
    "School of Public Health, Fudan University, Shanghai 200032, China",
    "Institut Pasteur, 75015 Paris, France",
)


def _title_page(byline: str, keys: str = "abc") -> bytes:
    """A title page whose byline is ``byline``: ``^{…}`` raised marks, ``|`` a line break; the
    affiliations keyed by ``keys``."""
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
    for key, place in zip(keys, _PLACES, strict=False):
        canvas.text(72, y - 3, key, "Helvetica", 5.5)
        canvas.text(76, y, place, "Helvetica", 8)
        y += 11
    canvas.text(72, y, "*Correspondence: anna.berg@example.org", "Helvetica", 8)
    canvas.text(72, y + 30, "Abstract", "Helvetica-Bold", 10)
    canvas.text(
        72, y + 44, "The patients were followed for two years, and the outcomes were compared between the groups.", "Helvetica", 9.5
    )
    return write_pdf([canvas], "Outcomes")


def _authors(tmp_path: Path, byline: str, keys: str = "abc") -> list[str]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(_title_page(byline, keys))
    return [author.name for author in parse_pdf(path).authors]


def test_a_byline_set_surname_first_in_capitals_reads_given_names_first(tmp_path: Path) -> None:
    # Chinese, French and Hungarian journals: "ZHANG Wei", particles in the surname, initials after it
    byline = "ZHANG Wei^{1}, DUPONT Jean-Marc^{2}, VAN DER BERG Anna^{1} and LUND E. K.^{1,2*}"
    assert _authors(tmp_path, byline, "123") == ["Wei Zhang", "Jean-Marc Dupont", "Anna van der Berg", "E. K. Lund"]


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("JA Smith, KL Jones", ["Ja Smith", "Kl Jones"]),  # two capitals are initials, not a surname
        ("Anna BERG, Carl DAHL", ["Anna Berg", "Carl Dahl"]),  # the surname in capitals after the given names
        ("ANNA McDONALD, CARL DAHL", ["Anna McDONALD", "Carl Dahl"]),  # no given name has a capital inside it
    ],
)
def test_names_not_set_surname_first_keep_their_order(byline: str, names: list[str]) -> None:
    assert split_names(byline) == names


def test_a_degree_that_opens_a_line_is_no_classification_label(tmp_path: Path) -> None:
    # "MSc, and …" under the byline's first line read as the Mathematics Subject Classification's "MSC" label
    byline = "Anna Berg, PhD^{*}, Carl Dahl, MSc, Karin Strand, PhD,|MSc, and Eva Lund, MD"
    assert [name.split()[-1] for name in _authors(tmp_path, byline, "123")] == ["Berg", "Dahl", "Strand", "Lund"]


def test_a_name_cut_after_two_given_names_goes_on_over_the_next_line(tmp_path: Path) -> None:
    byline = "Anna Berg^{1}, Carl Dahl^{2}, Hiroshi Takashima^{3} and María Dolores|Albaladejo Otón^{1,2*}"
    assert [name.split()[-1] for name in _authors(tmp_path, byline, "123")] == ["Berg", "Dahl", "Takashima", "Otón"]


# the blocks the layout step makes of a byline wrapped over lines, as the byline probe's pages give them: the first
# line parted at a raised mark, the last line a block of its own (taken for a heading, short as it is)
_STACK = Stack(top=100.0, step=14.0, x1=540.0, size=10.5)
_AFFILIATIONS = [
    "1Laboratory of Molecular Genetics, Institut Pasteur, 75015 Paris, France",
    "2School of Public Health, Fudan University, Shanghai 200032, China",
    "3Department of Medicine, University of Toronto, Toronto, ON, Canada",
]


def _byline_blocks(rows: list[list[tuple[str, str]]], affiliations: list[str] = _AFFILIATIONS) -> list[Block]:
    """The title, the byline's blocks row by row (text and kind, left to right), the affiliations, the abstract."""
    blocks = [_STACK.block("Outcomes of a Treatment in a Cohort of Adults With a Chronic Disease", "title", top=72.0, size=15.0)]
    for row, pieces in enumerate(rows):
        x0 = 72.0
        for text, kind in pieces:
            width = 5.0 * len(text)
            size = 6.8 if kind == "furniture" else 10.5
            blocks.append(
                _STACK.block(text, kind, top=110.0 + 14 * row - (1.0 if kind == "furniture" else 0), x0=x0, x1=x0 + width, size=size)
            )
            x0 += width + (1 if kind == "paragraph" else 3)  # a word space after a raised mark
    top = 140.0 + 14 * len(rows)
    blocks.append(_STACK.block(affiliations, top=top, size=8.0, x1=500.0))
    blocks.append(_STACK.block("Abstract", "heading", top=top + 60, bold=True))
    return blocks


@pytest.mark.parametrize(
    ("rows", "surnames"),
    [
        (  # a name cut after its given names and initial, its mark a space after the surname on the next line
            [
                [("Sebastian Kohlmeier 3*", "paragraph"), (", Timothy Exell 1,2, Hua Chai 3, J. Robinson", "paragraph")],
                [("Singleton 3, Lana Popovic-Maneski 3*", "heading")],
            ],
            ["Kohlmeier", "Exell", "Chai", "Singleton", "Popovic-Maneski"],
        ),
        (  # a name cut after its hyphenated given name, after "and"
            [
                [("Zoran Nenadic1,2*", "paragraph"), (", Dennis J. Bourbeau2, Jennifer Wegrzyk1,2, and Jung-Gu", "paragraph")],
                [("Kim1*", "heading")],
            ],
            ["Nenadic", "Bourbeau", "Wegrzyk", "Kim"],
        ),
        (  # a degree and its marks open the last line: no "MSC" label
            [
                [("U. Seydel MD4,†", "paragraph"), (", L. Francisco PhD3,4,†, S. M. Hussain MD PhD2, S. C. Park", "paragraph")],
                [("MSc4, B. Le-Gallo MSc2,4, P. Randelli MD1,4*", "heading")],
            ],
            ["Seydel", "Francisco", "Hussain", "Park", "Le-Gallo", "Randelli"],
        ),
    ],
)
def test_a_byline_wrapped_over_blocks_reads_every_name(rows: list[list[tuple[str, str]]], surnames: list[str]) -> None:
    assert [author.name.split()[-1] for author in find_authors(_byline_blocks(rows), 0, {})] == surnames


@pytest.mark.parametrize(
    ("lines", "surnames"),
    [
        (  # "RN, MSN 1": a degree, not an institution's acronym that makes the line an affiliation
            [
                "Pengyu Cheng, MPH 2,3, Massimiliano Gobbo, MD, PhD 1,",
                "Anthony F. Dimarco, PhD 1,2, Ranbir S. Fougat, MD 1,2,",
                "Ryan Kiros, RN, MSN 1, Anastasia L. Elias, PhD 2 and",
                "Maurizio Schmid, MD, PhD 1*",
            ],
            ["Cheng", "Gobbo", "Dimarco", "Fougat", "Kiros", "Elias", "Schmid"],
        ),
        (  # surnames in capitals under a line cut after a given name: names, not acronyms
            ["Andrew J. M. BOULTON,1 Juan D. RAMIREZ,1 Alastair HARRY,1 Sebastian", "KOHLMEIER,1,2 Joanna PETERS1,2 and Nick S. WARD2*"],
            ["Boulton", "Ramirez", "Harry", "Kohlmeier", "Peters", "Ward"],
        ),
        (  # surname first in capitals, a line ending in a comma over the next names
            [
                "VETTE Albert H.1, LESKOVEC Jure3, PATEL Hardik K.2,",
                "MORTELLITE Kelly1, ZETTLEMOYER Luke S.3, WILLIAMS",
                "Adina1,3, MARGÓCZI Katalin3 & MELLGREN Svein I.3*",
            ],
            ["Vette", "Leskovec", "Patel", "Mortellite", "Zettlemoyer", "Williams", "Margóczi", "Mellgren"],
        ),
    ],
)
def test_a_byline_block_over_its_affiliations_reads_every_line(lines: list[str], surnames: list[str]) -> None:
    blocks = [
        _STACK.block("Outcomes of a Treatment in a Cohort of Adults With a Chronic Disease", "title", top=72.0, size=15.0),
        _STACK.block(lines, top=110.0),
        _STACK.block(_AFFILIATIONS, top=160.0, size=8.0),
        _STACK.block("Abstract", "heading", top=220.0, bold=True),
    ]
    assert [author.name.split()[-1] for author in find_authors(blocks, 0, {})] == surnames


def test_a_letter_mark_alone_beside_its_name_keys_it() -> None:
    # a raised letter after the comma, which the layout step set apart and took for furniture
    rows = [[("Danqi Chen,", "paragraph"), ("d", "furniture"), ("Ilias Narosa*", "paragraph")]]
    affiliations = ["aInstitute of Pharmacology, Charité, Berlin, Germany", "dSchool of Public Health, Fudan University, Shanghai, China"]
    assert [author.name for author in find_authors(_byline_blocks(rows, affiliations), 0, {})] == ["Danqi Chen", "Ilias Naros"]


def test_a_letter_mark_after_the_comma_at_a_line_end_keys_its_name(tmp_path: Path) -> None:
    # the text layer sets the raised "b" after "Dahl," apart, and takes it, alone at the line's end, for page furniture
    byline = "Anna Berg,^{a,b*} Carl Dahl,^{b}|Eva Lund,^{a} Karin Strand^{a} and Lena Falkb^{*}"
    assert [name.split()[-1] for name in _authors(tmp_path, byline, "ab")] == ["Berg", "Dahl", "Lund", "Strand", "Falk"]


@pytest.mark.parametrize(
    ("byline", "surnames"),
    [
        ("Zsolt MOLNÁRc, Erik V. STÅLBERGb and Anna BERGa", ["Molnár", "Stålberg", "Berg"]),  # accented capitals, glued letters
        ("Kelly Mortellitea,b, William B. Driggers IIIb, Aftab Ahmadb", ["Mortellite", "III", "Ahmad"]),  # a suffix's mark
    ],
)
def test_letter_marks_glued_to_accented_capitals_and_suffixes_are_dropped(tmp_path: Path, byline: str, surnames: list[str]) -> None:
    assert [name.split()[-1] for name in _authors(tmp_path, byline)] == surnames
