"""The journal where publishers print it, each case a failure class of the journal probe
(``benchmarks/journal_probe.py``) on a fresh seed, with real journal names and made-up articles:
Latin's and French's "et" inside a name, and a masthead's long name wrapped over two lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.journal import find_journal


@pytest.mark.parametrize(
    ("line", "journal", "year"),
    [
        ("Biochimica et Biophysica Acta 1863 (2016) 1–12", "Biochimica et Biophysica Acta", 2016),
        ("Revue de Chirurgie Orthopédique et Traumatologique 2019;105:45–52", "Revue de Chirurgie Orthopédique et Traumatologique", 2019),
    ],
)
def test_a_name_with_et_in_it_is_read_whole(line: str, journal: str, year: int) -> None:
    assert find_journal([(1, line)], {})[:2] == (journal, year)


def test_a_head_after_et_al_is_read_after_the_authors() -> None:
    # "et" joins a name's words, never the authors' "et al." to the journal
    assert find_journal([(1, "Berg et al. BMC Public Health (2016) 16:22")], {})[0] == "BMC Public Health"


def _masthead_page(name: str, under: str) -> bytes:
    """A first page whose masthead centres ``name`` in a narrow column between a logo and a
    cover's picture (Elsevier), wrapped at 228 points, with ``under`` centred below it."""
    canvas = Canvas(612, 792)
    lines = [""]
    for word in name.split():
        if lines[-1] and text_width(f"{lines[-1]} {word}", "Helvetica-Bold", 18) > 228:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    y = 50.0
    for line in lines + [under]:
        size, font = (18.0, "Helvetica-Bold") if line != under else (8.5, "Helvetica")
        canvas.text(306 - text_width(line, font, size) / 2, y, line, font, size)
        y += size * 1.25 + (4 if line == lines[-1] else 0)
    canvas.text(72, 140, "Outcomes of a Treatment in a Cohort of Adults", "Helvetica-Bold", 16)
    canvas.text(72, 162, "Anna Berg1, Carl Dahl2", "Helvetica", 10.5)
    canvas.text(72, 176, "1 Department of Medicine, University of Toronto, Toronto, ON, Canada", "Helvetica", 8)
    canvas.text(72, 210, "Abstract", "Helvetica-Bold", 10)
    canvas.text(72, 224, "The patients were followed for two years, and the outcomes were compared.", "Helvetica", 9.5)
    return write_pdf([canvas], "Outcomes")


@pytest.mark.parametrize(
    ("name", "under"),
    [
        # the name's first line alone was read ("Journal of the Association for Information Science")
        ("Journal of the Association for Information Science and Technology", "Volume 2003, Article ID 25804, 10 pages"),
        ("Journal of the Association for Information Science and Technology", "Volume 12, Issue 3, 2016, pp. 45–52"),
        ("Journal of the Association for Information Science and Technology", "ISSN 1532-2882 (Print)"),
        # the last line with the issue line under it was read ("Gastroenterology Volume 12, …")
        ("World Journal of Gastroenterology", "Volume 12, Issue 3, 2016, pp. 45–52"),
        ("Acta Pathologica Microbiologica Scandinavica", "Volume 12, Issue 3, 2016, pp. 45–52"),
    ],
)
def test_a_masthead_name_wrapped_over_two_lines_is_read_whole(tmp_path: Path, name: str, under: str) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(_masthead_page(name, under))
    assert parse_pdf(path).journal == name
