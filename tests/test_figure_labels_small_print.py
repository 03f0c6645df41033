"""Small print inside a figure's drawn area, right over its caption among the figure's shorter
labels, is the figure's: it goes under the figure's caption, not into the notes, where it was read
with the page's footnotes (naacl06's 'for entity "New Orleans"' beside the dropped 'for entity
"Katrina"'). A paragraph cut by the figure is still joined across its caption."""

from __future__ import annotations

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.assembly import assemble, merge_continuations
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.figure_labels import mark_figure_small_print
from paperpyramid.parsers.embedded.layout import Line

LABEL = "for the entity New Orleans"  # no sentence's end: the paragraph is still joined across the caption


def _block(text: str, kind: str, top: float, x0: float = 350.0, x1: float = 500.0, size: float = 5.6, page: int = 2) -> Block:
    return Block([Line(text, page, x0, top, x1, top + size, size, False, False, "Helvetica")], kind=kind)


def _figure(label_kind: str = "furniture") -> list[Block]:
    caption = _block("Figure 1: Obtaining basic patterns.", "caption", 160.0, 351.0, 503.0, 11.5)
    caption.extra["caption_kind"] = "figure"
    return [
        _block("Suppose that there are two articles A and B, and both report", "paragraph", 400.0, 72.0, 299.0, 11.5, page=1),
        _block("Katrina", label_kind, 87.0, 382.0, 402.0),
        _block("headed", label_kind, 100.0, 398.0, 418.0),
        _block("Basic patterns", label_kind, 140.0, 397.0, 427.0),
        _block('for entity "Katrina"', label_kind, 146.0, 393.0, 431.0),
        _block(LABEL, "aside", 146.0, 451.0, 502.0),
        caption,
        _block("hurricane-related news.", "paragraph", 200.0, 313.0, 540.0, 11.5),
    ]


def test_small_print_among_a_figures_dropped_labels_goes_under_its_caption() -> None:
    blocks = _figure()
    document = Document(pages=2)
    heading = Line("1 Basic Idea", 1, 72.0, 300.0, 200.0, 312.0, 12.6, True, False, "Times-Bold")
    blocks.insert(0, Block([heading], kind="heading", level=1, title="Basic Idea"))
    asides = assemble(document, blocks, 11.5)
    merge_continuations(document)
    assert not any(LABEL in aside.text for aside in asides)
    section = document.sections[0].blocks
    assert [block.kind for block in section] == ["paragraph", "caption"]
    assert section[1].text == f"Figure 1: Obtaining basic patterns.\n\n{LABEL}"
    assert section[0].text.endswith("both report hurricane-related news.")
    assert document.figures[0].caption == "Figure 1: Obtaining basic patterns."


def test_small_print_over_a_caption_without_drawn_labels_stays_a_note() -> None:
    blocks = _figure(label_kind="paragraph")  # text of the body over the caption: no figure's labels
    mark_figure_small_print(blocks)
    assert "figure_label" not in blocks[5].extra


def test_a_side_box_on_another_page_stays_a_note() -> None:
    blocks = _figure()
    blocks[5] = _block(LABEL, "aside", 146.0, 451.0, 502.0, page=1)
    mark_figure_small_print(blocks)
    assert "figure_label" not in blocks[5].extra


def test_plot_text_of_the_bodys_size_stays_with_the_notes() -> None:
    blocks = _figure()
    blocks[5].extra["plot_text"] = True  # set aside by set_aside_plot_text: no small print
    mark_figure_small_print(blocks)
    assert "figure_label" not in blocks[5].extra
