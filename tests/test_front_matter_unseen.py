"""Title-page metadata on layouts the rules were not first written for, each checked on the real PDF.

The papers are those of ``benchmarks/data/metadata_truth.json`` (``benchmarks/metadata_real.py``):
proceedings (ACL, EACL, ACM), arXiv preprints in conference styles, and journals from SAGE, the
University of Chicago Press, Elsevier and a small journal made in a word processor. Each case
was wrong before its rule: the venue of a proceedings paper, a year printed only as a TeX ©,
a citation footnote over three lines, an Elsevier running foot, names broken across lines,
author boxes side by side, a masthead box read as an author, an in-text citation read as a
journal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.retrieval.filters import year_of
from tests.conftest import SHARED

RECORDED = SHARED / "recorded"
ACL_2020 = "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics"


@pytest.fixture
def recorded() -> Path:
    if not (RECORDED / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/recorded not present ({RECORDED}): these papers' tests run only beside the project's shared material")
    return RECORDED


def venue(document: Document) -> tuple[str | None, int | None]:
    return document.journal, year_of(document.date_published)


def names(document: Document) -> list[str]:
    return [author.name for author in document.authors]


def test_a_proceedings_footer_names_the_venue_and_its_year(shared_corpus: Path) -> None:
    # "Proceedings of …, pages 4969–4983" over "July 5 - 10, 2020." and "c 2020 Association for …"
    assert venue(parse_pdf(shared_corpus / "acl-2020-s2orc.pdf")) == (ACL_2020, 2020)
    eacl = parse_pdf(shared_corpus / "eacl-2023-longeval-human-evaluation.pdf")
    assert venue(eacl) == (
        "Proceedings of the 17th Conference of the European Chapter of the Association for Computational Linguistics",
        2023,
    )


def test_a_copyright_sign_read_as_its_letter_gives_the_year() -> None:
    # as pdfium reads the ACL footer's TeX ©, and ACM's "Copyright c 2009 ACM"
    assert fm.find_journal([(1, "c 2020 Association for Computational Linguistics")], {}) == (None, 2020, None)
    assert fm.find_journal([(1, "c 2009 ACM 978-1-60558-392-1/09/06. . . $5.00")], {})[1] == 2009
    assert fm.find_journal([(1, "c and d are constants in 2020 Nature")], {})[1] is None  # prose is not a copyright line


def test_an_acm_permission_block_names_the_conference(shared_corpus: Path) -> None:
    # "PLDI’09, June 15–20, 2009, Dublin, Ireland." at the foot of the first column
    journal, year = venue(parse_pdf(shared_corpus / "pldi-2009-tracemonkey.pdf"))
    assert (journal, year) == ("PLDI’09", 2009)


def test_a_citation_footnote_over_three_lines(shared_corpus: Path) -> None:
    # "This paper should be cited as follows E. Gallego, … / … / … Results in Mathematics, pp. 1-9, 2017."
    amsart = parse_pdf(shared_corpus / "arxiv-1707.08043-amsart-commutative-algebra-compiled.pdf")
    assert venue(amsart) == ("Results in Mathematics", 2017)


def test_an_elsevier_foot_after_the_authors_slash(shared_corpus: Path) -> None:
    # "454 O. Sanni, A.P.I. Popoola / Data in Brief 22 (2019) 451–457": the page's year, not the Info's 2018
    assert venue(parse_pdf(shared_corpus / "data-in-brief-2019-single-page-figure-table.pdf")) == ("Data in Brief", 2019)


@pytest.mark.slow
def test_names_broken_between_two_lines_are_two_people(shared_corpus: Path) -> None:
    # "… Lauren Yu♦ Nathan Dahlberg" / "Margo Schlanger♦ Doug Downey†,♣"
    lexsum = parse_pdf(shared_corpus / "arxiv-2206.10883-multi-lexsum-37pages.pdf")
    assert names(lexsum) == ["Zejiang Shen", "Kyle Lo", "Lauren Yu", "Nathan Dahlberg", "Margo Schlanger", "Doug Downey"]


def test_a_masthead_box_beside_the_title_is_not_an_author(recorded: Path) -> None:
    # SAGE: "© Association for Information / Technology Trust 2021" beside the title
    jit = parse_pdf(recorded / "grobid/jit-2022-wagner-ai-literature-reviews.pdf")
    assert names(jit) == ["Gerit Wagner", "Roman Lukyanenko", "Guy Paré"]


def test_author_boxes_side_by_side_over_their_affiliations(recorded: Path) -> None:
    # CVPR style: "Diptodip Deb / Georgia Institute of Technology" beside "Jonathan Ventura / University of …"
    counting = parse_pdf(recorded / "nougat/arxiv-1804.07821v1-multicolumn-dilated-cnn-counting.pdf")
    assert names(counting) == ["Diptodip Deb", "Jonathan Ventura"]
    assert year_of(counting.date_published) == 2018  # the arXiv stamp


def test_a_block_on_the_affiliations_row_and_a_citation_in_the_text(recorded: Path) -> None:
    # "Facebook AI" beside "†University of Washington"; "Zaragoza, 2009), which matches …" is prose
    dpr = parse_pdf(recorded / "unstructured/multi-column-2p.pdf")
    assert names(dpr) == [
        "Vladimir Karpukhin",
        "Barlas Oğuz",
        "Sewon Min",
        "Patrick Lewis",
        "Ledell Wu",
        "Sergey Edunov",
        "Danqi Chen",
        "Wen-tau Yih",
    ]
    assert venue(dpr) == (None, 2020)  # no venue printed; the arXiv stamp's year


def test_a_name_under_the_title_with_its_mark_first_and_the_issue_in_the_info_title(recorded: Path) -> None:
    # "1Taofik Mohammed IBRAHIM"; the Info title is "Lafia Journal of … Sciences Vol. 2 No. 1, June 2017"
    lafia = parse_pdf(recorded / "grobid/lafia-jems-2017-agricultural-export-nigeria.pdf")
    assert names(lafia) == ["Taofik Mohammed Ibrahim"]
    assert lafia.title == "Impact of Agricultural Export on Inclusive Growth in Nigeria"
    assert venue(lafia) == ("Lafia Journal of Economics and Management Sciences", 2017)


def test_a_citation_line_before_a_copyright_whose_sign_is_lost(recorded: Path) -> None:
    # "Am. Nat. 2003. Vol. 162, pp. 624–637. \x01 2003 by The University of Chicago."; the running
    # heads spell the abbreviation out ("626 The American Naturalist")
    assert venue(parse_pdf(recorded / "grobid/am-nat-2003-roisin-split-sex-ratios.pdf")) == ("American Naturalist", 2003)
