"""TEDS of two grids: equal grids 1.0, hand-counted edits, and the reference package's figures."""

from __future__ import annotations

import html
import random
import time

import pytest

from paperpyramid.eval.teds import Grid, teds, tree_edit_distance, tree_size

GOLD = [["Site", "Mean", "SD"], ["North", "1.5", "0.2"], ["South", "", "0.4"]]  # 1 + 3 + 9 = 13 nodes


def test_equal_grids_score_one() -> None:
    assert teds(GOLD, [list(row) for row in GOLD]) == 1.0
    assert teds(GOLD, GOLD, structure_only=True) == 1.0
    assert teds([], []) == 1.0
    # the structure alone: any texts in the same shape
    assert teds(GOLD, [["x"] * 3] * 3, structure_only=True) == 1.0


def test_hand_counted_edits() -> None:
    # a cell's text renamed: "1.5" -> "1.6" is one character of three
    changed = [GOLD[0], ["North", "1.6", "0.2"], GOLD[2]]
    assert teds(GOLD, changed) == pytest.approx(1 - (1 / 3) / 13)
    # a cell filled that should be empty: a whole rename
    filled = [GOLD[0], GOLD[1], ["South", "3.0", "0.4"]]
    assert teds(GOLD, filled) == pytest.approx(1 - 1 / 13)
    # a row lost: its tr and three tds deleted
    assert teds(GOLD, GOLD[:2]) == pytest.approx(1 - 4 / 13)
    assert teds(GOLD, GOLD[:2], structure_only=True) == pytest.approx(1 - 4 / 13)
    # a row shifted right by an empty cell, its last cell lost: one insertion, one deletion
    shifted = [GOLD[0], ["", "North", "1.5"], GOLD[2]]
    assert tree_edit_distance(GOLD, shifted) == pytest.approx(2)
    assert teds(GOLD, shifted, structure_only=True) == 1.0
    # nothing extracted but the table: every row and cell of the gold inserted
    assert teds(GOLD, []) == pytest.approx(1 / 13)


def test_a_row_broken_over_two_costs_its_row_nodes_not_its_cells() -> None:
    # the tree edit distance deletes both trs and inserts one, keeping the twenty cells
    cells = [str(n) for n in range(20)]
    assert tree_edit_distance([cells[:10], cells[10:]], [cells]) == 3
    assert teds([cells[:10], cells[10:]], [cells]) == pytest.approx(1 - 3 / 23)


def test_symmetric_and_sized() -> None:
    other = [["Site", "Mean"], ["North 1.5", "0.2"]]
    assert teds(GOLD, other) == pytest.approx(teds(other, GOLD))
    assert tree_size(GOLD) == 13 and tree_size([]) == 1 and tree_size([[]]) == 2


def test_grids_too_large_together_are_scored_on_their_leading_rows() -> None:
    gold = [[str(r), str(r + 1)] for r in range(10)]
    wrong_tail = gold[:8] + [["x", "y"], ["z", "w"]]
    assert teds(gold, wrong_tail) < 1.0
    # 5 x 5 rows of 2 cells: 16 nodes each, 256 pairs
    assert teds(gold, wrong_tail, max_node_pairs=256) == 1.0


def test_a_large_table_is_scored_quickly() -> None:
    rng = random.Random(1)
    gold = [[f"{rng.uniform(0, 100):.1f}" for _ in range(20)] for _ in range(40)]
    extracted = [list(row) for row in gold[:-1]]
    extracted[3][2] = "x"
    start = time.perf_counter()
    score = teds(gold, extracted)
    seconds = time.perf_counter() - start
    assert score == pytest.approx(1 - 22 / 841)  # the lost row's 21 nodes and one cell renamed
    assert seconds < 5  # about 0.1 s; the general-purpose APTED takes 18 s


def _as_html(grid: Grid) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(text)}</td>" for text in row) + "</tr>" for row in grid)
    return f"<html><body><table>{rows}</table></body></html>"


def _grids() -> list[tuple[Grid, Grid]]:
    rng = random.Random(7)
    texts = ["", "", "a", "ab", "abc", "1.5", "-0.2", "Site", "Mean (SD)", "<0.05", "p & q", "μg"]

    def grid() -> list[list[str]]:
        return [[rng.choice(texts) for _ in range(rng.randint(0, 5))] for _ in range(rng.randint(0, 5))]

    pairs: list[tuple[Grid, Grid]] = [(GOLD, GOLD[:2]), (GOLD, [GOLD[0], ["", "North", "1.5"], GOLD[2]])]
    for _ in range(30):
        first = grid()
        near = [list(row) for row in first]
        if near and near[0]:
            near[0][0] = rng.choice(texts)
        pairs += [(first, grid()), (first, near)]
    return pairs


def test_agrees_with_table_recognition_metric() -> None:
    reference = pytest.importorskip("table_recognition_metric", reason="the reference TEDS (pip install table-recognition-metric)")
    full, structure = reference.TEDS(), reference.TEDS(structure_only=True)
    for gold, extracted in _grids():
        assert teds(gold, extracted) == pytest.approx(full(_as_html(extracted), _as_html(gold)), abs=1e-6)
        assert teds(gold, extracted, structure_only=True) == pytest.approx(structure(_as_html(extracted), _as_html(gold)), abs=1e-6)
