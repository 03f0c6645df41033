"""Display equations found from layout (issue 19, item 5): set apart from the running text,
drawn in the text fonts (no font named like a math font), pieces gathered into one formula
per display row with its printed number; headings, quotations, inline mathematics, a plot's
labels and a table's rows are not displays. PDFs are made here; the generated set uses dev
seeds only (the held-out split is for benchmarks/unseen_displays.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from benchmarks.synthetic.display_papers import generate_displays
from benchmarks.synthetic.display_scoring import score_displays
from benchmarks.synthetic.math_drawing import Atom, Fraction, MathFonts, Run, Script, draw, measure
from paperpyramid.document import Formula
from paperpyramid.parsers.embedded.parser import parse_pdf

_FONTS = MathFonts("Times-Roman", "Times-Italic")
_PROSE = (
    "The growth of the cultures was followed for twelve days under constant light and temperature, and the samples were "
    "weighed every morning before the medium was changed. We describe the model that links the two measures below, and "
    "then the way its constants were fitted to the data of all three runs."
)
_LEFT, _RIGHT, _SIZE = 72.0, 540.0, 10.0


def _prose(canvas: Canvas, y: float, text: str = _PROSE) -> float:
    """Justified lines of ``text`` from ``y``; returns the y under them."""
    words, line = text.split(), ""
    lines = []
    for word in words:
        if line and text_width(f"{line} {word}", "Times-Roman", _SIZE) > _RIGHT - _LEFT:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    for index, text_line in enumerate([*lines, line]):
        spaces = text_line.count(" ")
        stretch = (_RIGHT - _LEFT - text_width(text_line, "Times-Roman", _SIZE)) / spaces if spaces and index < len(lines) else 0.0
        canvas.text(_LEFT, y + _SIZE, text_line, "Times-Roman", _SIZE, word_spacing=stretch)
        y += 1.25 * _SIZE
    return y


def _display(canvas: Canvas, y: float, atoms: list[Atom], label: str | None) -> float:
    width, height, depth = measure(atoms, _FONTS, _SIZE)
    y += 8.0
    baseline = y + height
    draw(canvas, atoms, _FONTS, (_LEFT + _RIGHT - width) / 2, baseline, _SIZE)
    if label:
        canvas.text(_RIGHT - text_width(label, "Times-Roman", _SIZE), baseline, label, "Times-Roman", _SIZE)
    return baseline + depth + 8.0


def _page(tmp_path: Path, items: list[tuple[str, object]]) -> list[Formula]:
    """A one-page PDF of prose and displays ("prose", text) / ("display", (atoms, label)) / ("centred", text); its formulas."""
    canvas = Canvas(612.0, 792.0)
    y = 72.0
    for kind, item in items:
        if kind == "prose":
            y = _prose(canvas, y, str(item))
        elif kind == "display":
            atoms, label = item  # type: ignore[misc]
            y = _display(canvas, y, atoms, label)
        else:
            width = text_width(str(item), "Times-Bold", 12.0)
            canvas.text((_LEFT + _RIGHT - width) / 2, y + 20.0, str(item), "Times-Bold", 12.0)
            y += 32.0
    path = tmp_path / "displays.pdf"
    path.write_bytes(write_pdf([canvas], "Displays"))
    return parse_pdf(path).formulas


def test_a_superscript_is_part_of_its_display_not_lost_between_blocks(tmp_path: Path) -> None:
    # Euler's identity read as "e +" before: the raised exponent cut the line into pieces
    euler: list[Atom] = [Run("e", italic=True), Script("ix", raised=True, italic=True), Run(" + 1 = 0")]
    formulas = _page(tmp_path, [("prose", _PROSE), ("display", (euler, "(1)")), ("prose", _PROSE)])
    # every glyph, in printed order (a script pdfium reads into the line after it is not marked as one)
    assert [(formula.label, _glyphs(formula.text)) for formula in formulas] == [("1", "eix+1=0")]


def _glyphs(text: str) -> str:
    return "".join(ch for ch in text.replace("^{", "").replace("_{", "") if not ch.isspace() and ch != "}")


def test_a_fraction_over_its_rule_is_one_formula_read_numerator_over_denominator(tmp_path: Path) -> None:
    atoms: list[Atom] = [Run("y", italic=True), Run(" = "), Fraction((Run("a + b"),), (Run("2"), Run("c", italic=True))), Run(" + 1")]
    formulas = _page(tmp_path, [("prose", _PROSE), ("display", (atoms, "(2.4)")), ("prose", _PROSE)])
    assert [(formula.label, formula.text) for formula in formulas] == [("2.4", "y = (a + b)/(2c) + 1")]
    assert formulas[0].latex is None  # no source: LaTeX is not guessed


def test_each_numbered_row_of_a_system_is_a_formula_and_an_unnumbered_one_joins_the_next(tmp_path: Path) -> None:
    first: list[Atom] = [Run("u", italic=True), Script("t", raised=False, italic=True), Run(" = 2"), Run("v", italic=True)]
    second: list[Atom] = [Run("w", italic=True), Run(" > "), Run("u", italic=True), Script("2", raised=True)]
    third: list[Atom] = [Run("z", italic=True), Run(" < 3")]
    formulas = _page(tmp_path, [
        ("prose", _PROSE), ("display", (first, "(A1)")), ("display", (second, "(A2)")), ("prose", _PROSE),
        ("display", (first, None)), ("display", (third, "(5)")), ("prose", _PROSE),
    ])  # fmt: skip
    assert [formula.label for formula in formulas] == ["A1", "A2", "5"]
    assert formulas[1].text == "w > u^{2}"
    assert formulas[2].text.startswith("u") and formulas[2].text.endswith("z < 3")  # two rows, one number: one display


def test_headings_quotations_and_prose_with_inline_maths_are_not_displays(tmp_path: Path) -> None:
    inline = "In this case we set x = 2y + 1 and keep y < 40 for every run, so that the estimate stays close to the earlier value."
    formulas = _page(
        tmp_path,
        [("prose", _PROSE), ("centred", "2 Estimation"), ("prose", inline), ("centred", "A note on the constants"), ("prose", _PROSE)],
    )
    assert formulas == []


@pytest.mark.parametrize("seed", [0, 7, 13, 21])
def test_generated_pages_of_the_dev_split_have_their_displays_found_and_numbered(tmp_path: Path, seed: int) -> None:
    data, gold = generate_displays(seed)
    path = tmp_path / f"dev-{seed}.pdf"
    path.write_bytes(data)
    result = score_displays(seed, gold.displays, parse_pdf(path).formulas)
    found = sum(1 for row in result.displays if row[0] and row[2]) / len(result.displays)
    assert found >= 0.9, result
    assert result.false_formulas == ()


def test_the_generated_splits_differ_and_the_same_seed_gives_the_same_bytes() -> None:
    dev, dev_gold = generate_displays(3)
    assert generate_displays(3)[0] == dev
    held, held_gold = generate_displays(100_003)
    assert dev_gold.split == "dev" and held_gold.split == "heldout"
    assert b"/MediaBox [0 0 612 792]" in dev and b"/MediaBox [0 0 595.28 841.89]" in held
    with pytest.raises(ValueError):
        generate_displays(5000)
