"""The blocks a caption printed below its table claims
(:func:`paperpyramid.parsers.embedded.table_reader.claim_held`).

A page of tables each over its own caption (a NAACL paper's last page): the blocks collected
under the first caption are the second table's rows, some of whose words the first table shares
("Texas", dates). Where the table was read from a region over its caption, none under it is the
table's: they stay for the next caption, which claims them up from itself, stepping over a
header cell taken for a running head. Words invented."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.table_reader import claim_held
from tests.block_builders import Stack

_block = Stack(page=8, size=9.0, height=9.5, width=lambda text: 5 * len(text)).block


_FIRST = [["Article", "1:drop", "2:shore"], ["2005-09-21", "Rota", "Texas"], ["2005-09-23", "Rota", "Orleans"]]
_SECOND = [["Storm", "Dates", "Articles"], ["Pippa", "Sep 17-20", "6"], ["Rota", "Sep 17-26 (Texas)", "566"]]


def _page() -> list[Block]:
    return [
        _block("Article 1:drop 2:shore", top=75),
        _block("2005-09-21 Rota Texas", top=87),
        _block("2005-09-23 Rota Orleans", top=97),
        _block("Table 5: A storm table.", "caption", top=120),
        _block("Storm Dates", top=417),
        _block("Articles", "furniture", top=417),
        _block("Pippa Sep 17-20 6", top=428),
        _block("Rota Sep 17-26 (Texas) 566", top=438),
        _block("Table 6: Storms of the season.", "caption", top=523),
    ]


def test_a_caption_under_its_table_claims_nothing_under_it() -> None:
    blocks = _page()
    assert claim_held(blocks, 3, [4, 6, 7], _FIRST, (72.0, 74.5, 300.0, 107.0)) == [0, 1, 2]
    # read from under its caption, the table keeps the blocks collected there
    assert claim_held(blocks, 3, [4, 6, 7], _FIRST, (72.0, 130.0, 300.0, 450.0)) == [0, 1, 2, 4, 6, 7]


def test_the_next_caption_claims_its_rows_over_a_running_head_like_cell() -> None:
    blocks = _page()
    assert claim_held(blocks, 8, [], _SECOND) == [4, 6, 7]
