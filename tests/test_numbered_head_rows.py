"""Running heads set on a row with the page's number, deep inside a larger sheet (a book's chapter
inside crop marks: HSAUR3's vignette): "4  META-ANALYSIS" over the even pages and "ANALYSIS
USING R  5" over the odd ones, close over the text. They leave the sections, and a first row
whose number does not count the pages stays."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.unseen_pdfs import unseen_pdf

_PROSE = (
    "The studies were pooled with a fixed effects model, and the odds ratios of the trials were",
    "combined with weights proportional to their precision; the heterogeneity between them is",
    "tested below, and the funnel plot shows whether small studies report larger effects too.",
)
_HEADS = {0: "META-ANALYSIS", 1: "ANALYSIS USING R"}


def _chapter(tmp_path: Path, first_row: str | None = None) -> Path:
    """Six pages of an A4 sheet with the text from 127 pt down; from the third page on, a head
    row on the text's first baseline: the page number and the head, or ``first_row``."""
    pages = []
    for index in range(6):
        canvas = Canvas(595, 842)
        y = 127.0
        if index == 0:
            canvas.text(150, 190, "Meta-Analysis: Nicotine Gum and Smoking Cessation", "Times-Bold", 16)
            y = 240.0
        elif first_row is not None:
            canvas.text(130, y + 9, first_row, "Times-Roman", 10)
            y += 18
        else:
            number, head = str(index + 3), _HEADS[index % 2]
            if index % 2 == 0:
                canvas.text(130, y + 9, number, "Times-Roman", 10)
                canvas.text(465 - text_width(head, "Times-Roman", 10), y + 9, head, "Times-Roman", 10)
            else:
                canvas.text(130, y + 9, head, "Times-Roman", 10)
                canvas.text(465 - text_width(number, "Times-Roman", 10), y + 9, number, "Times-Roman", 10)
            y += 18  # the head's gap to the text no wider than the leading
        if index == 3:
            canvas.text(130, y + 9, "17.4 Meta-Regression", "Times-Bold", 11)
            y += 20
        for n in range(40):
            canvas.text(130, y + 9 + 12 * n, _PROSE[n % 3], "Times-Roman", 10)
        pages.append(canvas)
    path = tmp_path / "chapter.pdf"
    path.write_bytes(write_pdf(pages, "Meta-Analysis"))
    return path


def _text(path: Path) -> str:
    document = parse_pdf(path)
    return "\n".join([section.title for section in document.sections] + [section.text for section in document.sections])


def test_heads_on_a_row_with_the_page_number_leave_the_text(tmp_path: Path) -> None:
    text = _text(_chapter(tmp_path))
    assert "META-ANALYSIS" not in text and "ANALYSIS USING R" not in text
    assert "Meta-Regression" in text and text.count("funnel plot") >= 40


def test_a_first_row_whose_number_does_not_count_the_pages_stays(tmp_path: Path) -> None:
    # the same number on every page's first row counts nothing: a list's first item, a table's first row
    text = _text(_chapter(tmp_path, "1 Randomised trials of nicotine gum"))
    assert text.count("Randomised trials of nicotine gum") == 5


def test_hsaur3_chapter_heads_are_no_sections() -> None:
    document = parse_pdf(unseen_pdf(19, "hsaur3-meta-analysis-chapter.pdf"))
    titles = [section.title for section in document.sections]
    assert "META-ANALYSIS" not in titles and "PUBLICATION BIAS" not in titles
    assert "Publication Bias" in titles
