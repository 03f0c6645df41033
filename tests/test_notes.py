"""Licence lines, correspondence and a publisher's citation box are set apart from the abstract and
the references, in an untitled last section: the abstract and the reference list hold what they
should, and no word is dropped."""

from __future__ import annotations

from paperpyramid.document import Block, Document, Reference, Section
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.notes import set_apart_notes
from tests.conftest import SAMPLE


def test_bmc_abstract_and_last_reference_are_clean() -> None:
    doc = parse_pdf(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf")
    assert doc.abstract is not None and "licensee" not in doc.abstract and "Correspondence" not in doc.abstract
    assert doc.abstract.rstrip().endswith("Healthcare in resource-limited settings")
    last = doc.references[-1].raw
    assert last.endswith("J Gen Intern Med 2002, 17(6):477–486.") and "Cite this article" not in last
    notes = doc.sections[-1]
    assert notes.title == "" and notes.number is None
    held = " ".join(block.text for block in notes.blocks)
    assert "licensee BioMed Central" in held and "Cite this article as" in held and "Correspondence" in held
    ref_section = next(section for section in doc.sections if section.number == "ref")
    assert [block.text for block in ref_section.blocks] == [reference.raw for reference in doc.references]


def test_a_reference_keeps_its_entry_when_a_licence_is_glued_to_it() -> None:
    doc = parse_pdf(SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf")
    assert len(doc.references) == 44  # the gold JATS lists 44; the last once went with the licence
    assert doc.references[-1].raw.endswith("Wiley: New York, NY, USA, 1990.")
    assert any("licensee MDPI" in block.text for block in doc.sections[-1].blocks)


def test_end_matter_stored_as_a_reference_moves() -> None:
    doc = Document(pages=3)
    abstract = Section(
        title="Abstract", blocks=[Block("Frogs give birth.", 1), Block("© 2014 Iskandar et al. This is an open access article.", 1)]
    )
    references = Section(title="References", number="ref", page_start=3)
    doc.sections = [abstract, references]
    doc.abstract = "Frogs give birth.\n\n© 2014 Iskandar et al. This is an open access article."
    doc.references = [Reference("Smith J. Frogs. 2001."), Reference("Competing interests: none declared.")]
    set_apart_notes(doc)
    assert doc.abstract == "Frogs give birth."
    assert [r.raw for r in doc.references] == ["Smith J. Frogs. 2001."]
    assert [b.text for b in doc.sections[-1].blocks] == [
        "© 2014 Iskandar et al. This is an open access article.",
        "Competing interests: none declared.",
    ]
    untouched = Document(sections=[Section(title="Abstract", blocks=[Block("Nothing to move.", 1)])], abstract="Nothing to move.")
    set_apart_notes(untouched)
    assert len(untouched.sections) == 1 and untouched.abstract == "Nothing to move."


def test_the_first_pages_imprint_leaves_the_introduction() -> None:
    """ACL prints "Proceedings of the 58th Annual Meeting …, pages 2270–2282" once, at the foot of
    page 1, inside the Introduction's column: it was stored inside an Introduction context."""
    imprint = "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, pages 2270–2282 ©2020 ACL"
    introduction = Section(title="Introduction", number="1", blocks=[Block("Representation learning matters.", 1), Block(imprint, 1),
                                                                     Block("July 5 - 10, 2020.", 1), Block("In Proceedings of the past, pages 1-2 we read.", 1)])  # fmt: skip
    doc = Document(pages=9, sections=[introduction])
    set_apart_notes(doc)
    assert [b.text for b in introduction.blocks] == ["Representation learning matters.", "In Proceedings of the past, pages 1-2 we read."]
    assert [b.text for b in doc.sections[-1].blocks] == [imprint, "July 5 - 10, 2020."]
