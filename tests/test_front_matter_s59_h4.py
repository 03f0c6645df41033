"""Title pages of batch 16 of the unseen sets (issue 32), drawn as real text or laid out as the
layout step hands them on: a newsletter whose masthead is its title, a company's name under a byline."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.authors import find_authors
from tests.block_builders import Stack


def test_a_newsletters_masthead_is_its_title(tmp_path: Path) -> None:
    # ltnews: "LaTeX News" over "Issue 35, June 2022", the contents under it, no title of its own
    canvas = Canvas(612, 792)
    canvas.text(44, 90, "LaTeX News", "Times-Roman", 22)
    canvas.text(44, 112, "Issue 35, June 2022", "Times-Roman", 9)
    canvas.text(44, 170, "Contents", "Times-Bold", 11)
    for row, entry in enumerate(("Introduction", "Document metadata interface", "A new mark mechanism", "Bug fixes")):
        canvas.text(44, 192 + 22 * row, entry, "Times-Roman", 9)
        canvas.text(283, 192 + 22 * row, str(row + 1), "Times-Roman", 9)
    for row in range(12):
        canvas.text(320, 190 + 12 * row, "The kernel now offers a way to declare the metadata of a document.", "Times-Roman", 9)
    path = tmp_path / "news.pdf"
    path.write_bytes(write_pdf([canvas], ""))
    assert parse_pdf(path).title == "LaTeX News"


def test_a_companys_name_under_the_byline_is_its_affiliation() -> None:
    # "Epigenomics AG" under the names: a German company's legal form, no fourth author
    stack = Stack(top=100.0, step=14.0, x1=400.0, size=12.7)
    blocks = [
        stack.block("RUnit - A Unit Test Framework for R", "title", top=72.0, size=18.4),
        stack.block(["Thomas König, Klaus Jünemann, and Matthias Burger", "Epigenomics AG"], "heading", top=110.0),
        stack.block("May 18, 2018", top=150.0),
        stack.block("Contents", "heading", top=190.0, size=15.3),
    ]
    assert [author.name for author in find_authors(blocks, 0, {})] == ["Thomas König", "Klaus Jünemann", "Matthias Burger"]
