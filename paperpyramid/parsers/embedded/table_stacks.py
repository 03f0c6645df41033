"""Subtables stacked under one caption: "Table 2" over a part "(a)" and a part "(b)", each with its
own header and columns (Hindawi, Elsevier and Springer set a table too wide for the page as two
parts this way). Read as one grid, the parts' columns mix and every row comes out wrong.

A part opens with its mark alone on its line ("(a)", "(b)", "(A)", "Panel A"), set over the part's
header. Where two marks or more stand in a table's region, each part is a table of its own: the
region from under its mark down to the next mark (the last part: to the region's end). Small
parts are set side by side instead (LaTeX's ``\\subtable``, each centred under its mark, top,
centre or bottom aligned): marks beside one another over the region's other lines, each part
the lines nearest its mark, down to a line across the parts. Parts may instead be captioned
under their rows (LaTeX's ``subcaption``: "(a) Distribution of claim labels." centred under part
(a), the float's caption under the last part's): each part is the rows between one sub-caption
and the next, the last sub-caption closing the region. The caption's table is the first part;
the others are stored beside it, labelled with their marks as JATS labels a ``<table-wrap>`` in
its ``<table-wrap-group>`` ("Table 2 (b)").

A table too wide for its page may be set as two halves without marks, one under the other, the
second repeating the first's row label over its own header ("Library" over "DBSCAN | OPTICS",
then "Library" over "Index Acceleration | Language"): each half is read with its own columns,
and the halves' rows make the one table (:func:`~.table_engine.table_parts`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_printed_rows import VALUE

__all__ = ["first_part", "parts", "subcaption_over"]

#: a part's mark: a letter in brackets, or "Panel A"
_MARK = re.compile(r"^(?:\([a-hA-H]\)|[a-hA-H]\)|Panel [A-H])$")
#: a part's sub-caption: its mark, then words ("(b) Evidence counts at various levels")
_SUBCAPTION = re.compile(r"^(\([a-hA-H]\))\s+[^\W\d_]")
_LETTER = re.compile(r"[^\W\d_]")

BBox = tuple[float, float, float, float]

# parts set side by side end at a gap this many line heights wide (the text after the float)
_FLOAT_GAP = 2.0
# a part set side by side is centred under its mark, within this share of its width
_CENTRED = 0.15
# the last part's sub-caption over the float's caption runs to this many lines at most, the caption
# set at most this many of its line heights under it
_SUBCAPTION_LINES = 6
_CAPTION_SKIP = 3.0


def first_part(lines: Sequence[Line], region: BBox) -> BBox:
    """``region`` cut to its first part where marks of two parts or more stand in it, each alone
    on its line, the first over every other line of the region; ``region`` itself otherwise."""
    return parts(lines, region)[0][1]


def parts(lines: Sequence[Line], region: BBox) -> list[tuple[str, BBox]]:
    """Each part's mark and box where marks of two parts or more stand in ``region``, each alone
    on its line, the first over every other line of the region; or where parts stand side by side
    under their marks, are captioned under their rows, or are a table's halves (no mark); otherwise
    ``region`` itself, without a mark."""
    x0, top, x1, bottom = region
    inside = [
        line
        for line in lines
        if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1
    ]
    marks = sorted((line for line in inside if _MARK.match(line.text.strip()) and _alone(line, inside)), key=lambda line: line.top)
    if len(marks) < 2 or any(line.bottom <= marks[0].top + 0.5 for line in inside if line is not marks[0]):
        return _side_by_side(inside, region) or _captioned_under(inside, region) or _halves(inside, region) or [("", region)]
    ends = [mark.top - 0.5 for mark in marks[1:]] + [bottom]
    return [(mark.text.strip(), (x0, mark.bottom + 0.5, x1, end)) for mark, end in zip(marks, ends, strict=True)]


def _captioned_under(inside: Sequence[Line], region: BBox) -> list[tuple[str, BBox]] | None:
    """Each part's mark and box where parts are captioned under their rows: sub-captions two or
    more, each alone on its lines (:func:`_subcaption`), the last one the region's last lines,
    each part the rows between the sub-caption over it (or the region's top) and its own, two
    printed lines at least; ``None`` otherwise. A group's label over its rows ("(a) Men") opens
    the group and leaves rows under the last: no part is captioned so."""
    x0, top, x1, _ = region
    starts = sorted((line for line in inside if _SUBCAPTION.match(line.text.strip()) and _alone(line, inside)), key=lambda line: line.top)
    captions = [_subcaption(start, inside) for start in starts]
    marks = [_subcaption_mark(start) for start in starts]
    if len(captions) < 2 or len(set(marks)) < len(marks):
        return None
    last = captions[-1]
    if any(line.top > last[0].top for line in inside if not any(line is mine for mine in last)):
        return None  # rows under the last sub-caption: group labels over their rows, not parts
    tops = [top] + [max(line.bottom for line in caption) + 0.5 for caption in captions[:-1]]
    found = []
    for mark, caption, upper in zip(marks, captions, tops, strict=True):
        box = (x0, upper, x1, caption[0].top - 0.5)
        if sum(1 for line in inside if upper <= line.top and line.bottom <= box[3] + 0.5) < 2:
            return None
        found.append((mark, box))
    return found


def _halves(inside: Sequence[Line], region: BBox) -> list[tuple[str, BBox]] | None:
    """Each half's box (no mark) where a table too wide for the page is set as two tables, one
    under the other, each with its own header and columns: a row under the second that opens
    with the first row's first cell, in its font and at its left edge ("Library" over both
    halves), its other labels not the first row's, both rows labels (words, no values), a row
    under it; ``None`` where none does."""
    x0, top, x1, bottom = region
    rows: list[list[Line]] = []
    for line in sorted(inside, key=lambda line: line.top):
        if rows and line.top - rows[-1][0].top <= 0.5 * line.height:
            rows[-1].append(line)
        else:
            rows.append([line])
    if len(rows) < 4:
        return None
    head = min(rows[0], key=lambda line: line.x0)
    labels = sorted(line.text.strip() for line in rows[0])
    if not _LETTER.search(head.text) or any(VALUE.match(line.text) for line in rows[0]):
        return None  # the first row is no header of labels
    cuts = [top]
    for row in rows[2:-1]:
        first = min(row, key=lambda line: line.x0)
        again = first.text.strip() == head.text.strip() and first.font == head.font and abs(first.x0 - head.x0) <= 1
        # a header holds labels, no values: a row label repeated beside its values ("Male | 14 | 15") is no header
        header = len(row) >= 2 and not any(VALUE.match(line.text) for line in row)
        if again and header and sorted(line.text.strip() for line in row) != labels:
            cuts.append(min(line.top for line in row) - 0.5)
    if len(cuts) < 2:
        return None
    return [("", (x0, upper, x1, lower)) for upper, lower in zip(cuts, [*cuts[1:], bottom], strict=True)]


def _subcaption_mark(line: Line) -> str:
    match = _SUBCAPTION.match(line.text.strip())
    return match.group(1) if match else ""


def subcaption_over(lines: Sequence[Line], caption_top: float) -> list[Line]:
    """The sub-caption of the last of the parts captioned under their rows, set right over the
    float's caption at ``caption_top``: the lines up from the caption, each alone on its baseline
    and close under the next, to one that opens with a part's mark and words ("(b) Evidence
    counts at various levels of granularity. For ex-"); ``[]`` where the lines over the caption
    are no such sub-caption. The table is over it."""
    over = sorted((line for line in lines if line.bottom <= caption_top + 1), key=lambda line: -line.bottom)
    block: list[Line] = []
    edge = caption_top
    for line in over[:_SUBCAPTION_LINES]:
        if edge - line.bottom > (_CAPTION_SKIP if not block else 0.5) * line.height or not _alone(line, lines):
            return []
        block.append(line)
        if _SUBCAPTION.match(line.text.strip()):
            return block if len(_subcaption(line, lines)) == len(block) else []
        edge = line.top
    return []


def _subcaption(start: Line, lines: Sequence[Line]) -> list[Line]:
    """A part's sub-caption from its first line ``start``: the lines under it, each alone on its
    baseline and set within half its height under the line over it (the sub-caption wrapped)."""
    taken = [start]
    for line in sorted((line for line in lines if line.top > start.top), key=lambda line: line.top):
        if line.top - taken[-1].bottom > 0.5 * taken[-1].height or not _alone(line, lines):
            break
        taken.append(line)
    return taken


def _alone(mark: Line, lines: Sequence[Line]) -> bool:
    """Whether no other line shares the mark's band (a cell "(a)" has its row beside it)."""
    return not any(line is not mark and line.top < mark.bottom and line.bottom > mark.top for line in lines)


def _side_by_side(inside: Sequence[Line], region: BBox) -> list[tuple[str, BBox]] | None:
    """Each part's mark and box where parts stand side by side, their marks beside one another
    over every other line of the region (a part centred on its height sets its mark lower than a
    taller part's, "(b)" over "(a)"). A part holds the lines whose middles lie nearest its mark's,
    down to the first line that reaches over two marks' middles or sits a wide gap under the
    lines taken (the text under the float); it lies under its mark, centred on it, none of its
    lines beside the mark, and it reaches across to no other part. Its box runs from under its
    mark to there, across to halfway to the next part. ``None`` where the marks are no such parts'
    (marks heading columns of one table: the row labels go with the first, off its centre; or
    the groups' rows line up, :func:`_one_grid`)."""
    marks = sorted((line for line in inside if _MARK.match(line.text.strip())), key=lambda line: line.x0)
    if len(marks) < 2 or any(a.x1 >= b.x0 for a, b in zip(marks, marks[1:], strict=False)):
        return None
    rest = sorted((line for line in inside if not any(line is mark for mark in marks)), key=lambda line: line.top)
    if not rest or rest[0].top < min(mark.top for mark in marks) - 0.5:
        return None
    x0, _, x1, bottom = region
    middles = [(mark.x0 + mark.x1) / 2 for mark in marks]
    groups: list[list[Line]] = [[] for _ in marks]
    for line in rest:
        taken = [mine for group in groups for mine in group]
        wide = taken and line.top - max(mine.bottom for mine in taken) > _FLOAT_GAP * line.height
        if wide or sum(1 for middle in middles if line.x0 < middle < line.x1) >= 2:
            bottom = line.top - 0.5
            break
        groups[min(range(len(marks)), key=lambda index: abs((line.x0 + line.x1) / 2 - middles[index]))].append(line)
    if not all(_under_its_mark(mark, group) for mark, group in zip(marks, groups, strict=True)):
        return None
    if any(max(line.x1 for line in a) >= min(line.x0 for line in b) for a, b in zip(groups, groups[1:], strict=False)):
        return None
    if _one_grid(groups):
        return None
    cuts = [x0] + [(max(line.x1 for line in a) + min(line.x0 for line in b)) / 2 for a, b in zip(groups, groups[1:], strict=False)] + [x1]
    return [(mark.text.strip(), (cuts[index], mark.bottom + 0.5, cuts[index + 1], bottom)) for index, mark in enumerate(marks)]


def _one_grid(groups: Sequence[Sequence[Line]]) -> bool:
    """Whether the groups' rows line up, the same tops in every group: the columns of one grid
    headed by marks ("(a)", "(b)" over a value each row), not parts, whose rows LaTeX sets each
    part by its own (a part of two rows beside one of three)."""
    rows = [_row_tops(group) for group in groups]
    return all(
        len(tops) == len(rows[0]) and all(abs(a - b) <= 0.5 * groups[0][0].height for a, b in zip(tops, rows[0], strict=True))
        for tops in rows[1:]
    )


def _row_tops(group: Sequence[Line]) -> list[float]:
    """The tops of a group's rows: its lines' tops, those within half a line's height of the
    row's first one being the same row's."""
    tops: list[float] = []
    for line in sorted(group, key=lambda line: line.top):
        if not tops or line.top - tops[-1] > 0.5 * line.height:
            tops.append(line.top)
    return tops


def _under_its_mark(mark: Line, group: Sequence[Line]) -> bool:
    """Whether a part's lines lie under its mark, none beside it, centred on it (within
    :data:`_CENTRED` of the part's width)."""
    if len(group) < 2 or any(line.top < mark.bottom - 0.5 * mark.height for line in group):
        return False
    left, right = min(line.x0 for line in group), max(line.x1 for line in group)
    return abs((left + right) / 2 - (mark.x0 + mark.x1) / 2) <= _CENTRED * (right - left)
