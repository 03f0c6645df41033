"""The citation scorer pairs a parsed reference list with the JATS gold's entry for entry: by DOI,
by first author, year and title when the gold gives fields alone (Hindawi's ``<element-citation>``:
no punctuation, journal names abbreviated), by the number when both lists are numbered alike; and
never two different works (same author and year with another title, another DOI, "2020a" for
"2020b")."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Block, Cite, Document, Reference, Section
from paperpyramid.eval.citations import load_jats_citations, score_citations
from paperpyramid.eval.reference_pairs import gold_entries, pair_references


def _element(surnames: str, title: str, source: str, year: str, *, label: str = "", doi: str = "") -> str:
    names = "".join(f"<name><surname>{name}</surname><given-names>A. B.</given-names></name>" for name in surnames.split())
    return (
        (f"<label>{label}</label>" if label else "")
        + '<element-citation publication-type="journal"><person-group person-group-type="author">'
        + f"{names}</person-group><article-title>{title}</article-title><source><italic>{source}</italic></source>"
        + f"<year>{year}</year><volume>12</volume><fpage>1</fpage><lpage>9</lpage>"
        + (f'<pub-id pub-id-type="doi">{doi}</pub-id>' if doi else "")
        + "</element-citation>"
    )


def _gold(*refs: str) -> ET.Element:
    listed = "".join(f'<ref id="R{number}">{ref}</ref>' for number, ref in enumerate(refs, 1))
    return ET.fromstring(f"<article><back><ref-list>{listed}</ref-list></back></article>")


def _pairs(gold: ET.Element, *raws: str) -> dict[str, str]:
    return pair_references([Reference(raw=raw, key=str(number)) for number, raw in enumerate(raws, 1)], gold_entries(gold))


_LOHMANN = _element(
    "Lohmann Haid Stöckle Raschke",
    "Epidemiologie und Perspektiven der Alterstraumatologie",
    "Unfallchirurg",
    "2007",
    doi="10.1007/s00113-007-1286-7",
)
_LOHMANN_PRINTED = (
    "R. Lohmann, K. Haid, U. Stöckle, and M. Raschke, “Epidemiologie und perspektiven der alterstraumatologie,” "
    "Der Unfallchirurg, vol. 110, no. 6, pp. 553–562, 2007."
)


def test_fields_alone_with_an_abbreviated_journal_pair_by_author_year_and_title() -> None:
    saleh = _element("Saleh Sherman Katkin", "Total knee arthroplasty after fracture of the tibial plateau", "J Bone Joint Surg Am", "2001")
    printed = (
        "K. J. Saleh, P. Sherman, P. Katkin et al., “Total knee arthroplasty after fracture of the tibial plateau,” "
        "The Journal of Bone and Joint Surgery. American Volume, vol. 83, no. 8, pp. 1144–1148, 2001."
    )
    assert _pairs(_gold(_LOHMANN.replace("<pub-id", "<x").replace("</pub-id>", "</x>"), saleh), _LOHMANN_PRINTED, printed) == {
        "1": "R1",
        "2": "R2",
    }


def test_the_same_doi_pairs_whatever_else_is_printed() -> None:
    terse = "Lohmann R et al. Unfallchirurg. https://doi.org/10.1007/S00113-007-1286-7."
    assert _pairs(_gold(_LOHMANN), terse) == {"1": "R1"}


def test_another_doi_never_pairs_even_with_the_same_text() -> None:
    erratum = _LOHMANN_PRINTED + " doi:10.1007/s00113-007-9999-1"
    assert _pairs(_gold(_LOHMANN), erratum) == {}


def test_same_first_author_and_year_with_another_title_stays_unpaired() -> None:
    gold = _gold(_element("Smith Jones", "More soil cores", "Soil Res", "2020"))
    other_work = "J. Smith and K. Jones, “Soil cores and what they hold,” Soil Res., vol. 4, pp. 22–30, 2020."
    assert _pairs(gold, other_work) == {}


def test_another_year_letter_stays_unpaired() -> None:
    gold = _gold("<mixed-citation>Lee, A. (2020b) Soil cores and what they hold. Soil Res. 5, 1-8.</mixed-citation>")
    assert _pairs(gold, "Lee, A. (2020a) Soil cores and what they hold. Soil Res. 4, 22-30.") == {}
    assert _pairs(gold, "Lee, A. (2020b) Soil cores and what they hold. Soil Res. 5, 1-8.") == {"1": "R1"}


def test_numbers_decide_between_twins_and_keep_a_split_entry_with_its_head() -> None:
    works = [
        ("Dai Gubler", "Improved capsule endoscopy after bowel preparation", "2005"),
        ("Ladas Spada", "European recommendations on clinical use of video capsule endoscopy to investigate small bowel diseases", "2010"),
        ("Rokkas Ladas", "Purgative preparation and the diagnostic yield of capsule endoscopy", "2009"),
        ("Dai Gubler", "Improved capsule endoscopy after bowel preparation", "2005"),
    ]
    gold = _gold(*(_element(names, title, "Gastrointest Endosc", year, label=str(n)) for n, (names, title, year) in enumerate(works, 1)))
    printed = {
        "1": "N. Dai, C. Gubler, “Improved capsule endoscopy after bowel preparation,” Gastrointestinal Endoscopy, vol. 12, pp. 1–9, 2005.",
        "2": "S. D. Ladas, C. Spada, “European recommendations",
        "2010": "on clinical use of video capsule endoscopy to investigate small bowel diseases,” Gastrointestinal Endoscopy, 2010.",
        "3": "T. Rokkas, S. D. Ladas, “Purgative preparation and the diagnostic yield of capsule endoscopy,” Gastrointest. Endosc., 2009.",
        "4": "N. Dai, C. Gubler, “Improved capsule endoscopy after bowel preparation,” Gastrointestinal Endoscopy, vol. 12, pp. 1–9, 2005.",
    }
    pairs = pair_references([Reference(raw=raw, key=key) for key, raw in printed.items()], gold_entries(gold))
    assert pairs == {"1": "R1", "2": "R2", "3": "R3", "4": "R4"}


_JATS = """<article><body><sec><p>Fractures in the elderly are frequent <xref ref-type="bibr" rid="B1">1</xref>.</p>
<p>Arthroplasty after plateau fractures works well <xref ref-type="bibr" rid="B2">2</xref>.</p></sec></body>
<back><ref-list><ref id="B1"><label>1</label>{one}</ref><ref id="B2"><label>2</label>{two}</ref></ref-list></back></article>"""


def test_a_hindawi_style_gold_scores_citations_to_its_entries(tmp_path: Path) -> None:
    two = _element("Saleh Sherman Katkin", "Total knee arthroplasty after fracture of the tibial plateau", "J Bone Joint Surg", "2001")
    path = tmp_path / "paper.nxml"
    path.write_text(_JATS.format(one=_LOHMANN.replace("<pub-id", "<x").replace("</pub-id>", "</x>"), two=two), encoding="utf-8")
    blocks = [
        Block("Fractures in the elderly are frequent [1].", 1, cites=[Cite(38, 41, ["1"])]),
        Block("Arthroplasty after plateau fractures works well [2].", 1, cites=[Cite(48, 51, ["2"])]),
    ]
    references = [
        Reference(raw=_LOHMANN_PRINTED, key="1"),
        Reference(
            raw="K. J. Saleh, P. Sherman, P. Katkin, “Total knee arthroplasty after fracture of the tibial plateau,” "
            "The Journal of Bone and Joint Surgery, vol. 83, no. 8, pp. 1144–1148, 2001.",
            key="2",
        ),
    ]
    document = Document(title="t", sections=[Section("Results", blocks=blocks)], references=references)
    score = score_citations(document, load_jats_citations(path))
    assert (score.paired_references, score.gold, score.correct, score.predicted) == (2, 2, 2, 2)


@pytest.mark.slow
@pytest.mark.parametrize(
    "paper", ["biomedresint-2016-tibia-arthroplasty", "grp-2016-gastric-mucinous-cancer", "3biotech-2014-ocimum-rapd-issr"]
)
def test_real_entries_pair_each_with_its_own(pmc_pairs: Path, paper: str) -> None:
    """Development papers of ../shared/pmc-pairs: every parsed entry pairs with a gold entry of
    its own number (numbered lists), or of its first author and year (author-year lists)."""
    from paperpyramid.parsers import get_parser

    document = get_parser("embedded")(pmc_pairs / f"{paper}.pdf")
    link_markers(document)
    gold = load_jats_citations(pmc_pairs / f"{paper}.nxml")
    pairs = pair_references(document.references, gold.entries)
    assert len(pairs) == len(gold.entries)
    raw = {reference.key: reference.raw for reference in document.references}
    for key, ref_id in pairs.items():
        entry = gold.entries[ref_id]
        if entry.label is not None:
            assert key == entry.label, (key, ref_id)
        else:
            assert str(entry.year) in raw[key] and entry.text.split()[0].rstrip(",") in raw[key], (raw[key], entry.text)
