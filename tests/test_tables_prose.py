"""No prose stored as a table: sentences that name a table are not captions, a caption
printed below its table does not take the running text under it, and the table above it
is read instead."""

from __future__ import annotations

from functools import cache

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.blocks import caption_start
from paperpyramid.parsers.embedded.layout import number_groups
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_reader import reads_as_prose
from tests.conftest import CORPUS, SAMPLE

pytest.importorskip("pdfplumber", reason="the table engine's ruled-grid step needs pdfplumber")

SPECTER = "acl-2020-specter.pdf"
LONGEVAL = "eacl-2023-longeval-human-evaluation.pdf"
SCIFACT = "emnlp-2020-scifact-arxiv-2004.14974-compiled.pdf"
S2ORC = "acl-2020-s2orc.pdf"
CHIN = "chin-med-j-2017-small-fiber-neuropathy.pdf"


@pytest.mark.parametrize(
    "text",
    [
        "Table 1: Results on the SCIDOCS suite",
        "Table 2. Observed maximum longevity",
        "Table 1 Patient-provider relationship",
        "Fig. 3 a Scheme",
        "Table 4 (continued)",
    ],
)
def test_a_caption_opens_with_its_label(text: str) -> None:
    assert caption_start(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "Table 1 presents the main results corresponding to",
        "Table 5, we show accuracy, inter-annotator",
        "Table 2 compares key measurements",
        "Figure 3 shows the",
    ],
)
def test_a_sentence_that_names_a_table_is_not_a_caption(text: str) -> None:
    assert caption_start(text) is None


def test_prose_cut_into_cells_is_told_from_a_table() -> None:
    column = [
        ["the most co-viewed (co-read, or co-cited) papers"],
        ["corresponding to the query paper. We also include"],
        ["the number of papers in each"],
    ]
    pages = [["are shown 50 perturbed and 50 un-perturbed sum-", "and summary, reducing the need for hints over time."]] * 3
    assert reads_as_prose(column) and reads_as_prose(pages)
    rubric = [["The first complaint"], ["The last amended complaint"], ["Any opinion"]]
    translation = [
        ["Original text in Hungarian", "Translation of the original text into English"],
        ["“Micsoda szükséges jókat akarván az Emberi”", "“The sort of necessary good things wanted”"],
    ] * 2
    numbers = [["Parameters", "IGT-related PN (n = 12)"], ["Age (years)", "56.8 ± 12.7"], ["IENFD", "4.2 ± 2.1"]]
    assert not any(reads_as_prose(cells) for cells in (rubric, translation, numbers))


@cache
@cache
def _parse(name: str) -> Document:
    return parse_pdf(CORPUS / name)


def _parsed(name: str) -> Document:
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/corpus not present ({CORPUS}): these papers are not openly licensed for tests/data")
    return _parse(name)


def _paragraphs(document: Document) -> str:
    return " ".join(block.text for section in document.sections for block in section.blocks if block.kind == "paragraph")


def _cells(document: Document) -> str:
    return " ".join(cell for table in document.tables for row in table.cells for cell in row)


@pytest.mark.parametrize("name", [SPECTER, LONGEVAL, SCIFACT, S2ORC, CHIN])
def test_no_table_of_a_shared_paper_holds_prose(name: str) -> None:
    document = _parsed(name)
    assert not [table.caption[:40] for table in document.tables if table.cells and reads_as_prose(table.cells)]
    # a table printed without a caption has none; one with a caption has a real one
    assert not [table.caption[:40] for table in document.tables if table.caption and caption_start(table.caption) is None]


def test_sentences_that_name_a_table_stay_text() -> None:
    specter, longeval, s2orc = _parsed(SPECTER), _parsed(LONGEVAL), _parsed(S2ORC)
    assert "Table 1 presents the main results" in _paragraphs(specter)
    assert "we ask five of our FINE Upwork" in _paragraphs(longeval)
    assert "On average, LATEX parses contain many more" in _paragraphs(s2orc)
    assert [table.label for table in longeval.tables].count("5") == 1


def test_text_under_a_caption_printed_below_its_table_stays_text() -> None:
    # ACL captions sit under their tables: the column under "Table 3:" is running text
    specter, scifact = _parsed(SPECTER), _parsed(SCIFACT)
    assert "co-viewed (co-read, or co-cited)" not in _cells(specter)
    assert "co-viewed (co-read, or co-cited)" in _paragraphs(specter)
    assert "To create the dataset" not in _cells(scifact)
    assert "To create the dataset" in _paragraphs(scifact)


def test_a_table_above_its_caption_is_read() -> None:
    longeval = _parsed(LONGEVAL)
    table = next(table for table in longeval.tables if table.label == "2")
    assert ["None", "101", "62%"] in table.cells  # rows set 10 pt apart stay rows
    assert "Type of human evaluation" in table.cells[0]


def test_a_table_closed_by_its_rules_takes_no_running_text_after_it() -> None:
    # its bottom rule closes it, not the rule over the page footer
    chin = _parsed(CHIN)
    table = next(table for table in chin.tables if table.label == "2")
    assert len(table.cells) == 12
    assert "Age (years)" in table.cells[1]
    assert "Discussion" not in _cells(chin) and "NCS was abnormal" not in _cells(chin)


def test_a_line_is_cut_around_its_numbers_but_not_inside_a_measurement() -> None:
    def groups(text: str) -> list[str]:
        words = [(word, 10.0 * i, 10.0 * i + 8) for i, word in enumerate(text.split())]
        return [" ".join(word for word, _, _ in group) for group in number_groups(words)]

    assert groups("SciBERT fine-tune on co-view 83.0 84.2 36.4") == ["SciBERT fine-tune on co-view", "83.0", "84.2", "36.4"]
    assert groups("56.8 ± 12.7 1.924* 0.161") == ["56.8 ± 12.7", "1.924*", "0.161"]
    assert groups("IGT-related PN (n = 12)") == ["IGT-related PN (n = 12)"]
    assert groups("28.9M (35.6%)") == ["28.9M (35.6%)"]


def test_numeric_columns_set_a_space_apart_are_columns() -> None:
    # ACL tables set "84.2 88.4 91.5" a word space apart: the header and every value its own cell
    specter, longeval = _parsed(SPECTER), _parsed(LONGEVAL)
    ablations = next(table for table in specter.tables if table.label == "2")
    assert ablations.cells[:2] == [["", "CLS", "USR", "CITE", "REC", "Avg."], ["SPECTER", "84.2", "88.4", "91.5", "36.9", "80.0"]]
    algorithms = next(table for table in longeval.tables if table.label == "4")
    assert algorithms.cells[0] == ["Algorithm", "R@3", "R@5", "R@10"]
    assert ["SuperPAL (2021)", "0.61", "0.68", "0.77"] in algorithms.cells


def test_a_table_continued_on_the_next_page_is_one_table() -> None:
    from paperpyramid.document import Block, Section, Table
    from paperpyramid.parsers.embedded.table_reader import join_continued

    head = ["Regulated pressure", "Total"]
    first = Table("Table 4 Pressures", [head, ["1. felling", "10"]], page=11, label="4", bbox=(0, 0, 1, 1))
    rest = Table("Table 4 Pressures (Continued)", [head, ["20. washing", "11"]], page=12, label="4", bbox=(0, 2, 1, 3))
    other = Table("Table 5 Habitats", [["Habitat", "Records"], ["nád", "1"]], page=12, label="5", bbox=(0, 4, 1, 5))
    sections = [
        Section("Results", 1, blocks=[Block(t.caption + "\n\n" + t.markdown, t.page, "table", t.bbox) for t in (first, rest, other)])
    ]
    document = Document(pages=12, sections=sections, tables=[first, rest, other])
    join_continued(document)
    assert [table.label for table in document.tables] == ["4", "5"]
    assert document.tables[0].cells == [head, ["1. felling", "10"], ["20. washing", "11"]]  # the repeated header once
    blocks = document.sections[0].blocks
    assert len(blocks) == 2 and "| 20. washing | 11 |" in blocks[0].text and blocks[0].page == 11


@pytest.mark.slow
def test_the_landscape_papers_continued_tables_are_whole() -> None:
    document = _parsed("bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.pdf")
    labels = [table.label for table in document.tables]
    assert labels.count("4") == labels.count("5") == 1
    assert len(next(table for table in document.tables if table.label == "5").cells) >= 60  # 62 rows in the gold


def test_a_sideways_table_page_is_read_upright() -> None:
    # pages 5-6 of the BMC paper are set sideways (/Rotate 90): their text was dropped as rotated
    document = parse_pdf(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf")
    themes = next(table for table in document.tables if table.label == "2")
    # four columns: the row labels apart from the strengths set close beside them
    assert themes.page == 5 and len(themes.cells) >= 30 and len(themes.cells[0]) == 4
    assert themes.cells[0][1] == "Strengths/existing quality model"
    assert themes.cells[0][0].startswith("Respondent group")
    cells = " ".join(cell for row in themes.cells for cell in row)
    assert "Self referrals and weak patient referral system" in cells  # page 5
    assert "No strategic plan for the hospital" in cells  # page 6, the table continued
