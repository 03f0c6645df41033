"""A word broken at a line end is joined as the paper itself writes it: "sig-" + "nificant" is one
word, "free-" + "living" keeps its hyphen (it was stored as "freeliving")."""

from __future__ import annotations

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded import parse_pdf
from tests.conftest import SAMPLE

LINES = [
    "Fanged frogs are free-living and breed in the forest, where",  # the compound printed whole
    "living frogs are free to roam; a sig-",
    "nificant share of the resource is limited, and the pro-",
    "tein is a protein; resource-",
    "limited settings",
]


def test_vocabulary_leaves_out_the_halves_of_broken_words() -> None:
    vocabulary = blk.Vocabulary.of(LINES)
    assert {"free", "living", "resource", "limited", "protein"} <= vocabulary.words
    assert not {"sig", "nificant", "pro", "tein"} & vocabulary.words  # halves, not words
    assert "free-living" in vocabulary.compounds


def test_the_hyphen_is_kept_only_in_a_compound() -> None:
    vocabulary = blk.Vocabulary.of(LINES)
    assert vocabulary.keeps_hyphen("they are free", "living in the forest")  # printed as a compound
    assert vocabulary.keeps_hyphen("in resource", "limited settings")  # both halves are words
    assert not vocabulary.keeps_hyphen("a sig", "nificant share")  # a syllable
    assert not vocabulary.keeps_hyphen("the pro", "tein is")  # "protein" is printed elsewhere


def test_join_lines_uses_the_documents_vocabulary() -> None:
    token = blk.VOCABULARY.set(blk.Vocabulary.of(LINES))
    try:
        assert blk.join_lines(["frogs are free-", "living and a sig-", "nificant share"]) == "frogs are free-living and a significant share"
    finally:
        blk.VOCABULARY.reset(token)
    # outside a parse there is no vocabulary: every break is joined, as before
    assert blk.join_lines(["free-", "living"]) == "freeliving"


def test_real_papers_keep_their_compounds() -> None:
    frog = parse_pdf(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf")
    text = " ".join(block.text for section in frog.sections for block in section.blocks)
    assert "freeliving" not in text and "free-living" in text
    bmc = parse_pdf(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf")
    text = " ".join(block.text for section in bmc.sections for block in section.blocks)
    assert "resourcelimited" not in text and "resource-limited" in text
