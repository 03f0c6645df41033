"""The model's answer read as a table: structure tokens, cells with their spans and boxes, the grid.

SLANet writes a table as HTML tokens, one per decoding step: ``<tr>``, ``</tr>``, ``<td></td>``
(a plain cell), or ``<td``, then ``' colspan="3"'`` / ``' rowspan="2"'``, ``>``, ``</td>`` (a
spanned cell), with ``<thead>``/``<tbody>`` around rows; ``sos`` and ``eos`` (the first and
last entries of the vocabulary, added to the file's list) open and close it. Each step that
opens a cell (``<td></td>``, ``<td``) also gives the cell's box. This is PaddleOCR's
``TableLabelDecode`` and rapid-table's ``decode_logic_points``, on plain lists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Cell", "Structure", "decode", "expand", "layout_cells", "to_html"]

_OPENS_CELL = frozenset({"<td>", "<td", "<td></td>"})
_SPAN = re.compile(r'\s*(colspan|rowspan)="(\d+)"')

#: x0, top, x1, bottom
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Structure:
    """The decoded tokens, the box of each cell in token order (pixels of the unpadded image),
    and the mean probability of the tokens chosen (the model's confidence)."""

    tokens: list[str]
    boxes: list[Box]
    confidence: float


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell placed in the table: its first row and column, how many it spans, its box."""

    row: int
    column: int
    rowspan: int
    colspan: int
    box: Box


def decode(probabilities: npt.NDArray[np.float32], boxes: npt.NDArray[np.float32], vocabulary: Sequence[str], side: float) -> Structure:
    """Tokens by the most probable entry at each step, up to ``eos``; cell boxes scaled by
    ``side`` (the image's longer side in pixels: the model gives them as shares of the square)."""
    # PaddleOCR's ``merge_no_span_structure``: plain cells are the one token "<td></td>"
    merged = [token for token in vocabulary if token != "<td>"] + ([] if "<td></td>" in vocabulary else ["<td></td>"])
    characters = ["sos", *merged, "eos"]
    end = len(characters) - 1
    chosen = probabilities.argmax(axis=1)
    tokens: list[str] = []
    cell_boxes: list[Box] = []
    scores: list[float] = []
    for step, index in enumerate(chosen.tolist()):
        if index == end and step > 0:
            break
        if index in (0, end):
            continue
        token = characters[index]
        if token in _OPENS_CELL:
            corners = boxes[step] * side
            xs, ys = corners[0::2], corners[1::2]
            cell_boxes.append((float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())))
        tokens.append(token)
        scores.append(float(probabilities[step, index]))
    return Structure(tokens, cell_boxes, float(np.mean(scores)) if scores else 0.0)


def layout_cells(structure: Structure) -> list[Cell]:
    """The cells in token order, each placed at the first free column of its row (rowspans
    from the rows above hold theirs)."""
    taken: set[tuple[int, int]] = set()
    cells: list[Cell] = []
    row, column, started = -1, 0, False
    tokens = structure.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "<tr>":
            row, column, started = row + 1, 0, True
        elif token in _OPENS_CELL:
            if not started:  # a cell before any <tr>: the model skipped it
                row, column, started = row + 1, 0, True
            spans = {"colspan": 1, "rowspan": 1}
            if token == "<td":
                index += 1
                while index < len(tokens) and tokens[index] not in (">", "</td>", "<tr>", "</tr>"):
                    match = _SPAN.match(tokens[index])
                    if match:
                        spans[match.group(1)] = int(match.group(2))
                    index += 1
            while (row, column) in taken:
                column += 1
            box = structure.boxes[len(cells)] if len(cells) < len(structure.boxes) else (0.0, 0.0, 0.0, 0.0)
            cells.append(Cell(row, column, spans["rowspan"], spans["colspan"], box))
            taken |= {(r, c) for r in range(row, row + spans["rowspan"]) for c in range(column, column + spans["colspan"])}
            column += spans["colspan"]
        index += 1
    return cells


def expand(cells: Sequence[Cell], texts: Sequence[str]) -> list[list[str]]:
    """The rectangular grid the corpus stores: a spanned cell's text in its top-left position,
    the positions it covers empty; rows a rowspan runs past are not added."""
    rows = max((cell.row + 1 for cell in cells), default=0)
    columns = max((cell.column + cell.colspan for cell in cells), default=0)
    grid = [[""] * columns for _ in range(rows)]
    for cell, text in zip(cells, texts, strict=True):
        grid[cell.row][cell.column] = text
    return grid


def to_html(cells: Sequence[Cell], texts: Sequence[str]) -> str:
    """The table as HTML with its spans (for TEDS): ``<table>`` rows of ``<td>`` cells."""
    from html import escape

    rows: dict[int, list[str]] = {}
    for cell, text in zip(cells, texts, strict=True):
        spans = (f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else "") + (f' colspan="{cell.colspan}"' if cell.colspan > 1 else "")
        rows.setdefault(cell.row, []).append(f"<td{spans}>{escape(text)}</td>")
    body = "".join(f"<tr>{''.join(rows.get(row, []))}</tr>" for row in range(max(rows, default=-1) + 1))
    return f"<html><body><table>{body}</table></body></html>"
