"""The third unseen batch (``benchmarks/unseen_set.py --batch 3``): real R vignette papers in a
dozen layouts, measured before any rule here was written. Each case is a constructed page (or a
line of text, or a LaTeX source) in the shape of the paper that failed:

- a JSS masthead read as the title (``jss-spacetime``), its issue line set across the name's
  left edge so the year went unread;
- a title whose first line is read apart: too short to be a title alone ("Simultaneous Inference"
  over "in General Parametric Models", Biometrical Journal), or in a font whose boxes are smaller
  (an italic part: ``multcomp-supplement``); a ``\\thanks`` symbol after the title;
- an R Journal byline "by A, B and C" (the first author was lost);
- a self-archived copy's footnote, "This is a preprint of an article published in …", names the
  journal (The American Statistician, Biometrical Journal);
- a printed table of contents under the abstract (``sp-over``, ``spacetime-overlay``): its
  entries were read as headings, and the outline's "Introduction" was found in it;
- a numbered list's short items in body type read as sections (``jss-network``);
- the LaTeX gold: names over their addresses set apart by ``\\and``, a byline's "by", a ``\\;``
  between names, a name inside ``\\href``, a boxed note in ``\\title``, ``\\log`` in a title.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.eval.gold import load_latex
from paperpyramid.eval.latex_authors import latex_authors
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.author_names import split_names
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.parser import build_document
from paperpyramid.retrieval.filters import year_of
from tests.pdf_maker import styled_pdf

PROSE = (
    "This document describes classes and methods designed to deal with different types of data",
    "in the package, and provides examples for analysing them with the methods it builds upon.",
)


def _body(top: float, lines: int = 6) -> list[tuple[float, float, float, list[tuple[str, str]]]]:
    return [(72, top - 13 * i, 10, [("regular", PROSE[i % 2])]) for i in range(lines)]


def _pdf(tmp_path: Path, pages: list[list[tuple[float, float, float, list[tuple[str, str]]]]]) -> Path:
    path = tmp_path / "paper.pdf"
    path.write_bytes(styled_pdf(pages))
    return path


def test_a_journal_masthead_over_its_issue_line_is_not_the_title(tmp_path: Path) -> None:
    # JSS: the name in 26 pt bold, the issue line centred under it (starting left of the name), then the title
    page = [
        (150, 720, 24, [("bold", "Journal of Statistical Software")]),
        (135, 696, 10, [("italic", "November 2012, Volume 51, Issue 7.")]),
        (150, 610, 15, [("bold", "spacetime: Spatio-Temporal Data in R")]),
        (250, 570, 11, [("bold", "Edzer Pebesma")]),
        (280, 530, 10, [("bold", "Abstract")]),
        *_body(510),
    ]
    document = parse_pdf(_pdf(tmp_path, [page]))
    assert document.title == "spacetime: Spatio-Temporal Data in R"
    assert (document.journal, year_of(document.date_published)) == ("Journal of Statistical Software", 2012)


def test_a_titles_short_first_line_read_apart_is_the_titles(tmp_path: Path) -> None:
    # Biometrical Journal preprint: "Simultaneous Inference" alone is too short to be a title
    page = [
        (220, 700, 15, [("regular", "Simultaneous Inference")]),
        (180, 676, 15, [("regular", "in General Parametric Models *")]),
        (250, 630, 12, [("bold", "Torsten Hothorn")]),
        (200, 614, 12, [("regular", "Institut fur Statistik, Universitat Munchen")]),
        (280, 560, 10, [("bold", "Abstract")]),
        *_body(540),
    ]
    assert parse_pdf(_pdf(tmp_path, [page])).title == "Simultaneous Inference in General Parametric Models"


def test_a_titles_first_line_in_smaller_boxes_is_the_titles(tmp_path: Path) -> None:
    # an italic part gives the first line's boxes a tenth less height than the second's
    page = [
        (100, 700, 15.5, [("regular", "Supplementary Material for "), ("italic", "A re-evaluation of the model")]),
        (150, 680, 17, [("italic", "selection procedure in Pollet & Nettle (2009)")]),
        (130, 640, 11, [("regular", "Esther Herberich, Torsten Hothorn, Daniel Nettle & Thomas Pollet")]),
        (72, 600, 13, [("bold", "Summary")]),
        *_body(580),
    ]
    assert (
        parse_pdf(_pdf(tmp_path, [page])).title
        == "Supplementary Material for A re-evaluation of the model selection procedure in Pollet & Nettle (2009)"
    )


def test_a_byline_after_the_zones_comma_loses_its_by() -> None:
    # the R Journal: "by Benedikt Gräler, Edzer Pebesma and Gerard Heuvelink" under the title
    assert split_names(", by Benedikt Gräler, Edzer Pebesma and Gerard Heuvelink") == [
        "Benedikt Gräler",
        "Edzer Pebesma",
        "Gerard Heuvelink",
    ]


def test_a_preprint_footnote_names_the_journal() -> None:
    lego = "∗This is a preprint of an article published in The American Statistician, Volume 60, Number 3, Pages 257–263. Copyright © 2006 American Statistical Association"
    assert fm.find_journal([(1, lego)], {}) == ("The American Statistician", 2006, None)
    wiley = "∗This is a preprint of an article published in Biometrical Journal, Volume 50, Number 3, 346–363. Copyright © 2008 WILEY-VCH"
    assert fm.find_journal([(1, wiley)], {})[:2] == ("Biometrical Journal", 2008)
    assert (
        fm.find_journal([(1, "This is a preprint of an article to be published in the Journal of Things, vol. 3")], {})[0]
        == "Journal of Things"
    )


def test_a_printed_table_of_contents_gives_no_headings(tmp_path: Path) -> None:
    # sp's vignettes: \\tableofcontents under the abstract, entries on a row with their page
    # numbers, and an outline (hyperref) naming the same sections: its "Introduction" was found
    # in the table, the real one left as text, and the entries cut out as run-in headings
    page1 = [
        (150, 720, 15, [("bold", "Map overlay and spatial aggregation")]),
        (260, 690, 11, [("regular", "Edzer Pebesma")]),
        (280, 660, 9, [("bold", "Abstract")]),
        *[(100, 645 - 11 * i, 9, [("regular", PROSE[i % 2][:70])]) for i in range(3)],
        (72, 590, 13, [("bold", "Contents")]),
        (72, 570, 10, [("bold", "1 Introduction")]),
        (520, 570, 10, [("bold", "1")]),
        (72, 552, 10, [("bold", "2 Geometry overlays")]),
        (520, 552, 10, [("bold", "2")]),
        (86, 539, 10, [("regular", "2.1 Ordering of matches . . . . . . . . . . . . . . . . . . . 3")]),
        (72, 521, 10, [("bold", "3 Aggregation")]),
        (520, 521, 10, [("bold", "4")]),
        (72, 490, 13, [("bold", "1 Introduction")]),
        *_body(470, 12),
    ]
    page2 = [
        (72, 720, 13, [("bold", "2 Geometry overlays")]),
        *_body(700, 10),
        (72, 560, 11, [("bold", "2.1 Ordering of matches")]),
        *_body(540, 10),
    ]
    page3 = [(72, 720, 13, [("bold", "3 Aggregation")]), *_body(700, 20)]
    path = _pdf(tmp_path, [page1, page2, page3])
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [extract_page(pdf[index], index + 1) for index in range(len(pdf))]
    finally:
        pdf.close()
    outline = [(1, "1 Introduction", 1), (1, "2 Geometry overlays", 2), (2, "2.1 Ordering of matches", 2), (1, "3 Aggregation", 3)]
    document = build_document(pages, outline, {})
    sections = [section for section in document.sections if section.title and section.title != "Abstract"]
    assert [section.title for section in sections] == ["Introduction", "Geometry overlays", "Ordering of matches", "Aggregation"]
    assert sections[0].blocks and sections[0].blocks[0].text.startswith(PROSE[0][:20])


def test_a_numbered_lists_short_items_are_no_sections(tmp_path: Path) -> None:
    # jss-network: "2. The network header file must be included during compilation." between
    # longer items, each set apart by the list's spacing, in the body's regular type
    page = [
        (150, 720, 15, [("bold", "network: A Package for Relational Data")]),
        (250, 690, 11, [("regular", "Carter T. Butts")]),
        (72, 650, 13, [("bold", "1. Using the network API")]),
        (72, 630, 10, [("regular", "To use the network API within one's own code, the following steps are necessary:")]),
        (86, 605, 10, [("regular", "1. The required network header and function registration files must be added to")]),
        (98, 592, 10, [("regular", "the developer's source tree.")]),
        (86, 567, 10, [("regular", "2. The network header file must be included during compilation.")]),
        (86, 542, 10, [("regular", "3. The registering function must be invoked at the entry point to any C program")]),
        (98, 529, 10, [("regular", "using the API.")]),
        (86, 504, 10, [("regular", "4. The network API functions must be used as required.")]),
        *_body(480, 10),
        (72, 340, 13, [("bold", "2. Final comments")]),
        *_body(320, 10),
    ]
    titles = [section.title for section in parse_pdf(_pdf(tmp_path, [page])).sections if section.title]
    assert titles == ["Using the network API", "Final comments"]


# ----------------------------------------------------------------------------- the LaTeX gold


def test_the_gold_reads_names_over_addresses_set_apart_by_and() -> None:
    # Biometrical Journal preprint (article class): each \and group is the name, then its address lines
    source = (
        '\\begin{document}\\author{\\textbf{Torsten Hothorn} \\\\ Institut f{\\"u}r Statistik \\\\'
        ' Ludwig-Maximilians-Universit{\\"a}t M{\\"u}nchen \\\\ Ludwigstra{\\ss}e 33, D--80539 M{\\"u}nchen, Germany\\\\'
        " \\and \\textbf{Frank Bretz} \\\\ Statistical Methodology, Clinical Information Sciences \\\\ CH-4002 Basel, Switzerland}"
    )
    assert latex_authors(source) == ["Torsten Hothorn", "Frank Bretz"]


def test_the_gold_reads_a_byline_a_thin_space_and_a_link() -> None:
    assert latex_authors('\\author{by Benedikt Gr{\\"a}ler, Edzer Pebesma and Gerard Heuvelink}') == [
        "Benedikt Gräler",
        "Edzer Pebesma",
        "Gerard Heuvelink",
    ]
    glrnb = '\\author{Valentin Wimmer$^{(1,2)}$\\thanks{Author of correspondence}\\; and Michael H\\"{o}hle$^{(1,2)}$ \\\\ (1) Department of Statistics}'
    assert latex_authors(glrnb) == ["Valentin Wimmer", "Michael Höhle"]
    logos = "\\author{\\includegraphics[width=5cm]{ifgi-logo} \\\\ \\href{mailto:edzer@example.org}{Edzer Pebesma}}"
    assert latex_authors(logos) == ["Edzer Pebesma"]
    assert latex_authors("\\author{\\protect\\href{http://www.brucker.ch/}{Achim D. Brucker}}") == ["Achim D. Brucker"]  # llncsconf
    pmlr = "\\author{\\Name{Author Name1} \\Email{abc@sample.com}\\and \\Name{Author Name2} \\Email{xyz@sample.com}\\\\ \\addr Address}"
    assert latex_authors(pmlr) == ["Author Name1", "Author Name2"]  # the jmlr class's \\Name prints the name


def test_the_gold_title_leaves_a_boxed_note_out_and_prints_operators(tmp_path: Path) -> None:
    tex = tmp_path / "paper.tex"
    tex.write_text(
        "\\documentclass{jss}\\title{\\vspace{-2cm}\\fbox{\\vbox{This vignette corresponds to an article published in the"
        " \\textit{Journal of Statistical Software} 2016.}}\\\\[1cm] Monitoring Count Time Series in \\proglang{R}}"
        "\\begin{document}\\maketitle\n\\section{Introduction}\nText.\n\\end{document}\n",
        encoding="utf-8",
    )
    assert load_latex(tex).title == "Monitoring Count Time Series in R"
    tex.write_text(
        "\\documentclass{article}\\title{Accurately Computing $\\log(1 - \\exp(-a))$}\\begin{document}\\maketitle\n"
        "\\section{Introduction}\nText.\n\\end{document}\n",
        encoding="utf-8",
    )
    assert load_latex(tex).title == "Accurately Computing log(1 - exp(-a))"
