"""Headings and tables left on the ninth unseen batch (issue 32, R packages' vignettes), each
built from blocks or lines as the layout step hands them on: subsections titled "Example n: …"
found by the type of their cousins (genoPlotR), an appendix's sections numbered "A.3" with a
quoted title and its unnumbered lower level (BMS), a title that opens with a bracket (tgp), a
display's sum sign in a math face (magic), an axis's numbers read as one line (BMS), a heading
over a short line that hands over to R code (tm), EC's slanted typewriter (Sweave's input), a
table of one-word cells (partitions) and a table ruled over every row but its last (Mergeomics)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.back_headings import demote_back_labels
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.figure_labels import demote_axis_titles
from paperpyramid.parsers.embedded.headings import filter_headings, numbered_like_siblings
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.outline import _face_headings
from paperpyramid.parsers.embedded.parser import _require_following_text
from paperpyramid.parsers.embedded.table_columns import word_space
from paperpyramid.parsers.embedded.table_detect import not_a_table
from paperpyramid.parsers.embedded.table_region import find_region
from paperpyramid.parsers.embedded.table_rules import Rule
from tests.block_builders import Stack, whole_title

PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
BODY = "CMR10"
_block = Stack(size=9.0, font=BODY, heading=whole_title).block


def _section(number: str, title: str, size: float = 10.6, font: str = "CMBX12", bold: bool = True) -> Block:
    return _block(f"{number} {title}", "heading", size=size, bold=bold, font=font, number=number)


# --------------------------------------------------------------------------- numbered lines


def test_a_subsection_titled_like_a_statement_is_found_by_its_cousins_type() -> None:
    """genoPlotR: every subsection of "7 Examples" is titled "Example n: …" (a statement's label to
    the blocks), so no sibling shows the type; "3.1 dna_seg" and "4.1 DNA segments" do. The last
    one names two functions in typewriter: fewer bold letters, the same face."""
    seventh = _block("7.7 Example 7: Using user-defined gene_type and seg_plot", size=10.6, font="CMBX12")
    blocks = [
        _section("3", "Objects", 12.7),
        _section("3.1", "dna_seg"),
        _block(PROSE, lines=3),
        _section("4", "Reading data", 12.7),
        _section("4.1", "DNA segments"),
        _block(PROSE, lines=3),
        _section("7", "Examples", 12.7),
        _block(PROSE, lines=2),
        _block("7.1 Example 1: A very simple example", size=10.6, bold=True, font="CMBX12"),
        _block(PROSE, lines=3),
        seventh,
        _block(PROSE, lines=3),
    ]
    found = numbered_like_siblings(blocks, 9.0)
    assert [blocks[index].title for index in found] == [
        "Example 1: A very simple example",
        "Example 7: Using user-defined gene_type and seg_plot",
    ]


def test_an_appendix_section_with_a_quoted_title_is_found_by_its_siblings_type() -> None:
    """BMS: "A.3 'Bayesian Regression' with Zellner's g" beside "A.1" and "A.2" (CMB10, read as no
    bold: its size sets it apart), an unnumbered ``\\subsubsection*`` between them; and tgp's
    "2.4 (Treed) sequential D-optimal design" beside "2.3"."""
    blocks = [
        _section("A", "Appendix", 12.7, "CMB10", bold=False),
        _section("A.1", "Available Model Priors", font="CMB10", bold=False),
        _block(PROSE, lines=3),
        _section("A.2", "Available g-Priors", font="CMB10", bold=False),
        _block(PROSE, lines=3),
        _block("Fixed g", "heading", size=8.8, font="CMB10"),
        _block(PROSE, lines=3),
        _block("A.3 ’Bayesian Regression’ with Zellner’s g", size=10.6, font="CMB10"),
        _block(PROSE, lines=3),
        _section("2", "Methods", 12.7),
        _section("2.3", "Treed partitioning"),
        _block(PROSE, lines=3),
        _block("2.4 (Treed) sequential D-optimal design", size=10.6, bold=True, font="CMBX12"),
        _block(PROSE, lines=3),
    ]
    found = numbered_like_siblings(blocks, 8.0)
    assert [blocks[index].number for index in found] == ["A.3", "2.4"]


# --------------------------------------------------------------------------- after the references


def test_an_appendix_s_lower_level_after_the_references_stays() -> None:
    """BMS: ``\\subsubsection*{Uniform Model Prior}`` under "A.1 Available Model Priors", after the
    list: the appendix's heading face at a smaller size, larger than the body. A reference card's
    labels (zoo: a face of their own, the body's size) still go."""
    blocks = [
        _section("1", "Introduction", 12.7, "CMB10", bold=False),
        _block(PROSE, lines=3),
        _block("References", "heading", size=12.7, font="CMB10"),
        _block("Zeileis A (2006). Implementing a class of structural change tests. Computational Statistics, 50."),
        _section("A.1", "Available Model Priors", font="CMB10", bold=False),
        _block("Uniform Model Prior", "heading", size=8.8, font="CMB10"),
        _block(PROSE, lines=2),
        _block("Creation", "heading", size=8.0, bold=True, font="CMBX9"),
        _block(PROSE, lines=2),
    ]
    demote_back_labels(blocks, 8.0)
    assert [block.title for block in blocks if block.kind == "heading"] == [
        "Introduction",
        "References",
        "Available Model Priors",
        "Uniform Model Prior",
    ]


# --------------------------------------------------------------------------- outline


def test_a_display_s_sum_sign_in_a_math_face_is_no_heading() -> None:
    """magic: LMMathExtension10 sets the displays' sum signs, read as "Pd" and "Pn" over prose; a
    type of its own that sets nothing else, but a math face is no heading's."""
    blocks = [
        _section("1", "Overview", 12.0, "LMRoman12-Bold"),
        _block(PROSE, lines=3),
        _block("Pd", size=10.0, font="LMMathExtension10-Regular"),
        _block(PROSE, lines=3),
        _block("Pn", size=10.0, font="LMMathExtension10-Regular"),
        _block(PROSE, lines=3),
    ]
    blocks[0].kind = "heading"
    assert _face_headings(blocks, {0: (1, "Overview")}, 0, 11.0) == []
    for block in blocks[2:5:2]:
        block.lines[0].font = "LMRoman12-Italic"
    assert _face_headings(blocks, {0: (1, "Overview")}, 0, 11.0) == [2, 4]


# --------------------------------------------------------------------------- plots


def test_an_axis_title_after_its_numbers_read_as_one_line_is_no_heading() -> None:
    """BMS: "Cumulative Model Probabilities" under "0 0.01 0.02 0.04 0.05" (an axis's ticks read as
    one line) in the plot's Helvetica; a row of numbers out of order (a table's) proves nothing."""
    axis = _block("0 0.01 0.02 0.04 0.05 0.07", size=11.1, font="Helvetica")
    title = _block("Cumulative Model Probabilities", "heading", size=11.1, font="Helvetica")
    blocks = [_block(PROSE, lines=3), axis, title, _block(PROSE, lines=3)]
    demote_axis_titles(blocks)
    assert title.kind == "paragraph"
    title.kind = "heading"
    axis.lines[0].text = "12 3.5 7 0.2"
    demote_axis_titles(blocks)
    assert title.kind == "heading"


# --------------------------------------------------------------------------- headings over code


def test_a_heading_over_a_short_line_handing_over_to_code_stays() -> None:
    """tm: "Stemming" over "Stemming is done by:" (too short to read as prose) over R's input."""
    code = _block("> reuters <- tm_map(reuters, stemDocument)", size=9.2, font="SFST1000")
    blocks = [
        _block("Stemming", "heading", size=10.8, bold=True, font="SFBX1200"),
        _block("Stemming is done by:", size=10.0, font="SFRM1000"),
        code,
        _block("Filters", "heading", size=14.0, bold=True, font="SFBX1440"),
        _block(PROSE, lines=3),
    ]
    _require_following_text(blocks)
    assert blocks[0].kind == "heading"
    blocks[1].lines[0].text = "Stemming is done by"
    _require_following_text(blocks)
    assert blocks[0].kind == "paragraph"


def test_ec_slanted_and_italic_typewriter_are_typewriter_faces() -> None:
    """Sweave sets R's input in EC's slanted typewriter ("SFST1000", "ECST1000") and some styles in
    its italic typewriter ("SFIT1000"); the text italic ("SFTI1000") and slanted roman ("SFSL1000") are not."""
    assert all(MONOSPACE_FONT.search(face) for face in ("SFST1000", "ECST1000", "SFIT1000", "SFTT1000"))
    assert not any(MONOSPACE_FONT.search(face) for face in ("SFTI1000", "SFSL1000", "SFRM1000", "SFBX1200"))


# --------------------------------------------------------------------------- tables


def _row(cells: list[tuple[str, float, float]], top: float, size: float = 9.7) -> Line:
    text = " ".join(word for word, _, _ in cells)
    return Line(
        text=text,
        page=1,
        x0=cells[0][1],
        top=top,
        x1=cells[-1][2],
        bottom=top + size,
        size=size,
        bold=False,
        italic=False,
        font=BODY,
        words=cells,
    )


def test_a_table_of_one_word_cells_has_no_space_as_wide_as_its_gaps() -> None:
    """partitions: "(1234) (123)(4) (12)(34) (12)(3)(4) (1)(2)(3)(4)", every gap parting two cells:
    the lower quartile of the gaps is a column's gap, so the space is held to half an em."""
    lines = [
        _row(
            [("(1234)", 172, 200), ("(123)(4)", 214, 253), ("(12)(34)", 267, 302), ("(12)(3)(4)", 316, 363), ("(1)(2)(3)(4)", 377, 431)],
            110,
        ),
        _row([("(124)(3)", 214, 253), ("(13)(24)", 267, 302), ("(13)(2)(4)", 316, 363)], 124),
    ]
    space = word_space(lines)
    assert space is not None and space <= 0.5 * 9.7
    prose = [_row([("The", 72, 88), ("model", 91.3, 116), ("was", 119.3, 135), ("fitted", 138.3, 162)], 200)]
    assert abs((word_space(prose) or 0.0) - 3.3) < 0.01  # a line of prose keeps its own space


def test_the_last_row_of_a_table_ruled_over_every_row_belongs_to_it() -> None:
    """Mergeomics: ``\\hline`` before every row and none after the last: the last rule is not the
    table's end; the row under it, its cells where the cells above start, is. A paragraph after
    a table closed by its rule stays out."""
    caption = (222.0, 139.5, 388.0, 149.7)
    rules = [Rule(186.0, top, 424.0, top) for top in (151.0, 164.0, 178.0, 192.0, 206.0)]
    # the layout hands each cell on as a line of its own, the columns set far apart
    lines = [_row([("Pathways", 190, 230)], 153.0), _row([("FDRs", 300, 330)], 153.0)]
    for top in (166.0, 180.0, 194.0, 208.0):
        lines += [_row([("5099", 190, 212)], top), _row([("6.05%", 300, 330)], top)]
    lines += [_row([("Running", 72, 110), ("text", 113, 130), ("after", 133, 160), ("the", 163, 178), ("table", 181, 540)], 260.0)]
    region = find_region(lines, rules, (0.0, 0.0, 612.0, 792.0), caption)
    assert region is not None and region[3] > 218.0
    closed = [*rules, Rule(186.0, 220.0, 424.0, 220.0)]
    lines.insert(-1, _row([("Text", 72, 540)], 226.0))
    region = find_region(lines, closed, (0.0, 0.0, 612.0, 792.0), caption)
    assert region is not None and region[3] < 226.0


def test_filter_headings_keeps_the_appendix_level_end_to_end() -> None:
    """The appendix's lower level passes :func:`filter_headings` as a whole."""
    blocks = [
        _section("1", "Introduction", 12.7, "CMB10", bold=False),
        _block(PROSE, lines=3),
        _block("References", "heading", size=12.7, font="CMB10"),
        _block("Zeileis A (2006). Implementing a class of structural change tests. Computational Statistics, 50."),
        _section("A.1", "Available Model Priors", font="CMB10", bold=False),
        _block(PROSE, lines=3),
        _block("Uniform Model Prior", "heading", size=8.8, font="CMB10"),
        _block(PROSE, lines=2),
    ]
    filter_headings(blocks, 8.0)
    assert "Uniform Model Prior" in [block.title for block in blocks if block.kind == "heading"]


def test_a_header_row_the_caption_s_block_took_in_starts_the_table() -> None:
    """Mergeomics: "Key Drivers MODULES Pvalues FDRs" set close under "Table 2: Summary result of
    wKDA" was read into the caption's block: its words an em apart and more are cells, so the
    table starts at it; a caption's own second line spaces its words as prose does."""
    caption = _row([("Table", 222, 246), ("2:", 249, 258), ("Summary", 261, 300), ("result", 303, 330)], 139.5)
    header = _row([("Key", 146, 162), ("Drivers", 165, 200), ("MODULES", 225, 262), ("Pvalues", 299, 333), ("FDRs", 350, 375)], 152.5)
    rules = [Rule(140.0, top, 470.0, top) for top in (151.0, 164.0, 178.0, 192.0)]
    lines = [caption, header]
    for top in (166.0, 180.0, 194.0):
        lines += [_row([("Itih4", 146, 169)], top), _row([("4932", 225, 246)], top), _row([("0.00%", 350, 375)], top)]
    box = (146.0, 139.5, 375.0, header.bottom)
    region = find_region(lines, rules, (0.0, 0.0, 612.0, 792.0), box)
    assert region is not None and region[1] < header.top
    header.words = [("and", 146, 162), ("the", 165, 180), ("second", 183, 215), ("line", 218, 235)]
    region = find_region(lines, rules, (0.0, 0.0, 612.0, 792.0), box)
    assert region is not None and region[1] > header.top


def test_knitr_s_output_after_its_doubled_comment_mark_is_no_table() -> None:
    """metagenomeSeq: R's printed matrix after knitr's "##" read in columns, without a caption: a
    program's output, not a table; a table with a "# of reads" column stays one."""
    output = [
        ["##", "PM1:20080107 PM1:20080108", "PM1:20080114"],
        ["## Actinobacteria", "0 3", "2"],
        ["## Bacteroidetes", "486 921", "1103"],
        ["## Firmicutes", "455 922", "1637"],
    ]
    assert not_a_table(output)
    table = [["Sample", "# of reads", "Depth"], ["PM1", "486", "921"], ["PM2", "455", "922"], ["PM3", "37", "12"]]
    assert not not_a_table(table)
