"""A page's characters cut into runs, one per line: the inner loop of the embedded parser.

pdfium gives each character its box and font. :func:`read_runs` walks them once, in the order
to read them, and starts a new run where pdfium breaks the line, where the baseline moves,
where the text jumps backwards, or where a horizontal gap is wide enough to be a column gutter
or a table cell border. Each run keeps its characters' left and right edges, so the table
engine can cut the same lines into words later without reading the page again
(:func:`~.layout.table_lines`).

This loop is most of a parse's time (a paper has some 50,000 characters): it keeps to local
names and plain comparisons rather than ``min``/``max`` calls, and reads a font's name only
where the size or weight changes.
"""

from __future__ import annotations

import ctypes
import re
from array import array
from collections.abc import Iterable, Sequence

import pypdfium2.raw as pdfium_c

#: a bold face by its name; TeX names its bold faces "CMBX10" (bold extended) and "CMB10" (bold,
#: not extended, set by ``\fontseries{b}``: partitions' and BMS's headings)
_BOLD_NAME = re.compile(
    r"bold|black|heavy|semibold|demi|medi\b|-medi|cmbx|cmb\d|cmssbx|\bbx\d|[-.,]b$|[-.,]bd$|[-.,]bi$|boldit|-sb$|mbx\d", re.I
)
#: a face whose name says it is of normal weight: pdfium's weight, estimated from the font's
#: stems, reads 744 for Latin Modern's "LMRoman10-Regular" and some TeX fonts' "CMR10", and the
#: name is to be believed (TeX names its bold faces: CMBX10, CMB10, SFBX1000)
_REGULAR_NAME = re.compile(r"regular|roman|book|light|thin|-regu\b|^(?:cm|sf|ec|tc)(?:r|ss|sl|ti|mi|sy|csc|tt|rm|cc|ssi|itt)\d", re.I)
_ITALIC_NAME = re.compile(r"italic|oblique|\bcmti|cmti|cmmi|-it\b|\bit\d|-ital", re.I)
#: a typewriter (fixed-pitch) face by its name, the one test of it for headings, listings and
#: tables: TeX's typewriter faces ("CMTT10", "CMSLTT10", EC's "ECTT1000" and its slanted and
#: italic "SFST1000", "ECIT1000", where Sweave sets R's input), txfonts' "t1xtt",
#: "LMMono10-Regular"), URW's Courier ("pcrr8a", "NimbusMonL-Regu") and the usual monospaced
#: families ("Courier", "Inconsolata", "DejaVuSansMono", "Menlo"); never Monotype's text faces
MONOSPACE_FONT = re.compile(
    r"^[a-z\d]{0,5}tt\d*(?:$|[-_])|^(?:sf|ec)(?:st|it)\d{4}$|(?:^|[-+_])pcr[a-z]?\d|mono(?!type)|nimbusmon|courier|consol|typewriter|menlo|monaco|sourcecode",
    re.I,
)
# a face without a name (a Type 3 font of an old dvips, unnamed by pdfium) is taken for a
# typewriter face by its pitch (:func:`even_pitch`): this many words, each within this share of
# their middle width per character
_PITCH_WORDS = 3
_PITCH_SPREAD = 0.03
# this share of those words at the pitch makes the face a typewriter's
_PITCH_SHARE = 0.8
# a piece whose spaces its text collapsed spans a whole number of characters within this share of one
_PITCH_CELLS = 0.1
#: the most letters and digits a stretch of mathematics or code inside a bold heading may hold
#: ("Independent $K$-Samples", "take $a_0 := \\log 2$ as", "require {\\tt rgeos}") for the bold
#: after it to go on with the heading
_INSET_LETTERS = 8

_LINE_BREAKS = frozenset({"\r", "\n"})
_FONT_BUFFER_SIZE = 256


class CharRun:
    """The characters of one line being built, with their boxes and font statistics."""

    __slots__ = (
        "chars",
        "x0",
        "x1",
        "top",
        "bottom",
        "sizes",
        "bold",
        "italic",
        "font",
        "prefix_bold",
        "prefix_italic",
        "inset",
        "last_x1",
        "last_x0",
        "vertical_votes",
        "boxes",
        "rtl",
    )

    def __init__(self, rtl: bool = False) -> None:
        self.chars: list[str] = []
        self.x0 = self.top = float("inf")
        self.x1 = self.bottom = float("-inf")
        self.sizes: dict[float, int] = {}
        self.bold = 0
        self.italic = 0
        self.font: dict[str, int] = {}
        self.prefix_bold = -1  # -1: still in the bold prefix
        self.prefix_italic = -1  # -1: still in the italic prefix
        self.inset = 0  # letters left to a stretch of mathematics or code that broke the bold prefix (see :func:`_add`)
        self.last_x1 = float("-inf")
        self.last_x0 = float("-inf")
        self.vertical_votes = 0
        self.boxes = array("d")  # x0, x1 of each drawn (not space) character, in turn
        self.rtl = rtl  # read left to right as drawn, on a page with right-to-left text (see :mod:`.bidi`)

    def edges(self) -> list[tuple[float, float]]:
        """(x0, x1) of each drawn character, in the order of :attr:`chars` without its spaces."""
        boxes = self.boxes
        return [(boxes[i], boxes[i + 1]) for i in range(0, len(boxes), 2)]


def turn_box(turn: int, box: tuple[float, float, float, float], width: float, height: float) -> tuple[float, float, float, float]:
    """A box (x0, top, x1, bottom, top-left origin) on a ``width`` × ``height`` page, seen on
    the page turned upright: 270 (text running up) turns it clockwise, 90 anticlockwise."""
    x0, top, x1, bottom = box
    if turn == 270:
        return height - bottom, x0, height - top, x1
    return top, width - x1, bottom, width - x0


class _Fonts:
    """Each character's font name (without a subset's tag) and whether it is bold and italic,
    by name and flags; a page has a few fonts, each read once."""

    __slots__ = ("_buffer", "_flags", "_flags_ref", "_seen")

    def __init__(self) -> None:
        self._buffer = ctypes.create_string_buffer(_FONT_BUFFER_SIZE)
        self._flags = ctypes.c_int()
        self._flags_ref = ctypes.byref(self._flags)
        self._seen: dict[tuple[bytes, int], tuple[str, bool, bool]] = {}

    def of(self, raw: ctypes.c_void_p, index: int) -> tuple[str, bool, bool]:
        n = pdfium_c.FPDFText_GetFontInfo(raw, index, self._buffer, _FONT_BUFFER_SIZE, self._flags_ref)
        key = (self._buffer.value if n else b"", self._flags.value)
        font = self._seen.get(key)
        if font is None:
            font = self._seen[key] = _font(*key)
        return font


def _font(raw_name: bytes, flags: int) -> tuple[str, bool, bool]:
    name = raw_name.decode("utf-8", "replace").split("+", 1)[-1]  # without a subset's tag (ABCDEF+)
    bold = bool(_BOLD_NAME.search(name)) or bool(flags & (1 << 18))  # ForceBold
    italic = bool(_ITALIC_NAME.search(name)) or bool(flags & (1 << 6))
    return name, bold, italic


def read_runs(
    raw: ctypes.c_void_p,
    chars: str | Sequence[str],
    order: Iterable[int],
    rtl: bool,
    size: tuple[float, float],
    turn: int,
    scales: dict[int, float],
) -> list[CharRun]:
    """The page's characters (``chars``, one per pdfium index; an empty one is skipped), read in
    ``order``, cut into runs (top-left origin, on the ``size`` page turned upright by ``turn``;
    ``scales``: characters whose box height OCR corrected)."""
    width, height = size
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    get_box = pdfium_c.FPDFText_GetLooseCharBox
    get_weight = pdfium_c.FPDFText_GetFontWeight
    fonts = _Fonts()
    rounded: dict[float, float] = {}  # box height -> its size in points (heights repeat)

    runs: list[CharRun] = []
    run = CharRun(rtl)
    font_name, font_bold, font_italic = "", False, False
    weighty = False
    last_size = -1.0
    last_weight = -2
    for i in order:
        ch = chars[i]
        if not ch:
            continue  # a glyph of a font without a Unicode map that OCR did not teach
        if ch in _LINE_BREAKS:
            if run.chars:
                runs.append(run)
                run = CharRun(rtl)
            continue
        if ch == " " or ch == "\t":
            if run.chars and run.chars[-1] != " ":
                run.chars.append(" ")
            continue
        get_box(raw, i, rect_ref)
        x0, x1 = rect.left, rect.right
        y_top, y_bottom = height - rect.top, height - rect.bottom
        if scales and i in scales:  # a font with odd ascent and descent, read through OCR
            mid, half = (y_top + y_bottom) / 2, (y_bottom - y_top) / 2 * scales[i]
            y_top, y_bottom = mid - half, mid + half
        if turn:
            x0, y_top, x1, y_bottom = turn_box(turn, (x0, y_top, x1, y_bottom), width, height)
        char_h = y_bottom - y_top
        if x1 - x0 <= 0 and char_h <= 0:
            continue  # invisible or generated
        points = rounded.get(char_h)
        if points is None:
            points = rounded[char_h] = round(char_h, 1)
        weight = get_weight(raw, i)
        if points != last_size or weight != last_weight:
            font_name, font_bold, font_italic = fonts.of(raw, i)
            last_size, last_weight = points, weight
            weighty = weight >= 600 and not _REGULAR_NAME.search(font_name)
        if run.chars:
            step = _step(run, x0, y_top, y_bottom, char_h, points)
            if step == _NEW_RUN:
                runs.append(run)
                run = CharRun(rtl)
            elif step == _SPACE:
                run.chars.append(" ")
        _add(run, ch, x0, x1, y_top, y_bottom, points, font_bold or weighty, font_italic, font_name)
    if run.chars:
        runs.append(run)
    return runs


#: what a character does to the run before it: joins it, starts a new one, or joins it after a space
_JOIN, _NEW_RUN, _SPACE = "join", "new run", "space"


def _step(run: CharRun, x0: float, y_top: float, y_bottom: float, char_h: float, size: float) -> str:
    """What a character at ``x0`` (its box from ``y_top`` to ``y_bottom``) does to ``run``: off
    the run's baseline band it starts a new run (unless it stacks under the run's start: rotated
    text, which goes on only at its own x: a running head left sideways on a page turned upright
    would take the caption after it); on it, a jump back or a gutter starts a new run, and a word gap adds a space."""
    slack = (char_h if char_h > 1.0 else 1.0) * 0.3
    mid = (y_top + y_bottom) / 2
    if not (run.top - slack <= mid <= run.bottom + slack):
        if abs(x0 - run.last_x0) < 1.0 and len(run.chars) < 3:
            run.vertical_votes += 1  # stacked characters at the same x: rotated text
        return _NEW_RUN if run.vertical_votes == 0 or abs(x0 - run.last_x0) > max(char_h, 1.0) else _JOIN
    unit = size if size > 4.0 else 4.0
    gap = x0 - run.last_x1
    if x0 < run.last_x1 - unit * 2.5 or gap > unit * 1.4:
        return _NEW_RUN
    return _SPACE if gap > unit * 0.22 and run.chars[-1] != " " else _JOIN


def _add(
    run: CharRun, ch: str, x0: float, x1: float, y_top: float, y_bottom: float, size: float, bold: bool, italic: bool, font: str
) -> None:
    run.chars.append(ch)
    boxes = run.boxes
    boxes.append(x0)
    boxes.append(x1)
    if x0 < run.x0:
        run.x0 = x0
    if x1 > run.x1:
        run.x1 = x1
    if y_top < run.top:
        run.top = y_top
    if y_bottom > run.bottom:
        run.bottom = y_bottom
    run.last_x1 = x1
    run.last_x0 = x0
    if ch.isalnum():
        sizes = run.sizes
        sizes[size] = sizes.get(size, 0) + 1
        run.bold += bold
        run.italic += italic
        fonts = run.font
        fonts[font] = fonts.get(font, 0) + 1
        if run.prefix_bold == -1:
            if not bold:
                run.prefix_bold = len(run.chars) - 1
                run.inset = _INSET_LETTERS if _inset_opens(run, italic, font) else 0
        elif run.inset:
            if bold:  # the bold goes on after the formula or the code: the heading does too
                run.prefix_bold, run.inset = -1, 0
            else:
                run.inset -= 1
        if run.prefix_italic == -1 and not italic:
            run.prefix_italic = len(run.chars) - 1


def _inset_opens(run: CharRun, italic: bool, font: str) -> bool:
    """Whether the character just added, the first after the run's bold prefix and not bold,
    may open a stretch of mathematics or code set inside a bold heading: TeX sets a heading's
    ``$K$`` in math italic and its ``\\texttt{rgeos}`` in typewriter, neither bold. The prefix
    must hold a word (three characters or more) and not be closed by a full stop or a colon: a
    run-in heading's lead-in ("**Methods.** *x* is …") ends there."""
    start = len(run.chars) - 1
    if start < 3 or not (italic or MONOSPACE_FONT.search(font)):
        return False
    before = run.chars[start - 1] if run.chars[start - 1] != " " else run.chars[start - 2]
    return before not in ".:"


def even_pitch(pieces: Iterable[tuple[str, float]]) -> bool:
    """Whether pieces of text (words or cells, with their printed widths) are set at one pitch,
    every character as wide as the next: a typewriter face known by its shape where its font has
    no name. Most pieces of two characters or more must be as wide per character, and among them
    two words with letters (digits are as wide as each other in most text faces, and numbers
    printed alike, "1.25e-05" and "3.50e-07", are as wide per character in any face). The pitch
    is read from the pieces without a space where there are enough of them: a piece's run of
    spaces its text collapsed to one (R's console pads its columns, "  1  1  2") widens it by
    whole characters, so such a piece is at the pitch where it spans a whole number of them."""
    sized = [(width, text) for text, width in pieces if len(text) >= 2]
    if len(sized) < _PITCH_WORDS:
        return False
    solid = sorted(width / len(text) for width, text in sized if " " not in text)
    if len(solid) < _PITCH_WORDS:
        solid = sorted(width / len(text) for width, text in sized)
    middle = solid[len(solid) // 2]
    even = [text for width, text in sized if _at_pitch(text, width, middle)]
    worded = {text for text in even if any(char.isalpha() for char in text)}
    return len(even) >= _PITCH_SHARE * len(sized) and len(worded) >= 2


def _at_pitch(text: str, width: float, pitch: float) -> bool:
    """Whether a piece is as wide as its characters at ``pitch``; one with a space may be wider
    by whole characters (spaces its text collapsed)."""
    if abs(width / len(text) - pitch) <= _PITCH_SPREAD * pitch:
        return True
    if " " not in text:
        return False
    cells = width / pitch
    whole = round(cells)
    return whole > len(text) and abs(cells - whole) <= _PITCH_CELLS
