"""LaTeX's ``\\paragraph`` titles that read like sentences, statements or labels.

A title set in bold at a paragraph's start with an em of space after it and no full stop is a
title whatever its words (qtree's manual, batch 10: "**Some very short lines are not drawn**  This
problem …", "**Qtree will not work with journal style X**  Any number …", '**LaTeX says that
pict2e.sty "will not be written soon"**  Pict2e.sty …', "**Details:**  For some …"; partitions'
"**Example**  Consider a case …", batch 9; rrcov's "**Step 1:**  The data are …", batch 8), where
emphasis typed by hand closes its sentence with a full stop or is followed by a word space. A
colon also closes a description list's label, whose item hangs ("**VCFs:**  When matched …",
PureCN's vignette). A title that ends a line with one short word after it is one too ("**Draw
movement arrows from one node of a tree to another?**  Use" over the rest), and that word is text.
The PDF made here sets the em as five spaces after the bold run (see ``test_run_in_spaced``)."""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.char_runs import _font
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.run_in import split_run_in_headings
from tests.pdf_maker import FILLER, StyledPage

EM = "     "  # five spaces of Helvetica: 1.39 em (see test_run_in_spaced)


def _paper() -> bytes:
    page = StyledPage(top=760)
    page.line([("bold", "Drawing trees in a manual")], size=16, gap=24)
    page.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=28)
    page.line([("bold", "1 Introduction")], size=12, gap=18)
    page.paragraph("Trees are drawn from bracketed strings in the source. " + FILLER * 2)
    page.line([("bold", "2 Troubleshooting")], size=12, gap=18)
    page.paragraph(
        "This problem is caused by the inventory of line shapes. " + FILLER, lead=[("bold", "Some short lines are not drawn" + EM)]
    )
    page.paragraph(
        "Pict2e has been written by now. " + FILLER, lead=[("bold", "LaTeX says that pict2e \u201cwill not be written soon\u201d" + EM)]
    )
    page.paragraph("For some effects it is important to know the argument. " + FILLER, lead=[("bold", "Details:" + EM)])
    page.paragraph("When matched normals are available, give them to the caller. " + FILLER, lead=[("bold", "Normals:" + EM)], hang=18)
    page.paragraph("Consider a case where seven trees are drawn on one page. " + FILLER, lead=[("bold", "Example" + EM)])
    page.line([("bold", "Draw movement arrows from one node of a tree to another?" + EM), ("regular", "Use")])
    page.line([("regular", "the tree-dvips package, or some other package for drawing lines between the")])
    page.line([("regular", "locations on the page, which draws the arrows in a second pass over the page.")])
    page.y -= 8
    page.paragraph("They will be added by the publisher. " + FILLER, lead=[("bold", "Do not number the pages. ")])
    page.paragraph("The trees were checked. " + FILLER, lead=[("bold", "Example. ")])
    page.line([("bold", "3 Results")], size=12, gap=18)
    page.paragraph("Every tree was drawn in one pass. " + FILLER * 2)
    page.line([("bold", "References")], size=12, gap=18)
    page.line([("regular", "1. Smith J, Jones K. Drawing trees. J Ling. 2019;53:1-10.")])
    return page.pdf()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("run-in-paragraph-titles") / "titles.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def _titles(document: Document) -> list[str]:
    return [section.title for section in document.sections]


def _text(document: Document) -> str:
    return " ".join(block.text for section in document.sections for block in section.blocks)


def test_a_spaced_title_may_negate_or_be_a_clause(parsed: Document) -> None:
    titles = _titles(parsed)
    assert "Some short lines are not drawn" in titles
    assert "LaTeX says that pict2e \u201cwill not be written soon\u201d" in titles


def test_a_spaced_title_may_end_in_a_colon_over_a_paragraph(parsed: Document) -> None:
    assert "Details" in _titles(parsed)


def test_a_description_lists_label_stays_text(parsed: Document) -> None:
    assert not any(title.startswith("Normals") for title in _titles(parsed))


def test_a_spaced_statement_word_is_a_title(parsed: Document) -> None:
    titles = _titles(parsed)
    assert "Example" in titles
    section = next(section for section in parsed.sections if section.title == "Example")
    assert section.blocks[0].text.startswith("Consider a case")


def test_a_title_with_one_short_word_after_it_on_its_line(parsed: Document) -> None:
    titles = _titles(parsed)
    assert "Draw movement arrows from one node of a tree to another?" in titles
    assert "Use" not in titles
    assert "Use the tree-dvips package" in _text(parsed)


def test_emphasis_closed_by_a_full_stop_stays_text(parsed: Document) -> None:
    titles = _titles(parsed)
    assert not any(title.startswith("Do not number") for title in titles)
    assert titles.count("Example") == 1  # "**Example.** The trees …": a statement's head


def test_computer_moderns_bold_not_extended_is_bold() -> None:
    """CMB10 (``\\fontseries{b}``) sets partitions' and BMS's headings (batch 9); CM Bright's
    "CMBR10" is a roman face."""
    assert _font(b"ABCDEF+CMB10", 0)[1]
    assert _font(b"CMBX12", 0)[1]
    assert not _font(b"CMBR10", 0)[1]
    assert not _font(b"CMR10", 0)[1]


def test_the_text_after_a_long_title_is_not_bold() -> None:
    """qtree's "**Draw movement arrows from one node of a tree to another?**  Use": the line is
    bold by most of its letters, the word left after the title is not; read as bold, a line of
    its own, it was taken for a heading in the face of the outline's unlisted levels."""
    lead = "Draw movement arrows from one node of a tree to another? "
    text = lead + "Use"
    line = Line(text=text, page=1, x0=72.0, top=100.0, x1=400.0, bottom=110.0, size=10.0, bold=True, italic=False, font="CMBX10")
    line.bold_prefix, line.lead_gap = len(lead), 11.0
    heading = Block(
        [Line(text="1 Questions", page=1, x0=72.0, top=80.0, x1=150.0, bottom=92.0, size=12.0, bold=True, italic=False, font="CMBX12")]
    )
    heading.kind, heading.title = "heading", "Questions"
    paragraph = Block([line])
    paragraph.kind = "paragraph"
    _, title, rest = split_run_in_headings([heading, paragraph])
    assert title.kind == "heading" and title.title == "Draw movement arrows from one node of a tree to another?"
    assert rest.text == "Use" and not rest.lines[0].bold and not rest.bold
