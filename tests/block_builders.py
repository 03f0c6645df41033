"""Lines and blocks as the embedded parser's layout step hands them on, laid out by hand for the
tests of the steps that read them (headings, the outline, contents, reference lists, labels,
footnotes, the blocks a caption claims).

A test file makes one :class:`Stack`, its page and body type (``Stack(size=9.4, font="CMR10")``),
and a test names only what its case is about: the text, the kind, a size or face apart from the
body's. How a heading's number and title are read from its text is the stack's choice too: as
printed (:func:`printed_heading`), the whole text (:func:`whole_title`) or not at all
(:func:`untitled`, what the layout step itself leaves).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line


def untitled(text: str) -> tuple[str | None, str]:
    """No number and no title: a heading as the layout step marks it, before anything names it."""
    return None, ""


def whole_title(text: str) -> tuple[str | None, str]:
    """No number; the whole text is the title ("1 Introduction" stays one title)."""
    return None, text


def printed_heading(text: str) -> tuple[str | None, str]:
    """The number and title a heading prints: "2.1. Methods" is ("2.1", "Methods"); a text that opens
    with no number of digits and dots ("A. Proofs", "Contents") is all title."""
    number, _, rest = text.partition(" ")
    if number.replace(".", "").isdigit() and rest:
        return number.rstrip("."), rest
    return None, text


class LineSetting(TypedDict, total=False):
    """Where a line stands and in what type, where that is not its stack's (a line is neither bold nor
    italic unless it says so)."""

    page: int
    x0: float
    x1: float
    size: float
    bold: bool
    italic: bool
    font: str
    bold_prefix: int
    lead_gap: float
    column: int


@dataclass
class Stack:
    """Lines set one under another down a page, ``step`` points apart from ``top``, in one type
    unless a call names another. A line is as tall as its size, or ``height`` where that is set;
    it ends at ``x1``, or, where ``width`` is set, as far right of its start as ``width`` gives for
    its text. A block's first line is set in by ``indent``; ``heading`` reads a heading block's
    number and title from its text."""

    top: float = 60.0
    step: float = 20.0
    page: int = 1
    x0: float = 72.0
    x1: float = 300.0
    size: float = 10.0
    font: str = ""
    height: float | None = None
    heading: Callable[[str], tuple[str | None, str]] = untitled
    width: Callable[[str], float] | None = None
    indent: float = 0
    _tops: Iterator[float] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._tops = itertools.count(self.top, self.step)

    def line(self, text: str, top: float | None = None, **setting: Unpack[LineSetting]) -> Line:
        """One line at ``top``, or under the last one the stack set where ``top`` is None."""
        top = next(self._tops) if top is None else top
        size = setting.get("size", self.size)
        x0 = setting.get("x0", self.x0)
        return Line(
            text=text,
            page=setting.get("page", self.page),
            x0=x0,
            top=top,
            x1=setting.get("x1", self.x1 if self.width is None else x0 + self.width(text)),
            bottom=top + (size if self.height is None else self.height),
            size=size,
            bold=setting.get("bold", False),
            italic=setting.get("italic", False),
            font=setting.get("font", self.font),
            bold_prefix=setting.get("bold_prefix", 0),
            lead_gap=setting.get("lead_gap", 0.0),
            column=setting.get("column", 0),
        )

    def block(
        self,
        text: str | Sequence[str],
        kind: str = "paragraph",
        *,
        lines: int = 1,
        top: float | None = None,
        number: str | None = None,
        title: str | None = None,
        level: int = 0,
        **setting: Unpack[LineSetting],
    ) -> Block:
        """A block of a line per text (``text`` repeated ``lines`` times where it is one string), set
        from ``top`` or under the stack's last line. A heading is numbered and titled as the stack reads
        its first line, unless ``number`` is given (its title is then the text after the number) or
        ``title`` is."""
        texts = [text] * lines if isinstance(text, str) else list(text)
        tops = self._tops if top is None else itertools.count(top, self.step)
        rows = [self.line(row, next(tops), **setting) for row in texts]
        rows[0].x0 += self.indent
        return self._titled(Block(lines=rows, kind=kind), texts[0], number, title, level)

    def block_of(self, lines: list[Line], kind: str = "paragraph") -> Block:
        """A block of ``lines``; a heading is numbered and titled as the stack reads its text."""
        block = Block(lines=lines, kind=kind)
        return self._titled(block, block.text, None, None, 0)

    def _titled(self, block: Block, text: str, number: str | None, title: str | None, level: int) -> Block:
        if block.kind == "heading" and title is None:
            number, title = self.heading(text) if number is None else (number, text.split(" ", 1)[1])
        block.number, block.title, block.level = number, title or "", level
        return block
