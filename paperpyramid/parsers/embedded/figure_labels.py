"""A plot's text read as headings: its labels in the figures' own face, its axis titles.

Text inside a figure is set larger or bolder than the body often enough (a legend's title, a
panel's title, an axis's title) for the blocks to read it as headings. It is told by where it is
set, not by its words: in a face that sets labels and never a paragraph of prose
(:func:`demote_figure_labels`), or right after a plot's tick numbers in its own face's family
(:func:`demote_axis_titles`). Such a heading becomes a paragraph again.

A plot's text of the body's size read as paragraphs over its caption is set aside
(:func:`set_aside_plot_text`); its small print among the labels dropped as too short goes with its
caption (:func:`mark_figure_small_print`).
"""

from __future__ import annotations

import collections
import re

from paperpyramid.parsers.embedded.blocks import Block, font_family
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.heading_styles import prose

#: a face that sets this many labels (small print, lines of no prose) at least may be the figures' face
_FIGURE_FACE_BLOCKS = 5


def demote_figure_labels(blocks: list[Block]) -> None:
    """A plot's larger labels in the figures' own face are no headings: a legend's title ("Scale
    Est.") or a tick and a key read together ("6 Hampel") in a bold Helvetica among the axis
    numbers set aside as small print, a panel's title ("Empirical and theoretical CDFs") in the
    bold Helvetica of the other panels' titles. The figures' face sets labels (small print, or
    lines that are no paragraph of prose) many times and never a paragraph; a heading in it that
    heads no prose, where no heading in it does, is a label."""
    labels: collections.Counter[str] = collections.Counter()
    prose_faces: set[str] = set()
    for block in blocks:
        if _paragraph(block):
            prose_faces.update(line.font for line in block.lines)
        elif block.kind == "paragraph" or (block.kind == "furniture" and not block.extra.get("contents")):
            labels[block.lines[0].font] += 1
    members: dict[str, list[int]] = {}
    heading_faces: set[str] = set()
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.extra.get("outline") or block.extra.get("run_in"):
            continue
        face = block.lines[0].font
        if not face or labels[face] < _FIGURE_FACE_BLOCKS or face in prose_faces:
            continue
        following = next((other for other in blocks[index + 1 : index + 4] if other.kind not in ("furniture", "aside")), None)
        if following is not None and _paragraph(following):
            heading_faces.add(face)
        else:
            members.setdefault(face, []).append(index)
    for face, indices in members.items():
        if face not in heading_faces:
            for index in indices:
                blocks[index].kind = "paragraph"


#: a plot's tick label: a number alone ("3.5", "−0.25", "10000", "20%")
_TICK = re.compile(r"^[−–-]?\d[\d,]*(?:\.\d+)?%?$")
#: this many tick labels at least right before a line make it an axis's title
_TICKS = 2


def demote_axis_titles(blocks: list[Block]) -> None:
    """A plot's axis or panel title read after its tick labels is no heading, whatever follows it
    (a figure without a caption, the text going on under it: "Log10 of mean expression" after
    "3.0 3.5 4.0", then a paragraph): a heading whose blocks right before it are two tick labels
    or more (:func:`_ticks`: a block each, or an axis's numbers in one), set in its own face's
    family (Helvetica beside Helvetica-Bold), is a label. A section's heading follows text, a
    caption or a table, never a plot's bare numbers in its face."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.extra.get("outline") or block.extra.get("run_in"):
            continue
        family = font_family(block.lines[0].font)
        if not family:
            continue
        ticks = 0
        for before in reversed(blocks[max(0, index - _TICKS * 2) : index]):
            # a plot's ticks are on its title's page: a section opening a page after the last
            # numbers of a table on the page before is a heading
            if before.page != block.page:
                break
            if font_family(before.lines[0].font) != family:
                break
            found = _ticks(before.text)
            if not found:
                break
            ticks += found
        if ticks >= _TICKS:
            block.kind = "paragraph"


def _ticks(text: str) -> int:
    """How many tick labels a block holds: one number, or an axis's numbers read as one line
    ("0 0.01 0.02 0.04", "27 28 29 30") that run in order, as a scale does; a table's row of
    numbers seldom does. None: 0."""
    labels = text.split()
    if not labels or not all(_TICK.match(label) for label in labels):
        return 0
    if len(labels) == 1:
        return 1
    values = [float(label.replace("−", "-").replace("–", "-").replace(",", "").rstrip("%")) for label in labels]
    steps = [b - a for a, b in zip(values, values[1:], strict=False)]
    return len(labels) if all(step > 0 for step in steps) or all(step < 0 for step in steps) else 0


#: a paragraph of prose is this long at least: a plot's key or an axis's title is shorter
_PARAGRAPH_CHARS = 40


def _paragraph(block: Block) -> bool:
    """A paragraph of prose, by its length too: a plot's key ("lognormal loglogistic Pareto Burr")
    or an axis's title ("amount of contamination ε") reads as prose. A line is enough: some
    layouts are read a block to a line."""
    if block.kind != "paragraph":
        return False
    text = block.text  # joined once: the lines' join is the costly part
    return len(text) >= _PARAGRAPH_CHARS and (prose(text) or _caseless_prose(text))


#: of a paragraph in a script without case (Chinese, Hebrew, Arabic), this share of its letters at least
_CASELESS_SHARE = 0.8


def _caseless_prose(text: str) -> bool:
    """A paragraph in a script without letter case: :func:`.heading_styles.prose` counts lowercase
    words, which Chinese, Japanese, Hebrew or Arabic text has none of (and Chinese no spaces between
    words), so there every paragraph would read as a label and the body's face as the figures'."""
    letters = [char for char in text if char.isalpha()]
    caseless = sum(1 for char in letters if not char.islower() and not char.isupper())
    return bool(letters) and caseless >= _CASELESS_SHARE * len(letters)


#: a plot's labels read as paragraphs over its caption: this many blocks at least, two of them ticks
_PLOT_BLOCKS, _PLOT_TICKS = 3, 2
#: a label is shorter than this (characters); a legend's line of keys may run to it
_LABEL_CHARS = 60


def set_aside_plot_text(blocks: list[Block]) -> None:
    """A plot drawn as vectors prints its tick numbers and legend as text, in a size close to the
    body's (so no small print): read in order they are a run of short paragraphs right before the
    figure's caption ("10,000", "2.5", "CPU transistor count Words in architecture manual", "2015"
    over "Figure 1: Complexity growth …"), which landed in the Introduction's text. Such a run
    above the caption, in its column, with no prose in it and two tick labels or more (a list's
    short items hold no bare numbers in order), is the figure's: its labels and numbers are set aside
    with the small print: out of the reading flow, kept with the notes (a forest plot's
    numbers are the paper's words too)."""
    for index, caption in enumerate(blocks):
        if caption.kind != "caption" or caption.extra.get("caption_kind") != "figure":
            continue
        run: list[Block] = []
        for block in reversed(blocks[:index]):
            if block.kind != "paragraph" or not _label_above(block, caption):
                break
            run.append(block)
        if len(run) >= _PLOT_BLOCKS and sum(1 for block in run if _ticks(block.text)) >= _PLOT_TICKS:
            for block in run:
                block.kind = "aside"
                block.extra["plot_text"] = True  # kept with the notes (see mark_figure_small_print)


#: a console's prompt opening a line of code: R's "> " and "R> ", a shell's "$ ", Python's ">>> "
_PROMPT = re.compile(r"^(?:R?>|\$|>>>|\+)\s")


def _label_above(block: Block, caption: Block) -> bool:
    """A short line on the caption's page, above it and over its width, of no prose or of a
    legend's keys ("CPU transistor count Words in architecture manual": read as words, but no
    sentence's end or a paragraph's lowercase tail). Code in a typewriter face is text the paper
    prints, whatever its length: the R input that drew the plot ("> QQP(EBOut)") stops the run,
    and so does a line opening with a console's prompt where the face has no name."""
    text = block.text.strip()
    return (
        not any(MONOSPACE_FONT.search(line.font) for line in block.lines)
        and not _PROMPT.match(text)
        and block.page == caption.page
        and block.lines[-1].bottom <= caption.lines[0].top + 1
        and block.x1 > caption.x0
        and block.x0 < caption.x1
        and len(text) < _LABEL_CHARS
        and (not prose(text) or not (text[:1].islower() or text[-1:] in ".!?:;,"))
    )


#: a figure's drawn labels dropped as too short to be text: this many at least in the run over its caption
_DRAWN_LABELS = 3


def mark_figure_small_print(blocks: list[Block]) -> None:
    """Small print inside a figure's drawn area is the figure's: a diagram's label of four words
    or more ('for entity "New Orleans"' in naacl06's Figure 1), an axis's title ("Time between Old
    Faithful eruptions") was set aside as a note and read with the page's footnotes, while its
    neighbours ('for entity "Katrina"', the tick numbers) were dropped as a figure's labels by their
    length alone. Read in order, the figure's labels are a run of blocks right before its caption
    (the figure above the caption, as most are), on its page, above it and over its width; where
    the run holds :data:`_DRAWN_LABELS` dropped labels or more, its small print is marked with the
    caption's index (``extra["figure_label"]``), to go with the caption
    (:func:`~.assembly.assemble`). A first page's side box or a footnote is no such run's. Plot
    text of the body's size (:func:`set_aside_plot_text`) stays with the notes: it is no small print."""
    for index, caption in enumerate(blocks):
        if caption.kind != "caption" or caption.extra.get("caption_kind") != "figure":
            continue
        run: list[Block] = []
        for block in reversed(blocks[:index]):
            if block.kind not in ("furniture", "aside") or not _inside_above(block, caption):
                break
            run.append(block)
        if sum(1 for block in run if block.kind == "furniture") >= _DRAWN_LABELS:
            for block in reversed(run):
                if block.kind == "aside" and not block.extra.get("plot_text"):
                    block.extra["figure_label"] = index


def _inside_above(block: Block, caption: Block) -> bool:
    """On the caption's page, above it and within its column's width (a figure's label)."""
    return (
        block.page == caption.page
        and block.lines[-1].bottom <= caption.lines[0].top + 1
        and block.x1 > caption.x0
        and block.x0 < caption.x1
    )
