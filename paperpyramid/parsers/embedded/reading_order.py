"""Page clean-up and reading order: running heads and feet, page numbers, lone numbers in
the outer margins, side stamps, and the column layout of each page. A review copy's columns of
line numbers left the page where it was read (:func:`~.line_numbers.line_number_marks`)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from statistics import median

from paperpyramid.parsers.embedded.blocks import is_reference_heading
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.numbered_rows import end_row, numbered_rows, text_lines
from paperpyramid.parsers.embedded.regions import (
    ASIDE_COLUMN,
    crossings,
    grid_cut,
    least_crossed,
    local_gutter,
    side_column,
    single_page_furniture,
    two_sided,
)

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^(page\s*)?[\divxlc]{1,4}(\s*(/|of)\s*\d{1,4})?$", re.I)
_ARXIV_STAMP = re.compile(r"arXiv:\s*\d{4}\.\d{4,5}(v\d+)?|arXiv:[a-z\-]+/\d{7}", re.I)
_MARGIN_BAND = 0.085
#: where a running head found in the band of other pages is still taken for one
_WIDE_BAND = 0.13


def furniture_keys(pages: list[Page]) -> set[str]:
    """The running heads and feet of ``pages``, as :func:`line_key` writes them: the texts
    (digits ignored) that stand in the top or bottom band of several pages, or a little further
    in (:data:`_WIDE_BAND`) on the same baseline of three pages or more: a head set low, whose
    lowered letters (TeX's logo, a subscript) or deep top margin keep it out of the narrow band,
    repeated word for word in one place as no heading of the text is."""
    band_keys: Counter[str] = Counter()
    placed: Counter[tuple[str, int]] = Counter()
    for page in pages:
        band_keys.update({line_key(line.text) for line in page.lines if _in_band(line, page)})
        placed.update({(line_key(line.text), round(line.bottom)) for line in page.lines if _in_band_of(line, page.height, _WIDE_BAND)})
    repeated = max(2, round(len(pages) * 0.3)) if len(pages) > 2 else 2
    found = {key for key, count in band_keys.items() if count >= repeated}
    return found | {key for (key, _), count in placed.items() if count >= max(3, repeated) and any(ch.isalpha() for ch in key)}


def remove_page_furniture(pages: list[Page], furniture: set[str] | None = None) -> None:
    """Drop running heads and feet, page numbers, lone numbers in the outer margins, side stamps
    and rotated text.

    A line in the top or bottom band of the page is furniture when the same text (digits
    ignored) appears in that band on several pages (:func:`furniture_keys`, or ``furniture`` where
    the caller has them already), or when it is only a page number; not a cell of a table's row
    set there (:func:`_a_rows_cell`). Heads whose text changes go where they recur in place
    (:func:`placed_heads`) or sit on a row with a number that counts the pages
    (:func:`.numbered_rows.numbered_rows`). A document of one page has no recurrence: its head and foot are found by
    position and pattern (:func:`regions.single_page_furniture`).
    """
    if len(pages) == 1:
        dropped = single_page_furniture(pages[0])
        pages[0].lines = [line for line in pages[0].lines if not any(line is item for item in dropped)]
    furniture = furniture_keys(pages) if furniture is None else furniture
    titles = _titles_repeated(pages, furniture)
    rows = numbered_rows(pages)  # read before a page number in the band goes: it tells the head beside it
    removed: list[list[Line]] = []
    for page in pages:
        before = page.lines
        kept = []
        for line in page.lines:
            text = line.text.strip()
            if line.vertical or _ARXIV_STAMP.search(text) and (line.x0 < page.width * 0.12 or line.width < line.height):
                continue
            if any(line is title for title in titles):
                line.tags.add(REPEATED_TITLE)
                kept.append(line)
                continue
            in_band = _in_band(line, page) and (line_key(text) in furniture or _PAGE_NUMBER.match(text)) and not _labels_a_line(line, page)
            # the same head a little further in: a landscape page, a page of another size
            further_in = line_key(text) in furniture and _in_band_of(line, page.height, _WIDE_BAND)
            if (in_band or further_in) and not _a_rows_cell(line, page.lines, furniture):
                continue
            if (
                text.isdigit()
                and len(text) <= 4
                and (line.x1 < page.width * 0.13 or line.x0 > page.width * 0.87)
                and not _marks_a_line(line, page)
                and not _labels_a_line(line, page)
            ):
                continue  # a lone number in the outer margin: a stray line number, a mark set out there (not a superscript beside its line)
            kept.append(line)
        page.lines = kept
        removed.append(_gone(before, kept))
    for page, heads, numbered in zip(pages, placed_heads(pages, removed), rows, strict=True):
        page.lines = [line for line in page.lines if not any(line is head for head in (*heads, *numbered))]


#: the tag of a first page's line kept as its title though the running heads repeat it
REPEATED_TITLE = "repeated title"


def _titles_repeated(pages: list[Page], furniture: set[str]) -> list[Line]:
    """The first page's lines that a running head or foot repeats but that are its title (or
    its authors' names), not a head: set in bold or in the page's largest type where every
    repeat on the other pages is roman and smaller (TUGboat's odd pages' feet repeat the title,
    its even pages' the authors). Not in the page's top or bottom band, where a masthead stands."""
    if len(pages) < 2:
        return []
    first = pages[0]
    largest = max((line.size for line in first.lines), default=0.0)
    candidates = [
        line
        for line in first.lines
        if line_key(line.text) in furniture and (line.bold or line.size >= largest - 0.1) and not _in_band(line, first)
    ]
    if not candidates:
        return []
    repeats: dict[str, list[Line]] = defaultdict(list)
    for page in pages[1:]:
        for line in page.lines:
            repeats[line_key(line.text)].append(line)
    return [
        line
        for line in candidates
        if (others := repeats[line_key(line.text)])
        and not any(other.bold for other in others)
        and (line.bold or all(other.size < line.size - 0.5 for other in others))
    ]


#: a page's top or bottom row is set off from the text by this many of its lines' heights (a row
#: of page numbers alone by this many)
_EDGE_GAP = 1.2
_NUMBER_GAP = 0.5
#: the share of pages (three at least) a running head's place recurs on
_HEAD_SHARE = 0.3
#: a float's caption: set at the top of several pages (MNRAS's tables) it recurs in place, but it is no head
_FLOAT_CAPTION = re.compile(r"^(?:Table|TABLE|Figure|FIGURE|Fig\.)\s*[A-Z]?\d+[a-z]?[.:]?\s")


def _gone(before: list[Line], kept: list[Line]) -> list[Line]:
    """The lines of ``before`` not in ``kept``, by identity."""
    ids = {id(line) for line in kept}
    return [line for line in before if id(line) not in ids]


def placed_heads(pages: list[Page], removed: list[list[Line]] | None = None) -> list[list[Line]]:
    """Running heads and feet whose text changes from page to page (the section's title, odd and
    even pages' authors and title, "2 MODEL" over one page and "REFERENCES" over another): each
    page's top and bottom rows set off from the text by a gap, that recur in the same place
    (font, size and baseline) on a share of the pages. Where the text repeats,
    :func:`furniture_keys` finds them by it; these sit anywhere in the margin, often below its
    band; a float's caption at the page's top is none (:data:`_FLOAT_CAPTION`), nor a section's
    heading that opens pages on the text's first baseline (:func:`_opens_the_text`). The heads
    already ``removed`` for their repeated text (each page's) count for the place: R News sets the
    paper's title over the right of two pages and "BIBLIOGRAPHY" there on the third. A line on
    a head's baseline in its type is one too: "SUMMARY" at the left of that row. Returns the
    lines of each page."""
    if len(pages) < 3:
        return [[] for _ in pages]
    rows = [[*_edge_row(page, top=True), *_edge_row(page, top=False)] for page in pages]
    rows = [[line for line in row if not _FLOAT_CAPTION.match(line.text.strip())] for row in rows]
    # where the heads stand: the rows, and the heads of repeated text already taken away (no page number)
    gone = removed or [[] for _ in pages]
    places = [[*row, *(line for line in lines if not _PAGE_NUMBER.match(line.text.strip()))] for row, lines in zip(rows, gone, strict=True)]
    needed = max(3, round(len(pages) * _HEAD_SHARE))
    heads = [[line for line in row if len(_pages_in_place(line, pages, places)) >= needed] for row in rows]
    heads = [[line for line in row if any(_in_place(line, head) for head in found)] for row, found in zip(rows, heads, strict=True)]
    # a page whose first line is set off by a gap (a head of its own, found or not; a masthead) says nothing
    tops = [None if _edge_row(page, top=True) else _text_top(page, row) for page, row in zip(pages, heads, strict=True)]
    return [[line for line in row if not _opens_the_text(line, page, heads, tops)] for page, row in zip(pages, heads, strict=True)]


def _pages_in_place(line: Line, pages: list[Page], rows: list[list[Line]]) -> set[int]:
    return {page.number for page, row in zip(pages, rows, strict=True) for other in row if _in_place(other, line)}


def _in_place(line: Line, other: Line) -> bool:
    """Whether two lines stand in one place: font, size and baseline."""
    return other.font == line.font and abs(other.size - line.size) < 0.3 and abs(other.bottom - line.bottom) < 2


def _text_top(page: Page, heads: list[Line]) -> float | None:
    """Where a page's text begins, below its running heads."""
    return min(
        (line.top for line in page.lines if not line.vertical and line.text.strip() and not any(line is head for head in heads)),
        default=None,
    )


def _opens_the_text(line: Line, page: Page, heads: list[list[Line]], tops: list[float | None]) -> bool:
    """Whether a top row found in place on several pages is the text's first line there, not a
    running head: a section's heading that opens a page (achemso's manuscripts set
    "Introduction", "Acknowledgement" and "TOC Graphic" each at the top of a page). Every other
    page after the first, without a line in that place, starts its text as high as the line
    stands, where a running head stands above the text of all."""
    if line.top > page.height / 2:
        return False
    others = [
        top for row, top in zip(heads[1:], tops[1:], strict=True) if top is not None and not any(_in_place(other, line) for other in row)
    ]
    return bool(others) and all(top <= line.bottom for top in others)


def _edge_row(page: Page, *, top: bool) -> list[Line]:
    """The lines on the page's first (``top``) or last baseline, when a gap of more than
    :data:`_EDGE_GAP` of their height parts them from the rest of the text."""
    lines = text_lines(page)
    if len(lines) < 3:
        return []
    row = end_row(lines, top=top)
    if top:
        inner = max(line.bottom for line in row)
        gaps = [line.top - inner for line in lines if line.top >= inner - 0.5]
    else:
        inner = min(line.top for line in row)
        gaps = [inner - line.bottom for line in lines if line.bottom <= inner + 0.5]
    if not gaps:
        return []
    # a page number alone on its row may sit closer to text set down to the foot (a reference
    # list in smaller type runs lower than the body), still in its place (:func:`_pages_in_place`)
    gap = _NUMBER_GAP if all(_PAGE_NUMBER.match(line.text.strip()) for line in row) else _EDGE_GAP
    return row if min(gaps) >= gap * max(line.height for line in row) else []


def page_furniture(lines: list[Line], height: float, furniture: set[str]) -> list[Line]:
    """The lines of a page read apart (the table engine's own reading, cut around numbers) that
    are its running head or foot: in the top or bottom band, and part of one of ``furniture``
    (:func:`furniture_keys`) or a page number."""
    return [
        line
        for line in lines
        if _in_band_of(line, height)
        and (_PAGE_NUMBER.match(line.text.strip()) or bool(key := line_key(line.text)) and any(key in head for head in furniture))
        and not _a_rows_cell(line, lines, furniture)
    ]


def _a_rows_cell(number: Line, lines: Sequence[Line], furniture: set[str]) -> bool:
    """Whether a number in the page's top or bottom band is a cell of a table's row set there
    ("Total | 186 | 306"; a listing's numbered line), not its page number: it stands on one
    baseline with words no running head or foot holds, right under a number of the row above (its
    column's). A page number beside a first page's own foot line ("Journal of X 12 (2020) 1-10")
    is set off from the text above it."""
    if any(ch.isalpha() for ch in number.text):
        return False
    beside = any(
        other is not number
        and abs(other.mid_y - number.mid_y) < 0.5 * number.height
        and any(ch.isalpha() for ch in other.text)
        and not any(line_key(other.text) in head for head in furniture)
        for other in lines
    )
    return beside and any(
        other.x0 < number.x1
        and number.x0 < other.x1
        and 0 <= number.top - other.bottom < number.height
        and any(ch.isdigit() for ch in other.text)
        and not any(ch.isalpha() for ch in other.text)
        for other in lines
    )


def _marks_a_line(number: Line, page: Page) -> bool:
    """A small number set just left of a line's start, raised off its baseline: an
    affiliation's or a footnote's mark ("¹ School of …"), not a review copy's line number."""
    return number.size < 0.8 * max((line.size for line in page.lines), default=number.size) and any(
        -0.5 <= line.x0 - number.x1 < 12 and abs(line.top - number.top) < line.height and line.size > number.size for line in page.lines
    )


def _labels_a_line(number: Line, page: Page) -> bool:
    """A number on a line's baseline just left of where that line starts, in the line's own size:
    a list's label set apart ("19   Liao, T. D., …" in a reference list with hanging numbers),
    not a page number or a review copy's line number (those stand alone on their baseline)."""
    return any(
        line is not number
        and 0 <= line.x0 - number.x1 < 2 * number.height
        and abs(line.bottom - number.bottom) < 0.3 * line.height
        and abs(line.size - number.size) < 0.5
        for line in page.lines
    )


def _in_band(line: Line, page: Page) -> bool:
    return _in_band_of(line, page.height)


def _in_band_of(line: Line, height: float, band: float = _MARGIN_BAND) -> bool:
    return line.bottom < height * band or line.top > height * (1 - band)


def line_key(text: str) -> str:
    """A line's text as running heads are compared: lower case, every number ``#``."""
    return _DIGITS.sub("#", text.lower()).strip()


def order_page(page: Page) -> list[Line]:
    """Return the page's lines in reading order, setting ``line.column``.

    A page is two-column when a vertical gutter near the middle is crossed by few lines, and
    three-column when one side of that gutter holds a second one (reference lists, some
    journals). Lines that cross a gutter (titles, wide figures and tables) cut the page into
    bands; each band is read column by column, left to right, and so is each row of a grid of
    panels (an empty band across the columns, text on both sides above and below it).

    Without such a gutter, a box beside a one-column body (:func:`regions.side_column`) is read
    after the body, tagged ``aside``; a two-column block under full-width text is found by
    its own lines (:func:`regions.local_gutter`).
    """
    lines = page.lines
    if not lines:
        return []
    gutters = _find_gutters(page)
    side = [] if gutters else side_column(page)
    if side:
        main = order_page(replace(page, lines=[line for line in lines if not any(line is item for item in side)]))
        for line in side:
            line.column = ASIDE_COLUMN
            line.tags.add("aside")
        return main + _rows(side)
    local = not gutters
    if local:
        gutter = local_gutter(page)
        gutters = [gutter] if gutter is not None else []
    if not gutters:
        for line in lines:
            line.column = 0
        return _rows(lines)
    ordered: list[Line] = []
    columns: dict[int, list[Line]] = {}

    def flush() -> list[Line]:
        if local and not two_sided(columns, page.width):  # not column text: read as rows
            rest = [line for column in columns.values() for line in column]
            for line in rest:
                line.column = 0
            columns.clear()
            return _rows(rest)
        out = [line for column in sorted(columns) for line in _rows(columns[column])]
        columns.clear()
        return out

    def fits(row: list[Line]) -> bool:
        return all(line.x1 <= gutter + 1 or line.x0 >= gutter - 1 for line in row for gutter in gutters)

    rows = _bands(lines)
    gap_min = 3 * median(line.height for line in lines)  # three lines' height: more than a paragraph's or a heading's space
    lowest = 0.0  # the bottom of the lowest line in ``columns``
    for index, row in enumerate(rows):
        if fits(row):
            top = min(line.top for line in row)
            below = _run(rows[index:], fits) if columns and top - lowest >= gap_min else []
            if below and (grid_cut(columns, below, gutters, gap_min) or _small_print_band(columns, below, gutters)):
                ordered += flush()
            lowest = max(lowest, *(line.bottom for line in row)) if columns else max(line.bottom for line in row)
            for line in row:
                line.column = 1 + sum(1 for gutter in gutters if line.x0 >= gutter - 1)
                columns.setdefault(line.column, []).append(line)
            continue
        # a line across a gutter (a title, a wide figure, names set across the page) cuts
        # the page there; the lines beside it on its row are read with it, left to right
        ordered += flush()
        for line in row:
            line.column = 0
        ordered += _rows(row)
    ordered += flush()
    return ordered


def _small_print_band(above: dict[int, list[Line]], below: list[list[Line]], gutters: list[float]) -> bool:
    """Whether the rows under an empty band across the columns are small print balanced across
    them, to be read after the text above in all columns: REVTeX sets a page's first entries of
    its reference list at the feet of both columns, in smaller type, each part opening at one
    height ("[1] E. Witten," | "[2] See the explanation …"). :func:`.regions.grid_cut` wants two
    lines in each column under the band; a column's part of a list at a page's foot may hold one.
    The text above ends in both columns (no hyphen or comma) and the print below opens no
    sentence's middle (no lower case), as a grid's rows do."""
    if sum(1 for lines in above.values() if len(lines) >= 2) < 2:
        return False
    under: dict[int, list[Line]] = {}
    for row in below:
        for line in row:
            under.setdefault(sum(1 for gutter in gutters if line.x0 >= gutter - 1), []).append(line)
    if len(under) < 2 or max(len(lines) for lines in under.values()) < 2:
        return False
    body = median(line.size for lines in above.values() for line in lines)
    if any(line.size >= 0.95 * body for lines in under.values() for line in lines):
        return False
    firsts = [min(lines, key=lambda line: line.top) for lines in under.values()]
    lasts = [max(lines, key=lambda line: line.bottom) for lines in above.values()]
    if any(line.text.rstrip().endswith(("-", ",")) for line in lasts) or any(line.text.lstrip()[:1].islower() for line in firsts):
        return False
    tops = [line.top for line in firsts]
    return max(tops) - min(tops) < max(line.height for line in firsts)


def _run(rows: list[list[Line]], fits: Callable[[list[Line]], bool]) -> list[list[Line]]:
    """The leading rows that fit between the gutters, up to the first that crosses one."""
    out: list[list[Line]] = []
    for row in rows:
        if not fits(row):
            break
        out.append(sorted(row, key=lambda line: line.x0))
    return out


def _bands(lines: list[Line]) -> list[list[Line]]:
    """Lines top to bottom in rows: a line whose middle lies within the band of the row's tallest line."""
    rows: list[list[Line]] = []
    # the row's tallest line (the first of them) sets its band: a superscript first in the row does not narrow it
    anchor: Line | None = None
    for line in sorted(lines, key=lambda item: item.top):
        if anchor is not None and abs(line.mid_y - anchor.mid_y) < max(anchor.height, line.height, 1.0) * 0.4:
            rows[-1].append(line)
            anchor = line if line.height > anchor.height else anchor
        else:
            rows.append([line])
            anchor = line
    return rows


def _rows(lines: list[Line]) -> list[Line]:
    """Sort top to bottom; lines sharing a baseline (table cells, split lines) left to right."""
    if not lines:
        return []
    rows = _bands(lines)
    out: list[Line] = []
    for row in rows:
        row.sort(key=lambda item: item.x0)
        if len(row) == 2 and _SECTION_NUMBER.match(row[0].text) and row[1].x0 - row[0].x1 < row[1].size * 6:
            row = [_merge(row[0], row[1])]  # "1" and "Introduction" set apart by a wide gap
        if len(row) > 1:
            row = _rejoined(row)
        if len(row) > 1 and not _beside_side_column(row):
            for line in row:
                line.tags.add("row")
        out += row
    return out


def _rejoined(row: list[Line]) -> list[Line]:
    """The row with each line that goes on where the line before it stops (no more than a word
    space after it, in the same type) and opens with a footnote mark then words, joined to it:
    one printed line that pdfium broke in two at a raised mark ("(Radev et al., 2009)⁶ derived
    from the ACL"). Read as two, the first ended its paragraph mid-sentence and the second was set
    apart as a table's row. Cells of a table are set further apart than a word space, and the
    pieces of a display formula, which also touch, open with no mark."""
    joined = [row[0]]
    for line in row[1:]:
        before = joined[-1]
        gap = line.x0 - before.x1
        if (
            -0.1 * before.size <= gap <= _WORD_SPACE * before.size
            and abs(line.size - before.size) <= 0.1 * before.size
            and _MARK_THEN_WORDS.match(line.text)
        ):
            before.text = f"{before.text}{' ' if gap > _TOUCHING * before.size else ''}{line.text}"
            before.x1 = max(before.x1, line.x1)
            before.top = min(before.top, line.top)
            before.bottom = max(before.bottom, line.bottom)
        else:
            joined.append(line)
    return joined


#: the widest gap (in ems of the line's type) that is a word space, and the narrowest that is one at all
_WORD_SPACE, _TOUCHING = 0.3, 0.12
#: a footnote mark (a number, a list of them, a printer's sign) then a word: "6 derived from"
_MARK_THEN_WORDS = re.compile(r"^(?:\d{1,3}(?:[,–-]\d{1,3})*|[*†‡§¶]{1,3}),?\s+[^\W\d_]{2,}")


def _beside_side_column(row: list[Line]) -> bool:
    """Two lines on one baseline that are no table's cells: a line of a side column's small print
    (a first page's notes, PLOS's left margin) far from a line in larger type (a heading of the body
    beside it). Cells of one row share their type, or sit closer."""
    if len(row) != 2:
        return False
    small, large = sorted(row, key=lambda line: line.size)
    gap = row[1].x0 - row[0].x1
    return small.size < 0.8 * large.size and gap > large.size


_SECTION_NUMBER = re.compile(r"^([1-9]\d?(\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.?|[A-H](\.\d{1,2}){0,3}\.?)$")


def _merge(number: Line, title: Line) -> Line:
    title.text = f"{number.text} {title.text}"
    title.x0 = number.x0
    title.top = min(number.top, title.top)
    title.bottom = max(number.bottom, title.bottom)
    title.bold_prefix = title.bold_prefix + len(number.text) + 1 if number.bold else 0
    return title


def _find_gutter(page: Page) -> float | None:
    """The x of a two-column page's gutter, or None for a one-column page.

    A first page often sets its title, authors and abstract across the full width above two
    columns, too many lines crossing any gutter: then the test is made again on the lines that
    fit in a column (the wide ones still cut the page into bands in :func:`order_page`), when
    they are most of the page.
    """
    lines = [line for line in page.lines if len(line.text) > 1]
    if len(lines) < 12:
        return None
    found = _gutter_of(lines, page.width)
    if found is None:
        narrow = [line for line in lines if line.width < page.width * 0.55]
        if len(narrow) >= max(12, 0.5 * len(lines)):
            # column text, not a table's cells side by side: lines a third of the page wide on each side
            found = _gutter_of(narrow, page.width, min_width=0.3)
    if found is None and page.number == 1:
        found = _sidebar(lines, page.width)
    return found


def _find_gutters(page: Page) -> list[float]:
    """The gutters of the page, left to right: none, one, or two (three columns)."""
    gutter = _find_gutter(page)
    if gutter is None:
        return []
    lines = [line for line in page.lines if len(line.text) > 1]
    width = page.width
    for lo, hi, side in (
        (width * 0.2, gutter - width * 0.15, [line for line in lines if line.x1 <= gutter + 1]),
        (gutter + width * 0.15, width * 0.8, [line for line in lines if line.x0 >= gutter - 1]),
    ):
        second = _second_gutter(side, width, lo, hi)
        if second is not None:
            return sorted([gutter, second])
    return [gutter]


def _second_gutter(lines: list[Line], width: float, lo: float, hi: float) -> float | None:
    """A gutter between ``lo`` and ``hi`` that no more than a tenth of ``lines`` cross, with five
    lines or more of column text (over a seventh of the page wide) on each side."""
    if len(lines) < 10 or hi <= lo:
        return None
    steps = [lo + 2.0 * step for step in range(int((hi - lo) / 2.0) + 1)]
    crossed = crossings(lines, steps)
    cross = min(crossed)
    best = steps[crossed.index(cross)]
    left = sum(1 for line in lines if line.x1 <= best + 1 and line.width > width * 0.15)
    right = sum(1 for line in lines if line.x0 >= best - 1 and line.width > width * 0.15)
    return best if left >= 5 and right >= 5 and cross <= 0.1 * len(lines) else None


def _gutter_of(lines: list[Line], width: float, min_width: float = 0.15) -> float | None:
    best_x, best_cross = least_crossed(lines, width)
    left = sum(1 for line in lines if line.x1 <= best_x + 1 and line.width > width * min_width)
    right = sum(1 for line in lines if line.x0 >= best_x - 1 and line.width > width * min_width)
    if left >= 5 and right >= 5 and best_cross <= 0.2 * len(lines):
        return best_x
    return None


def _sidebar(lines: list[Line], width: float) -> float | None:
    """A first page's box of short lines beside the abstract (F1000's referee status, PeerJ's
    dates and licence): a gutter right of the column text (lines over a third of the page wide
    starting at its left margin) that few lines cross, with ten lines or more right of it."""
    column = sorted(line.x1 for line in lines if line.x0 < width * 0.3 and width * 0.3 < line.width < width * 0.7)
    if len(column) < 8:
        return None
    edge = column[len(column) // 2]
    steps = range(int(edge) + 2, int(edge) + 40, 2)
    crossed = crossings(lines, steps)
    crossing = min(crossed)
    best = steps[crossed.index(crossing)]
    left = sum(1 for line in lines if line.x1 <= best + 1 and line.width > width * 0.3)
    right = sum(1 for line in lines if line.x0 >= best - 1)
    return float(best) if left >= 8 and right >= 10 and crossing <= 0.2 * len(lines) else None


_MOJIBAKE_RATIO = 0.3
_MOJIBAKE_LETTERS = frozenset("ÂÃÄÅÆÈÉÊËÌÍÎÏ")
#: characters of those ranges that living scripts write: guillemets (Russian, French, Persian),
#: the middle dot (Greek's ano teleia, Catalan), Romanian's comma letters, Vietnamese horned
#: letters, pinyin's tones, Azerbaijani's schwa, West African open vowels, the Hawaiian okina and
#: Ukrainian apostrophe; they count only beside another odd character ("»É»·È" is mojibake,
#: «Тест» and "Ştiinţă" are not)
_SCRIPT_CHARS = "«»·ȘșȚțƠơƯưǍ-ǜƏəƐɛƆɔʻʼ"

#: control characters, Latin-1 symbols, Latin Extended-B and spacing modifiers, and private-use
#: code points: rare in text, common in the output of fonts whose glyph codes were never mapped
#: to Unicode (whitespace aside). Adobe's private-use Symbol glyphs (U+F8E5-F8FF: the pieces of
#: big brackets and braces) are printed signs, not mojibake.
_ODD = (
    f"(?![{_SCRIPT_CHARS}])[\x00-\x08\x0e-\x1b\xa1-\xbf\u0180-\u02ff{''.join(sorted(_MOJIBAKE_LETTERS))}\ue000-\uf8e4\U000f0000-\U0010fffd]"
)
_MOJIBAKE_CHARS = re.compile(f"{_ODD}|[{_SCRIPT_CHARS}](?={_ODD})|(?<={_ODD})[{_SCRIPT_CHARS}]")
_SPACE = re.compile(r"\s")


def _mojibake(text: str) -> tuple[int, int]:
    """The mojibake characters of ``text`` and its printed (non-space) characters, counted by
    regular expression, not character by character: every page is counted. Printable ASCII, most
    lines, holds none of :data:`_ODD` (all past ``~`` but ASCII's control codes) and no white
    space but the space: counted without the expressions."""
    if text.isascii() and text.isprintable():
        return 0, len(text) - text.count(" ")
    return len(_MOJIBAKE_CHARS.findall(text)), len(text) - len(_SPACE.findall(text))


def mojibake_count(page: Page) -> tuple[int, int]:
    """The page's mojibake characters and its printed characters."""
    return _mojibake("".join(line.text for line in page.lines))


def drop_unreadable_lines(pages: list[Page]) -> tuple[int, int]:
    """Drop lines whose letters are mostly mojibake (see :data:`_MOJIBAKE_CHARS`; a letter of any
    script is text): fonts without a usable Unicode map give such lines. Returns (dropped, total)."""
    dropped = total = 0
    for page in pages:
        kept = []
        for line in page.lines:
            total += 1
            bad, printed = _mojibake(line.text)
            if printed >= 5 and bad > _MOJIBAKE_RATIO * printed:
                dropped += 1
                continue
            kept.append(line)
        page.lines = kept
    return dropped, total


def body_font(pages: list[Page]) -> str:
    """The font that most characters are set in."""
    weights: defaultdict[str, int] = defaultdict(int)
    for page in pages:
        for line in page.lines:
            weights[line.font] += len(line.text)
    return max(weights.items(), key=lambda item: item[1])[0] if weights else ""


def body_font_size(pages: list[Page]) -> float:
    """The size that most characters before the reference list are set in: the body text size.
    A long reference list in small type outweighs a short paper's body; the lines before its
    heading decide, where they hold a third of the text at least."""
    weights: defaultdict[float, int] = defaultdict(int)
    before: dict[float, int] | None = None
    for page in pages:
        for line in page.lines:
            if before is None and is_reference_heading(line.text.strip(" .:").lower()):
                before = dict(weights)
            weights[round(line.size * 2) / 2] += len(line.text)
    if not weights:
        return 10.0
    if before and sum(before.values()) >= sum(weights.values()) / 3:
        weights = defaultdict(int, before)
    return max(weights.items(), key=lambda item: item[1])[0]
