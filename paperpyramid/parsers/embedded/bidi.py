"""Right-to-left lines (Arabic, Persian, Hebrew): read as drawn, stored as written.

Typesetters draw a right-to-left line's glyphs from left to right, so a PDF's content stream holds
it backwards. pdfium turns a run of right-to-left words back, but not a phrase of several Latin
words inside it ("deep neural network" comes out "network neural deep"), and the jumps across
such a phrase would cut the line in pieces. So a line with right-to-left letters is read the way
it is drawn, left to right, like any other line (gaps, columns and cells are found as for Latin
text); each line's text is then put into the order it is written in (:func:`logical`), by a
simple form of the Unicode bidirectional algorithm: the line's direction is that of most of its
letters, a run of Latin words or of digits reads left to right inside a right-to-left line,
punctuation goes with its neighbours when both run the same way, else with the line.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Sequence

import pypdfium2.raw as pdfium_c

_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
#: bidirectional classes of characters that run right to left, and of those that run left to right
#: inside them (Latin letters, digits)
_RIGHT = frozenset({"R", "AL"})
_LEFT = frozenset({"L", "EN", "AN"})
_MARK_CATEGORIES = frozenset({"Mn", "Me", "Mc"})


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a letter of a right-to-left script."""
    return _RTL.search(text) is not None


def visual_order(raw: ctypes.c_void_p, chars: Sequence[str]) -> list[int] | None:
    """The order to read a page's characters in (indices into ``chars``): pdfium's, with each of
    its lines that holds right-to-left letters sorted left to right by where its characters are
    drawn (a combining mark right after its letter); None when the page has no such letter."""
    if not has_rtl(chars if isinstance(chars, str) else "".join(chars)):
        return None
    n = len(chars)
    order: list[int] = []
    start = 0
    for index in range(n + 1):
        if index < n and chars[index] not in ("\r", "\n"):
            continue
        line = list(range(start, index))
        if any(has_rtl(chars[i]) for i in line):
            line = _sorted_by_x(raw, chars, line)
        order += line
        if index < n:
            order.append(index)
        start = index + 1
    return order


def _sorted_by_x(raw: ctypes.c_void_p, chars: Sequence[str], line: list[int]) -> list[int]:
    rect = pdfium_c.FS_RECTF()
    centre: dict[int, float] = {}
    for i in line:
        pdfium_c.FPDFText_GetLooseCharBox(raw, i, ctypes.byref(rect))
        centre[i] = (rect.left + rect.right) / 2
    key: dict[int, tuple[float, int]] = {}
    for position, i in enumerate(line):
        if chars[i] and unicodedata.category(chars[i][0]) in _MARK_CATEGORIES:
            # a mark sits over its letter: it sorts right after the letter next to it in pdfium's order
            neighbours = [line[p] for p in (position - 1, position + 1) if 0 <= p < len(line) and not _is_mark(chars[line[p]])]
            base = min(neighbours, key=lambda j: abs(centre[j] - centre[i])) if neighbours else i
            key[i] = (centre[base], 1)
        else:
            key[i] = (centre[i], 0)
    return sorted(line, key=lambda i: key[i])


def _is_mark(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch[0]) in _MARK_CATEGORIES


def logical(visual: str) -> str:
    """A line read left to right as drawn (``visual``) in the order it is written; a line without
    right-to-left letters as it is."""
    if not has_rtl(visual):
        return visual
    clusters: list[str] = []  # a character with the combining marks after it
    for ch in visual:
        if clusters and _is_mark(ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    kinds = [_kind(cluster[0]) for cluster in clusters]
    right = sum(1 for cluster, kind in zip(clusters, kinds, strict=True) if kind == "R" and cluster[0].isalpha())
    left = sum(1 for cluster, kind in zip(clusters, kinds, strict=True) if kind == "L" and cluster[0].isalpha())
    base = "R" if right >= left else "L"
    resolved = _resolve_neutrals(kinds, base)
    runs: list[list[str]] = []
    directions: list[str] = []
    for cluster, kind in zip(clusters, resolved, strict=True):
        if directions and directions[-1] == kind:
            runs[-1].append(cluster)
        else:
            runs.append([cluster])
            directions.append(kind)
    pieces = ["".join(reversed(run)) if kind == "R" else "".join(run) for run, kind in zip(runs, directions, strict=True)]
    return "".join(reversed(pieces) if base == "R" else pieces)


def _kind(ch: str) -> str:
    """R (right to left), L (left to right: Latin letters, digits) or N (spaces, punctuation)."""
    kind = unicodedata.bidirectional(ch)
    return "R" if kind in _RIGHT else "L" if kind in _LEFT else "N"


def _resolve_neutrals(kinds: list[str], base: str) -> list[str]:
    """Each run of neutral characters takes the direction of its neighbours where both run the
    same way, else the line's (the line's ends count as the line's direction)."""
    resolved = list(kinds)
    index = 0
    while index < len(kinds):
        if kinds[index] != "N":
            index += 1
            continue
        end = index
        while end < len(kinds) and kinds[end] == "N":
            end += 1
        before = kinds[index - 1] if index > 0 else base
        after = kinds[end] if end < len(kinds) else base
        for position in range(index, end):
            resolved[position] = before if before == after else base
        index = end
    return resolved


__all__ = ["has_rtl", "logical", "visual_order"]
