"""TEDS: how alike two tables are as trees of HTML (the PubTabNet metric, Zhong et al. 2020).

A grid of cell texts is read as the tree ``table > tr > td``: one ``tr`` per row and one
``td`` per cell, in order, the cell's text held by its ``td`` as a list of characters (as
PubTabNet tokenises it). Between the trees A and B of two grids

    TEDS = 1 - TED(A, B) / max(|A|, |B|)

where |T| counts the nodes (the table, its rows, its cells) and TED is the tree edit
distance: inserting or deleting a node costs 1; renaming a node into one with another tag
costs 1, a ``tr`` into a ``tr`` nothing, and a ``td`` into a ``td`` the Levenshtein distance
of their characters over the longer one's length (nothing for two empty cells). TEDS-Struct
is the same with every ``td`` to ``td`` rename free, so that only the rows and cells count.
Cell texts are compared as given: the caller normalises them. TEDS falls below 0 where the
cheapest edit costs more than the larger tree has nodes (two tables with little in common
whose shapes do not nest, such as 8x2 against 2x4); it is not clipped, as neither PubTabNet's
code nor ``table-recognition-metric`` clips it.

Spans: paperpyramid stores every table, gold or extracted, as a rectangle with the spans
expanded (a spanning cell's text in its top-left cell, the cells it covers empty), and two
such rectangles are compared here, every ``td`` one row by one column. PubTabNet's TEDS
reads ``rowspan`` and ``colspan`` and counts a cell with the wrong span as a whole rename;
here a wrong span shows as text in the wrong cell and empty cells where text should be. The
trees have no ``thead`` or ``tbody`` either (header rows are rows like the others), so the
figures are not comparable with published PubTabNet scores; they equal what the
``table-recognition-metric`` package gives for the same rectangles written as HTML.

The distance is exact, in time proportional to |A|·|B| and memory to |B| times A's widest row.
Zhang and Shasha's recurrence over the two trees' postorders (a row's cells, then the row)
needs the distance of every pair of subtrees, and a tree three levels deep has only three
kinds of pair, each with a closed form: cell against cell, the rename; row against row, the
cheapest alignment of their cells (insert, delete, rename); a row of k cells against a cell,
k plus the cheaper of 1 and the best rename of one of its cells into the other. The
recurrence advances one node of A at a time against all of B in numpy, and the cell renames
come from rapidfuzz, one row of A against every cell of B at a time. A 40x20 table against a
copy with one row lost and one cell changed takes about 0.1 s on one core (the general-purpose
APTED that ``table-recognition-metric`` runs takes 18 s on the same pair); 200x20 tables,
17.8 million node pairs, under 2 s. Past :data:`MAX_NODE_PAIRS` both grids are cut to their
first rows, as many as stay within it, and the TEDS of those leading rows stands for the
table's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

__all__ = ["MAX_NODE_PAIRS", "Grid", "teds", "tree_edit_distance", "tree_size"]

#: the largest |A|·|B| scored whole (about 2 s); larger pairs are scored on their leading rows
MAX_NODE_PAIRS = 20_000_000

#: rows of cell texts; rows may differ in length
Grid = Sequence[Sequence[str]]
_Vector = npt.NDArray[np.float64]


def tree_size(grid: Grid) -> int:
    """Nodes of the grid's tree: the table, one per row, one per cell."""
    return 1 + len(grid) + sum(len(row) for row in grid)


def teds(first: Grid, second: Grid, *, structure_only: bool = False, max_node_pairs: int = MAX_NODE_PAIRS) -> float:
    """TEDS of two grids: 1.0 for equal grids (equal shapes with ``structure_only``), less the more they differ.

    Symmetric in its arguments; ``structure_only`` gives TEDS-Struct, cell texts ignored.
    Grids whose trees' sizes multiply to more than ``max_node_pairs`` are scored on their
    leading rows, as many as stay within it.
    """
    first, second = _leading_rows(first, second, max_node_pairs)
    distance = tree_edit_distance(first, second, structure_only=structure_only)
    return 1.0 - distance / max(tree_size(first), tree_size(second))


def _leading_rows(first: Grid, second: Grid, max_node_pairs: int) -> tuple[Grid, Grid]:
    """Both grids, or their first rows, as many as keep |A|·|B| within ``max_node_pairs``."""
    if tree_size(first) * tree_size(second) <= max_node_pairs:
        return first, second
    low, high = 1, max(len(first), len(second))  # the answer lies in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if tree_size(first[:middle]) * tree_size(second[:middle]) <= max_node_pairs:
            low = middle
        else:
            high = middle
    return first[:low], second[:low]


@dataclass(frozen=True)
class _Tree:
    """The second grid's tree laid out for the recurrence: its nodes in postorder, 1-based."""

    texts: list[str]  # the cells' texts, row after row
    nodes: int
    cell_positions: npt.NDArray[np.intp]  # postorder position of each cell, row after row
    row_positions: npt.NDArray[np.intp]  # postorder position of each row's tr
    before: npt.NDArray[np.intp]  # per node, the position just before its subtree's first node
    widths: _Vector  # cells per row
    cell_rows: npt.NDArray[np.intp]  # (row, column) of each cell, for a row-by-column layout
    cell_columns: npt.NDArray[np.intp]

    @classmethod
    def of(cls, grid: Grid) -> _Tree:
        cells, rows, before, cell_rows, cell_columns = [], [], [], [], []
        position = 0
        for r, row in enumerate(grid):
            start = position
            for c in range(len(row)):
                position += 1
                cells.append(position)
                before.append(position - 1)
                cell_rows.append(r)
                cell_columns.append(c)
            position += 1
            rows.append(position)
            before.append(start)
        return cls(
            texts=[text for row in grid for text in row],
            nodes=position,
            cell_positions=np.array(cells, dtype=np.intp),
            row_positions=np.array(rows, dtype=np.intp),
            before=np.array(before, dtype=np.intp),
            widths=np.array([len(row) for row in grid], dtype=np.float64),
            cell_rows=np.array(cell_rows, dtype=np.intp),
            cell_columns=np.array(cell_columns, dtype=np.intp),
        )

    @property
    def rows(self) -> int:
        return len(self.widths)

    @property
    def width(self) -> int:
        return int(self.widths.max(initial=0))


def _cell_renames(row: Sequence[str], tree: _Tree, structure_only: bool) -> _Vector:
    """Rename cost of each cell of ``row`` into each cell of the tree: shape (len(row), cells)."""
    if structure_only or not row or not tree.texts:
        return np.zeros((len(row), len(tree.texts)))
    renames: _Vector = cdist(list(row), tree.texts, scorer=Levenshtein.normalized_distance, dtype=np.float64, workers=1)
    return renames


def _advance(previous: _Vector, jump: _Vector, position: int, steps: _Vector) -> _Vector:
    """One row of the forest-distance table from the row before it.

    ``previous[y]`` is the distance of A's forest up to the node before this one against B's
    postorder prefix of y nodes; ``jump[y - 1]`` the cost of mapping this node onto B's
    node y (the forest before both subtrees plus the subtrees' distance). Inserting B's
    nodes one by one at cost 1 is a running minimum.
    """
    choices = np.empty_like(previous)
    choices[0] = position
    np.minimum(previous[1:] + 1.0, jump, out=choices[1:])
    result: _Vector = np.minimum.accumulate(choices - steps) + steps
    return result


def _align_one_more(alignment: _Vector, renames: _Vector, cells: int, columns: _Vector) -> _Vector:
    """The alignment of A's row, one cell longer, against the first y cells of every row of B.

    ``alignment[j, y]`` is the cheapest alignment (insert, delete, rename) of the row's
    ``cells - 1`` cells so far with row j's first y cells; ``renames[j, y - 1]`` the new cell's
    rename into row j's cell y (infinite past the row's end).
    """
    choices = np.empty_like(alignment)
    choices[:, 0] = cells
    np.minimum(alignment[:, 1:] + 1.0, alignment[:, :-1] + renames, out=choices[:, 1:])
    result: _Vector = np.minimum.accumulate(choices - columns, axis=1) + columns
    return result


def tree_edit_distance(first: Grid, second: Grid, *, structure_only: bool = False) -> float:
    """The tree edit distance of the grids' ``table > tr > td`` trees, with TEDS's costs.

    The two tables are always mapped onto each other (renaming ``table`` into ``table`` is
    free and they are ancestors of everything), so this is the distance of their forests of
    rows; see the module for the recurrence.
    """
    tree = _Tree.of(second)
    steps = np.arange(tree.nodes + 1, dtype=np.float64)
    columns = np.arange(tree.width + 1, dtype=np.float64)
    previous = steps.copy()  # nothing of A against B's prefixes: insert every node
    position = 0
    for row in first:
        before_row = previous
        renames = _cell_renames(row, tree, structure_only)
        laid_out = np.full((len(row), tree.rows, tree.width), np.inf)
        laid_out[:, tree.cell_rows, tree.cell_columns] = renames
        best_in_row = np.minimum(laid_out.min(axis=2, initial=np.inf), 1.0)
        alignment = np.tile(columns, (tree.rows, 1))
        cost = np.empty(tree.nodes)  # this node's subtree against each of B's, in B's postorder
        for k in range(len(row)):
            position += 1  # a cell: against B's cells its rename, against B's rows the closed form
            cost[tree.cell_positions - 1] = renames[k]
            cost[tree.row_positions - 1] = tree.widths + best_in_row[k]
            previous = _advance(previous, previous[tree.before] + cost, position, steps)
            alignment = _align_one_more(alignment, laid_out[k], k + 1, columns)
        position += 1  # the row: against B's cells the closed form, against B's rows the alignment
        cost[tree.cell_positions - 1] = len(row) + np.minimum(renames.min(axis=0, initial=np.inf), 1.0)
        cost[tree.row_positions - 1] = alignment[np.arange(tree.rows), tree.widths.astype(np.intp)]
        previous = _advance(previous, before_row[tree.before] + cost, position, steps)
    return float(previous[-1])
