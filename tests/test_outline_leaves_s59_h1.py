"""Where the outline stops short (unseen batch 16's l2tabu guide): a licence appended as an outlined
section that its own outline entry does not divide numbers its clauses "1. APPLICABILITY …",
"2. VERBATIM COPYING", …, which are its subsections, and an appendix whose bookmark leaves out the
letter the page prints ("C l2tabuen revision history") keeps the letter apart from its title."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.outline import apply_outline
from tests.block_builders import Stack, printed_heading

PROSE = "Permission is granted to copy, distribute and modify this document under the terms of the licence."
_block = Stack(size=10.0, font="CMR10", heading=printed_heading).block
TOC = [(1, "1 Deadly sins", 1), (2, "1.1 Page layout", 1), (1, "2 Obsolete commands", 1), (1, "GNU Free Documentation Licence", 1)]


def _section(text: str, size: float = 14.0) -> Block:
    return _block(text, "heading", size=size, bold=True, font="CMBX12")


def _document(clauses: list[str], after: list[Block]) -> list[Block]:
    blocks = [_block("An essential guide", "title", size=20), _section("1 Deadly sins"), _block(PROSE, lines=2)]
    blocks += [_section("1.1 Page layout", size=12), _block(PROSE, lines=2), _section("2 Obsolete commands"), _block(PROSE, lines=2)]
    blocks += [_section("GNU Free Documentation Licence"), _block(PROSE, lines=2)]
    for clause in clauses:
        blocks += [_block(clause, "heading", size=12, bold=True, font="CMBX12"), _block(PROSE, lines=3)]
    return blocks + after


def test_a_numbered_run_under_an_undivided_outlined_section_is_its_subsections() -> None:
    clauses = ["1. APPLICABILITY AND DEFINITIONS", "2. VERBATIM COPYING", "3. COPYING IN QUANTITY", "4. MODIFICATIONS"]
    blocks = _document(clauses, [])
    assert apply_outline(blocks, TOC, 10.0)
    kept = [block for block in blocks if block.kind == "heading" and block.number and block.number.isdigit() and block.level == 2]
    assert [block.title for block in kept] == ["APPLICABILITY AND DEFINITIONS", "VERBATIM COPYING", "COPYING IN QUANTITY", "MODIFICATIONS"]


def test_a_numbered_line_out_of_a_run_stays_text() -> None:
    """Two numbered lines, or a run that does not count from 1, are no subsections."""
    blocks = _document(["3. COPYING IN QUANTITY", "4. MODIFICATIONS", "5. COMBINING"], [])
    assert apply_outline(blocks, TOC, 10.0)
    assert not [block for block in blocks[9:] if block.kind == "heading"]


def test_an_appendix_letter_the_bookmark_leaves_out_is_its_number() -> None:
    toc = [*TOC, (1, "l2tabuen revision history", 1)]
    appendix = _section("C l2tabuen revision history")
    blocks = _document([], [appendix, _block(PROSE, lines=2)])
    assert apply_outline(blocks, toc, 10.0)
    assert (appendix.kind, appendix.number, appendix.title) == ("heading", "C", "l2tabuen revision history")


def test_lines_in_a_typewriter_face_over_prose_are_no_level_of_headings() -> None:
    """LaTeX News sets the commands it names in LMMono10; a paragraph's last line that opens in it
    is no heading of a level the outline leaves out, where an italic face of its own would be."""
    lines = [_block(text, font="LMMono10-Regular") for text in ("At the same time we added DeclareUnicodeCommand", "The new hook include")]
    blocks = _document([], [])
    for line in lines:
        blocks += [line, _block(PROSE, lines=3)]
    assert apply_outline(blocks, TOC, 10.0)
    assert [line.kind for line in lines] == ["paragraph", "paragraph"]


def test_a_numbered_list_in_the_body_type_under_an_undivided_section_stays_text() -> None:
    """proto's FAQ ("1. What scope do unqualified object references … use?") and Biostrings' exercise
    steps ("2. Use the compareStrings function …"), numbered in the body's type: a list, not subsections."""
    questions = ["1. What scope do references use?", "2. How does one debug a method?", "3. Is multiple inheritance supported?"]
    blocks = _document([], [])
    items = [_block(question, "heading") for question in questions]
    for item in items:
        blocks += [item, _block(PROSE, lines=2)]
    assert apply_outline(blocks, TOC, 10.0)
    assert [item.kind for item in items] == ["paragraph"] * 3
