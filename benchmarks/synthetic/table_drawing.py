"""A table's content set in type: column widths, printed rows (bands) and rules.

A table is drawn as bands, one per table row, each with its text runs and the rules inside
it, relative to the band's top-left corner; :meth:`TableDrawing.draw` places a run of bands
(a whole table, or one page's piece of it) and adds the rules that open and close a piece.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from benchmarks.synthetic.canvas import FONTS, Canvas, text_width
from benchmarks.synthetic.table_content import TableContent

__all__ = ["Band", "TableDrawing", "TableLook", "draw_table", "wrap_text"]

Rules = Literal["grid", "booktabs", "none"]
Align = Literal["left", "center", "right"]


@dataclass(frozen=True)
class TableLook:
    """How a table is set: font, rules, spacing and alignment."""

    family: str
    size: float
    rules: Rules
    rule_width: float
    gap: float  # points between the text of neighbouring columns
    numeric_align: Align
    header_bold: bool
    middle: bool  # cells shorter than their row sit in its middle (else at its top)
    leading: float = 1.2


@dataclass
class Band:
    """One printed table row: text runs (x, baseline, text, font) and rules (x0, y0, x1, y1, width)."""

    height: float
    texts: list[tuple[float, float, str, str]] = field(default_factory=list)
    rules: list[tuple[float, float, float, float, float]] = field(default_factory=list)


@dataclass
class TableDrawing:
    width: float
    header: list[Band]
    body: list[Band]
    look: TableLook

    def draw(self, canvas: Canvas, x: float, top: float, bands: list[Band]) -> float:
        """Draw ``bands`` from ``top``, with the rules that open and close them; returns the bottom."""
        look, y = self.look, top
        heavy = look.rule_width * 1.6
        if look.rules == "grid":
            canvas.rule(x, y, x + self.width, y, look.rule_width)
        elif look.rules == "booktabs":
            canvas.rule(x, y, x + self.width, y, heavy)
            y += 0.3 * look.size
        for band in bands:
            for dx, baseline, text, font in band.texts:
                canvas.text(x + dx, y + baseline, text, font, look.size)
            for x0, y0, x1, y1, width in band.rules:
                canvas.rule(x + x0, y + y0, x + x1, y + y1, width)
            y += band.height
        if look.rules == "booktabs":
            y += 0.3 * look.size
            canvas.rule(x, y, x + self.width, y, heavy)
        return y

    @property
    def height(self) -> float:
        return self.piece_height(self.header + self.body)

    def piece_height(self, bands: list[Band]) -> float:
        extra = 0.6 * self.look.size if self.look.rules == "booktabs" else 0.0
        return sum(band.height for band in bands) + extra


def wrap_text(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a longer word stays whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, font, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def draw_table(content: TableContent, look: TableLook) -> TableDrawing:
    """Set ``content`` in ``look``: widths from the text, one band per row."""
    regular, bold, _ = FONTS[look.family]
    head_font = bold if look.header_bold else regular
    size = look.size
    pad = 0.35 * size if look.rules == "grid" else 0.0
    gap = 2 * pad if look.rules == "grid" else look.gap

    def lines_of(text: str, column: int, font: str) -> list[str]:
        wrap = content.wrap[column]
        return wrap_text(text, font, size, wrap * size) if wrap is not None and text else [text]

    widths = [0.0] * content.columns
    for cells in content.header:
        for cell in cells:
            if cell.span == 1:
                widths[cell.column] = max(
                    widths[cell.column], *(text_width(line, head_font, size) for line in lines_of(cell.text, cell.column, head_font))
                )
    for index, row in enumerate(content.body):
        if index in content.section_rows:
            continue
        for column, text in enumerate(row):
            widths[column] = max(widths[column], *(text_width(line, regular, size) for line in lines_of(text, column, regular)))
    for cells in content.header:  # a spanning cell wider than its columns widens the last of them
        for cell in cells:
            if cell.span > 1:
                covered = sum(widths[cell.column : cell.column + cell.span]) + gap * (cell.span - 1)
                need = text_width(cell.text, head_font, size) + 2
                if need > covered:
                    widths[cell.column + cell.span - 1] += need - covered
    lefts = [sum(widths[:column]) + gap * column + pad for column in range(content.columns)]
    total = sum(widths) + gap * (content.columns - 1) + 2 * pad
    drawing = TableDrawing(total, [], [], look)
    leading = look.leading * size
    band_pad = 0.3 * size if look.rules == "grid" else 0.12 * size

    def align(column: int) -> Align:
        return look.numeric_align if content.numeric[column] else "left"

    def band_of(row_cells: list[tuple[int, int, str]], font: str, header: bool, section: bool) -> Band:
        split = [(column, span, lines_of(text, column, font) if span == 1 else [text]) for column, span, text in row_cells]
        count = max((len(lines) for _, _, lines in split), default=1)
        band = Band(count * leading + 2 * band_pad)
        for column, span, lines in split:
            left = lefts[column]
            right = lefts[column + span - 1] + widths[column + span - 1]
            how: Align = "center" if span > 1 and not section else ("left" if section else align(column))
            if header and span == 1 and content.numeric[column] and look.numeric_align != "left":
                how = "center" if look.numeric_align == "center" else "right"
            shift = (count - len(lines)) * leading / 2 if look.middle else 0.0
            for number, line in enumerate(lines):
                width = text_width(line, font, size)
                x = left if how == "left" else right - width if how == "right" else (left + right - width) / 2
                band.texts.append((x, band_pad + shift + number * leading + 0.8 * size, line, font))
        if look.rules == "grid":
            band.rules.append((0.0, band.height, total, band.height, look.rule_width))
            spans = {(column, span) for column, span, _ in row_cells}
            inner = {c for column, span in spans for c in range(column + 1, column + span)}
            for column in range(content.columns + 1):
                if column in inner or (section and 0 < column < content.columns):
                    continue
                xr = 0.0 if column == 0 else total if column == content.columns else lefts[column] - pad
                band.rules.append((xr, 0.0, xr, band.height, look.rule_width))
        return band

    for number, cells in enumerate(content.header):
        band = band_of([(cell.column, cell.span, cell.text) for cell in cells], head_font, True, False)
        if look.rules == "booktabs" and content.group_rules and number < len(content.header) - 1:
            for cell in cells:
                if cell.span > 1:
                    x0, x1 = lefts[cell.column] + 1, lefts[cell.column + cell.span - 1] + widths[cell.column + cell.span - 1] - 1
                    band.rules.append((x0, band.height - 0.5, x1, band.height - 0.5, look.rule_width))
        drawing.header.append(band)
    if look.rules == "booktabs" and drawing.header:
        last = drawing.header[-1]
        last.height += 0.3 * size
        last.rules.append((0.0, last.height, total, last.height, look.rule_width))
        last.height += 0.3 * size
    for index, row in enumerate(content.body):
        section = index in content.section_rows
        placed = [(0, content.columns, row[0])] if section else [(column, 1, text) for column, text in enumerate(row)]
        drawing.body.append(band_of(placed, regular, False, section))
    return drawing
