"""Generated pages with display equations and known gold: a formula test set the embedded
parser was not developed on.

:func:`generate_displays` writes a paper of two pages of running text in one or two columns
with display equations set between its paragraphs (a single line, a fraction over a rule,
sub- and superscripts, an aligned system of two or three rows), each numbered at the
column's right edge or not, and things a reader must not take for a display: centred
headings, a centred quotation, prose with inline mathematics, a plot with numbered axes.
The mathematics is drawn in the text fonts (Times, Helvetica): no font is named like a math
font, so a display is found by where and how it is set, not by its font.

Splits follow the rule of :mod:`benchmarks.synthetic`: seeds 0-999 are for
development; seeds 100000-199999 are held out, for reporting only, and draw what the dev
split never does: A4 pages, sans-serif text, 9-9.5 pt type, numbers "(2.3)" and "(A4)",
displays set flush left with an indent, other variable letters and other topics.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from benchmarks.synthetic.floats import figure_block
from benchmarks.synthetic.math_drawing import Atom, MathFonts, Run, draw, expression, glyphs, measure
from benchmarks.synthetic.splits import SplitName, split_of
from benchmarks.synthetic.vocabulary import TOPICS, paragraph, sentence

__all__ = ["DisplayGold", "DisplayPaper", "generate_displays"]


@dataclass(frozen=True)
class DisplayGold:
    """One printed display: its page, its box (points from the page's top-left), its printed
    number without the parentheses (``None`` when unnumbered) and its glyphs without spaces."""

    page: int
    top: float
    bottom: float
    x0: float
    x1: float
    label: str | None
    glyphs: str


@dataclass(frozen=True)
class DisplayPaper:
    seed: int
    split: SplitName
    displays: tuple[DisplayGold, ...]
    pages: int
    look: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class _Look:
    size: tuple[float, float]
    body: tuple[str, str, str]  # regular, bold, italic
    math: MathFonts
    text_size: float
    leading: float
    columns: int
    letters: str
    label_forms: tuple[str, ...]
    flush_left: bool
    topics: tuple[str, ...]


def _look(seed: int) -> _Look:
    rng = random.Random(f"look-{seed}")
    if split_of(seed).name == "dev":
        return _Look(
            size=(612.0, 792.0), body=("Times-Roman", "Times-Bold", "Times-Italic"), math=MathFonts("Times-Roman", "Times-Italic"),
            text_size=rng.choice((10.0, 11.0)), leading=rng.uniform(1.15, 1.3), columns=rng.choice((1, 2)),
            letters="abcdfghmnxyz", label_forms=("({n})",), flush_left=False, topics=("ecology", "learning", "materials"),
        )  # fmt: skip
    sans = rng.random() < 0.6
    body = ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique") if sans else ("Times-Roman", "Times-Bold", "Times-Italic")
    return _Look(
        size=(595.28, 841.89), body=body, math=MathFonts("Times-Roman", "Times-Italic"),
        text_size=rng.choice((9.0, 9.5, 10.5)), leading=rng.uniform(1.1, 1.35), columns=rng.choice((1, 2)),
        letters="pqrsuvwEFGHK", label_forms=("({s}.{n})", "(A{n})", "({n})"), flush_left=rng.random() < 0.3,
        topics=("clinical", "economics", "astronomy"),
    )  # fmt: skip


class _Writer:
    """Places items down the columns of successive pages, keeping the displays' gold."""

    def __init__(self, look: _Look, rng: random.Random) -> None:
        self.look, self.rng = look, rng
        width, height = look.size
        self.margin = 60.0
        self.gutter = 18.0
        self.column_width = (width - 2 * self.margin - self.gutter * (look.columns - 1)) / look.columns
        self.pages: list[Canvas] = []
        self.column = look.columns  # past the last: the first item opens a page
        self.y = 0.0
        self.gold: list[DisplayGold] = []
        self.numbers = 0
        self.section = rng.randint(1, 4)

    @property
    def x(self) -> float:
        return self.margin + self.column * (self.column_width + self.gutter)

    @property
    def line(self) -> float:
        return self.look.text_size * self.look.leading

    def room(self, height: float) -> bool:
        """Move to the next column or page when ``height`` points no longer fit; False past two pages."""
        if self.column < self.look.columns and self.y + height <= self.look.size[1] - self.margin:
            return True
        self.column += 1
        if self.column >= self.look.columns:
            if len(self.pages) == 2:
                return False
            self.pages.append(Canvas(*self.look.size))
            self.column = 0
        self.y = self.margin
        return self.y + height <= self.look.size[1] - self.margin

    def paragraph(self, text: str, *, italic: bool = False, centred: bool = False) -> bool:
        font = self.look.body[2] if italic else self.look.body[0]
        size = self.look.text_size
        lines: list[str] = []
        for word in text.split():
            if lines and text_width(f"{lines[-1]} {word}", font, size) <= self.column_width - (0 if lines else 1.5 * size):
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        for index, line in enumerate(lines):
            if not self.room(self.line):
                return False
            width = text_width(line, font, size)
            indent = 1.5 * size if index == 0 and not centred else 0.0
            x = self.x + (self.column_width - width) / 2 if centred else self.x + indent
            # justified: every full line stretched to the column's width
            spaces = line.count(" ")
            stretch = (self.column_width - indent - width) / spaces if spaces and index < len(lines) - 1 and not centred else 0.0
            self.pages[-1].text(x, self.y + size, line, font, size, word_spacing=stretch)
            self.y += self.line
        return True

    def heading(self, text: str, centred: bool) -> bool:
        size = self.look.text_size * 1.15
        if not self.room(3 * self.line):
            return False
        self.y += 0.8 * self.line
        width = text_width(text, self.look.body[1], size)
        x = self.x + (self.column_width - width) / 2 if centred else self.x
        self.pages[-1].text(x, self.y + size, text, self.look.body[1], size)
        self.y += 1.6 * self.line
        return True

    def figure(self) -> bool:
        # a legend with mathematics in it ("fit, k = 0.42"): a plot's text, not a display
        legend = [f"fit, {self.rng.choice(self.look.letters)} = {self.rng.uniform(0.1, 0.9):.2f}", f"data, n = {self.rng.randint(20, 90)}"]
        block = figure_block(self.rng, self.column_width, self.look.body[0], self.look.text_size * 0.8, legend)
        if not self.room(block.height + 2 * self.line):
            return False
        self.y += self.line
        block.draw(self.pages[-1], self.x, self.y)
        self.y += block.height + self.line
        return True

    def fitting(self, make: Callable[[], list[Atom]]) -> list[Atom]:
        """The first of ``make``'s expressions that leaves room for a number beside it (a short one after ten tries)."""
        for _ in range(10):
            atoms = make()
            if measure(atoms, self.look.math, self.look.text_size)[0] <= self.column_width - 8 * self.look.text_size:
                return atoms
        return [Run("x", italic=True), Run(" = "), Run("1")]

    def display(self, rows: list[list[Atom]], numbered: str) -> bool:
        """A display of one or more rows; ``numbered``: "each", "last" or "none"."""
        size, fonts = self.look.text_size, self.look.math
        sizes = [measure(row, fonts, size) for row in rows]
        total = sum(height + depth for _width, height, depth in sizes) + 0.5 * size * (len(rows) - 1)
        if not self.room(total + 2 * self.line):
            return False
        page = len(self.pages)
        self.y += 0.7 * self.line
        widest = max(width for width, _height, _depth in sizes)
        start = self.x + 2.5 * size if self.look.flush_left else self.x + (self.column_width - widest) / 2
        kept: list[tuple[float, float, float, float, str]] = []
        for index, (row, (width, height, depth)) in enumerate(zip(rows, sizes, strict=True)):
            baseline = self.y + height
            draw(self.pages[-1], row, fonts, start, baseline, size)
            label = None
            if numbered == "each" or (numbered == "last" and index == len(rows) - 1):
                self.numbers += 1
                label = self.rng.choice(self.look.label_forms).format(n=self.numbers, s=self.section)
                right = self.x + self.column_width
                self.pages[-1].text(right - text_width(label, fonts.roman, size), baseline, label, fonts.roman, size)
            kept.append((self.y, baseline + depth, start, start + width, glyphs(row)))
            if label is not None or numbered == "none" and index == len(rows) - 1 or numbered == "none" and len(rows) == 1:
                top, x1 = kept[0][0], max(item[3] for item in kept)
                text = "".join(item[4] for item in kept)
                self.gold.append(DisplayGold(page, top, baseline + depth, start, x1, label.strip("()") if label else None, text))
                kept = []
            self.y = baseline + depth + 0.5 * size
        self.y += 0.7 * self.line
        return True


def generate_displays(seed: int) -> tuple[bytes, DisplayPaper]:
    """The PDF of paper ``seed`` and its displays' gold; the same seed gives the same bytes."""
    split = split_of(seed).name
    look = _look(seed)
    rng = random.Random(f"displays-{seed}")
    topic = TOPICS[rng.choice(look.topics)]
    writer = _Writer(look, rng)
    relations = "=<>"
    going = True
    section = 0
    while going:
        roll = rng.random()
        if roll < 0.38:
            going = writer.paragraph(paragraph(topic, rng, mentions=False))
        elif roll < 0.75:
            rows = [writer.fitting(lambda: expression(rng, look.letters, relations)) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
            numbered = rng.choice(("each", "last", "none")) if len(rows) > 1 else rng.choice(("each", "each", "none"))
            going = writer.display(rows, numbered) and writer.paragraph(_after_display(rng, topic))
        elif roll < 0.82:
            section += 1
            going = writer.heading(f"{section} {rng.choice(('Model', 'Estimation', 'Analysis', 'Derivation'))}", centred=rng.random() < 0.5)
        elif roll < 0.88:
            going = writer.paragraph(sentence(topic, rng, mentions=False), italic=True, centred=True)
        elif roll < 0.94:
            going = writer.paragraph(_inline_maths(rng, topic, look.letters))
        else:
            going = writer.figure()
    pdf = write_pdf(writer.pages, f"Displays {seed}")
    look_items = (
        ("columns", str(look.columns)),
        ("size", f"{look.text_size:g}"),
        ("font", look.body[0]),
        ("flush_left", str(look.flush_left)),
    )
    return pdf, DisplayPaper(seed, split, tuple(writer.gold), len(writer.pages), look_items)


def _after_display(rng: random.Random, topic: object) -> str:
    return rng.choice(("where the terms are as defined above.", "which holds for every sample.", "with the constants fitted to the data.",
                       "as shown in the previous section."))  # fmt: skip


def _inline_maths(rng: random.Random, topic: object, letters: str) -> str:
    """A sentence with mathematics in the line: prose, not a display."""
    a, b = rng.choice(letters), rng.choice(letters)
    return (
        f"In this case we set {a} = {rng.randint(2, 9)}{b} + {rng.randint(1, 9)} and keep {b} < {rng.randint(10, 99)} for every "
        f"run, so that the estimate of {a} stays close to the value reported by the earlier studies of the same question."
    )
