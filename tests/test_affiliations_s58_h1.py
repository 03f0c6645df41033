"""Title-page affiliations of vignettes and guides. One sets the version it documents, with a date,
under the authors' affiliation ("University of Warwick, UK" / "For gnm version 1.1-2 , 2022-04-29";
irace's "Version 3.5, October 23, 2022"): the line ends the affiliations, and is no part of the place.
A place broken over two lines at a hyphen, in a narrow column of a grid ("WU Wirtschafts-" /
"universität Wien"), is joined as running text is. LaTeX's ``\\thanks`` signs run ∗ † ‡ § ¶ ‖: the
foot's "‖Department …" is the sixth author's note (the SAM guide's), and a note's "Email: …" line,
set smaller and read as a block of its own, goes on with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import glyph_pdf

_BODY = (
    "Generalized nonlinear models extend the class of generalized linear models to allow predictors that",
    "are nonlinear in their parameters, and this document gives an overview of the functions that fit them",
    "and of the methods that summarize the fitted models, with examples from several fields of application.",
    "Each example can be run as it stands, and each shows one feature of the package in a worked analysis.",
)


def _centred(y: float, size: float, text: str) -> tuple[float, float, float, str, str]:
    """A line of Helvetica centred on the page (its glyphs about 0.5 em wide)."""
    return (306 - len(text) * size * 0.25, y, size, text, "Helvetica")


@pytest.mark.parametrize("version", ["For gnm version 1.1-2 , 2022-04-29", "Version 3.5, October 23, 2022"])
def test_a_version_line_under_the_affiliation_is_no_part_of_it(tmp_path: Path, version: str) -> None:
    items = [
        _centred(700, 17, "Generalized nonlinear models in R: An overview of the gnm package"),
        _centred(664, 12, "Heather Turner and David Firth"),
        _centred(648, 12, "University of Warwick, UK"),
        _centred(626, 12, version),
    ]
    items += [(72, 580 - 13 * n, 10, line, "Helvetica") for n, line in enumerate(_BODY)]
    path = tmp_path / "vignette.pdf"
    path.write_bytes(glyph_pdf(items))
    authors = parse_pdf(path).authors
    assert [(author.name, author.affiliation) for author in authors] == [
        ("Heather Turner", "University of Warwick, UK"),
        ("David Firth", "University of Warwick, UK"),
    ]


def test_a_place_broken_at_a_hyphen_in_its_column_is_joined(tmp_path: Path) -> None:
    items = [_centred(700, 17, "HCL-Based Color Palettes in R")]
    for x, name, place in (
        (90, "Achim Zeileis", ["Universitat Innsbruck"]),
        (260, "Kurt Hornik", ["WU Wirtschafts-", "universitat Wien"]),
        (430, "Paul Murrell", ["The University", "of Auckland"]),
    ):
        items.append((x, 664, 12, name, "Helvetica"))
        items += [(x, 648 - 14 * n, 12, line, "Helvetica") for n, line in enumerate(place)]
    items += [(72, 580 - 13 * n, 10, line, "Helvetica") for n, line in enumerate(_BODY)]
    path = tmp_path / "grid.pdf"
    path.write_bytes(glyph_pdf(items))
    places = {author.name: author.affiliation for author in parse_pdf(path).authors}
    assert places == {
        "Achim Zeileis": "Universitat Innsbruck",
        "Kurt Hornik": "WU Wirtschaftsuniversitat Wien",
        "Paul Murrell": "The University of Auckland",
    }


def test_the_notes_of_latex_signs_give_places_and_addresses(tmp_path: Path) -> None:
    items = [_centred(700, 17, "Significance Analysis of Microarrays")]
    for x, name, sign, font in (
        (90, "Ann Berg", "\u00a7", "Helvetica"),
        (250, "Carl Dahl", "\u00b6", "Helvetica"),
        (410, "Eva Lind", "k", "CMSY10"),
    ):
        items += [(x, 664, 12, name, "Helvetica"), (x + 6 * len(name) + 2, 669, 8, sign, font)]
    items += [(72, 600 - 13 * n, 10, line, "Helvetica") for n, line in enumerate(_BODY)]
    items += [
        (72, 120, 6, "\u00a7", "Helvetica"),
        (76, 117, 8.9, "Department of Biochemistry, Stanford University, Stanford CA 94305.", "Helvetica"),
        (72, 108, 7.7, "Email: ab17@cmgm.stanford.edu.", "Courier"),
        (72, 99, 6, "\u00b6", "Helvetica"),
        (76, 96, 8.9, "Department of Statistics, Stanford University, Stanford CA 94305.", "Helvetica"),
        (72, 87, 7.7, "Email: cdx@stanford.edu.", "Courier"),
        (72, 78, 6, "k", "CMSY10"),
        (76, 75, 8.9, "Department of Health Research & Policy, Stanford University. Email: goss@cmgm.stanford.edu.", "Helvetica"),
    ]
    path = tmp_path / "notes.pdf"
    path.write_bytes(glyph_pdf(items))
    authors = {author.name: (author.affiliation, author.email) for author in parse_pdf(path).authors}
    assert authors == {
        "Ann Berg": ("Department of Biochemistry, Stanford University, Stanford CA 94305", "ab17@cmgm.stanford.edu"),
        "Carl Dahl": ("Department of Statistics, Stanford University, Stanford CA 94305", "cdx@stanford.edu"),
        "Eva Lind": ("Department of Health Research & Policy, Stanford University", "goss@cmgm.stanford.edu"),
    }
