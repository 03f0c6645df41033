"""A table's notes' label in capitals is no section heading (batch 11's teubner manual).

teubner's manual prints "REMARKS" in capitals at the body's size right under a table's caption
("Table 4: Accent macros"), over the table's notes in footnote size. Read alone, the line is a
heading in capitals; it labels the small print under it, so it stays text. A line in capitals
over text in the body's type, one after a paragraph, and a known heading ("REFERENCES" over a
reference list in small type) stay headings.
"""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.headings import demote_note_labels, filter_headings
from paperpyramid.parsers.embedded.layout import Line

BODY = "NimbusRomNo9L-Regu"
NOTE = "1These four commands superimpose the corresponding accent over the letter that follows them in the text."


def _block(kind: str, text: str, top: float, size: float = 10.5) -> Block:
    line = Line(text=text, page=1, x0=72.0, top=top, x1=540.0, bottom=top + size, size=size, bold=False, italic=False, font=BODY)
    block = Block([line])
    block.kind = kind
    if kind == "heading":
        block.title = text
    return block


def _page(label: str, above: str = "caption", notes_size: float = 8.9) -> list[Block]:
    return [
        _block("heading", "Ligatures", 60, 12.0),
        _block("paragraph", "The ligatures of the fonts are listed in the table that follows this paragraph.", 80),
        _block(above, "Table 4: Accent macros", 100, 10.7),
        _block("heading", label, 114, 10.7),
        _block("paragraph", NOTE, 128, notes_size),
        _block("heading", "Other Greek symbols", 160, 12.0),
        _block("paragraph", "The fonts hold more symbols than the letters of the alphabet and its accents.", 180),
    ]


def test_a_label_in_capitals_over_a_tables_notes_is_text() -> None:
    blocks = _page("REMARKS")
    demote_note_labels(blocks, 10.5)
    assert blocks[3].kind == "paragraph"
    blocks = _page("REMARKS")
    filter_headings(blocks, 10.5)
    assert [block.title for block in blocks if block.kind == "heading"] == ["Ligatures", "Other Greek symbols"]


def test_capitals_over_the_bodys_type_or_after_a_paragraph_stay_headings() -> None:
    for blocks in (_page("REMARKS", notes_size=10.5), _page("REMARKS", above="paragraph")):
        demote_note_labels(blocks, 10.5)
        assert blocks[3].kind == "heading"


def test_a_known_heading_in_capitals_over_small_type_stays() -> None:
    blocks = _page("REFERENCES")
    demote_note_labels(blocks, 10.5)
    assert blocks[3].kind == "heading"
