"""TeX's bitmap fonts, read by their codes where the PDF maps them to dingbats.

When dvips has no outline font at hand it sets TeX's fonts as Type 3 bitmap fonts and names
each glyph after its code, ``/a65`` for code 65. Ghostscript, writing the PDF, builds the
fonts' ToUnicode maps from those names through the ZapfDingbats glyph list, where ``a65`` is a
dingbat, so the text layer reads "❆♥❛❧②s✐♥❣" for "Analysing" and the paper cannot be read at
all. The code is TeX's own character position, so the text comes back exactly from the code
through TeX's font encoding: T1 (the ligatures at 27-31), or OT1 where a font's ligatures sit
at 11-15. The fonts say which dingbat each code was mapped to; :func:`code_glyphs` turns that
round into a :data:`~.glyphs.GlyphMap` that :mod:`.glyphs` applies to the mapped characters.

Only fonts whose every named glyph is ``a<its own code>`` are read this way: the pattern is
dvips's, and a font with real glyph names keeps its map.

Other dvips runs name the glyphs by their code in two base-36 digits from "A0" (``/AC`` is 12,
``/CR`` is 99). Ghostscript then maps only the few names that the Adobe glyph list happens to
know ("CR", carriage return, for "c"; "AE" for TeX's "ffi"; "CL" for "]") and leaves the rest
unmapped, so pdfium reads the raw code: right for the letters, a control character for the
ligatures and accents, and every "c" of the paper is lost (TUGboat's "The O tavo Pa kage",
batch 10). Such fonts are found from the text layer too (:func:`nameless_text`: Type 3 fonts
have no name), and their unmapped control codes are read through TeX's encoding under
:data:`~.glyphs.BY_RAW`; printable codes stay as read (a typewriter font's "{" is not OT1's "–").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfinterp import PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import PDFObjRef, resolve1
from pdfminer.psparser import PSLiteral

from paperpyramid.parsers.embedded.glyphs import BY_CODE, BY_RAW, GlyphMap
from paperpyramid.parsers.embedded.layout import Page

log = logging.getLogger(__name__)

_CODE_NAME = re.compile(r"a(\d{1,3})")
#: dvips's other naming: the code in two base-36 digits, "A0" for 0 to "H3" for 255
_BASE36_NAME = re.compile("[A-H][0-9A-Z]")
#: the printable codes all of TeX's text encodings (OT1, its typewriter variant, T1) read alike, and
#: not as ASCII: the left quote, which read as "`" would be set as a grave accent on a letter near it
_TEX_QUOTES = {96: "\u2018"}
#: the first pages' printed characters, at least this many of them, are mostly in fonts without a
#: name (Type 3): bitmap fonts
_PRINTED = 200
_NAMELESS_SHARE = 0.5
#: Enclosed Alphanumerics, Miscellaneous Symbols and Dingbats, where the ZapfDingbats names land
_DINGBAT = re.compile("[\u2460-\u24ff\u2600-\u27bf]")
_DINGBAT_SHARE = 0.3
#: the fonts of at most this many pages are looked at (a font met first late in a long document is rare)
_PAGES = 200

#: TeX's OT1 encoding where it is not ASCII (Computer Modern's text fonts)
_OT1 = {
    **dict(zip(range(11), "ΓΔΘΛΞΠΣΥΦΨΩ", strict=True)),
    11: "ff", 12: "fi", 13: "fl", 14: "ffi", 15: "ffl", 16: "ı", 17: "ȷ", 25: "ß", 26: "æ", 27: "œ", 28: "ø",
    29: "Æ", 30: "Œ", 31: "Ø", 34: "”", 60: "¡", 62: "¿", 92: "“", 123: "–", 124: "—",
    # the accents, spacing, which :mod:`.accents` sets on their letters
    18: "`", 19: "\u00b4", 20: "\u02c7", 21: "\u02d8", 22: "\u00af", 23: "\u02da", 24: "\u00b8", 127: "\u00a8",
}  # fmt: skip
#: TeX's T1 (Cork) encoding where it is not ASCII or Latin-1
_T1 = {
    13: "‚", 14: "‹", 15: "›", 16: "“", 17: "”", 18: "„", 19: "«", 20: "»", 21: "–", 22: "—", 25: "ı", 26: "ȷ",
    27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl", 127: "-", 215: "Œ", 223: "SS", 247: "œ", 255: "ß",
    0: "`", 1: "\u00b4", 2: "\u02c6", 3: "\u02dc", 4: "\u00a8", 5: "\u02dd", 6: "\u02da", 7: "\u02c7", 8: "\u02d8",
    9: "\u00af", 10: "\u02d9", 11: "\u00b8", 12: "\u02db",
}  # fmt: skip


def dingbat_text(pages: list[Page]) -> bool:
    """Whether the first pages' printed characters are mostly dingbats (and enclosed numbers, stars, suits):
    the text of fonts mapped to the wrong characters, not a paper's symbols."""
    lines = _printed_lines(pages)
    printed = sum(len(text) for text, _ in lines)
    return printed >= _PRINTED and sum(len(_DINGBAT.findall(text)) for text, _ in lines) > _DINGBAT_SHARE * printed


def nameless_text(pages: list[Page]) -> bool:
    """Whether the first pages' printed characters are mostly in fonts without a name: Type 3 fonts,
    which is how dvips sets TeX's bitmap fonts (:func:`code_glyphs` then says whether they are its)."""
    lines = _printed_lines(pages)
    printed = sum(len(text) for text, _ in lines)
    return printed >= _PRINTED and sum(len(text) for text, font in lines if not font) > _NAMELESS_SHARE * printed


def _printed_lines(pages: list[Page]) -> list[tuple[str, str]]:
    """The first pages' lines, each as its printed characters (spaces left out: they are no font's)
    and its font: the one count of both tests above."""
    return [(line.text.replace(" ", ""), line.font) for page in pages[:3] for line in page.lines]


def code_glyphs(path: Path) -> GlyphMap:
    """What each character of the document's dvips bitmap fonts stands for: ``{(BY_CODE, ord(mapped)): text}``
    for the codes their ToUnicode maps (to dingbats, or to the control characters of the glyph list's few
    names), ``{(BY_RAW, code): text}`` for the control codes they leave unmapped (pdfium reads the raw
    code); empty when the PDF has no such font (or cannot be read here: the parser's own errors come
    from pdfium)."""
    try:
        fonts = list(_code_named_fonts(path))
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many kinds on odd files; the text layer stays as it was
        log.debug("%s: bitmap fonts not read (%s)", path.name, exc)
        return {}
    if not fonts:
        return {}
    ot1 = sum(1 for codes, _ in fonts if codes & {11, 12, 13, 14, 15}) > sum(1 for codes, _ in fonts if codes & {27, 28, 29, 30, 31})
    table = _OT1 if ot1 else _T1
    glyphs: GlyphMap = {}
    clash: set[tuple[str, int]] = set()
    for codes, mapped in fonts:
        for code in codes:
            text = _character(code, table)
            read = mapped.get(code)
            if read is None:  # unmapped: pdfium reads the code, which is text unless it is a control
                key = (BY_RAW, code)
                if code >= 32 and code != 127 and code not in _TEX_QUOTES:
                    continue
            else:
                key = (BY_CODE, ord(read))
                if len(read) != 1:
                    continue
            if text is None or text == read:
                continue
            if glyphs.setdefault(key, text) != text:
                clash.add(key)
    return {key: text for key, text in glyphs.items() if key not in clash}


def _character(code: int, table: dict[int, str]) -> str | None:
    if code in table:
        return table[code]
    if code in _TEX_QUOTES:
        return _TEX_QUOTES[code]
    if 32 <= code < 127 or (table is _T1 and 192 <= code < 256):
        return chr(code)
    return None  # an accent to be set over the next letter, or a code the encodings disagree on


def _code_named_fonts(path: Path) -> Iterator[tuple[set[int], dict[int, str]]]:
    """For each Type 3 font whose glyphs are all named by their codes, its codes and what its ToUnicode maps them to."""
    seen: set[int] = set()
    manager = PDFResourceManager(caching=False)
    with path.open("rb") as handle:
        document = PDFDocument(PDFParser(handle))
        for number, page in enumerate(PDFPage.create_pages(document)):
            if number == _PAGES:
                break
            for ref in (resolve1(page.resources.get("Font")) or {}).values():
                if isinstance(ref, PDFObjRef):
                    if ref.objid in seen:
                        continue
                    seen.add(ref.objid)
                spec = resolve1(ref)
                codes = _named_by_code(spec) if isinstance(spec, dict) else set()
                if codes:
                    mapped = getattr(getattr(manager.get_font(None, spec), "unicode_map", None), "cid2unichr", None)
                    yield codes, dict(mapped or {})


def _named_by_code(spec: dict[str, Any]) -> set[int]:
    """The codes of a Type 3 font whose every glyph is named by its code in one of dvips's two ways
    (empty for any other font)."""
    subtype = resolve1(spec.get("Subtype"))
    if not isinstance(subtype, PSLiteral) or subtype.name != "Type3":
        return set()
    encoding = resolve1(spec.get("Encoding"))
    differences = resolve1(encoding.get("Differences")) if isinstance(encoding, dict) else None
    if not differences:
        return set()
    code = 0
    codes: set[int] = set()
    schemes: set[str] = set()
    for item in differences:
        if isinstance(item, int):
            code = item
            continue
        named = _name_code(getattr(item, "name", ""))
        if named is None or named[1] != code:
            return set()
        schemes.add(named[0])
        codes.add(code)
        code += 1
    return codes if len(schemes) == 1 else set()


def _name_code(name: str) -> tuple[str, int] | None:
    """The scheme ("a" or "base36") and code of a glyph name dvips gave, or None."""
    if match := _CODE_NAME.fullmatch(name):
        return "a", int(match.group(1))
    if _BASE36_NAME.fullmatch(name):
        return "base36", (ord(name[0]) - ord("A")) * 36 + int(name[1], 36)
    return None


__all__ = ["code_glyphs", "dingbat_text", "nameless_text"]
