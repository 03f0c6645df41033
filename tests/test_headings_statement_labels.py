"""A statement's label alone on its line in bold ("Definition 1", "Bemerkung 1 (Mengen, die offen
& abgeschlossen sind)", amsthm's heads in a lecture's sans bold) is no heading of a level the
outline leaves out, while a starred heading that opens with such a word and goes on with a title
("Example: Measles, Germany, 2005–2007") still is."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.labels import statement_label
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.outline import apply_outline

PROSE = "Ein topologischer Raum ist ein Paar aus einer Menge und einer Familie offener Teilmengen davon."
BODY = "SFRM1095"
_top = iter(range(60, 100000, 20))


def _block(text: str, kind: str = "paragraph", *, size: float = 10.9, bold: bool = False, font: str = BODY, lines: int = 1) -> Block:
    rows = []
    for _ in range(lines):
        top = float(next(_top))
        rows.append(Line(text=text, page=1, x0=72.0, top=top, x1=300.0, bottom=top + size, size=size, bold=bold, italic=False, font=font))
    block = Block(lines=rows, kind=kind)
    if kind == "heading":
        number, _, rest = text.partition(" ")
        numbered = number.replace(".", "").isdigit() and rest
        block.number, block.title = (number.rstrip("."), rest) if numbered else (None, text)
    return block


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
