"""Title pages of papers set with LaTeX's ``article``, jss.cls and elsarticle as R vignettes.

The cases come from the fourth unseen set (``benchmarks/unseen_set.py``, batch 4: papers shipped
as vignettes, some accepted or published in a journal since). Each layout is drawn again with
made-up names as a PDF of real text (``tests/pdf_maker``), as in
``tests/test_front_matter_layouts.py``; a rule on one line of text is checked on that line. Each
was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import front_matter as fm
from tests.test_front_matter_publishers import Item, body, bold, centred, names, parse, regular

TITLE = centred(720, 15, "Fitting Invented Distributions to Example Data")


def authors(tmp_path: Path, *lines: Item, top: float = 600) -> list[str]:
    """The authors read from a title page with ``lines`` between the title and the first heading."""
    return names(parse(tmp_path, [TITLE, *lines, *body(top)]))


@pytest.mark.parametrize(
    "line",
    [
        "∗Paper accepted in the Journal of Invented Statistics",  # a \thanks note on the date
        "1This vignette corresponds to a paper published in Journal of Invented Statistics. It is kept as it was.",
        "This article has been accepted for publication in the Journal of Invented Statistics.",
    ],
)
def test_a_footnote_that_names_the_journal_alone(line: str) -> None:
    # no citation's numbers follow the name, and the cue comes after the note's mark or its first words
    assert fm.find_journal([(1, line)], {})[0] == "Journal of Invented Statistics"


@pytest.mark.parametrize(
    "line",
    [
        "1This vignette corresponds to a paper published in Computational Statistics and Data",  # cut where it wraps
        "As a paper published in Nature Genetics shows, the method is sound.",  # the text's sentence, not a note
        "∗Paper accepted in the Journal of Invented Statistics",  # on a later page: a reference's
    ],
)
def test_a_footnote_name_cut_at_the_line_or_in_the_text_is_none(line: str) -> None:
    page = 2 if line.startswith("∗") else 1
    assert fm.find_journal([(page, line)], {})[0] is None


def test_a_footnote_that_wraps_under_its_indented_first_line_names_the_journal(tmp_path: Path) -> None:
    # TeX indents a footnote's first line after its mark: the two lines are read together
    document = parse(
        tmp_path,
        [
            TITLE,
            centred(690, 10, "Anna Example"),
            *body(600),
            regular(84, 100, 8, "1This vignette corresponds to a paper published in Computational Statistics and Data"),
            regular(72, 90, 8, "Analysis. Currently still identical to the paper, it may change over time."),
        ],
    )
    assert document.journal == "Computational Statistics and Data Analysis"


def test_a_foot_with_the_volume_and_issue_but_no_year() -> None:
    # The R Journal: "The R Journal Vol. 6/1, June" over "ISSN 2073-4859", whose digits are no year
    feet = [(page, "The R Journal Vol. 6/1, June ISSN 2073-4859") for page in (2, 3, 4)]
    assert fm.find_journal(feet, {}) == ("The R Journal", None, None)


def test_a_footnote_number_after_the_title_is_not_part_of_it(tmp_path: Path) -> None:
    # elsarticle: the \tnoteref's number glued to the last word, its note at the page's foot
    document = parse(
        tmp_path,
        [
            centred(720, 14, "Accelerating a Language with Linear Algebra1"),
            centred(690, 10, "Anna Example"),
            *body(600),
            regular(84, 100, 8, "1This vignette corresponds to a paper published elsewhere."),
        ],
    )
    assert document.title == "Accelerating a Language with Linear Algebra"


def test_a_title_that_ends_in_its_own_number_keeps_it(tmp_path: Path) -> None:
    document = parse(tmp_path, [centred(720, 14, "Migrating Invented Packages to Python3"), centred(690, 10, "Anna Example"), *body(600)])
    assert document.title == "Migrating Invented Packages to Python3"


def test_letter_keys_before_an_acronym_or_a_web_address(tmp_path: Path) -> None:
    # elsarticle: "aDebian Project, http://…" (no institution word), "bNICTA, PO Box …" (an acronym)
    lines = [
        centred(690, 10, "Dirk Examplea, Conrad Sampleb,c"),
        centred(674, 7, "aDebian Project, http://www.debian.org"),
        centred(664, 7, "bNICTA, PO Box 6020, St Lucia, QLD 4067, Australia"),
        centred(654, 7, "cQueensland University of Technology, Brisbane, QLD 4000, Australia"),
    ]
    assert authors(tmp_path, *lines) == ["Dirk Example", "Conrad Sample"]


def test_a_numbered_introduction_ends_the_names(tmp_path: Path) -> None:
    # article: no abstract; the first subsection's heading is in the name's type
    lines = [centred(690, 10.6, "Charles J. Example"), centred(670, 10.6, "March 20, 2020")]
    text = [
        regular(72, 604, 10, "Let M be a finite or countable set of models and for each model m in the set"),
        regular(72, 591, 10, "we have a prior on the parameters within it, which must be a normalized proper prior:"),
        centred(570, 10, "g(t | m), t in T"),
    ]
    page = [TITLE, *lines, bold(72, 640, 12.7, "1 Introduction"), bold(72, 620, 10.6, "1.1 Invented Factors"), *text]
    assert names(parse(tmp_path, page)) == ["Charles J. Example"]


def test_names_and_affiliations_stacked_in_turn(tmp_path: Path) -> None:
    # article's \author{A \\ Univ. X \and B \\ Univ. Y}, read as one block of four lines
    lines = [
        centred(690, 10.6, "Marie Laure Example-Muller"),
        centred(677, 10.6, "Université de Lyon"),
        centred(664, 10.6, "Christophe Sample"),
        centred(651, 10.6, "Université de Strasbourg"),
    ]
    assert authors(tmp_path, *lines) == ["Marie Laure Example-Muller", "Christophe Sample"]


def test_an_institutions_acronym_under_a_name_is_its_affiliation(tmp_path: Path) -> None:
    # no institution word: "ENSIMAG, Grenoble INP" under the first name
    lines = [
        centred(690, 12.7, "Christophe Example"),
        centred(676, 12.7, "ENSIMAG, Grenoble INP"),
        centred(650, 12.7, "Vincent Sample"),
        centred(636, 12.7, "École d’actuariat, Université Laval"),
    ]
    assert authors(tmp_path, *lines) == ["Christophe Example", "Vincent Sample"]


def test_an_affiliations_second_line_under_bold_names_is_no_name(tmp_path: Path) -> None:
    # jss.cls: three bold names across, each over its roman affiliation; the third wraps to "Los Angeles"
    lines = [
        bold(105, 690, 10.8, "Dirk Example"),
        bold(257, 690, 10.8, "Murray Sample"),
        bold(410, 690, 10.8, "Jeroen Specimen"),
        regular(122, 677, 10.9, "Debian Project"),
        regular(276, 677, 10.9, "Google, Inc"),
        regular(391, 677, 10.9, "University of California,"),
        regular(420, 664, 10.9, "Los Angeles"),
        bold(280, 630, 7, "Abstract"),
    ]
    assert authors(tmp_path, *lines) == ["Dirk Example", "Murray Sample", "Jeroen Specimen"]
