"""A paragraph cut by a page or column break is joined across the float set at the break (a table,
a figure's caption), as printed; not across a caption that ends mid-sentence."""

from __future__ import annotations

from paperpyramid.document import Block, Document, Section
from paperpyramid.parsers.embedded.assembly import merge_continuations

FIRST = "The printed sheets are gathered, folded into signatures, and passed on to a bookbinder who sews"
SECOND = "the signatures into the book proper, and the bound books are finally cut and covered."


def _merged(*between: Block) -> list[Block]:
    document = Document(pages=2)
    document.sections = [Section("Background", blocks=[Block(FIRST, 1), *between, Block(SECOND, 2)])]
    merge_continuations(document)
    return document.sections[0].blocks


def test_halves_of_a_paragraph_join_across_a_figure_caption() -> None:
    blocks = _merged(Block("Figure 2: The folding of an octavo sheet.", 2, kind="caption"))
    assert [block.kind for block in blocks] == ["paragraph", "caption"]
    assert blocks[0].text == f"{FIRST} {SECOND}"


def test_halves_of_a_paragraph_join_across_a_table_and_its_caption() -> None:
    blocks = _merged(Block("Table 1: Classical English sheet sizes", 2, kind="caption"), Block("| a | b |", 2, kind="table"))
    assert [block.kind for block in blocks] == ["paragraph", "caption", "table"]
    assert blocks[0].text.endswith(SECOND)


def test_a_caption_cut_mid_sentence_keeps_the_lowercase_text_apart() -> None:
    blocks = _merged(Block("Figure 2: The folding of an octavo sheet into", 2, kind="caption"))
    assert [block.kind for block in blocks] == ["paragraph", "caption", "paragraph"]


def test_a_formula_between_the_halves_keeps_them_apart() -> None:
    blocks = _merged(Block("x = y + z", 2, kind="formula"))
    assert len(blocks) == 3
