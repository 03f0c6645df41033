"""The LaTeX gold of ``benchmarks/unseen_tables.py --latex`` where a float's tabular ends its rows
with TeX's own ``\\cr`` (psych's ``fa2latex``, xtable-like writers): the LaTeX parser splits rows
at ``\\\\`` alone, and the whole tabular read as one row of every cell."""

from __future__ import annotations

from pathlib import Path

from benchmarks.unseen_tables import latex_tables

_SOURCE = r"""\documentclass{article}
\begin{document}
\begin{table}[htpb]
\caption{fa2latex}
\begin{tabular} {l r r }
 \hline Variable  &   MR1  &  MR2 \cr
  \hline
Sentences   &   0.91  &  -0.04 \cr
 Vocabulary   &   0.89  &   0.06 \cr
\hline \cr SS loadings & 2.64 &  1.86 \cr\cr
\end{tabular}
\end{table}
\end{document}
"""


def test_rows_ended_by_cr_are_rows(tmp_path: Path) -> None:
    tex = tmp_path / "paper.tex"
    tex.write_text(_SOURCE)
    (factors,) = latex_tables(tex)
    assert factors.rows == (
        ("variable", "mr1", "mr2"),
        ("sentences", "091", "004"),
        ("vocabulary", "089", "006"),
        ("ssloadings", "264", "186"),
    )
