"""A line pdfium breaks at a raised footnote mark is one line. In the shared corpus's S2ORC paper
pdfium breaks "(Radev et al., 2009)⁶ derived from the ACL" before the mark: the line's halves, read
as two lines, ended a paragraph mid-sentence and set the rest apart, and the sentence lost its
citation. A made page where pdfium breaks after the mark keeps working as it did."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf

_LEFT, _RIGHT, _SIZE, _LEADING = 72.0, 300.0, 10.0, 12.5
_BEFORE = (
    "We focus on the corpora derived from digital archives, which combine useful aspects of citation graphs and raw "
    "text corpora, such as the Anthology Network (AAN) (Radev et al., 2009)"
)
_AFTER = (
    "derived from the Anthology, and the other corpora built from preprint servers. These resources provide citation "
    "mentions linked to paper identifiers in their archives, so that a reader can follow each one."
)


def _lines(text: str, first_width: float) -> list[str]:
    lines, line, width = [], "", first_width
    for word in text.split():
        if line and text_width(f"{line} {word}", "Times-Roman", _SIZE) > width:
            lines.append(line)
            line, width = word, _RIGHT - _LEFT
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def _page(tmp_path: Path) -> Path:
    """Prose whose line carries on after a raised "6" set in a smaller size, touching the ")" before it."""
    canvas = Canvas(612.0, 792.0)
    baseline = 100.0
    before = _lines(_BEFORE, _RIGHT - _LEFT)
    for line in before[:-1]:
        canvas.text(_LEFT, baseline, line, "Times-Roman", _SIZE)
        baseline += _LEADING
    x = _LEFT + canvas.text(_LEFT, baseline, before[-1], "Times-Roman", _SIZE) + 0.3
    x += canvas.text(x, baseline - 3.9, "6", "Times-Roman", 7.3)
    after = _lines(_AFTER, _RIGHT - x - 3.0)
    canvas.text(x + 2.5, baseline, after[0], "Times-Roman", _SIZE)
    for line in after[1:]:
        baseline += _LEADING
        canvas.text(_LEFT, baseline, line, "Times-Roman", _SIZE)
    path = tmp_path / "marks.pdf"
    path.write_bytes(write_pdf([canvas], "A raised footnote mark"))
    return path


def test_a_sentence_broken_by_pdfium_at_a_footnote_mark_stays_in_its_paragraph(shared_corpus):
    document = parse_pdf(shared_corpus / "acl-2020-s2orc.pdf")
    texts = [block.text for section in document.sections for block in section.blocks]
    holding = [text for text in texts if "such as the ACL Anthology Network" in text]
    assert len(holding) == 1 and "(Radev et al., 2009)" in holding[0], [text[:80] for text in texts[:12]]
    assert "derived from the ACL Anthology, RefSeer" in holding[0], holding[0]


def test_pdfium_breaks_the_made_line_at_the_raised_mark(tmp_path):
    """The case the rule is for: pdfium's text breaks the line at the mark (before it in the
    S2ORC paper, after it here), though the text goes on along the same baseline."""
    document = pdfium.PdfDocument(_page(tmp_path))
    text = document[0].get_textpage().get_text_range()
    assert "\n" in text[text.index("2009)") : text.index("derived from the")]


def test_the_two_halves_of_a_made_line_broken_after_a_footnote_mark_are_one_paragraph(tmp_path):
    document = parse_pdf(_page(tmp_path))
    texts = [block.text for section in document.sections for block in section.blocks]
    holding = [text for text in texts if "Radev et al., 2009" in text]
    assert len(holding) == 1, texts
    assert "derived from the Anthology" in holding[0] and "follow each one" in holding[0], texts
