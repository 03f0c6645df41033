"""A preprint's one line naming its venue, printed once at the foot of the first page, leaves the
section it was read into for the notes: "To appear in 16th Workshop on Hot Topics in Operating
Systems." sat in hotos17's Introduction (batch 12), Elsevier's "Preprint submitted to …" in
csda-rcpparmadillo's Overview (batch 4). A sentence that opens alike stays."""

from __future__ import annotations

from paperpyramid.document import Block, Document, Section
from paperpyramid.parsers.embedded.notes import set_apart_notes

VENUE = "To appear in 16th Workshop on Hot Topics in Operating Systems."
SUBMITTED = "Preprint submitted to Computational Statistics and Data Analysis February 12, 2013"


def test_a_preprints_venue_line_leaves_the_introduction() -> None:
    body = ["The instruction set is the interface.", "To appear in the list, a term must occur twice."]
    introduction = Section(
        title="Introduction", number="1", blocks=[Block(body[0], 1), Block(VENUE, 1), Block(SUBMITTED, 1), Block(body[1], 1)]
    )
    doc = Document(pages=6, sections=[introduction])
    set_apart_notes(doc)
    assert [block.text for block in introduction.blocks] == body
    assert [block.text for block in doc.sections[-1].blocks] == [VENUE, SUBMITTED]
