"""Headings left on the shared corpus's real articles (its lowest section F1), each built from
blocks as the layout step hands them on, then checked on the articles themselves where
../shared is present:

- a subheading of four lines in the bold face and size of the paper's other subheadings is one,
  however many words it has (Chinese Medical Journal);
- a bold line that ends with a colon names a step of a proof or an address, not a section
  (amsart's "Second step:", JSS's "Affiliation:");
- a bold line justified to its column's edge over its paragraph reads as the other bold openings
  of its section: words typed in bold before a word space (``{\\bf …}``, scifact's related work)
  make it text; a wrapped ``\\paragraph`` title beside its section's run-in titles stays a heading
  (SPECTER).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.block_builders import Stack, printed_heading

PROSE = "Skin temperature was maintained at or above 32°C during the examination, and the nerves were studied."


# --------------------------------------------------------------------------- long subheadings

BODY = "TimesNewRomanPSMT"
SANS = "Swiss721BT-BoldCondensed"
LONG = [
    "Relationships among intraepidermal nerve fiber",
    "density, visual analog scale, small fiber neuropathy and",
    "symptom inventory questionnaire, and nerve conduction",
    "studies",
]


def _medical_paper(last_line: str) -> list[Block]:
    """Results with subheadings in a condensed bold sans, the lines of a column 13 points apart and
    their boxes a little taller, as set."""
    stack = Stack(size=13.1, step=13.0, font=BODY, x0=307.0, x1=541.0, heading=printed_heading)
    return [
        stack.block("Results", "heading", size=11.8, bold=True, font=SANS),
        stack.block("Patients", "heading", size=13.2, bold=True, font=SANS),
        stack.block(PROSE, lines=3),
        stack.block("Statistical analysis", "heading", size=13.2, bold=True, font=SANS),
        stack.block(PROSE, lines=3),
        stack.block([*LONG[:-1], last_line], size=13.2, bold=True, font=SANS),
        stack.block(PROSE, lines=3),
    ]


def test_a_long_subheading_in_the_subheadings_face_is_one() -> None:
    blocks = _medical_paper("studies")
    filter_headings(blocks, 13.0)
    long = blocks[5]
    assert long.kind == "heading"
    assert long.title == " ".join(LONG)
    assert long.level == blocks[1].level == 2


@pytest.mark.parametrize("last_line", ["studies.", "studies. The"])
def test_bold_sentences_in_the_subheadings_face_stay_text(last_line: str) -> None:
    blocks = _medical_paper(last_line)
    filter_headings(blocks, 13.0)
    assert blocks[5].kind == "paragraph"


# --------------------------------------------------------------------------- labels ended by a colon


def _proof(label: str) -> list[Block]:
    stack = Stack(size=9.0, step=14.0, font="CMR10", x0=72.0, x1=300.0, heading=printed_heading)
    return [
        stack.block("2 Main Result", "heading", size=10.0, bold=True, font="CMBX10"),
        stack.block(PROSE, lines=3),
        stack.block(label, "heading", bold=True, font="CMBX10"),
        stack.block(PROSE, lines=3),
    ]


def test_a_bold_line_ended_by_a_colon_is_a_label_not_a_section() -> None:
    blocks = _proof("Second step:")
    filter_headings(blocks, 9.0)
    assert blocks[2].kind == "paragraph"


def test_a_bold_line_without_the_colon_stays_a_heading() -> None:
    blocks = _proof("Second step")
    filter_headings(blocks, 9.0)
    assert blocks[2].kind == "heading"


# --------------------------------------------------------------------------- wrapped bold openings


def _related_work(title_end: float, sibling: str) -> list[Block]:
    """A section whose bold line over its paragraph is justified to ``title_end``; ``sibling``: the
    section's other bold opening, "words" (bold before a word space) or "run-in" (a heading)."""
    stack = Stack(size=9.8, step=13.6, font="NimbusRomNo9L-Regu", x0=72.0, x1=292.0, heading=printed_heading)
    section: list[Block] = [
        stack.block("7 Related work", "heading", size=10.7, bold=True, font="NimbusRomNo9L-Medi"),
        stack.block("Fact checking and rationalized NLP models", "heading", bold=True, font="NimbusRomNo9L-Medi", x1=title_end),
        stack.block(PROSE, lines=3),
    ]
    if sibling == "words":
        opening = stack.line("Related scientific NLP tasks The SciFact task is", bold_prefix=29, lead_gap=2.5, font="NimbusRomNo9L-Medi")
        section.append(Block(lines=[opening, *stack.block(PROSE, lines=2).lines]))
    else:
        run_in = stack.block("Related scientific NLP tasks", "heading", font="NimbusRomNo9L-Medi", x1=200.0)
        run_in.extra["run_in"] = True
        section += [run_in, stack.block(PROSE, lines=2)]
    return [*section, stack.block("8 Conclusion", "heading", size=10.7, bold=True, font="NimbusRomNo9L-Medi")]


def test_a_wrapped_bold_opening_beside_bold_words_is_text() -> None:
    blocks = _related_work(290.0, "words")
    filter_headings(blocks, 9.8)
    assert blocks[1].kind == "paragraph"


@pytest.mark.parametrize(("title_end", "sibling"), [(290.0, "run-in"), (220.0, "words")])
def test_a_wrapped_paragraph_title_or_a_ragged_heading_stays(title_end: float, sibling: str) -> None:
    blocks = _related_work(title_end, sibling)
    filter_headings(blocks, 9.8)
    assert blocks[1].kind == "heading"


# --------------------------------------------------------------------------- the articles


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pdf", "present", "absent"),
    [
        (
            "chin-med-j-2017-small-fiber-neuropathy.pdf",
            "Relationships among intraepidermal nerve fiber density, visual analog scale, small fiber neuropathy "
            "and symptom inventory questionnaire, and nerve conduction studies",
            None,
        ),
        ("arxiv-1707.08043-amsart-commutative-algebra-compiled.pdf", "Main Result", "Second step"),
        ("emnlp-2020-scifact-arxiv-2004.14974-compiled.pdf", "Related work", "Fact checking and rationalized NLP models"),
        ("acl-2020-specter.pdf", "Comparison with Task Specific Fine-Tuning", None),
    ],
)
def test_the_corpus_articles_headings(shared_corpus: Path, pdf: str, present: str, absent: str | None) -> None:
    titles = [section.title for section in parse_pdf(shared_corpus / pdf).sections]
    assert present in titles
    assert absent is None or absent not in titles


def test_colon_labels_that_are_the_papers_subheading_style_stay() -> None:
    """Two or more colon-ended labels in one face are the paper's subheadings ("Study population:",
    "Statistical analysis:" under "Methods"), not a proof's lone step label."""
    stack = Stack(size=9.0, step=12.0, font="Times-Roman", x0=50.0, x1=290.0, heading=printed_heading)
    blocks = [stack.block("Methods", "heading", size=11.0, bold=True, font="Times-Bold")]
    for label in ("Study population:", "Statistical analysis:"):
        blocks += [stack.block(label, "heading", bold=True, font="Times-Bold"), stack.block(PROSE, lines=3)]
    filter_headings(blocks, 9.0)
    assert [block.kind for block in blocks[1::2]] == ["heading", "heading"]
