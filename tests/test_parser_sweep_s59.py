"""What parsing 6,693 PDFs of Debian's documentation with the embedded parser found (2026-12-01).

Two ways a whole PDF was lost to one page: each raised out of the parser and the paper was not stored.

- A scanned page where OCR found only faint words (a figure, a logo): every line fell below the
  noise bar, and sizing the lines of an empty page raised ``StatisticsError`` (6 of the first 400).
- A one-letter line in the type of the outlined headings ("C", "R": a section on a language that
  the PDF's bookmarks leave out): made a heading, its title in capitals no longer matched the
  style it was promoted for, and looking up that style's level raised ``ValueError``.

And one cost that grew with the outline times the blocks: each outline entry normalised the text
of every block it looked at again, so Knuth's 107-page ``mf-changes.pdf`` (1,263 bookmarks) took
36.5 s, ~30 of them there; each block's texts are now normalised once (6.4 s)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded import outline_entries
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.ocr import Word
from paperpyramid.parsers.embedded.parser import build_document
from paperpyramid.parsers.embedded.scans import page_from_words
from tests.block_builders import Stack
from tests.pdf_maker import styled_pdf

PROSE = "The colony was surveyed every spring from the station on the northern shore of the island."


def test_a_scanned_page_of_faint_words_only_reads_as_an_empty_page() -> None:
    words = [
        Word(text, 72.0 + 60 * n, 100.0, 120.0 + 60 * n, 112.0, 20.0, (1, 1, 1)) for n, text in enumerate(["faint", "island", "shore"])
    ]
    page = page_from_words(3, 612.0, 792.0, words)
    assert page.page.lines == [] and page.text == ""


def test_a_scanned_page_keeps_its_clear_lines_beside_faint_ones() -> None:
    faint = [Word("shore", 72.0, 100.0, 120.0, 112.0, 20.0, (1, 1, 1))]
    clear = [Word(text, 72.0 + 60 * n, 200.0, 120.0 + 60 * n, 212.0, 95.0, (1, 2, 1)) for n, text in enumerate(["The", "colony", "grew"])]
    page = page_from_words(3, 612.0, 792.0, faint + clear)
    assert page.text == "The colony grew"


def _sections(tmp_path: Path, line_of_its_own: str) -> list[tuple[int, str]]:
    items: list[tuple[float, float, float, list[tuple[str, str]]]] = []
    y = 740.0

    def line(runs: list[tuple[str, str]], size: float = 10, gap: float = 13) -> None:
        nonlocal y
        items.append((72, y, size, runs))
        y -= gap

    line([("bold", "A Study of Shark Colonies")], size=18, gap=30)
    for heading in ("1 Methods", "2 Results", "3 Discussion"):
        y -= 6
        line([("bold", heading)], size=12, gap=18)
        for _ in range(3):
            line([("regular", PROSE)])
        if heading == "2 Results":
            y -= 6
            line([("bold", line_of_its_own)], size=12, gap=18)
            for _ in range(3):
                line([("regular", PROSE)])
    path = tmp_path / "outlined.pdf"
    path.write_bytes(styled_pdf([items]))
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [extract_page(pdf[0], 1)]
    finally:
        pdf.close()
    toc: list[tuple[int, str, int | None]] = [(1, "1 Methods", 1), (1, "2 Results", 1), (1, "3 Discussion", 1)]
    return [(section.level, section.title) for section in build_document(pages, toc, {}).sections if section.title]


@pytest.mark.parametrize("letter", ["C", "R"])
def test_a_one_letter_line_in_the_outlined_headings_type_does_not_lose_the_paper(tmp_path: Path, letter: str) -> None:
    sections = _sections(tmp_path, letter)
    assert [title for _, title in sections if title in {"Methods", "Results", "Discussion"}] == ["Methods", "Results", "Discussion"], (
        sections
    )


def test_a_lower_case_name_in_the_outlined_headings_type_still_takes_their_level(tmp_path: Path) -> None:
    assert (1, "qPCR") in _sections(tmp_path, "qPCR")


def test_an_outline_of_many_entries_normalises_each_block_once(monkeypatch: pytest.MonkeyPatch) -> None:
    stack = Stack(step=14.0)
    blocks = [stack.block(f"Paragraph {chr(65 + n % 26)}{chr(65 + n // 26)} of the survey", page=1 + n // 40) for n in range(400)]
    blocks[390] = stack.block("Acknowledgements", "heading", page=10)
    toc: list[tuple[int, str, int | None]] = [(2, f"Unprinted entry {chr(65 + n % 26)}{chr(65 + n // 26)}", None) for n in range(200)]
    toc.append((1, "Acknowledgements", None))
    calls = 0
    norm = outline_entries.norm

    def counted(text: str) -> str:
        nonlocal calls
        calls += 1
        return norm(text)

    monkeypatch.setattr(outline_entries, "norm", counted)
    assert outline_entries.find_entries(blocks, toc) == {390: (1, "Acknowledgements")}
    assert calls < 10 * (len(blocks) + len(toc)), calls  # not once per entry and block (~320,000)
