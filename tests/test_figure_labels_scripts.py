"""The figures'-face rule (:func:`figure_labels.demote_figure_labels`) in scripts without letter
case: Chinese and Hebrew paragraphs have no lowercase words, so without a test of their own every
paragraph read as a label, the body's face as the figures', and every heading in it went back to
text (the numbered headings of the Chinese and Hebrew papers of ``test_scripts_unicode``)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.figure_labels import demote_figure_labels
from paperpyramid.parsers.embedded.layout import Line

_top = iter(range(60, 100000, 20))


def _block(text: str, kind: str, font: str, size: float = 10.0) -> Block:
    top = float(next(_top))
    line = Line(text=text, page=1, x0=72.0, top=top, x1=500.0, bottom=top + size, size=size, bold=False, italic=False, font=font)
    block = Block(lines=[line], kind=kind)
    if kind == "heading":
        block.title = text.split(" ", 1)[1]
    return block


def _paper(heading: str, paragraph: str) -> list[Block]:
    blocks = []
    for number in range(1, 7):
        blocks += [_block(f"{number} {heading}", "heading", "NotoSansCJK", 12.0), _block(paragraph, "paragraph", "NotoSansCJK")]
    return blocks


def test_headings_over_chinese_paragraphs_in_the_same_face_stay() -> None:
    blocks = _paper(
        "方法", "本文提出了一种基于深度学习的中文医学文本命名实体识别方法，并在公开数据集上进行了实验，结果表明该方法优于现有方法。"
    )
    demote_figure_labels(blocks)
    assert [block.kind for block in blocks[::2]] == ["heading"] * 6


def test_headings_over_hebrew_paragraphs_in_the_same_face_stay() -> None:
    blocks = _paper("מבוא", "במאמר זה אנו מציגים שיטה חדשה לזיהוי ישויות בטקסט רפואי ומראים כי היא עולה על השיטות הקיימות")
    demote_figure_labels(blocks)
    assert [block.kind for block in blocks[::2]] == ["heading"] * 6


def test_a_heading_opening_a_page_after_numbers_on_the_page_before_stays() -> None:
    # a table's last cells ("12", "9") end page 3; "3 Results" opens page 4 in the same family
    from paperpyramid.parsers.embedded.figure_labels import demote_axis_titles

    def on(page: int, text: str, kind: str, font: str) -> Block:
        block = _block(text, kind, font)
        for line in block.lines:
            line.page = page
        return block

    cells = [on(3, "12", "paragraph", "Helvetica"), on(3, "9", "paragraph", "Helvetica")]
    heading = on(4, "3 Results", "heading", "Helvetica-Bold")
    demote_axis_titles([*cells, heading])
    assert heading.kind == "heading"
    axis = on(3, "Nest height", "heading", "Helvetica-Bold")
    demote_axis_titles([*cells, axis])
    assert axis.kind == "paragraph"  # on the ticks' page: the plot's axis title
