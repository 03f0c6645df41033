"""The LaTeX gold reader's headings as the page prints them (psychTools' omega guide, unseen batch 16):
a macro that indexes its argument prints the word once, and a Greek letter with a subscript keeps
its letter."""

from __future__ import annotations

from paperpyramid.eval.gold import latex_to_text


def test_an_index_entry_prints_nothing() -> None:
    """``\\pfun{omega}`` expands to ``\\texttt{omega}\\index{omega}\\index{R function!omega}``: the page
    shows "omega" once (the gold read "omega omega R function!omega")."""
    latex = r"Using the \texttt{omega}\index{omega}\index{R function!omega} function"
    assert latex_to_text(latex, keep_math=True) == "Using the omega function"


def test_a_subscripted_letter_keeps_its_letter() -> None:
    """``$\\omega_h$`` prints ωh (the gold read the command ``\\omegah`` and dropped it)."""
    latex = r"Find three measures of reliability: $\omega_h$, $\alpha$, and $\omega_t$"
    assert latex_to_text(latex, keep_math=True) == "Find three measures of reliability: ωh, α, and ωt"
    assert latex_to_text(r"Computation of $X^Ty$ and $x_{ij}$", keep_math=True) == "Computation of XTy and xij"
