"""Cells wrapped over lines in tables of code names (package manuals, vignettes): a line that
goes on with a code name or a quoted word, and the shading boxed behind code set inline, which
is no rule between rows (:data:`.table_printed_rows.GOES_ON`,
:func:`.table_rules.without_word_boxes`)."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import read_box
from paperpyramid.parsers.embedded.table_printed_rows import GOES_ON, printed_rows, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows
from paperpyramid.parsers.embedded.table_rules import Rule, without_word_boxes

# a character of 10 pt type is this wide (the constructed tables' only font)
_CHAR = 5.0
_REGION = (90.0, 100.0, 520.0, 200.0)


def _line(text: str, x0: float, top: float) -> Line:
    """A line of ``text`` from ``x0`` in 10 pt type, a character's width a letter."""
    words, x = [], x0
    for word in text.split():
        words.append((word, x, x + _CHAR * len(word)))
        x += _CHAR * (len(word) + 1)
    return Line(text, 1, x0, top, words[-1][2], top + 10.0, 10.0, False, False, "Times", words=words)


def _table(rows: list[tuple[str, str]]) -> list[Line]:
    """Rows of a label (at 100) and a description (at 200), every printed line 12 pt under the
    last (a wrapped description's lines have no label)."""
    return [
        line
        for k, (label, text) in enumerate(rows)
        for line in ([_line(label, 100, 104 + 12 * k)] if label else []) + [_line(text, 200, 104 + 12 * k)]
    ]


def _boxed(lines: list[Line], *names: str, split: str = "") -> list[Rule]:
    """The four sides of a box shaded behind each word in ``names``, hugging it (a third of a
    point out) but for a stop after it, as Bioconductor's style sets code inline; the box of
    ``split`` drawn in two that touch."""
    rules = []
    for line in lines:
        for word, x0, x1 in line.words or []:
            if word.rstrip(".,") in names:
                left, right = x0 - 0.3, (x1 - 2.5 if word[-1] in ".," else x1) + 0.3
                cuts = [left, (left + right) / 2, right] if word == split else [left, right]
                for a, b in zip(cuts, cuts[1:], strict=False):
                    rules += [Rule(a, line.top, b, line.top), Rule(a, line.bottom, b, line.bottom)]
                    rules += [Rule(a, line.top, a, line.bottom), Rule(b, line.top, b, line.bottom)]
    return rules


@pytest.mark.parametrize(
    ("text", "goes_on"),
    [
        ("as.dimRedData() methods exists for", True),
        ('"matrix", and "formula" exist.', True),
        ("normalDB. In case multiple segments", True),
        ("e.g. the number of chromosomes", True),
        ("mild", True),
        ("Severe", False),
        ('"Matrix" objects', False),
        ("0.25", False),
    ],
)
def test_a_line_goes_on_in_lower_case_with_a_code_name_or_a_quoted_word(text: str, goes_on: bool) -> None:
    assert bool(GOES_ON.match(text)) is goes_on


def test_a_description_wrapped_before_a_code_name_and_a_quoted_word_is_one_cell() -> None:
    # dimRed's Table 2: "... Fed to embed(). An" over "as.dimRedData() methods exists for
    # "data.frame"," over '"matrix", and "formula" exist.', rows and wrapped lines at one pitch
    rows = [
        ("Class", "Function"),
        ("alpha", "Holds the data for a reduction. It is fed to embed(). An"),
        ("", "as.dimRedData() method exists for all its data frames,"),
        ("", '"matrix", and "formula" too.'),
        ("beta", "Virtual class, ancestor of all methods."),
        ("gamma", "The result of embed(), the embedded data."),
    ]
    cells = read_box(_table(rows), [], _REGION)
    assert cells is not None
    assert [row[0] for row in cells] == ["Class", "alpha", "beta", "gamma"]
    assert cells[1][1].endswith('exists for all its data frames, "matrix", and "formula" too.')


def test_shading_boxed_behind_code_words_parts_no_rows() -> None:
    # PureCN's tables of output columns: every code name (labels, and names in the descriptions)
    # is shaded, a box whose top and bottom sides lie on its line's top and bottom
    rows = [
        ("Column", "Description"),
        ("seg.mean", "Segment mean of copy number ratios (not adjusted for pu-"),
        ("", "rity and ploidy). See also seg.id."),
        ("seg.id", "Segment id. Where segments overlap, seg.id will point to"),
        ("", "the smallest overlapping segment, and the breakpoints will"),
        ("", "be non-zero."),
        ("type", "Amplification or deletion"),
    ]
    lines = _table(rows)
    rules = _boxed(lines, "seg.mean", "seg.id", "type", "breakpoints", split="breakpoints")
    cells = read_box(lines, rules, _REGION)
    assert cells is not None
    assert [row[0] for row in cells] == ["Column", "seg.mean", "seg.id", "type"]
    assert cells[2][1].endswith("and the breakpoints will be non-zero.")


def test_a_rule_across_a_row_or_a_box_padded_past_its_words_is_kept() -> None:
    lines = _table([("seg.id", "Segment id"), ("type", "Amplification or deletion")])
    across = [Rule(95, 116.0, 400, 116.0), Rule(95, 104.0, 400, 104.0)]  # a row's shading, past its words
    padded = [Rule(97, 104.0, 133, 104.0), Rule(97, 114.0, 133, 114.0)]  # a cell's, three points out
    assert without_word_boxes(across + padded, lines) == across + padded
    assert without_word_boxes(_boxed(lines, "seg.id"), lines) == []


def test_a_group_heading_set_left_of_the_labels_over_it_stays_a_row() -> None:
    # ShortRead's table of functions: group headings ("Sequence and quality summary") at the
    # table's left edge, between rows of a code name (indented) and its description, all a
    # line's pitch apart, which jitters from 11.4 to 12.3 points measured over typewriter and
    # roman lines: the heading sits at the tighter pitch, but a wrapped label would start where
    # the label over it does, not left of it (the code names' shading had kept them apart)
    tops = [98.6, 110.6, 122.5, 134.2, 146.4, 158.4, 170.6, 182.5, 194.5, 205.9, 218.2, 230.1]
    headings = {158.4: "Sequence and quality summary", 218.2: "Quality assessment"}
    lines = []
    for k, top in enumerate(tops):
        if top in headings:
            lines.append(_line(headings[top], 163, top))
        else:
            lines += [_line(f"name{k}", 175, top), _line("A description of what it does", 268, top)]
    edges = [0.0, 257.0, 612.0]
    rows = join_rows(printed_rows(lines), [], edges)
    assert [row_cells(row, edges)[0] for row in rows if not row_cells(row, edges)[1]] == list(headings.values())


def test_long_code_names_beside_descriptions_are_no_paragraphs_side_by_side() -> None:
    # PureCN's table of a sample's statistics: labels of one long code name each, beside
    # descriptions, every line at one pitch; a name of thirty characters fills its column, but
    # a line of one token is no wrapped line of a paragraph, so the next row stays a row
    rows = [
        ("somatic.rate.ontarget.95.lower", "Lower 95% of confidence interval"),
        ("somatic.rate.ontarget.95.upper", "Upper 95% of confidence interval"),
        ("private.germline.rate.ontarget", "Private germline mutations per megabase"),
        ("private.germline.rate.flanking", "Germline mutations in flanking regions"),
    ]
    lines = [line for k, (name, text) in enumerate(rows) for line in (_line(name, 100, 104 + 12 * k), _line(text, 270, 104 + 12 * k))]
    edges = [0.0, 260.0, 612.0]
    assert [row_cells(row, edges)[0] for row in join_rows(printed_rows(lines), [], edges)] == [name for name, _ in rows]
