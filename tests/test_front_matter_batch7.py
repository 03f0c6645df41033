"""Title pages of the seventh unseen batch: a vignette's citation of the paper it was published as.

The cases come from ``benchmarks/unseen_set.py`` batch 7 (R vignettes: a paragraph under the
abstract that prints the paper's own reference, its journal with its section after a comma; a
line above the abstract that says the vignette was published, over two lines of citation; a
book chapter's preprint, "In Editors (Eds.), Book title"; an affiliation known by its words, a
research unit or a German university's department). Each layout is drawn again with made-up
names, as the parser's lines or a PDF of real text (``tests/pdf_maker``); each was wrong before
its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.citation_lines import citation_lines
from paperpyramid.parsers.embedded.layout import Line, Page
from tests.test_front_matter_publishers import centred, regular
from tests.test_front_matter_vignettes import authors


def _line(text: str, top: float, x0: float = 72, size: float = 10) -> Line:
    return Line(text, 1, x0, top, x0 + 0.45 * size * len(text), top + size, size, False, False, "LMRoman10-Regular")


def _journal(*texts: str) -> tuple[str | None, int | None]:
    """(journal, year) from a first page of ``texts`` set one under the other in one column."""
    lines = [_line(text, 400 + 12 * index) for index, text in enumerate(texts)]
    page = Page(1, 612, 792, lines, sum(len(text) for text in texts), 0)
    return fm.find_journal(citation_lines([page]), {})[:2]


def test_a_paragraph_that_prints_the_papers_reference_over_three_lines_names_the_journal_and_section() -> None:
    # spam: jss.cls's "nojss" vignette, the published paper's reference under a line that says so
    found = _journal(
        "This document was published in a similar form in",
        "Example A, Dahl C (2015). “Invented Pitfalls in the Estimation of Example Rates: A Long",
        "Illustration Using Two Invented Models.” Journal of Invented Statistics, Code",
        "Snippets, 63(1), 1–32. URL http://www.example.org/v63/c01/.",
    )
    assert found == ("Journal of Invented Statistics, Code Snippets", 2015)


def test_a_line_that_says_the_vignette_was_published_previously_over_its_citation() -> None:
    # scatterplot3d: the cue runs over two lines, the citation over two more
    found = _journal(
        "Parts of this vignette have been published previously by the Journal of Invented",
        "Statistics:",
        "Example, A. and Dahl, C. (2003): Invented Plots – an R Package for Drawing Invented",
        "Example Data. Journal of Invented Statistics 8(11), 1–20.",
    )
    assert found == ("Journal of Invented Statistics", 2003)


def test_a_chapters_preprint_names_the_book_after_its_editors() -> None:
    # afex: "This is a preprint of:" over an APA reference to a chapter in an edited book
    found = _journal(
        "This is a preprint of:",
        "Example, A., & Dahl, C. (2019). An Introduction to Invented Models for Example Data. In",
        "E. Editor & F. Editor (Eds.), New Invented Methods in Example Science (pp. 4–31). Example",
        "Press.",
    )
    assert found == ("New Invented Methods in Example Science", 2019)


@pytest.mark.parametrize(
    "texts",
    [
        # an abstract's sentence: no citation after the cue
        ("This paper was published in the Journal of Invented Statistics, and it is kept here as it was.",),
        # a note without the authors, title or volume of its citation is no box (batch 7's msm: no journal)
        ("Much of the material in this manual is published, in a more concise form, in Journal of Invented",),
        # an author list after the cue is no journal with its section
        ("This document was published in a similar form in", "Example A, Dahl C (2015). An invented title. Example Press."),
    ],
)
def test_a_published_note_without_a_citation_names_no_journal(texts: tuple[str, ...]) -> None:
    assert _journal(*texts)[0] is None


@pytest.mark.parametrize(
    ("affiliation", "place"),
    [
        ("Example Biostatistics Unit", "Cambridge, U.K."),  # msm: the Medical Research Council's unit, no "Institute"
        ("Fachbereich Statistik", "Universität Exampleburg"),  # scatterplot3d: a German university's department
    ],
)
def test_an_affiliation_known_by_its_words_is_no_author(tmp_path: Path, affiliation: str, place: str) -> None:
    found = authors(
        tmp_path,
        centred(690, 10, "Anna Example"),
        centred(676, 10, affiliation),
        centred(662, 10, place),
        centred(648, 10, "anna.example@example.org"),
    )
    assert found == ["Anna Example"]


def test_two_names_over_two_columns_of_department_and_university(tmp_path: Path) -> None:
    # scatterplot3d: "A and B" centred, then each one's department, university and town side by side
    found = authors(
        tmp_path,
        centred(690, 12, "Anna Example and Carl Dahl"),
        regular(150, 672, 10, "Fachbereich Statistik"),
        regular(350, 672, 10, "Seminar für Statistik"),
        regular(150, 658, 10, "Universität Exampleburg"),
        regular(350, 658, 10, "ETH Zürich"),
    )
    assert found == ["Anna Example", "Carl Dahl"]


def test_a_cue_that_runs_on_into_its_citation_keeps_three_lines() -> None:
    # Chinese Medical Journal: the box's fourth line gives the abbreviation; the masthead gives the name and date
    lines = [
        _line("Invented Medical Journal ¦ July 20, 2017 ¦ Volume 130 ¦ Issue 14", 40),
        *(
            _line(text, 700 + 10 * index, x0=310)
            for index, text in enumerate(
                [
                    "How to cite this article: Example A, Dahl C. Invented Characteristics of",
                    "Example Cases with Invented Involvement of Various Kinds in a Long",
                    "Title Set Over Three Lines of the Box as Printed on the First Page of",
                    "the Paper. Inv Med J 2017;130:1683-8.",
                ]
            )
        ),
    ]
    page = Page(1, 612, 792, lines, 300, 0)
    assert fm.find_journal(citation_lines([page]), {}) == ("Invented Medical Journal", 2017, "July 20, 2017")
