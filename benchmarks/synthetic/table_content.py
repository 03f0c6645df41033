"""What a generated table says: its header rows (with spanning cells), its body, and its gold grid.

The gold grid follows the JATS gold of :mod:`paperpyramid.eval.table_scores`: one row per printed
row (every header row included), a spanning cell's text in its first column and the columns
it covers empty, a missing value as printed ("–", "n.a.") or empty where nothing is printed,
and a cell wrapped over several lines as its lines joined by single spaces.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from benchmarks.synthetic.splits import SplitParams
from benchmarks.synthetic.vocabulary import Measure, Topic

__all__ = ["STYLES", "TABLE_STYLES", "HeaderCell", "Style", "TableContent", "table_content"]

Style = Literal["ruled", "booktabs", "unruled", "spanning", "multiline", "tight_numeric", "row_numbers", "two_page", "no_table"]

#: every style, the paper without a table last
STYLES: tuple[Style, ...] = (
    "ruled",
    "booktabs",
    "unruled",
    "spanning",
    "multiline",
    "tight_numeric",
    "row_numbers",
    "two_page",
    "no_table",
)
TABLE_STYLES: tuple[Style, ...] = STYLES[:-1]


@dataclass(frozen=True)
class HeaderCell:
    """A header cell at ``column``, covering ``span`` columns."""

    text: str
    column: int
    span: int = 1


@dataclass(frozen=True)
class TableContent:
    """The text of a table, before it is drawn.

    ``wrap`` gives, per column, the width in text sizes (ems) its cells wrap at, or ``None``
    for a column set on one line; ``section_rows`` are body rows holding one label across the
    table ("Panel A"); ``group_rules`` asks for short rules under the spanning header cells.
    """

    header: tuple[tuple[HeaderCell, ...], ...]
    body: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    wrap: tuple[float | None, ...]
    section_rows: frozenset[int] = frozenset()
    group_rules: bool = False

    @property
    def columns(self) -> int:
        return len(self.numeric)

    def header_rows(self) -> tuple[tuple[str, ...], ...]:
        rows = []
        for cells in self.header:
            row = [""] * self.columns
            for cell in cells:
                row[cell.column] = cell.text
            rows.append(tuple(row))
        return tuple(rows)

    def gold_rows(self) -> tuple[tuple[str, ...], ...]:
        return self.header_rows() + self.body


def _header_text(measure: Measure, form: int) -> str:
    if not measure.unit:
        return measure.name
    return (f"{measure.name} ({measure.unit})", f"{measure.name} [{measure.unit}]", f"{measure.name}, {measure.unit}")[form]


@dataclass(frozen=True)
class _Numbers:
    """How a table prints its numbers: the minus, the missing value, the share missing, extras."""

    minus: str
    missing: str
    missing_share: float
    spread: bool  # some columns print "mean ± sd"
    percent: bool  # a "%" column prints its sign on every value


def _numbers(rng: random.Random) -> _Numbers:
    return _Numbers(
        minus=rng.choice(("-", "\u2013")),
        missing=rng.choice(("\u2013", "", "n.a.", "\u2014", "NA")),
        missing_share=rng.choice((0.0, 0.0, 0.04, 0.1)),
        spread=rng.random() < 0.15,
        percent=rng.random() < 0.3,
    )


def _value(measure: Measure, rng: random.Random, numbers: _Numbers, spread: bool) -> str:
    if numbers.missing_share and rng.random() < numbers.missing_share:
        return numbers.missing
    value = rng.uniform(measure.low, measure.high)
    text = f"{abs(value):.{measure.decimals}f}"
    if value < 0 and text.strip("0.") != "":
        text = numbers.minus + text
    if spread:
        text += f" \u00b1 {rng.uniform(0.01, 0.2) * (measure.high - measure.low):.{measure.decimals}f}"
    elif numbers.percent and measure.unit == "%":
        text += "%"
    return text


def _row_labels(topic: Topic, rng: random.Random, count: int) -> list[str]:
    pool = list(topic.row_labels)
    rng.shuffle(pool)
    stub = rng.choice(topic.stub_heads)
    return [pool[index] if index < len(pool) else f"{stub} {index + 1}" for index in range(count)]


def _columns(style: Style, split: SplitParams, rng: random.Random) -> int:
    ordinary, dense = split.columns
    if style == "tight_numeric":
        return rng.randint(6, dense)
    if style == "multiline":
        return rng.randint(3, min(ordinary, 5))
    if style == "two_page":
        return rng.randint(3, min(ordinary, 6))
    if style in ("spanning", "row_numbers"):
        return rng.randint(4, ordinary)
    return rng.randint(2, ordinary)


def table_content(style: Style, split: SplitParams, topic: Topic, rng: random.Random, *, rows: int | None = None) -> TableContent:
    """The content of one table in ``style`` (not ``"no_table"``); ``rows`` fixes the body's length."""
    if style == "no_table":
        raise ValueError("a paper without a table has no table content")
    columns = _columns(style, split, rng)
    if rows is None:
        low, high = split.rows
        rows = rng.randint(low, min(high, 8)) if style == "multiline" else rng.randint(low, high)
    numbers = _numbers(rng)
    form = rng.randrange(3)
    lead = 2 if style == "row_numbers" else 1
    text_columns = rng.randint(1, min(2, columns - 2)) if style == "multiline" else 0
    measures = rng.sample(topic.measures, k=min(len(topic.measures), columns - lead - text_columns))
    while len(measures) < columns - lead - text_columns:
        measures.append(rng.choice(topic.measures))
    stub_head = rng.choice(topic.stub_heads)
    labels = _row_labels(topic, rng, rows)
    spread = [numbers.spread and rng.random() < 0.5 for _ in measures]
    heads: list[str] = []
    body: list[list[str]] = [[] for _ in range(rows)]
    if style == "row_numbers":
        heads.append(rng.choice(("No.", "#", "", "ID")))
        for index, row in enumerate(body):
            row.append(str(index + 1))
    heads.append(stub_head if rng.random() < 0.85 else "")
    for row, label in zip(body, labels, strict=True):
        row.append(label)
    text_heads = rng.sample(topic.text_heads, k=text_columns)
    for head in text_heads:
        heads.append(head)
        for row in body:
            row.append(rng.choice(topic.descriptions))
    for measure, with_spread in zip(measures, spread, strict=True):
        heads.append(_header_text(measure, form))
        for row in body:
            row.append(_value(measure, rng, numbers, with_spread))
    numeric = tuple(index >= lead + text_columns or (style == "row_numbers" and index == 0) for index in range(columns))
    wrap: list[float | None] = [None] * columns
    if style == "multiline":
        for index in range(lead, lead + text_columns):
            wrap[index] = rng.uniform(8.0, 14.0)
        if rng.random() < 0.5:  # long headers over two lines above narrow numbers
            for index in range(lead + text_columns, columns):
                wrap[index] = rng.uniform(4.0, 6.0)
    header: list[tuple[HeaderCell, ...]] = []
    section_rows: frozenset[int] = frozenset()
    group_rules = False
    if style == "spanning":
        header.append(_group_row(topic, rng, lead, columns))
        group_rules = rng.random() < 0.6
        if rng.random() < 0.5 and rows >= 4:
            body, section_rows = _with_sections(body, rng, columns)
    header.append(tuple(HeaderCell(text, index) for index, text in enumerate(heads) if text))
    return TableContent(tuple(header), tuple(tuple(row) for row in body), numeric, tuple(wrap), section_rows, group_rules)


def _group_row(topic: Topic, rng: random.Random, lead: int, columns: int) -> tuple[HeaderCell, ...]:
    """A top header row of group names, each over two or three columns (a lone column has none)."""
    names = list(rng.choice(topic.groups))
    cells: list[HeaderCell] = []
    column = lead + (1 if columns - lead >= 5 and rng.random() < 0.4 else 0)  # a column ("n") before the groups
    while column < columns - 1 and names:
        span = min(rng.choice((2, 2, 3)), columns - column)
        cells.append(HeaderCell(names.pop(0), column, span))
        column += span
    return tuple(cells)


def _with_sections(body: list[list[str]], rng: random.Random, columns: int) -> tuple[list[list[str]], frozenset[int]]:
    """Body rows with one-label rows ("Panel A") before the first row and one further down."""
    middle = rng.randint(2, len(body) - 2)
    names = rng.choice((("Panel A", "Panel B"), ("Primary analysis", "Secondary analysis"), ("Group 1", "Group 2")))
    out = [[names[0]] + [""] * (columns - 1), *body[:middle], [names[1]] + [""] * (columns - 1), *body[middle:]]
    return out, frozenset({0, middle + 1})
