"""TEDS against the LaTeX gold of ``benchmarks/unseen_tables.py --latex`` leaves out the cells the
gold does not count (math, markup the PDF prints otherwise), as the exact-cell recall does: a
parsed table that reads every such cell right scored TEDS 0.52 (vegan's scalings, batch 5) for
the text the gold's empty cells lacked. A parsed row that differs in a counted cell keeps its
text, and so its cost."""

from __future__ import annotations

from pathlib import Path

from benchmarks.unseen_tables import latex_floats, uncounted_left_out
from paperpyramid.eval.table_scores import TableGrid, score_tables

_SOURCE = r"""\documentclass{article}
\begin{document}
\begin{table}
\begin{tabular}{lll}
 & site scores & species scores \\
prcomp & $u_{ik} \sqrt{n-1}$ & $v_{jk}$ \\
biplot & $u_{ik}$ & $v_{jk} \sqrt{n}$ \\
\end{tabular}
\caption{Alternative scalings.}
\end{table}
\end{document}
"""


def _teds(tmp_path: Path, rows: tuple[tuple[str, ...], ...]) -> float | None:
    tex = tmp_path / "paper.tex"
    tex.write_text(_SOURCE)
    (table,) = latex_floats(tex)
    pieces = uncounted_left_out(table, [TableGrid("Table 1", "Alternative scalings.", rows)])
    return score_tables("paper.pdf", [table.grid], pieces).scores[0].teds


def test_cells_the_gold_leaves_as_markup_cost_nothing(tmp_path: Path) -> None:
    read = (("", "sitescores", "speciesscores"), ("prcomp", "uikn1", "vjk"), ("biplot", "uik", "vjkn"))
    assert _teds(tmp_path, read) == 1.0


def test_a_row_read_wrong_keeps_its_cost(tmp_path: Path) -> None:
    read = (("", "sitescores", "speciesscores"), ("prcomp", "uikn1", "vjk"), ("biplat", "uik", "vjkn"))
    assert (_teds(tmp_path, read) or 0.0) < 1.0
