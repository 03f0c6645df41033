"""The embedded parser's fast paths give what their definitions give, counted pair by pair: the
lines a gutter's steps cross (:func:`.regions.crossings`), the lines that share a baseline (a
console's listing is told from a table's header by them), the bands lines fall into (each line
against the band's tallest line or its whole extent), on pages of many lines set at random on a
few baselines and at odd sizes, with ties and touching edges; a form's object placed on the page
as pypdfium2's matrix places it; and the mojibake counts of plain ASCII lines."""

from __future__ import annotations

import random

from pypdfium2 import PdfMatrix

from paperpyramid.parsers.embedded import clipped, displays, reading_order, table_detect
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.regions import crossings


def _lines(seed: int, count: int = 300) -> list[Line]:
    rng = random.Random(seed)
    lines = []
    for index in range(count):
        top = rng.choice([rng.uniform(0, 700), 100.0 + 12 * rng.randrange(50)])  # many share a baseline exactly
        height = rng.choice([rng.uniform(2, 14), 10.0, 0.0])
        x0 = rng.choice([rng.uniform(0, 600), 300.0 - 1.0, 71.5])
        width = rng.choice([rng.uniform(0, 300), 2.0, 0.0])
        lines.append(Line(f"w{index}", 1, x0, top, x0 + width, top + height, round(height, 1), False, False, ""))
    return lines


def test_crossings_count_every_line_that_crosses_each_step() -> None:
    for seed in range(6):
        lines = _lines(seed)
        for steps in ([180.0 + 2.0 * step for step in range(120)], list(range(250, 290, 2)), [], [300.0]):
            expected = [sum(1 for line in lines if line.x0 < x - 1 and line.x1 > x + 1) for x in steps]
            assert crossings(lines, steps) == expected


def test_lines_sharing_a_baseline_are_those_another_line_sits_beside() -> None:
    for seed in range(6):
        lines = _lines(seed)
        lines.append(lines[0])  # the same line twice is not beside itself
        expected = {
            id(line) for line in lines if any(other is not line and abs(other.mid_y - line.mid_y) < 0.5 * line.height for other in lines)
        }
        assert table_detect._sharing_baseline(lines) == expected


def _bands_by_extent(lines: list[Line]) -> list[list[Line]]:
    bands: list[list[Line]] = []
    for line in sorted(lines, key=lambda line: (line.top, line.x0)):
        band = bands[-1] if bands else None
        if (
            band is not None
            and min(max(l.bottom for l in band), line.bottom) - max(min(l.top for l in band), line.top) >= 0.5 * line.height
        ):
            band.append(line)
        else:
            bands.append([line])
    return [sorted(band, key=lambda line: line.x0) for band in bands]


def _bands_by_tallest(lines: list[Line], key: object) -> list[list[Line]]:
    rows: list[list[Line]] = []
    for line in sorted(lines, key=key):  # type: ignore[call-overload]
        anchor = max(rows[-1], key=lambda item: item.height) if rows else None
        if anchor is not None and abs(line.mid_y - anchor.mid_y) < max(anchor.height, line.height, 1.0) * 0.4:
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def _ids(bands: list[list[Line]]) -> list[list[int]]:
    return [[id(line) for line in band] for band in bands]


def test_bands_grow_as_when_every_line_of_the_band_is_compared() -> None:
    for seed in range(6):
        lines = _lines(seed)
        assert _ids(table_detect._bands(lines)) == _ids(_bands_by_extent(lines))
        assert _ids(reading_order._bands(lines)) == _ids(_bands_by_tallest(lines, lambda item: item.top))
        found = [band.lines for band in displays._bands(lines)]
        assert _ids(found) == _ids(_bands_by_tallest(lines, lambda item: (item.top, item.x0)))


def test_a_form_objects_box_is_placed_on_the_page_as_pdfium_places_it() -> None:
    rng = random.Random(7)
    for _ in range(500):
        matrix = PdfMatrix(
            *(rng.choice([rng.uniform(-3, 3), 0.0, 1.0, -1.0]) for _ in range(4)), rng.uniform(-500, 500), rng.uniform(-500, 500)
        )
        left, bottom = rng.uniform(-100, 600), rng.uniform(-100, 800)
        box = (left, bottom, left + rng.choice([0.0, rng.uniform(0, 50)]), bottom + rng.choice([0.0, rng.uniform(0, 50)]))
        assert clipped._on_rect(matrix, *box) == matrix.on_rect(*box)


def test_mojibake_counts_of_plain_ascii_are_the_expressions_counts() -> None:
    rng = random.Random(3)
    texts = [chr(code) * 3 for code in range(128)] + [
        "".join(chr(rng.randrange(128)) for _ in range(rng.randrange(40))) for _ in range(3000)
    ]
    for text in texts:
        counted = (len(reading_order._MOJIBAKE_CHARS.findall(text)), len(text) - len(reading_order._SPACE.findall(text)))
        assert reading_order._mojibake(text) == counted
