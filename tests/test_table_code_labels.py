"""Tables as Bioconductor's vignette style sets them (PureCN's "callLOH output columns", batch 8):
a first column of code names in a typewriter face beside descriptions in roman on the same
line, and a section heading with its number in the margin right under the table's bottom rule,
then running text and code listings in shaded boxes. Drawn here after that page."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import word_segments
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_ROMAN = "Helvetica"
_ROWS = (
    ("Column name", "Description"),
    ("chr, start, end", "Segment coordinates"),
    ("arm", "Chromosome arm"),
    ("C", "Segment integer copy number"),
    ("M", "Minor integer copy number"),
    ("type", "LOH type"),
    ("seg.mean", "Segment mean of copy number log2-ratios"),
    ("num.mark", "Number of intervals in this segment"),
    ("num.snps", "Number of SNPs informative for LOH detection"),
    ("M.flagged", "Flag indicating that M is unreliable"),
    ("maf.expected", "Expected minor allele frequency"),
    ("maf.observed", "Median of observed minor allele frequency"),
)
_PROSE = (
    "For prediction of variant status (germline vs. somatic, sub-clonal vs. clonal),",
    "it is important that both purity and ploidy are correct. We provide the means",
    "for curating results, and the curation file lists the most likely solution first",
)


def _page(heading: bool) -> Canvas:
    page = Canvas(612.0, 792.0)
    page.text(136, 92, "Table 4: callLOH output columns", _ROMAN, 8)
    page.rule(92, 104, 460, 104, 0.5)
    for index, (name, text) in enumerate(_ROWS):
        baseline = 116 + 12 * index + (5 if index else 0)
        page.text(99, baseline, name, "Courier" if index else _ROMAN, 8 if index else 9)
        page.text(183, baseline, text, _ROMAN, 9)
    bottom = 116 + 12 * len(_ROWS) + 5
    page.rule(92, 121, 460, 121, 0.3)
    page.rule(92, bottom, 460, bottom, 0.5)
    top = bottom + 36
    if heading:
        page.text(51, top, "7", _ROMAN, 16)
        page.text(93, top, "Curation", _ROMAN, 16)
        page.rule(50, top + 4, 477, top + 4, 0.5)  # the heading's rule, across the text
    for index, line in enumerate(_PROSE):  # justified across the text's measure
        stretch = (383 - text_width(line, _ROMAN, 10)) / line.count(" ")
        page.text(93, top + 28 + 12 * index, line, _ROMAN, 10, word_spacing=stretch)
    for shift in (0, 60):  # code listings in shaded boxes, each ruled over and under
        page.rule(51, top + 70 + shift, 476, top + 70 + shift, 0.4)
        page.text(93, top + 82 + shift, "createCurationFile(file.rds)", "Courier", 8)
        page.rule(51, top + 88 + shift, 476, top + 88 + shift, 0.4)
    return page


def _read(tmp_path: Path, heading: bool) -> list[list[str]] | None:
    pdf = tmp_path / "vignette.pdf"
    pdf.write_bytes(write_pdf([_page(heading)], "a vignette's table"))
    return extract_table(pdf, *_caption(pdf, "Table 4:"))


def test_code_names_in_a_typewriter_face_keep_their_spaces_beside_roman() -> None:
    # PureCN's row as pdfium reads it: "chr, start, end" in a typewriter face (Bera Sans Mono,
    # 4.78 pt a character and a space) and the description in roman on the same line, whose face
    # is the line's; the table's roman space is 2.56 pt. The line was cut at each typewriter space
    words = [
        ("chr,", 99.4, 118.5),
        ("start,", 123.3, 152.0),
        ("end", 156.8, 171.2),
        ("Segment", 183.1, 219.1),
        ("coordinates", 222.4, 269.5),
    ]
    line = Line("chr, start, end Segment coordinates", 23, 99.4, 125.7, 269.5, 134.9, 9.0, False, False, "LMSans10-Regular", words=words)
    assert [segment.text for segment in word_segments([line], 2.56)] == ["chr, start, end", "Segment coordinates"]


def test_a_section_heading_under_the_table_ends_it(tmp_path: Path) -> None:
    # the heading's number in the margin stood left of every cell, so the text under it was not
    # taken for running text, and the heading's rule and the listings' boxes for the table's
    rows = _read(tmp_path, heading=True)
    assert rows == [list(row) for row in _ROWS]


def test_a_line_in_typewriter_is_cut_where_a_gap_is_wider_than_its_pitch() -> None:
    # TUGboat's options table, all in typewriter (lua-widow-control, batch 11): its header's cells
    # stand a character and a half apart (7.97 pt, a character 5.23 pt), under one and a half of
    # the table's word space, which those gaps set (6.65 pt): the header was one cell
    words = [("default", 159.2, 195.8), ("balanced", 203.8, 245.6), ("strict", 253.6, 285.0)]
    line = Line("default balanced strict", 8, 159.2, 95.1, 285.0, 108.4, 13.3, False, False, "LMMono10-Regular", words=words)
    assert [segment.text for segment in word_segments([line], 6.65)] == ["default", "balanced", "strict"]
