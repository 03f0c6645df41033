"""Reading order of regions (issue 19, item 4): a two-column block under full-width text, a
sidebar beside the body, a grid of panels, and a one-page document's running head and foot.
The PDFs are made in the test; each behaviour has two layouts, different in sizes, gutters and
positions, so that the rule is not one layout's."""

from __future__ import annotations

import re
from pathlib import Path

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import placed_pdf, wrapped_items

Items = list[tuple[float, float, float, str]]

_WORDS = [
    "sharks",
    "grow",
    "slowly",
    "in",
    "cold",
    "water",
    "and",
    "their",
    "vertebrae",
    "carry",
    "bands",
    "that",
    "are",
    "counted",
    "like",
    "tree",
    "rings",
    "while",
    "radiocarbon",
    "from",
    "old",
    "bomb",
    "tests",
    "dates",
    "the",
    "bands",
    "of",
    "the",
    "oldest",
    "animals",
    "in",
    "the",
    "sample",
]


def _prose(tag: str, words: int) -> str:
    """A paragraph of ``words`` words starting with ``tag``, its words in a fixed order."""
    return " ".join([tag] + [_WORDS[(index * 7 + len(tag)) % len(_WORDS)] for index in range(words - 1)]) + "."


def _parse(tmp_path: Path, pages: list[Items], name: str) -> Document:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(placed_pdf(pages))
    return parse_pdf(path)


def _text(document: Document) -> str:
    parts = [document.title or ""]
    for section in document.sections:
        parts.append(section.title)
        parts += [block.text for block in section.blocks]
    return re.sub(r"\s+", " ", " \n ".join(parts))


def _reads_in_order(text: str, paragraphs: list[str]) -> bool:
    """Each paragraph whole (not cut by another's lines), in the given order."""
    positions = [text.find(paragraph) for paragraph in paragraphs]
    return all(position >= 0 for position in positions) and positions == sorted(positions)


# (a) a two-column block under a full-width title and abstract


def _columns_under_wide_text(
    title: tuple[float, float, float], wide: str, columns: tuple[float, float, float], size: float, below: str = ""
) -> tuple[list[Items], list[str]]:
    x, y, width = title
    items: Items = [(x, y, 16.0, "Longevity of sharks read from their vertebrae")]
    wide_items, y = wrapped_items(wide, x, y - 30, width, size)
    items += wide_items
    left_x, right_x, column_width = columns
    left, right = _prose("Leftcolumn", 60), _prose("Rightcolumn", 60)
    left_items, left_end = wrapped_items(left, left_x, y - 14, column_width, size)
    right_items, right_end = wrapped_items(right, right_x, y - 14, column_width, size)
    items += left_items + right_items
    paragraphs = [wide, left, right]
    if below:
        below_items, _ = wrapped_items(below, x, min(left_end, right_end) - 14, width, size)
        items += below_items
        paragraphs.append(below)
    return [items], paragraphs


def test_two_columns_under_a_full_width_abstract_are_read_column_by_column(tmp_path: Path) -> None:
    pages, paragraphs = _columns_under_wide_text((72, 740, 468), _prose("Widetext", 190), (72, 318, 222), 10.0)
    # before: most lines of the page crossed the middle, no gutter was found and the two
    # columns were read line by line across the page
    assert _reads_in_order(_text(_parse(tmp_path, pages, "wide-then-columns")), paragraphs)


def test_two_columns_between_full_width_text_unseen_layout(tmp_path: Path) -> None:
    pages, paragraphs = _columns_under_wide_text((50, 700, 500), _prose("Opening", 40), (50, 336, 214), 9.0, below=_prose("Closing", 45))
    assert _reads_in_order(_text(_parse(tmp_path, pages, "columns-between")), paragraphs)


def test_a_short_two_column_page_under_a_title_unseen_layout(tmp_path: Path) -> None:
    # too few lines for the page's gutter finder (under twelve)
    items: Items = [(56, 720, 18.0, "Sharks of the deep")]
    left, right = _prose("Westside", 22), _prose("Eastside", 24)
    items += wrapped_items(left, 56, 680, 200, 11.0)[0] + wrapped_items(right, 330, 680, 200, 11.0)[0]
    assert _reads_in_order(_text(_parse(tmp_path, [items], "short-columns")), [left, right])


# (b) a sidebar of dates and correspondence beside the body


_SIDE_NOTES = [
    "Received: 3 May 2019",
    "Accepted: 12 June 2019",
    "Published: 1 July 2019",
    "Correspondence:",
    "jane.doe@example.org",
    "Citation: Doe J, Roe R",
    "Sharks of the deep.",
]


def _sidebar_page(
    side_x: float, side_width: float, body_x: float, body_width: float, side_size: float, body_size: float, notes: list[str]
) -> tuple[list[Items], list[str]]:
    items: Items = [
        (min(side_x, body_x), 740, 16.0, "Longevity of sharks read from their vertebrae"),
        (min(side_x, body_x), 718, 11.0, "Jane Doe, Richard Roe"),
    ]
    first, second = _prose("Firstpara", 110), _prose("Secondpara", 90)
    body, y = wrapped_items(first, body_x, 680, body_width, body_size)
    more, _ = wrapped_items(second, body_x, y - body_size, body_width, body_size)
    items += body + more
    y = 676.0
    for note in notes:
        items.append((side_x, y, side_size, note))
        y -= side_size * (2.6 if note.endswith(".") or note.endswith("2019") else 1.3)
    return [items], [first, second]


def test_a_left_sidebar_of_dates_is_kept_out_of_the_body(tmp_path: Path) -> None:
    pages, paragraphs = _sidebar_page(40, 110, 170, 390, 7.5, 10.0, _SIDE_NOTES)
    text = _text(_parse(tmp_path, pages, "left-sidebar"))
    # before: each row read the sidebar's line and the body's together, dates mid-paragraph
    assert _reads_in_order(text, paragraphs)
    for note in _SIDE_NOTES:  # kept, as text of their own
        assert note.rstrip(".:") in text


def test_a_right_key_points_box_is_kept_out_of_the_body_unseen_layout(tmp_path: Path) -> None:
    notes = [
        "Key points",
        "Sharks outlive us.",
        "Bands are yearly.",
        "Bomb carbon dates them.",
        "Received 2 Feb 2020",
        "Accepted 9 Mar 2020",
    ]
    pages, paragraphs = _sidebar_page(452, 120, 60, 360, 8.5, 9.5, notes)
    text = _text(_parse(tmp_path, pages, "right-box"))
    assert _reads_in_order(text, paragraphs)
    for note in notes:
        assert note.rstrip(".:") in text


# (c) a 2x2 grid of panels, read row by row


def _grid(
    xs: tuple[float, float], tops: tuple[float, float], width: float, size: float, heading_size: float, label: str
) -> tuple[list[Items], list[str]]:
    items: Items = [(xs[0], 750, 15.0, "Field guide to the sharks of the deep")]
    panels = []
    for number, (top, x) in enumerate(((top, x) for top in tops for x in xs), 1):
        items.append((x, top, heading_size, f"{label} {number}"))
        text = _prose(f"Panel{number}text", 45 + 4 * number)
        body, _ = wrapped_items(text, x, top - heading_size * 1.8, width, size)
        items += body
        panels.append(text)
    return [items], panels


def test_a_grid_of_panels_is_read_row_by_row(tmp_path: Path) -> None:
    pages, panels = _grid((60, 320), (700, 470), 230, 9.0, 11.0, "Panel")
    # before: the page's gutter was read column by column: panels 1, 3, 2, 4
    assert _reads_in_order(_text(_parse(tmp_path, pages, "grid")), panels)


def test_a_grid_of_boxes_is_read_row_by_row_unseen_layout(tmp_path: Path) -> None:
    pages, panels = _grid((42, 306), (690, 500), 246, 8.0, 10.0, "Box")
    assert _reads_in_order(_text(_parse(tmp_path, pages, "boxes")), panels)


# (d) a one-page document's running head and foot


def _one_page(
    head: list[tuple[float, float, str]], foot: list[tuple[float, float, str]], head_size: float, title: str | None, body_size: float
) -> tuple[list[Items], str]:
    items: Items = [(x, y, head_size, text) for x, y, text in head + foot]
    y = 716.0
    if title:
        items.append((72, y, 17.0, title))
        y -= 40
    text = _prose("Bodytext", 260)
    body, _ = wrapped_items(text, 72, y, 468, body_size)
    return [items + body], text


def test_a_one_page_running_head_and_foot_are_dropped(tmp_path: Path) -> None:
    head = [(72, 760, "PLOS Neglected Tropical Diseases | www.plosntds.org"), (530, 760, "1")]
    foot = [(72, 36, "December 2019 | Volume 13 | Issue 12 | e0007890")]
    pages, body = _one_page(head, foot, 8.0, "Longevity of sharks read from their vertebrae", 10.0)
    document = _parse(tmp_path, pages, "one-page")
    text = _text(document)
    # before: recurrence across pages found nothing to drop on a single page
    assert "plosntds" not in text and "Volume 13" not in text
    assert document.title == "Longevity of sharks read from their vertebrae"
    assert body in text


def test_a_one_page_title_at_the_top_is_kept(tmp_path: Path) -> None:
    pages, body = _one_page([], [], 8.0, "2019 Report on the sharks of Greenland", 10.0)
    document = _parse(tmp_path, pages, "title-top")
    assert document.title == "2019 Report on the sharks of Greenland"
    assert body in _text(document)


def test_a_book_page_running_head_is_dropped_unseen_layout(tmp_path: Path) -> None:
    pages, body = _one_page([(190, 748, "400 BRITISH HUSBANDRY. [Ch. XIX.")], [(300, 40, "Vol. II. 2 D")], 9.0, None, 10.5)
    text = _text(_parse(tmp_path, pages, "book-page"))
    assert "HUSBANDRY" not in text
    assert body in text
