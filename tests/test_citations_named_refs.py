"""Works a sentence names by number, as Nature's journals and many biomedical ones print them on
the line beside their superscripts: "ref. 12", "refs 3,4", "refs. 5–7", "(ref. 12)", "see refs 3
and 8" (issue 32, item 5). They were linked only as "Ref. 3)" / "Refs. 1, 3–5" (capital, point) in a
paper read by the text's rules, and never where the parser saw raised type, nor with "and"
(batch 1's revtex guide prints "Refs. 1 and 4"). "ref." in other senses, with no number after it
("Ref. Seq.", a "ref. genome"), or glued into a name ("REF1", "Ref-1"), is none."""

from __future__ import annotations

from paperpyramid.citations.marker_patterns import named_references
from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Block, Document
from tests.citation_fixtures import one_paragraph


def _found(text: str) -> list[tuple[str, list[int]]]:
    return [(text[marker.start : marker.end], marker.numbers) for marker in named_references(text)]


def test_nature_phrasings_name_their_numbers() -> None:
    text = (
        "as reviewed in ref. 12, and earlier (refs 3,4); the model of refs. 5–7 and see refs 3 and 8; "
        "Refs 2, 9 and 11 agree, as Ref. 10 does."
    )
    assert _found(text) == [
        ("12", [12]),
        ("3,4", [3, 4]),
        ("5–7", [5, 6, 7]),
        ("3 and 8", [3, 8]),
        ("2, 9 and 11", [2, 9, 11]),
        ("10", [10]),
    ]


def test_one_reader_for_every_spelling() -> None:
    """ "Ref."/"Refs." with a point and capital, as Japanese physics journals close them ("Ref. 3)",
    "Refs. 1), 3)–5)"), ranges spelt out; a parenthesis the sentence opened is the sentence's."""
    text = "gives Ref. 3). A textual citation (Refs. 2–4) and Ref. 8. Refs. 1), 3)–5) and (refs 6, 7) and Refs. 3-5."
    assert _found(text) == [
        ("3)", [3]),
        ("2–4", [2, 3, 4]),
        ("8", [8]),
        ("1), 3)–5)", [1, 3, 4, 5]),
        ("6, 7", [6, 7]),
        ("3-5", [3, 4, 5]),
    ]
    assert _found("see Ref. 12.5 of the manual, refs. 7–3 backwards and ref. 0") == []


def test_ref_in_other_senses_names_nothing() -> None:
    text = (
        "reads mapped to the ref. genome 38 with Ref. Seq. 5 annotations; REF1 3 and APE1/Ref-1 2 "
        "bind; the ref. 2.5 mm marker and a ref 3% threshold"
    )
    assert _found(text) == []


def test_a_range_in_a_percentage_or_unit_is_not_cut_short_to_its_first_number() -> None:
    """ "refs 3–5% of" is a share, not refs 3 to 5: the range is read whole or not at all, never
    backed off to its "3"; a list still ends before a year that follows it."""
    assert _found("the refs 3–5% of the samples and refs 2-4°C warmer") == []
    assert _found("as ref. 12, 2019 data show") == [("12", [12])]


_ENTRIES = [
    "Smith J, Jones K. Growth of seedlings under shade. J Ecol. 2019;12:1-9.",
    "Lee A. Soil cores and what they hold. Soil Res. 2020;4:22-30.",
    "Brown T. Roots in dry sand. Plant Soil. 2018;7:3-8.",
    "Green P. Leaves and light. New Phytol. 2017;5:10-19.",
    "White R. Seeds that wait. Ann Bot. 2016;3:1-4.",
    "Black S. Fungi under trees. Mycologia. 2015;9:2-6.",
    "Gray L. Water in stems. Tree Physiol. 2014;8:5-9.",
    "Stone M. Bark beetles. For Ecol Manag. 2013;2:7-12.",
]


def _document(text: str, raised: tuple[tuple[str, str], ...] | None = None) -> Document:
    return one_paragraph(text, _ENTRIES, raised)


def _cites(document: Document) -> dict[str, list[str]]:
    block = document.sections[0].blocks[0]
    return {block.text[cite.start : cite.end]: cite.keys for cite in block.cites}


def test_a_paper_cited_by_raised_numbers_links_the_works_it_names_on_the_line() -> None:
    text = "Seedlings grow1, roots spread2,3 and leaves turn4; as ref. 5 showed, and refs 6 and 8 confirm, shade slows them7."
    raised = (("w", "1"), ("d", "2,3"), ("n", "4"), ("m", "7"))
    for evidence in (raised, None):  # raised type seen, or read from the text
        document = _document(text, evidence)
        link_markers(document)
        cites = _cites(document)
        assert cites["5"] == ["5"] and cites["6 and 8"] == ["6", "8"]


def test_refs_with_and_link_both_numbers_in_a_paper_read_by_raised_type() -> None:
    """ "Refs. 3 and 8" in a paper cited by superscripts linked 3 alone: the superscript reader
    read "Refs. 3" itself and took the place of the reader of named works."""
    text = "Seedlings grow1, roots spread2 and leaves turn4; Refs. 3 and 8 agree, and Ref. 5 too; shade slows them6,7."
    raised = (("w", "1"), ("d", "2"), ("n", "4"), ("m", "6,7"))
    for evidence in (raised, None):
        document = _document(text, evidence)
        assert link_markers(document).style == "superscript"
        cites = _cites(document)
        assert cites["3 and 8"] == ["3", "8"] and cites["5"] == ["5"] and "3" not in cites


def test_a_paper_cited_by_brackets_links_them_too() -> None:
    document = _document("Seedlings grow [1], roots spread [2, 3] and leaves turn [4]; see refs. 5–7 for shade.")
    link_markers(document)
    assert _cites(document)["5–7"] == ["5", "6", "7"]


def test_named_numbers_never_choose_a_style() -> None:
    """Three "ref." numbers alone do not make a paper cited by numbers: they are read only beside
    markers of a numbered style."""
    document = _document("As ref. 1 says, and ref. 2 and ref. 3 agree, shade slows seedlings.")
    link_markers(document)
    assert _cites(document) == {}


def _with_table(text: str, table: str) -> Document:
    document = _document(text)
    document.sections[0].blocks.append(Block(table, 1, "table"))
    return document


_TABLE = "Table 1: Engines compared.\n\n| Engine | Runs |\n| --- | --- |\n| CET [2] | 12 [1, 3] |\n| others [5, 6] | A[4] |"


def test_a_table_cell_citing_by_brackets_is_linked_in_a_paper_cited_so() -> None:
    """Batch 12's HotOS paper compares works in a table ("CET [21]"); the corpus's review names
    "ramiprilat and others [27]". A cell's numbers after a number (an interquartile range "12 [1, 3]")
    or glued to a name ("A[4]", code) are none."""
    document = _with_table("Seedlings grow [1], roots spread [2, 3] and leaves turn [4].", _TABLE)
    link_markers(document)
    table = document.sections[0].blocks[1]
    assert {table.text[cite.start : cite.end]: cite.keys for cite in table.cites} == {"[2]": ["2"], "[5, 6]": ["5", "6"]}


def test_table_cells_are_not_read_in_a_paper_cited_otherwise() -> None:
    document = _with_table("Seedlings grow1, roots spread2,3 and leaves turn4, shade slows them5.", _TABLE)
    link_markers(document)
    assert document.sections[0].blocks[1].cites == []
