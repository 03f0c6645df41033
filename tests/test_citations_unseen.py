"""Author-year citations and reference lists as publishers nobody tuned for print them.

- A parenthetical citation printed without its parentheses ("parameters from Loefer & Sedberry,
  2003 (R. terraenovae)"), inside a group of the sentence's own ("(see Ulrich et al., 2007 for
  …)"), or in brackets inside parentheses ("(previously 9+ years [Loefer & Sedberry, 2003])").
- A reference list in small type whose lines change weight from one to the next: every line stays
  in its entry (none set aside as small print), and the publisher's link lines ("Publisher Full
  Text", "Reference Source") end an entry, never open the next (F1000Research's
  layout in ``../shared/corpus``, scored against its JATS).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.citations.marker_patterns import author_year
from paperpyramid.citations.markers import link_markers
from paperpyramid.eval.citations import load_jats_citations, score_citations
from paperpyramid.parsers.embedded.parser import parse_pdf

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
SHARK = CORPUS / "f1000research-2015-sharpnose-shark-longevity.pdf"
needs_corpus = pytest.mark.skipif(not SHARK.is_file(), reason="../shared/corpus is not here (real F1000Research article, not distributed)")


def _cited(text: str) -> list[tuple[str, tuple[str, ...], int]]:
    return [(text[marker.start : marker.end], item.names, item.year) for marker in author_year(text) for item in marker.items]


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        (
            "Species-specific parameters from Loefer & Sedberry, 2003 (R. terraenovae) were used.",
            [("Loefer & Sedberry, 2003", ("Loefer", "Sedberry"), 2003)],
        ),
        (
            "Sharks were tagged (see Ulrich et al., 2007 for longline protocols) in every month.",
            [("Ulrich et al., 2007", ("Ulrich",), 2007)],
        ),
        (
            "Longevity increased by 9.5 years (previously 9+ years [Loefer & Sedberry, 2003]), and more.",
            [("[Loefer & Sedberry, 2003]", ("Loefer", "Sedberry"), 2003)],
        ),
        ("Age in years (e.g. Loefer & Sedberry, 2003; Driggers et al., 2004).", [
            ("(e.g. Loefer & Sedberry, 2003; Driggers et al., 2004)", ("Loefer", "Sedberry"), 2003),
            ("(e.g. Loefer & Sedberry, 2003; Driggers et al., 2004)", ("Driggers",), 2004),
        ]),
    ],
)  # fmt: skip
def test_author_year_markers_without_their_own_parentheses(text: str, cited: list[tuple[str, tuple[str, ...], int]]) -> None:
    assert _cited(text) == cited


@pytest.mark.parametrize(
    "text", ["In June, 2003 the river ran dry.", "Windows 2000 and Version 3, 2019 were used.", "At 20 C, 2003 samples."]
)
def test_a_name_and_a_year_that_cite_nothing_are_no_marker(text: str) -> None:
    assert author_year(text) == []


@pytest.fixture(scope="module")
def shark() -> object:
    return parse_pdf(SHARK)


@needs_corpus
def test_real_small_print_reference_list_keeps_every_line(shark: object) -> None:
    references = shark.references  # type: ignore[attr-defined]
    assert len(references) == 16
    assert not [ref.raw for ref in references if ref.raw.startswith(("Publisher Full Text", "Reference Source"))]
    (carlson,) = [ref for ref in references if ref.raw.startswith("Carlson JK, Baremore IE")]
    assert "Gulf of Mexico: evidence for density-dependent growth and maturity? Mar Freshwater Res. 2003; 54(3): 227–234." in carlson.raw
    assert carlson.year == 2003


@needs_corpus
def test_real_author_year_citations_are_linked(shark: object) -> None:
    link_markers(shark)  # type: ignore[arg-type]
    score = score_citations(shark, load_jats_citations(SHARK.with_suffix(".nxml")))  # type: ignore[arg-type]
    assert score.precision is not None and score.precision >= 0.95
    assert score.recall is not None and score.recall >= 0.9
