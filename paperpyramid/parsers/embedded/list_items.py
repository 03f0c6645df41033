"""Numbered lines that are a list's items, not numbered sections.

"2. The network header file must be included …" reads as a numbered heading when judged alone.
An item is told from a section by its neighbours and its type: a numbered line not in bold
between the items before and after it, or a few blocks after an item read as text
(:func:`demote_list_items`), or a line numbered at the top
level in the body's plain type where the document sets its top-level sections apart
(:func:`demote_plain_numbered_lines`), or at or under the body's size there. Such a heading
becomes a paragraph again.
"""

from __future__ import annotations

import collections
import re

from paperpyramid.parsers.embedded.blocks import Block

_ITEM_NUMBER = re.compile(r"^\s*(\d{1,2})[.)]\s")
#: the most two items of a list differ in size (points): one set mostly in a smaller typewriter;
#: numbered headings a level apart differ by more
_ITEM_SIZES = 1.0
#: the most blocks between a list's item and the next one read as text (the lines of the item between)
_ITEM_REACH = 4


def demote_list_items(blocks: list[Block]) -> None:
    """A numbered list's short items in the body's own type are no sections: "2. The network
    header file must be included during compilation." between the items "1. …" and "3. …" read
    as paragraphs. A numbered heading not in bold, with a neighbour in its type that goes on
    the list (the number before or after it), becomes a paragraph again. An item read as text may
    stand a few blocks off, its own lines read apart (msm's "8. (Optionally) Write a C function …",
    its code and a line in typewriter, then "9. Update the documentation (man/hmm-dists.Rd) …")."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.bold or block.extra.get("outline") or not (item := _ITEM_NUMBER.match(block.text)):
            continue
        number = int(item.group(1))
        near = [blocks[index - 1] if index else None, blocks[index + 1] if index + 1 < len(blocks) else None]
        near += [
            other
            for other in (*blocks[max(0, index - _ITEM_REACH) : index - 1], *blocks[index + 2 : index + 1 + _ITEM_REACH])
            if other.kind == "paragraph"
        ]
        for neighbour in near:
            # an item's size may be its code's ("2. Chromosome, Start_Position.bp.: …" mostly in typewriter)
            if neighbour is None or neighbour.bold or neighbour.page != block.page or abs(neighbour.size - block.size) > _ITEM_SIZES:
                continue
            other = _ITEM_NUMBER.match(neighbour.text)
            if other and abs(int(other.group(1)) - number) == 1:
                block.kind = "paragraph"
                break


#: this many top-level sections set apart (bold or larger) fix the type of a document's sections
_STYLED_SECTIONS = 2


def demote_plain_numbered_lines(blocks: list[Block], body_size: float) -> None:
    """A document sets its top-level sections in one type: where two or more numbered "3 Common
    user options" are bold or larger, a line numbered at that level in the body's plain type
    ("3. Choose a gradient descent step size as", an algorithm's step over its display equation,
    its neighbours in the list cut off by the displays) is no section but an item; so is one set
    smaller than the body (a row of printed output). Only a line all in the body's face: "3.
    AMSMATH Package", its number in bold, is a section whose bold was misread."""
    top = [block for block in blocks if block.kind == "heading" and block.number and block.number.isdigit()]
    if sum(1 for block in top if block.bold or block.size >= body_size + 0.8) < _STYLED_SECTIONS:
        return
    larger = sum(1 for block in top if block.size >= body_size + 0.8) >= _STYLED_SECTIONS
    faces = collections.Counter(line.font for block in blocks if block.kind == "paragraph" for line in block.lines)
    body_face = faces.most_common(1)[0][0] if faces else ""
    for block in top:
        first = block.lines[0]
        if block.extra.get("outline") or block.extra.get("run_in") or block.bold or first.italic or first.bold_prefix:
            continue
        # a face without a name (Type 3: a bitmap font) tells no weight: its lines are told by size
        # alone, where the sections are set larger ("3 Kidney Kidney_1 R1", a row of a data frame
        # printed in a smaller typewriter, and "1. Computing θ values.", an item, under "5.1.3 NOISeqBIO")
        if not (body_face or larger) or any(line.font != body_face for line in block.lines):
            continue
        letters = [ch for ch in block.title if ch.isalpha()]
        if block.size <= body_size + 0.5 and not (letters and all(ch.isupper() for ch in letters)):
            block.kind = "paragraph"
