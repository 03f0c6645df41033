"""Text set in Type 3 fonts (dvips's bitmap Computer Modern): pdfium boxes each character by its
font's bounding box, which a subset font draws around the few glyphs it holds, so a heading's box
can come out smaller than the body's. The parser reads such characters' sizes from the size they
are set at (:mod:`paperpyramid.parsers.embedded.type3_sizes`)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import page_pdf, stream_object
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.type3_sizes import type3_scales

_BODY = [
    "The first step is to gather some data for clustering and to read it into a matrix of",
    "numbers with one row for each gene and one column for each sample of the study here.",
    "For this tutorial we use the expression data of a public study and keep the genes that",
    "vary the most across the samples so that the clusters are found in a short time only.",
]
_MORE = [
    "For this tutorial we selected resampling of eighty in each hundred items and genes and",
    "a maximum of six clusters with a thousand resamplings for each number of clusters here.",
    "The results are written to a folder of plots and returned as a list for later use now.",
]
_CHARS = sorted({ch for line in [*_BODY, *_MORE, "1 Preparing the data", "2 Running the clustering"] for ch in line})


def _font(bbox: bytes, procs_at: int) -> bytes:
    """An unnamed Type 3 font (no /BaseFont, as dvips writes one) over the printable ASCII codes,
    each glyph a box, with the font's bounding box ``bbox``; its ToUnicode map is object 7."""
    names = {ord(ch): f"g{ord(ch)}" for ch in _CHARS}
    differences = b" ".join(b"%d /%s" % (code, name.encode()) for code, name in names.items())
    procs = b" ".join(b"/%s %d 0 R" % (name.encode(), procs_at) for name in names.values())
    return (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [" + bbox + b"] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << " + procs + b" >> /Encoding << /Type /Encoding /Differences [" + differences + b"] >> "
        b"/FirstChar 0 /LastChar 126 /Widths [" + b" ".join(b"500" for _ in range(127)) + b"] /ToUnicode 7 0 R >>"
    )


def _page() -> bytes:
    """A vignette's page: its title, then headings in a Type 3 font whose bounding box holds only short letters
    (12 points), over a body in one with a full box (10 points)."""

    def shown(font: bytes, size: int, x: int, y: int, text: str) -> bytes:
        return b"BT /%s %d Tf %d %d Td (%s) Tj ET " % (font, size, x, y, text.encode())

    content = shown(b"F1", 17, 72, 750, "Clustering the samples")
    content += shown(b"F2", 12, 72, 720, "1 Preparing the data")
    content += b"".join(shown(b"F1", 10, 72, 700 - 13 * i, line) for i, line in enumerate(_BODY))
    content += shown(b"F2", 12, 72, 630, "2 Running the clustering")
    content += b"".join(shown(b"F1", 10, 72, 610 - 13 * i, line) for i, line in enumerate(_MORE))
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Ascii def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        + b"%d beginbfchar\n" % len(_CHARS)
        + b"".join(b"<%02X> <%04X>\n" % (ord(ch), ord(ch)) for ch in _CHARS)
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end"
    )
    return page_pdf(
        content,
        b"/Font << /F1 5 0 R /F2 6 0 R >>",
        _font(b"0 -250 600 750", 8),  # 5: the body's
        _font(b"0 0 600 450", 8),  # 6: the headings', a subset of short letters
        stream_object(cmap),  # 7
        stream_object(b"500 0 0 0 450 450 d1 0 0 450 450 re f"),  # 8
    )


def test_a_type3_heading_boxed_smaller_than_the_body_gets_the_size_it_is_set_at(tmp_path: Path) -> None:
    path = tmp_path / "vignette.pdf"
    path.write_bytes(_page())
    pdf = pdfium.PdfDocument(path)
    textpage = pdf[0].get_textpage()
    n = textpage.count_chars()
    text = textpage.get_text_range(0, n)
    scales = type3_scales(textpage.raw, text, n)
    heading = text.index("Running")
    assert scales.get(heading, 1.0) > 1.5  # boxed at 0.45 of its size, the body at 1.0: set to 1.2 of the body's
    assert text.index("tutorial") not in scales  # the body keeps its boxes
    document = parse_pdf(path)
    titles = [section.title for section in document.sections]
    assert "Running the clustering" in titles  # was small print, lost with its number
    assert "Preparing the data" in titles
    assert "thousand resamplings" in next(s.text for s in document.sections if s.title == "Running the clustering")


def test_a_page_in_named_fonts_has_no_type3_scales(tmp_path: Path) -> None:
    from benchmarks.synthetic.canvas import Canvas, write_pdf

    canvas = Canvas(612, 792)
    for i, line in enumerate(_BODY):
        canvas.text(72, 72 + 13 * i, line, "Helvetica", 10)
    path = tmp_path / "named.pdf"
    path.write_bytes(write_pdf([canvas], "Named"))
    textpage = pdfium.PdfDocument(path)[0].get_textpage()
    n = textpage.count_chars()
    assert type3_scales(textpage.raw, textpage.get_text_range(0, n), n) == {}
