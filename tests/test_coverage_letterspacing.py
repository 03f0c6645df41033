"""The coverage figure reads letterspaced letters as the parser does: pdfium writes a space
between every letter of "R e f e r e n c e s  s o r t e d" (a TeX code sample set in math mode,
tugboat-draft-multibibliography in batch 11, 0.923 with no word lost), which counted a word per
letter that no parsed text holds. Single letters a word space apart still count one each."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.coverage import coverage, text_layer_words
from paperpyramid.parsers.embedded import parse_pdf
from tests.pdf_maker import helvetica_page


def _spaced_pdf(path: Path, lines: list[tuple[float, str]]) -> Path:
    """One page of Helvetica lines at 10 pt, each with its letters drawn that many points apart."""
    ops = []
    for n, (spacing, text) in enumerate(lines):
        drawn = f" {-100 * spacing:g} ".join(f"({ch})" for ch in text) if spacing else f"({text})"
        ops.append(f"BT /F1 10 Tf 72 {720 - 14 * n} Td [{drawn}] TJ ET")
    path.write_bytes(helvetica_page(ops))
    return path


def test_letterspaced_words_count_as_words(tmp_path: Path) -> None:
    pdf = _spaced_pdf(tmp_path / "spaced.pdf", [(0, "The code sample sets its heading as"), (2, "References sorted by name")])
    layer = text_layer_words(pdf)
    assert layer["references"] == 1 and layer["sorted"] == 1 and layer["r"] == 0 and layer["by"] == 1
    assert coverage(pdf, parse_pdf(pdf)) == 1.0


def test_single_letters_a_word_space_apart_count_one_each(tmp_path: Path) -> None:
    pdf = _spaced_pdf(tmp_path / "letters.pdf", [(0, "the letters a b c d e f g h and x y z w")])
    layer = text_layer_words(pdf)
    assert layer["a"] == 1 and layer["h"] == 1 and layer["w"] == 1 and layer["abcdefgh"] == 0
