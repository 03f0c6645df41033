"""An author-year reference list whose second half follows other back matter.

F1000Research sets its back matter around the reference list: the list starts at the foot of
one column, the acknowledgements open the next, and the list goes on below them. The entries
after the acknowledgements belong to the list, not to the acknowledgements; without them, every
citation of those entries has nothing to link to.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.citations.markers import link_markers
from paperpyramid.eval.citations import load_jats_citations, score_citations
from paperpyramid.parsers.embedded.parser import parse_pdf

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PAPER = "f1000research-2015-sharpnose-shark-longevity"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")
def test_the_list_resumes_after_the_acknowledgements() -> None:
    document = parse_pdf(CORPUS / f"{PAPER}.pdf")
    firsts = [reference.raw.split(",")[0] for reference in document.references]
    # the gold lists 16 entries: 8 before the acknowledgements, 8 after them
    assert len(document.references) == 16
    assert "Bishop SDH" in firsts
    assert {"Francis MP", "Frazier BS", "Kalish J", "Kohler NE", "Loefer JK", "Ulrich GF", "Xiao Y"} <= set(firsts)
    acknowledgements = next(section for section in document.sections if section.title == "Acknowledgements")
    assert not any(block.text.startswith(("Francis MP", "Xiao Y")) for block in acknowledgements.blocks)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")
def test_citations_of_the_second_half_are_linked() -> None:
    document = parse_pdf(CORPUS / f"{PAPER}.pdf")
    link_markers(document)
    score = score_citations(document, load_jats_citations(CORPUS / f"{PAPER}.nxml"))
    assert score.paired_references == 16  # 8 with the list cut at the acknowledgements
    # 4 of the gold's 24 (sentence, entry) pairs with the list cut, 9 with it whole; the rest
    # cite entries whose year is on a line the parser reads elsewhere
    assert score.correct >= 0.35 * score.gold
    assert score.correct >= 0.9 * score.predicted
