"""Where a table lies on its page: the region under (or over) its caption (step 1 of
:mod:`.table_engine`).

The caption's column (the left or right half of a two-column page, or the page when text or
rules under the caption cross the middle). A caption with a rule just above it closes a table
printed above it (ACL and arXiv styles): the region runs up to the highest rule of that table.
Otherwise the region runs from under the caption (its continuation lines skipped: the caption
block often holds only its first line) to the next "Table N" / "Figure N" caption, running text
or the page's end. When the table's rules run further than a header, its last rule closes it; a
table whose rules stop after the header (continued on the next page or column) runs to the
column's end. :func:`next_captions_table` tells a region that is the next caption's table
(each caption printed under its own table), and :func:`region_over_caption` finds the unruled
table printed over its caption. The region is found from lines and rules alone; its cells are
the engine's to read.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_ends import before_wide_gap, running_head
from paperpyramid.parsers.embedded.table_frames import box_bottom
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows
from paperpyramid.parsers.embedded.table_rules import BBox, Rule, horizontal_rules, on_page
from paperpyramid.parsers.embedded.table_stacks import subcaption_over

__all__ = ["body_margins", "find_region", "hugs_lines_above", "next_captions_table", "prose_line", "region_over_caption"]

# "Table 2", "Fig. 3a", "TABLE IV" (Roman numerals in capitals: "Table In" is no caption)
_CAPTION_START = re.compile(r"^\s*(?i:table|tab\.|fig\.?|figure|scheme|chart)\s*(?:[A-Za-z]?\d+[A-Za-z]?|[IVX]+)\b")
_TABLE_WORD = re.compile(r"^\s*(?:table|tab\.)", re.IGNORECASE)
# a caption of its label alone ("Table 1", "TABLE IV."), its title on a line of its own under it
_LABEL_ALONE = re.compile(r"^\s*(?i:table|tab\.)\s*(?:[A-Za-z]?\d+[A-Za-z]?|[IVX]+)\s*[.:]?\s*$")
# the title sits at most this many of its line heights under such a label (APA: a blank line)
_TITLE_GAP = 2.5
# two rules no further apart than this are only the table's top and header rules (three close it)
_HEADER_RULES = 60.0
# a column of running text spans at least this share of the width the long lines of a span cover
_TEXT_COLUMN = 0.45
# a caption this close under a rule closes a table printed above it (ACL: 12-15 pt)
_ABOVE_GAP = 18.0
# ... and this many of its line heights under it, where no rule sits as close under the caption
# (LaTeX's \abovecaptionskip sets a caption 21-23 pt under its table; a caption over its own
# table has that table's top rule close under it)
_ABOVE_LINES = 2.6
# rules further apart than this are one table's only with no running text between them, lines
# across this share of the rule
_RULE_REACH = 300.0
_TEXT_ACROSS = 0.7
# a rule of a table reaches no further past its bottom rule's ends than this share of its width
_PAST_BOTTOM = 0.05
# a caption under its table sits closer under it than this share of the gap over a table under a caption
_HUGS = 0.6
# a line under this share of the caption's type is a script's, not the table's type
_SCRIPT_SHARE = 0.7
# the line over a paragraph's last line sits this many line heights above it at most (top to top)
_PROSE_PITCH = 1.6
# a section's number, set left of its heading
_SECTION_NUMBER = re.compile(r"(?:\d+|[A-Z]|[IVX]+)(?:\.\d+)*\.?")
# a caption under its unruled table sits closer under it than this share of the gap over the text under it
_HUGS_ABOVE = 0.75
# a region this share of the page's text width wide spans the page (both columns of two)
_ACROSS = 0.7
# a table's notes between it and its caption: lines in under this share of the caption's type,
# this many of their heights apart at most, each opening with a note's mark ("1.", "(a)", "*") at
# one left edge (within this many points) or going on from one at another
_NOTE_SIZE = 0.9
_NOTE_GAP = 1.5
_NOTE_EDGE = 1.5
_NOTE_MARK = re.compile(r"^\s*(?:\d{1,2}[.)]|\(?[a-z]\)|[*†‡§¶])\s")
# a line starting this far over a table's bottom rule is a row's, however far its box reaches under it
_OVER_RULE = 1.5
# a sentence introducing a table holds this many words at least
_SENTENCE_WORDS = 7
# a rule that closes a table is at least this share of its top rule's width
_AS_WIDE = 0.8
# rules in the page's bottom tenth rule off its footer, not a table under a caption (unless they
# close its last rows: :func:`_closes_last_rows`)
_FOOTER_BAND = 0.1
# a line of prose holds this many characters at least; a table's cell under a rule holds fewer
_PROSE_LINE = 40
# running text's edges are those this many long lines share at least
_SHARED_EDGES = 3
# a row's label, left of its row's long text cell, is shorter than this
_LABEL_CHARS = 30
# a caption line's pieces (math on another baseline) follow one another within half an em; a
# table's columns stand at least a column separation (LaTeX's 2 \tabcolsep, 1.2 em) apart
_RUN_ON_GAP = 0.5


def find_region(lines: Sequence[Line], rules: Sequence[Rule], page_bbox: BBox, caption_bbox: BBox) -> BBox | None:
    """The part of the page the table under the caption occupies, or ``None`` for none."""
    px0, ptop, px1, pbottom = page_bbox
    cx0, ctop, cx1, cbottom = caption_bbox
    rules = [rule for rule in rules if on_page(rule, page_bbox)]
    middle = (px0 + px1) / 2
    if cx1 <= middle + 10:
        span = (px0, middle)
    elif cx0 >= middle - 10:
        span = (middle, px1)
    else:
        span = (px0, px1)
    if span != (px0, px1) and _one_column(lines, middle):
        span = (px0, px1)  # a caption in one half (its label alone, "Table 1:") on a page of one column
    # a table printed above its caption: the caption's half, or the page where its rules cross
    upright = [rule for rule in rules if not rule.horizontal]
    above = _region_above(_column(lines, span), _crossing(rules, span), caption_bbox, upright)
    if above is not None:
        wide = [rule.y for rule in horizontal_rules(rules) if rule.x1 - rule.x0 >= 0.6 * (px1 - px0) and rule.x0 < middle < rule.x1]
        if all(any(abs(y - edge) < 1.5 for y in wide) for edge in (above[0] + 0.5, above[1] - 0.5)):  # top and bottom rules span the page
            span = (px0, px1)
        return (span[0], above[0], span[1], above[1])
    if span != (px0, px1) and (_crosses_middle(lines, rules, middle, cbottom) or _one_column(lines, middle)):
        span = (px0, px1)
    column = _column(lines, span)
    crossing = _crossing(rules, span)
    top = _after_caption(column, caption_bbox)
    # the table ends at the next caption, or at running text (a caption printed below its table, or none)
    limit = min((line.top - 0.5 for line in column if line.top > top and _CAPTION_START.match(line.text)), default=pbottom)
    limit = min(limit, _running_text(column, top, limit), _heading_under(column, top, limit, caption_bbox))
    inside = [line for line in column if top <= line.top and line.bottom <= limit]
    if not inside:
        return None
    footer = pbottom - _FOOTER_BAND * (pbottom - ptop)
    ruled = [rule for rule in crossing if top - 2 <= rule.y <= limit]
    kept = [rule for rule in ruled if rule.y <= footer]
    foot = [rule for rule in ruled if rule.y > footer]
    if kept and foot and _closes_last_rows(inside, kept[-1].y, foot[0].y):
        kept.append(foot[0])  # the table's bottom rule, set low on the page under its last rows
    below = _closing_rules(_as_wide(kept, upright), column, span)
    bottom = before_wide_gap(inside) + 0.5
    if len(below) >= 3 or (len(below) == 2 and below[-1].y - below[0].y > _HEADER_RULES):
        bottom = _unclosed_last_row(inside, below, below[-1].y + 0.5)
    return (span[0], top, span[1], bottom)


def _closes_last_rows(inside: Sequence[Line], last: float, y: float) -> bool:
    """Whether a rule in the page's bottom tenth at ``y`` is the table's bottom rule, not a
    footer's: the printed rows between the table's ``last`` rule over it and the rule are rows
    of cells (two pieces or more, none a line of prose, each under a cell of the rows over the
    rule: "Total | 84 | 164" after a midrule), and the rule sits within a row's height under
    the lowest. A footer's rule has the body's text or its notes over it (a line, or a note's
    mark and its sentence), set further off."""
    rows = printed_rows([line for line in inside if last < line.top and line.bottom <= y + 0.5])
    cells = [line for line in inside if line.bottom <= last]
    if not rows or not cells or y - rows[-1].bottom > rows[-1].height:
        return False
    return all(
        len(row.lines) >= 2
        and all(len(line.text) < _PROSE_LINE and any(line.x0 < cell.x1 and cell.x0 < line.x1 for cell in cells) for line in row.lines)
        for row in rows
    )


#: rules this many at least, evenly spaced, rule every row of a table
_ROW_RULES = 4
#: how far the space between two rules may stray from their usual spacing, as a share of it
_PITCH_SLACK = 0.25


def _unclosed_last_row(inside: Sequence[Line], rules: Sequence[Rule], bottom: float) -> float:
    """The bottom of a table ruled over every row, where the last row has no rule under it
    (``\\hline`` typed before each row and none after the last): its last rule is not its end.
    The rules stand a row apart (after the header's, which may be taller), and right under the
    last one, within that spacing, lie two cells or more that start where the cells of the row
    above start: the last row. A paragraph after the table is one line across the column."""
    ys = [rule.y for rule in rules]
    gaps = [b - a for a, b in zip(ys, ys[1:], strict=False)]
    if len(ys) < _ROW_RULES:
        return bottom
    pitch = statistics.median(gaps[1:])
    if pitch <= 0 or any(abs(gap - pitch) > _PITCH_SLACK * pitch for gap in gaps[1:]):
        return bottom
    row = [line for line in inside if ys[-1] < line.top and line.bottom <= ys[-1] + pitch]
    starts = [line.x0 for line in inside if ys[-2] < line.top and line.bottom <= ys[-1]]
    if len(row) < 2 or not all(any(abs(line.x0 - x0) <= 2 for x0 in starts) for line in row):
        return bottom
    return max(bottom, max(line.bottom for line in row) + 0.5)


def next_captions_table(lines: Sequence[Line], region: BBox, caption_bbox: BBox) -> bool:
    """Whether the table under a caption is the next caption's, printed above it: under the
    region's last line (and at most two lines more: its subcaption) comes a table caption,
    set much closer under them than the region's first line is under this caption (a page of
    captions set below their tables, each one hugging its own: the region under one caption
    is the next table's)."""
    x0, top, x1, bottom = region
    inside = [
        line
        for line in lines
        if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1
    ]
    if not inside:
        return False
    first = min(line.top for line in inside) - caption_bbox[3]
    last = max(line.bottom for line in inside)
    under = sorted((line for line in _column(lines, (x0, x1)) if line.top >= last - 0.5), key=lambda line: line.top)
    captions = [index for index, line in enumerate(under) if _TABLE_WORD.match(line.text) and _CAPTION_START.match(line.text)]
    if not captions or captions[0] > 2:
        return False  # no caption under the region, or text between (a table's subcaption is a line or two)
    above = under[captions[0] - 1].bottom if captions[0] else last
    return under[captions[0]].top - above < _HUGS * first


def hugs_lines_above(lines: Sequence[Line], region: BBox, caption_bbox: BBox) -> bool:
    """Whether the caption sits much closer under the lines over it than over the region's first
    line under it: LaTeX sets a caption under its table a caption skip below it and the text after
    the float a float's separation further down, where a caption over its table is set close over
    it. Then the table is the one over the caption (:func:`region_over_caption`), and the lines
    under it running text the float interrupted (a paragraph's last line, a display)."""
    x0, _, x1, bottom = region
    cx0, ctop, cx1, cbottom = caption_bbox
    beside = [line for line in lines if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1]
    under = [line.top for line in beside if line.top >= cbottom - 0.5 and line.bottom <= bottom + 1]
    # a table across the page may end in a row whose cells stand left or right of its centred caption;
    # a region of one column of two is no such table's (any short caption is narrow beside it, and a
    # line left of it, a display's or another float's, is no row of the table)
    text = [line for line in lines if not line.vertical]
    width = max(line.x1 for line in text) - min(line.x0 for line in text) if text else 0.0
    across = x1 - x0 > max(2 * (cx1 - cx0), _ACROSS * width)
    over = [line.bottom for line in beside if line.bottom <= ctop + 0.5 and (across or (line.x1 > cx0 and line.x0 < cx1))]
    if not under or not over:
        return False
    return ctop - max(over) < _HUGS_ABOVE * (min(under) - cbottom)


def body_margins(column: Sequence[Line]) -> list[tuple[float, float]]:
    """The left and right edges of the running text of a column: the most common edges of its
    long lines (where three of them share both), and any pair of edges three long lines share that spans most of a column of a
    two-column page (a span across such a page has one pair per column; a table's cells share
    a left edge, seldom a right one, and are narrower); empty where too few long lines tell.
    A long line beside a row's label (:func:`_beside_label`) is a cell of a justified text
    column (LaTeX's ``p{}``), which shares both edges with the column's other cells, not text."""
    long = [line for line in column if len(line.text) >= 40 and not line.parts]
    long = [line for line in long if not _beside_label(line, column)]
    if len(long) < 3:
        return []
    left = statistics.mode(round(line.x0) for line in long)
    right = statistics.mode(round(line.x1) for line in long)
    shared = sum(1 for line in long if -2 <= line.x0 - left <= 20 and abs(line.x1 - right) <= 3)
    margins = [(float(left), float(right))] if right - left > 100 and shared >= _SHARED_EDGES else []
    least = _TEXT_COLUMN * (max(line.x1 for line in long) - min(line.x0 for line in long))
    for (left, right), count in Counter((round(line.x0), round(line.x1)) for line in long).most_common():
        if count < _SHARED_EDGES:
            break
        if right - left > max(100, least) and not any(abs(left - x0) <= 2 and abs(right - x1) <= 3 for x0, x1 in margins):
            margins.append((float(left), float(right)))
    return margins


def _beside_label(line: Line, column: Sequence[Line]) -> bool:
    """Whether a short piece (a row's label) sits on the line's baseline left of it: the line is
    a table's cell. Beside a line of a two-column page's right column, the left column's line is
    long but for a paragraph's last line now and then (one line less to count)."""
    return any(
        other is not line and len(other.text) < _LABEL_CHARS and other.x1 <= line.x0 and abs(other.mid_y - line.mid_y) < 0.5 * line.height
        for other in column
    )


def prose_line(line: Line, margins: Sequence[tuple[float, float]]) -> bool:
    """A line of running text: words from a column's left margin (or a paragraph's indent) to
    its right one, set as one line (no gap wide enough to part cells)."""
    if not margins or len(line.text) < 40 or len(line.text.split()) < 7:
        return False
    return any(-2 <= line.x0 - left <= 20 and abs(line.x1 - right) <= 3 for left, right in margins)


def region_over_caption(lines: Sequence[Line], page_bbox: BBox, caption_bbox: BBox) -> BBox | None:
    """The box of an unruled table printed above its caption: the lines up from the caption,
    each close under the next, to running text, another caption, a larger type (a heading: not a
    formula's tall delimiter or sum sign, a glyph or two, nor a line outgrowing only the scripts
    of a formula taken so far: it outgrows the caption's type too) or a wide gap; ``None`` where
    fewer than two rows are there. A line in a larger type beside a cell in the table's is a cell
    of the table (metric symbols set in a larger font beside their commands, Teubner's), no
    heading; a row all in a larger type over notes in a smaller one is the table over them. A
    sentence set left of every line taken is running text (:func:`_sentence_left_of`)."""
    px0, ptop, px1, pbottom = page_bbox
    cx0, ctop, cx1, cbottom = caption_bbox
    middle = (px0 + px1) / 2
    span = (px0, middle) if cx1 <= middle + 10 else (middle, px1) if cx0 >= middle - 10 else (px0, px1)
    head = running_head(lines, page_bbox)
    over = [
        line
        for line in lines
        if not line.vertical and line.bottom <= ctop + 1 and line.top > ptop + 0.06 * (pbottom - ptop) and line.top > head
    ]
    near = [line for line in over if ctop - line.bottom < 40]
    if span != (px0, px1) and (any(line.x0 < middle - 2 and line.x1 > middle + 2 for line in near) or _one_column(lines, middle)):
        span = (px0, px1)  # a table across both columns over a caption in one, or a page of one column
    column = _column(over, span)
    margins = body_margins(_column(lines, span))
    taken: list[Line] = []
    gaps: list[float] = []
    edge = ctop  # the top of the row under the line looked at
    # a heading outgrows the caption's type too: the table's last lines may be its formulas' scripts
    caption_size = max(
        (line.size for line in lines if line.top >= ctop - 1 and line.bottom <= cbottom + 1 and cx0 - 1 <= line.x0), default=0.0
    )
    notes = _notes_over(column, ctop, caption_size)
    # the last part's sub-caption over the caption ("(b) Evidence counts ...") is the float's, not running text
    held = [] if notes else subcaption_over(column, ctop)
    if notes or held:
        edge = min(line.top for line in notes or held)
        column = [line for line in column if line.bottom <= edge + 1 and not any(line is mine for mine in notes or held)]
    for line in sorted(column, key=lambda line: -line.bottom):
        if _CAPTION_START.match(line.text):
            break
        if taken and line.mid_y > edge:
            taken.append(line)  # a cell of the row just taken
            continue
        # a script's pieces ("z {" over a metric foot, far smaller than the caption) are no lines of words
        worded = [other.size for other in taken if " " in other.text.strip() and other.size >= _SCRIPT_SHARE * caption_size]
        # the table's type is its lines of words': a formula's scripts ("i=1,...,n") and
        # delimiters tell nothing, and where only they are taken the caption's type stands in
        size = (
            statistics.median(worded)
            if worded
            else max(caption_size, statistics.median(other.size for other in taken) if taken else line.size)
        )
        gap = edge - line.bottom
        running = (
            (prose_line(line, margins) and (not taken or line.x0 <= min(line.x0 for line in taken) + 2))
            or _paragraph_end(line, margins, taken)
            or _last_line_under_prose(line, column, margins)
            or _sentence_left_of(line, taken)
        )
        # a cell in a larger type beside one in the table's (metric symbols beside their commands) is no heading
        heading = _outgrows(line, size) and not any(_beside(line, [other]) and not _outgrows(other, size) for other in column)
        # a numbered heading in bold, set in the text's type (article's \subsubsection), alone on its line
        heading = heading or (line.bold and _numbered_heading(line, column) and gap > max(gaps, default=0.0) + 1.0)
        if _CAPTION_START.match(line.text) or running or heading or gap > (3.0 if not taken else 2.5) * line.height:
            break
        if taken:
            gaps.append(gap)  # the space between two rows taken, under the caption's
        taken.append(line)
        edge = line.top
    rows = printed_rows(taken)
    if len(rows) < 2:
        return None
    return (span[0], min(line.top for line in taken) - 0.5, span[1], max(line.bottom for line in [*taken, *held]) + 0.5)


def _sentence_left_of(line: Line, taken: Sequence[Line]) -> bool:
    """A sentence that starts left of every line of the table under it (a paragraph of one line
    introducing a table set in from the margin by its column padding): running text, no row."""
    words = line.text.split()
    return (
        bool(taken)
        and line.x0 < min(other.x0 for other in taken) - 2.0
        and len(words) >= _SENTENCE_WORDS
        and line.text.rstrip().endswith((".", ":"))
    )


def _notes_over(column: Sequence[Line], ctop: float, caption_size: float) -> list[Line]:
    """The notes of a table set between it and its caption under it ("1. More than 2,000 ..."
    over "Table 5: ..."): the lines up from the caption, in a smaller type than its, each close
    under the next, that open a note with its mark at one left edge or go on from one at
    another (a hanging indent, or the same), each alone on its baseline, up to the highest line
    that opens a note; ``[]`` where the lines over the caption are no such notes. The table is
    over them."""
    block: list[Line] = []
    edge = ctop
    starts: dict[bool, float] = {}  # where the lines that open a note start, and where the others do
    for line in sorted((line for line in column if line.bottom <= ctop + 1), key=lambda line: -line.bottom):
        if line.size >= _NOTE_SIZE * caption_size or edge - line.bottom > _NOTE_GAP * line.height:
            break
        opens = _NOTE_MARK.match(line.text) is not None
        if abs(starts.setdefault(opens, line.x0) - line.x0) > _NOTE_EDGE:
            break
        if any(other is not line and abs(other.mid_y - line.mid_y) < 0.5 * line.height for other in column):
            break  # a line beside another is a table's row ("1. | Aspirin | 12"), not a note's line
        block.append(line)
        edge = line.top
    while block and not _NOTE_MARK.match(block[-1].text):
        block.pop()  # the notes end (at their top) with a line that opens one
    return block


def _paragraph_end(line: Line, margins: Sequence[tuple[float, float]], taken: Sequence[Line]) -> bool:
    """The last line of a paragraph over a table set in from the text's margin: words from the
    left margin that end a sentence, left of every row taken (a short line, which
    :func:`prose_line` does not tell from a row)."""
    if not taken or len(line.text.split()) < 2 or not line.text.rstrip().endswith((".", ":", "?", "!")):
        return False
    on_margin = any(abs(line.x0 - left) <= 2 for left, _ in margins)
    return on_margin and min(other.x0 for other in taken) > line.x0 + 2 * line.size


def _last_line_under_prose(line: Line, column: Sequence[Line], margins: Sequence[tuple[float, float]]) -> bool:
    """The last line of a paragraph over a table set close to the text's margin: a line alone on
    its baseline that ends a sentence, a line's pitch under a line of running text that starts at
    its left edge (the paragraph's line over it); a table's row has its cells beside it, or
    starts where its table does, a column's padding in from the text."""
    if not line.text.rstrip().endswith((".", ":", "?", "!")) or _beside(line, column):
        return False
    return any(
        prose_line(other, margins) and abs(other.x0 - line.x0) <= 1.0 and 0 < line.top - other.top <= _PROSE_PITCH * line.height
        for other in column
    )


def _outgrows(line: Line, size: float) -> bool:
    """A line in a larger type than the table's ``size``: a heading, not a formula's tall
    delimiter, integral or sum sign (a glyph or two)."""
    return line.size > 1.15 * size and len(line.text.replace(" ", "")) > 2


def _heading_under(column: Sequence[Line], top: float, limit: float, caption_bbox: BBox) -> float:
    """Where a heading under the table starts: a line in a larger type than both the table's lines
    of words taken so far and the caption (:func:`_outgrows`, as over a caption). A section's
    number set in the margin (Bioconductor's, the Journal of Statistical Software's) stands left
    of every cell, so the text under the heading is never taken for running text that ends the
    table, and the heading's own rule for the table's last. A heading stands alone on its line (its
    number left of it); a tall header cell ("(μg/ml)") has the header's other cells beside it. A
    numbered heading first under the caption, larger than it, leaves no table there: the caption
    is under its own table, and the next section begins (:func:`_numbered_heading`)."""
    cx0, ctop, _, cbottom = caption_bbox
    caption_size = max(
        (line.size for line in column if line.top >= ctop - 1 and line.bottom <= cbottom + 1 and cx0 - 1 <= line.x0), default=0.0
    )
    worded: list[float] = []
    for line in column:
        if not top <= line.top < limit:
            continue
        if worded and _outgrows(line, max(caption_size, statistics.median(worded))) and not _beside(line, column):
            return line.top - 0.5
        if not worded and _numbered_heading(line, column) and _outgrows(line, caption_size):
            return line.top - 0.5
        if " " in line.text.strip():
            worded.append(line.size)
    return limit


def _numbered_heading(line: Line, column: Sequence[Line]) -> bool:
    """Whether ``line`` is a numbered section heading standing alone on its line ("11 Test
    Cases"): its number its first piece or a line of its own left of it, words after it. A
    table's first row is set in the table's type, never larger than its caption's."""
    pieces = [part.text.strip() for part in line.parts or ()]
    numbered = len(pieces) >= 2 and _SECTION_NUMBER.fullmatch(pieces[0]) is not None
    margin = any(
        other.x1 <= line.x0 and other.top < line.bottom and other.bottom > line.top and _SECTION_NUMBER.fullmatch(other.text.strip())
        for other in column
    )
    return (numbered or margin) and any(character.isalpha() for character in line.text) and not _beside(line, column)


def _beside(line: Line, column: Sequence[Line]) -> bool:
    """Whether another line shares ``line``'s height: a cell beside it, where a heading stands
    alone on its line but for its number left of it ("7", "A.2")."""
    return any(
        other is not line
        and other.top < line.bottom
        and other.bottom > line.top
        and not (other.x1 <= line.x0 and _SECTION_NUMBER.fullmatch(other.text.strip()))
        for other in column
    )


def _running_text(column: Sequence[Line], top: float, limit: float) -> float:
    """Where running text starts under ``top``: a line across the column's text from at least as
    far left as every line above it (a table's long text cell sits right of its row labels)."""
    margins = body_margins(column)
    left = None
    for line in column:
        if not top <= line.top < limit:
            continue
        if prose_line(line, margins) and (left is None or line.x0 <= left + 2):
            return line.top  # not under it: the last row's box may reach into the text's by a fraction of a point
        left = line.x0 if left is None else min(left, line.x0)
    return limit


def _as_wide(rules: list[Rule], upright: Sequence[Rule] = ()) -> list[Rule]:
    """The rules as wide as the first (the table's top rule) or nearly: a rule over some of the
    columns (under a label that spans them) closes nothing, nor does one of a figure or an
    algorithm set in one column of the page under a table across both (its notes between). A
    pair of rules of one extent reaching past either end of the top rule, the last under the
    caption, is none of the table's (every rule of a table lies within its top rule's width):
    they are the top and bottom sides of a shaded box under it (a code listing's). Rules across
    the page between the parts of a table split under one caption (AASTeX's) are three or more
    with its bottom rule, and stay. Nor is a rule reaching past it that closes a frame over it
    (:func:`~.table_frames.box_bottom`, of the page's ``upright`` rules: a code listing framed at its sides and
    foot alone), nor any rule under that one."""
    if not rules:
        return rules
    width = rules[0].x1 - rules[0].x0
    reach = _PAST_BOTTOM * width + 2.0
    past = [rule.x0 < rules[0].x0 - reach or rule.x1 > rules[0].x1 + reach for rule in rules]
    # a box's top and bottom sides (one extent), the last rules under the caption
    box = (
        len(rules) >= 3
        and past[-2:] == [True, True]
        and not past[-3]
        and abs(rules[-2].x0 - rules[-1].x0) <= 2
        and abs(rules[-2].x1 - rules[-1].x1) <= 2
    )
    end = len(rules) - 2 if box else len(rules)
    end = min([end, *(index for index in range(1, len(rules)) if past[index] and box_bottom(rules[index], upright))])
    return [rule for rule in rules[:end] if rule.x1 - rule.x0 >= _AS_WIDE * width]


def _closing_rules(rules: list[Rule], column: Sequence[Line], span: tuple[float, float]) -> list[Rule]:
    """The rules under a caption down to the table's last: rules further down, past lines of
    running text (two or more across most of the column), belong to what follows (a figure)."""
    wide = 0.7 * (span[1] - span[0])
    for index in range(1, len(rules)):
        between = [line for line in column if rules[index - 1].y < line.top and line.bottom < rules[index].y and line.x1 - line.x0 >= wide]
        if len(between) >= 2:
            return rules[:index]
    return rules


def _column(lines: Sequence[Line], span: tuple[float, float]) -> list[Line]:
    """The horizontal lines whose middle falls in ``span``, top to bottom."""
    return sorted(
        (line for line in lines if not line.vertical and span[0] <= (line.x0 + line.x1) / 2 <= span[1]),
        key=lambda line: (line.top, line.x0),
    )


def _crossing(rules: Sequence[Rule], span: tuple[float, float]) -> list[Rule]:
    """Horizontal rules across at least 30 % of ``span``, top to bottom."""
    width = span[1] - span[0]
    return [rule for rule in horizontal_rules(rules) if rule.x1 - rule.x0 >= 0.3 * width and rule.x0 < span[1] and rule.x1 > span[0]]


def _region_above(
    column: Sequence[Line], rules: Sequence[Rule], caption_bbox: BBox, upright: Sequence[Rule] = ()
) -> tuple[float, float] | None:
    """(top, bottom) of a table printed above its caption (ACL, arXiv styles): its bottom rule
    sits just over the caption, and rules up from there, with no caption between, close it
    (no box closed over it either: ``upright``, the page's upright rules, :func:`_rule_chain`)."""
    caption_top = caption_bbox[1]
    over = [rule for rule in rules if rule.y < caption_top]
    heights = [line.height for line in column if abs(line.top - caption_top) < 1.0]
    if not over or not heights or not _closes_over(over[-1], caption_bbox, min(heights), column, rules):
        return None
    chain = _rule_chain(column, over, upright)
    if len(chain) < 2 or _captioned_above(column, chain[-1].y, over):
        return None
    held = sum(1 for line in column if chain[-1].y < line.top and line.bottom < chain[0].y)
    if held < 2:
        return None  # rules with no rows between them: a running head's double rule, not a table
    # a last row's line whose box reaches past the bottom rule (a formula's tall brackets) is the table's
    # (not a line that runs on under the caption: a watermark drawn across the page)
    straddling = [line.bottom for line in column if chain[-1].y < line.top < chain[0].y - _OVER_RULE and line.bottom < caption_top]
    return _header_over(column, chain[-1]), max([chain[0].y, *straddling]) + 0.5


def _header_over(column: Sequence[Line], top_rule: Rule) -> float:
    """The top of a table whose topmost rule is its header's underline (``\\hline`` under the
    header and no rule over it, Teubner's tables; a float's own rule over them all reaches
    past the table's): the header's cells, two or more on one line within the rule's width, set
    less than a line's height over it, are the table's; else the rule is its top."""
    over = [
        line
        for line in column
        if line.bottom <= top_rule.y + 0.5
        and top_rule.y - line.bottom < line.height
        and top_rule.x0 - 2 <= line.x0
        and line.x1 <= top_rule.x1 + 2
    ]
    if len(over) < 2 or any(_CAPTION_START.match(line.text) for line in over):
        return top_rule.y - 0.5
    return min(line.top for line in over) - 0.5


def _rule_chain(column: Sequence[Line], over: Sequence[Rule], upright: Sequence[Rule] = ()) -> list[Rule]:
    """The rules of the table whose bottom rule is the last of ``over`` (top to bottom), bottom
    first: up from it while no caption stands between two of them, nor, where two are far
    apart, running text (lines across most of the rule: a long table's rows between its header
    rule and a rule over its last group are cells, cut at their gaps). A rule reaching past
    either end of the bottom rule is no rule of its table (every rule of a table lies within its
    bottom rule's width): it is the side of a shaded box over it (a code listing's), and so is
    the bottom of a box closed over the table (:func:`~.table_frames.box_bottom`, of the ``upright`` rules)."""
    chain = [over[-1]]
    bottom = over[-1]
    reach = _PAST_BOTTOM * (bottom.x1 - bottom.x0) + 2.0
    for rule in reversed(over[:-1]):
        between = [line for line in column if rule.y < line.top and line.bottom < chain[-1].y]
        if any(_CAPTION_START.match(line.text) for line in between):
            break
        if rule.x0 < bottom.x0 - reach or rule.x1 > bottom.x1 + reach or box_bottom(rule, upright):
            break
        wide = _TEXT_ACROSS * (rule.x1 - rule.x0)
        if chain[-1].y - rule.y > _RULE_REACH and sum(1 for line in between if line.x1 - line.x0 >= wide) >= 2:
            break
        chain.append(rule)
    return chain


def _closes_over(rule: Rule, caption_bbox: BBox, height: float, column: Sequence[Line], rules: Sequence[Rule]) -> bool:
    """Whether ``rule``, the lowest over a caption (its first line ``height`` tall), is the bottom
    rule of the table the caption closes: within :data:`_ABOVE_GAP` over it, or within
    :data:`_ABOVE_LINES` of its line heights where no rule sits as close under the caption's
    last line (:func:`_after_caption`: a caption over its own table has its top rule there)."""
    gap = caption_bbox[1] - rule.y
    if gap <= _ABOVE_GAP:
        return True
    under = _after_caption(column, caption_bbox)
    return gap <= _ABOVE_LINES * height and not any(under - 1.0 < other.y < under + gap for other in rules)


def _closes_table_above(column: Sequence[Line], caption: Line, rules: Sequence[Rule]) -> bool:
    """Whether a caption sits just under a table's bottom rule, and that table has no caption
    over it: the caption is that table's, printed under it."""
    over = [rule for rule in rules if rule.y <= caption.top]
    if not over or not _closes_over(over[-1], (caption.x0, caption.top, caption.x1, caption.bottom), caption.height, column, rules):
        return False
    chain = _rule_chain(column, over)
    return len(chain) >= 2 and not _captioned_above(column, chain[-1].y)


def _captioned_above(column: Sequence[Line], top_rule: float, rules: Sequence[Rule] = ()) -> bool:
    """A caption's line (or the first of two) just over a table's top rule: the table is that
    caption's, set under it, not the one printed above the next caption (Hindawi sets each
    caption over its table). A sentence that opens with "Table 2 shows" is no caption, nor is
    a figure's (its figure is above it), nor a caption set just under the bottom rule of a
    table with no caption over it (``rules``): it closes that table, printed under it (JSS sets
    each caption under its table, the next table close under it)."""
    for line in column:
        if line.bottom <= top_rule + 1 and top_rule - line.bottom < _ABOVE_GAP + 1.5 * line.height:
            match = _CAPTION_START.match(line.text)
            rest = line.text[match.end() :].lstrip() if match else ""
            closes = bool(rules) and _closes_table_above(column, line, rules)
            if match and _TABLE_WORD.match(line.text) and (not rest or rest[0] in ".:|—–-" or rest[0].isupper()) and not closes:
                return True
    return False


def _crosses_middle(lines: Sequence[Line], rules: Sequence[Rule], middle: float, caption_bottom: float) -> bool:
    """A one-column page: text or rules just under the caption run across the page's middle."""
    near = caption_bottom + 80
    return any(line.x0 < middle - 2 and line.x1 > middle + 2 and caption_bottom < line.top < near for line in lines) or any(
        rule.horizontal and rule.x0 < middle - 20 and rule.x1 > middle + 20 and caption_bottom < rule.y < near for rule in rules
    )


def _one_column(lines: Sequence[Line], middle: float) -> bool:
    """A page set in one column: most of its lines of running text run across its middle (a
    table's cells, cut at their gaps, need not: columns 120 pt apart leave the middle clear)."""
    long = [line for line in lines if not line.vertical and len(line.text) >= 40 and not line.parts]
    return len(long) >= 3 and sum(1 for line in long if line.x0 < middle - 2 and line.x1 > middle + 2) >= 0.6 * len(long)


def _after_caption(column: Sequence[Line], caption_bbox: BBox) -> float:
    """Where the table starts: under the caption's continuation lines (same left edge, same
    size, or the same line height where a font reports another size, close under the line
    above, alone on their baseline: a row of cells is the header; not in bold under a caption
    set in none: that is the header's row, "Relative path appears as ..." in irace's). A caption of its label alone
    ("Table 1", APA's bold label over its italic title; IEEE's centred "TABLE I" over its title)
    goes on with its title a blank line or two under it: alone on its line, on the label's left
    edge or centred under it (:func:`_titled`)."""
    cx0, ctop, cx1, cbottom = caption_bbox
    caption = [line for line in column if line.top >= ctop - 1 and line.bottom <= cbottom + 1]
    header = _header_in_caption(caption)
    if header is not None:
        return header.top - 0.5
    size = statistics.median(line.size for line in caption) if caption else None
    height = statistics.median(line.height for line in caption) if caption else None
    titled = bool(caption) and bool(_LABEL_ALONE.match(" ".join(line.text for line in caption)))
    top, previous = cbottom + 0.5, cbottom
    accepted: list[Line] = []
    for line in column:
        if line.top < cbottom - 1:
            continue
        run = _run_on(line, column)
        alone = not any(other not in run and abs(other.top - line.top) < 0.5 * line.height and other.x0 > line.x1 for other in column)
        if titled:
            titled = False
            if alone and _titled(line, caption_bbox, previous):
                top, previous = line.bottom + 0.5, line.bottom
                continue
        continues = (
            abs(line.x0 - cx0) <= 2.5
            and line.top - previous <= 0.6 * line.height
            and (size is None or abs(line.size - size) <= 0.6 or (height is not None and abs(line.height - height) <= 0.3))
            and alone
            and not (line.bold and caption and not any(mine.bold for mine in caption))
        )
        if not continues:
            if any(line in _run_on(last, column) for last in accepted):
                continue  # a piece of a caption line taken already (its math, set on another baseline)
            break
        accepted.append(line)
        bottom = max(piece.bottom for piece in run)
        top, previous = bottom + 0.5, bottom
    return top


def _header_in_caption(caption: Sequence[Line]) -> Line | None:
    """The table's header row where the caption's block took it in (set close under a caption
    of one line): a line under the caption's first whose words stand apart by more than an em
    twice or more, as cells do ("Key Drivers    MODULES    Pvalues    FDRs", under "Table 2:
    Summary result of wKDA"); a caption's own lines space their words as prose does."""
    lines = sorted(caption, key=lambda line: line.top)
    for line in lines[1:]:
        words = line.words or []
        gaps = [b[1] - a[2] for a, b in zip(words, words[1:], strict=False)]
        if line.top >= lines[0].bottom - 1 and sum(1 for gap in gaps if gap > line.size) >= _HEADER_GAPS:
            return line
    return None


#: a line with this many gaps wider than an em at least is a row of cells
_HEADER_GAPS = 2


def _run_on(line: Line, column: Sequence[Line]) -> list[Line]:
    """``line`` and the pieces that go on from it on its baseline within a word space or so
    (:data:`_RUN_ON_GAP` of its size): a caption line cut where math is set on another baseline
    ("... eigenvalues is ∑" | "k" | "λk (this is ...)"), no cells of a header row beside it."""
    run, end = [line], line.x1
    beside = sorted(
        (
            other
            for other in column
            if other is not line and other.x0 >= line.x1 - 1 and line.top <= (other.top + other.bottom) / 2 <= line.bottom
        ),
        key=lambda other: other.x0,
    )
    for other in beside:
        if other.x0 - end > _RUN_ON_GAP * line.size:
            break
        run.append(other)
        end = max(end, other.x1)
    return run


def _titled(line: Line, caption_bbox: BBox, previous: float) -> bool:
    """Whether ``line`` is the title under a caption of its label alone: words, no wider gap
    between its words than its own spaces (no row of cells), on the label's left edge or
    centred under it, at most :data:`_TITLE_GAP` line heights under it."""
    cx0, _, cx1, _ = caption_bbox
    placed = abs(line.x0 - cx0) <= 2.5 or abs((line.x0 + line.x1) / 2 - (cx0 + cx1) / 2) <= 2.5
    words = sum(1 for word in line.text.split() if any(ch.isalpha() for ch in word))
    return placed and words >= 2 and not line.parts and line.top - previous <= _TITLE_GAP * line.height
