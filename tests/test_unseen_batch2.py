"""Rules prompted by the second batch of the unseen set (``benchmarks/unseen_set.py``, notes
"batch 2": LNCS, AGU, REVTeX 4.1 guides, MNRAS, PMLR, ...), measured before any of them.

Those PDFs are not redistributable, so each layout is drawn here again (``tests/pdf_maker``) or
its lines are built by hand; each case was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.eval.gold import load_latex
from paperpyramid.eval.latex_authors import latex_authors
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.reading_order import furniture_keys, line_key
from tests.pdf_maker import styled_pdf

PROSE = (
    "Copy the class file to a directory that is searched by the typesetting system, either your",
    "own tree or the local work directory with your main file, and run it once to check the setup.",
)


def _line(text: str, page: int, top: float, size: float = 9.0) -> Line:
    return Line(
        text=text,
        page=page,
        x0=72,
        top=top,
        x1=72 + 4.5 * len(text),
        bottom=top + 1.4 * size,
        size=size,
        bold=False,
        italic=True,
        font="CMSL10",
    )


def _pages(head_pages: set[int], count: int = 6) -> list[Page]:
    pages = []
    for number in range(1, count + 1):
        lines = [_line(f"Body text of page {number} starts here and goes on", number, 95.0, 10.0)]
        if number in head_pages:
            # a running head whose lowered letters (TeX's logo) take its box out of the top 8.5 %
            lines.append(_line("An Extension to the Class", number, 72.5))
        pages.append(Page(number=number, width=612, height=842, lines=lines, n_chars=400, n_images=0))
    return pages


def test_a_running_head_set_low_on_the_same_baseline_of_three_pages_is_furniture() -> None:
    # AGU++: "AGU++: an Extension to AGUTEX" on the odd pages, 72.5 to 85 pt down an 842 pt page
    assert line_key("An Extension to the Class") in furniture_keys(_pages({3, 5, 7, 9}, count=10))


def test_a_line_below_the_narrow_band_on_two_pages_only_is_not_furniture() -> None:
    # twice in one place is not enough out of the narrow band: a heading at the top of two pages
    assert line_key("An Extension to the Class") not in furniture_keys(_pages({3, 5}, count=10))


def test_a_numbered_section_under_the_title_ends_the_names(tmp_path: Path) -> None:
    # Springer's llncs guide: title, a version line, then "1 Installation" and its text; the
    # subsection "2.1 General Information" further down is no author
    page = [
        (150, 700, 14, [("bold", "Instructions for Using the Class for Proceedings Papers")]),
        (230, 680, 10, [("regular", "Version 2.22, Sep 05, 2022")]),
        (72, 640, 12, [("bold", "1 Installation")]),
        *[(72, 622 - 13 * i, 10, [("regular", line)]) for i, line in enumerate(PROSE)],
        (72, 580, 12, [("bold", "2 Working with the Document Class")]),
        (72, 560, 10, [("bold", "2.1 General Information")]),
        *[(72, 542 - 13 * i, 10, [("regular", line)]) for i, line in enumerate(PROSE)],
    ]
    path = tmp_path / "guide.pdf"
    path.write_bytes(styled_pdf([page]))
    document = parse_pdf(path)
    assert document.title == "Instructions for Using the Class for Proceedings Papers"
    assert [author.name for author in document.authors] == []


# ----------------------------------------------------------------------------- the LaTeX gold


def test_the_gold_reads_an_address_line_in_the_author_block_as_no_author() -> None:
    # MNRAS and IMAC put the address in the one \author block: "Burlington House" is a building
    source = (
        "\\begin{document}\\author{Keith T. Smith$^{1}$\\\\ $^{1}$Royal Astronomical Society, Burlington House, Piccadilly, UK}"
        "\\author{\\textbf{Joseph C. Slater}\\\\ Department of Mechanical and Materials Engineering \\\\ Colonel Glenn Highway}"
    )
    assert latex_authors(source.split("\\author{\\textbf")[0]) == ["Keith T. Smith"]
    assert latex_authors("\\begin{document}\\author{\\textbf" + source.split("\\author{\\textbf")[1]) == ["Joseph C. Slater"]


def test_the_gold_prints_revtex_logo_and_smfart_subsections(tmp_path: Path) -> None:
    tex = tmp_path / "guide.tex"
    tex.write_text(
        "\\documentclass{smfart}\\title{Author's Guide to AIP Substyles for \\revtex~4.1}\\begin{document}\\maketitle\n"
        "\\section{Typographical hygiene}\nText.\n\\Subsection{Punctuation marks}\nMore text.\n\\end{document}\n",
        encoding="utf-8",
    )
    gold = load_latex(tex)
    assert gold.title == "Author's Guide to AIP Substyles for REVTeX 4.1"
    assert gold.section_titles == ["Typographical hygiene", "Punctuation marks"]


def test_a_display_title_whose_wide_leading_parts_its_lines_is_read_whole(tmp_path: Path) -> None:
    # Philosophers' Imprint: the title in 28 pt capitals over three lines 55 pt apart, each read
    # as a block of its own and too short alone; the italic line under it signs the paper
    page = [
        (110, 640, 28, [("regular", "PHILOSOPHERS")]),
        (95, 585, 28, [("regular", "IMPRINT MISSION")]),
        (130, 530, 28, [("regular", "STATEMENT")]),
        (80, 480, 18, [("italic", "Journal Editorial Board")]),
        (140, 440, 11, [("italic", "University of Michigan")]),
        *[(72, 380 - 13 * i, 10, [("regular", line)]) for i, line in enumerate(PROSE * 3)],
    ]
    path = tmp_path / "statement.pdf"
    path.write_bytes(styled_pdf([page]))
    assert parse_pdf(path).title == "PHILOSOPHERS IMPRINT MISSION STATEMENT"


def test_a_label_over_a_one_line_title_is_not_part_of_it(tmp_path: Path) -> None:
    # Hindawi: "Research Article" in the title's type right over it; the title alone is a title
    page = [
        (51, 640, 17, [("italic", "Research Article")]),
        (51, 616, 17, [("regular", "Patient Experiences of Structured Heart Failure Programmes")]),
        (87, 570, 11, [("regular", "Nuala E. Tully and Karen M. Morgan")]),
        *[(72, 500 - 13 * i, 10, [("regular", line)]) for i, line in enumerate(PROSE * 3)],
    ]
    path = tmp_path / "hindawi.pdf"
    path.write_bytes(styled_pdf([page]))
    assert parse_pdf(path).title == "Patient Experiences of Structured Heart Failure Programmes"


def test_a_figures_large_labels_under_the_title_are_not_the_title(tmp_path: Path) -> None:
    # SciFact: a teaser figure on the first page labels its boxes in type larger than the title's
    page = [
        (150, 720, 13, [("bold", "Fact or Fiction: Verifying Scientific Claims")]),
        (200, 690, 11, [("regular", "David Wadden and Kyle Lo")]),
        *[(72, 650 - 13 * i, 10, [("regular", line)]) for i, line in enumerate(PROSE * 2)],
        (330, 560, 16, [("regular", "Fact-checker")]),
        (320, 526, 16, [("regular", "Decision: REFUTES")]),
        *[(72, 480 - 13 * i, 10, [("regular", line)]) for i, line in enumerate(PROSE * 2)],
    ]
    path = tmp_path / "teaser.pdf"
    path.write_bytes(styled_pdf([page]))
    assert parse_pdf(path).title == "Fact or Fiction: Verifying Scientific Claims"


def test_an_unnumbered_nomenclature_among_numbered_sections_is_a_section(tmp_path: Path) -> None:
    # IMAC: "NOMENCLATURE" in the numbered headings' bold capitals, with no number, before "1 CHANGES"
    page = [
        (150, 720, 14, [("bold", "A Package for Writing Conference Papers in Two Columns")]),
        (250, 695, 11, [("regular", "Joseph C. Slater")]),
        (72, 660, 9, [("bold", "ABSTRACT")]),
        *[(72, 645 - 12 * i, 9, [("regular", line)]) for i, line in enumerate(PROSE)],
        (72, 600, 9, [("bold", "NOMENCLATURE")]),
        (72, 585, 9, [("regular", "M      matrix")]),
        (72, 573, 9, [("regular", "v      vector")]),
        (72, 545, 9, [("bold", "1 CHANGES")]),
        *[(72, 530 - 12 * i, 9, [("regular", line)]) for i, line in enumerate(PROSE * 2)],
        (72, 470, 9, [("bold", "2 TYPING YOUR DOCUMENT")]),
        *[(72, 455 - 12 * i, 9, [("regular", line)]) for i, line in enumerate(PROSE * 2)],
    ]
    path = tmp_path / "imac.pdf"
    path.write_bytes(styled_pdf([page]))
    assert "NOMENCLATURE" in [section.title for section in parse_pdf(path).sections]
