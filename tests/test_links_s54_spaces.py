"""A URL or DOI keeps no space that pdfium writes inside it: url.sty (and hyperref, and publishers'
setting) puts glue where a link may break, and pdfium writes a space there though the line does
not break: the Quantum template (Debian's texlive-publishers-doc) stored "https: // doi. org/ 10.
1103/ PhysRevLett. 120. 103201", an APA reference list "https : / / doi . org / 10 . 1007 /",
and a reference's DOI was lost. The space goes where it is narrower than the line's word spaces
and parts a link's pieces; a word after a link keeps its space. No PDF of ../shared/corpus shows
such a space (a scan of every one found none), so those PDFs are drawn in the test; one shows a
link cut after elsarticle's "doi:http:" at a line's end."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.link_spaces import link_spaces
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.conftest import CORPUS
from tests.pdf_maker import helvetica_page

#: every character's box in the lines built below: 5 points wide, at 10 points
_WIDTH, _SIZE = 5.0, 10.0
#: a word space and a link's break glue, in points
_WORD, _GLUE = 3.0, 1.0


def _line(pieces: list[tuple[str, float]]) -> tuple[list[str], list[float]]:
    """A line's characters (one space between pieces) and its drawn characters' edges, from
    (piece, white space before the next piece) pairs; a piece's characters abut."""
    chars: list[str] = []
    boxes: list[float] = []
    x = 0.0
    for piece, gap in pieces:
        for ch in piece:
            chars.append(ch)
            boxes += [x, x + _WIDTH]
            x += _WIDTH
        chars.append(" ")
        x += gap
    return chars[:-1], boxes


def _read(pieces: list[tuple[str, float]]) -> str:
    chars, boxes = _line(pieces)
    drop = link_spaces(chars, boxes, _SIZE)
    return "".join(ch for index, ch in enumerate(chars) if index not in drop)


def test_spaces_inside_a_link_narrower_than_the_word_spaces_go() -> None:
    pieces = [("as", _WORD), ("in", _WORD), ("https:", _GLUE), ("//", _GLUE), ("doi.", _GLUE), ("org/", _GLUE)]
    pieces += [("10.", _GLUE), ("1111/", _GLUE), ("x", _WORD), ("for", _WORD), ("details.", 0)]
    assert _read(pieces) == "as in https://doi.org/10.1111/x for details."


def test_a_link_set_with_a_space_either_side_of_each_sign_is_read_whole() -> None:
    signs = ["https", ":", "/", "/", "doi", ".", "org", "/", "10", ".", "1007", "/"]
    pieces = [("309–316.", _WORD), *((sign, _GLUE) for sign in signs)]
    assert _read(pieces) == "309–316. https://doi.org/10.1007/"


def test_a_scheme_set_apart_from_its_colon_at_a_lines_end_is_joined() -> None:
    pieces = [("Available", _WORD), ("from:", _WORD), ("https", _GLUE), (":", 0)]
    assert _read(pieces) == "Available from: https:"


def test_a_line_that_opens_with_a_links_piece_goes_on_with_it() -> None:
    pieces = [("1103/", _GLUE), ("PhysRevLett.", _GLUE), ("120.", _GLUE), ("103201", _WORD), ("instead", _WORD), ("of", 0)]
    assert _read(pieces) == "1103/PhysRevLett.120.103201 instead of"


@pytest.mark.parametrize(
    "pieces",
    [
        # a word after a link, a word space apart
        [("see", _WORD), ("https://capitalizemytitle.com/", _WORD), ("has", _WORD), ("rules", 0)],
        [("a", _WORD), ("leading", _WORD), ("http://", _WORD), ("or", _WORD), ("https://.", 0)],
        # a narrow gap, but a sentence after the link's full stop and a reference's fields after a DOI
        [("see", _WORD), ("www.x.org.", _GLUE), ("The", _WORD), ("site", 0)],
        [("doi:", _GLUE), ("10.1093/ije/26.6.1323.", _GLUE), ("PMID:", _WORD), ("12", 0)],
        # no link
        [("in", _WORD), ("e.g.", _GLUE), ("the", _WORD), ("case", _WORD), ("of", 0)],
    ],
)
def test_words_after_a_link_and_outside_links_keep_their_spaces(pieces: list[tuple[str, float]]) -> None:
    assert _read(pieces) == " ".join(piece for piece, _gap in pieces)


def _tj_page(array: str) -> pdfium.PdfPage:
    """A page of one Helvetica line at 10 points drawn by the TJ array ``array``: a kern of -150
    (0.15 em) between a link's pieces, where pdfium writes a space."""
    return pdfium.PdfDocument(helvetica_page([f"BT /F1 10 Tf 72 700 Td [{array}] TJ ET"]))[0]


def test_a_drawn_link_is_read_without_the_spaces_pdfium_writes_in_it() -> None:
    page = _tj_page("(as in) -278 (https:) -150 (//doi.) -150 (org/10.1111/x) -278 (for) -278 (details.)")
    assert "https: //doi. org/" in page.get_textpage().get_text_range()
    assert [line.text for line in extract_page(page, 1).lines] == ["as in https://doi.org/10.1111/x for details."]


def test_a_sentence_after_a_drawn_link_keeps_its_space() -> None:
    page = _tj_page("(see www.x.org.) -150 (The) -278 (site)")
    assert [line.text for line in extract_page(page, 1).lines] == ["see www.x.org. The site"]


def test_a_references_doi_is_read_where_its_link_holds_such_spaces(tmp_path: Path) -> None:
    entry = "(2. Smith J. Growth of birds. Anim Ecol. 2008;77:1-9. https:) -150 (//doi.) -150 (org/10.) -150 (1111/j.) -150 (1365-2656.x)"
    lines = ["(A study of birds)", "(1. Jones A. Birds in winter. Nature. 2001;4:2-3.)", entry]
    ops = [f"BT /F1 {14 if index == 0 else 10} Tf 72 {700 - 40 * index} Td [{line}] TJ ET" for index, line in enumerate(lines)]
    ops.insert(1, "BT /F1 12 Tf 72 680 Td (References) Tj ET")
    path = tmp_path / "paper.pdf"
    path.write_bytes(helvetica_page(ops))
    assert "10.1111/j.1365-2656.x" in [reference.doi for reference in parse_pdf(path).references]


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        # elsarticle's "doi:" before a resolver's scheme, the "//" on the next line: the shared corpus
        (
            ["S0098300412002129. doi:http:", "//doi.org/10.1016/j.cageo.2012.06.017."],
            "S0098300412002129. doi:http://doi.org/10.1016/j.cageo.2012.06.017.",
        ),
        # a DOI's "10." after its label and a space: a JSS reference list
        (["ISSN 0036-8075. doi: 10.", "1126/science.290.5500.2319. URL"], "ISSN 0036-8075. doi: 10.1126/science.290.5500.2319. URL"),
    ],
)
def test_a_link_broken_after_its_label_joins_whole(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


@pytest.mark.parametrize("lines", [["doi: 10.", "Smith, J. (2019)."], ["see the note in http:", "the protocol"]])
def test_what_follows_a_label_and_no_links_rest_keeps_its_space(lines: list[str]) -> None:
    assert join_lines(lines) == " ".join(lines)


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")
def test_the_elsarticle_reference_keeps_its_resolvers_link_whole() -> None:
    document = parse_pdf(CORPUS / "arxiv-1803.07574-elsarticle-water-residence-time-compiled.pdf")
    raws = [reference.raw for reference in document.references if "cageo.2012.06.017" in reference.raw]
    assert raws and all("doi:http://doi.org/10.1016/j.cageo.2012.06.017" in raw for raw in raws)
