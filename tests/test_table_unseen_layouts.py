"""Tables as publishers' LaTeX classes set them, drawn in the test after the unseen sets'
samples (``benchmarks/unseen_tables.py --latex``): a column of commands in a typewriter face
(MNRAS), a box ruled only between groups of rows (the Journal of Statistical Software), a
header wrapped over lines above columns of numbers and a caption of its label alone over an
italic title (APA 7), and captions set at the top of several pages (MNRAS)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_FONT = "Times-Roman"


def test_a_typewriter_cell_keeps_its_spaces(tmp_path: Path) -> None:
    # a typewriter face spaces its words a whole character apart, wider than 1.5 of the table's
    # roman spaces: "\citep[see][figure 7]{key}" was cut in two, an empty column opened beside it
    page = Canvas(595.0, 842.0)
    page.text(60, 60, "Table 5. Common citation commands, provided by the natbib package.", _FONT, 8)
    page.rule(60, 66, 450, 66, 0.5)
    rows = (
        ("Command", "Output", "Note"),
        (r"\citet{key}", "Smith (2014)", ""),
        (r"\citep{key,key2}", "(Smith 2014; Jones 2015)", "Multiple papers"),
        (r"\citet[table 4]{key}", "Smith (2014, table 4)", ""),
        (r"\citep[see][figure 7]{key}", "(see Smith 2014, figure 7)", ""),
        (r"\citealt{key}", "Smith 2014", "For use with manual brackets"),
        (r"\citeauthor{key}", "Smith", "If already cited in close proximity"),
    )
    for index, cells in enumerate(rows):
        for x, cell in zip((62, 200, 330), cells, strict=True):
            page.text(x, 78 + 10 * index, cell, "Courier" if index and x == 62 else _FONT, 7.5)
    page.rule(60, 82, 450, 82, 0.3)
    page.rule(60, 143, 450, 143, 0.5)
    pdf = tmp_path / "commands.pdf"
    pdf.write_bytes(write_pdf([page], "typewriter cells"))
    rows_read = extract_table(pdf, *_caption(pdf, "Table 5."))
    assert rows_read is not None
    assert [row[:2] for row in rows_read] == [[row[0], row[1]] for row in rows]


def _group_box_page() -> Canvas:
    """A table boxed and ruled between its columns, its rows ruled only between their groups;
    the last column's descriptions wrapped over lines beside one-line cells; its caption under it."""
    page = Canvas(612.0, 792.0)
    left, columns, right = 80, (80, 160, 240, 300), 520
    groups = (
        (
            ("GLM", "Poisson", "ML", ("Poisson regression: classical GLM,", "estimated by maximum likelihood")),
            ("", "", "quasi", ("quasi-Poisson regression: same mean", "function, estimated by quasi-ML or", "by estimating equations")),
            ("", "", "adjusted", ("adjusted Poisson regression: same", "mean function, sandwich covariances")),
            ("", "NB", "ML", ("NB regression: extended GLM, estimated", "by ML with a shape parameter")),
        ),
        (("hurdle", "Poisson", "ML", ("hurdle Poisson",)), ("", "NB", "ML", ("hurdle NB",))),
    )
    top, y = 80.0, 93.0
    for x, label in zip(columns, ("Type", "Distribution", "Method", "Description"), strict=True):
        page.text(x + 4, y, label, _FONT, 10)
    rules = [top, y + 4]
    y += 4
    for group in groups:
        for cells in group:
            y += 12
            for x, cell in zip(columns[:3], cells[:3], strict=True):
                page.text(x + 4, y, cell, _FONT, 10)
            for number, line in enumerate(cells[3]):
                page.text(columns[3] + 4, y + 12 * number, line, _FONT, 10)
            y += 12 * (len(cells[3]) - 1)
        y += 4
        rules.append(y)
    for ruled in rules:
        page.rule(left, ruled, right, ruled, 0.4)
    for x in (*columns, right):
        page.rule(x, top, x, rules[-1], 0.4)
    page.text(80, rules[-1] + 24, "Table 1: Overview of the models discussed, by type and method.", _FONT, 10)
    for number in range(12):
        page.text(80, rules[-1] + 60 + 13 * number, "Running text under the table goes on in its column as a paper sets it.", _FONT, 10)
    return page


def test_a_box_ruled_between_groups_of_rows_reads_each_row(tmp_path: Path) -> None:
    # the band between two group rules was one row (the lattice's cell, or the band of wrapped
    # cells joined): a column that resumes after lines it leaves empty ("ML", then "quasi" three
    # lines down) opens a new row there
    pdf = tmp_path / "groups.pdf"
    pdf.write_bytes(write_pdf([_group_box_page()], "groups ruled"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1:"))
    assert rows is not None
    assert [row[:3] for row in rows] == [
        ["Type", "Distribution", "Method"],
        ["GLM", "Poisson", "ML"],
        ["", "", "quasi"],
        ["", "", "adjusted"],
        ["", "NB", "ML"],
        ["hurdle", "Poisson", "ML"],
        ["", "NB", "ML"],
    ]
    assert rows[2][3] == "quasi-Poisson regression: same mean function, estimated by quasi-ML or by estimating equations"


def _apa_page() -> Canvas:
    """APA 7's table: its label in bold on a line of its own, its title in italics a blank line
    under it, a header wrapped over three lines, one label over two columns of numbers."""
    page = Canvas(612.0, 792.0)
    for number in range(6):
        page.text(72, 80 + 13 * number, "The procedure was fairly straightforward, and the data are in the table.", _FONT, 10)
    page.text(72, 180, "Table 1", "Times-Bold", 10)
    page.text(72, 204, "A Complex Table", "Times-Italic", 10)
    page.rule(72, 208, 300, 208, 0.5)
    header = (
        ("Distribution type", "Percentage of", "Total number"),
        ("", "targets with", "of trials per"),
        ("", "segment in", "participant"),
    )
    for index, cells in enumerate(header):
        for x, cell in zip((72, 170, 250), cells, strict=True):
            page.text(x, 220 + 12 * index, cell, _FONT, 10)
    page.rule(170, 250, 226, 250, 0.4)
    page.text(170, 262, "Onset", _FONT, 10)
    page.text(205, 262, "Coda", _FONT, 10)
    page.rule(72, 266, 300, 266, 0.4)
    body = (("Categorical - onset", "100", "0", "196"), ("Probabilistic", "80", "20*", "200"), ("Categorical - coda", "0", "100*", "196"))
    for index, cells in enumerate(body):
        page.text(72, 278 + 12 * index, cells[0], _FONT, 10)
        for right_edge, cell in zip((192, 226, 300), cells[1:], strict=True):
            page.text(right_edge - text_width(cell, _FONT, 10), 278 + 12 * index, cell, _FONT, 10)
    page.rule(72, 308, 300, 308, 0.5)
    page.text(72, 320, "Note. All data are approximate.", _FONT, 9)
    for number in range(8):
        page.text(72, 350 + 13 * number, "The results section goes on under the table, as the paper sets its text.", _FONT, 10)
    return page


def test_a_header_wrapped_over_columns_of_numbers_leaves_them_apart(tmp_path: Path) -> None:
    # "Percentage of / targets with / segment in" crosses the river between "Onset" and "Coda":
    # the river the body's values leave open parts them; and the italic title under a caption of
    # its label alone is the caption's, not a row of the table
    pdf = tmp_path / "apa.pdf"
    pdf.write_bytes(write_pdf([_apa_page()], "apa table"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1"))
    assert rows is not None
    assert rows[0][0] == "Distribution type"
    assert ["", "Onset", "Coda", ""] in rows
    assert rows[-2:] == [["Probabilistic", "80", "20*", "200"], ["Categorical - coda", "0", "100*", "196"]]


def test_the_title_under_a_caption_of_its_label_alone_stays_text(tmp_path: Path) -> None:
    pdf = tmp_path / "apa.pdf"
    pdf.write_bytes(write_pdf([_apa_page()], "apa table"))
    document = parse_pdf(pdf)
    (table,) = document.tables
    assert all("A Complex Table" not in cell for row in table.cells for cell in row)
    assert "A Complex Table" in " ".join(section.text for section in document.sections)


def test_captions_at_the_top_of_several_pages_are_no_running_head(tmp_path: Path) -> None:
    # MNRAS sets its floats at the top of the page: three pages opening with a table caption, in
    # the same font, size and place, were read as a running head and their captions dropped
    pages = []
    captions = ("Masses of the stars in the sample.", "Luminosities measured in the survey.", "Distances derived from parallaxes.")
    for number in range(1, 5):
        page = Canvas(595.0, 842.0)
        page.text(60, 40, f"{number}   A. N. Author", _FONT, 9)
        baseline = 64.0
        if number > 1:
            page.text(60, 64, f"Table {number - 1}. {captions[number - 2]}", _FONT, 8)
            page.rule(60, 74, 300, 74, 0.5)
            for row in range(4):
                for column, x in enumerate((62, 140, 220)):
                    page.text(x, 88 + 10 * row, f"{row + column}.{number}{row}" if column else f"Star {row + 1}", _FONT, 8)
            page.rule(60, 122, 300, 122, 0.5)
            baseline = 146.0
        for line in range(30):
            page.text(60, baseline + 13 * line, "Running text of the paper goes on down the page as papers set it.", _FONT, 10)
        pages.append(page)
    pdf = tmp_path / "tops.pdf"
    pdf.write_bytes(write_pdf(pages, "captions at the top"))
    tables = parse_pdf(pdf).tables
    assert [table.label for table in tables] == ["1", "2", "3"]
    assert all(table.cells[0] == ["Star 1", f"1.{table.page}0", f"2.{table.page}0"] for table in tables)


def test_notes_under_the_bottom_rule_are_no_rows(tmp_path: Path) -> None:
    # under OUP's table, a figure's frame and an algorithm's rules in one column each: their
    # rules, narrower than the table's, closed its region, so the notes between were read as
    # rows and their long lines closed the rivers between its first columns
    from tests.test_table_region_rules import _oup_page

    pdf = tmp_path / "oup.pdf"
    pdf.write_bytes(write_pdf([_oup_page()], "notes under a table"))
    rows = extract_table(pdf, *_caption(pdf, "Table 2."))
    assert rows == [
        ["Project", "Energy", "Calc", "Expt", "Energy", "Calc", "Expt"],
        ["Element 3", "990 A", "1168", "1547", "780 A", "1166", "1239"],
        ["Element 4", "500 A", "961", "922", "900 A", "1268", "1092"],
    ]


def test_a_spanning_label_with_a_note_mark_heads_its_first_column(tmp_path: Path) -> None:
    # "Element 1" with its note's mark, read "Element 11", looked like a row of values: the
    # header was taken to have no rows, and the label stayed in the column its left edge is in
    page = Canvas(595.0, 842.0)
    page.text(54, 60, "Table 2. Example of a lengthy table which is set to full textwidth.", _FONT, 8)
    page.rule(54, 66, 542, 66, 0.6)
    page.text(204, 78, "Element 1", _FONT, 8)
    page.text(236, 75, "1", _FONT, 5.5)
    page.text(428, 78, "Element 2", _FONT, 8)
    page.text(460, 75, "2", _FONT, 5.5)
    page.rule(139, 81, 315, 81, 0.4)
    page.rule(361, 81, 542, 81, 0.4)
    columns = (54, 140, 220, 290, 362, 440, 500)
    for x, label in zip(columns, ("Project", "Energy", "Calc", "Expt", "Energy", "Calc", "Expt"), strict=True):
        page.text(x, 92, label, _FONT, 8)
    page.rule(54, 96, 542, 96, 0.4)
    body = (("Element 3", "990 A", "1168", "1547", "780 A", "1166", "1239"), ("Element 4", "500 A", "961", "922", "900 A", "1268", "1092"))
    for row, cells in enumerate(body):
        for x, cell in zip(columns, cells, strict=True):
            page.text(x, 108 + 12 * row, cell, _FONT, 8)
    page.rule(54, 124, 542, 124, 0.6)
    for line in range(20):
        page.text(54, 160 + 13 * line, "Running text of the paper goes on under the table across the page, as it is set.", _FONT, 10)
    pdf = tmp_path / "spans.pdf"
    pdf.write_bytes(write_pdf([page], "a spanning label"))
    rows = extract_table(pdf, *_caption(pdf, "Table 2."))
    assert rows is not None
    assert [bool(cell) for cell in rows[0]] == [False, True, False, False, True, False, False]
    assert rows[1:] == [["Project", "Energy", "Calc", "Expt", "Energy", "Calc", "Expt"], *[list(cells) for cells in body]]


def test_a_box_ruled_between_columns_of_values_reads_each_row(tmp_path: Path) -> None:
    # PMLR's "table with horizontal and vertical lines": a two-column box ruled under its header
    # only, numbers filling most of their narrow column: its body was one cell per column
    page = Canvas(612.0, 792.0)
    page.text(200, 90, "Table 4: A Table With Horizontal and Vertical Lines", _FONT, 10)
    left, middle, right, top = 250.0, 306.0, 356.0, 104.0
    page.text(254, 116, "Dataset", "Times-Bold", 10)
    page.text(310, 116, "Result", "Times-Bold", 10)
    rows = (("Data1", "0.12345"), ("Data2", "0.67890"), ("Data3", "0.54321"), ("Data4", "0.09876"))
    for index, (name, value) in enumerate(rows):
        page.text(254, 134 + 12 * index, name, _FONT, 10)
        page.text(310, 134 + 12 * index, value, _FONT, 10)
    bottom = 134 + 12 * 3 + 5
    for y in (top, 121.0, bottom):
        page.rule(left, y, right, y, 0.4)
    for x in (left, middle, right):
        page.rule(x, top, x, bottom, 0.4)
    for line in range(20):
        page.text(72, 220 + 13 * line, "Running text of the paper goes on under the table across the page, as it is set.", _FONT, 10)
    pdf = tmp_path / "boxed.pdf"
    pdf.write_bytes(write_pdf([page], "a boxed table"))
    assert extract_table(pdf, *_caption(pdf, "Table 4:")) == [["Dataset", "Result"], *[list(row) for row in rows]]


def test_cells_wrapped_in_narrow_columns_join_their_rows(tmp_path: Path) -> None:
    # JSS's tables of p{} columns: every line at one pitch, rows and wrapped lines alike; a label
    # wrapped in the first column ("Random-effects Cholesky" over "factor") and a type broken
    # in the last ("triangu-" over "lar matrix") go on with their row, though the lines over
    # them are justified (cut at their stretched spaces) and a raised index makes the gaps uneven
    page = Canvas(612.0, 792.0)
    page.text(72, 60, "Table 7: Quantities updated during an evaluation of the model.", _FONT, 10)
    page.rule(72, 66, 480, 66, 0.5)
    columns = (74, 200, 270, 380)
    lines = (
        ("Name/description", "Pseudocode", "Math", "Type"),
        ("Relative covariance factor", "lambda", "Lambda (Equation 4)", "double sparse lower-"),
        ("", "", "", "triangular matrix"),
        ("Random-effects Cholesky", "L", "L (Equation 18)", "double sparse triangu-"),
        ("factor", "", "", "lar matrix"),
        ("Fixed-effects coefficients", "beta", "beta (Equation 2)", "double dense matrix"),
        ("Spherical conditional", "u", "u (Section 3.1)", "double dense matrix"),
        ("modes", "", "", ""),
        ("Linear predictor", "mu", "mu (Equation 13)", "double dense matrix"),
    )
    # justified lines, each word set where the stretched spaces put it: pieces of one line
    justified = {"Random-effects Cholesky": (74, 156), "double sparse lower-": (380, 414, 452), "double sparse triangu-": (380, 412, 446)}
    for index, cells in enumerate(lines):
        for x, cell in zip(columns, cells, strict=True):
            for start, word in zip(justified.get(cell, (x,)), cell.split() if cell in justified else [cell], strict=True):
                page.text(start, 78 + 12 * index, word, "Courier" if x == 200 and index else _FONT, 10)
    page.text(336, 110, "T", _FONT, 6)  # an index raised off its line: the boxes of the rows gap unevenly
    page.rule(72, 82, 480, 82, 0.4)
    page.rule(72, 78 + 12 * 8 + 4, 480, 78 + 12 * 8 + 4, 0.5)
    for line in range(20):
        page.text(72, 220 + 13 * line, "Running text of the paper goes on under the table across the page, as it is set.", _FONT, 10)
    pdf = tmp_path / "narrow.pdf"
    pdf.write_bytes(write_pdf([page], "narrow columns"))
    rows = extract_table(pdf, *_caption(pdf, "Table 7:"))
    assert rows is not None
    assert [row[0] for row in rows] == [
        "Name/description",
        "Relative covariance factor",
        "Random-effects Cholesky factor",
        "Fixed-effects coefficients",
        "Spherical conditional modes",
        "Linear predictor",
    ]
    assert rows[2][3] == "double sparse triangular matrix"


def test_notes_of_several_lines_under_a_table_at_the_page_foot_are_no_rows(tmp_path: Path) -> None:
    # MNRAS's table A1 fills its page: its bottom rule lies in the page's foot, where a rule
    # closes no region, and its three notes under it were read as rows (only the last one
    # alone was dropped, and none of them since the one over it fills one cell too)
    page = Canvas(595.0, 842.0)
    page.text(42, 60, "Table A1. Commands for abbreviated journal names, see appendix A.", _FONT, 7)
    page.rule(70, 70, 520, 70, 0.5)
    page.text(72, 80, "Command", _FONT, 7)
    page.text(160, 80, "Output", _FONT, 7)
    page.text(300, 80, "Journal name", _FONT, 7)
    page.rule(70, 84, 520, 84, 0.3)
    names = ("aap", "aj", "apj", "mnras", "nat", "pasp", "sci", "solphys")
    baseline = 94.0
    for row in range(62):
        name = names[row % len(names)]
        page.text(72, baseline, f"\\{name}{row}", "Courier", 7)
        page.text(160, baseline, f"{name.upper()} {row}", _FONT, 7)
        page.text(300, baseline, f"The Journal of {name.capitalize()} Studies {row}", _FONT, 7)
        baseline += 11
    page.rule(70, baseline - 6, 520, baseline - 6, 0.5)
    notes = (
        "a Letters are designated by an L at the start of the page number, not in the journal name",
        "b In 1992 the English translation of this journal changed its name to Astronomy Reports",
        "c Including the English translation Astronomy Letters",
    )
    for note in notes:
        baseline += 4
        page.text(76, baseline, note, _FONT, 6.5)
        baseline += 8
    pdf = tmp_path / "foot.pdf"
    pdf.write_bytes(write_pdf([page], "notes at the foot"))
    rows = extract_table(pdf, *_caption(pdf, "Table A1."))
    assert rows is not None
    last = names[61 % len(names)]
    assert len(rows) == 63
    assert rows[-1] == [f"\\{last}61", f"{last.upper()} 61", f"The Journal of {last.capitalize()} Studies 61"]
