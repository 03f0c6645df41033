"""Regions of a page that the column finder of :mod:`reading_order` does not see: a sidebar set
beside a one-column body, a two-column block under (or between) full-width text, the rows of a
grid of panels, and the running head and foot of a one-page document (a manuscript's line
numbers leave where the page is read: :func:`~.line_numbers.line_number_marks`).

Each test is geometric (where the lines lie, how wide, what gap parts them) and asks for
words or a pattern where geometry alone is ambiguous: a sidebar holds words, not a figure's
numbers; a one-page head carries a page number, a journal's name or address, or a chapter mark.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate
from statistics import median

from paperpyramid.parsers.embedded.layout import Line, Page

#: the column given to a sidebar's lines: read after the body of the page, a block of its own
ASIDE_COLUMN = 99

_WORD = re.compile(r"[^\W\d_]{3,}")
_PAGE_NUMBER = re.compile(r"^(page\s*)?[\divxlc]{1,4}(\s*(/|of)\s*\d{1,4})?$", re.I)
_JOURNAL = re.compile(
    r"www\.|https?://|\.(org|com|net|edu)\b|\bdoi\b|\bjournal\b|\bvol(ume)?\.?\s*\d|\bissue\b|\s\|\s|\bproceedings\b", re.I
)
_CHAPTER = re.compile(r"\b(ch(ap(ter)?)?\.?\s*[IVXLC\d]+\b|chapter\b|section\s+[IVXLC\d]+\b)|§", re.I)
#: a book's running head: a page number at one end of capitals ("400 BRITISH HUSBANDRY.")
_BOOK_HEAD = re.compile(r"^\d{1,4}\s+[^a-z]{4,}$|^[^a-z]{4,}\s+\d{1,4}$")


def side_column(page: Page) -> list[Line]:
    """The lines of a narrow box set beside a one-column body (the first page's dates and
    correspondence, a "Key points" box), left or right of it; empty when there is none.

    The body's lines are over 45% of the page wide and start (or end) at one edge; the box's
    lines lie wholly past that edge, in a strip under 30% of the page wide, three or more of them
    with words, beside three or more of the body's lines, and no other line reaches into the
    box's strip where the box is.
    """
    lines = [line for line in page.lines if line.text.strip()]
    width = page.width
    wide = [line for line in lines if line.width > width * 0.45]
    if len(wide) < 6:
        return []
    for left in (True, False):
        edge = median(line.x0 for line in wide) if left else median(line.x1 for line in wide)
        side = [line for line in lines if (line.x1 < edge - 6 if left else line.x0 > edge + 6)]
        if len(side) < 3 or sum(1 for line in side if _WORD.search(line.text)) < 3:
            continue
        if max(line.x1 for line in side) - min(line.x0 for line in side) > width * 0.3:
            continue
        top, bottom = min(line.top for line in side), max(line.bottom for line in side)
        beside = [line for line in wide if line.bottom > top and line.top < bottom]
        # no other line reaches into the box's strip where the box is (a ragged right edge may
        # pass the body's median edge, not the box)
        inner = max(line.x1 for line in side) + 2 if left else min(line.x0 for line in side) - 2
        crossing = [
            line
            for line in lines
            if (line.x0 < inner if left else line.x1 > inner)
            and line.bottom > top
            and line.top < bottom
            and not any(line is item for item in side)
        ]
        # a box's print is no bigger than the body's beside it, and that is the page's body text
        # (not a table's left column beside its cells)
        if (
            len(beside) >= 3
            and not crossing
            and median(line.size for line in side) <= median(line.size for line in beside) + 0.5
            and median(line.size for line in beside) >= 0.9 * _body_size(lines)
        ):
            return side
    return []


def _body_size(lines: list[Line]) -> float:
    """The size most of the lines' characters are set in."""
    weights: Counter[float] = Counter()
    for line in lines:
        weights[round(line.size * 2) / 2] += len(line.text)
    return weights.most_common(1)[0][0]


def least_crossed(lines: list[Line], width: float) -> tuple[float, int]:
    """The x in the page's middle 40% (2 pt steps) that the fewest ``lines`` cross, nearest the
    middle among equals, and how many cross it: where a gutter would be."""
    steps = []
    x = width * 0.3
    while x <= width * 0.7:
        steps.append(x)
        x += 2.0
    best, best_cross = 0.0, len(lines) + 1
    for x, cross in zip(steps, crossings(lines, steps), strict=True):
        if cross < best_cross or (cross == best_cross and abs(x - width / 2) < abs(best - width / 2)):
            best, best_cross = x, cross
    return best, best_cross


def crossings(lines: Sequence[Line], xs: Sequence[float]) -> list[int]:
    """How many ``lines`` cross each of ``xs`` (in ascending order), starting more than a point
    left of it and ending more than a point right of it. Each line adds one to the run of ``xs``
    it crosses, found by bisection: a page's lines against a hundred steps, without a pass over
    the lines for each step."""
    lows, highs = [x - 1 for x in xs], [x + 1 for x in xs]
    change = [0] * (len(xs) + 1)
    for line in lines:
        start, end = bisect_right(lows, line.x0), bisect_left(highs, line.x1)
        if start < end:
            change[start] += 1
            change[end] -= 1
    return list(accumulate(change[:-1]))


def local_gutter(page: Page) -> float | None:
    """The gutter of a two-column block that most of the page's lines cross (a title and a long
    abstract set full width above it, a conclusion below it): found among the lines a column
    wide (18% to 55% of the page), a quarter of them crossing it or fewer, with three such lines on each
    side, the right ones starting at one edge and set beside the left ones."""
    width = page.width
    narrow = [line for line in page.lines if len(line.text) > 1 and width * 0.18 < line.width < width * 0.55]
    if len(narrow) < 6:
        return None
    best, best_cross = least_crossed(narrow, width)
    left = [line for line in narrow if line.x1 <= best + 1]
    right = [line for line in narrow if line.x0 >= best - 1]
    if len(left) < 3 or len(right) < 3 or best_cross > 0.25 * len(narrow):
        return None
    if Counter(round(line.x0 / 3) for line in right).most_common(1)[0][1] < 3:
        return None
    side_by_side = sum(1 for line in right if any(abs(line.mid_y - other.mid_y) < line.height for other in left))
    return best if side_by_side >= 3 else None


def two_sided(columns: dict[int, list[Line]], width: float) -> bool:
    """Whether a run of rows holds column text on both sides of a gutter: two lines or more,
    each over 18% of the page wide, in two columns or more."""
    return sum(1 for lines in columns.values() if sum(1 for line in lines if line.width > width * 0.18) >= 2) >= 2


def grid_cut(above: dict[int, list[Line]], below: list[list[Line]], gutters: list[float], gap_min: float) -> bool:
    """Whether a run of columns ends at an empty band across the page, as the rows of a grid of
    panels do: ``gap_min`` or more under the lowest line above it, two lines or more of text in
    two columns or more on each side of it (``below``: the rows to the next band cut), the
    first lines under it top-aligned, and no column's text running on across it (a last line
    ending in a hyphen or comma above, a line starting in lower case below)."""
    if sum(1 for lines in above.values() if len(lines) >= 2) < 2 or not below:
        return False
    lowest = max(line.bottom for lines in above.values() for line in lines)
    if below[0][0].top - lowest < gap_min:
        return False
    under: dict[int, list[Line]] = {}
    for row in below:
        for line in row:
            under.setdefault(sum(1 for gutter in gutters if line.x0 >= gutter - 1), []).append(line)
    firsts = [lines[0] for lines in under.values() if len(lines) >= 2]
    if len(firsts) < 2:
        return False
    lasts = [max(lines, key=lambda line: line.bottom) for lines in above.values() if lines]
    if any(line.text.rstrip().endswith(("-", ",")) for line in lasts) or any(line.text.lstrip()[:1].islower() for line in firsts):
        return False
    tops = [line.top for line in firsts]
    return max(tops) - min(tops) < max(line.height for line in firsts)


def single_page_furniture(page: Page) -> list[Line]:
    """The running head and foot of a document of one page, which no recurrence across pages
    shows: the topmost (bottom-most) row of lines, in the page's top (bottom) tenth, no bigger
    than the body's text, set apart from the body by a line's height or more, that carries a
    page number on a line of its own, a journal's name or address, a chapter mark, or a book's
    capitals with the page number. A title is bigger than the body: it is never taken, nor is a
    row of two numbers or more on lines of their own (a table's last row set at the page's foot)."""
    lines = sorted((line for line in page.lines if line.text.strip()), key=lambda line: line.top)
    if len(lines) < 4:
        return []
    body = _body_size(lines)
    found: list[Line] = []
    for ordered, top in ((lines, True), (lines[::-1], False)):
        first = ordered[0]
        row = [line for line in ordered if abs(line.mid_y - first.mid_y) < max(first.height, 1.0) * 0.5]
        rest = [line for line in ordered if not any(line is item for item in row)]
        if not rest or any(line.size > body * 1.05 for line in row):
            continue
        if top and max(line.bottom for line in row) > page.height * 0.1 or not top and min(line.top for line in row) < page.height * 0.9:
            continue
        gap = rest[0].top - max(line.bottom for line in row) if top else min(line.top for line in row) - rest[0].bottom
        if gap < max(line.height for line in row):
            continue
        numbers = sum(1 for line in row if _PAGE_NUMBER.match(line.text.strip()))
        if numbers >= 2:
            continue  # a row of values ("Total | 84 | 164", a table's last at the foot): a head or foot has one page number
        text = " ".join(line.text.strip() for line in sorted(row, key=lambda line: line.x0))
        marked = numbers == 1 or _JOURNAL.search(text) or _CHAPTER.search(text) or _BOOK_HEAD.match(text)
        if marked:
            found += row
    return found
