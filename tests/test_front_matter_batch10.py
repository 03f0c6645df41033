"""Title pages of the tenth unseen batch: TUGboat, a Cahiers GUTenberg draft, LaTeX manuals.

The cases come from ``benchmarks/unseen_set.py`` batch 10 (TUGboat's title at body size with
the author's name indented under it and the journal's section head over it, a title cut where
a logo's smaller type begins, an address without commas, letter marks set apart from the names,
a role in brackets after a name, LaTeX's ``\\maketitle`` over a title of two words, a draft's
line naming the journal it is for). Each layout is drawn again with made-up names, as a PDF of
real text (``tests/pdf_maker``); each was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.journal import find_journal
from tests.test_front_matter_publishers import Item, bold, centred, parse, regular
from tests.test_front_matter_vignettes import authors

SMALL_BODY = [
    "The method described here was applied to three data sets",
    "collected over two years of field work, and the results were",
    "compared against the estimates that earlier studies reported",
    "for the same populations. Each estimate is given with its",
    "interval, and the differences are discussed in the text below.",
]


def _column(top: float, size: float = 9) -> list[Item]:
    """A first section in a narrow column at ``size``, the body's type."""
    lines = [bold(72, top, size, "1 Introduction")]
    return lines + [regular(72, top - 1.8 * size * (i + 1), size, line) for i, line in enumerate(SMALL_BODY * 3)]


def test_tugboats_title_at_body_size_over_the_indented_name(tmp_path: Path) -> None:
    # TUGboat: the section's head in display type, the title at body size, the name indented under it
    document = parse(
        tmp_path,
        [
            bold(100, 740, 15.6, "Graphics Applications"),
            regular(72, 712, 9, "Creating Animations with an Example Language"),
            regular(92, 692, 9, "Anna Example"),
            *_column(670),
        ],
    )
    assert document.title == "Creating Animations with an Example Language"
    assert [author.name for author in document.authors] == ["Anna Example"]


def test_a_title_cut_after_a_function_word_goes_on_in_a_logos_type(tmp_path: Path) -> None:
    # Cahiers GUTenberg: "La géométrie dans l'espace avec" / "METAPOST" (the logo in its smaller font)
    document = parse(
        tmp_path,
        [
            regular(72, 720, 20, "Geometry in Space and Time with"),
            regular(72, 697, 12.6, "EXAMPLEPOST"),
            regular(72, 670, 10, "Anna Example"),
            *_column(640, 10),
        ],
    )
    assert document.title == "Geometry in Space and Time with EXAMPLEPOST"


def test_a_post_office_box_without_commas_is_no_name(tmp_path: Path) -> None:
    # Cahiers GUTenberg: "LORIA BP 239 54509 Vandœuvre-lès-Nancy cedex" under the name
    document = parse(
        tmp_path,
        [
            regular(66, 720, 20, "Geometry in Space and Time"),
            regular(66, 690, 9.1, "Anna Example (anna@example.org)"),
            regular(66, 672, 9.8, "EXLAB BP 239 54509 Exampleville cedex"),
            *_column(640, 10),
        ],
    )
    assert [author.name for author in document.authors] == ["Anna Example"]


def test_letter_marks_set_apart_from_the_names(tmp_path: Path) -> None:
    # the Axodraw 2 manual: the title at body size, centred over "John C. Collins a and J.A.M. Vermaserenb"
    document = parse(
        tmp_path,
        [
            centred(700, 10, "Manual for the Example Package Version 2"),
            centred(660, 12.7, "Anna B. Example a and C.D.E. Dahlb"),
            centred(630, 10, "a Department of Physics, Example State University,"),
            centred(616, 10, "Example Park, Pennsylvania 16802, USA"),
            centred(590, 10, "bExample Theory Group"),
            centred(576, 10, "Science Park 105, 1098 XG Amsterdam, The Netherlands"),
            *_column(540, 10),
        ],
    )
    assert document.title == "Manual for the Example Package Version 2"
    assert [author.name for author in document.authors] == ["Anna B. Example", "C.D.E. Dahl"]


def test_a_role_in_brackets_after_a_name_is_no_part_of_it(tmp_path: Path) -> None:
    # Qtree: "Jeffrey Mark Siskind (tree drawing and core package)" / "Alexis Dimitriadis (parser and extensions)"
    found = authors(
        tmp_path, centred(690, 11, "Anna Example (tree drawing and core package)"), centred(676, 11, "Carl Dahl (parser and extensions)")
    )
    assert found == ["Anna Example", "Carl Dahl"]


def test_maketitles_title_of_two_words_over_name_and_date(tmp_path: Path) -> None:
    # tree-dvips: "Tree Macros" / "Emma Pease" / "May 10, 1995", centred, the title a size up
    document = parse(
        tmp_path,
        [centred(700, 12, "Example Macros"), centred(676, 10.6, "Anna Example"), centred(652, 10.6, "May 10, 1995"), *_column(620, 10)],
    )
    assert document.title == "Example Macros"
    assert [author.name for author in document.authors] == ["Anna Example"]


def test_a_drafts_line_names_the_journal_it_is_for() -> None:
    # "Brouillon d'article pour les Cahiers GUTenberg n°?? — 22 mars 2001": the journal, no year
    found = find_journal([(1, "Brouillon d’article pour les Cahiers Exemple n˚?? — 22 mars 2001")], {})
    assert found[:2] == ("Cahiers Exemple", None)
    assert find_journal([(1, "Draft for the Example Journal")], {})[0] == "Example Journal"
    assert find_journal([(1, "Draft version of the package manual for Example Users")], {})[0] is None


def test_a_name_in_the_head_beside_the_date_over_the_title(tmp_path: Path) -> None:
    # SDPB's manual: "February 20, 2021" at the head's left, the author at its right, no names under the title
    document = parse(
        tmp_path,
        [
            regular(74, 740, 10, "February 20, 2021"),
            regular(430, 740, 10, "Anna Example"),
            centred(700, 15, "The Example Solver Manual", "bold"),
            bold(74, 660, 15, "Contents"),
            *_column(630, 10),
        ],
    )
    assert document.title == "The Example Solver Manual"
    assert [author.name for author in document.authors] == ["Anna Example"]
