"""Headings left on unseen layouts (issue 32): a heading over a one-line listing stays a heading,
and a heading level an outline stops short of (``\\subsubsection*`` under outlined subsections)
is kept. Built from blocks, as the layout step hands them on."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.outline import apply_outline
from paperpyramid.parsers.embedded.parser import _require_following_text
from tests.block_builders import Stack, whole_title

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
_block = Stack(font="LMRoman10-Regular", heading=whole_title).block


def test_a_heading_over_one_line_of_code_introduces_it() -> None:
    """rmpfr's "Session Information" over "R> toLatex(sessionInfo())": a listing is the text it introduces."""
    blocks = [
        _block("Conclusion", "heading", size=12, bold=True, font="LMRoman12-Bold"),
        _block(PROSE),
        _block("Session Information", "heading", size=11, bold=True, font="LMRoman12-Bold"),
        _block("R> toLatex(sessionInfo())", font="LMMonoSlant10-Regular"),
        _block("Supports", "heading", size=11, bold=True, font="LMRoman12-Bold"),
        _block("Claim 1"),
    ]
    _require_following_text(blocks)
    assert blocks[2].kind == "heading"
    assert blocks[4].kind == "paragraph", "a label over a label, in the body face, is still no heading"


def _outlined_paper(lower: list[str], over: str = PROSE) -> list[Block]:
    blocks = [_block("Title of the paper", "title", size=17, bold=True)]
    for number, name in (("1", "Introduction"), ("2", "Data"), ("3", "Models"), ("4", "Conclusion")):
        blocks += [_block(f"{number} {name}", "heading", number=number, size=13, bold=True, font="LMRoman12-Bold"), _block(PROSE)]
        if number == "3":
            blocks += [_block("Multivariate modelling", "heading", size=11, bold=True, font="LMRoman12-Bold"), _block(PROSE)]
            for title in lower:
                blocks += [_block(title, "heading", size=10, bold=True, font="LMRoman10-Bold"), _block(over)]
    return blocks


TOC: list[tuple[int, str, int | None]] = [
    (1, "1 Introduction", 1),
    (1, "2 Data", 1),
    (1, "3 Models", 1),
    (2, "Multivariate modelling", 1),
    (1, "4 Conclusion", 1),
]


def test_a_level_the_outline_leaves_out_is_kept() -> None:
    """surveillance-hhh4: two ``\\subsubsection*`` headings under an outlined subsection, in a smaller bold."""
    lower = ["Influenza, Southern Germany, 2001-2008", "Measles, German federal states, 2005-2007"]
    blocks = _outlined_paper(lower)
    assert apply_outline(blocks, TOC, 10.0)
    kept = [(block.level, block.title) for block in blocks if block.kind == "heading" and block.title in lower]
    assert kept == [(3, lower[0]), (3, lower[1])]


def test_one_heading_in_an_unnamed_style_or_labels_are_demoted() -> None:
    """A style set once is no level of headings; labels over labels (a figure's) are no sections."""
    once = _outlined_paper(["Influenza, Southern Germany, 2001-2008"])
    assert apply_outline(once, TOC, 10.0)
    assert not any(block.kind == "heading" and block.title.startswith("Influenza") for block in once)
    labels = _outlined_paper(["Observed", "Fitted"], over="Week 12")
    assert apply_outline(labels, TOC, 10.0)
    assert not any(block.kind == "heading" and block.title in ("Observed", "Fitted") for block in labels)


def test_a_bold_sentence_that_negates_is_no_run_in_heading() -> None:
    """JACoW: "**DO NOT include any page numbers.** They will be added …" is emphasis; "**Data sources.** …" a heading."""
    from dataclasses import replace

    from paperpyramid.parsers.embedded.run_in import split_run_in_headings

    def opening(lead: str) -> Block:
        block = _block(f"{lead} They will be added when the final proceedings are produced by the editors.")
        block.lines[0] = replace(block.lines[0], bold_prefix=len(lead) + 1)
        return block

    blocks = [_block("PAGE NUMBERS", "heading", size=12, bold=True), opening("DO NOT include any page numbers."), opening("Data sources.")]
    split = split_run_in_headings(blocks)
    assert [block.title for block in split if block.kind == "heading"] == ["PAGE NUMBERS", "Data sources"]
