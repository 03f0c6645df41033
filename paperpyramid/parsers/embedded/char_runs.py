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

from paperpyramid.parsers.embedded.link_spaces import link_spaces, may_hold_link

#: a bold face by its name; TeX names its bold faces "CMBX10" (bold extended) and "CMB10" (bold,
#: not extended, set by ``\fontseries{b}``: partitions' and BMS's headings), and the EC fonts (T1
#: encoding) theirs as CM-Super's Type 1 fonts do, by the face's two letters after "EC", "SF" or
#: "TC" and the size in four digits: "SFBX1000" (bold extended, TUGboat's headings), its slanted
#: "BL" and italic "BI", the bold small capitals' "XC", the non-extended bold "RB", the sans serif
#: bold "SX" and its oblique "SO", the demibold condensed "SSDC"
_BOLD_NAME = re.compile(
    r"bold|black|heavy|semibold|demi|medi\b|-medi|cmbx|cmb\d|cmssbx|\bbx\d|[-.,]b$|[-.,]bd$|[-.,]bi$|boldit|-sb$|mbx\d"
    r"|^(?:ec|sf|tc)(?:bx|bl|bi|xc|rb|sx|so|ssdc)\d{4}$",
    re.I,
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

#: a character whose bottom sits this share of the run's height above the run's bottom is raised:
#: a note's mark, an exponent, a vector's arrow. A printer's sign (an author's "∗", "†") is left
#: out: a title page's lines of names are read in the pieces pdfium breaks them into, as before
_RAISED = 0.25
#: what follows the mark starts at most this share of its height after it, and is the punctuation
#: that closes the sentence or clause the mark ends ("abstracts⁵. The"): an exponent's formula
#: going on ("p⁴ (n − 1)") keeps its pieces, which a table's cells and a display are read from
_AFTER_MARK = 0.15
_AFTER_MARK_PUNCTUATION = frozenset(".,;:)]!?’”'\"")
_SIGNS = frozenset("*∗†‡§¶‖")
#: TeX's math symbol fonts (OMS encoding: Computer Modern's CMSY, Latin Modern's LMMathSymbols)
#: draw "‖" at the code of "k", under a glyph name ("bardbl") outside Adobe's glyph list: a PDF
#: without a Unicode map for it reads "k", LaTeX's sixth footnote sign (∗ † ‡ § ¶ ‖) after the
#: sixth name of a byline among them
_BARDBL_FONT = re.compile(r"^(?:cmsy\d|lmmathsymbols|lmsy\d)", re.I)
#: the characters of a raised number as :func:`raised_numbers` keeps it: its digits, the commas and
#: dashes of a list or a range ("3,4,15", "10–13") and the parenthesis Japanese journals close it with
_RAISED_NUMBER_CHARS = frozenset("0123456789,-–—)")
#: a letterspaced stretch has at least this many single letters; its gaps between letters are
#: alike (the widest at most this share over the narrowest, kerning apart), under this share of
#: an em (a column's gap is wider), and those between words this many times the widest of them
_SPACED_LETTERS = 5
_LETTER_GAP_SPREAD = 2.5
_LETTER_GAP_EM = 0.35
_WORD_GAP = 2.0
_SPACED = re.compile(r"(?:(?<!\S)\w ){4,}\w(?!\S)")
#: small capitals are drawn at this share of the size of the letters around them (Times' 0.8,
#: Computer Modern's cmcsc about 0.8 of the x-height-to-capital ratio), and a run needs this many
#: other letters or digits to show the size they are set small against
_SMALL_CAPS_SCALE = (0.6, 0.9)
_SMALL_CAPS_MIN_OTHERS = 3
#: the stops that end a sentence (:func:`_sentence_opens`)
_SENTENCE_STOPS = frozenset(".!?")
#: the narrow word gap (:func:`_narrow_word_gap`): over this share of the font size, on a line whose
#: characters joined so far lie at most this share apart (Hindawi's 0.01 em), after this many of
#: them joined, and after a letter, a digit or one of these stops
_NARROW_GAP = 0.12
_NARROW_LETTERS = 0.03
_NARROW_AFTER = 3
_WORD_ENDS = frozenset(".,;:!?)]’”")
#: besides a letter, a word of text opens with one of these ("score (d)", "study [4]", "the “knee”")
_WORD_STARTS = frozenset("([“‘")
#: the fewest characters of a line that may hold a link with a space inside ("www.x. org")
_LINK_LEAST = 9


class CharRun:
    """The characters of one line being built, with their boxes and font statistics."""

    __slots__ = (
        "chars",
        "x0",
        "x1",
        "top",
        "bottom",
        "sizes",
        "caps",
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
        "raised_at",
        "raised",
        "widest",
        "joined",
    )

    def __init__(self, rtl: bool = False) -> None:
        self.chars: list[str] = []
        self.x0 = self.top = float("inf")
        self.x1 = self.bottom = float("-inf")
        self.sizes: dict[float, int] = {}
        self.caps: dict[float, int] = {}  # the capitals' share of :attr:`sizes` (see :func:`_small_capitals`)
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
        self.raised_at: list[int] = []  # indices into :attr:`chars` of raised digits and their commas and dashes
        self.raised: tuple[tuple[str, str], ...] = ()  # the raised numbers, read when the run is settled (:func:`raised_numbers`)
        self.widest = 0.0  # the widest gap, in ems, between two characters joined without a space (see :func:`_step`)
        self.joined = 0  # how many characters were joined to the one before without a space

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
    ``scales``: characters whose box height OCR corrected).

    The steps taken once in a while (a line break, a change of font) are functions of their own;
    what is done for every character stays in this loop, on local names."""
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
    last_size = -1.0
    last_weight = -2
    # a line break waits for the next character, which may go on with the run (:func:`_goes_on_after_mark`)
    raised = held = False
    first_bottom = 0.0  # the bottom of the run's first character
    for i in order:
        ch = chars[i]
        if not ch:
            continue  # a glyph of a font without a Unicode map that OCR did not teach
        if ch == "k" and _BARDBL_FONT.match(fonts.of(raw, i)[0]):
            ch = "‖"
        if ch in _LINE_BREAKS:
            held = bool(run.chars)  # the next character says whether the run goes on
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
        if held:
            held = False
            run = _after_break(runs, run, first_bottom, raised and ch in _AFTER_MARK_PUNCTUATION, (x0, y_top, y_bottom))
        points = rounded.get(char_h)
        if points is None:
            points = rounded[char_h] = round(char_h, 1)
        weight = get_weight(raw, i)
        if points != last_size or weight != last_weight:
            font_name, font_bold, font_italic = _face(fonts.of(raw, i), weight)
            last_size, last_weight = points, weight
        if run.chars:
            step = _step(run, x0, y_top, y_bottom, char_h, points, ch, font_name)
            if step == _NEW_RUN:
                runs.append(_settled(run))
                run = CharRun(rtl)
            elif step == _SPACE:
                run.chars.append(" ")
        if not run.chars:
            first_bottom = y_bottom
        _add(run, ch, x0, x1, y_top, y_bottom, points, font_bold, font_italic, font_name)
        raised = ch not in _SIGNS and run.bottom - y_bottom > _RAISED * (run.bottom - run.top)
        if raised and ch in _RAISED_NUMBER_CHARS:
            run.raised_at.append(len(run.chars) - 1)
    if run.chars:
        runs.append(_settled(run))
    return runs


def _face(font: tuple[str, bool, bool], weight: int) -> tuple[str, bool, bool]:
    """A character's font (its name, whether it is bold and italic by name and flags), bold too
    where pdfium's weight, estimated from its stems, is a bold face's and its name does not say
    it is of normal weight (:data:`_REGULAR_NAME`)."""
    name, bold, italic = font
    return name, bold or (weight >= 600 and not _REGULAR_NAME.search(name)), italic


def _after_break(runs: list[CharRun], run: CharRun, first_bottom: float, after_mark: bool, box: tuple[float, float, float]) -> CharRun:
    """The run a character goes on with after a line break: ``run`` where it goes on (:func:`_goes_on_after_mark`;
    ``after_mark``: the character before the break was raised and this one is the punctuation that
    may follow a mark), else a new one, ``run`` settled into ``runs``. ``box``: the character's
    x0, top and bottom."""
    # a run that opens with a raised character is a line's piece cut off before an
    # exponent: it does not take more pieces
    opens_raised = run.bottom - first_bottom > _RAISED * (run.bottom - run.top)
    if _goes_on_after_mark(run, *box, after_mark and not opens_raised):
        return run
    while run.chars and run.chars[-1] == " ":
        run.chars.pop()  # a space after the break, as if read into the next run
    runs.append(_settled(run))
    return CharRun(run.rtl)


def _goes_on_after_mark(run: CharRun, x0: float, y_top: float, y_bottom: float, after_raised: bool) -> bool:
    """Whether a character drawn at ``x0`` (from ``y_top`` to ``y_bottom``) after a line break goes
    on with ``run``: pdfium breaks a line after a raised mark ("abstracts⁵" | ". The …"), so the
    run goes on where the break came after a raised character (``after_raised``) and the character
    is on the run's baseline band right after it (a stop, a comma; a table's next column, even a
    narrow one, is further off). A break before a raised character stays: a display's exponents
    are read from their own pieces (:mod:`.displays`)."""
    return (
        after_raised
        and run.top - 1.0 <= (y_top + y_bottom) / 2 <= run.bottom + 1.0
        and -1.0 <= x0 - run.x1 <= _AFTER_MARK * (y_bottom - y_top)
    )


def _settled(run: CharRun) -> CharRun:
    """A finished run, with its raised numbers (:func:`raised_numbers`), its small capitals' sizes
    (:func:`_small_capitals`), its letterspaced words (:func:`_letterspaced`) and its links
    (:func:`_link_spaces`) read as printed.
    The raised numbers are read first, while :attr:`CharRun.raised_at` still indexes the
    characters as drawn."""
    if run.raised_at and not run.rtl:
        run.raised = raised_numbers(run.chars, run.raised_at)
    return _link_spaces(_letterspaced(_small_capitals(run)))


def raised_numbers(chars: list[str], raised_at: list[int]) -> tuple[tuple[str, str], ...]:
    """The numbers a line prints raised, each as (the character printed before it, the number as
    printed): ``("T", "18")`` for "DEET¹⁸", ``(".", "2, 3)")`` for "details.²˒ ³⁾".

    The text renders a superscript citation glued to its word ("DEET18", "°C3,4,15"), where only
    the drawing tells it from a name or a unit ("BL21", "cm3"): the citation linker reads these
    (:mod:`paperpyramid.citations.raised`). A pair keeps its meaning through the edits later
    passes make to the text (lines joined, words dehyphenated), where an offset would not. A
    number is the raised characters in turn, spaces between them included, from its first digit
    to its last digit or parenthesis; the character before it is the one just before that digit
    (a space where the number stands apart, "" at the line's start)."""
    found: list[tuple[str, str]] = []
    group = [raised_at[0]]
    for index in raised_at[1:]:
        if index == group[-1] + 1 or (index == group[-1] + 2 and chars[index - 1] == " "):
            group.append(index)
            continue
        found += _raised_number(chars, group)
        group = [index]
    found += _raised_number(chars, group)
    return tuple(found)


def _raised_number(chars: list[str], group: list[int]) -> list[tuple[str, str]]:
    """(the character before, the number) of one stretch of raised characters, or none where it
    holds no digit."""
    digits = [index for index in group if chars[index].isdigit()]
    if not digits:
        return []
    first = digits[0]
    last = max([digits[-1], *(index for index in group if chars[index] == ")")])
    return [(chars[first - 1] if first else "", "".join(chars[first : last + 1]))]


def _letterspaced(run: CharRun) -> CharRun:
    """The run, with the spaces between the letters of letterspaced words taken out.

    Letterspacing (Elsevier's "A R T I C L E  I N F O", German "Sperrsatz", a TeX code sample
    set in math mode) opens every letter apart, as wide as a word space, and pdfium writes a
    space between each. Such words show two kinds of gap: between letters, all alike, and between
    words, at least twice as wide. Single letters all a word space apart (an alphabet, "a b c
    d", variables) show one kind only and stay as they are."""
    chars = run.chars
    if len(chars) < 2 * _SPACED_LETTERS - 1 or not _SPACED.search("".join(chars)):
        return run
    boxes = run.boxes
    gaps: dict[int, float] = {}  # the index of each space between two single letters -> its gap
    drawn = 0
    last = len(chars) - 1
    for index, ch in enumerate(chars):
        if ch == " ":
            continue
        alone = len(ch) == 1 and ch.isalpha() and (index == last or chars[index + 1] == " ")
        if alone and index >= 2 and chars[index - 1] == " " and _alone(chars, index - 2):
            gaps[index - 1] = boxes[2 * drawn] - boxes[2 * drawn - 1]
        drawn += 1
    size = max(run.sizes.items(), key=lambda item: item[1])[0] if run.sizes else 0.0
    dropped: list[int] = []
    for group in _spaced_groups(chars, gaps):
        widths = sorted(gaps[index] for index in group)
        # the widest jump between gap widths parts the letters' gaps from the words'
        jump = max(range(1, len(widths)), key=lambda at: widths[at] / max(widths[at - 1], 0.01))
        letters, words = widths[:jump], widths[jump:]
        if (
            len(letters) >= _SPACED_LETTERS - 1
            and words[0] >= _WORD_GAP * letters[-1]
            and letters[-1] <= _LETTER_GAP_SPREAD * max(letters[0], 0.01)
            and letters[-1] <= _LETTER_GAP_EM * size
        ):
            dropped += [index for index in group if gaps[index] <= letters[-1]]
    return _without(run, set(dropped))


def _link_spaces(run: CharRun) -> CharRun:
    """The run, with the spaces pdfium writes inside a URL or DOI taken out (:func:`.link_spaces`),
    its size read only for a line whose words may hold a link."""
    if len(run.chars) < _LINK_LEAST or not run.sizes or not may_hold_link("".join(run.chars)):
        return run
    size = max(run.sizes.items(), key=lambda item: item[1])[0]
    return _without(run, link_spaces(run.chars, run.boxes, size))


def _without(run: CharRun, drop: set[int]) -> CharRun:
    """The run without the spaces at ``drop`` (indices into its characters)."""
    if drop:
        chars = run.chars
        run.chars = [ch for index, ch in enumerate(chars) if index not in drop]
        for name in ("prefix_bold", "prefix_italic"):  # indices into ``chars``
            at = getattr(run, name)
            if at > 0:
                setattr(run, name, at - sum(1 for index in drop if index < at))
    return run


def _alone(chars: list[str], index: int) -> bool:
    """``chars[index]`` is a letter standing alone between spaces (or the run's start)."""
    return len(chars[index]) == 1 and chars[index].isalpha() and (index == 0 or chars[index - 1] == " ")


def _spaced_groups(chars: list[str], gaps: dict[int, float]) -> list[list[int]]:
    """The spaces of each stretch of single letters a space apart (the keys of ``gaps``, in turn)."""
    groups: list[list[int]] = []
    for index in sorted(gaps):
        if groups and groups[-1][-1] == index - 2:
            groups[-1].append(index)
        else:
            groups.append([index])
    return [group for group in groups if len(group) >= _SPACED_LETTERS - 1]


def letterspaced_joined(raw: ctypes.c_void_p, text: Sequence[str]) -> Sequence[str]:
    """A page's text (one string per pdfium character index) with the spaces pdfium writes
    between letterspaced letters taken out, as the parser reads them ("R e f e r e n c e s" is
    "References"), so that a letterspaced heading or code sample does not count a word per
    letter that no parsed text holds. Only the stretches of single letters a space apart are
    measured, each as one run through the parser's own rule (:func:`_letterspaced`)."""
    flat = text if isinstance(text, str) else "".join(ch if len(ch) == 1 else "\ufffc" for ch in text)
    if len(flat) != pdfium_c.FPDFText_CountChars(raw) or not _SPACED.search(flat):
        return text
    rect = pdfium_c.FS_RECTF()
    joined: list[str] | None = None
    for match in _SPACED.finditer(flat):
        run = CharRun()
        for index in range(match.start(), match.end()):
            ch = flat[index]
            run.chars.append(ch)
            if ch != " ":
                pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
                run.boxes.extend((rect.left, rect.right))
                size = round(rect.top - rect.bottom, 1)
                run.sizes[size] = run.sizes.get(size, 0) + 1
        spaced = run.chars
        kept = _letterspaced(run).chars
        if len(kept) == len(spaced):
            continue
        joined = joined if joined is not None else list(text)
        at = 0  # only spaces are taken out: a space of the stretch not at ``at`` in what is kept was dropped
        for offset, ch in enumerate(spaced):
            if at < len(kept) and kept[at] == ch:
                at += 1
            else:
                joined[match.start() + offset] = ""
    return text if joined is None else joined


def _small_capitals(run: CharRun) -> CharRun:
    """The run, with capitals set smaller than its other letters counted at their size: small
    capitals. LaTeX's ``\\textsc`` with Times scales the capitals down (to 0.8), so a body line
    with a few small-capital names ("per as BRACKET (e.g. [2]), NAME-YEAR") has more letters at
    the smaller size and read as small print, set aside with the footnotes (S2ORC p3, SciFact p6).
    A footnote's capitals are as tall as its lowercase letters and stay as they are."""
    caps = run.caps
    if not caps:
        return run
    sizes = run.sizes
    rest = {size: count - caps.get(size, 0) for size, count in sizes.items() if count > caps.get(size, 0)}
    if sum(rest.values()) < _SMALL_CAPS_MIN_OTHERS:
        return run
    body = max(rest.items(), key=lambda item: item[1])[0]
    for size, count in caps.items():
        if _SMALL_CAPS_SCALE[0] * body <= size <= _SMALL_CAPS_SCALE[1] * body:
            sizes[size] -= count
            if not sizes[size]:
                del sizes[size]
            sizes[body] = sizes.get(body, 0) + count
    return run


#: what a character does to the run before it: joins it, starts a new one, or joins it after a space
_JOIN, _NEW_RUN, _SPACE = "join", "new run", "space"


def _step(run: CharRun, x0: float, y_top: float, y_bottom: float, char_h: float, size: float, ch: str, font: str) -> str:
    """What a character ``ch`` at ``x0`` (its box from ``y_top`` to ``y_bottom``, in ``font``) does
    to ``run``: off the run's baseline band it starts a new run (unless it stacks under the run's
    start: rotated text, which goes on only at its own x: a running head left sideways on a page
    turned upright would take the caption after it); on it, a jump back or a gutter starts a new
    run, and a word gap adds a space (a narrow one too, between words of a line whose letters
    abut: :func:`_narrow_word_gap`)."""
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
    if run.chars[-1] == " ":
        return _JOIN
    if gap > unit * 0.22 or (gap > unit * _NARROW_GAP and _narrow_word_gap(run, ch, font)):
        return _SPACE
    if gap > run.widest * unit:
        run.widest = gap / unit
    run.joined += 1
    return _JOIN


def _narrow_word_gap(run: CharRun, ch: str, font: str) -> bool:
    """Whether a gap under the usual word space's share of the font size, but over
    :data:`_NARROW_GAP`, is a word space: Hindawi's PDFs place each word 0.16 em after the last
    with no space character, and pdfium writes none ("recipients.The", "and theWOMAC"), under the
    0.22 em that tells a word gap in general.

    Such a gap is a word's only where it parts two words of text on a line whose letters so far
    abut: a word of two characters or more ending in a letter, a digit or a closing stop, then a
    letter or an opening bracket or quote; and at least :data:`_NARROW_AFTER` characters joined
    without a space, none of them more than :data:`_NARROW_LETTERS` apart (a narrow gap joined
    counts too, so one refused turns the rule off for the rest of the line; a full stop and a
    capital ask less of them: :func:`_sentence_opens`). Mathematics' thin
    spaces come around signs, brackets and digits ("f(A) :R", "x+ 2"), as a logo's do ("LaTeX
    2ε"); a tracked line's letters ("Reports", 0.06 em apart) and a letterspaced word's (a space
    between each) do not abut; a tracked algorithm's "Pascal" (0.14 em between its letters) opens
    with a word of one letter; a typewriter face's narrow letters stand apart within a word, and
    its font's name tells it. Shares of the font size are of the size :func:`_step` is given."""
    return (
        (ch.isalpha() or ch in _WORD_STARTS)
        and (run.widest <= _NARROW_LETTERS or _sentence_opens(run, ch))
        and run.joined >= _NARROW_AFTER
        and (run.chars[-1].isalnum() or run.chars[-1] in _WORD_ENDS)
        and run.chars[-2] != " "
        and not MONOSPACE_FONT.search(font)
    )


def _sentence_opens(run: CharRun, ch: str) -> bool:
    """Whether a narrow gap after a full stop, before a capital, opens a sentence on a line whose
    letters do not all abut: a pair of letters kerned a little open (two of Minion's in a Hindawi
    line, 0.0301 em apart) goes just over :data:`_NARROW_LETTERS`, and "group.The" stayed one
    word. A stop, a gap and a capital part two sentences in any text that sets its letters no
    narrow gap apart (under :data:`_NARROW_GAP`: a refused narrow gap still turns the rule off)."""
    return ch.isupper() and run.chars[-1] in _SENTENCE_STOPS and run.widest < _NARROW_GAP


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
        if ch.isupper():
            run.caps[size] = run.caps.get(size, 0) + 1
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
