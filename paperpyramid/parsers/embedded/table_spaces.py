"""Thin spaces in a table's numbers: "63.4 ± 8.4", "< 0.001", "n = 12", "10 mg" set with a
space narrower than the parser's word space.

The parser reads a space where two characters' boxes (their advances) lie more than 0.22 of the
type's height apart; typesetters set the spaces around an operator and between a number and its
unit as thin spaces (an eighth to a sixth of an em: 0.07-0.15 of the height), which that rule
reads as no space at all ("63.4±8.4"). In a table's lines (:func:`thin_spaced`, the table
engine's reading only) a gap of :data:`_THIN` of the height or more is a space where one side is
an operator or where a number meets a unit's letter. Kerned letters leave no gap between
advances, and letter-spaced capitals (a running head) are letters on both sides, never spaced
here; a line set with such tracking needs a gap that much wider.

A note mark set after a value ("48.00∗ ± 0.00") stands in the space before the operator that
follows it: its advance fills that space, leaving a gap narrower than a thin one. Where the
operator is spaced on its other side, the mark and the operator are read apart at any gap
(:func:`_mark_then_operator`): a mark belongs to the value before it, never to the sign.
"""

from __future__ import annotations

import statistics

from paperpyramid.parsers.embedded.char_runs import CharRun

__all__ = ["THIN_SPACE", "thin_spaced"]

#: the space put in: a word's character without a box, so the line's words stay as they were read
#: (a cell's "63.4 ± 8.4" is one word, as "63.4±8.4" was); a line's text reads it as a space
THIN_SPACE = "\u2009"

#: a gap between two characters' advances this share of the type's height is a thin space
_THIN = 0.06
#: signs a typesetter sets apart from the numbers beside them
_OPERATORS = frozenset("±∓<>=≤≥≦≧×~∼≈")
#: note marks set after a value ("48.00∗", "0.03†")
_MARKS = frozenset("*∗⁎†‡§¶‖")


def _spaced(left: str, right: str) -> bool:
    """Whether a thin gap between these two characters is a space: an operator on either side,
    or a digit followed by a unit's letter ("10 mg", "30 μg")."""
    return left in _OPERATORS or right in _OPERATORS or (left.isdigit() and right.isalpha())


def _mark_then_operator(chars: list[str], index: int) -> bool:
    """Whether ``chars[index]`` is an operator just after a note mark and spaced on its right
    ("48.00∗± 0.00"): the mark's advance took the space before the operator."""
    return chars[index - 1] in _MARKS and chars[index] in _OPERATORS and chars[index + 1 : index + 2] == [" "]


def thin_spaced(run: CharRun) -> CharRun:
    """``run`` with a :data:`THIN_SPACE` where a thin gap parts an operator from its numbers or a
    number from its unit (the run itself where there is none); its boxes are unchanged."""
    chars = run.chars
    if not run.sizes or THIN_SPACE in chars:
        return run  # (a thin space the PDF draws has a box: the line's words are read as they are)
    pairs = [
        index
        for index in range(1, len(chars))
        if chars[index] != " " and chars[index - 1] != " " and _spaced(chars[index - 1], chars[index])
    ]
    if not pairs:
        return run
    edges = run.edges()
    drawn = {index: k for k, index in enumerate(position for position, ch in enumerate(chars) if ch != " ")}
    size = max(run.sizes.items(), key=lambda item: item[1])[0]
    # letter-spacing (tracking) widens every gap of the line alike: a thin space is wider still
    letters = [
        edges[drawn[index]][0] - edges[drawn[index - 1]][1]
        for index in range(1, len(chars))
        if chars[index].isalpha() and chars[index - 1].isalpha()
    ]
    limit = _THIN * size + (max(0.0, statistics.median(letters)) if letters else 0.0)
    cuts = [
        index
        for index in pairs
        if edges[drawn[index]][0] - edges[drawn[index - 1]][1] >= (0.0 if _mark_then_operator(chars, index) else limit)
    ]
    if not cuts:
        return run
    spaced = CharRun(run.rtl)
    for slot in CharRun.__slots__:
        setattr(spaced, slot, getattr(run, slot))
    spaced.chars = list(chars)
    for index in reversed(cuts):
        spaced.chars.insert(index, THIN_SPACE)
    return spaced
