"""Fonts without a Unicode map, read through OCR.

Some PDFs (re-saved by macOS Quartz, say) embed subset fonts whose glyph codes map to no
Unicode text: no ToUnicode entries, no glyph names, no cmap. pdfium then reports each glyph's
raw code, and the text layer reads as mojibake (``\\x15»É»·È¹¾`` for "Research"). Such a font
is still a fixed substitution, one code for one character, so a few pages read by OCR teach it
whole: every glyph pdfium flags as unmapped takes a vote from the OCR character drawn at its
place, and the majority becomes its text. The page is then read from the text layer as usual,
with the learnt characters in place of the codes, so fonts, sizes and positions (headings,
columns, tables) stay the text layer's own; only the characters come from OCR.

A :data:`GlyphMap` maps ``(font name, code)`` to text; :func:`page_text` applies it.
"""

from __future__ import annotations

import bisect
import ctypes
import time
from collections import Counter, defaultdict
from collections.abc import Iterable

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from paperpyramid.parsers.embedded.ocr import Glyph, read_glyphs

#: (full font name, glyph code) -> the character(s) the glyph shows ("" for nothing)
GlyphMap = dict[tuple[str, int], str]
#: the font name of a GlyphMap's entries for characters that are mapped, but to the wrong text, in any
#: font: (BY_CODE, the code pdfium reads) -> the text (TeX's bitmap fonts mapped to dingbats, :mod:`.bitmap_fonts`)
BY_CODE = "\x00by code"
#: the font name of a GlyphMap's entries for the raw codes pdfium reads from unmapped glyphs of fonts
#: without a name (Type 3): (BY_RAW, code) -> the text (TeX's bitmap fonts named by code, :mod:`.bitmap_fonts`)
BY_RAW = "\x00raw code"

#: a page whose letters are this mojibake (or more), or with this many mojibake characters,
#: has unread fonts worth learning from; the shared corpus's text pages stay under 0.05 and
#: 50 characters, its Quartz pages are 0.46-0.55 (a figure's labels: 0.09, 180 characters)
UNREAD_SHARE = 0.2
UNREAD_CHARS = 100
#: at most this many pages are read by OCR per document (about 3 s each)
MAX_OCR_PAGES = 6
#: a glyph's text must have this share of its votes
_MAJORITY = 0.5
#: a font is relearnt when this share of its unmapped glyphs have raw codes
_RAW_SHARE = 0.5
#: capitals whose ink runs from baseline to cap height, and a standard font's loose box height
#: over its cap height (Times, Helvetica: ascent - descent about 0.92 em, capitals about 0.7 em)
_FLAT_CAPITALS = frozenset("ABDEFHIKLMNPRTUVWXYZ")
_LOOSE_PER_CAP = 1.31
_FONT_BUFFER_SIZE = 256


def _font_name(raw: ctypes.c_void_p, index: int, buffer: ctypes.Array[ctypes.c_char], flags: ctypes.c_int) -> str:
    n = pdfium_c.FPDFText_GetFontInfo(raw, index, buffer, _FONT_BUFFER_SIZE, ctypes.byref(flags))
    return buffer.value.decode("utf-8", "replace") if n else ""


def _unmapped(raw: ctypes.c_void_p, n: int) -> Iterable[tuple[int, str]]:
    """(index, full font name) of each drawn character pdfium could not map to Unicode."""
    buffer = ctypes.create_string_buffer(_FONT_BUFFER_SIZE)
    flags = ctypes.c_int()
    for index in range(n):
        if pdfium_c.FPDFText_HasUnicodeMapError(raw, index) and not pdfium_c.FPDFText_IsGenerated(raw, index):
            yield index, _font_name(raw, index, buffer, flags)


def page_text(textpage: pdfium.PdfTextPage, glyphs: GlyphMap) -> list[str]:
    """The characters of ``textpage``, one string per character index (so boxes still line up),
    with every glyph ``glyphs`` knows read as its text and every other glyph of those fonts
    read as "" (unknown, dropped)."""
    return _read_chars(textpage.raw, glyphs)[0]


def read_page(textpage: pdfium.PdfTextPage, glyphs: GlyphMap) -> tuple[list[str], dict[int, float]]:
    """:func:`page_text`, and for the characters read through ``glyphs`` how much to scale
    their loose boxes' height so that they compare with other fonts' ({index: factor}).

    A loose box runs from the font's declared ascent to its descent; fonts that lost their
    Unicode map often declare odd ones (Quartz's: half as tall again as Helvetica's), which
    would make every line of them look like a heading. The factor puts the font's capital
    letters (their tight boxes: the glyphs' ink) in the proportion a standard font has.
    """
    chars, read = _read_chars(textpage.raw, glyphs)
    return chars, _scales(textpage.raw, chars, read)


def _read_chars(raw: ctypes.c_void_p, glyphs: GlyphMap) -> tuple[list[str], dict[int, str]]:
    """The page's characters with the learnt glyphs in place, and the font (without its subset
    tag) of each character read through them."""
    n = pdfium_c.FPDFText_CountChars(raw)
    chars = [chr(pdfium_c.FPDFText_GetUnicode(raw, index)) for index in range(n)]
    fonts = {font for font, _ in glyphs}
    read: dict[int, str] = {}
    if BY_CODE in fonts:  # not pdfium's own line breaks, when a font's map sends "c" to a carriage return
        generated = pdfium_c.FPDFText_IsGenerated
        chars = [ch if ch < " " and generated(raw, index) else glyphs.get((BY_CODE, ord(ch)), ch) for index, ch in enumerate(chars)]
    if not fonts - {BY_CODE}:
        return chars, read
    for index, font in _unmapped(raw, n):
        if not font and BY_RAW in fonts:  # the code itself, not BY_CODE's reading of the same character
            code = pdfium_c.FPDFText_GetUnicode(raw, index)
            chars[index] = glyphs.get((BY_RAW, code), chr(code))
            continue
        base = _base(font)
        if font in fonts or base in fonts:
            code = pdfium_c.FPDFText_GetUnicode(raw, index)
            chars[index] = glyphs.get((font, code), glyphs.get((base, code), ""))
            read[index] = base
    return chars, read


def _scales(raw: ctypes.c_void_p, chars: list[str], read: dict[int, str]) -> dict[int, float]:
    ratios: defaultdict[str, list[float]] = defaultdict(list)
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    rect = pdfium_c.FS_RECTF()
    for index, font in read.items():
        if chars[index] in _FLAT_CAPITALS and pdfium_c.FPDFText_GetCharBox(
            raw, index, *(ctypes.byref(v) for v in (left, right, bottom, top))
        ):
            pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
            if rect.top > rect.bottom and top.value > bottom.value:
                ratios[font].append(_LOOSE_PER_CAP * (top.value - bottom.value) / (rect.top - rect.bottom))
    factor = {font: sorted(values)[len(values) // 2] for font, values in ratios.items() if len(values) >= 3}
    return {index: factor[font] for index, font in read.items() if font in factor and factor[font] < 1}


def _raw_code(code: int) -> bool:
    """A code that is a raw glyph number rather than text: C0 controls, Latin-1 and Latin
    Extended symbols (where Quartz's glyph numbers land)."""
    return code < 0x20 or 0x80 <= code <= 0x2FF


def _base(font: str) -> str:
    """The font's name without its subset tag ("MYQUTY+Name" -> "Name")."""
    return font.split("+", 1)[-1]


def unmapped_fonts(pdf: pdfium.PdfDocument, number: int) -> set[str]:
    """The fonts (names without subset tags) of the unmapped glyphs with raw codes on page ``number``."""
    page = pdf[number - 1]
    try:
        textpage = page.get_textpage()
        try:
            raw = textpage.raw
            return {
                _base(font)
                for index, font in _unmapped(raw, pdfium_c.FPDFText_CountChars(raw))
                if _raw_code(pdfium_c.FPDFText_GetUnicode(raw, index))
            }
        finally:
            textpage.close()
    finally:
        page.close()


def learn(pdf: pdfium.PdfDocument, page_numbers: list[int], program: str, *, deadline: float | None = None) -> tuple[GlyphMap, list[int]]:
    """Learn the unmapped glyphs of the pages ``page_numbers`` (1-based; the first
    :data:`MAX_OCR_PAGES` of them are read) from OCR of those pages. Returns
    the map and the pages read. Pages set sideways, and any past ``deadline``
    (``time.monotonic()``), are not read."""
    votes: defaultdict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    read: list[int] = []
    for number in page_numbers:
        if len(read) == MAX_OCR_PAGES or (deadline is not None and time.monotonic() > deadline):
            break
        page = pdf[number - 1]
        try:
            if page.get_rotation() % 360:
                continue
            textpage = page.get_textpage()
            try:
                _vote(textpage, page.get_height(), read_glyphs(page, program), votes)
            finally:
                textpage.close()
            read.append(number)
        finally:
            page.close()
    return decide(votes), read


def _vote(textpage: pdfium.PdfTextPage, height: float, seen: list[Glyph], votes: defaultdict[tuple[str, int], Counter[str]]) -> None:
    """Each unmapped glyph votes for the OCR character whose centre falls in its box (the one
    nearest its centre); a glyph with none there (a space, say) votes for a space."""
    raw = textpage.raw
    rect = pdfium_c.FS_RECTF()
    by_height = sorted(seen, key=lambda glyph: glyph.top + glyph.bottom)
    mids = [(glyph.top + glyph.bottom) / 2 for glyph in by_height]
    for index, font in _unmapped(raw, pdfium_c.FPDFText_CountChars(raw)):
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
        x0, x1, top, bottom = rect.left, rect.right, height - rect.top, height - rect.bottom
        if x1 <= x0 or bottom <= top:
            continue
        centre = (x0 + x1) / 2
        best: tuple[float, str] | None = None
        for glyph in by_height[bisect.bisect_left(mids, top) : bisect.bisect_right(mids, bottom)]:
            mid_x = (glyph.x0 + glyph.x1) / 2
            if x0 - 0.5 <= mid_x <= x1 + 0.5 and (best is None or abs(mid_x - centre) < best[0]):
                best = (abs(mid_x - centre), glyph.text)
        code = pdfium_c.FPDFText_GetUnicode(raw, index)
        votes[(font, code)][best[1] if best else " "] += 1


def decide(votes: dict[tuple[str, int], Counter[str]]) -> GlyphMap:
    """Each glyph's text: the majority of its own votes, or, where it has fewer than two, of
    the votes for the same code in fonts of the same name (subsets of one font keep its codes).
    The pooled choices are also kept under the name without its subset tag, for subsets the
    pages read by OCR did not use. Fonts whose unmapped glyphs mostly have codes that read as
    text (pdfium inferred them: Symbol's Greek) are not relearnt."""
    raw: Counter[str] = Counter()
    drawn: Counter[str] = Counter()
    for (font, code), counter in votes.items():
        drawn[_base(font)] += counter.total()
        raw[_base(font)] += counter.total() if _raw_code(code) else 0
    # a font whose unmapped glyphs mostly read as text already (pdfium inferred them) is left alone
    votes = {key: counter for key, counter in votes.items() if raw[_base(key[0])] >= _RAW_SHARE * drawn[_base(key[0])]}
    pooled: defaultdict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    for (font, code), counter in votes.items():
        pooled[(_base(font), code)].update(counter)
    glyphs: GlyphMap = {}
    for (font, code), counter in [*votes.items(), *pooled.items()]:
        chosen = counter if counter.total() >= 2 else pooled[(_base(font), code)]
        text, count = chosen.most_common(1)[0]
        if count > _MAJORITY * chosen.total():
            glyphs[(font, code)] = text
    return glyphs


__all__ = [
    "BY_CODE",
    "BY_RAW",
    "GlyphMap",
    "MAX_OCR_PAGES",
    "UNREAD_CHARS",
    "UNREAD_SHARE",
    "decide",
    "learn",
    "page_text",
    "read_page",
    "unmapped_fonts",
]
