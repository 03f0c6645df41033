"""Pages of a generated paper: running text in one or two columns, floats, and a table over two pages.

Text flows through frames (the columns of each page, under the title on the first page and
under any full-width float at a page's top); a float that no longer fits the frame it is
reached in goes to the top of the next frame while the text goes on, as LaTeX places them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.synthetic.canvas import Canvas, text_width
from benchmarks.synthetic.floats import FloatBlock

__all__ = ["Frame", "Geometry", "TextStyle", "Flow"]


@dataclass(frozen=True)
class Geometry:
    width: float
    height: float
    left: float
    right: float
    top: float
    bottom: float
    columns: int
    gutter: float

    @property
    def text_width(self) -> float:
        return self.width - self.left - self.right

    @property
    def column_width(self) -> float:
        return (self.text_width - self.gutter * (self.columns - 1)) / self.columns


@dataclass(frozen=True)
class TextStyle:
    regular: str
    bold: str
    italic: str
    size: float
    leading: float
    justified: bool
    indent: float  # first-line indent in points; 0 sets paragraphs apart with a blank half line


@dataclass(frozen=True)
class Frame:
    page: int
    x0: float
    x1: float
    top: float
    bottom: float


@dataclass
class Flow:
    """The running text of a paper, laid out frame by frame as it is added."""

    geometry: Geometry
    text: TextStyle
    title_block: FloatBlock
    page_top: dict[int, list[tuple[str, FloatBlock]]] = field(default_factory=dict)  # named full-width floats at a page's top
    footer: Callable[[Canvas, int], None] | None = None
    pages: list[Canvas] = field(default_factory=list)
    placed: dict[str, list[int]] = field(default_factory=dict)  # a float's name -> the pages it was drawn on
    _frames: list[Frame] = field(default_factory=list)
    _frame: int = -1
    _y: float = 0.0
    _pending: list[tuple[str, FloatBlock]] = field(default_factory=list)

    # ------------------------------------------------------------------ frames

    @property
    def frame(self) -> Frame:
        if self._frame < 0:
            self._next_frame()
        return self._frames[self._frame]

    @property
    def room(self) -> float:
        """Height left in the current frame."""
        return self.frame.bottom - self._y

    @property
    def page(self) -> int:
        return self.frame.page

    @property
    def frame_is_last_on_page(self) -> bool:
        frame = self.frame
        return self._frame + 1 >= len(self._frames) or self._frames[self._frame + 1].page != frame.page

    def fill(self) -> float:
        """The share of the current frame already used."""
        frame = self.frame
        return (self._y - frame.top) / max(frame.bottom - frame.top, 1.0)

    def _new_page(self) -> None:
        g = self.geometry
        number = len(self.pages) + 1
        canvas = Canvas(g.width, g.height)
        self.pages.append(canvas)
        top = g.top
        if number == 1:
            self.title_block.draw(canvas, g.left, top)
            top += self.title_block.height + 1.5 * self.text.leading
        for name, block in self.page_top.get(number, []):
            block.draw(canvas, g.left + (g.text_width - block.width) / 2, top)
            top += block.height + 1.5 * self.text.leading
            self.placed.setdefault(name, []).append(number)
        if self.footer is not None:
            self.footer(canvas, number)
        for column in range(g.columns):
            x0 = g.left + column * (g.column_width + g.gutter)
            self._frames.append(Frame(number, x0, x0 + g.column_width, top, g.height - g.bottom))

    def _next_frame(self) -> None:
        self._frame += 1
        if self._frame >= len(self._frames):
            self._new_page()
        self._y = self._frames[self._frame].top
        pending, self._pending = self._pending, []
        for name, block in pending:
            self.add_float(name, block)

    def canvas(self, page: int) -> Canvas:
        return self.pages[page - 1]

    # ------------------------------------------------------------------ content

    def skip(self, height: float) -> None:
        """Vertical space, dropped at a frame's top."""
        if self._y > self.frame.top:
            self._y = min(self._y + height, self.frame.bottom)

    def next_frame(self, *, keep_pending: bool = False) -> None:
        """Go on in the next frame; ``keep_pending`` leaves waiting floats for the frame after it."""
        waiting, self._pending = (self._pending, []) if keep_pending else ([], self._pending)
        self._next_frame()
        self._pending += waiting

    def _line_slot(self, height: float) -> tuple[Frame, float]:
        if self._y + height > self.frame.bottom:
            self._next_frame()
        frame, y = self.frame, self._y
        self._y += height
        return frame, y

    def heading(self, title: str) -> None:
        t = self.text
        self.skip(0.8 * t.leading)
        if self.room < 4 * t.leading:
            self._next_frame()
        frame, y = self._line_slot(1.3 * t.leading)
        self.canvas(frame.page).text(frame.x0, y + 0.9 * t.size, title, t.bold, t.size + 1)

    def paragraph(self, text: str) -> None:
        t = self.text
        width = self.frame.x1 - self.frame.x0
        lines = _wrap(text.split(), t.regular, t.size, width, t.indent)
        if not t.indent:
            self.skip(0.5 * t.leading)
        for number, line in enumerate(lines):
            frame, y = self._line_slot(t.leading)
            x = frame.x0 + (t.indent if number == 0 else 0.0)
            joined = " ".join(line)
            spacing = 0.0
            if t.justified and number < len(lines) - 1 and len(line) > 1:
                spacing = (frame.x1 - x - text_width(joined, t.regular, t.size)) / (len(line) - 1)
            self.canvas(frame.page).text(x, y + 0.8 * t.size, joined, t.regular, t.size, word_spacing=spacing)

    def add_float(self, name: str, block: FloatBlock) -> None:
        """Draw ``block`` here if it fits in the frame, else at the top of the next frame."""
        gap = self.text.leading
        at_top = self._y <= self.frame.top
        need = block.height + (0.0 if at_top else gap)
        if need > self.room and not at_top:
            self._pending.append((name, block))
            return
        if not at_top:
            self._y += gap
        frame = self.frame
        block.draw(self.canvas(frame.page), frame.x0 + (frame.x1 - frame.x0 - block.width) / 2, self._y)
        self._y += block.height + gap
        self.placed.setdefault(name, []).append(frame.page)

    def place_here(self, name: str, block: FloatBlock, x_offset: float = 0.0) -> None:
        """Draw ``block`` at the cursor whatever room is left (a piece of a table sized to fit)."""
        frame = self.frame
        block.draw(self.canvas(frame.page), frame.x0 + x_offset, self._y)
        self._y += block.height
        self.placed.setdefault(name, []).append(frame.page)

    @property
    def pending(self) -> bool:
        return bool(self._pending)


def _wrap(words: list[str], font: str, size: float, width: float, indent: float) -> list[list[str]]:
    lines: list[list[str]] = []
    used = 0.0
    space = text_width(" ", font, size)
    for word in words:
        add = text_width(word, font, size)
        limit = width - (indent if len(lines) == 1 else 0.0)
        if lines and used + space + add <= limit:
            lines[-1].append(word)
            used += space + add
        else:
            lines.append([word])
            used = add
    return lines
