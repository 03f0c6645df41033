"""The LaTeX gold of ``benchmarks/unseen_tables.py --latex``: the captioned floats' cells as the
PDF prints them. The author's macros without parameters are expanded (a shorthand in a table's
numbers); one with parameters is left to the LaTeX parser's text, which keeps its argument (a
class's ``\\code`` copied in, built on TeX's internals, would print "-1" of its font settings); a cell with Sweave's inline ``\\Sexpr`` prints a value
only running the code tells, and is not counted; nor is a dingbat's number. The sources are written here."""

from __future__ import annotations

from pathlib import Path

from benchmarks.unseen_tables import latex_tables

_SOURCE = r"""\documentclass{article}
\newcommand{\e}{\text{e-}}
\newcommand{\cmark}{\ding{51}}
\makeatletter
\DeclareRobustCommand\code{\bgroup\@noligs\@codex}
\def\@codex#1{{\normalfont\ttfamily\hyphenchar\font=-1 #1}\egroup}
\makeatother
\begin{document}
\begin{table}
\begin{tabular}{llll}
func. & mean & sd & fast \\
\code{embed} & 1.453\e 32 & 6.55\e 16 & \cmark \\
reliability & \Sexpr{length(reliability)} & n = \Sexpr{round(min(x), 1)} & \\
\end{tabular}
\caption{Mean values of the optimized functions.}
\end{table}
\end{document}
"""


def test_the_gold_expands_the_authors_macros_and_leaves_sweaves_values_uncounted(tmp_path: Path) -> None:
    tex = tmp_path / "paper.tex"
    tex.write_text(_SOURCE)
    (table,) = latex_tables(tex)
    assert table.rows == (("func", "mean", "sd", "fast"), ("embed", "1453e32", "655e16", ""), ("reliability", "", "", ""))
