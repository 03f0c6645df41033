"""A page's footnotes out of the reading flow.

A footnote is printed at the foot of its column in a type smaller than the body's. Read as
body text, it is glued into the paragraph that goes on in the next column or on the next page,
and that paragraph's context holds a sentence about something else. The small print pass
(:func:`~.parser._drop_small_print`) sets aside only type well under the body's with short
lines; a footnote in ACL's 9 pt under an 11 pt body, with full lines, stays in the flow.

The evidence is the PDF's, never the words: a block at the foot of a column (nothing in the
body's type below it there), in a smaller type, that opens with a footnote mark the page's body
text carries (a number raised after a word, "corpus,7"; a printer's sign, "†"; a letter closed
by a parenthesis, "Smith,a)", as AIP's journals mark theirs), with the small print right under
it; or that opens with such a mark under the short rule LaTeX and most journals draw over a
page's notes (``\footnoterule``: a fifth to two fifths of the column, flush left), where the
body's text does not show the mark (a mark the text layer lost or split); or that goes on, on the next page, from a footnote set apart at the foot of
the page before and cut there mid-sentence. Such blocks are set aside (``kind = "aside"``): they
go with the notes (:mod:`.notes`), no word lost, and the paragraph they cut is joined again where
it was cut (:func:`~.assembly.merge_continuations`). It runs once the front matter is read, so
that a title page's notes (authors' marks, affiliations) are read where they were before.

A table at the foot of a page claims the small print under it, the page's footnotes as well as its
own notes (:func:`~.assembly._table_note`). A claimed block at the foot whose mark the page's text
outside the table carries (or that a footnote rule heads), and the table's caption and cells do
not, is the page's note, not the table's: it is set aside as the others are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from paperpyramid.parsers.embedded.blocks import Block, ends_sentence, is_reference_heading
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.layout import Line

#: a footnote's type is at most this share of the body's, and at least :data:`_SMALLER` points under it
_RATIO, _SMALLER = 0.9, 0.7
#: a footnote's block ends in the page's lower part (a share of the page's height)
_FOOT = 0.6
#: a footnote's opening mark: a number (with a stop in PMLR's: "3. For reasons …") or a printer's
#: sign (closed by a parenthesis in some Japanese journals: "∗)"), then its text (a word, a URL)
_OPENING = re.compile(r"^\s*(?:(?:(?P<number>\d{1,3})\.?|(?P<sign>[*∗†‡§¶‖]{1,3}))\)?|(?P<letter>[a-z])\))\s*(?=[^\W\d_]|https?:|www\.)")
_MARK_ONLY = re.compile(r"^\s*(?:(?:\d{1,3}|[*∗†‡§¶‖]{1,3})\)?|[a-z]\))\s*$")
_WORDY = re.compile(r"\w\w\w")
_ADDRESS = re.compile(r"https?:|www\.|ftp:")
#: how far past the last footnote's number the next one may be without its mark found in the text
_NEXT = 3
#: punctuation a footnote mark may follow
_STOP = "[.,;:)’”\"']"
#: a footnote rule's width as a share of its column's (LaTeX's is 2 in on a 6.5 in text, 0.3;
#: journals draw 0.2-0.4), how far left of the column's text it may start, and how far over the
#: note's first line it is drawn (in the note's line heights)
_RULE_WIDTH = (0.12, 0.5)
_RULE_LEFT = 3.0
_RULE_ABOVE = 2.5

#: a box (x0, top, x1, bottom; top-left origin)
Box = tuple[float, float, float, float]


def set_footnotes_apart(
    blocks: list[Block], heights: dict[int, float], body_size: float, rules: Callable[[int], list[Box]] | None = None
) -> None:
    """Set aside the paragraphs that are a page's footnotes (see the module's docstring);
    ``heights`` holds each page's height by its number; ``rules`` reads a page's horizontal
    rules (by its number), asked only for a note whose mark the body does not show. Blocks after the reference list's
    heading, up to an appendix's numbered heading, are left alone: a list set in small type at
    the foot of a column is no note."""
    by_page: dict[int, list[Block]] = {}
    for block in blocks:
        by_page.setdefault(block.page, []).append(block)
    notes = _Notes()
    listed = False
    claimed = _claimed_by(blocks)
    for page, on_page in sorted(by_page.items()):
        carried = _Carried(on_page, body_size, page, rules)
        for block in on_page:
            if block.kind == "heading":  # an appendix's numbered heading ends the list
                listed = is_reference_heading(block.title.lower().strip()) or (listed and block.number is None)
            # a note's first line in small capitals may be set aside as small print already, its rest not
            if listed or block.kind not in ("paragraph", "aside", "table_part") or not _small(block, body_size):
                continue
            if not _at_foot(block, on_page, heights[page], body_size):
                continue
            if not _at_left_edge(block, on_page, body_size):
                continue  # a formula's index or a figure's label at the foot, not a note's first line
            if block.kind == "table_part":
                pieces = _table_pieces(block, *claimed[id(block)]) if id(block) in claimed else []
                if _pages_note(block, on_page, carried, pieces, body_size):
                    block.kind = "aside"
                continue
            number = notes.opens(block, on_page, carried, body_size)
            if number is None:
                continue
            block.kind = "aside"
            notes.last = number or notes.last
            if not ends_sentence(_take_rest(block, on_page, body_size).text.rstrip()):
                notes.cut.add(page)  # its last note goes on at the next page's foot


class _Notes:
    """What the footnotes set aside so far tell about the next: the last one's number, and the
    pages whose last note stops mid-sentence (its rest opens the next page's foot)."""

    def __init__(self) -> None:
        self.last = 0
        self.cut: set[int] = set()

    def opens(self, block: Block, on_page: list[Block], carried: _Carried, body_size: float) -> int | None:
        """The number of the footnote ``block`` opens (0: one marked by a sign, or a note's rest),
        or None where it is no footnote. A mark cut off into a block of its own goes aside with its
        note, and stays where it was beside small print that is none."""
        mark, cut = _opening(block, on_page)
        number = self._number(block, mark, on_page, carried, body_size)
        if number is not None:
            _set_aside(cut)
        return number

    def _number(self, block: Block, mark: re.Match[str] | None, on_page: list[Block], carried: _Carried, body_size: float) -> int | None:
        if mark is None:  # the rest of a note cut mid-sentence at the foot of the page before, in a text face
            rest = block.page - 1 in self.cut and _first_small(block, on_page, body_size) and not _listing(block)
            return 0 if rest else None
        if mark["sign"] or mark["letter"]:
            shown = mark["sign"] in carried.text if mark["sign"] else _carries_letter(carried.text, mark["letter"])
            return 0 if shown or (not _listing(block) and carried.ruled(block, body_size)) else None
        number = int(mark["number"])
        if _carries(carried.text, number) or (not _listing(block) and carried.ruled(block, body_size)):
            return number
        # pdfium glues a raised mark to a version number ("v3.0.09"): a number next in turn is one
        # too, in a text face (a note giving an address is set in a typewriter's; a program's
        # numbered line is too, and its number is no mark the body carries)
        turn = 0 < self.last < number <= self.last + _NEXT
        return number if turn and (not _listing(block) or _ADDRESS.search(mark.string, mark.end())) else None


def _claimed_by(blocks: list[Block]) -> dict[int, tuple[Block, list[Block]]]:
    """The caption of the table that claimed each block, and the blocks it claimed, by the
    claimed block's id."""
    claimed: dict[int, tuple[Block, list[Block]]] = {}
    for caption in blocks:
        members = [blocks[member] for member in cast("list[int]", caption.extra.get("members") or [])]
        if caption.kind == "caption" and members:
            claimed.update((id(member), (caption, members)) for member in members)
    return claimed


def _table_pieces(block: Block, caption: Block, members: list[Block]) -> list[str]:
    """The texts of the table that claimed ``block``: its caption and its cells, or, where the
    engine read no cells, the lines of the other blocks it claimed."""
    found = cast("list[list[str]] | None", caption.extra.get("found"))
    if found:
        return [caption.text, *(cell for row in found for cell in row)]
    return [caption.text, *(line.text for member in members if member is not block for line in member.lines)]


def _pages_note(block: Block, on_page: list[Block], carried: _Carried, pieces: list[str], body_size: float) -> bool:
    """Whether small print a table claimed at the page's foot is the page's footnote: it opens with
    a number or a sign that the table's caption and cells (``pieces``) do not carry, and that the
    page's text outside the table does (or a footnote rule heads it). A table's own note refers to
    its cells or caption ("Base Model¹" over "¹ For each dataset, …")."""
    mark, cut = _opening(block, on_page)
    if mark is None or mark["letter"] or _listing(block) or _table_carries(mark, pieces):
        return False
    shown = mark["sign"] in carried.outside if mark["sign"] else _carries(carried.outside, int(mark["number"]))
    if not (shown or carried.ruled(block, body_size)):
        return False
    _set_aside(cut)
    return True


def opens_with_table_mark(block: Block, pieces: list[str]) -> bool:
    """Whether ``block`` opens with a number or a sign that a table's caption and cells
    (``pieces``) carry: it is that table's note."""
    mark, _cut = _opening(block, [])
    return mark is not None and not mark["letter"] and _table_carries(mark, pieces)


def _table_carries(mark: re.Match[str], pieces: list[str]) -> bool:
    """Whether a table's caption and cells carry a note's number or sign: glued to a word, alone
    or in a list of marks ("\\‘o1,3"), or read as a word of its own at a cell's end
    ("\\G{⟨letter⟩} 1")."""
    table = " ".join(pieces)
    if mark["sign"]:
        return mark["sign"] in table
    number = int(mark["number"])
    listed = re.search(rf"[^\W\d_](?:\d{{1,3}},)*{number}(?!\d)", table)
    return bool(listed) or _carries(table, number) or any(re.search(rf"[^\d\s.,] {number}$", piece) for piece in pieces)


def _opening(block: Block, on_page: list[Block]) -> tuple[re.Match[str] | None, Block | None]:
    """The footnote mark the block's first line opens with, then a word, and the block the mark
    was cut off into, if any. A mark read as a line of its own counts where the line after it goes
    on from it on its baseline: inside the block, or a block of its own just left of it (set
    smaller still, it was cut off as small print; :func:`_set_aside` sends it with its note). A
    mark's line further right, over a program's output, opens nothing."""
    first = block.lines[0]
    if first.x0 > block.x0 + 3 * first.size:  # a note opens flush or indented by its paragraph indent
        return None, None
    if len(block.lines) > 1 and _MARK_ONLY.match(first.text) and _on_baseline_after(first, block.lines[1]):
        return _OPENING.match(f"{first.text}{block.lines[1].text}"), None
    found = _OPENING.match(first.text)
    if found is None:
        for other in on_page:
            if len(other.lines) == 1 and _MARK_ONLY.match(other.text) and _on_baseline_after(other.lines[0], first):
                return _OPENING.match(f"{other.text}{first.text}"), other
    return found, None


def _set_aside(cut: Block | None) -> None:
    """A note's mark cut off as a block of its own goes aside with its note."""
    if cut is not None and cut.kind in ("furniture", "paragraph"):
        cut.kind = "aside"


def _on_baseline_after(mark: Line, line: Line) -> bool:
    """``line`` starts right after ``mark`` on its baseline."""
    return abs(line.bottom - mark.bottom) < line.height and 0 <= line.x0 - mark.x1 < line.size


def _take_rest(note: Block, on_page: list[Block], body_size: float) -> Block:
    """Set aside the small print that goes on right under a footnote in its column, or beside
    its lines: the notes after it, the end of a URL cut into a line of its own, the pieces of a
    line a formula's index cut. A first page's imprint further down is left where it was
    (:mod:`.notes` knows it). Returns the note's last block."""
    last, floor = note, note.bottom
    for other in sorted(on_page, key=lambda other: other.top):
        if other is note or other.top <= note.top + 1 or not _overlaps(other, note) or other.kind not in ("paragraph", "aside"):
            continue
        if other.top - floor > last.lines[-1].height or not (_small(other, body_size) or not _WORDY.search(other.text)):
            break  # body text, not the note's small print or a formula's big sign in it
        other.kind = "aside"
        if other.bottom >= last.bottom:
            last = other
        floor = max(floor, other.bottom)
    return last


def _at_left_edge(block: Block, on_page: list[Block], body_size: float) -> bool:
    """The block starts where its column's body text starts (a note's mark may hang out or be
    indented by an em or two): not a formula's piece set small at the foot of the column."""
    body = [other.x0 for other in on_page if other.kind == "paragraph" and _overlaps(other, block) and not _small(other, body_size)]
    return not body or block.x0 <= min(body) + 2 * body_size


def _listing(block: Block) -> bool:
    """Code set in a typewriter face, every line of it: a program's lines, not a note's words."""
    return all(MONOSPACE_FONT.search(line.font) for line in block.lines)


def _small(block: Block, body_size: float) -> bool:
    size = max(line.size for line in block.lines)
    return size <= body_size * _RATIO and body_size - size >= _SMALLER


def _overlaps(one: Block, other: Block) -> bool:
    return one.x0 < other.x1 and other.x0 < one.x1


def _at_foot(block: Block, on_page: list[Block], height: float, body_size: float) -> bool:
    """Nothing in the body's type (or larger) below the block in its column, and the block's end
    in the lower part of the page."""
    if block.bottom < height * _FOOT:
        return False
    return not any(
        other.kind not in ("furniture", "aside")
        and other.top >= block.bottom - 1
        and _overlaps(other, block)
        and not _small(other, body_size)
        and _WORDY.search(other.text)  # a formula's big sign in a note is no body text
        for other in on_page
    )


def _first_small(block: Block, on_page: list[Block], body_size: float) -> bool:
    """The block opens the small print at its column's foot: no small block above it there
    that is nearer than the body text (it is not a table's notes or a figure's legend)."""
    above = [other for other in on_page if other is not block and other.bottom <= block.top + 1 and _overlaps(other, block)]
    return bool(above) and not _small(max(above, key=lambda other: other.bottom), body_size)


class _Carried:
    """The page's body text (:func:`_body_text`), read once, when a note's mark is looked for in
    it, and its horizontal rules (read by ``read_rules`` for ``page``), once, when a mark is not found there."""

    def __init__(self, on_page: list[Block], body_size: float, page: int, read_rules: Callable[[int], list[Box]] | None) -> None:
        self.on_page, self.body_size, self.page = on_page, body_size, page
        self._text: str | None = None
        self._outside: str | None = None
        self._read_rules = read_rules
        self._rules: list[Box] | None = None

    def ruled(self, block: Block, body_size: float) -> bool:
        """A footnote rule is drawn just over ``block``: short, flush with its column's left edge."""
        if self._rules is None:
            self._rules = self._read_rules(self.page) if self._read_rules is not None else []
        column = [other for other in self.on_page if other.kind == "paragraph" and _overlaps(other, block) and not _small(other, body_size)]
        if not column or not self._rules:
            return False
        left, width = min(other.x0 for other in column), max(other.x1 for other in column) - min(other.x0 for other in column)
        reach = _RULE_ABOVE * block.lines[0].height
        return any(
            abs(x0 - left) <= _RULE_LEFT
            and _RULE_WIDTH[0] * width <= x1 - x0 <= _RULE_WIDTH[1] * width
            and 0 <= block.top - bottom <= reach
            for x0, _top, x1, bottom in self._rules
        )

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _body_text(self.on_page, self.body_size)
        return self._text

    @property
    def outside(self) -> str:
        """The page's body text outside its tables' captions and cells."""
        if self._outside is None:
            self._outside = _body_text([block for block in self.on_page if block.kind not in ("caption", "table_part")], self.body_size)
        return self._outside


def _body_text(on_page: list[Block], body_size: float) -> str:
    """The text of the page's body type, where its footnote marks are looked for, with the marks
    raised so high off a body line's end that they were read as a block of their own ("Irish¹"),
    written glued to a word as the others are."""
    body = [block for block in on_page if not _small(block, body_size)]
    lines = [line for block in body for line in block.lines]
    marks = [
        block.text.strip()
        for block in on_page
        if len(block.lines) == 1 and _MARK_ONLY.match(block.text) and any(_raised_after(line, block.lines[0]) for line in lines)
    ]
    return " ".join([*(block.text for block in body), *(f"x{mark}" for mark in marks)])


def _raised_after(line: Line, mark: Line) -> bool:
    """``mark`` is set smaller at ``line``'s end or just before its start (the words before it
    end another line: "… the Irish data¹. To make …"), above its baseline."""
    beside = 0 <= mark.x0 - line.x1 < line.size or 0 <= line.x0 - mark.x1 < line.size
    return beside and mark.size < line.size and abs(mark.top - line.top) < line.height / 2 and mark.bottom < line.bottom


def _carries(text: str, number: int) -> bool:
    """The body text carries footnote mark ``number``: the number set right after a word or its
    punctuation ("corpus,7", "Scholar8", "O(n).1"; the text layer may put a space between a stop
    and the raised mark: "absolved. 1"), not a citation's bracket or a figure's number ("Table 1")."""
    after = rf"(?:(?<=[^\W\d_])|(?<=[^\W\d_]{_STOP})|(?<={_STOP}{_STOP})|(?<={_STOP} ))"
    return re.search(rf"{after}{number}(?![\d\]])", text) is not None


def _carries_letter(text: str, letter: str) -> bool:
    """The body text carries the letter mark ``letter)`` glued to a word or its comma ("Smith,a)",
    "Lo1,a)"), not an enumeration's "(a)" or " a)"."""
    return re.search(rf"(?:(?<=[^\W_])|(?<=[,∗*†])|(?<=, )){letter}\)", text) is not None
