"""A numbered reference list of one entry (issue 32: genefilter's note cites its one paper once,
"[1]"): its bracketed number is linked, though a style needs more markers; a longer list needs two
markers naming two entries, and a list that prints no number is left alone."""

from __future__ import annotations

from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Block, Document, Section
from paperpyramid.parsers.embedded.references import parse_reference

_ENTRIES = [
    "Bourgon R, Gentleman R, Huber W. Independent filtering increases detection power. PNAS. 2010;107:9546-9551.",
    "Anders S, Huber W. Differential expression analysis for sequence count data. Genome Biol. 2010;11:R106.",
]


def _document(text: str, entries: list[str], *, numbered: bool = True) -> Document:
    references = [parse_reference(raw) for raw in entries]
    if numbered:  # the embedded parser keeps a printed label as the entry's key
        for number, reference in enumerate(references, 1):
            reference.key = str(number)
    return Document(
        sections=[
            Section("Introduction", number="1", blocks=[Block(text, page=1)]),
            Section("References", number="ref", blocks=[Block(raw, page=2, kind="list_item") for raw in entries]),
        ],
        references=references,
    )


def _cited(document: Document) -> list[tuple[str, list[str]]]:
    block = document.sections[0].blocks[0]
    return [(block.text[cite.start : cite.end], cite.keys) for cite in block.cites]


def test_a_one_entry_list_cited_once_is_linked() -> None:
    document = _document("These plots supplement the paper on independent filtering [1].", _ENTRIES[:1])
    counts = link_markers(document)
    assert counts.style == "numeric"
    assert _cited(document) == [("[1]", ["1"])]


def test_a_longer_list_keeps_the_bound() -> None:
    """One bracketed number beside a longer list could be anything; two markers naming two
    entries are linked (see test_citations_glued_digits)."""
    both = _document("Filtering [2] is used.", _ENTRIES)
    assert link_markers(both).style == "none"
    assert _cited(both) == []


def test_a_number_beyond_the_lone_entry_is_not_linked() -> None:
    document = _document("As in [2], the filter is applied.", _ENTRIES[:1])
    assert link_markers(document).style == "none"
    assert _cited(document) == []


def test_a_short_list_without_printed_numbers_is_left_alone() -> None:
    document = _document("These plots supplement the paper on independent filtering [1].", _ENTRIES[:1], numbered=False)
    assert link_markers(document).style == "none"
    assert _cited(document) == []
