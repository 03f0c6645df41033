"""Characters to lines: the geometric layer of the embedded parser.

pdfium gives each character its box and font; this module walks a page's characters
in content order once and cuts them into :class:`Line` runs: a new line starts where
pdfium breaks the line, where the baseline moves, where the text jumps backwards, or
where a horizontal gap is wide enough to be a column gutter or a table cell border.
Rotated text (arXiv side stamps, turned table headers) is set aside.
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from paperpyramid.parsers.embedded.accents import compose_accents
from paperpyramid.parsers.embedded.bidi import logical, visual_order
from paperpyramid.parsers.embedded.char_runs import CharRun, read_runs, turn_box
from paperpyramid.parsers.embedded.clipped import address, clipped_chars, hidden_objects
from paperpyramid.parsers.embedded.glyphs import GlyphMap, read_page
from paperpyramid.parsers.embedded.table_spaces import THIN_SPACE, thin_spaced
from paperpyramid.text_clean import plain_unicode


@dataclass(slots=True)
class Line:
    """A run of characters on one baseline, with its font statistics."""

    text: str
    page: int  # 1-based
    x0: float
    top: float
    x1: float
    bottom: float
    size: float  # dominant font size in points
    bold: bool  # most letters bold
    italic: bool
    font: str
    bold_prefix: int = 0  # number of leading characters set in bold (run-in headings)
    italic_prefix: int = 0  # number of leading characters set in italics (run-in headings of some journals)
    vertical: bool = False
    # filled by later passes
    column: int = 0
    tags: set[str] = field(default_factory=set)
    # read with ``extract_page(split_numbers=True)``: its words with their edges, and the line
    # cut around its numbers
    words: list[tuple[str, float, float]] | None = None
    parts: list[Line] | None = None

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def mid_y(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass(slots=True)
class LineGroup:
    """Lines taken together (a block, a band of one baseline), with the box they fill."""

    lines: list[Line]

    @property
    def x0(self) -> float:
        return min(line.x0 for line in self.lines)

    @property
    def x1(self) -> float:
        return max(line.x1 for line in self.lines)

    @property
    def top(self) -> float:
        return min(line.top for line in self.lines)

    @property
    def bottom(self) -> float:
        return max(line.bottom for line in self.lines)


@dataclass(slots=True)
class Page:
    number: int  # 1-based
    width: float
    height: float
    lines: list[Line]
    n_chars: int
    n_images: int
    invisible_text: bool = False  # an OCR layer: text drawn in render mode 3 over a scan
    turn: int = 0  # the quarter turn (90, 270) that set a sideways page upright; boxes are on the turned page
    runs: list[CharRun] = field(default_factory=list, repr=False, compare=False)  # the lines as read, for :func:`table_lines`


def extract_page(
    page: pdfium.PdfPage,
    number: int,
    *,
    split_numbers: bool = False,
    glyphs: GlyphMap | None = None,
    numbering: LineNumbering | None = None,
) -> Page:
    """Read one page's characters into lines (top-left origin).

    ``split_numbers`` (the table engine's reading) also gives every line its ``words`` with
    their edges and, where a space before or after a number cuts it, its ``parts``
    ("SciBERT on co-view 83.0 84.2" -> "SciBERT on co-view", "83.0", "84.2"), each with its
    own box: tight tables set numeric columns a space apart.

    ``glyphs`` reads the glyphs of fonts without a Unicode map as the text learnt for them
    (:mod:`.glyphs`).

    ``numbering`` carries a review copy's line-number columns from the document's pages read
    before this one (:class:`LineNumbering`): a page with too few numbers to show a column of
    its own (a table or a figure fills it) loses them too. This is the one place line numbers
    leave the text: the table engine and the reading order get the page without them.
    """
    width, height = user_size(page)
    textpage = page.get_textpage()
    raw = textpage.raw
    n = pdfium_c.FPDFText_CountChars(raw)
    if n <= 0:
        return Page(number, width, height, [], 0, _count_images(page))
    chars, scales = _page_chars(textpage, n, glyphs)
    if hidden := clipped_chars(page, textpage, n):  # copies a clipping path hides (MDPI's drafts)
        chars = [("" if index in hidden else ch) for index, ch in enumerate(chars)]
    order = visual_order(raw, chars)
    turn = text_turn(raw, n)  # a page set sideways (a landscape table): read it turned upright
    runs = read_runs(raw, chars, order or range(n), order is not None, (width, height), turn, scales)
    marks = [] if turn else line_number_marks(runs, height)
    if numbering is not None and not turn:
        marks += numbering.continued(runs, height, marks)
        numbering.learn(marks)
    if marks:  # a review copy: read the page again without its line numbers
        chars = _blank_marks(raw, chars, marks, (width, height), turn)
        runs = read_runs(raw, chars, order or range(n), order is not None, (width, height), turn, scales)
    lines = _lines(runs, number, split_numbers)
    n_images = _count_images(page) if len(lines) < 3 else 0
    invisible = _invisible(raw, n)
    if turn:
        width, height = height, width
    return Page(number, width, height, lines, n, n_images, invisible, turn, runs)


def _page_chars(textpage: pdfium.PdfTextPage, n: int, glyphs: GlyphMap | None) -> tuple[str | list[str], dict[int, float]]:
    """The page's characters, one per pdfium index, with each spacing accent joined to its
    letter, and the box scale of each read through OCR (``glyphs``)."""
    raw = textpage.raw
    text = textpage.get_text_range(0, n)
    if len(text) != n:  # surrogate pairs make text and char indices disagree; read it per character
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(raw, i)) for i in range(n))
    chars: str | list[str] = text
    scales: dict[int, float] = {}
    if glyphs:
        chars, scales = read_page(textpage, glyphs)
    return compose_accents(raw, chars) or chars, scales


def _lines(runs: list[CharRun], number: int, split_numbers: bool) -> list[Line]:
    lines = []
    for run in runs:
        if split_numbers:
            run = thin_spaced(run)  # the table engine's reading: "63.4±8.4" set with thin spaces
        line = _finish(run, number)
        if line is not None:
            lines.append(line)
            if split_numbers:
                _split_line(run, line, number)
    return lines


#: a number that may count a line: alone on its run, or leading it before a space
_LEAD_NUMBER = re.compile(r"(\d{1,4})(?: |$)")
_DIGIT = re.compile(r"\d")
#: a review copy numbers at least this many lines of a page
_NUMBERED_LINES = 5
#: a column of line numbers runs down at least this share of the page
_NUMBERED_SPAN = 0.25

#: a number counting a line: its value and box (x0, top, x1, bottom)
Mark = tuple[int, float, float, float, float]


def line_number_marks(runs: list[CharRun], height: float) -> list[Mark]:
    """A review copy's line numbers, in the margin or the gutter between columns, whether pdfium
    reads them as lines of their own ("40") or glued to the text line they count ("60 I.A.1.
    Heading"): numbers leading their runs that stand in one column (aligned on their right
    edge; on their left only in a right margin, with no text after them, or left of all the
    page's text), outside the text columns (no other text crosses theirs beside a number,
    hardly any line starts in it), that rise down the page a text line apart per unit (numbers
    on every line, or on every fifth) over a quarter of the page at least. A numbered list's
    entries, a table's row numbers and equation numbers fail one of these: their pitch is an entry's, the table's text starts
    where they stand, they are in parentheses, or they are few. Landscape pages are not read
    for them (the caller skips turned pages: there they would be a table's)."""
    marks = _lead_marks(runs)
    if len(marks) < _NUMBERED_LINES:
        return []
    line = sorted(run.bottom - run.top for run in runs)[len(runs) // 2]
    found: dict[tuple[float, float], Mark] = {}
    for edge in (3, 1):  # right-aligned (a left margin or a gutter), then left-aligned (a right margin)
        for column in _aligned(marks, edge):
            if edge == 1 and _text_right_of(column, runs) and not _left_of_text(column, runs):
                continue  # left-aligned numbers with text after them: a table's first column
            if _counts_lines(column, height, line) and not _crossed(column, runs) and _outside_text(column, runs):
                found.update({(mark[1], mark[2]): mark for mark in column})
    return list(found.values())


def _lead_marks(runs: list[CharRun]) -> list[Mark]:
    """The numbers leading the page's runs (left to right text only), each as a :data:`Mark`."""
    marks: list[Mark] = []
    for run in runs:
        if run.rtl or not run.chars or not run.chars[0].isdigit():
            continue
        match = _LEAD_NUMBER.match("".join(run.chars[:6]))
        if match:
            digits = len(match.group(1))
            marks.append((int(match.group(1)), run.boxes[0], run.top, run.boxes[2 * digits - 1], run.bottom))
    return marks


#: a learnt column's edge and a number's: within this many points
_COLUMN_SLACK = 1.5


@dataclass(slots=True)
class LineNumbering:
    """A review copy's line-number columns, learnt from the pages of a document read so far
    (:func:`line_number_marks` on each): their edges, the points a unit of numbering takes
    down the page and the highest number seen. ``lineno`` and the journals' review layouts
    number the whole document on, so a page whose numbers are too few for a column of their
    own (a float fills most of it) is read by the columns of the pages before it."""

    rights: list[float] = field(default_factory=list)  # right edges of right-aligned columns
    lefts: list[float] = field(default_factory=list)  # left edges of left-aligned ones
    pitch: float = 0.0
    last: int = 0

    def learn(self, marks: list[Mark]) -> None:
        """Take a page's line numbers in: their columns' edges (three numbers sharing one),
        their pitch (points per unit down a column) and the highest value."""
        if not marks:
            return
        pitches = []
        for edges, index in ((self.rights, 3), (self.lefts, 1)):
            for column in _aligned(marks, index, 3):
                edge = sum(mark[index] for mark in column) / len(column)
                if not any(abs(edge - known) <= _COLUMN_SLACK for known in edges):
                    edges.append(edge)
                column.sort(key=lambda mark: mark[2])
                pitches += [
                    (below[2] - above[2]) / (below[0] - above[0])
                    for above, below in zip(column, column[1:], strict=False)
                    if below[0] > above[0]
                ]
        if pitches:
            self.pitch = sorted(pitches)[len(pitches) // 2]
        self.last = max(self.last, *(mark[0] for mark in marks))

    def continued(self, runs: list[CharRun], height: float, found: list[Mark]) -> list[Mark]:
        """The page's numbers, beyond ``found``, that stand on a learnt column, alone on their
        lines or before text that starts past them, and continue its numbering: above the last
        value seen, below what three pages would count, rising down each column. A table's row
        numbers, a list's and the page number start low again; equation numbers are in
        parentheses."""
        if not self.pitch or not (self.rights or self.lefts):
            return []
        taken = {(mark[1], mark[2]) for mark in found}
        top = self.last + 3 * height / self.pitch
        by_run = {(run.boxes[0], run.top): run for run in runs if run.boxes}
        columns: dict[tuple[int, float], list[Mark]] = {}
        for mark in _lead_marks(runs):
            if (mark[1], mark[2]) in taken or not self.last < mark[0] <= top:
                continue
            run = by_run.get((mark[1], mark[2]))
            if run is None or _after_number(run) <= mark[3] + 1:
                continue
            edge = next(((3, edge) for edge in self.rights if abs(mark[3] - edge) <= _COLUMN_SLACK), None)
            edge = edge or next(((1, edge) for edge in self.lefts if abs(mark[1] - edge) <= _COLUMN_SLACK), None)
            if edge is not None:
                columns.setdefault(edge, []).append(mark)
        marks: list[Mark] = []
        for column in columns.values():
            column.sort(key=lambda mark: mark[2])
            if all(above[0] < below[0] for above, below in zip(column, column[1:], strict=False)):
                marks += column
        return marks


def _aligned(marks: list[Mark], edge: int, least: int = _NUMBERED_LINES) -> list[list[Mark]]:
    """The marks in columns sharing the edge ``edge`` (an index of the mark) within a point and a half."""
    columns: list[list[Mark]] = []
    for mark in sorted(marks, key=lambda mark: mark[edge]):
        if columns and mark[edge] - columns[-1][-1][edge] <= 1.5:
            columns[-1].append(mark)
        else:
            columns.append([mark])
    return [column for column in columns if len(column) >= least]


def _counts_lines(column: list[Mark], height: float, line: float) -> bool:
    """Whether the numbers of a column count lines ``line`` high: over :data:`_NUMBERED_SPAN` of
    the page at least, rising down it about a text line apart for each unit. Numbers every fifth
    line (5, 10, 15) are that already; numbers on every line must also rise at one steady pitch
    for most steps (space above a heading widens a few), where a list's numbers rise an entry
    of one, two or three lines a unit."""
    column = sorted(column, key=lambda mark: mark[2])
    if column[-1][4] - column[0][2] < _NUMBERED_SPAN * height:
        return False
    steps = [
        (below[0] - above[0], (below[2] + below[4] - above[2] - above[4]) / 2) for above, below in zip(column, column[1:], strict=False)
    ]
    pitches = sorted(rise / step for step, rise in steps if step > 0)
    if len(pitches) < 0.9 * len(steps):
        return False
    base = pitches[len(pitches) // 4]
    if not 0.8 * line <= base <= 2 * line:
        return False
    if all(mark[0] % 5 == 0 for mark in column):
        return True
    return pitches[0] >= 0.8 * base and pitches[len(pitches) // 2] <= 1.3 * base


def _crossed(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether other text crosses the numbers' column beside one of them (the text glued after
    a number starts right of it): then the numbers are part of that text. A display or a figure
    between two numbers may cross it: numbering skips them."""
    x0, x1 = min(mark[1] for mark in column), max(mark[3] for mark in column)
    starts = {(mark[1], mark[2]) for mark in column}
    for run in runs:
        if run.x1 <= x0 + 1 or run.x0 >= x1 - 1:
            continue  # (a column's lines may end a hair into a gutter's numbers)
        if (run.boxes[0], run.top) in starts and _after_number(run) > x1 - 1:
            continue  # alone, or the text after it starts past the column
        if any(min(run.bottom, mark[4]) - max(run.top, mark[2]) > 0.3 * (mark[4] - mark[2]) for mark in column):
            return True
    return False


def _after_number(run: CharRun) -> float:
    """The left edge of the run's first character after its leading number (inf: none)."""
    lefts = run.boxes[0::2]  # the drawn characters' left edges (spaces have none)
    digits = next((index for index, ch in enumerate(run.chars) if not ch.isdigit()), len(run.chars))
    return lefts[digits] if digits < len(lefts) else math.inf


def _text_right_of(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether text follows any of the numbers on its line (glued to it or further right)."""
    for mark in column:
        for run in runs:
            if run.boxes[0] == mark[1] and run.top == mark[2]:
                if _after_number(run) < math.inf:
                    return True
            elif run.x0 > mark[3] and min(run.bottom, mark[4]) - max(run.top, mark[2]) > 0.3 * (mark[4] - mark[2]):
                return True
    return False


def _left_of_text(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether left-aligned numbers stand left of the lines of the page that are not numbers
    (amsart's line numbers, set flush left in the left margin), all but a margin note's few: a
    table's first column of counts stands inside the text's width, where the text above and
    below it starts."""
    x1 = max(mark[3] for mark in column)
    starts = {(mark[1], mark[2]) for mark in column}
    left = sum(
        1
        for run in runs
        if run.boxes and run.x0 < x1 - 1 and (run.boxes[0], run.top) not in starts and not "".join(run.chars).strip().isdigit()
    )
    return left <= max(3, 0.1 * len(column))


def _outside_text(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether the numbers stand outside the text columns: hardly any other line of the page
    starts where they stand, where a table's row numbers stand at the left edge of its column
    and the text above and below the table starts there too."""
    x0, x1 = min(mark[1] for mark in column) - 1, max(mark[3] for mark in column) + 1
    starts = {(mark[1], mark[2]) for mark in column}
    inside = sum(1 for run in runs if x0 <= run.x0 <= x1 and (run.boxes[0], run.top) not in starts)
    return inside <= max(2, 0.2 * len(column))


def _blank_marks(raw: ctypes.c_void_p, chars: str | list[str], marks: list[Mark], size: tuple[float, float], turn: int) -> list[str]:
    """``chars`` with the digits of the line numbers ``marks`` made empty (so
    :func:`~.char_runs.read_runs` skips them). Only the page's digits are looked up (found by a
    regular expression where the page's text is one string), on pages with line numbers only."""
    width, height = size
    blanked = list(chars)
    digits = (
        [match.start() for match in _DIGIT.finditer(chars)]
        if isinstance(chars, str)
        else [index for index, ch in enumerate(chars) if ch.isdigit()]
    )
    rect = pdfium_c.FS_RECTF()
    for index in digits:
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
        box = (rect.left, height - rect.top, rect.right, height - rect.bottom)
        if turn:
            box = turn_box(turn, box, width, height)
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if any(mark[1] - 0.5 <= x <= mark[3] + 0.5 and mark[2] - 0.5 <= y <= mark[4] + 0.5 for mark in marks):
            blanked[index] = ""
    return blanked


def table_lines(page: Page) -> list[Line]:
    """The page's lines as :func:`extract_page` read them with ``split_numbers`` (each with its
    words and number parts), made again from the runs kept from its reading rather than from
    pdfium; new lines, so later passes' changes to ``page.lines`` do not show."""
    return _lines(page.runs, page.number, True)


def _invisible(raw: ctypes.c_void_p, n: int) -> bool:
    """Most of the page's text drawn invisible (render mode 3): an OCR layer over a scan. Only
    characters drawn by a text object count (pdfium's generated spaces and line breaks have none)."""
    votes = [0, 0]
    for index in range(0, n, max(1, n // _TURN_SAMPLE)):
        text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
        if text_object:
            votes[pdfium_c.FPDFTextObj_GetTextRenderMode(text_object) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE] += 1
    return votes[1] > votes[0]


_NUMBER = re.compile(r"[-−–+]?\d[\d.,]*%?[*†‡§]*")


#: a word of a line and its left and right edges
Word = tuple[str, float, float]


def _words(run: CharRun) -> list[Word]:
    """The run's words with their boxes."""
    words: list[Word] = []
    boxes = iter(run.edges())
    inserted = THIN_SPACE in run.chars and len(run.boxes) // 2 < sum(1 for ch in run.chars if ch != " ")
    current: list[str] = []
    left = right = 0.0
    for ch in run.chars:
        if ch == " ":
            if current:
                words.append(("".join(current), left, right))
                current = []
            continue
        if ch == THIN_SPACE and inserted:
            current.append(ch)  # put in by :func:`thin_spaced`: inside a word, with no box of its own
            continue
        x0, x1 = next(boxes)
        if not current:
            left = x0
        current.append(ch)
        right = x1
    if current:
        words.append(("".join(current), left, right))
    return words


def number_groups(words: list[Word]) -> list[list[Word]]:
    """The words cut at every space with a number on either side; a number stays with an
    operator next to it ("56.8 ± 12.7", "n = 12")."""
    if len(words) < 2 or not any(_NUMBER.fullmatch(text) for text, _, _ in words):
        return [words]
    groups: list[list[Word]] = [[words[0]]]
    for word in words[1:]:
        before = groups[-1][-1][0]
        joined = not any(ch.isalnum() for ch in before) or not any(ch.isalnum() for ch in word[0])
        if not joined and (_NUMBER.fullmatch(word[0]) or _NUMBER.fullmatch(before)):
            groups.append([word])
        else:
            groups[-1].append(word)
    return groups


def _split_line(run: CharRun, line: Line, page: int) -> None:
    """Give ``line`` its words and, where numbers cut it, its parts (font statistics stay the run's)."""
    drawn = _words(run)  # left to right, as drawn
    line.words = [(logical(text), x0, x1) for text, x0, x1 in drawn] if run.rtl else drawn
    groups = number_groups(drawn)
    if len(groups) < 2:
        return
    line.parts = []
    for group in groups:
        piece = CharRun(run.rtl)
        piece.chars = list(" ".join(text for text, _, _ in group))
        piece.x0, piece.x1, piece.top, piece.bottom = group[0][1], group[-1][2], run.top, run.bottom
        piece.sizes, piece.bold, piece.italic, piece.font = run.sizes, run.bold, run.italic, run.font
        piece.prefix_bold, piece.prefix_italic = run.prefix_bold, run.prefix_italic
        piece.vertical_votes = run.vertical_votes
        part = _finish(piece, page)
        if part is not None:
            part.words = [(logical(text), x0, x1) for text, x0, x1 in group] if run.rtl else group
            line.parts.append(part)


def _finish(run: CharRun, page: int) -> Line | None:
    text = "".join(run.chars).strip()
    if run.rtl:
        text = logical(text)
    if not text:
        return None
    letters = sum(run.sizes.values())
    size = max(run.sizes.items(), key=lambda item: item[1])[0] if run.sizes else round(run.bottom - run.top, 1)
    font = max(run.font.items(), key=lambda item: item[1])[0] if run.font else ""
    bold = letters > 0 and run.bold >= 0.8 * letters
    italic = letters > 0 and run.italic >= 0.6 * letters
    all_bold = letters > 0 and run.bold == letters
    prefix = len(text) if run.prefix_bold == -1 and all_bold else max(run.prefix_bold, 0)
    italic_prefix = len(text) if run.prefix_italic == -1 and letters and run.italic == letters else max(run.prefix_italic, 0)
    vertical = run.vertical_votes > 0 or (run.bottom - run.top) > 3 * max(run.x1 - run.x0, 1) and len(text) > 3
    return Line(
        text=normalize_text(text),
        page=page,
        x0=run.x0,
        top=run.top,
        x1=run.x1,
        bottom=run.bottom,
        size=size,
        bold=bold,
        italic=italic,
        font=font,
        bold_prefix=prefix,
        italic_prefix=italic_prefix,
        vertical=vertical,
    )


_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\u00a0": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\u2009": " ",
        "\x02": "-",
        "\u00ad": "-",
        "\ufffe": "-",
    }
)


#: a ligature of TeX's fonts without a Unicode map, as pdfium hands it over: a control character
#: (T1 ``0x1B``-``0x1F``, OT1 ``0x0B``-``0x0F``: ff, fi, fl, ffi, ffl) touching a letter. Read here,
#: before the line's spaces are squeezed: Python counts ``0x1C``-``0x1F`` as white space, so
#: "Signi\x1ccance" would become "Signi cance" and "\x1ductuation" lose its "fl" later
_TEX_LIGATURE = re.compile(r"(?<=[^\W\d_])[\x0b-\x0f\x1b-\x1f]|[\x0b-\x0f\x1b-\x1f](?=[^\W\d_])")
_TEX_LIGATURES = dict(zip("\x1b\x1c\x1d\x1e\x1f\x0b\x0c\x0d\x0e\x0f", ("ff", "fi", "fl", "ffi", "ffl") * 2, strict=True))
#: Arabic letters in their contextual forms (some producers map glyphs to them): the letters
_PRESENTATION_FORMS = re.compile("[\ufb50-\ufdff\ufe70-\ufefc]+")
#: TeX's ``quotes'' in ASCII, where a pair of them holds words on one line
_TEX_QUOTES = re.compile(r"``(?=\S)([^`]*?\S)''")
_DOUBLED_QUOTES = re.compile("\u2018\u2018|\u2019\u2019")


def normalize_text(text: str) -> str:
    """Undo ligatures and odd spaces, join UTF-16 halves, read math letters as plain ones and
    drop invisible marks (:func:`~paperpyramid.text_clean.plain_unicode`), compose accents (NFC), make quotes set as two single
    ones (‘‘ ’’, TeX's ``…'') one, read Arabic presentation forms as the letters; keep the text
    otherwise as printed. TeX's ligatures without a Unicode map are read too (:data:`_TEX_LIGATURE`)."""
    text = text.translate(_LIGATURES)
    if not text.isprintable():  # rare: a control character (checked first, cheaply)
        text = _TEX_LIGATURE.sub(lambda match: _TEX_LIGATURES[match.group()], text)
    if "``" in text:
        text = _TEX_QUOTES.sub("\u201c\\1\u201d", text)
    if not text.isascii():
        text = unicodedata.normalize("NFC", plain_unicode(text))
        if "\u2018\u2018" in text or "\u2019\u2019" in text:
            text = _DOUBLED_QUOTES.sub(_one_quote, text)
        if _PRESENTATION_FORMS.search(text):
            text = _PRESENTATION_FORMS.sub(lambda match: unicodedata.normalize("NFKC", match.group()), text)
    if "  " in text:
        text = " ".join(text.split())
    return text


def _one_quote(match: re.Match[str]) -> str:
    text, start, end = match.string, match.start(), match.end()
    if match.group() == "\u2018\u2018":
        return "\u201c"
    opened = text.count("\u2018\u2018", 0, start) + text.count("\u201c", 0, start) > text.count("\u2019\u2019", 0, start) + text.count(
        "\u201d", 0, start
    )
    if not opened and (
        text[end : end + 1] == "(" or (start and text[start - 1].isalpha() and (start == 1 or not text[start - 2].isalnum()))
    ):
        return match.group()  # no quotation open: a double prime after a variable (f’’(x), y’’)
    return "\u201d"


def user_size(page: pdfium.PdfPage) -> tuple[float, float]:
    """The page's width and height in the coordinates its characters and paths are given in:
    pdfium's page size is turned by the page's /Rotate, its boxes are not."""
    width, height = page.get_size()
    return (height, width) if page.get_rotation() in (90, 270) else (width, height)


#: sample this many characters to tell a page's text direction
_TURN_SAMPLE = 24


def text_turn(raw: ctypes.c_void_p, n: int) -> int:
    """90 or 270 where most of a page's text runs up or down its page (a table set sideways,
    or a landscape page under /Rotate), else 0: the quarter turn that sets it upright."""
    if n <= 0:
        return 0
    votes = {0: 0, 90: 0, 270: 0}
    for index in range(0, n, max(1, n // _TURN_SAMPLE)):
        degrees = round(math.degrees(pdfium_c.FPDFText_GetCharAngle(raw, index))) % 360
        for angle in votes:
            if abs(degrees - angle) <= 5:
                votes[angle] += 1
    best = max(votes, key=lambda angle: votes[angle])
    return best if best and votes[best] > 0.6 * sum(votes.values()) else 0


def _count_images(page: pdfium.PdfPage) -> int:
    count = 0
    for obj in page.get_objects(max_depth=2):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            count += 1
    return count


#: a drawing or image smaller than this each way (points) is a rule, a bar or a mark, not a graphic
_GRAPHIC_SIDE = 10.0
#: pages with more drawing objects than this are read up to it (a plot of a million points)
_GRAPHIC_OBJECTS = 5000


def page_graphics(pdf: pdfium.PdfDocument, page: Page) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, top, x1, bottom; top-left origin, on the page turned upright as ``page`` was)
    of the page's drawings and images of at least :data:`_GRAPHIC_SIDE` points each way (plots,
    photographs, frames; not rules, fraction bars or glyph-sized marks)."""
    pdf_page = pdf[page.number - 1]
    try:
        width, height = user_size(pdf_page)
        return _graphics(pdf_page, page.turn, width, height)
    finally:
        pdf_page.close()


def _graphics(page: pdfium.PdfPage, turn: int, width: float, height: float) -> list[tuple[float, float, float, float]]:
    boxes = []
    hidden = hidden_objects(page)
    for count, obj in enumerate(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3)):
        if count >= _GRAPHIC_OBJECTS:
            break
        if hidden and address(obj.raw) in hidden:
            continue  # a drawing a clipping path hides
        left, bottom, right, top = obj.get_bounds()
        if right - left >= _GRAPHIC_SIDE and top - bottom >= _GRAPHIC_SIDE:
            box = (left, height - top, right, height - bottom)
            boxes.append(turn_box(turn, box, width, height) if turn else box)
    return boxes
