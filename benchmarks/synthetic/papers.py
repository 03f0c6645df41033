"""One generated paper: its PDF and its gold, from a seed and a style (:func:`generate`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Literal

from benchmarks.synthetic.canvas import FONTS, Canvas, text_width, write_pdf
from benchmarks.synthetic.floats import Caption, FloatBlock, caption_block, figure_block, stack
from benchmarks.synthetic.pages import Flow, Geometry, TextStyle
from benchmarks.synthetic.splits import SplitName, SplitParams, roman, split_of
from benchmarks.synthetic.table_content import STYLES, Style, TableContent, table_content
from benchmarks.synthetic.table_drawing import Band, TableDrawing, TableLook, draw_table, wrap_text
from benchmarks.synthetic.vocabulary import TOPICS, Topic, paragraph, title
from paperpyramid.eval.table_scores import TableGrid

__all__ = ["CaptionPosition", "GoldTable", "PaperGold", "generate"]

CaptionPosition = Literal["above", "below", "none"]

_AUTHORS = ("A. Moreau", "J. Okafor", "L. Chen", "M. Rossi", "S. Lindqvist", "P. Novak", "R. Iyer", "K. Tanaka", "E. Silva", "D. Byrne")
_PLACES = ("University of Tartu", "Universidad de Chile", "University of Leeds", "Kyoto University", "ETH Zurich", "McGill University")
# the caption's position goes round with the seed's round of styles (seed // 9), so that any
# four rounds in a row have two tables captioned above, one below and one without a caption
_POSITIONS: tuple[CaptionPosition, ...] = ("above", "below", "none", "above")
_SECTIONS = ("Introduction", "Methods", "Results", "Discussion", "Conclusions")
_NOTES = ("Values are means of three replicates.", "Standard deviations are given after the means.",
          "Dashes mark values that were not measured.", "All values were rounded for display.", "Bold marks the best value in each column.")  # fmt: skip


@dataclass(frozen=True)
class GoldTable:
    """What a generated table is: its grid (label and caption as the JATS gold has them, the
    label without its closing punctuation, the caption without the label), the pages it is
    printed on, and where its caption sits."""

    grid: TableGrid
    pages: tuple[int, ...]
    caption_position: CaptionPosition


@dataclass(frozen=True)
class PaperGold:
    """The gold of one generated paper, and the parameters drawn for it (for reports)."""

    seed: int
    split: SplitName
    style: Style
    tables: tuple[GoldTable, ...]
    figures: tuple[str, ...]
    pages: int
    look: tuple[tuple[str, str], ...]


@dataclass
class _TablePlan:
    content: TableContent
    look: TableLook
    caption: Caption | None
    continued: Caption | None
    position: CaptionPosition
    label: str | None
    text: str
    mention: str  # how the prose names the table ("3", "III")


def generate(seed: int, style: Style) -> tuple[bytes, PaperGold]:
    """The PDF of the paper of ``seed`` with a table in ``style`` (none for ``"no_table"``), and its gold.

    The split is the seed's (:func:`~benchmarks.synthetic.splits.split_of`); the same
    seed and style give the same bytes and gold.
    """
    split = split_of(seed)
    rng = random.Random(f"paperpyramid-synthetic-tables:{seed}:{style}")
    topic = TOPICS[rng.choice(split.topics)]
    columns = 1 if style == "two_page" else rng.choice((1, 2))
    width, height = rng.choice(split.page_sizes)
    margin = rng.uniform(50.0, 72.0)
    geometry = Geometry(width, height, margin, margin, rng.uniform(54.0, 72.0), rng.uniform(54.0, 72.0), columns, rng.uniform(14.0, 24.0))
    family = rng.choice(("times", "times", "helvetica"))
    regular, bold, italic = FONTS[family]
    size = rng.choice((9.0, 9.5, 10.0)) if columns == 2 else rng.choice((10.0, 10.5, 11.0))
    text = TextStyle(regular, bold, italic, size, size * rng.uniform(1.15, 1.25), rng.random() < 0.7, size * rng.choice((0.0, 1.0, 1.5)))
    table_number, figure_number = rng.randint(1, 4), rng.randint(1, 3)
    plan = None if style == "no_table" else _plan_table(seed, style, split, topic, rng, family, size, table_number, geometry.text_width)
    with_figure = rng.random() < (0.7 if style == "no_table" else 0.3)
    figure_caption = f"{rng.choice(('Figure', 'Fig.'))} {figure_number}{rng.choice(('.', ':'))}"
    figure_text = f"{rng.choice(topic.captions)} over the study period."
    flow = Flow(geometry, text, _title_block(topic, rng, geometry, family))
    flow.footer = _footer(rng, regular, italic, geometry, topic.name)
    blocks: dict[str, FloatBlock] = {}
    if plan is not None and style != "two_page":
        blocks["table"] = _table_float(plan, geometry, rng)
        if columns == 2 and blocks["table"].width > geometry.column_width:
            flow.page_top[rng.choice((1, 2, 2))] = [("table", blocks.pop("table"))]
    if with_figure:
        figure_width = geometry.column_width if columns == 2 else geometry.text_width * rng.uniform(0.6, 0.9)
        figure = figure_block(rng, figure_width, regular, 7.0, rng.sample(topic.row_labels, k=rng.randint(2, 3)))
        caption = caption_block(
            Caption(figure_caption, figure_text, False, rng.random() < 0.5, False, regular, bold, size - 1), figure_width
        )
        blocks["figure"] = stack([figure, caption], 0.6 * size, figure_width)
    insert_at = {name: rng.randint(1, 5) for name in blocks}
    target_pages = max([rng.choice((1, 2, 2)), *flow.page_top])
    fill_target = rng.uniform(0.5, 0.95)
    mentions = style != "no_table" or rng.random() < 0.5
    mention = str(table_number) if plan is None else plan.mention
    for number, (heading, prose) in enumerate(_prose(topic, rng, mention, str(figure_number), mentions)):
        for name in [name for name, at in insert_at.items() if at == number]:
            flow.add_float(name, blocks[name])
        if plan is not None and style == "two_page" and "table" not in flow.placed and number >= 1 and _split_fits(flow, plan):
            _place_split_table(flow, plan, rng)
        done = all(name in flow.placed for name in [*insert_at, *(n for n, _ in flow.page_top.get(1, []))]) and not flow.pending
        done = done and (style != "two_page" or "table" in flow.placed)
        if (
            number > 2
            and done
            and (flow.page > target_pages or (flow.page == target_pages and flow.frame_is_last_on_page and flow.fill() >= fill_target))
        ):
            break
        if heading:
            flow.heading(heading)
        flow.paragraph(prose)
    if rng.random() < 0.4:
        _references(flow, rng, topic)
    pdf = write_pdf(flow.pages, f"{topic.name} {seed}")
    tables = () if plan is None else (_gold_table(plan, flow),)
    look = {"topic": topic.name, "page": f"{width:g}x{height:g}", "columns": str(columns), "body": f"{regular} {size:g}"}
    if plan is not None:
        look |= {"table_font": f"{FONTS[plan.look.family][0]} {plan.look.size:g}", "rules": f"{plan.look.rules} {plan.look.rule_width:g}",
                 "gap": f"{plan.look.gap:.1f}", "caption": plan.position}  # fmt: skip
    figures = (f"{figure_caption} {figure_text}",) if with_figure else ()
    return pdf, PaperGold(seed, split.name, style, tables, figures, len(flow.pages), tuple(look.items()))


def _title_block(topic: Topic, rng: random.Random, geometry: Geometry, family: str) -> FloatBlock:
    regular, bold, italic = FONTS[family]
    lines = wrap_text(title(topic, rng), bold, 15.0, geometry.text_width * 0.85)
    authors = ", ".join(rng.sample(_AUTHORS, k=rng.randint(2, 4)))
    place = f"Department of {topic.name.capitalize()}, {rng.choice(_PLACES)}"
    rows = [(line, bold, 15.0) for line in lines] + [(authors, regular, 10.0), (place, italic, 9.0)]

    def draw(canvas: Canvas, x: float, y: float) -> None:
        for line, font, size in rows:
            y += 1.3 * size
            canvas.text(x + (geometry.text_width - text_width(line, font, size)) / 2, y, line, font, size)

    return FloatBlock(geometry.text_width, sum(1.3 * size for _, _, size in rows) + 4.0, draw)


def _footer(rng: random.Random, regular: str, italic: str, geometry: Geometry, topic: str) -> Callable[[Canvas, int], None]:
    numbered, running = rng.random() < 0.6, rng.random() < 0.4
    journal = f"Journal of Applied {topic.capitalize()} {rng.randint(3, 40)} ({rng.randint(2012, 2024)})"

    def footer(canvas: Canvas, page: int) -> None:
        if numbered:
            label = str(page)
            canvas.text((geometry.width - text_width(label, regular, 9.0)) / 2, geometry.height - geometry.bottom / 2, label, regular, 9.0)
        if running:
            canvas.text(geometry.left, geometry.top / 2, journal, italic, 8.0)

    return footer


def _prose(topic: Topic, rng: random.Random, table: str, figure: str, mentions: bool) -> Iterator[tuple[str | None, str]]:
    """(heading or None, paragraph) pairs: the sections in order, then more discussion."""
    numbering = rng.choice(("arabic", "roman", "none"))
    for index, name in enumerate(_SECTIONS):
        heading = {"arabic": f"{index + 1} {name}", "roman": f"{roman(index + 1)}. {name.upper()}", "none": name}[numbering]
        for count in range(rng.randint(2, 4)):
            yield (heading if count == 0 else None), paragraph(topic, rng, table=table, figure=figure, mentions=mentions)
    while True:
        yield None, paragraph(topic, rng, table=table, figure=figure, mentions=mentions)


def _references(flow: Flow, rng: random.Random, topic: Topic) -> None:
    flow.heading("References")
    for number in range(1, rng.randint(3, 6) + 1):
        authors = ", ".join(rng.sample(_AUTHORS, k=rng.randint(1, 3)))
        flow.paragraph(
            f"[{number}] {authors}. {title(topic, rng)}. Journal of {topic.name.capitalize()} {rng.randint(1, 60)}, {rng.randint(1, 900)} ({rng.randint(1990, 2023)})."
        )


# --------------------------------------------------------------------------- the table


def _plan_table(
    seed: int, style: Style, split: SplitParams, topic: Topic, rng: random.Random, family: str, body_size: float, number: int, limit: float
) -> _TablePlan:
    rules = {"ruled": "grid", "booktabs": "booktabs", "unruled": "none"}.get(style) or rng.choice(("booktabs", "booktabs", "grid", "none"))
    size = rng.choice(split.table_sizes)
    gap = rng.uniform(*split.tight_gaps) if style == "tight_numeric" else rng.uniform(*split.column_gaps) * size
    table_family = rng.choice((family, family, family, "helvetica", "courier"))
    look = TableLook(table_family, size, rules, rng.choice(split.rule_widths), gap,  # type: ignore[arg-type]
                     rng.choice(("right", "right", "center", "left")), rng.random() < 0.4, rng.random() < 0.5)  # fmt: skip
    position = _POSITIONS[(seed // len(STYLES)) % len(_POSITIONS)]
    if style == "two_page" and position == "below":
        position = "above"  # a long table's caption heads its first page
    content = table_content(style, split, topic, rng, rows=40 if style == "two_page" else None)
    for _ in range(30):  # a table wider than any page's text is drawn again with other columns
        if draw_table(content, look).width <= limit:
            break
        content = table_content(style, split, topic, rng, rows=40 if style == "two_page" else None)
    else:
        look = replace(look, size=7.0, gap=min(look.gap, 4.0))
    form = rng.choice(split.caption_forms)
    printed = form.format(n=number, roman=roman(number)).rstrip("\n")
    text = f"{rng.choice(topic.captions)}." + (f" {rng.choice(_NOTES)}" if rng.random() < 0.4 else "")
    regular, bold, _ = FONTS[family]
    caption_size = rng.choice((size, body_size - 1))
    bold_label, centred = rng.random() < 0.5, rng.random() < 0.3
    caption = continued = None
    if position != "none":
        caption = Caption(printed, text, form.endswith("\n"), bold_label, centred, regular, bold, caption_size)
        continued_label = rng.choice(split.continued_forms).format(n=number, roman=roman(number))
        continued = Caption(continued_label, "", False, bold_label, centred, regular, bold, caption_size)
    label = printed.rstrip(".:|").strip() if position != "none" else None
    mention = roman(number) if "{roman}" in form else str(number)
    return _TablePlan(content, look, caption, continued, position, label, text if position != "none" else "", mention)


def _table_float(plan: _TablePlan, geometry: Geometry, rng: random.Random) -> FloatBlock:
    drawing = draw_table(plan.content, plan.look)
    table = _table_piece(drawing, drawing.header + drawing.body)
    if plan.caption is None:
        return table
    inline = geometry.columns == 1 or drawing.width <= geometry.column_width
    frame_width = geometry.column_width if inline else geometry.text_width
    width = max(drawing.width, frame_width if rng.random() < 0.6 else min(frame_width, max(drawing.width, 150.0)))
    caption = caption_block(plan.caption, width)
    gap = 0.8 * plan.look.size
    return stack([caption, table] if plan.position == "above" else [table, caption], gap, width)


def _table_piece(drawing: TableDrawing, bands: list[Band]) -> FloatBlock:
    """The rows ``bands`` of a table (all of them, or one page's) as a block."""

    def draw(canvas: Canvas, x: float, y: float) -> None:
        drawing.draw(canvas, x, y, bands)

    return FloatBlock(drawing.width, drawing.piece_height(bands), draw)


def _piece_sizes(drawing: TableDrawing) -> tuple[float, float, float]:
    """(header height with the rules' room, one body row's height, the rules' room alone)."""
    extra = drawing.piece_height([])
    return drawing.piece_height(drawing.header), drawing.body[0].height, extra


def _split_fits(flow: Flow, plan: _TablePlan) -> bool:
    """The table's caption, header and three rows fit here, in the lower half of the first page's text."""
    drawing = draw_table(plan.content, plan.look)
    header, row, _ = _piece_sizes(drawing)
    caption = caption_block(plan.caption, drawing.width).height + 0.8 * plan.look.size if plan.caption else 0.0
    frame = flow.frame
    return caption + header + 3 * row + 2 * flow.text.leading <= flow.room <= 0.55 * (frame.bottom - frame.top)


def _place_split_table(flow: Flow, plan: _TablePlan, rng: random.Random) -> None:
    """The table at the cursor, its rows running over the frame's end into the next page."""
    gap = 0.8 * plan.look.size
    drawing = draw_table(plan.content, plan.look)
    header, row, _ = _piece_sizes(drawing)
    caption = caption_block(plan.caption, drawing.width).height + gap if plan.caption else 0.0
    flow.skip(flow.text.leading)
    fit = int((flow.room - caption - header) // row)
    plan.content = replace(plan.content, body=plan.content.body[: fit + rng.randint(4, 12)])
    drawing = draw_table(plan.content, plan.look)
    repeat = plan.caption is None or rng.random() < 0.7
    pieces = [drawing.header + drawing.body[:fit], (drawing.header if repeat else []) + drawing.body[fit:]]
    for number, bands in enumerate(pieces):
        table = _table_piece(drawing, bands)
        caption_of = plan.caption if number == 0 else plan.continued
        block = table if caption_of is None else stack([caption_block(caption_of, drawing.width), table], gap, drawing.width)
        frame = flow.frame
        flow.place_here("table", block, (frame.x1 - frame.x0 - block.width) / 2)
        if number == 0:
            flow.next_frame(keep_pending=True)  # the rows go on at the next page's top, before any waiting float
    flow.skip(flow.text.leading)


def _gold_table(plan: _TablePlan, flow: Flow) -> GoldTable:
    pages = tuple(sorted(set(flow.placed.get("table", []))))
    return GoldTable(TableGrid(plan.label, plan.text, plan.content.gold_rows()), pages, plan.position)
