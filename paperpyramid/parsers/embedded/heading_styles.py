"""What every rule on headings measures a block by.

A heading's style (:func:`heading_style`: size, weight, slant, capitals), the styles ranked into
levels (:func:`style_levels`, the IMRaD headings' style at level 1 wherever it ranks), whether
text is prose rather than a label (:func:`prose`, :func:`over_prose`), and a title reduced to its
letters for comparing two writings of it (:func:`norm`). The outline, the printed contents, the
figure labels, the back matter and the headings' own filter all judge by these, so they live
below all of them: this module imports none of theirs.
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
