"""Heading misses left over from unseen batch 13 (issue 32), each drawn as a PDF of real text
(``tests/pdf_maker``) with no outline, so that the headings' own filter judges them:

- bold group labels of a two-column list ("Coercion" over "as.proto(x)  If x is …", the entry's
  text hanging in a column far right of the label, as in proto's reference card): no headings,
  as the outline path already judged them; a label over a paragraph stays a heading.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from paperpyramid.parsers.embedded import parse_pdf
from tests.pdf_maker import FILLER, styled_pdf

Item = tuple[float, float, float, list[tuple[str, str]]]
ENTRY = (
    "If x is a proto object or environment then x is returned; otherwise a new proto object is made "
    "from x, its parent the caller's environment and its variables those of x"
)


class _Page:
    """A page written from the top down: a title, then headings, paragraphs and labelled entries."""

    def __init__(self) -> None:
        self.items: list[Item] = [(72, 720, 18, [("bold", "Prototype programming in a small language")])]
        self.y = 680.0

    def heading(self, text: str) -> None:
        self.items.append((72, self.y, 12, [("bold", text)]))
        self.y -= 20

    def paragraph(self, x: float = 72, indent: float = 0) -> None:
        for index, line in enumerate(textwrap.wrap(FILLER * 2, 95)):
            self.items.append((x + (indent if index == 0 else 0), self.y, 10, [("regular", line)]))
            self.y -= 13
        self.y -= 8

    def entry(self, label: str, term: str, text_edge: float) -> None:
        """A bold label at 87 pt over an entry: its term at 104 pt, its text's lines at ``text_edge``."""
        self.items.append((87, self.y, 10, [("bold", label)]))
        self.y -= 14
        first, *rest = textwrap.wrap(ENTRY, 70)
        self.items += [(104, self.y, 10, [("regular", term)]), (text_edge, self.y, 10, [("regular", first)])]
        for line in rest:
            self.y -= 13
            self.items.append((text_edge, self.y, 10, [("regular", line)]))
        self.y -= 21


def _titles(tmp_path: Path, page: _Page) -> list[str]:
    path = tmp_path / "card.pdf"
    path.write_bytes(styled_pdf([page.items]))
    return [section.title for section in parse_pdf(path).sections]


def test_bold_labels_of_a_two_column_list_are_no_headings(tmp_path: Path) -> None:
    page = _Page()
    page.heading("1 Introduction")
    page.paragraph()
    page.heading("2 Reference card")
    page.entry("Coercion", "as.proto(x)", 162)
    page.entry("Standard methods", "print.proto", 162)
    page.heading("3 Summary")
    page.paragraph()
    assert _titles(tmp_path, page) == ["Introduction", "Reference card", "Summary"]


def test_bold_labels_over_paragraphs_stay_headings(tmp_path: Path) -> None:
    page = _Page()
    page.heading("1 Introduction")
    page.paragraph()
    for label in ("Coercion", "Standard methods"):
        page.items.append((87, page.y, 10, [("bold", label)]))
        page.y -= 14
        page.paragraph(x=87, indent=12)  # back at the label's edge, its first line indented
    page.heading("2 Summary")
    page.paragraph()
    assert _titles(tmp_path, page) == ["Introduction", "Coercion", "Standard methods", "Summary"]
