"""Tables the engine was not tuned on: generated papers of the synthetic set's dev split (seeds under
1000, never held-out ones), parsed whole, their tables scored against the generator's gold."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic import Style, generate
from benchmarks.synthetic.scoring import TableResult, extracted_tables, score_paper
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_detect import not_a_table
from paperpyramid.tokens import TokenCounter
from tests.pdf_maker import placed_pdf


def _parse(tmp_path: Path, seed: int, style: Style) -> tuple[Document, list[TableResult]]:
    data, gold = generate(seed, style)
    path = tmp_path / f"dev-{seed}-{style}.pdf"
    path.write_bytes(data)
    document = parse_pdf(path)
    return document, score_paper(gold, extracted_tables(document)).tables


@pytest.mark.parametrize(
    ("seed", "style", "what"),
    [
        (119, "unruled", "a caption below an unruled table: the table is read over the caption, not the prose under it"),
        (73, "booktabs", "a narrow ruled table on a one-column page ends where the running text starts"),
        (41, "tight_numeric", "numbers and header words set a few points apart are cells of their own"),
        (40, "multiline", "a header set tight over the columns is cut at the gaps between its words"),
        (111, "spanning", "rows set tight in small type, a heading after a wide gap under them: the one wide gap is not the rows' spacing"),
        (175, "multiline", "cells set in the middle of rows whose other cells wrap: the wrapped lines around them join their row"),
    ],
)
def test_captioned_tables_read_whole(tmp_path: Path, seed: int, style: Style, what: str) -> None:
    _, [table] = _parse(tmp_path, seed, style)
    assert table.exact_cell_recall >= 0.9, what


def test_table_without_caption_is_found_and_stored(tmp_path: Path) -> None:
    document, [table] = _parse(tmp_path, 128, "unruled")
    assert table.exact_cell_recall == 1.0 and table.extracted_shape == table.gold_shape
    [found] = document.tables
    assert (found.label, found.caption) == (None, "")
    # its cells are not also left in the text as paragraphs
    paragraphs = " ".join(block.text for section in document.sections for block in section.blocks if block.kind == "paragraph")
    assert found.cells[1][0] not in paragraphs
    with CorpusWriter(tmp_path / "corpus.db", TokenCounter()) as writer:
        article = writer.add_document(document, source_uri=str(tmp_path / "dev-128-unruled.pdf"), sha256="0" * 64)
        stored = writer.db.execute("select label, caption, cells from tables where article_id = ?", [article]).fetchall()
    assert len(stored) == 1 and stored[0][0] is None and stored[0][1] == ""


@pytest.mark.parametrize("seed", [8, 17, 26, 35])
def test_prose_and_figures_make_no_table(tmp_path: Path, seed: int) -> None:
    document, _ = _parse(tmp_path, seed, "no_table")
    assert document.tables == []


# --------------------------------------------------------------------------- tables made in the test

_PROSE = [
    "The plots were sampled twice each summer, and every core was weighed before it was dried.",
    "Cover was estimated by two observers working alone, and their estimates were averaged later.",
    "We report the mean of the replicates and the spread between them for every plot we visited.",
    "Sites that flooded in spring were sampled after the water had gone down to the usual level.",
    "None of the differences between the observers changed the ranking of the plots in any year.",
]


def _prose(y: float, size: float = 10.0, lines: int = 5) -> list[tuple[float, float, float, str]]:
    """Lines of running text across a one-column page, the first baseline at ``y`` (ragged on
    the right: the tables made here end their page, or end at a wide gap)."""
    return [(72.0, y - index * size * 1.3, size, _PROSE[index % len(_PROSE)]) for index in range(lines)]


def _made(tmp_path: Path, pages: list[list[tuple[float, float, float, str]]]) -> Document:
    path = tmp_path / "made.pdf"
    path.write_bytes(placed_pdf(pages))
    return parse_pdf(path)


def test_third_column_far_right_of_a_caption_in_the_left_half_is_read(tmp_path: Path) -> None:
    # columns 120 pt or more apart leave the page's middle clear: the region must still span the page
    items = _prose(750.0, lines=3) + [(72.0, 700.0, 10.0, "Table 1. Results of the three runs.")]
    rows = [("Method", "Accuracy", "Latency"), ("Baseline", "71.2", "12.5"), ("Ours", "78.9", "10.1"), ("Oracle", "80.0", "9.7")]
    for index, row in enumerate(rows):
        items += [(x, 680.0 - 14.0 * index, 10.0, text) for x, text in zip((72.0, 200.0, 330.0), row, strict=True)]
    document = _made(tmp_path, [items])
    [table] = document.tables
    assert table.cells == [list(row) for row in rows]


def test_cells_wrapped_over_lines_stay_one_row(tmp_path: Path) -> None:
    # wrapped lines 12 pt apart, rows padded to 15 pt: the boxes' gaps do not fall into two groups
    items = _prose(750.0, lines=3) + [(72.0, 700.0, 10.0, "Table 2. Treatments of the samples.")]
    rows = [
        ("Sample", ["Preparation"], "Hardness"),
        ("Al-6061", ["deposited by sputtering", "at room temperature"], "9.92"),
        ("SiC", ["cured under vacuum", "overnight"], "27.19"),
        ("Epoxy", ["polished to a mirror", "finish before testing"], "4.73"),
        ("Quenched", ["cut across the grain"], "0.77"),
    ]
    y = 680.0
    for label, lines, value in rows:
        items += [(72.0, y, 10.0, label), (200.0, y, 10.0, lines[0]), (380.0, y, 10.0, value)]
        items += [(200.0, y - 12.0 * (index + 1), 10.0, line) for index, line in enumerate(lines[1:])]
        y -= 12.0 * (len(lines) - 1) + 15.0
    document = _made(tmp_path, [items])
    [table] = document.tables
    assert table.cells == [[label, " ".join(lines), value] for label, lines, value in rows]


def _small_table(y: float) -> tuple[list[tuple[float, float, float, str]], list[list[str]]]:
    rows = [["Site", "Cover", "Density", "Depth"]] + [
        [f"Plot {index}", f"{10 + index}.5", f"{120 + 7 * index}", f"{index}.{index}"] for index in range(1, 7)
    ]
    items = [
        (x, y - 9.0 * number, 7.0, text)
        for number, row in enumerate(rows)
        for x, text in zip((150.0, 230.0, 290.0, 350.0), row, strict=True)
    ]
    return items, rows


def test_table_without_caption_in_small_type_is_found(tmp_path: Path) -> None:
    # type under 0.8 of the body's is small print (a figure's labels); a full grid of it is a table
    table_items, rows = _small_table(640.0)
    document = _made(tmp_path, [_prose(750.0, lines=6) + table_items + _prose(560.0, lines=6)])
    [table] = document.tables
    assert (table.label, table.cells) == (None, rows)


def test_code_listing_is_not_a_table(tmp_path: Path) -> None:
    listing = [
        ("v1 := ld state[764]", "// load k from the trace activation record"),
        ("v2 := i2f(v1)", "// convert k from int to double"),
        ("st sp[8], v1", "// store k to interpreter stack"),
        ("v3 := mul v2, v2", "// square it"),
        ("st sp[16], v3", "// store the square"),
    ]
    items = [
        (x, 640.0 - 12.0 * number, 10.0, text) for number, row in enumerate(listing) for x, text in zip((90.0, 240.0), row, strict=True)
    ]
    document = _made(tmp_path, [_prose(750.0, lines=6) + items + _prose(560.0, lines=6)])
    assert document.tables == []


def test_header_repeated_on_the_next_page_joins_the_table(tmp_path: Path) -> None:
    header = ["Method", "Precision", "Latency"]
    body = [[f"Model {index}", f"0.{50 + index}", f"{100 + 3 * index}.5"] for index in range(1, 25)]

    def rows_at(y: float, rows: list[list[str]]) -> list[tuple[float, float, float, str]]:
        return [
            (x, y - 13.0 * number, 10.0, text) for number, row in enumerate(rows) for x, text in zip((72.0, 250.0, 400.0), row, strict=True)
        ]

    first = _prose(750.0, lines=3) + [(72.0, 700.0, 10.0, "Table 3. Scores of the models.")] + rows_at(680.0, [header, *body[:18]])
    second = rows_at(740.0, [header, *body[18:]]) + _prose(640.0)
    document = _made(tmp_path, [first, second])
    [table] = document.tables
    assert table.cells == [header, *body]


def test_numbers_set_closer_than_a_word_space_are_cells_of_their_own(tmp_path: Path) -> None:
    # six columns of numbers 3 pt apart (Helvetica's space at 10 pt: 2.8 pt; a river was 1.5 spaces)
    width = 10.0 * (3 * 0.556 + 0.278)  # "0.35": three digits and a point
    header = ["Model", "P", "R", "F", "A", "B", "C"]
    body = [[f"Run {index}", *(f"0.{index}{column}" for column in range(6))] for index in range(1, 6)]
    xs = [72.0, *(150.0 + column * (width + 3.0) for column in range(6))]
    items = _prose(750.0, lines=3) + [(72.0, 700.0, 10.0, "Table 4. Scores of the runs.")]
    for number, row in enumerate([header, *body]):
        items += [(x, 680.0 - 14.0 * number, 10.0, text) for x, text in zip(xs, row, strict=True)]
    document = _made(tmp_path, [items])
    [table] = document.tables
    assert table.cells == [header, *body]


@pytest.mark.parametrize(
    ("cells", "what"),
    [
        (
            [["3", "1000"], ["2.5", "2000"], ["2", "3000"], ["1.5", "4000"], ["1", ""], ["0 dB 5 dB", "10 dB 20 dB"]],
            "a y axis: ticks stepping down evenly",
        ),
        (
            [["5:", "a = 1, s = s + 1"], ["6:", "while t != tmax do"], ["7:", "t = t + 1"], ["8:", "end while"]],
            "an algorithm's numbered lines",
        ),
        (
            [
                ["Question", "Is this span fully supported by the source document that the summary was written from?"],
                ["Yes", "1"],
                ["No", "2"],
            ],
            "a sentence in a figure",
        ),
    ],
)
def test_what_is_set_in_columns_but_is_no_table(cells: list[list[str]], what: str) -> None:
    assert not_a_table(cells), what


def test_a_table_of_numbers_and_labels_is_a_table() -> None:
    assert not not_a_table([["Run", "Score"], ["1", "0.5"], ["2", "0.7"], ["3", "0.6"], ["4", "0.9"]])


@pytest.mark.parametrize(("seed", "style"), [(92, "unruled"), (21, "spanning")])
def test_table_without_caption_across_both_columns_is_one_table(tmp_path: Path, seed: int, style: Style) -> None:
    # the layout cuts the page at its gutter: the runs of rows on both sides are one table
    _, [table] = _parse(tmp_path, seed, style)
    assert table.extracted_shape == table.gold_shape and table.structure == 1.0
