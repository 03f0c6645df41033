"""Superscript citations glued to a short word or a chemical formula, when they list entries.

The embedded parser renders a superscript citation glued to the word before it. A single number
after a short word or a word with capitals inside ("BL21", "pH7") is a name's part, not a citation;
a list of two or more ("so on23–25", "Sn11–17") names no strain or unit, so it cites. An acronym
in capitals keeps its numbers even when they are listed ("TLR2,4" is TLR2 and TLR4).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.citations.marker_patterns import superscripts
from paperpyramid.citations.markers import link_markers
from paperpyramid.parsers.embedded.parser import parse_pdf

PAIRS = Path(__file__).resolve().parents[2] / "shared" / "pmc-pairs"


def _cited(text: str) -> list[tuple[str, list[int]]]:
    return [(text[marker.start : marker.end], marker.numbers or []) for marker in superscripts(text)]


def test_a_listed_superscript_after_a_short_word_cites() -> None:
    assert _cited("factors of the medium and so on23–25. So") == [("23–25", [23, 24, 25])]
    assert _cited("in the order Zn>Fe>Sn11–17. Magnesium") == [("11–17", list(range(11, 18)))]


def test_a_single_number_or_an_acronym_in_capitals_keeps_its_number() -> None:
    assert _cited("the strain was grown on21 plates") == []
    assert _cited("both TLR2,4 were expressed") == []
    assert _cited("the CD4,8 ratio fell") == []


@pytest.mark.skipif(not PAIRS.is_dir(), reason="../shared/pmc-pairs is not here (real PMC articles, not distributed)")
def test_real_listed_superscripts_are_linked() -> None:
    document = parse_pdf(PAIRS / "scirep-2018-biogenic-nanoparticles-bioprocess.pdf")
    link_markers(document)
    linked = {
        block.text[cite.start - 6 : cite.end]: cite.keys
        for section in document.sections
        for block in section.blocks
        for cite in block.cites
    }
    assert linked.get(">Mo>Sn11–17") == [str(number) for number in range(11, 18)]
