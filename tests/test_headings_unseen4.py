"""Headings of the fourth unseen batch (issue 32): a heading level the outline leaves out in a font
that names no face (xts), an algorithm's numbered steps in the body's type (gbm) and a plain
"Notes:" label over a list. Built from blocks, as the layout step hands them on."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block, heading_parts
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.outline import apply_outline
from tests.block_builders import Stack, whole_title

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
_block = Stack(size=9.4, heading=whole_title).block


TOC: list[tuple[int, str, int | None]] = [
    (1, "1 Introduction", 1),
    (1, "2 The structure", 1),
    (2, "2.1 Modifications", 1),
    (1, "3 Conclusion", 1),
]


def _faceless_paper(lower: list[str], code: bool = False) -> list[Block]:
    """An article in Type 3 fonts (no names, no weights): headings told by their size alone."""
    blocks = [_block("Title of the paper", "title", size=17)]
    for number, name, size in (("1", "Introduction", 13), ("2", "The structure", 13), ("2.1", "Modifications", 11)):
        blocks += [_block(f"{number} {name}", "heading", number=number, size=size), _block(PROSE, lines=3)]
    for title in lower:
        blocks += [_block(title, size=9.0), _block(PROSE, lines=3)]
    if code:  # a listing in a smaller type: lines over lines, and blocks of several
        blocks += [_block("Data:", size=9.0), _block("Columns: Open, High", size=9.0), _block("x <- 1", size=9.0, lines=2)]
    blocks += [_block("3 Conclusion", "heading", number="3", size=13), _block(PROSE, lines=3)]
    return blocks


def test_a_level_the_outline_leaves_out_in_a_nameless_font_is_kept() -> None:
    """xts: ``\\subsubsection*`` headings in a bitmap bold measure 9.0 against the body's 9.4."""
    lower = ["True time-based indexes", "Subsetting", "xtsAttributes"]
    blocks = _faceless_paper(lower)
    assert apply_outline(blocks, TOC, 9.5)
    kept = [(block.level, block.title) for block in blocks if block.kind == "heading" and block.title in lower]
    assert kept == [(3, title) for title in lower]


def test_a_nameless_type_that_also_sets_a_listing_is_no_heading_level() -> None:
    """The same height filling lines over lines (a listing's output) marks no headings."""
    lower = ["True time-based indexes", "Subsetting"]
    blocks = _faceless_paper(lower, code=True)
    assert apply_outline(blocks, TOC, 9.5)
    assert not any(block.kind == "heading" and block.title in lower for block in blocks)
    once = _faceless_paper(["Subsetting"])
    assert apply_outline(once, TOC, 9.5)
    assert not any(block.kind == "heading" and block.title == "Subsetting" for block in once)


def _steps_paper(sections_bold: bool) -> list[Block]:
    section_font, section_size = ("CMBX12", 13.0) if sections_bold else ("CMR10", 10.0)
    return [
        _block("1 Gradient boosting", "heading", number="1", size=section_size, bold=sections_bold, font=section_font),
        _block(PROSE, size=10, lines=3, font="CMR10"),
        _block("3. Choose a gradient descent step size as", "heading", number="3", size=10, font="CMR10"),
        _block("rho = arg min sum Psi(y, f(x) + rho g(x))", "formula", size=10, font="CMMI10"),
        _block("4. Update the estimate of f(x) as", "heading", number="4", size=10, font="CMR10"),
        _block("f(x) <- f(x) + rho g(x)", "formula", size=10, font="CMMI10"),
        _block("2 Improving boosting methods", "heading", number="2", size=section_size, bold=sections_bold, font=section_font),
        _block(PROSE, size=10, lines=3, font="CMR10"),
    ]


def test_numbered_steps_in_the_body_type_under_bold_sections_are_no_sections() -> None:
    """gbm: an algorithm's steps over display equations, where the sections are bold and larger."""
    blocks = _steps_paper(sections_bold=True)
    filter_headings(blocks, 10.0)
    assert [block.title for block in blocks if block.kind == "heading"] == ["Gradient boosting", "Improving boosting methods"]


def test_numbered_sections_all_in_the_body_type_are_kept() -> None:
    """A document whose sections are all set in the body's type keeps its numbered lines as sections."""
    blocks = _steps_paper(sections_bold=False)
    filter_headings(blocks, 10.0)
    assert sum(1 for block in blocks if block.kind == "heading") == 4


def test_a_known_word_with_a_colon_in_the_body_type_is_a_label() -> None:
    """gbm: "Notes:" over a bulleted list in the body's type; "Notes" in bold, or "Abstract:", still head."""
    assert heading_parts(_block("Notes:", size=10, font="CMR10"), 10.0, "CMR10") is None
    assert heading_parts(_block("Notes", size=10, bold=True, font="CMBX10"), 10.0, "CMR10") == (None, "Notes")
    assert heading_parts(_block("Abstract:", size=10, font="CMR10"), 10.0, "CMR10") == (None, "Abstract")


def test_a_numbered_section_in_another_face_than_the_body_stays() -> None:
    """jpsj: "3. AMSMATH Package" in the sections' bold face, its weight misread, is still a section."""
    blocks = _steps_paper(sections_bold=True)
    blocks[2] = _block("3. AMSMATH Package", "heading", number="3", size=10, font="Cmbx10")
    filter_headings(blocks, 10.0)
    assert "AMSMATH Package" in [block.title for block in blocks if block.kind == "heading"]
