"""Section headings set the ways publishers nobody tuned for set them.

A PDF made here prints each shape once; the real articles of ``../shared/pmc-pairs`` (its
development part) show the same shapes as their publishers print them:

- a heading that opens with a statement's word ("Case Report", "Case presentation") is a section;
  "Case 1" or "Proof." stays a label;
- a heading in sentence case, set larger and bold on a line of its own ("Data extraction and
  assessment of study quality"), is a section, though most of its words are lowercase;
- a heading in capitals over one in title case, in the same type, is two headings;
- a run-in heading over two lines: in italics filling the first line, its last words the second
  line's lead-in ("3.1. Clinicopathological Parameters Comparison between MC" over "and WGMDC and
  PDC Patients. The …");
- a heading beside a side column's small print on its baseline (PLOS's left margin) is no table row,
  and a heading set larger than the body ends the table above it;
- the body's type size is read before the reference list, so a long list in small type does not
  make the body's type look like a heading's.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.labels import THEOREM_LIKE
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.parser import _extract_pages, parse_pdf
from paperpyramid.parsers.embedded.reading_order import body_font_size
from tests.pdf_maker import styled_pdf
from tests.test_run_in_headings import FILLER
from tests.test_run_in_headings import _Writer as _LinesWriter

PAIRS = Path(__file__).resolve().parents[2] / "shared" / "pmc-pairs"
needs_pairs = pytest.mark.skipif(not PAIRS.is_dir(), reason="../shared/pmc-pairs is not here (real PMC articles, not distributed)")


class _Writer(_LinesWriter):
    """The run-in tests' page writer, with body text of filler lines."""

    def body(self, lines: int = 4) -> None:
        words = (FILLER * 6).split()
        for index in range(lines):
            self.line([("regular", " ".join(words[index * 14 : index * 14 + 14]))])
        self.y -= 6


def _paper() -> bytes:
    w = _Writer()
    w.line([("bold", "Headings of many publishers in a study of stream frogs")], size=16, gap=24)
    w.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=20)
    w.heading("1. Introduction")
    w.body()
    w.heading("2. Case Report")
    w.body()
    w.heading("3. Methods")
    w.body()
    w.heading("Data extraction and assessment of study quality")
    w.body()
    # the run-in heading fills its first line in italics and ends on the second
    w.line([("italic", "3.1. Clutch Counts Compared between the Guarded and the Unguarded Streams of the")])
    w.line([("italic", "Dry Season."), ("regular", " The counts were taken on the same days in every stream of the park")])
    w.body(3)
    w.heading("BACTERIAL ENZYMES IN THE STREAMS")
    w.y += 4
    w.line([("bold", "Discovery and Occurrence")], size=12, gap=18)
    w.body()
    w.heading("4. Results")
    w.body()
    w.heading("References")
    w.line([("regular", "1. Smith J, Jones K. Clutch guarding in frogs. J Herpetol. 2019;53:1-10.")])
    return styled_pdf(w.pages)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("headings") / "headings.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def _titles(document: Document) -> list[str]:
    return [section.title for section in document.sections]


def test_a_heading_that_opens_with_a_statement_word_is_a_section(parsed: Document) -> None:
    assert "Case Report" in _titles(parsed)
    for label in ("Case 1", "Case A", "Proof", "Proof of Theorem 2", "Lemma 2.1", "Definition 3."):
        assert THEOREM_LIKE.match(label), label
    for heading in ("Case Report", "Case presentation", "Definition of outcomes", "Example applications"):
        assert not THEOREM_LIKE.match(heading), heading


def test_a_larger_bold_heading_in_sentence_case_is_a_section(parsed: Document) -> None:
    assert "Data extraction and assessment of study quality" in _titles(parsed)


def test_a_run_in_heading_over_two_lines_is_one_section(parsed: Document) -> None:
    title = "Clutch Counts Compared between the Guarded and the Unguarded Streams of the Dry Season"
    section = next(section for section in parsed.sections if section.title == title)
    assert section.number == "3.1"
    assert section.blocks[0].text.startswith("The counts were taken on the same days")


def test_capitals_over_title_case_are_two_headings(parsed: Document) -> None:
    titles = _titles(parsed)
    assert "BACTERIAL ENZYMES IN THE STREAMS" in titles and "Discovery and Occurrence" in titles


def _line(text: str, size: float, top: float) -> Line:
    return Line(text=text, page=1, x0=72, top=top, x1=72 + 5 * len(text), bottom=top + size, size=size, bold=False, italic=False, font="F")


def test_the_body_size_is_read_before_a_long_reference_list() -> None:
    body = [_line("The clutches were counted along four transects every week of the year.", 9.0, 100 + 12 * i) for i in range(30)]
    references = [_line(f"{i}. Smith J, Jones K. Clutch guarding in frogs. J Herpetol. 2019;53:1-10.", 7.0, 100 + 9 * i) for i in range(40)]
    pages = [
        Page(number=1, width=612, height=792, n_chars=0, n_images=0, lines=body),
        Page(number=2, width=612, height=792, n_chars=0, n_images=0, lines=[_line("References", 10.0, 80), *references]),
    ]
    assert body_font_size(pages) == 9.0
    # a paper whose text is mostly after its "References" (a short note, long appendices) keeps all
    short = [Page(number=1, width=612, height=792, n_chars=0, n_images=0, lines=[*body[:2], _line("References", 10.0, 80), *references])]
    assert body_font_size(short) == 7.0


def _sections(name: str) -> list[str]:
    return _titles(parse_pdf(PAIRS / name))


@needs_pairs
def test_real_case_report_heading() -> None:
    assert "Case Report" in _sections("crneurolmed-2016-clival-pituitary-adenoma.pdf")


@needs_pairs
def test_real_run_in_headings_over_two_lines() -> None:
    titles = _sections("grp-2016-gastric-mucinous-cancer.pdf")
    assert "Clinicopathological Parameters Comparison between MC and WGMDC and PDC Patients" in titles
    assert "Survival Comparison between Gastric MC and WMDC Patients" in titles
    assert "Patients" not in titles


@needs_pairs
def test_real_capitals_over_title_case() -> None:
    titles = _sections("frontmicrobiol-2018-waterlogging-pgpr.pdf")
    assert "Discovery and Occurrence" in titles
    assert "Effect of ACC Deaminase-Producing Bacteria on Land/Terrestrial Plants" in titles


@needs_pairs
def test_real_heading_beside_a_side_column_and_in_sentence_case() -> None:
    titles = _sections("plosone-2019-microbiota-therapy-elderly.pdf")
    assert "Introduction" in titles
    assert "Data extraction and assessment of study quality" in titles


@needs_pairs
def test_real_body_size_under_a_long_small_reference_list() -> None:
    path = PAIRS / "plosone-2019-microbiota-therapy-elderly.pdf"
    pdf = pdfium.PdfDocument(path)
    try:
        pages = _extract_pages(pdf, path, 0.0, None)
    finally:
        pdf.close()
    assert body_font_size(pages) == 9.0


@needs_pairs
def test_real_outline_heading_inside_a_table_claim_stays_a_section() -> None:
    assert "Characterization of genetic relationships" in _sections("bmcplantbiol-2018-basil-downy-mildew.pdf")
    assert "ISSR-based cluster analysis" in _sections("3biotech-2014-ocimum-rapd-issr.pdf")


@needs_pairs
def test_real_heading_after_a_table_is_not_one_of_its_rows() -> None:
    # PLOS closes a table with its DOI line; the section heading below it starts a section
    titles = _sections("plosone-2018-ursolic-acid-nlc.pdf")
    assert "Transmission electron microscopy (TEM)" in titles
    # a heading in sentence case over two lines
    assert "Effect of OLE-NLC-gel formulation on hematological changes in rats of CFA induced arthritis" in titles
    assert "Statistical analysis" in _sections("plosone-2019-microbiota-therapy-elderly.pdf")
