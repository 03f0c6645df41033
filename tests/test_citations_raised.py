"""Superscript citations read from what the PDF prints raised (issue 32, item 5).

Nature-family and many biomedical journals cite by superscript numbers, which the embedded
parser's text glues to the word before ("DEET18", "DR10–13", "°C3,4,15"). The text alone cannot
tell such a citation from a name or a unit ("BL21", "cm3"), and refused the ones whose word has
capitals (Scientific Reports' "biogenic nanoparticles" paper lost 23 true pairs so). The parser
now records the numbers each line prints raised (:func:`~paperpyramid.parsers.embedded.char_runs.raised_numbers`),
every body block carries them (:attr:`paperpyramid.document.Block.raised`), and the linker reads a
glued number as a citation where it was printed raised and refuses one printed on the line, in a
paper where the parser saw raised type; exponents (raised too) are refused by what they follow.
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.citations.markers import link_markers
from paperpyramid.citations.raised import raised_markers
from paperpyramid.document import Block, Document, Section
from paperpyramid.parsers.embedded.char_runs import raised_numbers
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.references import parse_reference
from tests.pdf_maker import helvetica_page

#: (text, font size, rise) pieces of one printed line, drawn one after another
Piece = tuple[str, float, float]

_ENTRIES = [
    "Smith J, Jones K. Growth of seedlings under shade. J Ecol. 2019;12:1-9.",
    "Lee A. Soil cores and what they hold. Soil Res. 2020;4:22-30.",
    "Okafor C, Chen L, Rossi M. Pollinator visits in meadows. Oecologia. 2015;7:100-110.",
    "Novak P. Alder carr hydrology. Wetlands. 2011;3:5-15.",
    "Tanaka K, Silva E. Counting beetles at night. Insect Sci. 2008;9:40-48.",
    "Byrne D. A field guide to moss. Bryologist. 2001;2:1-200.",
    "Iyer R, Moreau A. Leaf litter decay rates. Ecosystems. 2017;5:60-70.",
    "Haddad H. Mapping hedgerows from the air. Remote Sens. 2012;8:11-19.",
    "Lindqvist S. Winter survival of voles. Mammal Rev. 2005;1:3-9.",
    "Moreau A. Hedgerow birds in winter. Ibis. 2003;6:1-12.",
    "Costa F. Moth counts under street lights. J Insect Conserv. 2016;3:2-9.",
    "Walsh P. Bog moss growth rates. Mires Peat. 2010;5:1-7.",
]


def _up(text: str) -> Piece:
    return (text, 7, 4)


def _on(text: str) -> Piece:
    return (text, 10, 0)


#: a body whose superscripts a word in capitals or a unit carries ("DEET1", "°C4"), with an
#: exponent ("cm3", raised) and numbers glued to words but printed on the line ("shown12", "BL21")
_BODY: list[list[Piece]] = [
    [_on("Mosquitoes avoid the repellent DEET"), _up("1"), _on(" and the pyrethroids"), _up("2,3"), _on(" in the field.")],
    [_on("Trials in Kenya at 30 "), _on("\xb0C"), _up("4,5"), _on(" confirmed it, as later work did"), _up("5-7"), _on(".")],
    [_on("A volume of 2 cm"), _up("3"), _on(" was used for each of the assays run in the trials.")],
    [_on("Earlier reports"), _up("8"), _on(" agree with the isolate shown12 and the strain BL21.")],
    [_on("The traps of the survey"), _up("9-12"), _on(" were set at dusk and read at dawn.")],
]


def _paper_pdf() -> bytes:
    """A title, an introduction in Helvetica with raised pieces (7 points, 4 points up), and a
    numbered reference list."""
    ops, y = ["BT /F1 16 Tf 72 740 Td (Repellents and the mosquitoes that ignore them) Tj ET"], 700.0
    ops.append(f"BT /F1 13 Tf 72 {y:.2f} Td (Introduction) Tj ET")
    y -= 20
    for pieces in _BODY:
        drawn = " ".join(f"/F1 {size:g} Tf {rise:g} Ts ({text}) Tj" for text, size, rise in pieces)
        ops.append(f"BT 72 {y:.2f} Td {drawn} ET")
        y -= 13
    y -= 12
    ops.append(f"BT /F1 13 Tf 72 {y:.2f} Td (References) Tj ET")
    y -= 18
    for number, entry in enumerate(_ENTRIES, 1):
        ops.append(f"BT /F1 9 Tf 72 {y:.2f} Td ({number}. {entry}) Tj ET")
        y -= 11
    return helvetica_page(ops)


def _cites(document: Document) -> dict[str, list[str]]:
    """Each citation's keys by the word it is glued to, with its marker ("DEET1")."""
    return {
        block.text[: cite.end].rsplit(" ", 1)[-1]: cite.keys
        for section in document.sections
        for block in section.blocks
        for cite in block.cites
    }


def test_a_pdfs_raised_numbers_are_its_superscript_citations(tmp_path: Path) -> None:
    path = tmp_path / "raised.pdf"
    path.write_bytes(_paper_pdf())
    document = parse_pdf(path)
    assert len(document.references) == len(_ENTRIES)
    body = next(block for section in document.sections for block in section.blocks if "DEET" in block.text)
    assert ("T", "1") in (body.raised or ())
    counts = link_markers(document)
    assert counts.style == "superscript"
    cites = _cites(document)
    assert cites == {
        "DEET1": ["1"],  # capitals in the word: the text alone refused it
        "pyrethroids2,3": ["2", "3"],
        "\xb0C4,5": ["4", "5"],  # a list: no exponent, though one letter carries it
        "did5-7": ["5", "6", "7"],
        "reports8": ["8"],
        "survey9-12": ["9", "10", "11", "12"],
    }  # not "shown12" nor "BL21" (printed on the line), nor "cm3" (an exponent)


def test_raised_numbers_of_a_run_keep_the_character_before() -> None:
    chars = list("DEET18 and 2 cm3, shown.2, 3)")
    raised_at = [4, 5, 15, 24, 25, 27, 28]
    assert raised_numbers(chars, raised_at) == (("T", "18"), ("m", "3"), (".", "2, 3)"))
    assert raised_numbers(list("x , y"), [2]) == ()  # a raised comma alone is no number


def test_the_linker_takes_raised_numbers_and_refuses_exponents() -> None:
    text = "repelled by DEET18 and DR10–13 at 24hr9,39 and 30 °C3,4,15; 5 × 105 cells in 2 cm3 (R2 = 0.9, s−1), Mg2+ (3N7H)20"
    raised = (("T", "18"), ("R", "10–13"), ("r", "9,39"), ("C", "3,4,15"), ("0", "5"), ("m", "3"), ("R", "2"), ("−", "1"), ("g", "2"))
    found = [text[marker.start : marker.end] for marker in raised_markers(text, (*raised, (")", "20")), {})]
    assert found == ["18", "10–13", "9,39", "3,4,15", "20"]


def test_a_number_glued_to_a_known_name_or_a_floats_label_is_a_citation_where_raised() -> None:
    text = "the protein AaegOBP131 and the exponent 1011 differ, as in Table S119 and Fig. 212."
    found = raised_markers(text, (("1", "31"), ("1", "11"), ("1", "19"), ("2", "12")), {"AaegOBP1": 3})
    assert [(text[m.start : m.end], m.numbers) for m in found] == [("31", [31]), ("19", [19]), ("12", [12])]


def _document(raised: tuple[tuple[str, str], ...] | None) -> Document:
    entries = [parse_reference(f"{number}. {raw}") for number, raw in enumerate(_ENTRIES, 1)]
    for number, entry in enumerate(entries, 1):
        entry.key = str(number)
    text = "Repelled by DEET1 and by pyrethroids2,3, as shown4 and in the field5–7; the isolate shown9 grew8."
    body = Section("Introduction", number="1", blocks=[Block(text, 1, raised=raised)])
    listed = Section("References", number="ref", blocks=[Block(entry.raw, 2, "list_item") for entry in entries])
    return Document(sections=[body, listed], references=entries)


def test_a_block_with_raised_evidence_is_read_by_it_and_one_without_by_its_text() -> None:
    raised = (("T", "1"), ("s", "2,3"), ("n", "4"), ("d", "5–7"), ("w", "8"))
    seen = _document(raised)
    link_markers(seen)
    assert list(_cites(seen)) == ["DEET1", "pyrethroids2,3", "shown4", "field5–7", "grew8"]
    unseen = _document(None)  # OCR text, another parser: the text's rules, as before
    link_markers(unseen)
    assert list(_cites(unseen)) == ["pyrethroids2,3", "shown4", "field5–7", "shown9", "grew8"]


def test_a_raised_number_cited_out_of_turn_is_kept() -> None:
    """The corpus's mosquito paper cites "Cx. quinquefasciatus³⁷" in an introduction that has cited
    up to 33: printed raised, it is a citation, where a number glued in the text that far ahead
    is taken for a name's digit."""
    text = "Repelled by DEET1 and by pyrethroids2,3, as shown4 and in the field5–7; eggs of Cx. pipiens12 hatch."
    raised = (("T", "1"), ("s", "2,3"), ("n", "4"), ("d", "5–7"), ("s", "12"))
    for evidence, linked in ((raised, True), (None, False)):
        document = _document(evidence)
        document.sections[0].blocks[0].text = text
        link_markers(document)
        assert ("pipiens12" in _cites(document)) is linked
