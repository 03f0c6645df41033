"""Text as stored: valid Unicode, ligatures spelled out, plain letters, plain spaces, no control characters.

PDF text layers carry control characters where a font's glyph has no Unicode mapping. Most are
the ligatures of TeX's fonts, whose encodings put them in the C0 range: in T1 (Cork) ``0x1B``-
``0x1F`` are ff, fi, fl, ffi, ffl; in OT1 ``0x0B``-``0x0F`` are the same five. Between two letters
such a character is the ligature (``de\\x1cned`` is "defined"); anything else in the C0 or C1 ranges
(NUL, the dotless i of OT1 at ``0x10``, ...) cannot be read and is dropped. Tabs and newlines stay.

PDF text layers also hand over UTF-16 halves: a math letter outside the Basic Multilingual Plane
(𝜒, 𝑃, 𝛽) arrives as two surrogates, or one alone. A string holding a surrogate cannot be encoded,
so a tokenizer, an embedder or SQLite refuses the whole document. Pairs are joined and lone halves
dropped; the Mathematical Alphanumeric Symbols (U+1D400-U+1D7FF, and ℎ) become the letters and digits
they are styled from (𝜒 -> χ, 𝐏 -> P, 𝟎 -> 0), which is what a reader searches for. Spaces of other
widths (no-break, thin, em, ideographic) become a plain space; zero-width ones, the soft hyphen, byte
order marks and non-characters are dropped; line and paragraph separators become newlines.
Adobe's Symbol font draws large brackets and braces from pieces it keeps in the private use area
(U+F8E5-U+F8FE: "⎧", "⎨", "⎩" stacked into a brace over a display's cases): each becomes the
Unicode piece it draws (U+239B-U+23AE), the sans ®, © and ™ their plain signs, and the radical's
and arrows' extenders, only strokes that lengthen a drawn sign, are dropped; the dotless j Adobe's
glyph list puts at U+F6BE (the j of a vector drawn over it) is U+0237.
Every document passes through :func:`clean_document` before its contexts are cut and again
before it is stored, so no backend's text reaches the corpus with any of these.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any, TypeVar

from paperpyramid.document import Block, Cite

_TEX_LIGATURES = {
    "\x1b": "ff", "\x1c": "fi", "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl",  # T1 (Cork)
    "\x0b": "ff", "\x0c": "fi", "\x0d": "fl", "\x0e": "ffi", "\x0f": "ffl",  # OT1
}  # fmt: skip
_LIGATURE_IN_WORD = re.compile(r"(?<=[^\W\d_])[\x0b-\x0f\x1b-\x1f](?=[^\W\d_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_UNICODE_LIGATURES = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
)

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_MATH_LETTER = re.compile(r"[\U0001d400-\U0001d7ff\u210e]")
_ODD_SPACE = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_INVISIBLE = re.compile(r"[\u00ad\u200b\u2060\ufeff\ufffe\uffff]")
_LINE_SEPARATOR = re.compile(r"[\u2028\u2029]")
_SYMBOL_PIECE = re.compile(r"[\uf6be\uf8e5-\uf8fe]")
#: Symbol's private-use pieces in code point order from U+F8E5 (Adobe's glyph list: radicalex,
#: arrowvertex, arrowhorizex, registersans, copyrightsans, trademarksans, parenlefttp ...
#: bracerightbt); "" for the extenders of a drawn sign; and Adobe's dotlessj
_SYMBOL_PIECES = str.maketrans(
    {0xF6BE: "ȷ"} | {0xF8E5 + offset: piece for offset, piece in enumerate(["", "", "", "®", "©", "™", *"⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪⎮⎞⎟⎠⎤⎥⎦⎫⎬⎭"])}
)
#: any character one of the rules above rewrites: text without one takes the fast path
_UNUSUAL = re.compile("|".join(rule.pattern for rule in (_SURROGATE, _MATH_LETTER, _ODD_SPACE, _INVISIBLE, _LINE_SEPARATOR, _SYMBOL_PIECE)))
#: any character any rule of :func:`clean_text` rewrites
_ANY_RULE = re.compile(f"{_CONTROL.pattern}|[\ufb00-\ufb06]|{_UNUSUAL.pattern}")

T = TypeVar("T")


def clean_text(text: str) -> str:
    """``text`` with ligatures spelled out and no control character but tab and newline.

    >>> clean_text("de\\x1cned e\\x0bects of NUL\\x00s")
    'defined effects of NULs'
    >>> clean_text("\\ud835\\udf12\\u00b2 test, \\ud835\\udc43\\u2009<\\u20090.05\\udc00")
    'χ² test, P < 0.05'
    """
    if text.isascii() and text.isprintable() or not _ANY_RULE.search(text):
        return text  # most text: no rule below rewrites it (the first test is the cheaper)
    cleaned = text.translate(_UNICODE_LIGATURES)
    cleaned = plain_unicode(cleaned)
    if _CONTROL.search(cleaned):
        cleaned = _CONTROL.sub("", _LIGATURE_IN_WORD.sub(lambda match: _TEX_LIGATURES[match.group(0)], cleaned))
    return text if cleaned == text else cleaned  # the same object when clean: documents are copied only where needed


def plain_unicode(text: str) -> str:
    """``text`` with surrogate pairs joined (lone halves dropped), math alphanumerics as plain
    letters and digits, odd spaces as a space, separators as newlines, Symbol's private-use
    pieces as Unicode's and invisible marks gone; control characters and ligatures are left to
    :func:`clean_text`."""
    if not _UNUSUAL.search(text):
        return text
    if _SURROGATE.search(text):  # pairs joined into the character they encode, lone halves dropped
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "ignore")
    text = _MATH_LETTER.sub(lambda match: unicodedata.normalize("NFKC", match.group(0)), text)
    text = _ODD_SPACE.sub(" ", text)
    text = _LINE_SEPARATOR.sub("\n", text)
    if _SYMBOL_PIECE.search(text):
        text = text.translate(_SYMBOL_PIECES)
    return _INVISIBLE.sub("", text)


def clean_document(value: T) -> T:
    """A copy of a document (any dataclass of the document model, or a list, tuple or dict of
    them) with :func:`clean_text` applied to every string in it; ``value`` itself when nothing
    needed cleaning."""
    return _clean(value)  # type: ignore[no-any-return]


def _clean(value: Any) -> Any:
    kind = type(value)
    if kind is str:
        return clean_text(value)
    if kind in _ATOMS:
        return value
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        cleaned = [_clean(item) for item in value]
        return value if all(a is b for a, b in zip(cleaned, value, strict=True)) else cleaned
    if isinstance(value, tuple):
        cleaned_tuple = tuple(_clean(item) for item in value)
        return value if all(a is b for a, b in zip(cleaned_tuple, value, strict=True)) else cleaned_tuple
    if isinstance(value, dict):
        cleaned_dict = {key: _clean(item) for key, item in value.items()}
        return value if all(cleaned_dict[key] is item for key, item in value.items()) else cleaned_dict
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _clean_dataclass(value)
    return value


#: values with no text in them, returned as they are without further checks
_ATOMS = frozenset({int, float, bool, type(None), bytes})
#: each dataclass's field names: ``dataclasses.fields`` builds a tuple on every call
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _clean_dataclass(value: Any) -> Any:
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(value))
    changes = {}
    for name in names:
        old = getattr(value, name)
        new = _clean(old)
        if new is not old:
            changes[name] = new
    if isinstance(value, Block) and "text" in changes and value.cites:
        changes["cites"] = [_moved(cite, value.text) for cite in changes.get("cites", value.cites)]
    return dataclasses.replace(value, **changes) if changes else value


def _moved(cite: Cite, text: str) -> Cite:
    """``cite``, a span of ``text``, as a span of ``text`` cleaned."""
    start = len(clean_text(text[: cite.start]))
    return dataclasses.replace(cite, start=start, end=start + len(clean_text(text[cite.start : cite.end])))


__all__ = ["clean_document", "clean_text", "plain_unicode"]
