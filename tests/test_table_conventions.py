"""Publishing conventions the table engine reads, on small constructed pages: a cell wrapped over
lines in a table whose rows all sit alike, a caption set well below its table, subtables stacked
under one caption, a header of two levels beside labels set halfway down it, a running head set low
over a table, a table no rule closes followed by a heading, a caption under its table with the
next table close under it, and pdfium's marks for a hyphen that breaks a word (a manuscript's line
numbers beside a table: tests/test_gutter_numbers.py)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import word_segments
from paperpyramid.parsers.embedded.table_detect import mark_uncaptioned
from paperpyramid.parsers.embedded.table_engine import table_rows
from paperpyramid.parsers.embedded.table_headers import two_level_header
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows
from paperpyramid.parsers.embedded.table_rules import BBox, Rule
from paperpyramid.parsers.embedded.table_stacks import first_part

# a character of 10 pt type is this wide (the constructed pages' only font)
_CHAR = 5.0


def _line(text: str, x0: float, top: float, size: float = 10.0) -> Line:
    """A line of ``text`` from ``x0``, its words spaced as a font of ``size`` sets them."""
    words, x, char = [], x0, _CHAR * size / 10
    for word in text.split():
        words.append((word, x, x + char * len(word)))
        x += char * (len(word) + 1)
    return Line(text, 1, x0, top, words[-1][2], top + size, size, False, False, "Times", words=words)


def _cells(lines: list[Line], edges: list[float]) -> list[list[str]]:
    rows = join_rows(printed_rows(lines), [], edges)
    return [row_cells(row, edges) for row in rows]


def test_a_cell_wrapped_at_the_leading_of_its_rows_is_one_cell() -> None:
    # JSS and PeerJ set a table's wrapped cells at the text's leading: no gap tells the lines of
    # a cell from the next row; the line under one that filled its column goes on with it
    edges = [80.0, 200.0, 300.0, 460.0]
    text = [
        ("Module", "R function", "Description"),
        ("Formula module", "lFormula", "Accepts a mixed-model formula,"),
        ("", "", "data, and other user inputs, and"),
        ("", "", "returns a list of objects."),
        ("Output module", "mkMerMod", "Accepts an optimized deviance"),
        ("", "", "function and packages the re-"),
        ("", "", "sults into a useful object."),
    ]
    lines = [
        _line(cell, edge + 1, 100 + 13.5 * row, 10)
        for row, cells in enumerate(text)
        for cell, edge in zip(cells, edges, strict=False)
        if cell
    ]
    cells = _cells(lines, edges)
    assert cells == [
        ["Module", "R function", "Description"],
        ["Formula module", "lFormula", "Accepts a mixed-model formula, data, and other user inputs, and returns a list of objects."],
        ["Output module", "mkMerMod", "Accepts an optimized deviance function and packages the results into a useful object."],
    ]


def test_a_row_of_a_group_under_its_label_stays_a_row() -> None:
    # "mild" would have fitted after "severe": the line above ended its cell, so it is a new row
    edges = [80.0, 200.0, 320.0, 460.0]
    text = [
        ("Variable", "Level", "Outcome"),
        ("Severity", "severe", "relapse within a year"),
        ("", "mild", "no relapse"),
        ("Sex", "female", "no relapse"),
    ]
    lines = [
        _line(cell, edge + 1, 100 + 13.5 * row, 10)
        for row, cells in enumerate(text)
        for cell, edge in zip(cells, edges, strict=False)
        if cell
    ]
    assert len(_cells(lines, edges)) == 4


def test_a_cell_cut_out_of_its_line_reads_pdfiums_hyphen_as_a_hyphen() -> None:
    # pdfium hands over the hyphen that breaks a word at a line's end as U+FFFE (or \x02) in the
    # words of the line; its text has "-" already, and a cell cut by the words must too
    line = _line("Offset double sparse lower\ufffe", 80, 100)
    line.text = "Offset double sparse lower-"
    line.words = [("Offset", 80, 110), ("double", 200, 230), ("sparse", 235, 265), ("lower\ufffe", 270, 300)]
    texts = [segment.text for segment in word_segments([line], 5.0)]
    assert texts == ["Offset", "double sparse lower-"]


def _row_block(cells: list[tuple[str, float]], top: float) -> Block:
    return Block([_line(text, x0, top) for text, x0 in cells])


def test_a_caption_set_well_below_its_table_takes_the_table_found_without_one() -> None:
    # JSS prints a table's caption under the table and its notes, further down than the engine
    # looks up from a caption: the table found without a caption is that caption's
    rows = [[("Name", 90), ("Pseudocode", 230), ("Type", 400)]]
    rows += [[(f"Quantity {k}", 90), (f"q{k}", 230), ("double vector", 400)] for k in range(5)]
    blocks = [_row_block(row, 110 + 13.5 * k) for k, row in enumerate(rows)]
    blocks.append(Block([_line("a In previous versions of the package a sparse matrix could be given.", 90, 200, 8)]))
    caption = Block([_line("Table 5: Inputs into a linear mixed model.", 200, 232)], kind="caption", label="5")
    caption.extra.update({"caption_kind": "table", "members": [], "found": None})
    blocks.append(caption)
    cells = [["Name", "Pseudocode", "Type"], *[[f"Quantity {k}", f"q{k}", "double vector"] for k in range(5)]]

    def tables(page: int, box: BBox) -> list[list[str]] | None:
        return cells

    mark_uncaptioned(blocks, tables)
    assert caption.extra["found"] == cells
    assert caption.extra["members"] == list(range(6))
    assert sum(1 for block in blocks if block.kind == "caption") == 1  # no caption-less table beside it


def test_stacked_subtables_are_read_as_their_first_part() -> None:
    # "Table 2" over "(a)" and "(b)", each with its own header: the caption's table is part (a)
    lines = [_line("(a)", 390, 87), _line("Authors", 70, 100), _line("Age", 300, 100)]
    lines += [_line(f"Author {k}", 70, 113 + 13 * k) for k in range(4)] + [_line(f"{40 + k} M", 300, 113 + 13 * k) for k in range(4)]
    lines += [_line("(b)", 390, 170), _line("Imaging", 70, 183), _line("Treatment", 300, 183), _line("Outcome", 500, 183)]
    assert first_part(lines, (50.0, 80.0, 700.0, 300.0)) == (50.0, 97.5, 700.0, 169.5)


def test_a_cell_reading_a_b_is_no_subtable_mark() -> None:
    # a mark with its row's cells beside it is a cell
    lines = [_line("(a)", 70, 100), _line("first", 300, 100), _line("(b)", 70, 113), _line("second", 300, 113)]
    assert first_part(lines, (50.0, 80.0, 700.0, 300.0)) == (50.0, 80.0, 700.0, 300.0)


def test_a_label_over_the_labels_it_spans_beside_labels_set_halfway_down_is_a_header_of_two_rows() -> None:
    # Hindawi: "Number (percentage)" centred over "Disagree", "Indifferent", "Agree", with
    # "Variables" set halfway down the two lines; the lines chain into one printed row
    edges = [50.0, 350.0, 420.0, 500.0, 560.0]
    lines = [
        _line("Number (percentage)", 416, 223.4, 8.8),
        _line("Variables", 52.6, 228.7, 8.8),
        _line("Disagree", 362.8, 235.9, 8.8),
        _line("Indifferent", 434.1, 235.9, 8.8),
        _line("Agree", 517.9, 235.9, 8.8),
        _line("PMTCT program is very important", 52.6, 248.7, 8.8),
        _line("24 (6.9)", 364.6, 248.7, 8.8),
        _line("29 (8.3)", 439.6, 248.7, 8.8),
        _line("297 (84.9)", 510.4, 248.7, 8.8),
    ]
    rules = [Rule(50.0, 245.5, 560.0, 245.5)]
    rows = join_rows(two_level_header(printed_rows(lines), edges, rules), rules, edges)
    assert [row_cells(row, edges) for row in rows] == [
        ["Variables", "Number (percentage)", "", ""],
        ["", "Disagree", "Indifferent", "Agree"],
        ["PMTCT program is very important", "24 (6.9)", "29 (8.3)", "297 (84.9)"],
    ]


def test_a_caption_under_a_tables_last_part_takes_it_past_the_parts_caption_and_the_other_column() -> None:
    # EMNLP: "(b) Number of …" under the table's last part, "Table 2: …" under that, and the right
    # column's running text beside them all
    rows = [[("Fold", 75), ("Supports", 130), ("All", 250)]]
    rows += [[(f"Split {k}", 75), (f"{100 + k}", 130), (f"{300 + k}", 250)] for k in range(5)]
    blocks = [_row_block(row, 70 + 11 * k) for k, row in enumerate(rows)]
    blocks.append(Block([_line("(b) Number of evidence abstracts per claim.", 75, 140, 9)]))
    right = [_line("running text of the right column " * 2, 310, 60 + 11 * k, 9) for k in range(20)]
    for line in right:
        line.column = 1
    blocks.append(Block(right))
    caption = Block([_line("Table 2: Statistics on claim labels.", 75, 190, 9)], kind="caption", label="2")
    caption.extra.update({"caption_kind": "table", "members": [], "found": None})
    blocks.append(caption)
    cells = [["Fold", "Supports", "All"], *[[f"Split {k}", f"{100 + k}", f"{300 + k}"] for k in range(5)]]
    mark_uncaptioned(blocks, lambda page, box: cells)
    assert caption.extra["found"] == cells


def test_a_table_over_its_caption_at_the_top_of_a_page_ends_under_the_running_head() -> None:
    # JSS sets its running head ("20 | Linear Mixed Models with lme4") lower than most journals,
    # a little over two lines above a table printed at the top of the page over its caption
    lines = [_line("20", 81, 75.8, 10.9), _line("Linear Mixed Models with lme4", 236, 76.3, 9.9)]
    lines += [_line("Pseudocode", 242, 110.6, 10.9), _line("Math", 310, 110.6, 10.9)]
    lines += [_line(f"Code{k}", 242, 124 + 13.5 * k, 10.9) for k in range(5)]
    lines += [_line(f"Z{k}", 310, 124 + 13.5 * k, 10.9) for k in range(5)]
    caption = _line("Table 6: Constant symbols involved in penalized least squares.", 150, 215, 10.9)
    lines.append(caption)
    cells = table_rows(lines, [], (0.0, 0.0, 595.0, 842.0), (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None and cells[0] == ["Pseudocode", "Math"]


def test_a_table_no_rule_closes_ends_at_a_wide_gap() -> None:
    # AIAA: a table ruled over and under its header only, then a heading and a short paragraph
    # further down the page (too few lines of running text to tell its margins)
    lines = [_line("Re", 250, 80, 8), _line("Vary", 290, 80, 8), _line("Fixed", 330, 80, 8)]
    for k in range(6):
        lines += [
            _line(str(10 * k + 1), 250, 92 + 10 * k, 8),
            _line(str(800 - k), 290, 92 + 10 * k, 8),
            _line(f"4,{271 + k}", 330, 92 + 10 * k, 8),
        ]
    lines += [_line("Appendix", 280, 180, 12), _line("An appendix, if needed, should appear before it.", 100, 200, 10)]
    lines += [_line("Acknowledgments", 270, 225, 12), _line("A place to recognize others.", 100, 245, 10)]
    caption = _line("Table 1. Variable and Fixed Coefficient Schemes", 150, 60, 8)
    rules = [Rule(245, 77, 360, 77), Rule(245, 90, 360, 90)]
    cells = table_rows([caption, *lines], rules, (0.0, 0.0, 612.0, 792.0), (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None and len(cells) == 7 and not any("Appendix" in cell for row in cells for cell in row)


def test_a_caption_that_closes_the_table_above_it_does_not_take_the_table_under_it() -> None:
    # JSS: table 3 at the top of the page, "Table 3: …" under its bottom rule, then table 4
    # (ruled) close under it, then "Table 4: …" just under table 4's bottom rule
    lines = [_line("Symbol", 130, 111, 10.9), _line("Size", 250, 111, 10.9)]
    lines += [_line(f"p{k}", 130, 126 + 13.5 * k, 10.9) for k in range(8)] + [
        _line(f"Number of columns {k}", 250, 126 + 13.5 * k, 10.9) for k in range(8)
    ]
    lines += [_line("Table 3: Dimensions of linear mixed models.", 81, 257.6, 10.9), _line("random-effects term.", 81, 271.2, 10.9)]
    lines += [_line("Symbol", 154, 294.8, 10.9), _line("Size", 202, 294.8, 10.9), _line("Description", 245, 294.8, 10.9)]
    for k in range(5):
        lines += [_line(f"X{k}", 154, 309 + 13.5 * k, 10.9), _line(f"n{k}", 202, 309 + 13.5 * k, 10.9)]
        lines.append(_line(f"Column vector number {k}", 245, 309 + 13.5 * k, 10.9))
    caption = _line("Table 4: Symbols used to describe the structure.", 81, 390, 10.9)
    lines.append(caption)
    rules = [
        Rule(130, 109.1, 473, 109.1),
        Rule(130, 123.0, 473, 123.0),
        Rule(130, 247.1, 473, 247.1),
        Rule(148, 293.3, 455, 293.3),
        Rule(148, 307.3, 455, 307.3),
        Rule(148, 378.5, 455, 378.5),
    ]
    cells = table_rows(lines, rules, (0.0, 0.0, 595.0, 842.0), (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None and cells[0] == ["Symbol", "Size", "Description"] and len(cells) == 6


def test_a_caption_over_its_table_close_under_the_table_before_keeps_its_own_table() -> None:
    # MDPI: each caption over its table, just under the bottom rule of the table before
    lines = [_line("Table 1. Chemical composition of the water.", 200, 90, 9)]
    lines += [_line(name, x, 109, 9) for name, x in (("CaCl2", 220), ("pH", 280), ("HNO3", 330))]
    lines += [_line(value, x, 125, 9) for value, x in (("133.2", 220), ("6.8", 280), ("22.2", 330))]
    lines += [_line("Table 2. Chemical composition of the steel.", 200, 150, 9)]
    lines += [_line(name, x, 170, 9) for name, x in (("Fe", 220), ("C", 280), ("P", 330))]
    lines += [_line(value, x, 185, 9) for value, x in (("Balance", 210), ("0.25", 280), ("0.04", 330))]
    caption = _line("Table 3. Welding procedure specification.", 200, 210, 9)
    lines.append(caption)
    lines += [_line("Welding Process", 130, 232, 9), _line("GTAW", 350, 232, 9)]
    lines += [_line(f"Setting {k}", 130, 247 + 12 * k, 9) for k in range(5)] + [
        _line(f"{10 + k} V", 350, 247 + 12 * k, 9) for k in range(5)
    ]
    rules = [Rule(200, 106, 390, 106), Rule(200, 121, 390, 121), Rule(200, 138, 390, 138)]
    rules += [Rule(200, 166, 390, 166), Rule(200, 181, 390, 181), Rule(200, 198, 390, 198)]
    rules += [Rule(120, 228, 500, 228), Rule(120, 243, 500, 243), Rule(120, 308, 500, 308)]
    cells = table_rows(lines, rules, (0.0, 0.0, 595.0, 842.0), (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None and cells[0] == ["Welding Process", "GTAW"]
