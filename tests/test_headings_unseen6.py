"""Headings of the sixth unseen batch (issue 32), each built from blocks as the layout step hands
them on: subsubsections under an outline whose bookmarks drop the printed numbers (EBSeq), a
subsection named like a statement's label or too long for its number alone, beside siblings in
its type (BiasedUrn), a lone bookmark that opens with a capital letter and a space (affy), a
data frame's rows and a list's items numbered like sections in a bitmap face (NOISeq), a
paragraph's line after a table that opens with a number (dbscan) and a reference set in bold
(qvalue); with what these rules leave alone."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.outline import apply_outline
from paperpyramid.parsers.embedded.run_in import split_run_in_headings
from tests.block_builders import Stack, printed_heading

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
BODY = "LMRoman10-Regular"
_block = Stack(font=BODY, heading=printed_heading).block


def _heading(text: str, size: float, font: str = "CMBX12", bold: bool = True) -> Block:
    return _block(text, "heading", size=size, bold=bold, font=font)


def _prose(font: str = BODY) -> Block:
    return _block(PROSE, font=font)


def _headings(blocks: list[Block]) -> list[tuple[int, str | None, str]]:
    return [(block.level, block.number, block.title) for block in blocks if block.kind == "heading"]


# --------------------------------------------------------------------------- the outline


def test_printed_numbers_place_subsubsections_under_bookmarks_without_numbers() -> None:
    """EBSeq's bookmarks read "Quick Start", "Gene level analysis" for the printed "2 Quick Start",
    "2.1 Gene level analysis", and stop there: "2.1.1 Required input" and "2.1.2 Library size
    factor" (a size under the body's, in a bitmap face) are the level below "2.1", and so is
    "2.1.3 Using clusters instead of the vector when the relationship is unknown", too long to be
    read as a heading alone, in their type."""
    small = {"size": 9.0, "font": ""}
    blocks = [
        _heading("1 Introduction", 14),
        _prose(),
        _heading("2 Quick Start", 14),
        _prose(),
        _heading("2.1 Gene level analysis", 12),
        _prose(),
        _block("2.1.1 Required input", "heading", **small),  # type: ignore[arg-type]
        _prose(),
        _block("2.1.2 Library size factor", "heading", **small),  # type: ignore[arg-type]
        _prose(),
        _block("2.1.3 Using mappability clusters instead of the vector when the relationship is unknown", **small),  # type: ignore[arg-type]
        _prose(),
        _heading("3 Discussion", 14),
        _prose(),
    ]
    toc: list[tuple[int, str, int | None]] = [
        (1, "Introduction", 1),
        (1, "Quick Start", 1),
        (2, "Gene level analysis", 1),
        (1, "Discussion", 1),
    ]
    assert apply_outline(blocks, toc, 10.0)
    headings = _headings(blocks)
    assert (3, "2.1.1", "Required input") in headings, headings
    assert (3, "2.1.2", "Library size factor") in headings, headings
    assert (3, "2.1.3", "Using mappability clusters instead of the vector when the relationship is unknown") in headings, headings
    assert (1, "3", "Discussion") in headings, headings


def test_a_numbered_heading_out_of_its_section_is_an_example() -> None:
    """The MNRAS guide prints "3.1 Measuring Teff from Gaia photometry" in its appendix B, an
    example of a subsection's heading: numbered below the outline's "3", it stands outside
    section 3, so it is no heading, while "3.1 Class options" inside section 3 is one."""
    blocks = [
        _heading("1 Introduction", 14),
        _prose(),
        _heading("3 Preparing a paper", 14),
        _prose(),
        _heading("3.1 Class options", 10),
        _prose(),
        _heading("APPENDIX B: FORMATTING EXAMPLES", 14),
        _prose(),
        _heading("3.1 Measuring Teff from Gaia photometry", 10),
        _prose(),
    ]
    toc: list[tuple[int, str, int | None]] = [(1, "Introduction", 1), (1, "Preparing a paper", 1), (1, "Formatting examples", 1)]
    assert apply_outline(blocks, toc, 10.0)
    titles = [title for _, _, title in _headings(blocks)]
    assert "Class options" in titles and "Measuring Teff from Gaia photometry" not in titles, titles


def test_a_lone_bookmark_opening_with_a_capital_is_not_lettered() -> None:
    """affy's bookmark "C implementation of RMA", printed "3.3.4 C implementation of RMA": one
    entry opening with a letter does not make its level numbered with letters."""
    blocks = [
        _heading("1 Introduction", 14),
        _prose(),
        _heading("1.1 Expression measures", 12),
        _prose(),
        _heading("1.1.1 C implementation of RMA", 11),
        _prose(),
        _heading("2 Discussion", 14),
        _prose(),
    ]
    toc: list[tuple[int, str, int | None]] = [
        (1, "Introduction", 1),
        (2, "Expression measures", 1),
        (3, "C implementation of RMA", 1),
        (1, "Discussion", 1),
    ]
    assert apply_outline(blocks, toc, 10.0)
    assert (3, "1.1.1", "C implementation of RMA") in _headings(blocks), _headings(blocks)


def test_a_bold_line_cut_short_before_the_outline_names_its_style_is_no_heading() -> None:
    """qvalue's "J. D. Storey. False discovery rates. In …, International Encyclopedia of", a
    reference set in bold in the type of its subsubsections before the outline names them: a
    heading does not end on "of"."""
    title = _block("The qvalue package", "title", size=17)
    blocks = [
        title,
        _heading("1 Introduction", 14),
        _prose(),
        _heading("J. D. Storey. False discovery rates. In Miodrag Lovric, editor, Encyclopedia of", 10, font="CMBX10"),
        _prose(),
        _heading("2 Case study", 14),
        _prose(),
        _heading("2.1 The qvalue object", 10, font="CMBX10"),
        _prose(),
        _heading("2.2 Summarizing results", 10, font="CMBX10"),
        _prose(),
    ]
    toc: list[tuple[int, str, int | None]] = [
        (1, "Introduction", 1),
        (1, "Case study", 1),
        (2, "The qvalue object", 1),
        (2, "Summarizing results", 1),
    ]
    assert apply_outline(blocks, toc, 10.0)
    assert not any("Storey" in title for _, _, title in _headings(blocks)), _headings(blocks)


# --------------------------------------------------------------------------- without an outline


def test_a_numbered_line_in_its_siblings_type_is_a_heading() -> None:
    """BiasedUrn's "7.1 Example 1" (a statement's label, read alone) and "8.3 Estimating the number
    of items of a particular kind from experimental sampling" (long, in a type barely larger than
    the body) stand in the type of "7.2 Conclusion" and "8.1 Measuring odds ratios"; a sentence
    of the body that opens with a number does not."""
    sub = {"size": 10.7, "font": ""}
    blocks = [
        _heading("7 Examples", 13.1, font="", bold=False),
        _prose(font=""),
        _block("7.1 Example 1", **sub),  # type: ignore[arg-type]
        _prose(font=""),
        _block("7.2 Conclusion", "heading", **sub),  # type: ignore[arg-type]
        _prose(font=""),
        _heading("8 Applications", 13.1, font="", bold=False),
        _prose(font=""),
        _block("8.1 Measuring odds ratios", "heading", **sub),  # type: ignore[arg-type]
        _prose(font=""),
        _block("8.3 Estimating the number of items of a particular kind from experimental sampling", **sub),  # type: ignore[arg-type]
        _prose(font=""),
        _block("8.4 Million reads were counted in each of the samples", font=""),
        _prose(font=""),
    ]
    filter_headings(blocks, 10.0)
    headings = _headings(blocks)
    assert (2, "7.1", "Example 1") in headings, headings
    assert (2, "8.3", "Estimating the number of items of a particular kind from experimental sampling") in headings, headings
    assert not any(number == "8.4" for _, number, _ in headings), headings


def test_lines_numbered_at_the_top_level_in_a_bitmap_face_under_larger_sections_are_no_sections() -> None:
    """NOISeq (bitmap fonts, no face names): "3 Kidney Kidney_1 R1", a data frame's row in a
    smaller typewriter, and "1. Computing the values.", a list's item at the body's size, where
    "1 Introduction" and "2 Input data" are set larger."""
    blocks = [
        _heading("1 Introduction", 13.1, font="", bold=False),
        _prose(font=""),
        _heading("2 Input data", 13.1, font="", bold=False),
        _prose(font=""),
        _block("3 Kidney Kidney_1 R1", "heading", size=8.6, font=""),
        _prose(font=""),
        _block("1. Computing the values.", "heading", size=10.0, font=""),
        _prose(font=""),
    ]
    blocks[6].number, blocks[6].title = "1", "Computing the values."
    filter_headings(blocks, 10.0)
    assert [title for _, _, title in _headings(blocks)] == ["Introduction", "Input data"], _headings(blocks)


def test_a_numbered_line_smaller_than_the_body_in_its_face_is_no_section() -> None:
    """The body's named face a point under its size: a row of printed output, where the sections are larger."""
    blocks = [
        _heading("1 Introduction", 14),
        _prose(),
        _heading("2 Methods", 14),
        _prose(),
        _block("3 Kidney Kidney_1 R1", "heading", size=9.0),
        _prose(),
    ]
    filter_headings(blocks, 10.0)
    assert [title for _, _, title in _headings(blocks)] == ["Introduction", "Methods"], _headings(blocks)


def _run_in(number: str, title: str) -> Block:
    block = _block(f"{number} {title}", "heading", number=number, title=title)
    block.extra["run_in"] = True
    return block


def test_a_run_in_number_of_a_section_long_past_is_the_paragraphs_text() -> None:
    """dbscan's "2.5 GHz Intel Core i7 processor, …": a paragraph's line after a table in section
    4, read as a run-in heading numbered "2.5"; "4.1 Timing." under "4" stays a heading."""
    blocks = [
        _heading("1 Introduction", 14),
        _prose(),
        _heading("4 Performance Comparison", 14),
        _prose(),
        _run_in("2.5", "GHz Intel Core i7 processor, running OS X El Capitan 10.11.6"),
        _prose(),
        _run_in("4.1", "Timing"),
        _prose(),
    ]
    filter_headings(blocks, 10.0)
    titles = [title for _, _, title in _headings(blocks)]
    assert titles == ["Introduction", "Performance Comparison", "Timing"], titles


def test_a_reference_set_in_bold_is_no_run_in_heading() -> None:
    """A bold lead-in of several sentences ("J. D. Storey. False discovery rates.") is a reference
    set in bold; "Data sources." before the paragraph's text is a heading."""
    reference = "J. D. Storey. False discovery rates. In Miodrag Lovric, editor, Encyclopedia. Springer, 2011."
    lead = "J. D. Storey. False discovery rates."
    heading = "Data sources."
    blocks = [
        _heading("1 Introduction", 14),
        _prose(),
        _block(reference, bold_prefix=len(lead)),
        _block(f"{heading} {PROSE}", bold_prefix=len(heading)),
    ]
    split = split_run_in_headings(blocks)
    assert [block.title for block in split if block.kind == "heading"] == ["Introduction", "Data sources"]
