"""The LaTeX tabular reader drops rules with their own arguments only: booktabs' ``\\toprule``,
``\\midrule`` and ``\\bottomrule`` take an optional width, never a group, so a group after one is
the first cell's text (poweRlaw's tables open their rows with ``{\\small 1:}``; the reader had taken
it for the rule's argument and lost the cell, in ingested sources and in the tables' gold alike)."""

from __future__ import annotations

from paperpyramid.parsers.latex.tabular import tabular_cells


def test_a_group_after_a_booktabs_rule_is_the_first_cells_text() -> None:
    body = r"\toprule {\small 1:} & Pareto \\ \midrule {\small 2:} & Poisson \\ \bottomrule"
    assert tabular_cells(body) == [["1:", "Pareto"], ["2:", "Poisson"]]


def test_rules_that_take_groups_still_lose_them() -> None:
    body = (
        r"\toprule[1.5pt] a & b \\ \cmidrule(lr){1-2} c & d \\ \specialrule{1pt}{2pt}{2pt} e & f \\"
        r" \rowcolor{gray} g & h \\ \cline{1-2} \hline\hline i & j \\ \bottomrule"
    )
    assert tabular_cells(body) == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"], ["i", "j"]]
