"""Headings left on the unseen batches (issue 32), each built from blocks as the layout step hands
them on: a printed table of contents whose section entries lost their page numbers
(robustbase) or whose entries read as one block (smf), a plot's legend titles in the figures'
face (robustbase, fitdistrplus), a ``\\subsubsection*`` in an italic face of its own under an
outline, the outline's short titles for longer printed ones (vcd), a subsection before the
first heading the parser knows (survey), a reference card's group labels after the reference
list (zoo) and REVTeX's fourth-level run-in heading with its whole number (aapm)."""

from __future__ import annotations

from dataclasses import replace

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.contents import set_aside_contents
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.outline import apply_outline
from paperpyramid.parsers.embedded.parser import _demote_front_matter
from paperpyramid.parsers.embedded.run_in import split_run_in_headings
from tests.block_builders import Stack, whole_title

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
BODY = "LMRoman10-Regular"
_block = Stack(font=BODY, heading=whole_title).block


def _section(number: str, title: str, size: float = 12.0) -> Block:
    return _block(f"{number} {title}", "heading", size=size, bold=True, font="LMRoman12-Bold", number=number.rstrip("."))


# --------------------------------------------------------------------------- contents


def _contents_page() -> list[Block]:
    """\\tableofcontents: the sections' entries in bold, their page numbers read away, the
    subsections' with dot leaders, the last entry on a row with its page number."""
    row = _block("5 Maximum Asymptotic Bias", size=10, bold=True, font="CMBX10")
    number = _block("19", size=10, bold=True, font="CMBX10")
    for block in (row, number):
        block.lines[0].tags.add("row")
    return [
        _block("Simulations for Sharpening Inference", "title", size=15),
        _block("Contents", size=12, bold=True, font="CMBX12"),
        _block("1 Introduction", "heading", size=10, bold=True, font="CMBX10", number="1"),
        _block("2 Setting", "heading", size=10, bold=True, font="CMBX10", number="2"),
        _block("2.1 Methods . . . . . . . . . . . . . . . . . . 1"),
        _block("2.2 Designs . . . . . . . . . . . . . . . . . . 2"),
        _block("3 Simulation", "heading", size=10, bold=True, font="CMBX10", number="3"),
        row,
        number,
        _section("1", "Introduction"),
        _block(PROSE, lines=3),
        _section("2", "Setting"),
        _block(PROSE, lines=3),
    ]


def test_a_contents_entry_read_as_a_heading_is_set_aside() -> None:
    blocks = _contents_page()
    set_aside_contents(blocks)
    assert [block.kind for block in blocks[1:9]] == ["furniture"] * 8
    assert [block.kind for block in blocks[9:]] == ["heading", "paragraph", "heading", "paragraph"]


def test_the_section_after_the_contents_is_no_entry() -> None:
    """The first section after the table repeats an entry, or heads prose: it ends the table."""
    blocks = _contents_page()
    del blocks[7:9]  # the table ends on a bold entry that lost its page number
    set_aside_contents(blocks)
    assert blocks[6].kind == "furniture"
    assert blocks[7].kind == "heading" and blocks[7].title == "Introduction"
    unlisted = _contents_page()
    del unlisted[7:9]
    unlisted[7] = _section("1", "Overview")  # not listed, but over prose
    set_aside_contents(unlisted)
    assert unlisted[7].kind == "heading"


def test_a_contents_read_as_one_block_is_set_aside() -> None:
    """smf: the entries, each with its dot leaders, read as one block of ten lines."""
    leaders = " . . . . . . . . . . . . . . . . 2"
    contents = _block("Contents", "heading", size=10, bold=True, font="SFBX1095")
    entries = _block("1. Introduction" + leaders, lines=4, font="SFRM1095")
    blocks = [_block("Advice to authors", "title", size=15), contents, entries, _section("1.", "Introduction"), _block(PROSE, lines=3)]
    set_aside_contents(blocks)
    assert [block.kind for block in blocks[1:]] == ["furniture", "furniture", "heading", "paragraph"]


# --------------------------------------------------------------------------- figure labels


def _plot_paper(legend_over_prose: bool) -> list[Block]:
    """A paper whose plots set their ticks in small Helvetica (set aside as furniture) and a
    legend's title larger, in bold Helvetica, read as a heading."""
    ticks = [_block(str(value), "furniture", size=8, bold=True, font="Helvetica") for value in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0)]
    legend = _block("Scale Est.", "heading", size=10, bold=True, font="Helvetica")
    after = _block(PROSE, lines=3) if legend_over_prose else _block("σ D σ OLS", "formula")
    return [
        _section("1", "Introduction"),
        _block(PROSE, lines=3),
        *ticks[:3],
        legend,
        after,
        *ticks[3:],
        _section("2", "Results"),
        _block(PROSE, lines=3),
    ]


def test_a_legend_title_in_the_figures_face_is_no_heading() -> None:
    blocks = _plot_paper(legend_over_prose=False)
    filter_headings(blocks, 10.0)
    assert [block.title for block in blocks if block.kind == "heading"] == ["Introduction", "Results"]


def test_headings_in_a_face_the_figures_share_stay_where_one_heads_prose() -> None:
    """A paper whose headings are set in the figures' sans face: one over prose keeps them all."""
    blocks = _plot_paper(legend_over_prose=True)
    blocks.insert(5, _block(PROSE, lines=3))  # text before it: right after a plot's ticks it is the axis's title
    blocks.insert(-1, _block("Remarks", "heading", size=10, bold=True, font="Helvetica"))
    blocks.insert(-1, _block("σ D σ OLS", "formula"))
    filter_headings(blocks, 10.0)
    assert [block.title for block in blocks if block.kind == "heading"] == ["Introduction", "Scale Est.", "Results", "Remarks"]


def test_a_panel_title_in_the_face_of_the_other_panels_titles_is_no_heading() -> None:
    """fitdistrplus: "Empirical and theoretical CDFs" over a plot's key ("lognormal loglogistic
    Pareto Burr", which reads as prose by its words), the other panels' titles in the same bold
    Helvetica read as lines of text; no small print."""
    panels = [
        _block(title, size=11.6, bold=True, font="Helvetica-Bold") for title in ("Q-Q plot", "P-P plot", "Histogram", "CDFs", "Densities")
    ]
    blocks = [
        _section("1", "Introduction"),
        _block(PROSE, lines=3),
        *panels,
        _block("Empirical and theoretical CDFs", "heading", size=14.7, bold=True, font="Helvetica-Bold"),
        _block("lognormal loglogistic Pareto Burr", size=12.4, font="Helvetica"),
        _section("2", "Results"),
        _block(PROSE, lines=3),
    ]
    filter_headings(blocks, 10.0)
    assert [block.title for block in blocks if block.kind == "heading"] == ["Introduction", "Results"]


def test_a_reference_card_s_group_labels_after_the_references_are_no_sections() -> None:
    """zoo: an appendix after the reference list holds a reference card, its groups labelled in a
    smaller bold that no heading before the list uses; an unnumbered appendix section set as the
    body's sections, and "Acknowledgments", stay."""
    card = "zoo(x, order.by) creation of a zoo object from the observations x and the index order.by"
    blocks = [
        _section("1", "Introduction"),
        _block(PROSE, lines=3),
        _block("Summary", "heading", size=12.0, bold=True, font="LMRoman12-Bold"),
        _block(PROSE, lines=3),
        _block("References", "heading", size=12.0, bold=True, font="LMRoman12-Bold"),
        _block("Zeileis A (2006). Implementing a class of structural change tests. Computational Statistics, 50."),
        _section("A.", "Reference card"),
        _block("Creation", "heading", size=9.8, bold=True, font="LMRoman10-Bold"),
        _block(card, lines=2),
        _block("Coercion", "heading", size=9.8, bold=True, font="LMRoman10-Bold"),
        _block(card, lines=2),
        _block("Derivations", "heading", size=12.0, bold=True, font="LMRoman12-Bold"),
        _block(PROSE, lines=3),
        _block("Acknowledgments", "heading", size=9.8, bold=True, font="LMRoman10-Bold"),
        _block(PROSE, lines=2),
    ]
    filter_headings(blocks, 10.0)
    assert [block.title for block in blocks if block.kind == "heading"] == [
        "Introduction",
        "Summary",
        "References",
        "Reference card",
        "Derivations",
        "Acknowledgments",
    ]


# --------------------------------------------------------------------------- outline

TOC: list[tuple[int, str, int | None]] = [
    (1, "Introduction", 1),
    (1, "Shadings", 1),
    (2, "Customizing shadings", 1),
    (1, "Labeling", 1),
    (2, "Labels in the borders", 1),
    (1, "Example: Ovarian cancer survival", 1),
]


def _outlined_paper(lower: list[Block]) -> list[Block]:
    blocks = [_block("Title of the paper", "title", size=17)]
    for number, name in (("1.", "Introduction"), ("2.", "Shadings"), ("2.1.", "Customizing shadings")):
        blocks += [_section(number, name, 12 if "." not in number[:-1] else 11), _block(PROSE, lines=3)]
    for block in lower:
        blocks += [block, _block(PROSE, lines=3)]
    blocks += [_section("3.", "Labeling"), _block(PROSE, lines=3)]
    blocks += [_section("3.1.", "Labels in the borders: labeling_text()", 11), _block(PROSE, lines=3)]
    # a section printed apart from the headings' style, its number read only in its text
    blocks += [_block("4. Example: Ovarian cancer survival", size=12, font="LMRoman12-Bold"), _block(PROSE, lines=3)]
    return blocks


def _italic(text: str) -> Block:
    return _block(text, size=10.1, font="LMRoman12-Italic")


def test_a_level_the_outline_leaves_out_in_an_italic_face_of_its_own_is_kept() -> None:
    """vcd's ``\\subsubsection*{Alternative 1: …}`` in LMRoman12-Italic, the body's size."""
    lower = ["Alternative 1: Precomputed gpar object", "Alternative 2: Grapcon function"]
    blocks = _outlined_paper([_italic(title) for title in lower])
    assert apply_outline(blocks, TOC, 10.0)
    assert [(block.level, block.title) for block in blocks if block.kind == "heading" and block.title in lower] == [(3, t) for t in lower]


def test_an_italic_face_that_sets_more_than_lone_titles_is_no_heading_level() -> None:
    """The same face setting a block of several lines (a quotation), a lone line alone, lines of
    code, or lines cut from a sentence, marks no level."""
    lower = ["Alternative 1: Precomputed gpar object", "Alternative 2: Grapcon function"]
    quoted = _outlined_paper([*(_italic(title) for title in lower), _block(PROSE, size=10.1, font="LMRoman12-Italic", lines=2)])
    once = _outlined_paper([_italic(lower[0])])
    code = _outlined_paper([_block(text, size=10.1, font="LMMono10-Regular") for text in ("x <- 1", "plot(x, y)")])
    # a paragraph's lines read one to a block, in the italics of the species they name
    species = ("Achromobacter xylosoxidans, Serratia ureilytica and", "Ochrobactrum rhizosphaerae) were grown in flasks for")
    cut = _outlined_paper([_italic(text) for text in species])
    for blocks in (quoted, once, code, cut):
        assert apply_outline(blocks, TOC, 10.0)
        assert [block.title for block in blocks if block.kind == "heading" and block.level == 3] == []


def test_an_outline_short_title_keeps_the_printed_title_and_number() -> None:
    """``\\subsection[Labels in the borders]{Labels in the borders: \\texttt{labeling\\_text()}}``:
    the page's longer title and its number stay; a number printed only in the text is read."""
    blocks = _outlined_paper([])
    assert apply_outline(blocks, TOC, 10.0)
    headings = [(block.number, block.title) for block in blocks if block.kind == "heading"]
    assert ("3.1", "Labels in the borders: labeling_text()") in headings
    assert ("4", "Example: Ovarian cancer survival") in headings


def test_an_outline_title_found_in_a_block_that_runs_on_is_the_outline_s() -> None:
    """scirep: a run-in heading's block goes on into its paragraph ("… of nano-MgO. The"): the
    outline's title is the heading's, not the block's text."""
    blocks = _outlined_paper([])
    blocks[-2] = _block("Example: Ovarian cancer survival. The", size=10.0, bold=True, font="LMRoman10-Bold")
    assert apply_outline(blocks, TOC, 10.0)
    assert blocks[-2].kind == "heading" and blocks[-2].title == "Example: Ovarian cancer survival"


# --------------------------------------------------------------------------- front matter


def test_a_subsection_before_the_first_known_heading_stays() -> None:
    """survey: unnumbered sections, "References" the first heading the parser knows; a
    subsection set smaller than the section above it is kept with it, a larger line is not."""
    blocks = [
        _block("Two-phase designs in epidemiology", "title", size=15),
        _block("Journal of Things", "heading", size=13, bold=True),  # front matter: larger than any section
        _block(PROSE * 3, lines=3),
        _block("Case–cohort designs", "heading", size=12.7, font="CMB10"),
        _block(PROSE, lines=3),
        _block("Exposure-stratified designs", "heading", size=10.6, font="CMB10"),
        _block(PROSE, lines=3),
        _block("Volume 3, issue 4", "heading", size=13, bold=True),
        _block(PROSE, lines=3),
        _block("References", "heading", size=12.7, font="CMB10"),
        _block("Barlow WE (1994). Robust variance estimation for the case-cohort design. Biometrics 50."),
    ]
    _demote_front_matter(blocks)
    assert [block.title for block in blocks if block.kind == "heading"] == [
        "Case–cohort designs",
        "Exposure-stratified designs",
        "References",
    ]


# --------------------------------------------------------------------------- run-in


def test_a_run_in_heading_numbered_with_revtex_whole_chain_loses_its_number() -> None:
    """aapm: ``\\paragraph`` prints "I.A.1.a. Fourth-level heading is run in." in italics."""
    lead = "I.A.1.a. Fourth-level heading is run in."
    opening = _block(f"{lead} Footnotes are produced using the footnote command of the class.", font="CMTI10")
    opening.lines[0] = replace(opening.lines[0], italic_prefix=len(lead))
    blocks = [_block("I. INTRODUCTION", "heading", size=10, bold=True), _block(PROSE, lines=3), opening]
    heading = split_run_in_headings(blocks)[2]
    assert (heading.kind, heading.number, heading.title) == ("heading", "I.A.1.a", "Fourth-level heading is run in")
