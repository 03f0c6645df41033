"""A numbered heading's title wrapped onto a second line that the blocks read apart.

LaTeX hangs a numbered heading's second line under its title, past the number ("2.4
getCaseLists() : Retrieve case lists for a specific can-" over "cer study"). Where the first
line holds a word in another face (the function's name in typewriter) it is not all bold, so the
change of weight to the all-bold second line cut the heading in two: the first line a heading
cut short, or text for its open end, the second a paragraph. :func:`join_wrapped_titles` puts
them together again and reads the whole as a heading, where the second line's first word would
not have fitted on the first, as at a line LaTeX broke.
"""

from __future__ import annotations

import collections

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.layout import Line

#: where the wrapped line starts, right of the heading's number, in ems of the heading's size:
#: past the number and its gap, not as far as a centred line
_HANG = (0.5, 4.0)
#: the most the wrapped line's size differs from the first's (points), and a line of code's (a share of it)
_SAME_SIZE = 0.2
_CODE_SIZE = 0.15


def join_wrapped_titles(blocks: list[Block], body_size: float) -> None:
    """Join a numbered heading's first line and the bold line its title wraps onto
    (:func:`_wraps_onto`) into one heading, numbered as the first line; the second block becomes
    furniture (its words are the heading's now). The first line is a heading already, or bold, or
    set larger than the body (a paragraph only for its open end, "… for a specific can-"); the two
    lines are not judged again as a block, whose first line's bold stops at the number, which
    would read as a run-in heading's lead-in."""
    right = _column_right(blocks)
    for index in range(len(blocks) - 1):
        block, after = blocks[index], blocks[index + 1]
        if not (block.kind == "heading" or block.bold or block.size > body_size + _LARGER) or not _wraps_onto(block, after):
            continue
        if not _broken(block.lines[0], after.lines[0], right):
            continue  # a short heading ends its line: a bold line under it ("2 Methods" over "in vitro experiments") is another
        parts = blk.NUMBERING.match(blk.join_lines([block.lines[0].text, after.lines[0].text]).strip())
        title = parts.group("title").strip().rstrip(" .:") if parts else ""
        if parts is None or not title[:1].isalpha() or len(title.split()) > _TITLE_WORDS or title.endswith((",", ";")):
            continue
        block.lines = block.lines + after.lines
        block.kind, block.number, block.title = "heading", parts.group("num").rstrip("."), title
        after.kind = "furniture"


#: the space between two words, and the slack a line break leaves, in ems
_SPACE = 0.3
_SLACK = 0.5


def _broken(first: Line, line: Line, right: dict[tuple[int, int], float]) -> bool:
    """Whether the line was broken where ``line``'s first word would not fit after ``first``
    within its column's right edge (:func:`_column_right`), as a heading set ragged right breaks:
    "… paragraphs (\\parindent," over "\\parskip)"; a heading short of the edge by more than that
    word ends there. A column of unknown edge breaks anywhere."""
    edge = right.get((first.page, first.column), right.get((0, first.column)))
    text = line.text.strip()
    if edge is None or not text:
        return True
    word = (line.x1 - line.x0) * len(text.split()[0]) / len(text)
    return first.x1 + (_SPACE + _SLACK) * first.size + word >= edge


def _column_right(blocks: list[Block]) -> dict[tuple[int, int], float]:
    """The right edge of each page's column, keyed (page, column): where most of its paragraphs'
    lines end (their last lines aside), justified text's margin; a line of code or a URL that runs
    past it counts for nothing. Keyed (0, column), the column's edge over the whole document, for a
    page without such lines of its own."""
    ends: dict[tuple[int, int], collections.Counter[float]] = collections.defaultdict(collections.Counter)
    for block in blocks:
        if block.kind != "paragraph":
            continue
        for line in block.lines[:-1]:
            ends[(line.page, line.column)][round(line.x1)] += 1
            ends[(0, line.column)][round(line.x1)] += 1
    return {key: counter.most_common(1)[0][0] for key, counter in ends.items() if sum(counter.values()) >= _MARGIN_LINES}


#: the paragraph lines a page's column needs for its own right edge
_MARGIN_LINES = 3


#: how much larger than the body a heading's first line is set at least (points)
_LARGER = 0.5
#: the most words of a heading's title (:func:`.blocks.heading_parts` takes no more)
_TITLE_WORDS = blk.HEADING_WORDS


def _wraps_onto(block: Block, after: Block) -> bool:
    """Whether ``after`` is the rest of the numbered title ``block`` opens: one line each, not
    a run-in heading's, the first numbered and ending no sentence, the second
    all bold in the first's face and size (or a word of code in bold typewriter), hung under the
    title past the number, a line's height below at most."""
    if len(block.lines) != 1 or len(after.lines) != 1 or block.kind not in ("heading", "paragraph") or after.kind != "paragraph":
        return False
    if block.extra.get("run_in") or after.extra.get("run_in"):
        return False
    first, line = block.lines[0], after.lines[0]
    text = first.text.strip()
    if not blk.NUMBERING.match(text) or blk.ends_sentence(text) or not line.bold or (first.page, first.column) != (line.page, line.column):
        return False
    same_type = first.font == line.font and abs(first.size - line.size) <= _SAME_SIZE
    # a word of code in the heading's bold typewriter ("(\\parindent," over "\\parskip)"), its boxes smaller
    code = bool(MONOSPACE_FONT.search(line.font)) and abs(first.size - line.size) <= _CODE_SIZE * first.size
    if not (same_type or code):
        return False
    low, high = _HANG
    hangs = first.x0 + low * first.size < line.x0 < first.x0 + high * first.size
    return hangs and 0 <= line.top - first.bottom <= first.height
