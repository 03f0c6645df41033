"""Mathematics drawn as a typesetter draws it: runs of glyphs on a baseline, raised and lowered
smaller scripts, and fractions stacked over a rule, in the standard fonts (no math font).

An expression is a list of atoms (:class:`Run`, :class:`Script`, :class:`Fraction`);
:func:`measure` gives its width, height above and depth below the baseline, and
:func:`draw` places it. :func:`glyphs` is the gold a reader is scored against: the printed
characters, in the order drawn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from benchmarks.synthetic.canvas import Canvas, text_width

__all__ = ["Atom", "Fraction", "MathFonts", "Run", "Script", "draw", "expression", "glyphs", "measure"]

#: scripts are set at this share of the text size, raised or lowered by these shares of it
_SCRIPT = 0.7
_RAISE = 0.38
_LOWER = 0.22
#: a fraction's rule sits this share of the size above the baseline (the maths axis)
_AXIS = 0.28


@dataclass(frozen=True)
class Run:
    text: str
    italic: bool = False


@dataclass(frozen=True)
class Script:
    text: str
    raised: bool  # superscript; else subscript
    italic: bool = False


@dataclass(frozen=True)
class Fraction:
    numerator: tuple[Atom, ...]
    denominator: tuple[Atom, ...]


Atom = Run | Script | Fraction


@dataclass(frozen=True)
class MathFonts:
    roman: str
    italic: str


def measure(atoms: tuple[Atom, ...] | list[Atom], fonts: MathFonts, size: float) -> tuple[float, float, float]:
    """(width, height above the baseline, depth below it) of ``atoms`` set at ``size``."""
    width, height, depth = 0.0, 0.72 * size, 0.22 * size
    for atom in atoms:
        if isinstance(atom, Run):
            width += text_width(atom.text, fonts.italic if atom.italic else fonts.roman, size)
        elif isinstance(atom, Script):
            width += text_width(atom.text, fonts.italic if atom.italic else fonts.roman, size * _SCRIPT)
            height = max(height, (_RAISE + 0.7 * _SCRIPT) * size) if atom.raised else height
            depth = max(depth, (_LOWER + 0.25 * _SCRIPT) * size) if not atom.raised else depth
        else:
            top_w, top_h, top_d = measure(atom.numerator, fonts, size)
            bottom_w, bottom_h, bottom_d = measure(atom.denominator, fonts, size)
            width += max(top_w, bottom_w) + 0.4 * size
            height = max(height, _AXIS * size + 0.15 * size + top_d + top_h)
            depth = max(depth, -_AXIS * size + 0.15 * size + bottom_h + bottom_d)
    return width, height, depth


def draw(canvas: Canvas, atoms: tuple[Atom, ...] | list[Atom], fonts: MathFonts, x: float, baseline: float, size: float) -> float:
    """Draw ``atoms`` from ``x`` on ``baseline`` (points from the page's top); returns the width."""
    start = x
    for atom in atoms:
        if isinstance(atom, Run):
            x += canvas.text(x, baseline, atom.text, fonts.italic if atom.italic else fonts.roman, size)
        elif isinstance(atom, Script):
            shift = -_RAISE * size if atom.raised else _LOWER * size
            x += canvas.text(x, baseline + shift, atom.text, fonts.italic if atom.italic else fonts.roman, size * _SCRIPT)
        else:
            top_w, _top_h, top_d = measure(atom.numerator, fonts, size)
            bottom_w, bottom_h, _bottom_d = measure(atom.denominator, fonts, size)
            wide = max(top_w, bottom_w) + 0.4 * size
            axis = baseline - _AXIS * size
            canvas.rule(x, axis, x + wide, axis, 0.4)
            draw(canvas, atom.numerator, fonts, x + (wide - top_w) / 2, axis - 0.15 * size - top_d, size)
            draw(canvas, atom.denominator, fonts, x + (wide - bottom_w) / 2, axis + 0.15 * size + bottom_h, size)
            x += wide
    return x - start


def glyphs(atoms: tuple[Atom, ...] | list[Atom]) -> str:
    """The printed characters of ``atoms`` without spaces, in the order drawn."""
    out = []
    for atom in atoms:
        if isinstance(atom, Fraction):
            out.append(glyphs(atom.numerator) + glyphs(atom.denominator))
        else:
            out.append(atom.text.replace(" ", ""))
    return "".join(out)


# --------------------------------------------------------------------------- random expressions


def _symbol(rng: random.Random, letters: str) -> list[Atom]:
    atoms: list[Atom] = [Run(rng.choice(letters), italic=True)]
    roll = rng.random()
    if roll < 0.3:
        atoms.append(Script(rng.choice("ijkn"), raised=False, italic=True))
    elif roll < 0.55:
        atoms.append(Script(rng.choice("23"), raised=True))
    return atoms


def _term(rng: random.Random, letters: str, depth: int = 0) -> list[Atom]:
    roll = rng.random()
    if roll < 0.25 and depth == 0:
        return [Fraction(tuple(_sum(rng, letters, 1, 2, depth + 1)), tuple(_sum(rng, letters, 1, 2, depth + 1)))]
    if roll < 0.4:
        return [Run(rng.choice(("exp", "log", "sin", "cos")) + "("), *_symbol(rng, letters), Run(")")]
    if roll < 0.55:
        return [Run("("), *_sum(rng, letters, 2, 2, depth + 1), Run(")"), Script(rng.choice("23"), raised=True)]
    coefficient = [Run(str(rng.randint(2, 9)))] if rng.random() < 0.4 else []
    return coefficient + _symbol(rng, letters)


def _sum(rng: random.Random, letters: str, low: int, high: int, depth: int) -> list[Atom]:
    atoms: list[Atom] = []
    for index in range(rng.randint(low, high)):
        if index:
            atoms.append(Run(f" {rng.choice(('+', '+', '–', '×'))} "))
        atoms += _term(rng, letters, depth)
    return atoms


def expression(rng: random.Random, letters: str, relations: str) -> list[Atom]:
    """A random display: a left side, a relation and a sum of one to four terms."""
    left: list[Atom] = [Run(rng.choice(letters), italic=True)]
    if rng.random() < 0.5:
        left.append(Script(rng.choice("ijkt"), raised=False, italic=True))
    if rng.random() < 0.3:
        left += [Run("("), Run(rng.choice(letters), italic=True), Run(")")]
    return left + [Run(f" {rng.choice(relations)} ")] + _sum(rng, letters, 1, 4, 0)
