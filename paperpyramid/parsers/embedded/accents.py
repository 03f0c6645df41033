"""TeX's accents put back on their letters.

pdfTeX sets an accented letter its font does not have (OT1 fonts have none) as two glyphs: the
base letter and a spacing accent drawn over it ("´" U+00B4, "¨", "ˇ", ...). pdfium reports both,
and not always side by side: the accent often comes after the next letter or the next word
("Fred´ eric" for Frédéric, "Krysci ´ nski" for Kryściński, "JESUS G ´ OMEZ" with the accent of
the U), and a capital's accent, raised, can cut its line in two. So an accent is matched by
where it is drawn, not where it comes: it joins the Latin letter near it in pdfium's order
(the shared corpus has them up to a line apart) whose box holds its centre and shares its
height, when both are in the same font and the two make one precomposed character. A mathematical accent (a hat over an italic variable: ŷ in
``\\hat{y}``) is drawn from the upright font over a letter of the italic one: it stays as set.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Sequence

import pypdfium2.raw as pdfium_c

#: spacing accents and the combining marks they stand for
SPACING_ACCENTS = {
    "\u00b4": "\u0301",  # acute
    "`": "\u0300",  # grave
    "\u00a8": "\u0308",  # diaeresis
    "\u02c7": "\u030c",  # caron
    "\u02dc": "\u0303",  # tilde
    "\u02c6": "\u0302",  # circumflex
    "\u02d8": "\u0306",  # breve
    "\u02da": "\u030a",  # ring
    "\u00af": "\u0304",  # macron
    "\u02c9": "\u0304",  # macron (modifier letter)
    "\u00b8": "\u0327",  # cedilla
    "\u02d9": "\u0307",  # dot above
    "\u02dd": "\u030b",  # double acute
    "\u02db": "\u0328",  # ogonek
}
_ACCENT = re.compile("[" + re.escape("".join(SPACING_ACCENTS)) + "]")
#: TeX accents i and j without their dots
_DOTLESS = {"\u0131": "i", "\u0237": "j"}
#: how many characters away in pdfium's order an accent's letter may be (a line and more)
_WINDOW = 160
_FONT_BUFFER_SIZE = 256


def compose(letter: str, accent: str) -> str | None:
    """The precomposed Latin letter of ``letter`` under (or over) the spacing ``accent``, or None
    where Unicode has none ("Ó" for "O" and "´"; None for "k" and "ˆ")."""
    if len(letter) != 1 or not _latin(letter):
        return None
    composed = unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + SPACING_ACCENTS[accent])
    return composed if len(composed) == 1 else None


def _latin(ch: str) -> bool:
    return ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN")


def has_accents(chars: Sequence[str]) -> bool:
    """Whether any of ``chars`` is a spacing accent (a cheap test before :func:`compose_accents`)."""
    return _ACCENT.search(chars if isinstance(chars, str) else "".join(chars)) is not None


def compose_accents(raw: ctypes.c_void_p, chars: Sequence[str]) -> list[str] | None:
    """The page's characters (one string per pdfium index) with each spacing accent joined to the
    letter it is drawn over, its own place (and a space pdfium made up beside it) left empty;
    None where no accent was joined."""
    if not has_accents(chars):
        return None
    out = list(chars)
    boxes = _Boxes(raw)
    joined = False
    for index, ch in enumerate(chars):
        if ch not in SPACING_ACCENTS or pdfium_c.FPDFText_IsGenerated(raw, index):
            continue
        letter = _letter_under(out, index, boxes)
        if letter is None:
            continue
        composed = compose(out[letter], ch)
        if composed is None or boxes.font(letter) != boxes.font(index):
            continue
        out[letter], out[index] = composed, ""
        joined = True
        for side in (index - 1, index + 1):
            if 0 <= side < len(out) and out[side] == " " and pdfium_c.FPDFText_IsGenerated(raw, side) and _abutting(out, side, boxes):
                out[side] = ""
    return out if joined else None


def composed_text(raw: ctypes.c_void_p, chars: Sequence[str]) -> str:
    """A page's text (``chars``: pdfium's text, or one string per character index) with each
    spacing accent joined to its letter: the text layer as the parser reads it."""
    if not has_accents(chars):
        return "".join(chars)
    count = pdfium_c.FPDFText_CountChars(raw)
    if len(chars) != count:  # the text and pdfium's character indices disagree: read it one index at a time, as the parser does
        chars = [chr(pdfium_c.FPDFText_GetUnicode(raw, index)) for index in range(count)]
    return "".join(compose_accents(raw, chars) or chars)


class _Boxes:
    """Loose boxes (left, bottom, right, top) and font names of a page's characters, read once each."""

    def __init__(self, raw: ctypes.c_void_p) -> None:
        self.raw = raw
        self._boxes: dict[int, tuple[float, float, float, float]] = {}
        self._fonts: dict[int, bytes] = {}
        self._rect = pdfium_c.FS_RECTF()
        self._buffer = ctypes.create_string_buffer(_FONT_BUFFER_SIZE)
        self._flags = ctypes.c_int()

    def box(self, index: int) -> tuple[float, float, float, float]:
        if index not in self._boxes:
            pdfium_c.FPDFText_GetLooseCharBox(self.raw, index, ctypes.byref(self._rect))
            self._boxes[index] = (self._rect.left, self._rect.bottom, self._rect.right, self._rect.top)
        return self._boxes[index]

    def font(self, index: int) -> bytes:
        if index not in self._fonts:
            length = pdfium_c.FPDFText_GetFontInfo(self.raw, index, self._buffer, _FONT_BUFFER_SIZE, ctypes.byref(self._flags))
            self._fonts[index] = self._buffer.value if length else b""
        return self._fonts[index]


def _letter_under(chars: list[str], index: int, boxes: _Boxes) -> int | None:
    """The Latin letter near ``index`` whose box holds the accent's centre across and overlaps it
    by half its height or more (the one whose centre is nearest)."""
    left, bottom, right, top = boxes.box(index)
    centre = (left + right) / 2
    best: tuple[float, int] | None = None
    for other in range(max(0, index - _WINDOW), min(len(chars), index + _WINDOW + 1)):
        ch = chars[other]
        if other == index or len(ch) != 1 or not _latin(ch):
            continue
        x0, y0, x1, y1 = boxes.box(other)
        if not x0 - 0.5 <= centre <= x1 + 0.5 or min(top, y1) - max(bottom, y0) < 0.5 * min(top - bottom, y1 - y0):
            continue
        distance = abs((x0 + x1) / 2 - centre)
        if best is None or distance < best[0]:
            best = (distance, other)
    return None if best is None else best[1]


def _abutting(chars: list[str], space: int, boxes: _Boxes) -> bool:
    """Whether the characters drawn either side of a made-up space touch: the space stood only
    for the jump to the accent and back."""
    before = next((i for i in range(space - 1, -1, -1) if chars[i] not in ("", " ")), None)
    after = next((i for i in range(space + 1, len(chars)) if chars[i] not in ("", " ")), None)
    if before is None or after is None:
        return False
    x0, y0, x1, y1 = boxes.box(before)
    a0, b0, a1, b1 = boxes.box(after)
    height = y1 - y0
    return min(y1, b1) - max(y0, b0) > 0.5 * height and -0.5 * height < a0 - x1 < 0.1 * height


__all__ = ["SPACING_ACCENTS", "compose", "compose_accents", "composed_text", "has_accents"]
