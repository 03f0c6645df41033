"""Captions and figures of the generated papers: blocks of known size drawn where the page puts them."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.synthetic.canvas import Canvas, text_width

__all__ = ["Caption", "FloatBlock", "caption_block", "figure_block", "stack"]


@dataclass
class FloatBlock:
    """Something drawn as one piece: its size, and how to draw it with its top-left at (x, y)."""

    width: float
    height: float
    draw: Callable[[Canvas, float, float], None]


@dataclass(frozen=True)
class Caption:
    """A caption as printed: the label ("Table 3."), on a line of its own or not, then the text."""

    label: str
    text: str
    own_line: bool
    bold_label: bool
    centred: bool
    regular: str
    bold: str
    size: float


def _lines(words: list[tuple[str, str]], width: float, size: float) -> list[list[tuple[str, str]]]:
    """(word, font) pairs broken greedily into lines no wider than ``width``."""
    lines: list[list[tuple[str, str]]] = []
    current = 0.0
    for word, font in words:
        add = text_width(word, font, size)
        space = text_width(" ", font, size)
        if lines and current + space + add <= width:
            lines[-1].append((word, font))
            current += space + add
        else:
            lines.append([(word, font)])
            current = add
    return lines


def _runs(line: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Neighbouring words of one font as one run of text."""
    runs: list[tuple[str, str]] = []
    for word, font in line:
        if runs and runs[-1][1] == font:
            runs[-1] = (runs[-1][0] + " " + word, font)
        else:
            runs.append((word, font))
    return runs


def caption_block(caption: Caption, width: float) -> FloatBlock:
    """The caption set in ``width``: centred when it is one line (or asked to be), else flush left."""
    label_font = caption.bold if caption.bold_label else caption.regular
    label_words = [(word, label_font) for word in caption.label.split()]
    text_words = [(word, caption.regular) for word in caption.text.split()]
    if caption.own_line:
        lines = [label_words, *_lines(text_words, width, caption.size)]
    else:
        lines = _lines(label_words + text_words, width, caption.size)
    leading = 1.2 * caption.size
    runs = [_runs(line) for line in lines]

    def line_width(line: list[tuple[str, str]]) -> float:
        return sum(text_width(text, font, caption.size) for text, font in line) + sum(
            text_width(" ", font, caption.size) for _, font in line[:-1]
        )

    widths = [line_width(line) for line in runs]
    centred = caption.centred or len(lines) == 1

    def draw(canvas: Canvas, x: float, y: float) -> None:
        for number, (line, used) in enumerate(zip(runs, widths, strict=True)):
            left = x + (width - used) / 2 if centred else x
            baseline = y + number * leading + 0.8 * caption.size
            for text, font in line:
                left += canvas.text(left, baseline, text, font, caption.size) + text_width(" ", font, caption.size)

    return FloatBlock(width, len(lines) * leading, draw)


def stack(blocks: list[FloatBlock], gap: float, width: float) -> FloatBlock:
    """Blocks one under another, ``gap`` apart, each centred in ``width``."""

    def draw(canvas: Canvas, x: float, y: float) -> None:
        for block in blocks:
            block.draw(canvas, x + (width - block.width) / 2, y)
            y += block.height + gap

    return FloatBlock(width, sum(block.height for block in blocks) + gap * (len(blocks) - 1), draw)


def figure_block(rng: random.Random, width: float, font: str, size: float, legend: list[str]) -> FloatBlock:
    """A line plot: axes with numbered ticks, two or three data lines and a legend (no caption)."""
    height = rng.uniform(90.0, 150.0)
    plot_width = width * rng.uniform(0.7, 0.95)
    ticks_x = [f"{value:g}" for value in range(0, rng.choice((50, 100, 200)) + 1, rng.choice((10, 25, 50)))]
    top_y = rng.choice((1.0, 10.0, 100.0))
    ticks_y = [f"{top_y * step / 4:g}" for step in range(5)]
    framed = rng.random() < 0.5
    lines = [[rng.uniform(0.1, 0.9) for _ in range(8)] for _ in legend]

    def draw(canvas: Canvas, x: float, y: float) -> None:
        left = x + (width - plot_width) / 2 + 4 * size
        right = x + (width + plot_width) / 2
        bottom = y + height - 2 * size
        if framed:
            canvas.box(left, y, right, bottom, 0.5)
        else:
            canvas.rule(left, bottom, right, bottom, 0.5)
            canvas.rule(left, y, left, bottom, 0.5)
        for index, label in enumerate(ticks_x):
            tx = left + (right - left) * index / max(len(ticks_x) - 1, 1)
            canvas.rule(tx, bottom, tx, bottom + 2, 0.4)
            canvas.text(tx - text_width(label, font, size) / 2, bottom + 1.2 * size, label, font, size)
        for index, label in enumerate(ticks_y):
            ty = bottom - (bottom - y) * index / (len(ticks_y) - 1)
            canvas.rule(left - 2, ty, left, ty, 0.4)
            canvas.text(left - 3 - text_width(label, font, size), ty + 0.3 * size, label, font, size)
        for number, (values, label) in enumerate(zip(lines, legend, strict=True)):
            points = [
                (left + (right - left) * index / (len(values) - 1), bottom - (bottom - y) * value) for index, value in enumerate(values)
            ]
            canvas.polyline(points, 0.8)
            canvas.text(right - 60, y + (number + 1.5) * 1.2 * size, label, font, size)

    return FloatBlock(width, height, draw)
