"""In-text citation markers linked to reference entries (issue 21, items 3 and 6).

Unit cases build documents as the embedded parser does (reference entries read by its own
``parse_reference``, labels stripped) and check each marker style and each trap; the end-to-end
cases parse real shared PDFs and score against JATS gold or hand labels, and generated
held-out papers against their known markers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.citation_scoring import run_synthetic
from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Block, Cite, Document, Section
from paperpyramid.eval.citations import (
    evaluate_citations,
    load_labels,
    score_labelled,
)
from paperpyramid.parsers.embedded.references import parse_reference
from tests.citation_fixtures import NUMBERED
from tests.conftest import DATA

_AUTHOR_YEAR = [
    "Chen, L., Rossi, M. and Silva, E. (2018) Shade and seedlings. J. Ecol. 10, 1-9.",
    "Lee, A. (2020a) Soil cores and what they hold. Soil Res. 4, 22-30.",
    "Lee, A. (2020b) More soil cores. Soil Res. 5, 1-8.",
    "Smith, J. and Jones, K. (2019) Growth of seedlings under shade. J. Ecol. 12, 1-9.",
    "Smith, J., Novak, P. and Byrne, D. (2019) Another study of seedlings. Oikos 3, 5-9.",
    "Smith, J. (2020) Seedlings revisited. Oikos 4, 1-4.",
    "van der Berg, T. (2016) Dutch meadows. Grassl. Sci. 2, 9-19.",
]


def _document(paragraphs: list[str], references: list[str], *, kinds: list[str] | None = None) -> Document:
    blocks = [Block(text, page=1, kind=(kinds or ["paragraph"] * len(paragraphs))[index]) for index, text in enumerate(paragraphs)]  # type: ignore[misc]
    listed = [Block(raw, page=2, kind="list_item") for raw in references]
    return Document(
        sections=[Section("Introduction", number="1", blocks=blocks), Section("References", number="ref", blocks=listed)],
        references=[parse_reference(raw) for raw in references],
    )


def _cites(document: Document) -> list[tuple[str, list[str]]]:
    return [
        (block.text[cite.start : cite.end], cite.keys) for section in document.sections for block in section.blocks for cite in block.cites
    ]


# --------------------------------------------------------------------------- numbered


def test_numbered_brackets_single_range_list_and_locator() -> None:
    document = _document(
        ["Shade slows growth [1]. Soil cores were taken as before [3–5], and as in [1, 4, 7–9].",
         "The method of [2, p. 4] was used, and see also [6]."],
        NUMBERED,
    )  # fmt: skip
    counts = link_markers(document)
    assert counts.style == "numeric"
    assert _cites(document) == [
        ("[1]", ["1"]),
        ("[3–5]", ["3", "4", "5"]),
        ("[1, 4, 7–9]", ["1", "4", "7", "8", "9"]),
        ("[2, p. 4]", ["2"]),
        ("[6]", ["6"]),
    ]
    assert [reference.key for reference in document.references] == [str(n) for n in range(1, 10)]
    # the span points at the marker in the block's text
    block = document.sections[0].blocks[0]
    assert block.text[block.cites[0].start : block.cites[0].end] == "[1]"


def test_numbered_traps_are_not_citations() -> None:
    document = _document(
        [
            "Growth was slower in shade [1] and in dry soil [2], as reported before [3].",
            "All scores were scaled to the interval [0, 1] and the window was drawn from [2, 5].",
            "As shown in Fig. 3 and Eq. (2), the values in Table [4] and the range [3, 8] follow; x[3] and f(x)[2] are indices.",
            "In 2019 we sampled 4 sites; see Section 2 and Figure [5].",
            "[1] [2] [3]",
        ],
        NUMBERED,
        kinds=["paragraph", "paragraph", "paragraph", "paragraph", "table"],
    )
    link_markers(document)
    assert _cites(document) == [("[1]", ["1"]), ("[2]", ["2"]), ("[3]", ["3"])]


def test_a_marker_right_after_a_closing_parenthesis_is_a_citation() -> None:
    # PLOS sets "C-reactive protein (CRP)[12,13]" and "(… the placebo group)[1–3,5]" with no
    # space; an index after a call, f(x)[2], stays an index
    document = _document(
        [
            "Markers such as C-reactive protein (CRP)[1,2] fell; f(x)[3] is an index.",
            "Seven arms were pooled (241 in the therapy group and 236 in the placebo group)[1–3,5], as before [4].",
        ],
        NUMBERED,
    )
    link_markers(document)
    assert _cites(document) == [("[1,2]", ["1", "2"]), ("[1–3,5]", ["1", "2", "3", "5"]), ("[4]", ["4"])]


def test_a_number_beyond_the_list_is_not_added() -> None:
    document = _document(["Seen before [1], [2] and [3], but not in [40] or [2, 41]."], NUMBERED)
    link_markers(document)
    assert [text for text, _ in _cites(document)] == ["[1]", "[2]", "[3]"]


def test_split_off_reference_fragment_keeps_later_numbers() -> None:
    # the parser split entry 2's ISBN into an entry of its own; entry 3 is still [3]
    references = [NUMBERED[0], NUMBERED[1], "ISBN 906832148X.", *NUMBERED[2:5]]
    document = _document(["As in [1] and [2], and unlike [3], [4] or [5]."], references)
    link_markers(document)
    by_key = {reference.key: reference.raw for reference in document.references}
    assert by_key["3"].startswith("Okafor")
    assert _cites(document)[2] == ("[3]", ["3"])


# --------------------------------------------------------------------------- author-year


def test_author_year_parenthetical_narrative_and_letters() -> None:
    document = _document(
        [
            "Shade slows growth (Smith and Jones, 2019), and cores hold much (Smith and Jones 2019; Lee 2020a).",
            "Smith et al. (2019) disagreed, as did Chen et al. (2018) and Smith (2019, 2020).",
            "Meadows differ (van der Berg, 2016; Lee, 2020b), and (see Chen et al., 2018, p. 4).",
        ],
        _AUTHOR_YEAR,
    )
    counts = link_markers(document)
    assert counts.style == "author-year"
    keys = {reference.raw[:12]: reference.key for reference in document.references}
    assert keys["Lee, A. (202"] is not None
    assert len({reference.key for reference in document.references}) == len(_AUTHOR_YEAR)  # unique keys
    smith_jones, smith_et_al, smith_2020 = (document.references[i].key for i in (3, 4, 5))
    lee_a, lee_b = document.references[1].key, document.references[2].key
    chen, berg = document.references[0].key, document.references[6].key
    assert _cites(document) == [
        ("(Smith and Jones, 2019)", [smith_jones]),
        ("(Smith and Jones 2019; Lee 2020a)", [smith_jones, lee_a]),
        ("Smith et al. (2019)", [smith_et_al]),
        ("Chen et al. (2018)", [chen]),
        # "Smith (2019, 2020)": 2019 names two Smith entries, so it resolves only 2020
        ("Smith (2019, 2020)", [smith_2020]),
        ("(van der Berg, 2016; Lee, 2020b)", [berg, lee_b]),
        ("(see Chen et al., 2018, p. 4)", [chen]),
    ]
    assert lee_a != lee_b


def test_author_year_traps_are_not_citations() -> None:
    document = _document(
        [
            "Growth was slow (Smith and Jones, 2019), cores were deep (Lee, 2020a) and meadows wet (van der Berg, 2016).",
            "Samples were taken in (2019) and (June 2019), see Figure 3 (2019) and Table 2; (Brown, 2019) is not in the list.",
            "The species was described (Linnaeus, 1758) long ago, and Smith (1999) is not listed either.",
        ],
        _AUTHOR_YEAR,
    )
    link_markers(document)
    assert [text for text, _ in _cites(document)] == ["(Smith and Jones, 2019)", "(Lee, 2020a)", "(van der Berg, 2016)"]


# --------------------------------------------------------------------------- superscripts


def test_superscripts_glued_to_words() -> None:
    document = _document(
        [
            "Shade slows seedling growth1 and soil cores hold much carbon2,3.",
            "Pollinators visit meadows4–6, unlike alder carr7. Voles survive winters.8 Beetles at night9.",
            "The pH7 buffer, CquiOBP1 and BL21 cells were used, with 5 mm2 wells and log2 ratios; Table1 lists them.",
        ],
        NUMBERED,
    )
    counts = link_markers(document)
    assert counts.style == "superscript"
    assert _cites(document) == [
        ("1", ["1"]),
        ("2,3", ["2", "3"]),
        ("4–6", ["4", "5", "6"]),
        ("7", ["7"]),
        ("8", ["8"]),
        ("9", ["9"]),
    ]


def test_glued_digits_out_of_citation_order_are_refused() -> None:
    document = _document(
        ["First growth1, then cores2, meadows3, carr4 and voles5, beetles6; the Alder9 site is a name."],
        NUMBERED,
    )
    link_markers(document)
    assert [keys for _, keys in _cites(document)] == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]]


def test_superscripts_in_an_untitled_introduction_after_the_abstract() -> None:
    """Nature's journals print no "Introduction": the untitled section after the abstract is the
    body; the untitled one before it holds the authors' affiliation marks."""
    document = _document(["Shade slows growth1. Cores hold carbon2,3. Meadows4 and carr5 differ."], NUMBERED)
    introduction = document.sections[0]
    document.sections = [
        Section("", blocks=[Block("Ama Okafor1,2 and Erik Lindqvist3", page=1)]),
        Section("Abstract", blocks=[Block("We studied shade and carbon in six sites.", page=1)]),
        Section("", blocks=introduction.blocks),
        *document.sections[1:],
    ]
    assert link_markers(document).style == "superscript"
    assert _cites(document) == [("1", ["1"]), ("2,3", ["2", "3"]), ("4", ["4"]), ("5", ["5"])]


def test_a_printed_number_finds_its_entry_after_one_cut_in_two() -> None:
    """The embedded parser keeps a numbered entry's printed number as its key: where an entry was
    cut in two by the layout, "[3]" and later markers still find their own entries."""
    from paperpyramid.parsers.embedded.layout import Line
    from paperpyramid.parsers.embedded.references import split_references

    def line(text: str, top: float) -> Line:
        return Line(text=text, page=2, x0=72, top=top, x1=540, bottom=top + 9, size=9, bold=False, italic=False, font="Times")

    texts = ["1. " + NUMBERED[0], "2. " + NUMBERED[1][:30], "3. " + NUMBERED[2], "4. " + NUMBERED[3]]
    references = split_references([line(text, 100 + 12 * index) for index, text in enumerate(texts)])
    references.insert(2, parse_reference(NUMBERED[1][30:]))  # the tail of entry 2, split off as an entry of its own
    document = _document(["Shade slows growth [1], cores hold carbon [3] and meadows differ [4]."], [])
    document.references = references
    link_markers(document)
    assert [keys for _, keys in _cites(document)] == [["1"], ["3"], ["4"]]
    cited = {keys[0]: next(reference.raw for reference in references if reference.key == keys[0]) for _, keys in _cites(document)}
    assert cited["3"].startswith("Okafor C") and cited["4"].startswith("Novak P")


@pytest.mark.parametrize("style", ["{n} ", "{sup}"])
def test_a_list_numbered_without_brackets_or_points(style: str) -> None:
    """ "12 Smith J, …" and a superscript "¹²Smith J, …" number a list too, where the numbers count
    up one by one; a continuation line that opens with a year or a page is no new entry."""
    from paperpyramid.parsers.embedded.layout import Line
    from paperpyramid.parsers.embedded.references import split_references

    superscript = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    texts: list[str] = []
    for number, raw in enumerate(NUMBERED[:6], 1):
        mark = style.format(n=number, sup=str(number).translate(superscript))
        texts += [mark + raw[:40], raw[40:]] if number == 2 else [mark + raw]
    texts.insert(3, "2019 Jan; 12 Suppl")  # a continuation that opens with numbers
    lines = [
        Line(text=t, page=2, x0=72, top=100 + 12 * i, x1=540, bottom=109 + 12 * i, size=9, bold=False, italic=False, font="T")
        for i, t in enumerate(texts)
    ]
    references = split_references(lines)
    assert [reference.key for reference in references] == ["1", "2", "3", "4", "5", "6"]
    assert references[2].raw.startswith("Okafor C") and "Soil cores and what they hold" in references[1].raw


# --------------------------------------------------------------------------- what is left alone


def test_documents_with_cites_or_keys_are_respected() -> None:
    document = _document(["As in [1] and [2] and [3]."], NUMBERED)
    document.sections[0].blocks[0].cites.append(Cite(6, 9, ["b0"]))
    counts = link_markers(document)
    assert counts.skipped == "has cites"
    assert [reference.key for reference in document.references] == [None] * len(NUMBERED)

    keyed = _document(["As in [1] and [2] and [3]."], NUMBERED)
    keyed.references[0].key = "smith-growth"
    link_markers(keyed)
    assert keyed.references[0].key == "smith-growth"
    assert _cites(keyed)[0] == ("[1]", ["smith-growth"])


def test_no_references_or_too_few_markers_adds_nothing() -> None:
    assert link_markers(Document(sections=[Section("Intro", blocks=[Block("As in [1].", page=1)])])).skipped == "no references"
    sparse = _document(["Only one bracket [1] here."], NUMBERED)
    assert link_markers(sparse).style == "none"
    assert _cites(sparse) == []


# --------------------------------------------------------------------------- measured


def test_generated_held_out_papers() -> None:
    scores = run_synthetic("heldout", 2)
    assert {score.split for score in scores} == {"heldout"}
    for style, least in (("numeric", 0.9), ("author_year", 0.9), ("superscript", 0.6)):
        chosen = [score for score in scores if score.style == style]
        gold, predicted, correct = (sum(getattr(score, name) for score in chosen) for name in ("gold", "predicted", "correct"))
        assert gold > 20
        assert correct / predicted >= least, style
        assert correct / gold >= least, style


@pytest.mark.slow
def test_real_pdf_against_jats_gold(shared_corpus: Path) -> None:
    (score,) = evaluate_citations(shared_corpus, papers=["plos-one-2014-fanged-frog-internal-fertilization.pdf"])
    assert score.style == "numeric"
    assert score.gold > 30
    assert score.precision is not None and score.precision >= 0.9
    assert score.recall is not None and score.recall >= 0.85


@pytest.mark.slow
def test_hand_labelled_pages(shared_corpus: Path) -> None:
    from paperpyramid.parsers import get_parser

    parse = get_parser("embedded")
    gold = predicted = correct = 0
    for paper in load_labels(DATA / "citations" / "labelled_markers.json"):
        document = parse(shared_corpus / paper["pdf"])
        link_markers(document)
        score = score_labelled(document, paper)
        gold, predicted, correct = gold + score.gold, predicted + score.predicted, correct + score.correct
    assert gold == 30
    assert correct / predicted >= 0.9
    assert correct / gold >= 0.85
