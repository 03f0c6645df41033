"""A table's row numbers under their column's head stay the table's, on a float page where
they stand left of all other text and count its rows one line apart, as a review copy's line
numbers would (:func:`~paperpyramid.parsers.embedded.line_numbers.line_number_marks`). The PDF
is made here."""

from __future__ import annotations

from tests.test_gutter_numbers import _lines


def _float_page() -> list[tuple[float, float, float, str]]:
    """A page holding one table: the running head and page number, a head row ("func.",
    "definition", "n", "minimum"), 23 numbered rows (four of them two lines longer, a formula
    wrapped), a note and the caption below."""
    items = [(72.0, 760.0, 10.0, "12"), (150.0, 760.0, 10.0, "Genetic Optimization Using Derivatives")]
    items += [(72.0, 700.0, 9.0, "func."), (100.0, 700.0, 9.0, "definition"), (400.0, 700.0, 9.0, "n"), (430.0, 700.0, 9.0, "minimum")]
    y = 688.0
    for row in range(23):
        items += [
            (72.0, y, 9.0, str(row + 1)),
            (100.0, y, 9.0, f"sum of x {row} squared plus"),
            (400.0, y, 9.0, "30"),
            (430.0, y, 9.0, "0"),
        ]
        for _ in range(2 if row in (9, 11, 12, 17) else 0):
            y -= 12
            items.append((110.0, y, 9.0, "more of the formula"))
        y -= 12
    items += [(72.0, y - 6, 9.0, "Notes: a minimum value within bounds"), (250.0, y - 30, 10.0, "Table 2: 23 Benchmark Functions")]
    return items


def test_a_float_pages_headed_row_numbers_stay() -> None:
    lines = _lines(_float_page())
    numbers = sorted(int(line.text.split()[0]) for line in lines if line.x0 < 80 and line.text.split()[0].isdigit())
    assert [number for number in numbers if number != 12] == [n for n in range(1, 24) if n != 12]
    assert numbers.count(12) == 2  # row 12 and the page number
