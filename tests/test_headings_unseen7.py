"""Headings of the seventh unseen batch (issue 32), each built from blocks as the layout step hands
them on: a package's name in bold wrapped alone onto a paragraph's or a caption's last line
(RcppEigen), a bookmark whose destination points before the section found ahead of it (spam's
"Besag-York-Mollié model") and a numbered subsection whose title opens with "3D" (scatterplot3d);
with what these rules leave alone."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.outline import apply_outline
from tests.block_builders import Stack, printed_heading

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
BODY = "LMRoman10-Regular"
LEFT, RIGHT = 81.0, 522.0


_stack = Stack(x0=LEFT, x1=RIGHT, size=10.9, font=BODY, heading=printed_heading)
_line, _block = _stack.line, _stack.block_of


def _heading(text: str, top: float, *, page: int = 1, size: float = 12.9) -> Block:
    return _block([_line(text, top, page=page, x1=300.0, size=size, bold=True, font="LMRoman12-Bold")], "heading")


def _prose(top: float, *, page: int = 1) -> Block:
    """Three lines of prose from ``top``, the last ending its sentence short of the right edge."""
    return _block([_line(PROSE, top, page=page), _line(PROSE, top + 13.6, page=page), _line("and so on.", top + 27.2, page=page, x1=200.0)])


def _headings(blocks: list[Block]) -> list[tuple[int, str | None, str]]:
    return [(block.level, block.number, block.title) for block in blocks if block.kind == "heading"]


# --------------------------------------------------------------------------- a paragraph's last line


def _wrapped_name(gap: float, ending: str = "for the C++ classes defined in") -> list[Block]:
    """RcppEigen's page 2: "… for the C++ classes defined in" filling its line over "**Eigen**.",
    the leading (``gap``) between them."""
    above = _block([_line("The RcppEigen package provides the header files composing the", 300.0), _line(ending, 313.6)])
    name = _block([_line("Eigen.", 313.6 + 10.9 + gap, x1=110.8, size=9.8, bold=True, font="LMRomanDemi10-Regular")], "heading")
    return [_heading("1 Introduction", 100.0), _prose(120.0), above, name, _prose(350.0), _heading("2 Eigen classes", 420.0), _prose(440.0)]


def test_a_bold_name_wrapped_onto_a_paragraphs_last_line_is_no_heading() -> None:
    """ "**Eigen**." right under a line that fills the column and ends no sentence, with only the
    leading between them, is the paragraph's last line."""
    blocks = _wrapped_name(2.7)
    filter_headings(blocks, 10.9)
    assert "Eigen." not in [title for _, _, title in _headings(blocks)], _headings(blocks)
    assert [number for _, number, _ in _headings(blocks)] == ["1", "2"], _headings(blocks)


def test_a_bold_line_under_a_captions_run_on_line_is_no_heading() -> None:
    """RcppEigen's "Figure 13: badtransCpp: Transpose producing a run-time error in early versions
    of" over "**RcppEigen**.": the caption's last line, under the outline too, where a paragraph's
    "**Eigen**." sets the same face twice over text (a level the outline leaves out, else)."""
    caption = _block([_line("Figure 13: badtransCpp: Transpose producing a run-time error in early versions of", 300.0)], "caption")
    name = _block([_line("RcppEigen.", 313.6, x1=136.1, size=9.8, bold=True, font="LMRomanDemi10-Regular")], "heading")
    blocks = [*_wrapped_name(2.7)[:5], caption, name, _prose(340.0), _heading("3 Sparse matrices", 420.0), _prose(440.0)]
    toc = [(1, "Introduction", 1), (1, "Eigen classes", 1), (1, "Sparse matrices", 1), (1, "Summary", 1)]
    blocks[4:4] = [_heading("2 Eigen classes", 330.0), _prose(345.0)]
    blocks += [_heading("4 Summary", 500.0), _prose(520.0)]
    assert apply_outline(blocks, toc, 10.9)
    assert [title for _, _, title in _headings(blocks)] == ["Introduction", "Eigen classes", "Sparse matrices", "Summary"], _headings(
        blocks
    )


def test_a_bold_line_with_space_above_or_after_a_finished_sentence_stays_a_heading() -> None:
    """The same line with a heading's space above it, or under a line that ends its sentence, is
    a heading still (an unnumbered subsection's title)."""
    for blocks in (_wrapped_name(14.0), _wrapped_name(2.7, ending="for the C++ classes defined in the library.")):
        filter_headings(blocks, 10.9)
        assert "Eigen." in [title for _, _, title in _headings(blocks)], _headings(blocks)


# --------------------------------------------------------------------------- the outline


def test_a_bookmark_pointing_before_the_last_section_found_is_sought_from_there() -> None:
    """spam's outline sends "Besag-York-Mollié model" to page 1 though it is printed "2. Besag-York-
    Mollié model" on page 3, after "1. Introduction" on page 2: a destination before the last
    entry found is wrong, and the heading is sought from that entry's page on."""
    blocks = [
        _heading("1. Introduction", 100.0, page=2),
        _prose(120.0, page=2),
        _prose(200.0, page=3),
        _heading("2. Besag-York-Mollié model", 300.0, page=3),
        _prose(320.0, page=3),
        _heading("2.1. openBUGS implementation", 100.0, page=4, size=10.8),
        _prose(120.0, page=4),
        _heading("3. Leroux model", 300.0, page=4),
        _prose(320.0, page=4),
    ]
    toc = [(1, "Introduction", 2), (1, "Besag-York-Mollié model", 1), (2, "openBUGS implementation", 4), (1, "Leroux model", 4)]
    assert apply_outline(blocks, toc, 10.9)
    assert (1, "2", "Besag-York-Mollié model") in _headings(blocks), _headings(blocks)


# --------------------------------------------------------------------------- numbered siblings


def test_a_numbered_title_opening_with_a_figure_and_its_unit_is_a_heading_beside_its_siblings() -> None:
    """scatterplot3d's "4.1.3 3D barplot", between "4.1.2 Hemisphere" and "4.1.4 Adding elements"
    in their bold, opens with "3D", not a capital: a heading all the same; a bold numbered line
    opening with a bare figure ("4.1.5 100 random points") is not."""
    blocks = [
        _heading("4 Examples", 100.0),
        _prose(120.0),
        _heading("4.1 Feature demonstration", 180.0, size=12.0),
        _prose(200.0),
        _heading("4.1.2 Hemisphere", 260.0, size=12.0),
        _prose(280.0),
        _block([_line("4.1.3 3D barplot", 340.0, x1=200.0, size=12.0, bold=True, font="LMRoman12-Bold")]),
        _prose(360.0),
        _block([_line("4.1.5 100 random points", 420.0, x1=200.0, size=12.0, bold=True, font="LMRoman12-Bold")]),
        _prose(440.0),
        _heading("4.1.4 Adding elements", 500.0, size=12.0),
        _prose(520.0),
    ]
    filter_headings(blocks, 10.9)
    numbers = [number for _, number, _ in _headings(blocks)]
    assert "4.1.3" in numbers and "4.1.5" not in numbers, _headings(blocks)


# --------------------------------------------------------------------------- a list's items


def test_a_lists_items_read_apart_from_the_item_before_them_are_no_sections() -> None:
    """msm's list "8. (Optionally) Write a C function …" (read as text, its lines and a line in
    typewriter after it), "9. Update the documentation (man/hmm-dists.Rd) and the distribution
    table in", "10. Recompile the package": the plain numbered lines a few blocks after an item
    read as text go on the list; they are no top-level sections, though the document's most common
    face is its printed output's typewriter."""
    item = "8. (Optionally) Write a C function to compute the derivatives of the probability density"
    blocks = [
        _heading("1 Multi-state models", 100.0),
        _prose(120.0),
        # a manual's printed output: more lines in typewriter than in the body's face
        _block(
            [
                _line(f"State {row} - State {row + 1}   0.{row}   (0.1, 0.9)", 140.0 + row, x1=400.0, font="NimbusMonL-Regu")
                for row in range(20)
            ]
        ),
        _block([_line(item, 200.0)]),
        _block([_line("Then add the model to DHMODELS in lik.c (in the same position as in HMODELS) and", 214.0)]),
        _block([_line(".msm.HMODELS.DERIV in R/constants.R.", 228.0, x1=250.0, size=9.0, font="NimbusMonL-Regu")]),
        _block([_line("maximum likelihood estimation, but analytic derivatives will not be available.", 242.0)]),
        _block([_line("9. Update the documentation (man/hmm-dists.Rd) and the distribution table in", 256.0)], "heading"),
        _block([_line("inst/doc/msm-manual.Rnw) if you like.", 270.0, x1=250.0, size=9.0, font="NimbusMonL-Regu")]),
        _block([_line("10. Recompile the package (see the manual)", 284.0, x1=300.0)], "heading"),
        _prose(300.0),
        _heading("2 Fitting multi-state models with msm", 400.0),
        _prose(420.0),
    ]
    filter_headings(blocks, 10.9)
    assert [number for _, number, _ in _headings(blocks)] == ["1", "2"], _headings(blocks)
