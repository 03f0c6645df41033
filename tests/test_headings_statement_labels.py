"""A statement's label alone on its line in bold ("Definition 1", "Bemerkung 1 (Mengen, die offen
& abgeschlossen sind)", amsthm's heads in a lecture's sans bold) is no heading of a level the
outline leaves out, while a starred heading that opens with such a word and goes on with a title
("Example: Measles, Germany, 2005–2007") still is."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.labels import statement_label
from paperpyramid.parsers.embedded.outline import apply_outline
from tests.block_builders import Stack, printed_heading

PROSE = "Ein topologischer Raum ist ein Paar aus einer Menge und einer Familie offener Teilmengen davon."
BODY = "SFRM1095"
_block = Stack(size=10.9, font=BODY, heading=printed_heading).block


def _section(text: str, size: float = 14.0) -> Block:
    return _block(text, "heading", size=size, bold=True, font="SFBX1440")


def test_statement_labels_in_an_unnamed_bold_are_no_headings() -> None:
    toc = [(1, "1 Topologische Grundbegriffe", 1), (2, "1.1 Topologische Räume", 1), (2, "1.2 Metrische Räume", 1)]
    level = "SFSX1095"
    labels = [_block(text, bold=True, font=level) for text in ("Definition 1", "Bemerkung 1 (Mengen, die offen & abgeschlossen sind)")]
    blocks = [_block("Geometrie und Topologie", "title", size=20), _section("1 Topologische Grundbegriffe")]
    blocks += [_block(PROSE, lines=2), _section("1.1 Topologische Räume", size=12), _block(PROSE, lines=2)]
    for label in labels:
        blocks += [label, _block(PROSE, lines=3)]
    # the unnamed level: starred headings in that bold, read as headings by their type
    for title in ("Stetige Abbildungen", "Offene Mengen"):
        blocks += [_block(title, "heading", bold=True, font=level), _block(PROSE, lines=3)]
    blocks += [_section("1.2 Metrische Räume", size=12), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.9)
    assert [label.kind for label in labels] == ["paragraph", "paragraph"]


def test_a_statement_label_is_its_word_number_and_name_alone() -> None:
    assert statement_label("Definition 1") and statement_label("Satz 2.3") and statement_label("Beispiel 3 (Basis und Subbasis)")
    assert statement_label("Folgerung 3.6")  # German's corollary, beside "Korollar"
    assert not statement_label("Example: Measles, Germany, 2005–2007")
    assert not statement_label("Case Report") and not statement_label("Definition of outcomes")


def test_a_statement_label_may_be_a_name_alone_a_proof_head_or_a_part_letter() -> None:
    """geotopo's "Satz (Zwischenwertsatz)" (``\\newtheorem*`` with a name), "Beweis: (Fundamentalgruppe
    ist eine Gruppe)" (a proof's head and what it proves, in bold), "Teilaufgabe a)" (an exercise's part)."""
    assert statement_label("Satz (Zwischenwertsatz)") and statement_label("Teilaufgabe a)")
    assert statement_label("Beweis: (Fundamentalgruppe ist eine Gruppe)") and statement_label("Proof: the map is open")
    assert not statement_label("Satz") and not statement_label("Example")  # a word alone may title a section
    assert not statement_label("Proofs of the main results")


def test_statement_heads_in_the_unnamed_bold_stay_text_beside_its_headings() -> None:
    """A statement's head over two lines ("Definition 60" over "§3) Anordnungsaxiome"), a proof's
    head and an exercise's parts in the bold of a level the outline leaves out are no headings of
    it; that level's own headings stay."""
    toc = [(1, "1 Topologische Grundbegriffe", 1), (2, "1.1 Topologische Räume", 1), (2, "1.2 Metrische Räume", 1)]
    level = "SFBX1095"
    definition = _block("Definition 60", bold=True, font=level)
    definition.lines.append(_block("§3) Anordnungsaxiome", bold=True, font=level).lines[0])
    proof = _block("Beweis: (Fundamentalgruppe ist eine Gruppe)", bold=True, font=level)
    parts = [_block(f"Teilaufgabe {letter})", "heading", bold=True, font=level) for letter in "abc"]
    blocks = [_block("Geometrie und Topologie", "title", size=20), _section("1 Topologische Grundbegriffe")]
    blocks += [_block(PROSE, lines=2), _section("1.1 Topologische Räume", size=12), _block(PROSE, lines=2)]
    for title in ("Stetige Abbildungen", "Offene Mengen"):
        blocks += [_block(title, "heading", bold=True, font=level), _block(PROSE, lines=3)]
    for statement in (definition, proof, *parts):
        blocks += [statement, _block(PROSE, lines=3)]
    blocks += [_section("1.2 Metrische Räume", size=12), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.9)
    assert [block.kind for block in (definition, proof, *parts)] == ["paragraph"] * 5
    assert [block.title for block in blocks if block.kind == "heading" and block.title in ("Stetige Abbildungen", "Offene Mengen")] == [
        "Stetige Abbildungen",
        "Offene Mengen",
    ]


def test_statement_heads_alone_make_no_level_of_headings() -> None:
    """An exercise's parts ("Teilaufgabe a)", "b)", "c)") read as headings in a bold the outline never
    names are no level of their own, so a short bold line in that bold ("Euklids Axiome") is no heading by it."""
    toc = [(1, "1 Topologische Grundbegriffe", 1), (2, "1.1 Topologische Räume", 1), (2, "1.2 Metrische Räume", 1)]
    level = "SFBX1095"
    parts = [_block(f"Teilaufgabe {letter})", "heading", bold=True, font=level) for letter in "abc"]
    line = _block("Euklids Axiome", bold=True, font=level)
    blocks = [_block("Geometrie und Topologie", "title", size=20), _section("1 Topologische Grundbegriffe")]
    blocks += [_block(PROSE, lines=2), _section("1.1 Topologische Räume", size=12), _block(PROSE, lines=2)]
    for part in parts:
        blocks += [part, _block(PROSE, lines=3)]
    blocks += [line, _block(PROSE, lines=3), _section("1.2 Metrische Räume", size=12), _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 10.9)
    assert [block.kind for block in (*parts, line)] == ["paragraph"] * 4
