"""The XML parsers' marked text reads as the plain way does: whitespace collapsed only where it
needs to be, and the markers' offsets found through the collapse in one split of the text."""

from __future__ import annotations

import random

from paperpyramid.parsers.xml_cites import MarkedText, _collapsed_at, collapse

# every character str.split() cuts at, and some that look like spaces but are not
WHITESPACE = list("\t\n\x0b\x0c\r\x1c\x1f \x85\xa0\u1680\u2000\u2009\u2028\u202f\u3000")
NOT_WHITESPACE = ["a", "bc", ".", "(", "\u200b", "\xad", "\ufeff", "é", "𝜒"]


def random_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(WHITESPACE + NOT_WHITESPACE + [" ", " ", "  "]) for _ in range(length))


def test_collapse_is_split_and_join_for_every_kind_of_whitespace() -> None:
    rng = random.Random(43)
    for _ in range(20_000):
        text = random_text(rng, rng.randrange(12))
        assert collapse(text) == " ".join(text.split()), repr(text)


def offset_in_collapsed(raw: str, offset: int) -> int:
    """What the collapsed text holds of ``raw[:offset]``, the space after it included when a word follows."""
    before = raw[:offset]
    space_then_word = bool(before.strip()) and before[-1].isspace() and bool(raw[offset:].strip())
    return len(" ".join(before.split())) + space_then_word


def test_offsets_through_the_collapse_are_those_of_the_definition() -> None:
    rng = random.Random(34)
    for _ in range(20_000):
        raw = random_text(rng, rng.randrange(10))
        offsets = [rng.randrange(len(raw) + 1) for _ in range(rng.randrange(1, 6))]
        text, found = _collapsed_at(raw, offsets)
        assert text == " ".join(raw.split()), repr(raw)
        if text:
            assert found == {offset: offset_in_collapsed(raw, offset) for offset in offsets}, (repr(raw), offsets)


def test_a_text_holding_a_nul_still_finds_its_offsets() -> None:
    raw = "a\x00 [1] \x00b"
    text, found = _collapsed_at(raw, [3, 6])
    assert (text, found) == ("a\x00 [1] \x00b", {3: 3, 6: 6})
    marked = MarkedText()
    marked.append("see\n  ")
    start = marked.position
    marked.append("[ 2 ]")
    marked.mark(start, ["B2"])
    marked.append("  .")
    text, cites = marked.finish()
    assert text == "see [ 2 ] ." and [(cite.start, cite.end) for cite in cites] == [(4, 9)]
