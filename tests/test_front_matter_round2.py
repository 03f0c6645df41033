"""Title pages, second round of issue 32: a byline that sets each author's address beside the
name on one row (JMLR, PMLR), and a journal abbreviation whose last word lost its full stop
when read ("Cancer Med. 2019;8:…" under Wiley's masthead "Cancer Medicine").

Each case was wrong before its rule; the byline is drawn again with made-up names as a PDF of
real text (``tests/pdf_maker``) and checked on the batch-2 paper that showed it when present.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.byline_blocks import names_after_contact
from paperpyramid.parsers.embedded.journal import find_journal
from tests.test_front_matter_batch10 import _column
from tests.test_front_matter_publishers import bold, centred, names, parse, regular
from tests.unseen_pdfs import unseen_folder

BATCH2 = unseen_folder(2)


def test_the_names_after_the_first_authors_address_are_read(tmp_path: Path) -> None:
    # PMLR: "Author Name1† abc@sample.com and Author Name2 xyz@sample.com", the row cut after the first name
    document = parse(
        tmp_path,
        [
            centred(720, 14, "An Invented Title for a Workshop Paper", "bold"),
            bold(72, 690, 10, "Anna Berg"),
            regular(200, 689, 9, "aberg@example.org and Carl Dahl"),
            regular(420, 689, 9, "cdahl@example.org"),
            regular(72, 676, 9, "Address"),
            bold(280, 650, 11, "Abstract"),
            *_column(620),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl"]


def test_only_names_after_an_address_count() -> None:
    assert names_after_contact("aberg@example.org and Carl Dahl") == "Carl Dahl"
    assert names_after_contact("aberg@example.org, Department of Physics, Lund University") == ""
    assert names_after_contact("Carl Dahl and Anna Berg") == ""  # no address first: left to the other rules


def test_pmlr_sample_reads_both_authors() -> None:
    pdf = BATCH2 / "pmlr-sample.pdf"
    if not pdf.is_file():
        pytest.skip(f"batch 2 of the unseen sets not present ({pdf}); built by benchmarks/unseen_set.py --batch 2")
    # the template's names end in digits, read as affiliation marks: "Author Name" twice
    assert len(parse_pdf(pdf).authors) == 2


def test_an_abbreviation_cut_at_its_last_word_is_written_out() -> None:
    lines = [(1, "Cancer Medicine"), (1, "ORIGINAL RESEARCH"), (1, "Cancer Med. 2019;8:1234-1245."), (2, "2 of 10 BERG et al.")]
    assert find_journal(lines, {})[:2] == ("Cancer Medicine", 2019)
    # another journal on the page, or one word alone, is not the abbreviation written out
    assert find_journal([(1, "Cancer Research"), (1, "Cancer Med. 2019;8:1234-1245.")], {})[0] == "Cancer Med"
    assert find_journal([(1, "Oncology"), (1, "Oncol. 2019;8:1234-1245.")], {})[0] == "Oncol"


@pytest.mark.parametrize(("column", "expected"), [(200, ["Anna Berg"]), (150, [])])
def test_a_name_in_the_first_column_of_the_title_pages_foot(tmp_path: Path, column: float, expected: list[str]) -> None:
    # Epi's vignette: "Bendix Carstensen Steno Diabetes Center, …" over "& Department of …" set in the
    # second column; lines under it at the row's own left edge give no column to cut at
    document = parse(
        tmp_path,
        [
            centred(720, 20, "Years Lost to an Invented Disease", "bold"),
            centred(650, 12, "November 2017"),
            regular(150, 120, 10, "Anna Berg Example Diabetes Center, Town, Denmark"),
            regular(column, 106, 9, "& Department of Statistics, University of Example"),
            regular(column, 92, 9, "ab@example.dk"),
        ],
        [*_column(720)],
    )
    assert names(document) == expected


def test_a_journal_head_without_a_journal_word_is_read_where_the_subject_names_it() -> None:
    # Hindawi: "2" / "Rehabilitation Research and Practice" on every later page, the Info's Subject the same;
    # the first page's "Volume 2010, Article ID …" left out, as a logo set in outlines would leave it
    heads = [(page, text) for page in (2, 3, 4) for text in (str(page), "Rehabilitation Research and Practice")]
    assert find_journal(heads, {"Subject": "Rehabilitation Research and Practice"})[0] == "Rehabilitation Research and Practice"
    # a short running title without the subject, or a subject that is a field of study, names no journal
    assert find_journal(heads, {})[0] is None
    assert find_journal(heads, {"Subject": "Probability Theory"})[0] is None


def test_the_corpus_hindawi_paper_without_its_first_page_line(shared_corpus: Path) -> None:
    from paperpyramid.parsers.embedded import journal as jn

    pdf = shared_corpus / "hindawi-rehabil-res-pract-2010-heart-failure.pdf"
    seen: list[str | None] = []
    original = jn.find_journal

    def without_first_page(
        lines: list[tuple[int, str]], metadata: dict[str, str], surnames: frozenset[str] = frozenset()
    ) -> tuple[str | None, int | None, str | None]:
        seen.append(original([line for line in lines if line[0] >= 2], metadata, surnames)[0])
        return original(lines, metadata, surnames)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("paperpyramid.parsers.embedded.front_matter.find_journal", without_first_page)
        document = parse_pdf(pdf)
    assert document.journal == "Rehabilitation Research and Practice"
    assert seen == ["Rehabilitation Research and Practice"]
