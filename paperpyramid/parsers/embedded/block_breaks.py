"""Lines to blocks: where one block ends and the next begins.

A block is cut where the column, the font size, the weight or the face changes, at a gap wider
than the leading, and where an indented line follows a finished sentence; a heading's title
wrapped onto a second line, a caption's bold title going on into its text and a bold citation
number inside a sentence keep their block whole. :func:`.blocks.classify` then says what each
block is.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded.blocks import KNOWN_HEADINGS, NUMBERED_RUN_IN, NUMBERING, Block, caption_start, ends_sentence
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.displays import DISPLAY
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.lead_ins import OPEN_ENDINGS, styled_lead
from paperpyramid.parsers.embedded.raised import joined_raised
from paperpyramid.parsers.reference_headings import is_reference_heading

#: what a bold number going on with a sentence holds: a citation's bracket, or closing punctuation
_CITED_NUMBER = re.compile(r"[\[\]()]|[.,;:!?]\s*$")


def split_blocks(lines: list[Line], body_size: float) -> list[Block]:
    """Cut a reading-ordered list of lines (one page) into blocks."""
    blocks: list[Block] = []
    current: list[Line] = []
    for line in _rejoin_justified(lines):
        if current and _starts_block(current[-1], line, current, body_size):
            blocks.append(Block(current))
            current = []
        current.append(line)
    if current:
        blocks.append(Block(current))
    return blocks


def _rejoin_justified(lines: list[Line]) -> list[Line]:
    """A paragraph's line that a stretched sentence space cut in two ("tems.   Recent Transformer
    language mod-" in a narrow justified column: ACL's abstracts) is one line again. Read as a row
    of two cells, it cut the paragraph into three blocks, and the abstract lost all but its first
    sentence. The two pieces share a baseline and a face, the first ends a sentence and the second
    opens one, and together they fill the width of the paragraph's line over or under them to the
    point, as a justified line does; a table's cells seldom end and open sentences and fill
    another line's width exactly."""
    out: list[Line] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        after = lines[index + 1] if index + 1 < len(lines) else None
        if after is not None and _justified_halves(line, after, lines[index - 1] if index else None, lines[index + 2 : index + 3]):
            line.text = f"{line.text} {after.text}"
            line.x1, line.bottom = after.x1, max(line.bottom, after.bottom)
            line.raised = joined_raised(line.raised, after.raised)  # the second half's superscript marks too
            line.tags.discard("row")
            index += 1
        out.append(line)
        index += 1
    return out


def _justified_halves(first: Line, second: Line, above: Line | None, below: list[Line]) -> bool:
    if not ("row" in first.tags and "row" in second.tags) or (first.page, first.column) != (second.page, second.column):
        return False
    size = first.size
    if abs(first.top - second.top) > 0.3 * size or abs(first.size - second.size) > 0.1 * size or first.font != second.font:
        return False
    if not (0 < second.x0 - first.x1 <= _SENTENCE_GAP * size) or not re.search(r"[.!?]$", first.text) or not second.text[:1].isupper():
        return False
    # the row is these two pieces alone, and a whole line of the paragraph spans what they span
    neighbours = [line for line in [above, *below] if line is not None]
    if any(abs(line.top - first.top) <= 0.3 * size for line in neighbours):
        return False
    tolerance = _EDGE * size
    return any(
        "row" not in line.tags
        and line.column == first.column
        and abs(line.x0 - first.x0) <= tolerance
        and abs(line.x1 - second.x1) <= tolerance
        for line in neighbours
    )


#: the widest stretched sentence space (ems), and how far a justified line's edges may lie from
#: its neighbour's (ems: a hyphen or a full stop hangs a little into the margin in some classes)
_SENTENCE_GAP, _EDGE = 3.0, 0.25


def _starts_block(prev: Line, line: Line, current: list[Line], body_size: float) -> bool:
    if line.column != prev.column or line.page != prev.page or DISPLAY in line.tags or DISPLAY in prev.tags:
        return True  # a display row found from layout is a block of its own
    if _code_ends_heading(prev, line, current):
        return False
    if abs(line.size - prev.size) > max(0.6, body_size * 0.07):
        return True
    if (line.bold != prev.bold or line.font != prev.font) and _caption_goes_on(prev, line, current):
        return False
    if line.bold != prev.bold and not _bold_number_goes_on(prev, line):
        return True
    if ("row" in line.tags) != ("row" in prev.tags):
        return True
    if len(current) == 1 and _bare_heading(prev.text):
        return True  # "References" alone on its line, whatever its style
    if _capitals_then_title(prev, line, body_size):
        return True  # a heading in capitals over one in title case: two levels of heading
    if len(current) == 1 and _first_subsection(prev, line):
        return True
    if line.font != prev.font and len(current) == 1 and len(prev.text) < 80 and not ends_sentence(prev.text):
        return True  # a heading set in its own face, same size and weight as the body
    gap = line.top - prev.bottom
    if _heading_goes_on(prev, line, current, gap):
        return False
    if gap > max(line.size, prev.size) * 0.55:
        return True
    if gap < -prev.height * 0.5:
        return True  # same row: table cells
    if (line.bold_prefix >= 2 and not line.bold or styled_lead(line) or NUMBERED_RUN_IN.match(line.text)) and ends_sentence(prev.text):
        return True  # run-in heading (see .run_in)
    if NUMBERED_RUN_IN.match(line.text) and line.x0 > prev.x0 + line.size * 0.8:
        return True  # the same after a display or a list, indented as a paragraph opens ("9.3. Dots. Normally …")
    left = min(item.x0 for item in current)
    indented = line.x0 > left + line.size * 0.8 and ends_sentence(prev.text)
    # a first-line indent after a finished sentence; not a centred or hanging line
    if indented and line.x1 >= max(item.x1 for item in current) - line.size * 2:
        return True
    return bool(caption_start(line.text) and ends_sentence(prev.text))


def _first_subsection(prev: Line, line: Line) -> bool:
    """A numbered heading's line right over its first subsection's, in the same type: "2 What are
    widows and orphans?" over "2.1 Widows" (TUGboat sets both levels bold at the body's size, a
    leading apart). The lower number extends the upper one, which a title wrapped onto a second
    line does not."""
    upper, lower = NUMBERING.match(prev.text), NUMBERING.match(line.text)
    if upper is None or lower is None or not prev.bold:
        return False
    return lower.group("num").rstrip(".").startswith(upper.group("num").rstrip(".") + ".")


def _bold_number_goes_on(prev: Line, line: Line) -> bool:
    """Whether a line bold for a number alone, no letter ("[5]).", SMF's and some AMS classes'
    citation numbers set in bold), goes on with the sentence the plain line over it leaves open
    ("… in display style (see"): the bold of a number is no heading's. A citation's bracket or
    the sentence's closing punctuation must be in it: a bold number bare ("4") is a heading's or
    a table's, whatever the line over it leaves open."""
    return (
        line.bold
        and not prev.bold
        and not any(ch.isalpha() for ch in line.text)
        and _CITED_NUMBER.search(line.text) is not None
        and not ends_sentence(prev.text)
    )


def _heading_goes_on(prev: Line, line: Line, current: list[Line], gap: float) -> bool:
    """Whether a bold heading's first line, cut short at a hyphen or an open word ("Method 3: The
    Generalized Harmonic Mean Estimator of the Marginal Likeli-", "… Implementation of the"), goes on
    to the bold line under it. Its lines are a leading apart that may be wider than a paragraph's
    gap: a bold face's boxes may be a fifth shorter than the body's, whose baseline skip spaces
    them (the bridge sampling tutorial, apa6)."""
    if len(current) != 1 or not (prev.bold and line.bold) or not 0 <= gap < line.height:
        return False
    text = prev.text.rstrip()
    words = text.split()
    return bool(words) and (text.endswith("-") or words[-1].lower() in OPEN_ENDINGS)


#: the most characters of a heading's last line set in a typewriter face ("require {\\tt rgeos}")
_CODE_WORDS = 40


def _code_ends_heading(prev: Line, line: Line, current: list[Line]) -> bool:
    """A numbered bold heading whose title wraps onto a line that holds only a word of code:
    "4 Lines, and Polygon-Polygon overlays require" over "rgeos" in typewriter, not bold, its
    boxes of another height. The line hangs under the title, past the number, at the heading's
    line pitch; a code listing under a heading starts at the margin, further down."""
    if not prev.bold or line.bold or len(current) > 2 or len(line.text) > _CODE_WORDS or not MONOSPACE_FONT.search(line.font):
        return False
    if ends_sentence(prev.text) or not NUMBERING.match(current[0].text) or "row" in line.tags:
        return False
    hangs = prev.x0 + 0.5 * prev.size < line.x0 < prev.x0 + 4 * prev.size
    return hangs and line.top > prev.top and line.bottom - prev.bottom <= 1.6 * prev.height


def _caption_goes_on(prev: Line, line: Line, current: list[Line]) -> bool:
    """A caption's bold title wrapping into its plain text: "Figure 1. Structures of a
    fluorescence reporter and a mosquito" (all bold) over "oviposition pheromone. N-phenyl-…"
    (bold up to its full stop), "Fig 1. … Steps 1 to 4 (painted in" over "grey) were …". The
    next line, a line's gap below, goes on with the caption where the title's line ends no
    sentence or the bold goes on into it, and starts at the caption's left edge (or a label's
    width in); not a table's head under its caption: a row, a bold line under a plain one
    ("Household income" over the columns it spans, set in from the caption's edge)."""
    if "row" in line.tags or "row" in prev.tags or (line.bold and not prev.bold) or not caption_start(current[0].text):
        return False
    if ends_sentence(prev.text) and line.bold_prefix == 0:
        return False
    gap, left = line.top - prev.bottom, min(item.x0 for item in current)
    return -prev.height * 0.5 <= gap <= max(line.size, prev.size) * 0.55 and left - line.size <= line.x0 <= left + 4 * line.size


def _capitals_then_title(prev: Line, line: Line, body_size: float) -> bool:
    """A short line in capitals over a short line in mixed case, both in heading type (larger than
    the body, or bold): "BACTERIAL ACC-DEAMINASE" over "Discovery and Occurrence"."""
    if not (prev.bold or prev.size > body_size * 1.1) or not (line.bold or line.size > body_size * 1.1):
        return False
    if len(prev.text) > 100 or len(line.text) > 100 or ends_sentence(prev.text) or prev.text.rstrip().endswith((",", "-")):
        return False
    above = [ch for ch in prev.text if ch.isalpha()]
    below = [ch for ch in line.text if ch.isalpha()]
    if len(above) < 4 or len(below) < 4:
        return False
    return sum(ch.isupper() for ch in above) >= 0.9 * len(above) and sum(ch.islower() for ch in below) >= 0.5 * len(below)


def _bare_heading(text: str) -> bool:
    plain = re.sub(r"^(\d{1,2}(\.\d{1,2})*\.?|[IVX]{1,5}\.)\s+", "", text.strip()).rstrip(" .:").lower()
    return plain in KNOWN_HEADINGS or is_reference_heading(plain)
