"""Title pages, running feet and in-text markers of the sixth unseen batch and the second's templates.

The cases come from ``benchmarks/unseen_set.py`` batch 6 (R and Bioconductor vignettes: a
package's version under the title, names each followed by an e-mail in brackets, R's printed
output run into the prose with its "[1]" indices) and batch 2 (texlive-publishers-doc samples: a
foot in small capitals set in parts along its row, a proceedings' note after its editors, a
title's last words set apart on its row). Each layout is drawn again with made-up names, as a
PDF of real text (``tests/pdf_maker``) or as the parser's lines; each was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.citations.marker_patterns import numeric_brackets
from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Block as DocumentBlock
from paperpyramid.document import Document, Section
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.citation_lines import citation_lines
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.references import parse_reference
from tests.test_front_matter_publishers import body, centred, names, parse
from tests.test_front_matter_vignettes import TITLE, authors


@pytest.mark.parametrize(
    ("second", "title"),
    [
        ("Version 2.30.0", "Invented Package for Example Data"),  # qvalue: "\\title{… \\\\ Version \\Sexpr{…}}"
        ("(Version 1.0)", "Invented Package for Example Data (Version 1.0)"),  # a guide's own title (REVTeX's)
        ("with Worked Examples", "Invented Package for Example Data with Worked Examples"),
    ],
)
def test_a_version_line_under_the_title_is_not_part_of_it(tmp_path: Path, second: str, title: str) -> None:
    document = parse(
        tmp_path,
        [centred(720, 15, "Invented Package for Example Data"), centred(703, 15, second), centred(670, 10, "Anna Example"), *body(600)],
    )
    assert document.title == title


def test_names_each_followed_by_an_email_in_brackets_are_the_authors(tmp_path: Path) -> None:
    # NOISeq: "\\author{Sonia … (\\texttt{…@…}) \\\\ Pedro … (\\texttt{…}) …}": the address is no affiliation
    found = authors(
        tmp_path,
        centred(690, 10, "Anna Example (aexample@example.org)"),
        centred(676, 10, "Carl Dahl (cdahl@example.org)"),
        centred(662, 10, "Maria Jose Exemplo <mj.exemplo@example.edu>"),
    )
    assert found == ["Anna Example", "Carl Dahl", "Maria Jose Exemplo"]


def test_names_with_an_email_in_brackets_over_their_affiliations(tmp_path: Path) -> None:
    # article's \\author{Anna … (\\texttt{…}) \\\\ University … \\and Carl … (…) \\\\ Institute …}
    found = authors(
        tmp_path,
        centred(690, 10, "Anna Example (aexample@example.org)"),
        centred(678, 10, "University of Example, Example City"),
        centred(650, 10, "Carl Dahl (cdahl@example.org)"),
        centred(638, 10, "Institute of Invented Studies, Example Town"),
    )
    assert found == ["Anna Example", "Carl Dahl"]


def test_an_email_alone_under_a_name_is_still_its_address(tmp_path: Path) -> None:
    found = authors(tmp_path, centred(690, 10, "Anna Example"), centred(678, 10, "(aexample@example.org)"))
    assert found == ["Anna Example"]


def test_an_affiliation_with_its_email_still_ends_the_names(tmp_path: Path) -> None:
    found = authors(tmp_path, centred(690, 10, "Anna Example"), centred(676, 10, "University of Example (info@example.org)"))
    assert found == ["Anna Example"]


@pytest.mark.parametrize(
    "text",
    [
        'Biotypes detection is to be computed for: [1] "R1L1Kidney" "R1L2Liver" "R1L8Liver" [8] "R2L2Kidney"',
        'R1L1Kidney R1L2Liver 91.0 91.7 [1] -1.799 0.423 [1] "The percentage is not different."',
        "in this order: [1] 1 2",
        "LC_TIME=en_GB [4] LC_COLLATE=C [7] LC_PAPER=en_US.UTF-8",
        "other attached packages: [1] NOISeq_2.42.0 Matrix_1.5-1",
        "## [1] 44.34515 head(genewise_precision(d))",  # knitr's prefix before R's output
        "$genotypeParams$rn [1] 0.5 $genotypeParams$symmetric [1] TRUE",  # a list's element names over their values
    ],
)
def test_r_output_run_into_the_prose_is_no_citation(text: str) -> None:
    # R prints "[1]" before each line of a vector; the parser ran those lines on after the prose
    assert numeric_brackets(text) == []


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("The method [7] combines analysis of variance with a model.", ["[7]"]),
        ("In [3] 20 patients were followed for a year.", ["[3]"]),  # one number, then words: prose
        ("As shown in [8]: the bound holds, as in [2, 3].", ["[8]", "[2, 3]"]),
        ("We use the SpaCy library [27] en_core_web_sm model.", ["[27]"]),
        ("It costs $5 [3] and the tool ## is named as in [4].", ["[3]", "[4]"]),  # a name with underscores, no version
    ],
)
def test_citations_before_words_and_a_single_number_stay(text: str, cited: list[str]) -> None:
    assert [text[marker.start : marker.end] for marker in numeric_brackets(text)] == cited


def _line(text: str, x0: float, top: float, size: float, font: str = "URWPalladioL-Roma", page: int = 2) -> Line:
    return Line(text, page, x0, top, x0 + 0.5 * size * len(text), top + size, size, False, False, font)


def _page(number: int, *lines: Line) -> Page:
    return Page(number, 612, 792, list(lines), sum(len(line.text) for line in lines), 0)


def test_a_foot_in_small_capitals_set_in_parts_along_its_row_names_the_journal() -> None:
    # Philosophers' Imprint: "philosophers' imprint" left, the page's number, "vol. 100, no. 20 (january 2000)" right
    pages = [_page(1, _line("An Invented Mission Statement", 72, 100, 20, page=1))]
    for number in (2, 3):
        feet = [
            _line("philosophers’ imprint", 72, 749, 5.4, "TeXPalladioL-SC", number),
            _line(f"- {number} -", 300, 749, 7.9, "TeXPalladioL-SC", number),
            _line("vol. 100, no. 20 (january 2000)", 455, 749, 5.5, "TeXPalladioL-SC", number),
        ]
        pages.append(_page(number, *feet))
    assert fm.find_journal(citation_lines(pages), {})[:2] == ("Philosophers’ Imprint", 2000)


def test_a_masthead_name_in_display_type_is_not_read_with_the_small_volume_beside_it() -> None:
    head = [_line("Imprint", 72, 60, 33.8, page=1), _line("volume 100, no. 20", 272, 70, 5.4, "TeXPalladioL-SC", 1)]
    assert fm.find_journal(citation_lines([_page(1, *head)]), {})[0] is None


def test_a_proceedings_note_after_its_editors_outvotes_the_publisher_line() -> None:
    # llncsconf: the book the paper appears in, then its publisher and year on the next line
    note = "Anonymous et al. (eds). Proceedings of the International Conference on Invented Hacks, LNCS -42."
    publisher = "Some Publisher, 2016., pp. 42–45, 2022."
    lines = [(1, publisher), (1, note), (1, f"{note} {publisher}")]
    assert fm.find_journal(lines, {})[:2] == ("Proceedings of the International Conference on Invented Hacks", 2016)


def test_a_titles_last_words_set_apart_along_its_row_are_the_titles() -> None:
    # elsarticle's cas-dc: the text layer widens a space and the reading parts the line into two boxes
    page = _page(1)
    first = Block([_line("This is an invented specimen of a", 72, 60, 16, "CharisSIL", 1)])
    last = Block([_line("title⋆,⋆⋆", first.x1 + 5, 60, 16, "CharisSIL", 1)])
    byline = Block([_line("Anna Example, Carl Dahl", 72, 90, 11, "CharisSIL", 1)])
    blocks = [first, last, byline]
    members = fm.find_title(blocks, [page], 9.5)
    assert members == [0, 1]
    assert fm.title_text(blocks, members, {}) == "This is an invented specimen of a title"


def test_a_block_farther_off_beside_the_title_is_not_read_into_it() -> None:
    page = _page(1)
    title = Block([_line("This is an invented specimen title", 72, 60, 16, "CharisSIL", 1)])
    beside = Block([_line("Volume 3", title.x1 + 40, 60, 16, "CharisSIL", 1)])
    assert fm.find_title([title, beside], [page], 9.5) == [0]


def test_names_are_still_read_under_the_version(tmp_path: Path) -> None:
    document = parse(tmp_path, [TITLE, centred(703, 15, "Version 1.2.3"), centred(670, 10, "Anna Example and Carl Dahl"), *body(600)])
    assert document.title == "Fitting Invented Distributions to Example Data"
    assert names(document) == ["Anna Example", "Carl Dahl"]


def test_a_short_list_cited_in_brackets_is_not_read_as_superscripts() -> None:
    # TitanCNA: four entries, each cited "[n]"; "chr1, chr2, chr3" and "Subclone1" glue numbers to names
    entries = [
        "Greaves M, Maley CC. Clonal evolution in cancer. Nature. 2012;481:306-313.",
        "Ha G, Roth A, Khattra J. TITAN: inference of copy number architectures. Genome Res. 2014;24:1881-1893.",
        "Ha G, Roth A, Lai D. Integrative analysis of genome-wide loss of heterozygosity. Genome Res. 2012;22:1995-2007.",
        "Yau C, Mouradov D, Jorissen RN. A statistical approach for detecting genomic aberrations. Genome Biol. 2010;11:R92.",
    ]
    references = [parse_reference(raw) for raw in entries]
    for number, reference in enumerate(references, 1):
        reference.key = str(number)
    prose = "Clones expand in bursts [1]. The model is given [2], with ratios read as binomial [3] and normal cells [4]."
    names = "Chromosomes are named chr1, chr2, chr3 or chr4, and the columns Subclone1, Subclone2 and Subclone3 follow."
    document = Document(
        sections=[
            Section("Introduction", number="1", blocks=[DocumentBlock(prose, page=1), DocumentBlock(names, page=1)]),
            Section("References", number="ref", blocks=[DocumentBlock(raw, page=2, kind="list_item") for raw in entries]),
        ],
        references=references,
    )
    assert link_markers(document).style == "numeric"
    assert [prose[cite.start : cite.end] for cite in document.sections[0].blocks[0].cites] == ["[1]", "[2]", "[3]", "[4]"]
    assert document.sections[0].blocks[1].cites == []
