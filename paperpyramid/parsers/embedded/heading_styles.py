"""What every rule on headings measures a block by.

A heading's style (:func:`heading_style`: size, weight, slant, capitals), the styles ranked into
levels (:func:`style_levels`, the IMRaD headings' style at level 1 wherever it ranks), whether
text is prose rather than a label (:func:`prose`, :func:`over_prose`) or a two-column list
(:func:`over_list_column`), and a title reduced to its letters for comparing two writings of it
(:func:`norm`). The outline, the printed contents, the figure labels, the back matter and the
headings' own filter all judge by these, so they live below all of them: this module imports
none of theirs.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block, is_reference_heading


def prose(text: str) -> bool:
    """Words a sentence is made of, not labels: at least two lowercase words."""
    words = text.split()
    return len(words) >= 4 and sum(1 for word in words if len(word) >= 3 and word.isalpha() and word.islower()) >= 2


def norm(text: str) -> str:
    return re.sub(r"[\W\d_]+", "", text.lower())


def over_prose(blocks: list[Block], index: int) -> bool:
    """Whether the next block of text after a heading is a paragraph of prose, not another label."""
    for block in blocks[index + 1 : index + 4]:
        if block.kind in ("furniture", "aside"):
            continue
        return block.kind == "paragraph" and (len(block.text) >= 80 or prose(block.text))
    return False


def over_list_column(blocks: list[Block], index: int) -> bool:
    """Whether the next block of text after a label is the first entry of a two-column list it
    groups (a reference card's "Coercion" over "as.proto  If x is …"): a term on its first line
    left of the entry's text, the text's further lines hanging at one edge far right of the
    label's, where a heading's paragraph runs back to its left edge and a list item's text hangs
    an indent or two in."""
    label = blocks[index].lines[0]
    # the entry's first line, its term in another face, may be a block of its own
    text = [block for block in blocks[index + 1 : index + 5] if block.kind not in ("furniture", "aside")][:2]
    lines = [line for block in text for line in block.lines][: _HANGING_LINES + 1]
    if len(lines) <= _HANGING_LINES:
        return False
    first, rest = lines[0], lines[1:]
    hang = min(line.x0 for line in rest)
    return (
        all(line.x0 - hang < 1.0 for line in rest)
        and hang - label.x0 >= _LIST_COLUMN * label.size
        and first.x0 < hang - label.size < first.x1
    )


#: a list's text column hangs this many of the label's ems right of it at least
_LIST_COLUMN = 5.0
#: lines of an entry that hang at its text column, after its first, at least
_HANGING_LINES = 2


TOP_LEVEL = {
    "introduction",
    "background",
    "methods",
    "materials and methods",
    "results",
    "discussion",
    "conclusion",
    "conclusions",
    "results and discussion",
    "related work",
}


def style_levels(headings: list[Block]) -> dict[tuple[float, bool, bool, bool], int]:
    """Rank heading styles into levels. The style of the IMRaD headings ("Introduction",
    "Methods", ...) is level 1 wherever it ranks; "Abstract" and "References" do not count,
    since journals set them apart."""
    styles = [
        heading_style(block)
        for block in headings
        if block.title.lower() not in ("abstract", "summary") and not is_reference_heading(block.title.lower())
    ]
    ranked = sorted(set(styles), key=lambda s: (-s[0], not s[1], not s[3], s[2]))
    anchor = next((heading_style(block) for block in headings if block.title.lower() in TOP_LEVEL), None)
    base = ranked.index(anchor) if anchor in ranked else 0
    levels = {style: max(1, min(position - base + 1, 4)) for position, style in enumerate(ranked)}
    if anchor is not None:
        # a style that only ever appears inside the IMRaD sections is nested in them, even when
        # it is set larger than they are (small-caps "METHODS" above bold "Patients")
        first = next(index for index, block in enumerate(headings) if heading_style(block) == anchor)
        for style in levels:
            members = [(index, block) for index, block in enumerate(headings) if heading_style(block) == style]
            inside = all(index > first for index, _ in members)
            generic = all(block.title.lower() in blk.KNOWN_HEADINGS for _, block in members)
            if style != anchor and inside and not generic:
                levels[style] = max(levels[style], 2)
    return levels


def heading_style(block: Block) -> tuple[float, bool, bool, bool]:
    letters = [ch for ch in block.title if ch.isalpha()]
    caps = bool(letters) and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)
    return (round(block.size), block.bold, block.lines[0].italic, caps)
