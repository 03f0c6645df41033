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
from paperpyramid.parsers.embedded.clipped import address, clipped_chars, hidden_objects, page_bounds
from paperpyramid.parsers.embedded.glyphs import GlyphMap, read_page
from paperpyramid.parsers.embedded.line_numbers import LineNumbering, blank_marks, line_number_marks
from paperpyramid.parsers.embedded.table_spaces import THIN_SPACE, thin_spaced
from paperpyramid.parsers.embedded.type3_sizes import type3_scales
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
    # the white space (points) after the bold prefix (the italic one where none is bold): LaTeX's
    # \paragraph sets an em there, a word space is a third of that (see lead_ins.styled_lead)
    lead_gap: float = 0.0
    # the median white space between the words after that prefix: a run-in title whose gap is
    # fixed glue shorter than an em (TUGboat's half em) is told from a stretched word space by it
    word_gap: float = 0.0
    vertical: bool = False
    # filled by later passes
    column: int = 0
    tags: set[str] = field(default_factory=set)
    # read with ``extract_page(split_numbers=True)``: its words with their edges, and the line
    # cut around its numbers
    words: list[tuple[str, float, float]] | None = None
    parts: list[Line] | None = None
    # the numbers it prints raised (:func:`~.char_runs.raised_numbers`); None: not read from a text layer (OCR)
    raised: tuple[tuple[str, str], ...] | None = None

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
    scales = {**type3_scales(raw, chars, n), **scales}  # OCR's box corrections win
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
        chars = blank_marks(raw, chars, marks, (width, height), turn)
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
    # -1: no letter out of bold, or only a formula or code word inside the bold (see :mod:`.char_runs`)
    prefix = len(text) if run.prefix_bold == -1 and letters > 0 else max(run.prefix_bold, 0)
    italic_prefix = len(text) if run.prefix_italic == -1 and letters and run.italic == letters else max(run.prefix_italic, 0)
    lead = run.prefix_bold if run.prefix_bold > 0 else run.prefix_italic  # the styled prefix a run-in title would be
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
        lead_gap=_lead_gap(run, lead),
        word_gap=_word_gap(run, lead),
        vertical=vertical,
        raised=run.raised,
    )


def _drawn_before(run: CharRun, prefix: int) -> int:
    """How many characters with a box (spaces have none) stand before ``run.chars[prefix]``, the
    first letter after a styled prefix and the space that closes it: the index of that letter's
    box. -1 where there is no gap to measure: no prefix, no space after it, or right-to-left text,
    whose boxes run the other way."""
    if not 0 < prefix < len(run.chars) or run.rtl or run.chars[prefix - 1] != " ":
        return -1
    return prefix - run.chars[:prefix].count(" ")


def _lead_gap(run: CharRun, prefix: int) -> float:
    """The white space before ``run.chars[prefix]``, the first letter after a styled prefix: the
    gap between the edges of the drawn characters either side."""
    drawn = _drawn_before(run, prefix)
    boxes = run.boxes
    return boxes[2 * drawn] - boxes[2 * drawn - 1] if drawn > 0 and 2 * drawn < len(boxes) else 0.0


def _word_gap(run: CharRun, prefix: int) -> float:
    """The median white space between the words after ``run.chars[prefix]`` (0 with fewer than
    two), measured as :func:`_lead_gap` measures the one before them; only lines with a styled
    prefix are measured, so the loop runs over few lines."""
    first = drawn = _drawn_before(run, prefix)  # the index of the next drawn character's box
    if drawn < 0:
        return 0.0
    boxes = run.boxes
    gaps: list[float] = []
    previous = " "
    for char in run.chars[prefix:]:
        if char != " ":
            if previous == " " and drawn > first and 2 * drawn < len(boxes):
                gaps.append(boxes[2 * drawn] - boxes[2 * drawn - 1])
            drawn += 1
        previous = char
    if len(gaps) < 2:
        return 0.0
    gaps.sort()
    return gaps[len(gaps) // 2]


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
    or a landscape page under /Rotate), else 0: the quarter turn that sets it upright. A sampled
    space counts as the next character that is none: pdfium gives the spaces it generates no
    angle, and a sample step a multiple of a table's repeated cells' length ("Data Data ...")
    would meet only spaces, and read a sideways table as upright text."""
    if n <= 0:
        return 0
    votes = {0: 0, 90: 0, 270: 0}
    for start in range(0, n, max(1, n // _TURN_SAMPLE)):
        index = start
        while index + 1 < n and chr(pdfium_c.FPDFText_GetUnicode(raw, index)).isspace():
            index += 1
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
    forms: dict[pdfium.PdfObject, pdfium.PdfMatrix] = {}
    for count, obj in enumerate(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3)):
        if count >= _GRAPHIC_OBJECTS:
            break
        if hidden and address(obj.raw) in hidden:
            continue  # a drawing a clipping path hides
        left, bottom, right, top = page_bounds(obj, forms)  # a plot's drawing inside a form, where it is drawn
        if right - left >= _GRAPHIC_SIDE and top - bottom >= _GRAPHIC_SIDE:
            box = (left, height - top, right, height - bottom)
            boxes.append(turn_box(turn, box, width, height) if turn else box)
    return boxes
