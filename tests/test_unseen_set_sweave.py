"""``benchmarks/unseen_set.py``'s Sweave reading: the LaTeX gold of an R vignette keeps its code
chunks as ``verbatim``, however the ``.Rnw`` ends its chunks and lines (batch 4's robustbase
simulation paper lost its title and half its sections to a chunk closed by ``@%``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import sweave_to_latex  # noqa: E402


def test_a_chunk_closed_by_an_at_sign_and_a_comment_ends_there() -> None:
    source = "<<setup>>=\nx <- 1\n@% end{graphics-setup}\n\\title{Simulations}\n<<b>>=\ny\n@\n\\section{Setting}\n"
    latex = sweave_to_latex(source)
    assert "\\begin{verbatim}\nx <- 1\n\\end{verbatim}\n\\title{Simulations}" in latex
    assert latex.count("\\begin{verbatim}") == 2


def test_windows_line_ends_still_close_chunks() -> None:
    source = "<<a>>=\r\nfit <- glm(y ~ x)\r\n@\r\n\\section{Results}\r\n"
    latex = sweave_to_latex(source)
    assert latex == "\\begin{verbatim}\nfit <- glm(y ~ x)\n\\end{verbatim}\n\\section{Results}\n"


def test_text_after_the_closing_at_sign_stays_text() -> None:
    assert sweave_to_latex("<<a>>=\n1\n@ Then we fit.\n") == "\\begin{verbatim}\n1\n\\end{verbatim}Then we fit.\n"
