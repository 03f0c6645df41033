"""Writing systems: what the text checks need to know about scripts other than Latin.

A paper in Persian, Hebrew, Russian, Greek or Chinese has a good text layer as often as one in
English; the checks for a bad one (fonts without a Unicode map) must not take a script they do
not know for mojibake. Each check asks here instead: which script a letter belongs to, whether
a word reads as a word of its script, whether a script is written without spaces.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Unicode's names for the scripts written together in one word: Japanese mixes kana and kanji,
#: Korean hangul and hanja
_FAMILIES = {name: "CJK" for name in ("HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC", "HALFWIDTH")}
#: Chinese and Japanese characters and punctuation (ideographs, kana, full-width forms; not
#: Korean hangul, written with spaces): written without spaces, a line breaks between any two
_UNSPACED = re.compile("[\u2e80-\u2fdf\u3000-\u312f\u31a0-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff9f\U00020000-\U0003134f]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_VOWELS = frozenset("aeiouy")


@lru_cache(maxsize=4096)
def script(ch: str) -> str:
    """The script of a letter as the first word of its Unicode name ("LATIN", "ARABIC", "CJK";
    kana and hangul count as "CJK"); "" for a character without a name."""
    head = unicodedata.name(ch, "").split(" ", 1)[0]
    return _FAMILIES.get(head, head)


def unspaced(ch: str) -> bool:
    """Whether ``ch`` is a character of a script written without spaces between words (Chinese,
    Japanese, and their punctuation): two lines of it join without a space."""
    return _UNSPACED.match(ch) is not None


def one_word_each(text: str) -> str:
    """``text`` with each Chinese or Japanese character set apart by spaces: to count words in a
    script written without them, each character counts as one."""
    return _UNSPACED.sub(r" \g<0> ", text) if _UNSPACED.search(text) else text


def readable(word: str) -> bool:
    """Whether a word (letters only) reads as a word of its script: all its letters of one
    script, and a Latin word with a vowel. A font without a Unicode map gives words of odd
    Latin letters without vowels ("Wkh", "ÅºÅÈ") or of letters of several scripts at once
    (glyph numbers read as code points); a word of Greek, Arabic or Han letters is text."""
    first = script(word[0])
    if any(script(ch) != first for ch in word[1:]):
        return False
    # a capital with an accent is not counted a vowel: Quartz's unmapped glyph codes land there (É, Å)
    return first != "LATIN" or any(ch in "AEIOUY" or unicodedata.normalize("NFD", ch)[0] in _VOWELS for ch in word)


def unreadable_words(text: str) -> tuple[int, int]:
    """The words of ``text`` (two letters or more) that are not :func:`readable`, and all its words."""
    words = _WORD.findall(text)
    return sum(1 for word in words if not readable(word)), len(words)


__all__ = ["one_word_each", "readable", "script", "unreadable_words", "unspaced"]
