"""A section's heading that opens a page is no running head (issue 32): achemso's manuscripts set
"Introduction", "Acknowledgement" and "TOC Graphic" each at the top of a page of its own, in one
bold type on one baseline, and the running heads' finder took them for heads that change from
page to page ("2 MODEL" over one page, "REFERENCES" over another). The other pages' text starts
on that baseline, where a running head stands above the text of every page. Drawn as a PDF of
real text (``tests/pdf_maker``); checked on the class's own demonstration where Debian's
texlive-publishers-doc is unpacked (the set builder's work folder).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import parse_pdf
from tests.pdf_maker import FILLER, styled_pdf
from tests.unseen_pdfs import unpacked

Item = tuple[float, float, float, list[tuple[str, str]]]
DEMO = unpacked("usr/share/doc/texlive-doc/latex/achemso/achemso-demo.pdf")
#: the text block's first baseline, where a page's heading or its first line of text stands
TOP = 700.0


def _text(top: float, lines: int = 24) -> list[Item]:
    words = textwrap.wrap(FILLER * 12, 90)[:lines]
    return [(72, top - 24 * index, 11, [("regular", line)]) for index, line in enumerate(words)]


def _page(heading: str | None, head: str | None = None) -> list[Item]:
    """A double-spaced manuscript's page: a section's heading on the first baseline over its
    text, or text from that baseline on; ``head`` a running head above the text block."""
    items: list[Item] = [(72, TOP + 40, 15, [("bold", head)])] if head else []
    if heading is None:
        return items + _text(TOP)
    return [*items, (72, TOP, 15, [("bold", heading)]), *_text(TOP - 40, 22)]


def _sections(tmp_path: Path, pages: list[list[Item]]) -> list[str]:
    title = [(72, TOP, 18, [("bold", "A demonstration of an invented class")]), *_text(TOP - 60, 20)]
    path = tmp_path / "manuscript.pdf"
    path.write_bytes(styled_pdf([title, *pages]))
    return [section.title for section in parse_pdf(path).sections]


def test_headings_that_open_pages_are_no_running_heads(tmp_path: Path) -> None:
    pages = [_page("Introduction"), _page(None), _page("Methods"), _page(None), _page("Acknowledgement")]
    titles = _sections(tmp_path, pages)
    assert [title for title in titles if title] == ["Introduction", "Methods", "Acknowledgement"], titles


def test_running_heads_over_the_text_stay_furniture(tmp_path: Path) -> None:
    pages = [_page(None, "Introduction"), _page(None), _page(None, "Methods"), _page(None), _page(None, "Acknowledgement")]
    titles = _sections(tmp_path, pages)
    assert not {"Introduction", "Methods", "Acknowledgement"} & set(titles), titles


@pytest.mark.skipif(
    not DEMO.is_file(), reason="texlive-publishers-doc is not unpacked here (benchmarks/unseen_set.py --work $UNSEEN_PDFS/debs)"
)
def test_achemso_demo() -> None:
    titles = [section.title for section in parse_pdf(DEMO).sections]
    assert titles.index("Introduction") < titles.index("Results and discussion")
    assert "Acknowledgement" in titles
