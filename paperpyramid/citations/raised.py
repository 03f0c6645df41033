"""Superscript citations read from what the PDF printed raised, rather than guessed from the text.

The embedded parser's text glues a superscript citation to its word ("DEET18", "DR10–13",
"24hr9,39", "°C3,4,15"), where :func:`~paperpyramid.citations.marker_patterns.superscripts` must
tell it from a name or a unit ("BL21", "cm3") by the word's shape, and refuses many it cannot
tell. A block read from a PDF's text layer carries the numbers printed raised
(:attr:`paperpyramid.document.Block.raised`), each with the character before it: those are the
candidates, and a glued number not printed raised is none.

A raised number is not always a citation: an exponent ("10⁵", "m²", "s⁻¹", "χ²") is raised too, and
is refused by what it follows (:func:`raised_markers`). The works a sentence names on the line
("Refs. 3 and 8") are no raised numbers: :func:`~paperpyramid.citations.marker_patterns.named_references`
reads them in every paper cited by numbers.
"""

from __future__ import annotations

import re

from paperpyramid.citations.marker_patterns import NOT_SUPER_WORDS, Marker, numbers_in

__all__ = ["raised_markers"]

#: signs an exponent follows ("10 × 2⁻³" reads "2−3", the "3" raised after the raised minus)
_MATH_BEFORE = frozenset("−+±×=^/<>~∼≈≤≥")
#: a name that ends in a digit is known when printed on its own this often (as
#: :func:`~paperpyramid.citations.marker_patterns.glued_to_names` requires)
_KNOWN_NAME = 2
_WORD_BEFORE = re.compile(r"\S*$")
_LETTERS = re.compile(r"[^\W\d_]+")
#: a float's name before its label ("Table S1¹⁹", "Fig. 2¹²"): the raised number after the label cites
_FLOAT_BEFORE = re.compile(r"\b(?:[Tt]ables?|[Ff]ig(?:ure)?s?\.?)\s$")
#: a name or a code in parentheses before the number, "(MOP)", "(3N7H)": a squared "(x + 1)²" holds a sign
_NAMED_IN_PARENTHESES = re.compile(r"\([A-Za-z\d][\w\-.]+\)$")


def raised_markers(text: str, raised: tuple[tuple[str, str], ...], named: dict[str, int]) -> list[Marker]:
    """The superscript citations of a block's ``text``: its numbers printed raised (``raised``,
    each as the character before it and the number, in the order printed), each found at its own
    place (:func:`_placed`). An exponent is refused: a number after a digit
    ("10⁵"; unless the digit ends a name the paper prints on its own, ``named``, "AaegOBP1³¹", or a
    float's label, "Table S1¹⁹", or it is a list, "AaegOBP39³²˒³³"), after a sign ("s⁻¹"), one number after a single letter ("R²", "°C³")
    or a unit ("cm³"), or one a letter or digit follows (an isotope's "³²P") or a charge's sign ("Mg²⁺")."""
    kept: list[Marker] = []
    for marker in sorted(_placed(text, raised, named), key=lambda item: (item.start, item.start - item.end)):
        if not kept or marker.start >= kept[-1].end:
            kept.append(marker)
    return [marker for marker in kept if _not_exponent(text, marker, named)]


def _placed(text: str, raised: tuple[tuple[str, str], ...], named: dict[str, int]) -> list[Marker]:
    """Each raised number at one place in ``text``, so that the same characters printed on the
    line elsewhere in the block (a raised " 3,4" and a plain " 3,4") are not taken for it too.

    A pair keeps no offset (later passes edit the text), only its order: it is looked for after
    the place of the pair printed before it, at the first match there that reads as a citation
    (an exponent-like twin before it, "REVTEX 4.1" before "distribution.¹", is passed over), or the
    first match where none does. Where the text's order is not the print's (no match after the
    pair before), the first match not yet taken stands in."""
    placed: list[Marker] = []
    cursor = 0
    for before, number in raised:
        numbers = numbers_in(re.sub(r"[\s)]", "", number))
        if not before or before in _MATH_BEFORE or numbers is None:
            continue
        printed = r"\s?".join(re.escape(part) for part in number.split())
        pattern = re.compile(re.escape(before) + printed + r"(?![\w+−])")
        after = [Marker(match.start() + len(before), match.end(), numbers=list(numbers)) for match in pattern.finditer(text, cursor)]
        if after:
            marker = _citing_first(text, after, named)
            cursor = marker.end
        else:
            anywhere = (Marker(match.start() + len(before), match.end(), numbers=list(numbers)) for match in pattern.finditer(text))
            free = [item for item in anywhere if not any(other.start < item.end and item.start < other.end for other in placed)]
            if not free:
                continue
            marker = _citing_first(text, free, named)
        placed.append(marker)
    return placed


def _citing_first(text: str, found: list[Marker], named: dict[str, int]) -> Marker:
    """The first of a raised number's places that reads as a citation, or the first of them."""
    return next((item for item in found if _not_exponent(text, item, named)), found[0])


def _not_exponent(text: str, marker: Marker, named: dict[str, int]) -> bool:
    """Whether a raised number reads as a citation by what it follows (see :func:`raised_markers`)."""
    word = _WORD_BEFORE.search(text, 0, marker.start)
    before = word.group() if word else ""
    if len(marker.numbers) > 1 or _NAMED_IN_PARENTHESES.search(before):
        return True  # a list or a range ("°C3,4,15", "DR10–13", "AaegOBP3932,33") is no exponent, nor is a name's ("(3N7H)18")
    if before[-1:].isdigit():
        return named.get(before, 0) >= _KNOWN_NAME or _FLOAT_BEFORE.search(text, 0, marker.start - len(before)) is not None
    letters = _LETTERS.findall(before)
    last = letters[-1] if letters else ""
    return len(last) > 1 and last.lower() not in NOT_SUPER_WORDS
