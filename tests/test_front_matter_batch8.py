"""Title pages of the eighth unseen batch: a masthead's issue line beside its DOI, a title's note
on the version published before, a report's kind under the names, an institution that signs.

The cases come from ``benchmarks/unseen_set.py`` batch 8 (jss.cls since 2014: the DOI at the
right of the issue line's row, a little higher; a \\thanks note "An earlier version of this
paper appeared in Journal …, Vol. 14, No. 3 (May 2005)"; a DTU technical report's "TECHNICAL
REPORT" over its number under the author; an agency's package methodology signed by the agency
alone over the date; batch 2's masthead of the journal's name alone). With them, conventions of
real journals' first pages that no set held yet and that were read wrong (issue 32): marks as
superscript characters, Wiley's bars between names, degrees after names, Taylor & Francis's cover
page, Oxford's masthead over its copyright, IMS's volume line, MDPI's citation box after a title in
capitals, a repository's "Recommended Citation", Elsevier's accepted manuscript. Each layout is
drawn again with made-up names, as the parser's lines or a PDF of real text (``tests/pdf_maker``);
each was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.author_names import split_names
from paperpyramid.parsers.embedded.citation_lines import citation_lines
from paperpyramid.parsers.embedded.layout import Line, Page
from tests.test_front_matter_publishers import centred
from tests.test_front_matter_signers import page
from tests.test_front_matter_vignettes import authors


def _line(text: str, top: float, x0: float, size: float) -> Line:
    return Line(text, 1, x0, top, x0 + 0.45 * size * len(text), top + size, size, False, False, "CMR10")


def test_a_mastheads_issue_line_beside_its_doi_gives_the_year() -> None:
    # jss-powerlaw: the DOI, set a little higher at the row's right, was read with the name alone
    lines = [
        _line("Journal of Invented Software", 95.5, 202, 27.9),
        _line("JIS", 112.1, 81, 9.8),
        _line("doi: 10.18637/jis.v000.i00", 130.0, 410, 8.8),
        _line("February 2015, Volume 64, Issue 2.", 130.5, 187, 8.8),
        _line("Fitting Invented Distributions: The example Package", 222, 90, 15.3),
    ]
    found = fm.find_journal(citation_lines([Page(1, 595, 842, lines, 300, 0)]), {})[:2]
    assert found == ("Journal of Invented Software", 2015)


@pytest.mark.parametrize(
    ("line", "journal", "year"),
    [
        # mnp: the title's \thanks note, the citation's numbers after the name
        (
            "∗An earlier version of this paper appeared in Journal of Invented Software, Vol. 14, No. 3 (May 2005), pp.1–32. We",
            "Journal of Invented Software",
            2005,
        ),
        ("1A preliminary version of this article was published in Invented Letters 12, 345–350 (2019).", "Invented Letters", 2019),
    ],
)
def test_a_note_on_the_version_published_before_names_its_journal(line: str, journal: str, year: int) -> None:
    assert fm.find_journal([(1, line)], {})[:2] == (journal, year)


def test_a_note_on_an_earlier_version_without_a_citation_names_no_journal() -> None:
    assert fm.find_journal([(1, "An earlier version of this paper appeared in my thesis, which was never published.")], {})[0] is None


@pytest.mark.parametrize("kind", ["TECHNICAL REPORT", "Working Paper", "Master's Thesis", "Research Report"])
def test_a_reports_kind_under_the_name_is_no_author(tmp_path: Path, kind: str) -> None:
    # ucminf: "Hans Bruun Nielsen" / "TECHNICAL REPORT" / "IMM-REP-2000-19" under the title
    found = authors(tmp_path, centred(690, 12, "Anna Example"), centred(660, 10, kind), centred(646, 10, "ABC-REP-2000-19"))
    assert found == ["Anna Example"]


def test_an_agency_alone_under_the_title_signs_the_document(tmp_path: Path) -> None:
    # seroincidence: the agency's whole name with its acronym where the names go, the date under it
    lines = [centred(690, 12, "European Centre for Invented Prevention and Control (ECIPC)"), centred(672, 12, "2018-06-05")]
    assert page(tmp_path, *lines) == ["European Centre for Invented Prevention and Control (ECIPC)"]


@pytest.mark.parametrize(
    "line",
    [
        "Department of Invented Statistics",  # a unit alone: the affiliation of names not read
        "Invented University, Exampleton, 12345",  # an address
    ],
)
def test_an_affiliation_alone_under_the_title_signs_nothing(tmp_path: Path, line: str) -> None:
    assert page(tmp_path, centred(690, 12, line), centred(672, 12, "2018-06-05")) == []


@pytest.mark.parametrize(
    ("line", "names"),
    [
        # a word processor's marks as superscript characters
        ("Anna Berg¹², Carl Dahl³*", ["Anna Berg", "Carl Dahl"]),
        ("Anna Bergᵃ, Carl Dahlᵇ", ["Anna Berg", "Carl Dahl"]),
        # Wiley's byline since 2018: a bar between the names
        ("Anna Berg1 | Carl Dahl2 | Eva Lund1,3", ["Anna Berg", "Carl Dahl", "Eva Lund"]),
        # The Lancet, medical journals: degrees after each name, with or without a comma
        ("Prof Anna Berg PhD, Carl Dahl MBBS FRCP", ["Anna Berg", "Carl Dahl"]),
        ("Anna Berg, MD, PhD; Carl Dahl, MD PhD", ["Anna Berg", "Carl Dahl"]),
        ("ANNA BERG M.D. AND CARL DAHL PH.D.", ["Anna Berg", "Carl Dahl"]),
    ],
)
def test_marks_separators_and_degrees_are_no_part_of_a_name(line: str, names: list[str]) -> None:
    assert split_names(line) == names


def test_a_surnames_initials_are_no_degree() -> None:
    # Vancouver's "Berg MD": the name alone would be one word, so "MD" is its initials
    assert [name.split()[0] for name in split_names("Berg MD, Dahl C")] == ["Berg", "Dahl"]


@pytest.mark.parametrize(
    ("line", "journal", "year"),
    [
        # Taylor & Francis's cover page: the journal after the title's comma, its volume:issue and pages
        (
            "To cite this article: Anna Berg & Carl Dahl (2019) An Invented Title, With Commas, Journal of Invented "
            "Statistics, 28:1, 1-12, DOI: 10.1080/10618600.2018.1234567",
            "Journal of Invented Statistics",
            2019,
        ),
        # and its masthead's name over the ISSN: no year
        (
            "Journal of Invented Statistics ISSN: 1061-8600 (Print) 1537-2715 (Online) Journal homepage: https://www.example.org",
            "Journal of Invented Statistics",
            None,
        ),
        # Oxford: the name over its copyright line
        (
            "Invented Journal of Epidemiology © The Author(s) 2019. Published by Invented University Press on behalf of",
            "Invented Journal of Epidemiology",
            2019,
        ),
        # ASME's foot: the name over "Copyright ©", which is no part of it
        ("Invented Journal of Heat Transfer Copyright © 2022 by ABCD", "Invented Journal of Heat Transfer", 2022),
        # IMS: the name wrapped onto its volume line is read without the volume's word
        ("Electronic Journal of Invented Statistics Vol. 13 (2019) 1–30", "Electronic Journal of Invented Statistics", 2019),
        # Taylor & Francis: a journal's section after an em dash
        (
            "COMMUNICATIONS IN INVENTED STATISTICS—THEORY AND METHODS 2019, VOL. 48, NO. 5, 1234–1245",
            "Communications in Invented Statistics—Theory and Methods",
            2019,
        ),
    ],
)
def test_mastheads_and_cover_pages_name_the_journal(line: str, journal: str, year: int | None) -> None:
    assert fm.find_journal([(1, line)], {})[:2] == (journal, year)


@pytest.mark.parametrize(
    "line",
    [
        "Anna Berg © 2019",  # a byline's copyright names no journal: no journal's shape before it
        "The results, Figure 2, 28:1, 1-12, see below",  # a comma's run of numbers in the text, no DOI after
        "J. No. ABCD 21.12.2000",  # ucminf: a report's file note over its date in European numbers
    ],
)
def test_lines_like_mastheads_name_no_journal(line: str) -> None:
    assert fm.find_journal([(1, line)], {})[0] is None


def test_a_boxed_citations_journal_without_the_title_in_capitals_before_it() -> None:
    # MDPI since 2020: the title in capitalised words runs into the journal's name after its full stop;
    # the running foot names the journal alone
    lines = [
        (1, "Citation: Berg, A.; Dahl, C. An Invented Title of the Study. Nutrients 2021, 13, 1234. https://doi.org/10.3390/nu13041234"),
        (1, "Nutrients 2021, 13, 1234. https://doi.org/10.3390/nu13041234"),
        (2, "Nutrients 2021, 13, 1234 2 of 12"),
    ]
    assert fm.find_journal(lines, {})[:2] == ("Nutrients", 2021)


@pytest.mark.parametrize("quote", ['"', "”"])
def test_a_repositorys_recommended_citation_names_the_journal(quote: str) -> None:
    # bepress's cover page: the cue on a line of its own, the title quoted with its comma, "Journal: Vol. 5 : Iss. 2"
    box = f'Recommended Citation Berg, Anna and Dahl, Carl (2019) "An Invented Title,{quote} Journal of Invented Studies: Vol. 5 : Iss. 2 , Article 3.'
    assert fm.find_journal([(1, box)], {})[:2] == ("Journal of Invented Studies", 2019)


def test_an_accepted_manuscripts_cover_names_the_journal_and_year() -> None:
    # Elsevier's accepted manuscript: the journal on its own label, the years received and accepted labelled "Date"
    lines = [(1, "To appear in: Journal of Invented Hydrology"), (1, "Received Date: 12 March 2017"), (1, "Accepted Date: 5 May 2018")]
    assert fm.find_journal(lines, {})[:2] == ("Journal of Invented Hydrology", 2018)


def test_an_accepted_manuscripts_citation_names_the_journal_before_its_volume() -> None:
    box = "Please cite this article as: A. Berg, C. Dahl, An invented title, Journal of Invented Hydrology (2018), doi: https://doi.org/10.1016/j.x.2018.01.001"
    assert fm.find_journal([(1, box)], {})[:2] == ("Journal of Invented Hydrology", 2018)


def test_a_recommended_citation_over_its_lines_is_read_as_a_box() -> None:
    # bepress's cover page: the cue alone in bold, the citation set over two lines under it
    lines = [
        _line("Recommended Citation", 400, 72, 10),
        _line('Berg, Anna and Dahl, Carl (2019) "An Invented Title of Some Length," Journal of Invented', 412, 72, 10),
        _line("Studies: Vol. 5 : Iss. 2 , Article 3.", 424, 72, 10),
    ]
    found = fm.find_journal(citation_lines([Page(1, 612, 792, lines, 300, 0)]), {})[:2]
    assert found == ("Journal of Invented Studies", 2019)


def test_a_journals_name_alone_over_the_first_page_is_its_masthead() -> None:
    # nwejm (batch 2): the name over the logo's letters, no volume, no citation line anywhere
    lines = [(1, "W"), (1, "North-Western Invented Journal of Mathematics"), (1, "An Invented Title"), (2, "A. Berg and C. Dahl")]
    assert fm.find_journal(lines, {})[:2] == ("North-Western Invented Journal of Mathematics", None)


@pytest.mark.parametrize(
    "lines",
    [
        [(1, "Advances in Invented Learning for Imaging"), (1, "Anna Berg")],  # a title in capitals with a journal's word
        [(1, "An Invented Title"), (1, "Journal of Invented Studies")],  # not the first line
    ],
)
def test_a_first_line_without_the_word_journal_is_no_masthead(lines: list[tuple[int, str]]) -> None:
    assert fm.find_journal(lines, {})[0] is None
