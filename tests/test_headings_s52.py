"""Headings, captions, reference lists and abstracts left over from batches 2, 9 and 11 (issue 32,
items 6 and 7).

- "Table 8.2 was generated using the code:" (MNRAS's guide) names a table numbered by chapter: a
  sentence, not a caption, though "Table 8." reads as a label with its full stop.
- A package's guide prints sample "References" lists inside a section (babelbib's, between "2.1"
  and "2.3"): the paper's list is the last one; the samples and their entries are text.
- A heading over a bulleted list stays a heading however short the first item (BMS's appendix:
  "Hyper-g prior" over "• Argument: g="hyper"").
- The first long paragraph of a paper without an "Abstract" label is not its abstract when prose in
  its type stands above it (a talk's one-page abstract, DANTE's): the text opened higher up.
"""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.assembly import _abstract, assemble
from paperpyramid.parsers.embedded.back_headings import demote_sample_lists
from paperpyramid.parsers.embedded.block_breaks import split_blocks
from paperpyramid.parsers.embedded.blocks import Block, caption_start
from paperpyramid.parsers.embedded.figure_labels import set_aside_plot_text
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import _require_following_text
from tests.block_builders import Stack

PROSE = "The keywords of the bibliography are set in the language of each cited document, as the style asks."

_block = Stack(top=100, step=14, x1=540, font="T").block


def _heading(text: str, number: str | None = None, *, size: float = 10.0) -> Block:
    """A heading in bold, titled by all its text, at the level its number counts."""
    return _block(text, "heading", number=number, title=text, level=(number or "1").count(".") + 1, bold=True, size=size)


# --------------------------------------------------------------------------- captions


@pytest.mark.parametrize("text", ["Table 8.2 was generated using the code:", "Figure 2.1 shows the fit", "Table 3.4, we see"])
def test_a_sentence_naming_a_table_numbered_by_chapter_is_no_caption(text: str) -> None:
    assert caption_start(text) is None


@pytest.mark.parametrize("text", ["Table 8.2. Results of the fit", "Table 8.2: Results", "Table 8.2 Results", "Table 8. Results"])
def test_a_caption_numbered_by_chapter_stays_one(text: str) -> None:
    assert caption_start(text) is not None


# --------------------------------------------------------------------------- sample reference lists


def _guide() -> list[Block]:
    return [
        _heading("2 Multilingual bibliographies", "2"),
        _heading("2.1 Available packages", "2.1"),
        _block(PROSE),
        _heading("References"),
        _block("[1] Beitz, W. und K.-H. Küttner: Dubbel – Taschenbuch für den Maschinenbau, 1995."),
        _block("[2] Knuth, D. E.: The TeXbook, Addison-Wesley, 1986."),
        _heading("2.3 Using the package babelbib", "2.3"),
        _block(PROSE),
        _heading("3 Conclusions", "3"),
        _block(PROSE),
        _heading("References"),
        _block("[1] Harders, Harald: The babelbib package, 2003."),
    ]


def test_a_sample_list_inside_a_section_is_text() -> None:
    blocks = _guide()
    demote_sample_lists(blocks)
    assert [block.kind for block in blocks if block.title == "References"] == ["paragraph", "heading"]
    document = Document(pages=1)
    assemble(document, blocks, 10.0)
    assert [ref.raw for ref in document.references] == ["Harders, Harald: The babelbib package, 2003."]
    assert "2.3 Using the package babelbib" in [section.title for section in document.sections]


def test_a_list_that_ends_a_chapter_stays_a_list() -> None:
    """A collection's chapters each end with their list: the next chapter follows ("2", not "1.3")."""
    blocks = [
        _heading("1 First chapter", "1"),
        _heading("1.1 Its part", "1.1"),
        _block(PROSE),
        _heading("References"),
        _block("[1] Knuth, D. E.: The TeXbook, Addison-Wesley, 1986."),
        _heading("2 Second chapter", "2"),
        _heading("2.1 Its part", "2.1"),
        _block(PROSE),
        _heading("References"),
        _block("[1] Harders, Harald: The babelbib package, 2003."),
    ]
    demote_sample_lists(blocks)
    assert [block.kind for block in blocks if block.title == "References"] == ["heading", "heading"]


# --------------------------------------------------------------------------- headings over lists


def test_a_heading_over_a_bulleted_list_stays() -> None:
    """BMS's appendix: "Hyper-g prior" over two short items (pifont's bullet read as "\\x88")."""
    for bullet in ("\x88", "•"):
        blocks = [
            _block(PROSE),
            _heading("Hyper-g prior", size=8.8),
            _block(f'{bullet} Argument: g="hyper"', size=8.0),
            _block(f"{bullet} Concept: A Beta prior on the shrinkage factor", size=8.0),
        ]
        _require_following_text(blocks)
        assert blocks[1].kind == "heading"


def test_a_plot_label_over_a_legend_is_no_heading() -> None:
    blocks = [_block(PROSE), _heading("Posterior Model Size"), _block("• Prior"), _block("• Posterior"), _block("0 2 4 6")]
    _require_following_text(blocks)
    assert blocks[1].kind == "paragraph"


# --------------------------------------------------------------------------- abstracts


def test_the_first_long_paragraph_under_the_texts_opening_is_no_abstract() -> None:
    """DANTE's talk: quotes cut the first paragraphs into pieces; the fourth is the first long one."""
    pieces = [
        _block("DANTE-Herbsttagung 2011 Uwe Lück", size=10.6),
        _block("Das Bündel versucht sich an", size=9.7),
        _block("Gute Texte mit wenig Aufwand zu setzen, das war der Wunsch der ersten Tagung", size=9.7),
        _block("Mit demselben Ziel schrieb man kleine Programme für die Auswertung der Listen. " * 8, size=9.7),
    ]
    document = Document(pages=1)
    assert _abstract(document, pieces, 9.7) == pieces and document.abstract is None
    # a long first paragraph under the authors' lines is the abstract
    document = Document(pages=1)
    assert len(_abstract(document, [pieces[0], pieces[3]], 9.7)) == 1 and document.abstract


def test_an_abstract_set_smaller_than_the_body_keeps_its_notes_above() -> None:
    """Hindawi: the correspondence and copyright lines over the unlabelled abstract, all in 8.5 pt."""
    front = [
        _block("Correspondence should be addressed to Anna Berg, anna.berg@example.org", size=8.5),
        _block("Copyright © 2010 Carl Dahl et al. This is an open access article distributed under the licence.", size=8.5),
        _block("Objectives. Patient experiences of structured heart failure rehabilitation were studied. " * 6, size=8.5),
    ]
    document = Document(pages=1)
    assert len(_abstract(document, front, 9.5)) == 2 and (document.abstract or "").startswith("Objectives.")


# --------------------------------------------------------------------------- justified lines


_justified = Stack(size=8.9, font="Times")


def _at(text: str, top: float, x0: float, x1: float, *, row: bool = False) -> Line:
    line = _justified.line(text, top, x0=x0, x1=x1)
    if row:
        line.tags.add("row")
    return line


def _cut_paragraph(second_half: str = "Recent Transformer language mod-") -> list[Line]:
    """SPECTER's abstract (ACL): "tems.   Recent Transformer language mod-" read as a row of two."""
    return [
        _at("Representation learning is a critical ingre-", 249, 89, 296),
        _at("dient for natural language processing sys-", 261, 89, 296.5),
        _at("tems.", 273, 89, 112, row=True),
        _at(second_half, 273, 123, 296, row=True),
        _at("els like BERT learn powerful textual repre-", 285, 89, 296),
    ]


def test_a_line_cut_at_a_stretched_sentence_space_is_one_line() -> None:
    blocks = split_blocks(_cut_paragraph(), 9.8)
    assert len(blocks) == 1 and "sys- tems. Recent Transformer" in " ".join(line.text for line in blocks[0].lines)


def test_a_rejoined_line_keeps_both_halves_raised_numbers() -> None:
    """The second half's superscript marks join the line's, or its citations would be refused."""
    lines = _cut_paragraph("Recent Transformer4 language mod-")
    lines[2].raised, lines[3].raised = (), (("r", "4"),)
    (block,) = split_blocks(lines, 9.8)
    assert [line.raised for line in block.lines if "tems." in line.text] == [(("r", "4"),)]


def test_cells_of_a_table_row_stay_apart() -> None:
    lines = [
        _at("Model Accuracy", 249, 89, 296),
        _at("Ours.", 261, 89, 112, row=True),
        _at("Baseline", 261, 150, 200, row=True),
        _at("Total 12", 273, 89, 296),
    ]
    assert len(split_blocks(lines, 9.8)) >= 3


# --------------------------------------------------------------------------- a plot's text


_plot = Stack(size=8.2, font="Calibri")


def _placed(text: str, top: float, x0: float, kind: str = "paragraph", size: float = 8.2) -> Block:
    return _plot.block(text, kind, top=top, x0=x0, x1=x0 + 6 * len(text), size=size)


def test_a_plots_numbers_and_legend_over_its_caption_are_set_aside() -> None:
    """HotOS'17 Figure 1: tick numbers and a legend in 8.2 pt (the body's 8.9: no small print)."""
    body = _placed("To appear in 16th Workshop on Hot Topics in Operating Systems.", 714, 72, size=7.8)
    plot = [
        _placed("10,000", 171, 321),
        _placed("2.5", 171, 514),
        _placed("CPU transistor count Words in architecture manual", 264, 397),
        _placed("2003", 293, 378),
        _placed("2007", 293, 413),
    ]
    caption = _placed("Figure 1: Complexity growth of Intel x86 CPUs and ISA", 315, 312, kind="caption", size=8.9)
    caption.extra["caption_kind"] = "figure"
    blocks = [body, *plot, caption]
    set_aside_plot_text(blocks)
    assert [block.kind for block in blocks] == ["paragraph", "aside", "aside", "aside", "aside", "aside", "caption"]


def test_the_code_that_drew_a_plot_stays_text() -> None:
    """EBSeq's vignette: "> QQP(EBOut)" over the plot's numbers, in a face with no name."""
    code = _placed("> QQP(EBOut)", 100, 312)
    plot = [_placed("0.0", 120, 312), _placed("0.4", 130, 312), _placed("0.8", 140, 312)]
    caption = _placed("Figure 3: Q-Q plots", 160, 312, kind="caption", size=8.9)
    caption.extra["caption_kind"] = "figure"
    set_aside_plot_text([code, *plot, caption])
    assert code.kind == "paragraph" and [block.kind for block in plot] == ["aside"] * 3


def test_short_lines_of_text_over_a_caption_stay() -> None:
    """A list's short items over a figure hold no numbers of a scale: they stay text."""
    items = [_placed("First item", 100, 312), _placed("Second item", 112, 312), _placed("Third item", 124, 312)]
    caption = _placed("Figure 2: The pipeline", 140, 312, kind="caption", size=8.9)
    caption.extra["caption_kind"] = "figure"
    blocks = [*items, caption]
    set_aside_plot_text(blocks)
    assert [block.kind for block in items] == ["paragraph"] * 3
