"""Heading misses of unseen batch 14 (issue 32), each drawn as a PDF of real text
(``tests/pdf_maker``) with no outline, so that the headings' own filter judges them:

- a list item's last line, a button's name in bold wrapped alone onto it and ended by a full
  stop, its text hung right of the item's number ("Hypotheses button."): no heading;
- a lone letter, or a glyph in a face of mathematics (a display's sum sign read from its
  math-extension face as a bold "P"): no heading (blocks built here: the outline path keeps them);
- a description list's bold term whose short gloss keeps narrow word spaces ("Error-Rate"),
  among terms set alike that are text: no run-in heading (blocks built here, with their gaps);
- a line of names and a line of dates under a one-page note's title: no headings;
- an appendix printed "Appendix A Installing R" whose outline entry leaves the letter out: the
  section "A", "Installing R" (with an outline, built from the page's lines).
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.headings import demote_list_terms, demote_lone_glyphs
from paperpyramid.parsers.embedded.layout import Line, extract_page
from paperpyramid.parsers.embedded.parser import build_document
from tests.pdf_maker import FILLER, StyledPage, styled_pdf, text_pdf


def _titles(tmp_path: Path, page: StyledPage) -> list[str]:
    path = tmp_path / "note.pdf"
    path.write_bytes(page.pdf())
    return [section.title for section in parse_pdf(path).sections]


def _opening(page: StyledPage) -> None:
    page.line([("bold", "Multiple testing with a graphical user interface")], size=18, gap=40)
    page.line([("bold", "1 Introduction")], size=12, gap=18)
    page.paragraph(FILLER * 2)
    page.line([("bold", "2 Work flow")], size=12, gap=18)
    page.paragraph(FILLER * 2)


def test_a_list_items_bold_last_line_is_no_heading(tmp_path: Path) -> None:
    page = StyledPage()
    _opening(page)
    page.line([("regular", "1. Load the data set and choose the response variables of the study in")], x=84, gap=13)
    page.line([("regular", "the Data menu, then the columns to be tested in the dialogue.")], x=96, gap=13)
    page.line([("regular", "2. Define the hypotheses of interest by specifying the contrasts using the")], x=84, gap=12)
    page.line([("bold", "Hypotheses button.")], x=96, gap=13)
    page.line([("regular", "3. Insert p-values using the p-Value button or calculate them.")], x=84, gap=21)
    page.line([("bold", "3 Summary")], size=12, gap=18)
    page.paragraph(FILLER * 2)
    assert _titles(tmp_path, page) == ["Introduction", "Work flow", "Summary"]


def _line(
    text: str, top: float, *, x0: float = 134, font: str = "CMR10", bold_prefix: int = 0, lead_gap: float = 0.0, word_gap: float = 0.0
) -> Line:
    return Line(
        text, 4, x0, top, 477, top + 9, 8.8, bold_prefix == len(text), False, font,
        bold_prefix=bold_prefix, lead_gap=lead_gap, word_gap=word_gap,
    )  # fmt: skip


def _block(kind: str, lines: list[Line], *, title: str = "", run_in: bool = False) -> Block:
    block = Block(lines=lines)
    block.kind, block.title = kind, title
    if run_in:
        block.extra["run_in"] = True
    return block


def test_a_lone_letter_or_a_maths_glyph_is_no_heading() -> None:
    blocks = [
        _block("paragraph", [_line("where the weights are summed over the rows", 400)]),
        _block("heading", [_line("P", 409, font="txex", bold_prefix=1)], title="P"),
        _block("heading", [_line("Q", 430, font="CMBX10", bold_prefix=1)], title="Q"),
        _block("heading", [_line("Methods", 450, font="CMBX10", bold_prefix=7)], title="Methods"),
    ]
    demote_lone_glyphs(blocks)
    assert [block.kind for block in blocks] == ["paragraph", "paragraph", "paragraph", "heading"]


def test_a_description_lists_short_term_is_no_run_in_heading() -> None:
    # a glossary: each bold term half an em (\\labelsep, 5 pt) before its gloss, the item's lines
    # hung under it; the short gloss keeps word spaces of 3.3 pt, which the half em passes
    gloss = "Error-Type The type of error a procedure aims to control. This can be a"
    hung = _line("hypothesis testing error or a coverage error.", 510, x0=159)
    blocks = [
        _block("paragraph", [_line(gloss, 499, bold_prefix=10, lead_gap=5.0, word_gap=4.5), hung]),
        _block("heading", [_line("Error-Rate", 543, bold_prefix=10, lead_gap=5.0, word_gap=3.3)], title="Error-Rate", run_in=True),
        _block("paragraph", [_line("The allowed rate of the error type.", 543)]),
        _block("heading", [_line("Selecting PDFs", 600, bold_prefix=14, lead_gap=9.0, word_gap=3.3)], title="Selecting PDFs", run_in=True),
        _block("paragraph", [_line("We remove the files that hold no text layer.", 600)]),
    ]
    demote_list_terms(blocks)
    assert [block.kind for block in blocks] == ["paragraph", "paragraph", "paragraph", "heading", "paragraph"]


def test_names_and_dates_under_a_title_are_no_headings(tmp_path: Path) -> None:
    items = [
        (150, 700, 18, [("regular", "edgeR Package Introduction")]),
        (110, 670, 13, [("regular", "Yunshun Chen, Davis McCarthy, Aaron Lun, Xiaobei Zhou,")]),
        (180, 654, 13, [("regular", "Mark Robinson, Gordon K. Smyth")]),
        (200, 625, 13, [("regular", "10 October 2012")]),
        (190, 609, 13, [("regular", "Revised 8 October 2014")]),
    ]
    y = 580.0
    for line in (FILLER * 3).split(". "):
        items.append((72, y, 11, [("regular", line.strip() + ".")]))
        y -= 14
    path = tmp_path / "note.pdf"
    path.write_bytes(styled_pdf([items]))
    titles = [section.title for section in parse_pdf(path).sections]
    assert not any("Chen" in title or "2012" in title for title in titles), titles


BODY = [("The colony was surveyed every spring from the station on the northern shore of the island.", 10)] * 4


def test_an_appendix_keeps_the_letter_its_outline_entry_leaves_out(tmp_path: Path) -> None:
    """The appendix package's bookmarks drop the letter the page prints: "Appendix Installing R"
    for "Appendix A Installing R"; the section is numbered by the page's letter and titled after
    its label, and so is one the outline does not find, its title in small letters."""
    printed = ["1 Introduction", "2 Methods", "Appendix A Installing R", "Appendix B targetRunner troubleshooting checklist"]
    path = tmp_path / "outlined.pdf"
    path.write_bytes(text_pdf([[("A Study of Shark Colonies", 20), *(line for heading in printed for line in [(heading, 12), *BODY])]]))
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [extract_page(pdf[0], 1)]
    finally:
        pdf.close()
    toc = [
        (1, "Introduction", 1),
        (1, "Methods", 1),
        (1, "Appendix Installing R", 1),
        (1, "Appendix targetRunner troubleshooting checklist", 1),
    ]
    titles = [(section.number, section.title) for section in build_document(pages, toc, {}).sections]
    assert ("A", "Installing R") in titles and ("B", "targetRunner troubleshooting checklist") in titles, titles
