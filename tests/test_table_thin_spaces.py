"""Thin spaces in a table's cells (:mod:`paperpyramid.parsers.embedded.table_spaces`): an
operator set between thin spaces ("63.4 ± 8.4", "< 0.001") and a number set a thin space before
its unit ("10 mg") keep their spaces; characters set without a gap, or letter-spaced words,
are left as they are."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.eval.table_scores import load_gold_tables
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.pdf_maker import placed_pdf
from tests.test_table_groups import _caption

# Helvetica's advance widths (thousandths of the size) of the characters drawn here
_WIDTHS = {**dict.fromkeys("0123456789", 556), ".": 278, "*": 389, "±": 584, "<": 584, " ": 278, "m": 833, "g": 556}


def _width(text: str, size: float) -> float:
    return sum(_WIDTHS.get(ch, 556) for ch in text) * size / 1000


def _cell(x: float, y: float, size: float, pieces: list[str], gap: float) -> list[tuple[float, float, float, str]]:
    """``pieces`` drawn one after another, ``gap`` points apart (0: set as one word)."""
    items = []
    for piece in pieces:
        items.append((x, y, size, piece))
        x += _width(piece, size) + gap
    return items


def test_thin_spaces_around_an_operator_and_before_a_unit_are_kept(tmp_path: Path) -> None:
    size, thin = 9.0, 1.2  # a thin space: 0.13 em, narrower than the parser's word space (0.22 of the type's height)
    items = [(72, 700, 10, "Table 1. Doses and outcomes."), (72, 680, size, "Group"), (150, 680, size, "Dose"), (220, 680, size, "Outcome")]
    for row, (name, dose, mean, spread) in enumerate((("A", "10", "63.4", "8.4"), ("B", "25", "51.0", "9.9"), ("C", "40", "49.6", "9.3"))):
        y = 664 - 16 * row
        items.append((72, y, size, f"Group {name}"))
        items += _cell(150, y, size, [dose, "mg"], thin)
        items += _cell(220, y, size, [mean, "±", spread], thin)
    items += _cell(72, 600, size, ["P"], 0) + _cell(150, 600, size, ["<", "0.001"], thin) + _cell(220, 600, size, ["12.1±2.0"], 0)
    pdf = tmp_path / "thin.pdf"
    pdf.write_bytes(placed_pdf([items]))
    rows = extract_table(pdf, *_caption(pdf, "Table 1."))
    assert rows == [
        ["Group", "Dose", "Outcome"],
        ["Group A", "10 mg", "63.4 ± 8.4"],
        ["Group B", "25 mg", "51.0 ± 9.9"],
        ["Group C", "40 mg", "49.6 ± 9.3"],
        ["P", "< 0.001", "12.1±2.0"],  # no gap drawn: no space read
    ]


def test_a_table_set_with_thin_spaces_reads_as_its_jats(pmc_pairs: Path) -> None:
    # Scientific Reports sets "2 ± 0.052" with thin spaces (pdfium: gaps of 0.08 of the type's
    # height between the advances); they were read as no space at all ("2±0.052"), so 88 of
    # the table's 128 cells differed from the JATS
    stem = "scirep-2018-biogenic-nanoparticles-bioprocess"
    pdf = pmc_pairs / f"{stem}.pdf"
    rows = extract_table(pdf, *_caption(pdf, "Table 9."))
    gold = next(table for table in load_gold_tables(pmc_pairs / f"{stem}.nxml") if table.label == "Table 9")
    assert rows is not None
    assert tuple(tuple(row) for row in rows) == gold.rows


def test_units_and_comparisons_keep_their_thin_spaces(pmc_pairs: Path) -> None:
    # BMC Public Health: "< 0.001", "n = 45 484", "10,000 ~ 19,999 yuan" set with thin spaces
    stem = "bmcpublichealth-2024-ses-copd"
    pdf = pmc_pairs / f"{stem}.pdf"
    rows = extract_table(pdf, *_caption(pdf, "Table 2 "))
    assert rows is not None
    cells = {cell for row in rows for cell in row}
    assert {"< 0.001", "10,000 ~ 19,999 yuan", "Overall (n = 45 484)"} <= cells
    assert not any("<0.001" in cell or "n=" in cell for cell in cells)


def test_a_note_mark_before_an_operator_leaves_the_operator_spaced(tmp_path: Path) -> None:
    # a mark set after a value stands in the space before the "±" after it: its advance leaves
    # the operator a gap narrower than a thin space, read as none ("48.00*± 0.00")
    size, mark = 9.0, 6.0
    items = [
        (72, 700, 10, "Table 1. Revertant colonies."),
        (72, 680, size, "Strain"),
        (150, 680, size, "Control"),
        (250, 680, size, "Positive"),
    ]
    for row, (name, control, mean) in enumerate((("TA 98", "1.00", "48.00"), ("TA 100", "1.67", "43.33"), ("TA 1535", "1.33", "45.67"))):
        y = 664 - 16 * row
        items += [(72, y, size, name), (150, y, size, f"{control} \xb1 0.58")]
        x = 250 + _width(mean, size)
        items += [(250, y, size, mean), (x, y + 3, mark, "*")]
        x += _width("*", mark) + 0.3
        items += [(x, y, size, "\xb1"), (x + _width("\xb1", size) + 2.5, y, size, "0.00")]
    pdf = tmp_path / "marked.pdf"
    pdf.write_bytes(placed_pdf([items]))
    rows = extract_table(pdf, *_caption(pdf, "Table 1."))
    assert rows is not None
    assert [row[2] for row in rows] == ["Positive", "48.00* \xb1 0.00", "43.33* \xb1 0.00", "45.67* \xb1 0.00"]


def test_marked_values_read_as_their_jats(pmc_pairs: Path) -> None:
    # Journal of Toxicology sets "48.00∗ ± 0.00" (the mark a superscript): read "48.00∗± 0.00",
    # a tenth of the table's cells differed from the JATS
    stem = "jtoxicol-2018-herbal-feed-toxicity"
    pdf = pmc_pairs / f"{stem}.pdf"
    rows = extract_table(pdf, *_caption(pdf, "Table 4:"))
    assert rows is not None
    cells = {cell for row in rows for cell in row}
    assert {"48.00∗ ± 0.00", "34.67∗ ± 3.21"} <= cells
    assert not any("∗±" in cell for cell in cells)
