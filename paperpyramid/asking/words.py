"""The words of a claim and of its passages as the support check compares them: lower case,
accents dropped, lightly stemmed ("tagged" is "tag"), numbers and names as written, spelled-out
numbers and ordinals as digits (:mod:`paperpyramid.asking.support`,
:mod:`paperpyramid.asking.contradiction`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def listed(text: str) -> tuple[str, ...]:
    """The words of ``text``, a list written as prose: word lists read better that way."""
    return tuple(text.split())


#: words that carry no finding of their own
FUNCTION = frozenset(
    listed(
        """a an the of in on at to for from by with and or but is are was were be been being it its this that these
    those as than which who whom whose what when where how has have had having do does did can could may might
    must shall should will would also such into onto over under between their there they them we our us i you
    your he she his her him so if then thus therefore however both either each other another any some same very
    just about per via within upon e g et al ie eg th st nd rd respectively approx"""
    )
)
#: words that deny what their clause says
NEGATION = frozenset(listed("not no never none neither nor nothing nobody nowhere without cannot lack lacks lacked lacking absence unable"))
_NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate(
        listed(
            """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
            seventeen eighteen nineteen twenty"""
        )
    )
}
# ordinals are numbers too ("first" and "second" also mean "initial" and "next": words)
_NUMBER_WORDS |= {
    word: f"{number}th"
    for number, word in enumerate(
        listed(
            """third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth
            sixteenth seventeenth eighteenth nineteenth twentieth"""
        ),
        3,
    )
}
_ORDINAL = re.compile(r"\b(\d+)\s?(?:st|nd|rd|th)\b")
_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")


def forms(text: str) -> dict[str, str]:
    """The words of ``text`` as written (lower case, accents dropped) with their normal forms."""
    return dict(written_forms(text))


def written_forms(text: str) -> list[tuple[str, str]]:
    """The words of ``text`` in order, each as written and in its normal form."""
    text = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()
    text = _ORDINAL.sub(lambda match: f"{match.group(1)}th", text.replace("n't", " not").replace("cannot", "can not"))
    found: list[tuple[str, str]] = []
    for token in _TOKEN.findall(text):
        parts = [token.replace(",", "")] if _THOUSANDS.fullmatch(token) else token.split(",")
        found += [(part, normal(part)) for part in parts if part]
    return found


def normal_forms(text: str) -> set[str]:
    """The normal forms of the words of ``text``."""
    return set(forms(text).values())


def content(found: dict[str, str]) -> set[str]:
    """The normal forms of the content words among ``found`` (:func:`forms`)."""
    return {word for written, word in found.items() if is_content(written)}


def sequence(text: str) -> list[str]:
    """The normal forms of the content words of ``text``, in order."""
    return [word for written, word in written_forms(text) if is_content(written)]


def is_content(written: str) -> bool:
    # single letters are initials (the "L." of "L. larvaepartus"), not content
    return written not in FUNCTION and written not in NEGATION and (len(written) > 1 or written.isdigit())


@lru_cache(maxsize=1 << 16)
def normal(token: str) -> str:
    """The form of one lower-case word that its variants share."""
    if is_number(token):
        return token.rstrip("0").rstrip(".") if "." in token else token
    if token in _NUMBER_WORDS:
        return _NUMBER_WORDS[token]
    if any(char.isdigit() for char in token) or token in NEGATION:
        return token  # names (L5242, AaegOBP1) as written
    return stem(token)


def stem(word: str) -> str:
    """``word`` without its inflection: a light stemmer, enough to match "tagged" with "tag"."""
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def is_number(token: str) -> bool:
    return re.fullmatch(r"\d+(?:\.\d+|th)?", token) is not None
