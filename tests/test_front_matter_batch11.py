"""Title pages of the eleventh unseen batch: TUGboat as printed and in draft, Zpravodaj CSTUG,
EuroTeX'99's proceedings, a music-engraving essay, a Greek package's documentation, a manual.

The cases come from ``benchmarks/unseen_set.py`` batch 11 (a TUGboat title over two blocks or
in a logo's font smaller than the text, over the author's indented name; a title with its
alternative after "or"; a title's last line in another font that opens with "and"; keywords
labelled in Czech (drawn here in the languages the test's font can set); a manual's copyright lines naming its authors' earlier versions, and its
authors stacked in bold over their addresses far down the title page; a manual's version line;
a reprint's "First published in" note; a proceedings' name with its year in two digits). Each
layout is drawn again with made-up names as a PDF of real text (``tests/pdf_maker``), or checked
on its line; each was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.journal import find_journal
from tests.test_front_matter_batch10 import _column
from tests.test_front_matter_publishers import bold, centred, names, parse, regular


def test_a_tugboat_title_over_two_blocks_over_the_indented_name(tmp_path: Path) -> None:
    # "Automatically removing widows and orphans" / "with lua-widow-control" / "  Max Chernoff" / "Abstract"
    document = parse(
        tmp_path,
        [
            bold(72, 720, 9, "Automatically removing widows and orphans"),
            (72, 709, 9, [("bold", "with "), ("italic", "example-widow-control")]),  # the package's name in its face
            regular(84, 698, 9, "Anna Example"),
            bold(72, 680, 9, "Abstract"),
            *_column(640),
        ],
    )
    assert document.title == "Automatically removing widows and orphans with example-widow-control"
    assert names(document) == ["Anna Example"]


def test_a_tugboat_title_in_a_logos_smaller_font_over_the_indented_name(tmp_path: Path) -> None:
    # a draft's title is a program's name in METAFONT's logo font, smaller than the text: "METATEX"
    document = parse(
        tmp_path,
        [
            regular(72, 720, 6.2, "EXAMPLETEX"),
            regular(84, 706, 9, "Anna Example"),
            bold(72, 680, 9, "Abstract"),
            *_column(640),
        ],
    )
    assert document.title == "EXAMPLETEX"
    assert names(document) == ["Anna Example"]


def test_a_title_and_its_alternative_after_or(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(740, 15.6, "Repository of typesetting mistakes", "bold"),
            centred(700, 12, "or"),
            centred(660, 13, "Essay on the true art of engraving", "bold"),
            centred(620, 17.7, "Anna Example"),
            *_column(560, 10),
        ],
    )
    assert document.title == "Repository of typesetting mistakes or Essay on the true art of engraving"


def test_a_titles_last_line_in_another_font_opening_with_and(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(720, 19.6, "Documentation for the example.sty package"),
            centred(698, 17.2, "and example.map mapping."),
            centred(660, 13.6, "Anna Example"),
            centred(640, 13.6, "2016/01/01"),
            bold(280, 610, 10, "Abstract"),
            *_column(580, 10),
        ],
    )
    assert document.title == "Documentation for the example.sty package and example.map mapping."


def test_a_version_line_opening_with_for_is_not_the_titles(tmp_path: Path) -> None:
    # a vignette's "for BMS Version 0.3.5" under "Bayesian Model Averaging with BMS"
    document = parse(
        tmp_path,
        [
            centred(720, 15.3, "Bayesian Model Averaging with EXAMPLE"),
            centred(702, 8.8, "for EXAMPLE Version 0.3.5"),
            centred(676, 10.6, "Anna Example and Boris Sample"),
            centred(652, 10.6, "August 5, 2022"),
            bold(72, 620, 10, "Abstract"),
            *_column(590, 10),
        ],
    )
    assert document.title == "Bayesian Model Averaging with EXAMPLE"


@pytest.mark.parametrize("label", ["Schlüsselwörter", "Mots-clés", "Palabras clave"])
def test_keywords_labelled_in_other_languages_end_the_names(tmp_path: Path, label: str) -> None:
    # Zpravodaj CSTUG: "Klíčová slova: LATEX, styl, …, Zpravodaj CSTUG, dokumentace" under an abstract without a head
    document = parse(
        tmp_path,
        [
            bold(72, 720, 13, "Styl pro Zpravodaj Example sdruzeni uzivatelu"),
            regular(72, 700, 10, "Anna Example, Boris Sample"),
            regular(72, 670, 8, "Tento dokument popisuje tridu pro psani clanku do Zpravodaje."),
            regular(72, 650, 9, f"{label}: LATEX, styl, dokumentova trida, Zpravodaj Example, dokumentace"),
            *_column(610, 9),
        ],
    )
    assert names(document) == ["Anna Example", "Boris Sample"]


def test_a_manuals_copyright_holders_are_no_byline_and_its_stacked_authors_are_all_read(tmp_path: Path) -> None:
    # TREE-PUZZLE: the manual's name over its version, copyright lines naming the earlier versions'
    # authors, then each author in bold over the address, down past the zone's usual depth
    document = parse(
        tmp_path,
        [
            centred(700, 10.6, "EXAMPLE-TREE - Maximum likelihood analysis for nucleotide data", "bold"),
            centred(600, 8.8, "EXAMPLE-TREE Manual"),
            centred(589, 8.8, "Version 5.2 (July 2004)"),
            regular(140, 570, 8, "Copyright 2003-2004 by"),
            regular(248, 570, 8, "Anna Example, Boris Sample, and Carla Trial"),
            regular(140, 546, 8, "Copyright 1999-2003 by"),
            regular(248, 546, 8, "A. Example, B. Sample, D. Other, and C. Trial"),
            bold(134, 500, 8.8, "Anna Example"),
            regular(159, 488, 8.8, "Institute for Computing, Research Center Example, D-52425 Example, Germany."),
            bold(134, 472, 8.8, "Boris Sample"),
            regular(159, 460, 8.8, "Department of Statistics, University of Example, D-80539 Example, Germany."),
            bold(134, 444, 8.8, "Carla Trial"),
            regular(159, 432, 8.8, "Institute for Computing, Research Center Example, D-52425 Example, Germany."),
            bold(134, 400, 8.8, "Remarks:"),
            *_column(330, 8),
        ],
    )
    assert names(document) == ["Anna Example", "Boris Sample", "Carla Trial"]
    assert document.journal is None  # "EXAMPLE-TREE Manual Version 5.2 (July 2004)" is a version line


def test_a_reprints_first_published_note_names_the_journal() -> None:
    lines = [
        (1, "First published in TUGboat 43:1 (Example, 2022), pp. 28–39. Reprinted, with additions"),
        (1, "and corrections, with permission."),
        (1, "doi: 10.5300/2022-1-4/49 49"),
    ]
    assert find_journal(lines, {})[:2] == ("TUGboat", 2022)


def test_a_proceedings_name_alone_in_the_feet_with_its_year_in_two_digits() -> None:
    # TeX's acute accent for the apostrophe: "EuroTEX´99 Proceedings" at every page's foot
    lines = [(page, "EuroTEX´99 Proceedings") for page in (1, 2, 3)]
    assert find_journal(lines, {})[:2] == ("EuroTEX'99 Proceedings", 1999)
