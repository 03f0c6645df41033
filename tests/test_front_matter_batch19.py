"""Title pages of batch 19's misses (last stop's held-out set), drawn, each with a page that must
not be read so: a program's name over the document's kind alone, the kind in larger type
("LTRharvest" / "a manual"); a bold title at the text's size opening a software guide flush left
over names each over its institute ("PyCorrFit" / "FCS data evaluation"); a name run into its
school with no comma ("John C Nash Telfer School of Management, …"); a lab after a name ("Mike
Brown, Sandia National Labs, April 2007"); roles before groups of names ("Current Programmers:",
"Former Programmers:"); and a title's note that cites the book the paper appeared in, by its
editors ("… appeared in Automated Practical Reasoning: Algebraic Approaches (J. Pfalzgraf and D.
Wang, eds.), …")."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas
from paperpyramid.eval.latex_authors import latex_authors
from paperpyramid.parsers.embedded.author_names import split_names
from paperpyramid.parsers.embedded.journal import find_journal
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.title_pages import body, centred, write_page
from tests.unseen_pdfs import unseen_pdf

_ADDRESS = ("Research Group for Genome Informatics", "Center for Bioinformatics", "University of Hamburg", "20146 Hamburg, Germany")


def _program_over_kind(canvas: Canvas, name: str, kind: str) -> None:
    centred(canvas, 190, name, "Times-Italic", 18)
    centred(canvas, 215, kind, "Times-Roman", 18.5)  # the upright kind reads larger than the italic name
    for n, person in enumerate(("David Ellinghaus", "Sascha Steinbiss", "Stefan Kurtz", "Ute Willhoeft")):
        centred(canvas, 282 + 15 * n, person, "Times-Italic", 12.4)
    for n, line in enumerate(_ADDRESS):
        centred(canvas, 382 + 15 * n, line, "Times-Roman", 12.8)


def test_a_program_name_over_the_kind_alone_is_the_title(tmp_path: Path) -> None:
    canvas = Canvas(595, 842)
    _program_over_kind(canvas, "LTRharvest", "a manual")
    document = parse_pdf(write_page(tmp_path, canvas))
    assert document.title == "LTRharvest"
    assert [author.name for author in document.authors] == ["David Ellinghaus", "Sascha Steinbiss", "Stefan Kurtz", "Ute Willhoeft"]


def test_a_name_over_a_kind_under_a_larger_title_is_no_title(tmp_path: Path) -> None:
    # the page's title is set larger further down: the name over its kind is a series' banner
    canvas = Canvas(595, 842)
    centred(canvas, 120, "GenomeTools", "Times-Italic", 18)
    centred(canvas, 145, "a manual", "Times-Roman", 18.5)
    centred(canvas, 230, "Detecting Retrotransposons in Genomes", "Times-Bold", 24)
    centred(canvas, 270, "Ute Willhoeft", "Times-Roman", 12)
    body(canvas, 320)
    assert parse_pdf(write_page(tmp_path, canvas)).title == "Detecting Retrotransposons in Genomes"


def _guide(canvas: Canvas, under: tuple[tuple[str, str], ...]) -> None:
    canvas.text(77, 66, "PyCorrFit", "Times-Bold", 10.6)
    canvas.text(77, 79, "FCS data evaluation", "Times-Bold", 10.6)
    canvas.text(456, 80, "PyCorrFit", "Courier", 16)  # the logo beside the title
    canvas.text(77, 96, "Software Guide", "Times-Italic", 10.6)
    for n, (first, second) in enumerate(under):
        canvas.text(77, 124 + 44 * n, first, "Times-Roman", 10.6)
        canvas.text(77, 137 + 44 * n, second, "Times-Roman", 10.6)
    canvas.text(77, 214, "January 3, 2023", "Times-Roman", 10.6)
    canvas.text(71, 270, "Contents", "Times-Bold", 15.3)
    for n, entry in enumerate(("1.1 Preface", "1.2 System prerequisites", "1.3 Workflow", "1.4 Graphical user interface")):
        canvas.text(88, 300 + 14 * n, f"{entry} . . . . . . . . . . . . . . . . . . . . . . . . {3 + n}", "Times-Roman", 10.6)


def test_a_bold_title_at_the_margin_over_names_over_their_institutes(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _guide(
        canvas,
        (
            ("Thomas Weidemann", "Max Planck Institute of Biochemistry, Martinsried, Germany"),
            ("Paul Mueller", "Biotechnology Center of the TU Dresden, Germany"),
        ),
    )
    document = parse_pdf(write_page(tmp_path, canvas))
    assert document.title == "PyCorrFit FCS data evaluation"
    assert [author.name for author in document.authors] == ["Thomas Weidemann", "Paul Mueller"]


def test_a_bold_line_at_the_margin_over_prose_is_no_title_by_its_byline(tmp_path: Path) -> None:
    # the same page with prose under the bold lines, no name over an institute: nothing says title
    canvas = Canvas(612, 792)
    _guide(
        canvas,
        (
            ("The program fits correlation curves", "and the options below say which of them"),
            ("are reported and how the output lists", "their positions in the session's pages"),
        ),
    )
    assert parse_pdf(write_page(tmp_path, canvas)).title != "PyCorrFit FCS data evaluation"


@pytest.mark.parametrize(
    ("lines", "names", "leading"),
    [
        (("John C Nash Telfer School of Management, University of Ottawa, nashjc@uottawa.ca",), ["John C Nash"], 16),
        (("Mike Brown, Sandia National Labs, April 2007",), ["Mike Brown"], 16),
        # the words before the school's word are its name, no person's: an address block of its own under the name
        (("Anna Berg", "Harvard T H Chan School of Public Health, Boston, MA 02115, USA"), ["Anna Berg"], 35),
        (
            ("Current Programmers: Lennart Karssen1, Maarten Kooyman2,", "Yurii Aulchenko1,3", "Former Programmers: Maksim Struchalin"),
            ["Lennart Karssen", "Maarten Kooyman", "Yurii Aulchenko", "Maksim Struchalin"],
            16,
        ),
    ],
)
def test_bylines_of_batch_19(tmp_path: Path, lines: tuple[str, ...], names: list[str], leading: float) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 150, "Using the Updated Limited Memory Optimiser", "Times-Bold", 18)
    for n, line in enumerate(lines):
        centred(canvas, 190 + leading * n, line, "Times-Roman", 11)
    body(canvas, 280)
    assert [author.name for author in parse_pdf(write_page(tmp_path, canvas)).authors] == names


def test_a_name_set_close_is_parted_and_a_program_name_is_none() -> None:
    assert split_names("BinwuXu, PyCorrFit") == ["Binwu Xu"]


def test_a_title_note_citing_the_book_by_its_editors_gives_the_book_and_year() -> None:
    note = (
        "Basic Research Action 3125 (MEDLAR). A slightly revised version of this paper appeared in Automated Practical "
        "Reasoning: Algebraic Approaches (J. Pfalzgraf and D. Wang, eds.), Springer-Verlag, Wien-New York (1995), pp. 187-201."
    )
    assert find_journal([(1, note), (1, "York (1995), pp. 187-201.")], {})[:2] == (
        "Automated Practical Reasoning: Algebraic Approaches",
        1995,
    )
    # editors in brackets with no cue before the book are a reference's, not this paper's venue
    assert find_journal([(1, "Automated Practical Reasoning (J. Pfalzgraf and D. Wang, eds.), Springer, 1995.")], {})[0] is None


@pytest.mark.parametrize(
    ("name", "title", "authors"),
    [
        ("genometools-ltrharvest-manual.pdf", "LTRharvest", ["David Ellinghaus", "Sascha Steinbiss", "Stefan Kurtz", "Ute Willhoeft"]),
        ("pycorrfit-fcs-software-guide.pdf", "PyCorrFit FCS data evaluation", ["Thomas Weidemann", "Paul Müller"]),
        ("lbfgsb3c-lbfgsb-2011.pdf", None, ["John C Nash"]),
        ("lammps-gay-berne-ellipsoids.pdf", None, ["Mike Brown"]),
        ("probabel-manual.pdf", None, ["Lennart Karssen", "Maarten Kooyman", "Yurii Aulchenko", "Maksim Struchalin"]),
    ],
)
def test_batch_19_as_printed(name: str, title: str | None, authors: list[str]) -> None:
    document = parse_pdf(unseen_pdf(19, name))
    assert title is None or document.title == title
    assert [author.name for author in document.authors] == authors


# the review's counter-examples: each read wrong by a first version of the rules above


@pytest.mark.parametrize(
    "place",
    [
        "IBM T. J. Watson Research Center, Yorktown Heights, NY 10598",
        "Thomas J. Watson Research Center, Yorktown Heights, NY 10598",
        "George C. Marshall Space Flight Center, Huntsville, AL 35812",
    ],
)
def test_an_institute_named_after_a_person_under_a_byline_is_no_name(tmp_path: Path, place: str) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 150, "Using the Updated Limited Memory Optimiser", "Times-Bold", 18)
    centred(canvas, 190, "Anna Berg", "Times-Roman", 11)
    centred(canvas, 226, place, "Times-Roman", 11)  # a block of its own, in the names' type
    body(canvas, 300)
    assert [author.name for author in parse_pdf(write_page(tmp_path, canvas)).authors] == ["Anna Berg"]


def _foot(tmp_path: Path, lines: list[str]) -> Path:
    canvas = Canvas(612, 792)
    centred(canvas, 120, "Sparse Regression Models for Gene Expression Data", "Times-Bold", 18)
    centred(canvas, 155, "Anna Berg and Carl Dahl", "Times-Roman", 12)
    centred(canvas, 170, "University of Oslo", "Times-Roman", 11)
    body(canvas, 220, 30)
    for n, line in enumerate(lines):
        canvas.text(72, 650 + 10 * n, line, "Times-Roman", 8)
    return write_page(tmp_path, canvas)


@pytest.mark.parametrize(
    ("lines", "journal"),
    [
        # the paper's own citation under "Please cite as:" is read
        (
            [
                "Please cite as:",
                "Berg A, Dahl C (2019). Sparse regression models for gene expression data.",
                "Bioinformatics 35, 1234 (2019). doi:10.1093/bioinformatics/btz123",
            ],
            "Bioinformatics",
        ),
        # a request citing in its own sentence takes its line only: the journal's own foot under it is read
        (
            [
                "1 The package is available from CRAN; if you use it, please cite Berg (2018).",
                "BMC Bioinformatics 2019;20:123. doi:10.1186/s12859-019-2712-5",
            ],
            "BMC Bioinformatics",
        ),
        # a request for another paper, its citation under the colon: no journal of this paper
        (
            [
                "If you use this program, please cite the following paper:",
                "D. Ellinghaus, S. Kurtz, LTRharvest, an efficient and flexible software,",
                "BMC Bioinformatics 2008, 9:18",
            ],
            None,
        ),
    ],
)
def test_a_request_to_cite_another_paper_is_told_from_the_papers_own(tmp_path: Path, lines: list[str], journal: str | None) -> None:
    assert parse_pdf(_foot(tmp_path, lines)).journal == journal


def test_names_set_close_with_a_prefix_or_a_hyphen_and_labels_within_a_line() -> None:
    assert split_names("AnnaMcDonald, CarlDahl, AnnaBerg-Dahl") == ["Anna McDonald", "Carl Dahl", "Anna Berg-Dahl"]
    assert split_names("Anna Berg1, Carl Dahl2 Former Programmers: Eva Lund") == ["Anna Berg", "Carl Dahl", "Eva Lund"]
    assert "Carl Dahl Package" not in split_names("Anna Berg and Carl Dahl Package maintainer: Anna Berg")


def test_a_maintainer_under_the_byline_adds_no_name(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 150, "Using the Updated Limited Memory Optimiser", "Times-Bold", 18)
    centred(canvas, 190, "Anna Berg, Carl Dahl", "Times-Roman", 11)
    centred(canvas, 206, "Maintainer: Anna Berg", "Times-Roman", 11)
    body(canvas, 300)
    assert [author.name for author in parse_pdf(write_page(tmp_path, canvas)).authors] == ["Anna Berg", "Carl Dahl"]


def test_a_series_banner_over_its_kind_yields_to_a_short_title_in_larger_type(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 190, "GenomeTools", "Times-Bold", 18)
    centred(canvas, 215, "User's Guide", "Times-Roman", 18)
    centred(canvas, 280, "Prion Diseases", "Times-Bold", 28)
    centred(canvas, 330, "Anna Berg", "Times-Roman", 12)
    centred(canvas, 346, "University of Oslo", "Times-Roman", 12)
    body(canvas, 390)
    assert parse_pdf(write_page(tmp_path, canvas)).title == "Prion Diseases"


def test_the_latex_gold_reads_a_lab_under_the_name_as_no_author() -> None:
    # the scorer's gold: \author{Patrick Aboyoun \\ Gentleman Lab \\ Fred Hutchinson Cancer Research Center \\ Seattle, WA} (Biostrings)
    source = "\\author{Patrick Aboyoun \\\\\n  Gentleman Lab \\\\\n  Fred Hutchinson Cancer Research Center \\\\\n  Seattle, WA}"
    assert latex_authors(source) == ["Patrick Aboyoun"]
