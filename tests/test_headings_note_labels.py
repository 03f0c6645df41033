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
from tests.block_builders import Stack, whole_title

BODY = "NimbusRomNo9L-Regu"
NOTE = "1These four commands superimpose the corresponding accent over the letter that follows them in the text."


_block = Stack(x1=540.0, size=10.5, font=BODY, heading=whole_title).block


def _page(label: str, above: str = "caption", notes_size: float = 8.9) -> list[Block]:
    return [
        _block("Ligatures", "heading", top=60, size=12.0),
        _block("The ligatures of the fonts are listed in the table that follows this paragraph.", "paragraph", top=80),
        _block("Table 4: Accent macros", above, top=100, size=10.7),
        _block(label, "heading", top=114, size=10.7),
        _block(NOTE, "paragraph", top=128, size=notes_size),
        _block("Other Greek symbols", "heading", top=160, size=12.0),
        _block("The fonts hold more symbols than the letters of the alphabet and its accents.", "paragraph", top=180),
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
