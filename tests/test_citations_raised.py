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
from paperpyramid.document import Document
from paperpyramid.parsers.embedded.char_runs import raised_numbers
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.raised import joined_raised
from tests.citation_fixtures import CITATION_ORDER, one_paragraph
from tests.pdf_maker import helvetica_page

#: (text, font size, rise) pieces of one printed line, drawn one after another
Piece = tuple[str, float, float]


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
    for number, entry in enumerate(CITATION_ORDER, 1):
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
    assert len(document.references) == len(CITATION_ORDER)
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
    text = "Repelled by DEET1 and by pyrethroids2,3, as shown4 and in the field5–7; the isolate shown9 grew8."
    return one_paragraph(text, CITATION_ORDER, raised)


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


def test_a_raised_number_marks_its_own_place_not_a_twin_on_the_line() -> None:
    """A pair is a character and a number, with no offset: matched anywhere in its block, a raised
    " 3,4" also marked the same characters printed on the line ("at days 3,4 and 7 ... as the
    trials show 3,4"). Each pair is found after the one printed before it, where it reads as a
    citation: the exponent-like "4.1" of "REVTEX 4.1" does not take the raised ".¹" after it."""
    text = "Counts at days 3,4 and 7 were low2 while the trials show 3,4 that the traps5 work, at sites 3,4 too."
    raised = (("w", "2"), (" ", "3,4"), ("s", "5"))
    found = [(m.start, m.numbers) for m in raised_markers(text, raised, {})]
    assert found == [(text.index("2 while"), [2]), (text.index("3,4 that"), [3, 4]), (text.index("5 work"), [5])]
    revtex = "This guide assumes a working REVTEX 4.1 installation; see the guide in the distribution.1 Please note"
    assert [m.start for m in raised_markers(revtex, ((".", "1"),), {})] == [revtex.index("1 Please")]  # batch 2's AIP guide
    twice = raised_markers("shown1 and shown1 again", (("n", "1"), ("n", "1")), {})
    assert [m.start for m in twice] == [5, 16]  # a pair printed twice marks both, in turn


def test_a_pair_out_of_the_texts_order_is_still_found() -> None:
    """Where the text's order is not the print's, the first place not yet taken stands in."""
    text = "the traps5 work as the trials show2 and grew7."
    found = raised_markers(text, (("w", "2"), ("s", "5"), ("w", "7")), {})
    assert sorted(m.numbers[0] for m in found) == [2, 5, 7]


def test_a_block_joined_with_an_ocr_half_is_read_by_its_text() -> None:
    """A paragraph joined across a page whose text was OCR'd: that half has no raised evidence,
    and the other half's pairs carry no offset to keep them to their own text, so the block is
    read by its text's shapes (None), as OCR is; two halves read from a text layer keep theirs."""
    assert joined_raised((("w", "1"),), None) is None
    assert joined_raised(None, (("w", "1"),)) is None
    assert joined_raised((("w", "1"),), ()) == (("w", "1"),)
    text = "Repelled by DEET1 and by pyrethroids2,3, as shown4 and in the field5–7; eggs hatch8 in the bog9."
    document = one_paragraph(text, CITATION_ORDER, joined_raised(None, (("h", "8"), ("g", "9"))))
    link_markers(document)
    assert list(_cites(document)) == ["pyrethroids2,3", "shown4", "field5–7", "hatch8", "bog9"]
