"""The sizes of text set in Type 3 fonts, read from the font's size rather than its box.

The parser reads a character's size from the height of its loose box (pdfium's, from the font's
ascent and descent). A Type 3 font, such as the bitmap Computer Modern that dvips embeds, gives
no ascent or descent; pdfium derives the box from the font's bounding box, which a subset font
draws around the few glyphs it holds. So two fonts of the same size get boxes of different
heights. In a Sweave vignette set that way, the body is 9.35 points high at 9.96, one heading
font 10.8 at 11.96, and another 7.6 at 11.96: that heading reads smaller than the body and is
lost as small print.

Such fonts carry no name pdfium reports (a Type 3 font has no ``/BaseFont``). Their characters'
em size (the size set, times the text matrix's vertical scale) is right, so each is given the box height
the page's most common Type 3 box has for its size: the body keeps its height, and a heading
set larger gets a height in proportion to its size. Text set at the body's size keeps its box:
there a box shorter than the body's is the one sign left of another face (a bold run-in or
``\\subsubsection`` heading at the body's size, whose bold the unnamed font does not report).

:func:`type3_scales` returns the factors, in the form :func:`~.char_runs.read_runs` takes for
boxes OCR corrected.
"""

from __future__ import annotations

import ctypes
from collections import Counter

import pypdfium2.raw as pdfium_c

#: characters looked at to decide whether the page has unnamed fonts at all
_SAMPLE = 64
#: fewer letters than this in unnamed fonts on a page give no ratio worth trusting: left as read
_MIN_LETTERS = 40
#: boxes within this share of the size the ratio gives are left as they are
_TOLERANCE = 0.04
#: a character whose matrix turns it by more than this (its sine, about a tenth of a degree) is not upright
_UPRIGHT = 0.002


def type3_scales(raw: ctypes.c_void_p, chars: str | list[str], n: int) -> dict[int, float]:
    """Each character of an unnamed (Type 3) font whose box height is off the page's usual
    box-to-size ratio, mapped to the factor that sets its box to that ratio; empty for a page
    with no such fonts, or too few of their letters to learn the ratio from."""
    if not _has_unnamed_font(raw, n):
        return {}
    buffer = ctypes.create_string_buffer(8)
    flags = ctypes.c_int()
    rect = pdfium_c.FS_RECTF()
    matrix = pdfium_c.FS_MATRIX()
    measured: list[tuple[int, float, float]] = []  # (index, box height, em size)
    for index in range(n):
        if not chars[index].isalpha() or pdfium_c.FPDFText_GetFontInfo(raw, index, buffer, 8, ctypes.byref(flags)) > 1:
            continue  # a named font (the call returns the name's length with its terminator)
        pdfium_c.FPDFText_GetMatrix(raw, index, ctypes.byref(matrix))
        if abs(matrix.b) > _UPRIGHT or abs(matrix.c) > _UPRIGHT:
            continue  # set turned (a sideways table): its box's height is the glyph's width
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
        em = pdfium_c.FPDFText_GetFontSize(raw, index) * abs(matrix.d)  # the vertical scale: a narrowed face keeps its height
        height = rect.top - rect.bottom
        if em > 0 and height > 0:
            measured.append((index, height, em))
    if len(measured) < _MIN_LETTERS:
        return {}
    ratio, body_em = _usual_ratio(measured)
    scales = {}
    for index, height, em in measured:
        factor = em * ratio / height
        if abs(em - body_em) > _TOLERANCE * body_em and abs(factor - 1) > _TOLERANCE:
            scales[index] = factor
    return scales


def _has_unnamed_font(raw: ctypes.c_void_p, n: int) -> bool:
    """Whether any of a sample of the page's characters is set in a font without a name."""
    buffer = ctypes.create_string_buffer(8)
    flags = ctypes.c_int()
    step = max(1, n // _SAMPLE)
    return any(pdfium_c.FPDFText_GetFontInfo(raw, index, buffer, 8, ctypes.byref(flags)) == 1 for index in range(0, n, step))


def _usual_ratio(measured: list[tuple[int, float, float]]) -> tuple[float, float]:
    """The box-to-size ratio of the most letters (the body's), over the box heights and sizes
    as printed (to a hundredth of a point), and that size."""
    pairs = Counter((round(height, 2), round(em, 2)) for _, height, em in measured)
    (height, em), _ = pairs.most_common(1)[0]
    return height / em, em
