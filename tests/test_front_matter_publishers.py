"""Title pages in the layouts of publishers' LaTeX classes nobody here tuned for.

The cases come from an unseen set of publishers' sample articles and journal papers
(``benchmarks/unseen_set.py``: ACM, Elsevier, REVTeX, AIAA, JACoW, JPSJ, amsart, the Annals of
Mathematics, SPIE, Quantum, ...). Those PDFs are not redistributable, so each layout is drawn
here again, with made-up names, as a PDF of real text (``tests/pdf_maker``) that the parser
reads like any other; a rule on one line of text is checked on that line. Each was wrong
before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import author_names as an
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.retrieval.filters import year_of
from tests.pdf_maker import styled_pdf

Item = tuple[float, float, float, list[tuple[str, str]]]
BODY = [
    "The method described here was applied to three data sets collected over two years of field work,",
    "and the results were compared against the estimates that earlier studies reported for the same",
    "populations. Each estimate is given with its interval, and the differences are discussed below.",
]


def regular(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("regular", text)])


def bold(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("bold", text)])


def centred(y: float, size: float, text: str, style: str = "regular") -> Item:
    """A line centred on the US Letter page (Helvetica's mean advance is about half the size)."""
    return (306 - 0.25 * size * len(text), y, size, [(style, text)])


def body(top: float) -> list[Item]:
    return [bold(72, top, 10, "1 Introduction")] + [regular(72, top - 16 - 13 * i, 10, line) for i, line in enumerate(BODY)]


def parse(tmp_path: Path, *pages: list[Item]) -> Document:
    path = tmp_path / "paper.pdf"
    path.write_bytes(styled_pdf(list(pages)))
    return parse_pdf(path)


def names(document: Document) -> list[str]:
    return [author.name for author in document.authors]


def test_a_bold_title_at_body_size_centred_over_the_page_is_the_title(tmp_path: Path) -> None:
    # JPSJ, AASTeX and ASME conference styles set the title in bold hardly larger than the text
    document = parse(
        tmp_path,
        [
            regular(72, 740, 10, "Typeset with a journal class, full paper"),
            centred(700, 10, "Instructions for Preparing a Manuscript for", "bold"),
            centred(686, 10, "the Journal of Invented Physical Results", "bold"),
            centred(660, 10, "Hana Takeda and Ren Mori"),
            centred(646, 9, "Department of Physics, Example University, Tokyo 105-0011"),
            *body(600),
        ],
    )
    assert document.title == "Instructions for Preparing a Manuscript for the Journal of Invented Physical Results"
    assert names(document) == ["Hana Takeda", "Ren Mori"]


def test_a_footnote_letter_after_the_title_is_not_part_of_it(tmp_path: Path) -> None:
    # REVTeX marks a title footnote with "a)" set straight after the last word
    document = parse(
        tmp_path,
        [
            centred(720, 16, "Sample Title: with Forced Linebreaka)", "bold"),
            centred(690, 10, "Ann Example and Ben Sample"),
            centred(676, 8, "Department of Physics, Example University, Springfield 01234, USA"),
            *body(630),
        ],
    )
    assert document.title == "Sample Title: with Forced Linebreak"


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("A. Authorb) and B. Authorc)", ["A. Author", "B. Author"]),  # REVTeX: a letter and a parenthesis as marks
        ("A. Author,1, b) B. Author,1, c) and C. Author2, d)", ["A. Author", "B. Author", "C. Author"]),
        ("Anna A. Author1a and Barry B. Author2b", ["Anna A. Author", "Barry B. Author"]),  # SPIE: number and letter
        ("B.Benciolini", ["B. Benciolini"]),  # an initial set close to the name
        (
            "By Jane Example and Boris Sample, with appendix by Frodo Baggins and with afterword by Bilbo Baggins",
            ["Jane Example", "Boris Sample"],  # the Annals' byline: appendix authors are not the paper's
        ),
        ("Will Robertson, Address Adelaide", ["Will Robertson"]),  # a label, not a name
    ],
)
def test_names_with_the_marks_and_bylines_of_more_classes(printed: str, expected: list[str]) -> None:
    assert an.split_names(printed) == expected


def test_names_and_affiliations_set_in_turn_are_all_read(tmp_path: Path) -> None:
    # Elsevier, REVTeX, AIAA: a name, its address in smaller type, the next name, its address;
    # an address without an institution word is known by its postcode or country
    document = parse(
        tmp_path,
        [
            centred(720, 14, "A Specimen Title for a Test of Names"),
            centred(690, 9, "Jos Exampleton1"),
            centred(676, 7, "Example B.V., Radarweg 29, 1043 NX Amsterdam, The Netherlands"),
            centred(660, 9, "Ravi Samplekrishnan2"),
            centred(646, 7, "Sayahna Trust, JWRA 34, Jagathy, Trivandrum 695014, India"),
            centred(630, 9, "Carla Rajagopal1"),
            centred(616, 7, "Document Engineering Pvt Ltd., Malayinkil, Trivandrum 695571, India"),
            bold(72, 580, 9, "Abstract"),
            *body(560),
        ],
    )
    assert names(document) == ["Jos Exampleton", "Ravi Samplekrishnan", "Carla Rajagopal"]


def test_names_that_open_an_affiliations_line_are_read(tmp_path: Path) -> None:
    # JACoW and SAGEEP: "Name, Name, Institute, City, Country"; ACM's journals: "NAME IN CAPITALS, Affiliation, Country"
    jacow = parse(
        tmp_path,
        [
            centred(720, 16, "Preparation of Papers for Example Conferences", "bold"),
            centred(690, 11, "A. N. Author, H. Coauthor, Name of Institute or Affiliation, City, Country"),
            centred(677, 11, "P. Contributor"),
            centred(664, 11, "Name of Second Institute or Affiliation, City, Country"),
            bold(72, 630, 10, "Abstract"),
            *body(610),
        ],
    )
    assert names(jacow) == ["A. N. Author", "H. Coauthor", "P. Contributor"]
    acm = parse(
        tmp_path,
        [
            bold(72, 720, 14, "The Name of the Title Is Hope"),
            regular(72, 696, 9, "LARS THORVALD, The Thorvald Group, Iceland"),
            regular(72, 684, 9, "VALERIE BERANGER, Inria Paris-Rocquencourt, France"),
            *body(640),
        ],
    )
    assert names(acm) == ["Lars Thorvald", "Valerie Beranger"]


def test_the_front_matters_labelled_fields_end_the_names(tmp_path: Path) -> None:
    # AIAA sets a nomenclature under the names; ACM's CCS concepts and keywords follow them without an abstract heading
    document = parse(
        tmp_path,
        [
            centred(720, 15, "A Bare Template for Technical Conference Papers", "bold"),
            centred(694, 10.5, "First A. Author and Second B. Author"),
            centred(680, 9, "Business or Academic Affiliation, City, Province, Zipcode, Country"),
            centred(640, 10.5, "Nomenclature", "bold"),
            regular(72, 620, 9, "Jacobian Matrix"),
            regular(72, 608, 9, "Force Vector"),
            *body(570),
        ],
    )
    assert names(document) == ["First A. Author", "Second B. Author"]


def test_an_author_line_the_running_heads_repeat_is_still_the_authors(tmp_path: Path) -> None:
    # amsart: the author's name under the title is also the head of the even pages, so it is taken for page furniture
    first = [
        centred(700, 9, "QUANTILE METHODS FOR INVENTED DATA", "bold"),
        centred(676, 7, "JANE Q. DOE"),
        regular(72, 640, 9, "Abstract. " + BODY[0]),
        *body(600),
    ]
    later = [[centred(750, 7, "JANE Q. DOE"), *body(700)] for _ in range(3)]
    assert names(parse(tmp_path, first, *later)) == ["Jane Q. Doe"]


def test_a_masthead_under_another_columns_line_names_the_journal(tmp_path: Path) -> None:
    # "Archives of …" over "2014, Vol. 2, No. 1, 256–260", with the ISSN of the right-hand column between them
    document = parse(
        tmp_path,
        [
            regular(106, 700, 8, "Archives of Invented Psychology"),
            regular(300, 700, 8, "c 2014 Global Institute of Invented Psychology"),
            regular(425, 689, 8, "ISSN 2334-2749"),
            regular(106, 688, 8, "2014, Vol. 2, No. 1, 256-260"),
            centred(640, 14, "Unnecessarily Complicated Research Title"),
            centred(616, 10, "John Example"),
            centred(604, 8, "Department, University, City, State, Country"),
            *body(560),
        ],
    )
    assert (document.journal, year_of(document.date_published)) == ("Archives of Invented Psychology", 2014)


def test_journal_lines_of_more_classes() -> None:
    # TUGboat spells the volume out; Quantum's stamp gives the journal and the date accepted
    assert fm.find_journal([(page, "TUGboat, Volume 30 (2009), No. 1") for page in (1, 2)], {})[0] == "TUGboat"
    assert fm.find_journal([(1, "Accepted in Quantum 2017-05-09, click title to verify.")], {})[:2] == ("Quantum", 2017)


def test_lines_that_are_not_a_journal() -> None:
    # a vignette's version line, a draft's date, an author-year citation, an author's name over a date
    assert fm.find_journal([(1, "Version: June 28, 2019.")], {})[0] is None
    assert fm.find_journal([(1, "Draft of October 25, 2006")], {})[0] is None
    assert fm.find_journal([(1, "by Cameron and Trivedi (1998, 2005).")], {})[0] is None
    assert fm.find_journal([(1, "Cameron and Trivedi (1998, 2005).")], {})[0] is None
    assert fm.find_journal([(1, "1 Kuhn, Feb. 14, 2013")], {}, frozenset({"kuhn"}))[0] is None


def test_a_doi_printed_inside_a_latex_command_loses_the_braces() -> None:
    assert fm.find_doi("see \\doi{10.1115/1.4042912}} for the paper", {}) == "10.1115/1.4042912"


def test_a_conference_head_over_the_first_page_names_the_proceedings_and_year(tmp_path: Path) -> None:
    # ASME and PRTEC: the proceedings' title over two lines, the paper's number, the meeting's days; a later copyright year
    document = parse(
        tmp_path,
        [
            centred(760, 8.5, "Proceedings of the Example Society 2023", "bold"),
            centred(749, 8.5, "International Invented Engineering Congress and Exposition", "bold"),
            centred(738, 8.5, "IIECE2023", "bold"),
            centred(727, 8.5, "October 29-November 2, 2023, New Orleans, LA", "bold"),
            centred(690, 14, "A Template for Example Conference Papers", "bold"),
            centred(664, 9, "John H. Example and Maria Sample"),
            centred(652, 8, "Example Institute of Technology, Cambridge, MA 02139, USA"),
            *body(610),
            regular(72, 40, 8, "Copyright (c) 2022 by the Example Society"),
        ],
    )
    assert (document.journal, year_of(document.date_published)) == (
        "Proceedings of the Example Society 2023 International Invented Engineering Congress and Exposition",
        2023,
    )


def test_author_boxes_in_rows_give_every_name_and_no_institution(tmp_path: Path) -> None:
    # ACM's conference style: names in boxes side by side, each over its institution, place and e-mail, in two rows
    boxes = [
        (90, "Ben Example", ["Institute for Clarity", "Dublin, Ohio, USA"]),
        (250, "Lars Sample", ["The Sample Group", "Hekla, Iceland"]),
        (410, "Julius P. Kumquat", ["The Kumquat Consortium", "New York, USA"]),
    ]
    first: list[Item] = [centred(720, 16, "The Name of the Title Is Hope", "bold")]
    for row, top in enumerate((690, 630)):
        for x, name, lines in boxes:
            first.append(regular(x, top, 11, name if row == 0 else name.replace("Example", "Second").replace("Sample", "Third")))
            first += [regular(x, top - 13 - 11 * i, 9, line) for i, line in enumerate(lines)]
    first += [bold(72, 560, 10, "ABSTRACT"), *body(540)]
    assert names(parse(tmp_path, first)) == [
        "Ben Example",
        "Lars Sample",
        "Julius P. Kumquat",
        "Ben Second",
        "Lars Third",
        "Julius P. Kumquat",
    ]


def test_a_row_of_affiliations_in_the_names_type_is_not_more_names(tmp_path: Path) -> None:
    # JSS: a row of names, then a row of their institutions in the same type, one of them without an institution word
    document = parse(
        tmp_path,
        [
            centred(720, 15, "Model-Based Recursive Partitioning in Practice", "bold"),
            regular(110, 690, 11, "Achim Example"),
            regular(250, 690, 11, "Torsten Sample"),
            regular(400, 690, 11, "Kurt Instance"),
            regular(110, 676, 11, "Universitat Innsbruck"),
            regular(250, 676, 11, "Ludwig-Maximilians-Universitat"),
            regular(400, 676, 11, "WU Wirtschafts-"),
            regular(400, 662, 11, "universitat Wien"),
            bold(290, 630, 9, "Abstract"),
            *body(600),
        ],
    )
    assert names(document) == ["Achim Example", "Torsten Sample", "Kurt Instance"]
