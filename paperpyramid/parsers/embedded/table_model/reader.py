"""One table region read by the model: render, predict, decode, fill from the text layer, expand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_model.filling import fill_cells, region_words
from paperpyramid.parsers.embedded.table_model.image import prepare, render_region
from paperpyramid.parsers.embedded.table_model.session import StructureModel
from paperpyramid.parsers.embedded.table_model.structure import Cell, Structure, decode, expand, layout_cells, to_html
from paperpyramid.parsers.embedded.table_rules import Rule

__all__ = ["ModelTable", "fit_region", "read_table_with_model", "recognise_table"]

#: points, top-left origin
BBox = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class ModelTable:
    """What the model made of a region: its cells (boxes in points), their text, the grid."""

    structure: Structure
    cells: list[Cell]
    texts: list[str]
    grid: list[list[str]]

    @property
    def html(self) -> str:
        return to_html(self.cells, self.texts)


def fit_region(region: BBox, lines: Sequence[Line], rules: Sequence[Rule] = (), *, margin: float = 4.0) -> BBox:
    """``region`` shrunk to the box of the lines and horizontal rules inside it, ``margin`` around.

    The table engine's region runs across the caption's whole column; the model sees the region
    scaled to 488 pixels, so white margins cost it resolution (measured by
    ``benchmarks/table_model.py``: the fitted region reads better).
    """
    x0, top, x1, bottom = region
    boxes = [
        (line.x0, line.top, line.x1, line.bottom)
        for line in lines
        if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1
    ]
    boxes += [
        (max(rule.x0, x0), rule.top, min(rule.x1, x1), rule.bottom)
        for rule in rules
        if rule.horizontal and top - 1 <= rule.y <= bottom + 1 and rule.x1 > x0 and rule.x0 < x1
    ]
    if not boxes:
        return region
    return (
        max(x0, min(box[0] for box in boxes) - margin),
        max(top, min(box[1] for box in boxes) - margin),
        min(x1, max(box[2] for box in boxes) + margin),
        min(bottom + 1, max(box[3] for box in boxes) + margin),
    )


def recognise_table(
    pdf: pdfium.PdfDocument,
    page_number: int,
    region: BBox,
    lines: Sequence[Line],
    *,
    model: StructureModel | None = None,
    dpi: float = 144.0,
) -> ModelTable:
    """The table in ``region`` of page ``page_number`` (1-based), its structure by the model and
    its text from ``lines`` (the page's lines as :func:`~.table_engine.read_table_page` reads
    them: with their words)."""
    model = model or StructureModel()
    image = render_region(pdf, page_number, region, dpi=dpi)
    prediction = model.predict(prepare(image))
    structure = decode(prediction.probabilities, prediction.boxes, model.vocabulary, side=max(image.shape[:2]))
    scale = dpi / 72.0
    x0, top = max(region[0], 0.0), max(region[1], 0.0)  # the image starts at the page's edge
    in_points = [(x0 + a / scale, top + b / scale, x0 + c / scale, top + d / scale) for a, b, c, d in structure.boxes]
    structure = Structure(structure.tokens, in_points, structure.confidence)
    cells = layout_cells(structure)
    texts = fill_cells(region_words(lines, region), [cell.box for cell in cells])
    return ModelTable(structure, cells, texts, expand(cells, texts))


def read_table_with_model(
    pdf: pdfium.PdfDocument,
    page_number: int,
    region: BBox,
    lines: Sequence[Line],
    *,
    rules: Sequence[Rule] = (),
    model: StructureModel | None = None,
    dpi: float = 144.0,
) -> list[list[str]] | None:
    """Rows of cells of the table in ``region`` (fitted to its text and ``rules`` first, see
    :func:`fit_region`), as the corpus stores them (spans expanded), or ``None`` where the
    model finds no table of two rows and two columns with text in it.

    ``lines`` and ``rules`` are the page's, as :func:`~.table_engine.read_table_page` reads
    them; pass one ``model`` for many tables (loading it takes about 0.1 s).
    """
    table = recognise_table(pdf, page_number, fit_region(region, lines, rules), lines, model=model, dpi=dpi)
    grid = table.grid
    filled = sum(1 for row in grid for cell in row if cell)
    if len(grid) < 2 or max((len(row) for row in grid), default=0) < 2 or filled < 2:
        return None
    return grid
