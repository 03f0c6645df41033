"""Body text with words in small capitals is body text, and a line pdfium breaks after a raised
footnote mark is one line (S2ORC p3 and SciFact p6 of the shared corpus: "per as BRACKET (e.g.
[2]), NAME-YEAR" was set aside as small print, and ". The LABELPREDICTION module" was dropped)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import text_width
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import helvetica_page

#: (text, font size, rise) pieces of one printed line, drawn one after another
Piece = tuple[str, float, float]


def _line_pdf(lines: list[list[Piece]], *, leading: float = 13.0) -> bytes:
    """One page of lines in Helvetica from the top-left margin, each drawn as its pieces one after
    another in one text object; a piece with a rise sits that much above the line (a mark)."""
    ops, y = [], 720.0
    for pieces in lines:
        drawn = []
        for text, size, rise in pieces:
            escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            drawn.append(f"/F1 {size:g} Tf {rise:g} Ts ({escaped}) Tj")
        ops.append(f"BT 72 {y:.2f} Td " + " ".join(drawn) + " ET")
        y -= leading
    return helvetica_page(ops)


BODY = [
    "We postprocess the parser's output with regular expressions to classify the",
    "parenthetical citation style of every paper in the collection, and we keep the",
    "papers whose style is one of the three that the linker knows how to resolve,",
]
#: "as BRACKET (e.g. [2]), NAME-YEAR" with the capitals drawn small (0.8), as \textsc in Times
SMALL_CAPS = [
    ("per as ", 10, 0),
    ("BRACKET", 8, 0),
    (" (e.g. [2]), ", 10, 0),
    ("NAME-YEAR", 8, 0),
    (" or ", 10, 0),
    ("OTHER", 8, 0),
    (".", 10, 0),
]


def _text(path: Path) -> str:
    return " ".join(block.text for section in parse_pdf(path).sections for block in section.blocks if block.kind == "paragraph")


def test_a_body_line_with_words_in_small_capitals_is_body_text(tmp_path: Path) -> None:
    path = tmp_path / "small_caps.pdf"
    path.write_bytes(_line_pdf([*[[(line, 10, 0)] for line in BODY], SMALL_CAPS, *[[(line, 10, 0)] for line in BODY]]))
    page = extract_page(pdfium.PdfDocument(path)[0], 1)
    line = next(line for line in page.lines if "BRACKET" in line.text)
    assert line.size >= 9.5  # the size of its lowercase letters, not of its small capitals
    assert "resolve, per as BRACKET (e.g. [2]), NAME-YEAR or OTHER. We postprocess" in _text(path)


def test_capitals_as_tall_as_the_lowercase_keep_their_size() -> None:
    """A footnote's capitals are its own size: nothing is moved where no capital is set smaller."""
    from paperpyramid.parsers.embedded.char_runs import CharRun, _small_capitals

    run = CharRun()
    run.sizes, run.caps = {8.0: 30}, {8.0: 6}
    assert _small_capitals(run).sizes == {8.0: 30}
    run.sizes, run.caps = {9.8: 12, 7.8: 20}, {7.8: 20}
    assert _small_capitals(run).sizes == {9.8: 32}


def test_a_line_broken_after_a_raised_mark_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "mark.pdf"
    marked = [("given gold abstracts", 10, 0), ("5", 7, 4), (". The label module is evaluated", 10, 0)]
    path.write_bytes(_line_pdf([[(BODY[0], 10, 0)], marked, [(BODY[1], 10, 0)]]))
    page = extract_page(pdfium.PdfDocument(path)[0], 1)
    line = next(line for line in page.lines if "abstracts" in line.text)
    assert line.text.replace(" ", "") == "givengoldabstracts5.Thelabelmoduleisevaluated"


def test_a_line_broken_after_an_exponent_is_one_line(tmp_path: Path) -> None:
    """pdfium breaks the line after an exponent ("xT" | "+TPT"): the rest goes on the line."""
    path = tmp_path / "exponent.pdf"
    exponent = [("the original space using the mean x", 10, 0), ("T", 7, 4), ("+TP", 10, 0), ("T", 7, 4), (". Optimally, this", 10, 0)]
    path.write_bytes(_line_pdf([[(BODY[0], 10, 0)], exponent, [(BODY[1], 10, 0)]]))
    page = extract_page(pdfium.PdfDocument(path)[0], 1)
    line = next(line for line in page.lines if "original" in line.text)
    assert line.text.replace(" ", "") == "theoriginalspaceusingthemeanxT+TPT.Optimally,this"


def test_a_piece_cut_off_before_an_exponent_takes_no_more_pieces(tmp_path: Path) -> None:
    """pdfium breaks the line before an exponent set after a bar ("x¯" | "T+TPT" | ". Optimally"):
    the piece that opens with the exponent stays as cut, not a line "T+TPT. Optimally" of its
    own that reads as a run-in heading (pcaMethods, batch 5)."""
    start = 72 + text_width("using the mean x", "Helvetica", 10)
    exponent = start + 0.5
    after = exponent + text_width("T", "Helvetica", 7)
    ops = [
        f"BT /F1 10 Tf 72 720 Td ({BODY[0]}) Tj ET",
        "BT /F1 10 Tf 72 700 Td (using the mean x) Tj ET",
        f"BT /F1 10 Tf {start - 4.2:.2f} 700 Td (\\257) Tj ET",
        f"BT /F1 7 Tf {exponent:.2f} 704 Td (T) Tj ET",
        f"BT /F1 10 Tf {after:.2f} 700 Td (+TP) Tj /F1 7 Tf 4 Ts (T) Tj /F1 10 Tf 0 Ts (. Optimally, this) Tj ET",
    ]
    path = tmp_path / "bar.pdf"
    path.write_bytes(helvetica_page(ops))
    text = pdfium.PdfDocument(path)[0].get_textpage().get_text_range()
    assert "\r\nT+TPT\r\n. Optimally" in text  # pdfium's breaks, before the exponent and after the last
    lines = [line.text for line in extract_page(pdfium.PdfDocument(path)[0], 1).lines]
    assert not any(line.startswith("T+TPT.") for line in lines)


def test_an_exponents_formula_going_on_keeps_its_pieces(tmp_path: Path) -> None:
    """Only the punctuation that closes a sentence or clause goes on after a raised mark: a
    formula after an exponent ("p⁴" | "(n − 1)", a table's cell in vegan's decision vignette,
    batch 5) keeps the pieces the table engine and the displays read."""
    path = tmp_path / "formula.pdf"
    cell = [("the constant p", 10, 0), ("4", 7, 4), ("(n-1) of the site scores", 10, 0)]
    path.write_bytes(_line_pdf([[(BODY[0], 10, 0)], cell, [(BODY[1], 10, 0)]]))
    assert "p4\r\n(n-1)" in pdfium.PdfDocument(path)[0].get_textpage().get_text_range()
    lines = [line.text for line in extract_page(pdfium.PdfDocument(path)[0], 1).lines]
    assert "the constant p4" in lines


def test_a_printers_sign_is_no_mark_the_line_goes_on_after(tmp_path: Path) -> None:
    """An author's sign ("TOBIN∗" | ", Institute …", ACM's title page, batch 1) keeps the pieces
    pdfium breaks the line into: the title page's names are read from them."""
    path = tmp_path / "sign.pdf"
    names = [("BEN TROVATO and G.K.M. TOBIN", 10, 0), ("*", 7, 4), (", Institute for Clarity in Documentation", 10, 0)]
    path.write_bytes(_line_pdf([[(BODY[0], 10, 0)], names, [(BODY[1], 10, 0)]]))
    assert "TOBIN*\r\n, Institute" in pdfium.PdfDocument(path)[0].get_textpage().get_text_range()
    lines = [line.text for line in extract_page(pdfium.PdfDocument(path)[0], 1).lines]
    assert "BEN TROVATO and G.K.M. TOBIN*" in lines
