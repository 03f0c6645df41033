"""The LaTeX gold reader and size or face switches (issue 32): small capitals set by hand inside
a word print the word whole, and a switch's size argument is not printed."""

from __future__ import annotations

from paperpyramid.eval.gold import latex_to_text


def test_relsize_switch_inside_a_word() -> None:
    """smfart's "From {P\\smaller[3]LAIN} \\TeX" prints "From PLAIN TeX" (the gold read "P [3]LAIN")."""
    assert latex_to_text(r"From {P\smaller[3]LAIN} \TeX", keep_math=True) == "From PLAIN TeX"


def test_size_switch_inside_a_word_takes_its_space() -> None:
    """A control word takes the spaces after it: "{T\\small EX}" prints "TEX"."""
    assert latex_to_text(r"{T\small EX} macros", keep_math=True) == "TEX macros"


def test_switches_between_words_keep_them_apart() -> None:
    """Between words, or after another command, a switch leaves the words as they were."""
    assert latex_to_text(r"In the {\protect\normalfont\ttfamily amsmath} package", keep_math=True) == "In the amsmath package"
    assert latex_to_text(r"a {\bf bold} and {\tt [ ]} brackets", keep_math=True) == "a bold and [ ] brackets"
