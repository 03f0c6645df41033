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

from paperpyramid.parsers.embedded.glyphs import BY_CODE, GlyphMap
from paperpyramid.parsers.embedded.layout import Page

log = logging.getLogger(__name__)

_CODE_NAME = re.compile(r"a(\d{1,3})")
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
}  # fmt: skip
#: TeX's T1 (Cork) encoding where it is not ASCII or Latin-1
_T1 = {
    13: "‚", 14: "‹", 15: "›", 16: "“", 17: "”", 18: "„", 19: "«", 20: "»", 21: "–", 22: "—", 25: "ı", 26: "ȷ",
    27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl", 127: "-", 215: "Œ", 223: "SS", 247: "œ", 255: "ß",
}  # fmt: skip


def dingbat_text(pages: list[Page]) -> bool:
    """Whether the first pages' printed characters are mostly dingbats (and enclosed numbers, stars, suits):
    the text of fonts mapped to the wrong characters, not a paper's symbols."""
    text = "".join(line.text for page in pages[:3] for line in page.lines)
    printed = len(text) - text.count(" ")
    return printed >= 200 and len(_DINGBAT.findall(text)) > _DINGBAT_SHARE * printed


def code_glyphs(path: Path) -> GlyphMap:
    """What each dingbat of the document's dvips bitmap fonts stands for: ``{(BY_CODE, ord(dingbat)): text}``,
    empty when the PDF has no such font (or cannot be read here: the parser's own errors come from pdfium)."""
    try:
        fonts = list(_code_named_fonts(path))
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many kinds on odd files; the text layer stays as it was
        log.debug("%s: bitmap fonts not read (%s)", path.name, exc)
        return {}
    if not fonts:
        return {}
    ot1 = sum(1 for codes in fonts if codes.keys() & range(11, 16)) > sum(1 for codes in fonts if codes.keys() & range(27, 32))
    table = _OT1 if ot1 else _T1
    glyphs: GlyphMap = {}
    clash: set[int] = set()
    for codes in fonts:
        for code, mapped in codes.items():
            text = _character(code, table)
            if len(mapped) != 1 or text is None or text == mapped:
                continue
            key = (BY_CODE, ord(mapped))
            if glyphs.setdefault(key, text) != text:
                clash.add(ord(mapped))
    return {key: text for key, text in glyphs.items() if key[1] not in clash}


def _character(code: int, table: dict[int, str]) -> str | None:
    if code in table:
        return table[code]
    if 32 <= code < 127 or (table is _T1 and 192 <= code < 256):
        return chr(code)
    return None  # an accent to be set over the next letter, or a code the encodings disagree on


def _code_named_fonts(path: Path) -> Iterator[dict[int, str]]:
    """For each Type 3 font whose glyphs are all named ``a<code>``, its codes and what its ToUnicode maps them to."""
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
                if isinstance(spec, dict) and _named_by_code(spec):
                    mapped = getattr(getattr(manager.get_font(None, spec), "unicode_map", None), "cid2unichr", None)
                    if mapped:
                        yield dict(mapped)


def _named_by_code(spec: dict[str, Any]) -> bool:
    subtype = resolve1(spec.get("Subtype"))
    if not isinstance(subtype, PSLiteral) or subtype.name != "Type3":
        return False
    encoding = resolve1(spec.get("Encoding"))
    differences = resolve1(encoding.get("Differences")) if isinstance(encoding, dict) else None
    if not differences:
        return False
    code, named = 0, 0
    for item in differences:
        if isinstance(item, int):
            code = item
            continue
        match = _CODE_NAME.fullmatch(getattr(item, "name", ""))
        if match is None or int(match.group(1)) != code:
            return False
        code, named = code + 1, named + 1
    return named > 0


__all__ = ["code_glyphs"]
