"""Headings of the fifth unseen batch (issue 32), each built from blocks as the layout step hands
them on: a bookmark that kept a macro's bracketed argument (sva), a heading wrapped onto blocks of
its own (sva, vegan), a paragraph opening with an outlined title (vegan), starred headings before
the outline names their style (pcaMethods), a contents entry wrapped in a narrow column (vegan),
a plot's axis title after its ticks (DRIMSeq, goseq), a list's items in two sizes (TitanCNA), a
chapter's label over its title (Epi) and a starred heading read as an example's label
(surveillance); with what these rules leave alone (acmart's "CCS CONCEPTS", asmejour's run-ins)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.contents import set_aside_contents
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.outline import apply_outline
from tests.block_builders import Stack, printed_heading

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
BODY = "LMRoman10-Regular"
_block = Stack(font=BODY, heading=printed_heading).block


def _section(text: str, size: float = 14.0, page: int = 1) -> Block:
    return _block(text, "heading", size=size, bold=True, font="NimbusSanL-Bold", page=page)


def _headings(blocks: list[Block]) -> list[tuple[int, str]]:
    return [(block.level, block.title) for block in blocks if block.kind == "heading"]


# --------------------------------------------------------------------------- the outline


def test_a_macro_argument_left_in_a_bookmark_is_no_part_of_the_heading() -> None:
    """sva: the bookmark reads "Applying the [functioncolor]sva function …", the page prints
    "Applying the sva function …" (the name in a colour): found, and titled as printed."""
    toc = [(1, "1 Overview", 1), (1, "2 Applying the [functioncolor]sva function to estimate batch", 1), (1, "3 Supervised sva", 1)]
    blocks = [_block("The SVA package", "title", size=20)]
    for text in ("1 Overview", "2 Applying the sva function to estimate batch", "3 Supervised sva"):
        blocks += [_block(text, size=14, font="NimbusSanL-Bold"), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.0)
    assert _headings(blocks) == [(1, "Overview"), (1, "Applying the sva function to estimate batch"), (1, "Supervised sva")]


def test_a_heading_wrapped_onto_blocks_of_its_own_is_found_whole() -> None:
    """sva: a title's second line in another size ("f.pvalue function"), vegan: a justified
    line cut at its wide gaps ("3.1 Taxonomic diversity:", "average", "distance of traits")."""
    toc = [
        (1, "1 Setting up", 1),
        (1, "2 Adjusting using the f.pvalue function", 1),
        (2, "2.1 Taxonomic diversity: average distance of traits", 1),
    ]
    blocks = [
        _block("The SVA package", "title", size=20),
        _section("1 Setting up"),
        _block(PROSE, lines=3),
        _block("2 Adjusting using the", size=14, font="NimbusSanL-Bold"),
        _block("f.pvalue function", size=12, font="NimbusSanL-Bold"),
        _block(PROSE, lines=3),
        _block("2.1 Taxonomic diversity:", size=11, bold=True, font="SFBX1200"),
        _block("average", size=11, bold=True, font="SFBX1200"),
        _block("distance of traits", size=11, bold=True, font="SFBX1200"),
        _block(PROSE, lines=3),
    ]
    assert apply_outline(blocks, toc, 10.0)
    assert _headings(blocks) == [
        (1, "Setting up"),
        (1, "Adjusting using the f.pvalue function"),
        (2, "Taxonomic diversity: average distance of traits"),
    ]
    assert [block.kind for block in blocks[7:9]] == ["furniture", "furniture"]


def test_a_paragraph_opening_with_an_outlined_title_yields_to_the_heading_under_it() -> None:
    """vegan: "Species accumulation models and species pool models study …", read before the
    heading "5.1 Species accumulation models" printed right under it."""
    toc = [(1, "1 Introduction", 1), (1, "2 Species accumulation", 1), (2, "2.1 Species accumulation models", 1)]
    opening = _block("Species accumulation models and species pool models study collections of sites", lines=2)
    blocks = [_block("Vegan", "title", size=20), _section("1 Introduction"), _block(PROSE, lines=3), _section("2 Species accumulation")]
    blocks += [opening, _section("2.1 Species accumulation models", size=12), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.0)
    assert opening.kind == "paragraph"
    assert _headings(blocks)[-1] == (2, "Species accumulation models")


def test_starred_headings_before_the_outline_names_their_style_are_kept() -> None:
    """pcaMethods: ``\\section*{Overview}`` over the first page and ``\\subsection*`` entries
    ahead of the one numbered subsection make no bookmarks; in the styles the outline names, after
    the title and over prose, they are headings."""
    toc = [(1, "1 Algorithms", 1), (2, "1.1 Local least squares", 1), (1, "2 Getting started", 1), (2, "2.1 Using ggplot2", 1)]
    blocks = [_block("The pcaMethods Package", "title", size=16), _block("Overview", "heading", size=13), _block(PROSE, lines=3)]
    blocks += [_block("1 Algorithms", "heading", size=13), _block(PROSE, lines=2)]
    blocks += [_block("Probabilistic PCA (ppca)", "heading", size=11), _block(PROSE, lines=3)]
    blocks += [_block("1.1 Local least squares", "heading", size=11), _block(PROSE, lines=3)]
    blocks += [_block("2 Getting started", "heading", size=13), _block(PROSE, lines=3)]
    blocks += [_block("2.1 Using ggplot2", "heading", size=11), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.0)
    assert _headings(blocks)[:4] == [(1, "Overview"), (1, "Algorithms"), (2, "Probabilistic PCA (ppca)"), (2, "Local least squares")]


# --------------------------------------------------------------------------- contents


def test_a_contents_entry_wrapped_in_a_narrow_column_is_set_aside() -> None:
    """vegan: the contents in the left column of page 1, an entry wrapped over two lines, its
    leaders and page number on the second ("3.1 Taxonomic diversity: average dis-", "tance of
    traits . . . 3"), a section's wrapped the same way without leaders ("… beta diver-", "sity", "6")."""
    blocks = [
        _block("Vegan: ecological diversity", "title", size=15),
        _block("Contents", size=13, bold=True, font="SFBX1440"),
        _block("1 Diversity indices", size=9, bold=True, font="SFBX1000"),
        _block("1", size=9, bold=True, font="SFBX1000"),
        _block("1.1 Taxonomic diversity: average dis-"),
        _block("tance of traits . . . . . . . . . . . . ."),
        _block("3"),
        _block("2 Species accumulation and beta diver-", size=9, bold=True, font="SFBX1000"),
        _block("sity", size=9, bold=True, font="SFBX1000"),
        _block("6", size=9, bold=True, font="SFBX1000"),
        _block("2.1 Fisher and Preston", "heading"),
        _block(". . . . . . . . . 7"),
        _block(PROSE, lines=3),
    ]
    set_aside_contents(blocks)
    assert [block.kind for block in blocks[1:12]] == ["furniture"] * 11
    assert blocks[12].kind == "paragraph"


# --------------------------------------------------------------------------- without an outline


def _paper(*middle: Block) -> list[Block]:
    return [
        _block("Title of the paper", "title", size=17),
        _section("1 Introduction"),
        _block(PROSE, lines=3),
        *middle,
        _section("2 Results"),
        _block(PROSE, lines=3),
    ]


def test_a_plot_axis_title_after_its_ticks_is_no_heading() -> None:
    """DRIMSeq: a figure without a caption, "Log10 of mean expression" (Helvetica-Bold) read
    after its axis's numbers (Helvetica), then the text going on."""
    ticks = [_block(tick, size=7.5, font="Helvetica") for tick in ("3.0", "3.5", "4.0")]
    axis = _block("Log10 of mean expression", "heading", size=8.6, bold=True, font="Helvetica-Bold")
    blocks = _paper(*ticks, axis, _block(PROSE, lines=3))
    filter_headings(blocks, 10.0)
    assert axis.kind == "paragraph"
    assert [title for _, title in _headings(blocks)] == ["Introduction", "Results"]


def test_a_list_item_mostly_in_typewriter_is_an_item() -> None:
    """TitanCNA: "2. Chromosome, Start_Position.bp.: …" measures 8.5 (its typewriter) between
    items of 9.4; the items are no sections."""
    items = [
        _block("1. Sample: Name of sample", "heading", size=9.4),
        _block("2. Chromosome, Start_Position.bp.: Coordinates of segment", "heading", size=8.5),
        _block("3. Length.snps.: Number of SNPs in the segment", size=9.4),
    ]
    blocks = _paper(*items)
    filter_headings(blocks, 9.4)
    assert [block.kind for block in items] == ["paragraph"] * 3


def test_a_chapter_label_over_its_title_is_one_heading() -> None:
    """Epi: "Chapter 2" over "Analyses for DM in Denmark", both in the chapters' type."""
    label = _block("Chapter 2", "heading", size=22, bold=True, font="CMBX12")
    title = _block("Analyses for DM in Denmark", "heading", size=22, bold=True, font="CMBX12")
    blocks = [_block("Years of life lost", "title", size=24), label, title, _block(PROSE, lines=3)]
    filter_headings(blocks, 10.0)
    assert label.kind == "furniture"
    assert _headings(blocks) == [(1, "Analyses for DM in Denmark")]


def test_a_heading_read_as_a_statement_label_in_a_level_the_outline_leaves_out_is_kept() -> None:
    """surveillance: ``\\subsubsection*{Example: Measles, …}`` in the bold of the other starred
    subsubsections ("Influenza, Southern Germany, 2001–2008"), read as an example's label."""
    toc = [(1, "1 Introduction", 1), (1, "2 Data", 1), (2, "2.1 Some example data sets", 1), (1, "3 Conclusion", 1)]
    level = "LMRoman10-Bold"
    example = _block("Example: Measles, Germany, 2005–2007", size=9.8, bold=True, font=level)
    blocks = [_block("hhh4", "title", size=16), _section("1 Introduction"), _block(PROSE, lines=3), _section("2 Data")]
    blocks += [
        _block(PROSE, lines=2),
        _section("2.1 Some example data sets", size=11),
        _block(PROSE, lines=2),
        example,
        _block(PROSE, lines=3),
    ]
    for title in ("Influenza, Southern Germany, 2001–2008", "Measles, German federal states"):
        blocks += [_block(title, "heading", size=9.8, bold=True, font=level), _block(PROSE, lines=3)]
    blocks += [_section("3 Conclusion"), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.0)
    assert example.kind == "heading" and example.level == 3
    assert example.title == "Example: Measles, Germany, 2005–2007"


def test_a_starred_heading_naming_a_function_in_an_outlined_style_is_kept() -> None:
    """pcaMethods: ``\\subsection*{svdPca}`` opens with a small letter, so the blocks read it as a
    line of the body; in the type of the numbered subsections the outline names, over prose, it
    is one of them."""
    toc = [(1, "1 Algorithms", 1), (2, "1.1 Local least squares", 1), (1, "2 Getting started", 1), (2, "2.1 Using ggplot2", 1)]
    name = _block("svdPca", size=11)
    blocks = [_block("The pcaMethods Package", "title", size=16), _block("1 Algorithms", "heading", size=13), _block(PROSE, lines=2)]
    blocks += [name, _block(PROSE, lines=3), _block("1.1 Local least squares", "heading", size=11), _block(PROSE, lines=3)]
    blocks += [_block("2 Getting started", "heading", size=13), _block(PROSE, lines=3)]
    blocks += [_block("2.1 Using ggplot2", "heading", size=11), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.0)
    assert name.kind == "heading" and (name.level, name.title) == (2, "svdPca")


def test_a_label_under_the_abstract_in_the_sections_type_is_no_starred_heading() -> None:
    """acmart: "CCS CONCEPTS" under the outlined "ABSTRACT", in the sections' type and over a line
    of concepts, is front matter, not a ``\\section*`` before the outline's first section."""
    toc = [(1, "Abstract", 1), (1, "1 Introduction", 1), (1, "2 Template Overview", 1), (1, "3 Conclusion", 1)]
    concepts = _section("CCS CONCEPTS", size=10.3)
    blocks = [_block("The Name of the Title", "title", size=14), _section("ABSTRACT", size=10.3), _block(PROSE, lines=6)]
    blocks += [concepts, _block("• Computer systems organization → Embedded systems; Redundancy; Robotics")]
    for title in ("1 INTRODUCTION", "2 TEMPLATE OVERVIEW", "3 CONCLUSION"):
        blocks += [_section(title, size=10.3), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 8.4)
    assert concepts.kind == "paragraph"


def test_the_rest_of_a_run_in_headings_line_is_no_starred_heading() -> None:
    """asmejour: "1.1 Essential Initial Commands." cut from its line, the rest of the line ("To
    begin, fill in the fields") left in the line's size, that of the run-in headings."""
    toc = [(1, "1 Introduction", 1), (2, "1.1 Essential Initial Commands", 1), (2, "1.2 Option to Color", 1), (1, "2 References", 1)]
    blocks = [_block("The asmejour class", "title", size=16), _section("1 Introduction"), _block(PROSE, lines=3)]
    rests = []
    for title, rest in (
        ("1.1 Essential Initial Commands.", "To begin, fill in the fields"),
        ("1.2 Option to Color.", "The vertical bar in the"),
    ):
        run_in = _block(title, "heading", size=13, font="TeXGyreTermesX-Bold")
        run_in.extra["run_in"] = True
        rests.append(_block(rest, size=13, font="TeXGyreTermesX-Bold"))
        blocks += [run_in, rests[-1], _block(PROSE, lines=4)]
    blocks += [_section("2 References"), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 12.0)
    assert [block.kind for block in rests] == ["paragraph", "paragraph"]


def test_a_contents_on_the_last_page_is_set_aside() -> None:
    """nwejm: the class prints the table of contents at the end, after the references."""
    leaders = " . . . . . . . . . . . . . . . . . . . . . ."
    blocks = [_block("Article's Title", "title", size=17)]
    for page in range(1, 7):
        blocks += [_section(f"{page} Section {page}", page=page), _block(PROSE, lines=3, page=page)]
    label = _section("Contents", page=7)
    entries = [_block(f"2{page} Section {page}{leaders}", lines=2, page=7) for page in range(1, 4)]
    blocks += [label, *entries]
    set_aside_contents(blocks)
    assert [block.kind for block in [label, *entries]] == ["furniture"] * 4
