"""The figures'-face rule (:func:`figure_labels.demote_figure_labels`) in scripts without letter
case: Chinese and Hebrew paragraphs have no lowercase words, so without a test of their own every
paragraph read as a label, the body's face as the figures', and every heading in it went back to
text (the numbered headings of the Chinese and Hebrew papers of ``test_scripts_unicode``)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.figure_labels import demote_figure_labels
from tests.block_builders import Stack


def _title_after_number(text: str) -> tuple[str | None, str]:
    """A numbered heading's title: all but its first word."""
    return None, text.split(" ", 1)[1]


_block = Stack(x1=500.0, heading=_title_after_number).block


def _paper(heading: str, paragraph: str) -> list[Block]:
    blocks = []
    for number in range(1, 7):
        blocks += [_block(f"{number} {heading}", "heading", font="NotoSansCJK", size=12.0), _block(paragraph, font="NotoSansCJK")]
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

    cells = [_block("12", font="Helvetica", page=3), _block("9", font="Helvetica", page=3)]
    heading = _block("3 Results", "heading", font="Helvetica-Bold", page=4)
    demote_axis_titles([*cells, heading])
    assert heading.kind == "heading"
    axis = _block("Nest height", "heading", font="Helvetica-Bold", page=3)
    demote_axis_titles([*cells, axis])
    assert axis.kind == "paragraph"  # on the ticks' page: the plot's axis title
