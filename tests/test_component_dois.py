"""A figure's or table's own DOI, printed under it (PLOS: the article's DOI and ".g001", ".t001"),
goes to its caption, not into the paragraph the float cut: read after the page's body, it landed
mid-sentence ("wedge-shaped melanic doi:10.1371/journal.pone.0115884.t001 patch", the PLOS sample;
"prevent various https://doi.org/10.1371/journal.pone.0193451.g001 diseases", a dev pmc-pair)."""

from __future__ import annotations

from paperpyramid.document import Block, Cite, Document, Figure, Section, Table
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.notes import set_apart_notes
from tests.conftest import SAMPLE

FROG = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"
DOI = "10.1371/journal.pone.0193451"


def test_the_plos_sample_table_doi_leaves_the_paragraph_for_the_caption() -> None:
    doc = parse_pdf(FROG)
    paragraphs = [block.text for section in doc.sections for block in section.blocks if block.kind == "paragraph"]
    assert not any("0115884.t001" in text for text in paragraphs)
    assert any("wedge-shaped melanic patch" in text for text in paragraphs)
    assert doc.tables[0].caption.endswith("doi:10.1371/journal.pone.0115884.t001")
    assert any(
        block.kind == "table" and block.text.startswith(doc.tables[0].caption) for section in doc.sections for block in section.blocks
    )


def test_component_dois_go_to_their_captions_or_the_notes() -> None:
    cut = Block(text=f"prevent various https://doi.org/{DOI}.g001 diseases [4] and illness.", page=3)
    cut.cites = [Cite(start=cut.text.index("[4]"), end=cut.text.index("[4]") + 3, keys=["4"])]
    alone = Block(text=f"https://doi.org/{DOI}.t002 https://doi.org/{DOI}.g009", page=5)
    other = Block(text="Data are at https://doi.org/10.5061/dryad.g001 and in the text.", page=6)
    doc = Document(doi=DOI, pages=6)
    doc.sections = [Section(title="Introduction", blocks=[cut, alone, other])]
    doc.figures = [Figure(caption="Fig 1. A plant.", page=4, label="1")]
    doc.tables = [Table(caption="Table 2. Doses.", cells=[["a"]], page=5, label="2")]
    set_apart_notes(doc)
    assert [block.text for block in doc.sections[0].blocks] == [
        "prevent various diseases [4] and illness.",
        "Data are at https://doi.org/10.5061/dryad.g001 and in the text.",  # another DOI: a sentence's
    ]
    assert cut.text[cut.cites[0].start : cut.cites[0].end] == "[4]"
    assert doc.figures[0].caption == f"Fig 1. A plant.\nhttps://doi.org/{DOI}.g001"
    assert doc.tables[0].caption == f"Table 2. Doses.\nhttps://doi.org/{DOI}.t002"
    assert doc.sections[-1].title == "" and [block.text for block in doc.sections[-1].blocks] == [f"https://doi.org/{DOI}.g009"]


def test_a_table_doi_among_its_notes_goes_to_its_caption() -> None:
    # PLOS prints a table's DOI under it, with its notes, which go under the table's cells
    table = Table(
        caption="Table 2. Doses.", cells=[["a"], ["1"]], page=5, label="2", notes=[f"Values are means. https://doi.org/{DOI}.t002"]
    )
    block = Block(text=f"Table 2. Doses.\n\n{table.markdown}\n\n{table.notes[0]}", page=5, kind="table")
    doc = Document(doi=DOI, pages=6)
    doc.sections = [Section(title="Results", blocks=[block])]
    doc.tables = [table]
    set_apart_notes(doc)
    assert table.caption == f"Table 2. Doses.\nhttps://doi.org/{DOI}.t002"
    assert block.text == f"Table 2. Doses.\nhttps://doi.org/{DOI}.t002\n\n{table.markdown}\n\nValues are means."
