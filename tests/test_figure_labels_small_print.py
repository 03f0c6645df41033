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
from tests.block_builders import Stack

LABEL = "for the entity New Orleans"  # no sentence's end: the paragraph is still joined across the caption


_block = Stack(page=2, size=5.6, font="Helvetica").block


def _figure(label_kind: str = "furniture") -> list[Block]:
    caption = _block("Figure 1: Obtaining basic patterns.", "caption", top=160.0, x0=351.0, x1=503.0, size=11.5)
    caption.extra["caption_kind"] = "figure"
    return [
        _block("Suppose that there are two articles A and B, and both report", top=400.0, x0=72.0, x1=299.0, size=11.5, page=1),
        _block("Katrina", label_kind, top=87.0, x0=382.0, x1=402.0),
        _block("headed", label_kind, top=100.0, x0=398.0, x1=418.0),
        _block("Basic patterns", label_kind, top=140.0, x0=397.0, x1=427.0),
        _block('for entity "Katrina"', label_kind, top=146.0, x0=393.0, x1=431.0),
        _block(LABEL, "aside", top=146.0, x0=451.0, x1=502.0),
        caption,
        _block("hurricane-related news.", top=200.0, x0=313.0, x1=540.0, size=11.5),
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
    blocks[5] = _block(LABEL, "aside", top=146.0, x0=451.0, x1=502.0, page=1)
    mark_figure_small_print(blocks)
    assert "figure_label" not in blocks[5].extra


def test_plot_text_of_the_bodys_size_stays_with_the_notes() -> None:
    blocks = _figure()
    blocks[5].extra["plot_text"] = True  # set aside by set_aside_plot_text: no small print
    mark_figure_small_print(blocks)
    assert "figure_label" not in blocks[5].extra
