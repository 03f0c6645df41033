"""The embedded parser on real PDFs (committed CC BY samples) against their gold JATS,
and its passes on small synthetic pages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperpyramid.errors import NeedsOcr, NotAPdf, ParseTimeout, PdfCorrupt, PdfEncrypted, TooManyPages
from paperpyramid.eval.gold import load_gold
from paperpyramid.eval.parse import soft_norm
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.reading_order import order_page, remove_page_furniture
from tests.conftest import GOLD, HOSTILE, SAMPLE

PLOS = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"
MDPI = SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf"
BMC = SAMPLE / "bmc-health-serv-res-2014-barriers.pdf"


@pytest.fixture(scope="module")
def plos():
    return parse_pdf(PLOS)


@pytest.fixture(scope="module")
def mdpi():
    return parse_pdf(MDPI)


def body_titles(document) -> list[str]:
    return [s.title for s in document.sections if s.number != "ref" and s.title.lower() != "abstract"]


def test_plos_metadata_matches_gold(plos):
    gold = load_gold(GOLD / "plos-one-2014-fanged-frog-internal-fertilization.nxml")
    assert soft_norm(plos.title) == soft_norm(gold.title)
    assert plos.doi == "10.1371/journal.pone.0115884"
    assert plos.pages == 14
    assert plos.abstract.startswith("We describe a new species of fanged frog")
    assert plos.authors and plos.authors[0].name == "Djoko T. Iskandar"


def test_plos_every_gold_section_found_in_order(plos):
    gold = load_gold(GOLD / "plos-one-2014-fanged-frog-internal-fertilization.nxml")
    predicted = [soft_norm(t) for t in body_titles(plos)]
    positions = [predicted.index(soft_norm(title)) for title in gold.section_titles if soft_norm(title) in predicted]
    assert len(positions) >= 0.8 * len(gold.section_titles)
    assert positions == sorted(positions), "sections must come in reading order"


def test_plos_references_split_one_per_entry(plos):
    assert len(plos.references) == 25  # the JATS <ref-list> holds 25
    first = plos.references[0]
    assert first.year is not None and 1900 < first.year < 2015
    assert any(ref.doi for ref in plos.references) or all(ref.title for ref in plos.references[:5])


def test_plos_table_has_caption_and_cells(plos):
    assert len(plos.tables) == 1
    table = plos.tables[0]
    assert table.caption.startswith("Table 1")
    assert len(table.cells) >= 3 and max(len(row) for row in table.cells) >= 2
    assert table.markdown.count("\n") >= 2 and table.markdown.startswith("|")


def test_plos_pages_increase_through_the_paper(plos):
    notes = plos.sections[-1] if not plos.sections[-1].title else None  # the untitled notes hold small print from any page
    starts = [s.page_start for s in plos.sections if s is not notes]
    assert starts == sorted(starts)
    blocks = [block.page for s in plos.sections for block in s.blocks]
    assert blocks[0] == 1 and max(blocks) >= 12


def test_mdpi_numbered_tree(mdpi):
    by_number = {s.number: (i, s) for i, s in enumerate(mdpi.sections) if s.number}
    assert {"1", "2", "3", "3.1", "3.2", "3.3", "3.4"} <= set(by_number)
    parent_index, parent = by_number["3"]
    for child in ("3.1", "3.2", "3.3", "3.4"):
        index, section = by_number[child]
        assert section.parent == parent_index and section.level == parent.level + 1
    gold = load_gold(GOLD / "mdpi-metabolites-2014-durum-wheat-volatiles.nxml")
    assert [soft_norm(t) for t in gold.section_titles] == [
        soft_norm(t) for t in body_titles(mdpi) if soft_norm(t) in {soft_norm(g) for g in gold.section_titles}
    ]
    assert len(mdpi.references) == 44


def test_text_is_dehyphenated_and_free_of_page_furniture(plos):
    text = " ".join(s.text for s in plos.sections)
    assert "PLOS ONE | DOI" not in text  # the running foot on every page
    assert "fertili- zation" not in text and "fertilization" in text


def test_bmc_two_columns_read_left_then_right():
    document = parse_pdf(BMC)
    text = " ".join(" ".join(s.text.split()) for s in document.sections)
    # a sentence wrapped over four lines of the left column comes out whole, in order
    assert (
        "The Medical Department of the Kamuzu Central Hospital (KCH), is a tertiary referral hospital located in the "
        "Central Region of Malawi and serves a population of around 5 million."
    ) in text
    assert [s.title for s in document.sections if s.title][:3] == ["Abstract", "Background", "Methods"]
    assert len(document.references) >= 20
    # subsections hang under their IMRaD heading, which is top level
    titles = [s.title for s in document.sections]
    methods = titles.index("Methods")
    setting = document.sections[titles.index("Setting")]
    assert document.sections[methods].level == 1 and document.sections[methods].parent is None
    assert setting.parent == methods and setting.level == 2


# --- bad input: every kind gets its own error and a reason a person understands


def test_encrypted_pdf_needs_password():
    path = HOSTILE / "hostile-encrypted-user-password.pdf"
    with pytest.raises(PdfEncrypted, match="password"):
        parse_pdf(path)
    with pytest.raises(PdfEncrypted, match="wrong"):
        parse_pdf(path, password="not-it")
    document = parse_pdf(path, password="openpassword")
    assert document.pages == 1 and "Lorem" in " ".join(s.text for s in document.sections)


@pytest.mark.parametrize("name", ["hostile-header-then-eof-no-objects.pdf", "hostile-fuzzed-no-trailer.pdf"])
def test_corrupt_pdf(name):
    with pytest.raises(PdfCorrupt, match="corrupt|no pages"):
        parse_pdf(HOSTILE / name)


@pytest.mark.ocr
def test_image_only_scan_is_read_by_ocr_or_refused_saying_how_to_read_it():
    scan = HOSTILE / "hostile-scanned-image-only-two-column.pdf"
    with pytest.raises(NeedsOcr, match="tesseract-ocr"):
        parse_pdf(scan, ocr="never")
    if shutil.which("tesseract") is None:
        with pytest.raises(NeedsOcr, match="tesseract-ocr"):
            parse_pdf(scan)
        return
    document = parse_pdf(scan)  # a JBIG2 page of a two-column brochure
    assert document.ocr_pages == [1]
    titles = [section.title for section in document.sections]
    assert "Recording a Sequence" in titles and "Editing" in titles


def test_html_saved_as_pdf(tmp_path: Path):
    path = tmp_path / "landing.pdf"
    path.write_text("<!DOCTYPE html><html><head><title>Journal</title></head><body>Sign in</body></html>")
    with pytest.raises(NotAPdf, match="HTML"):
        parse_pdf(path)


def test_page_limit_and_time_limit():
    with pytest.raises(TooManyPages, match="14 pages is over the limit of 5"):
        parse_pdf(PLOS, max_pages=5)
    with pytest.raises(ParseTimeout, match="longer than"):
        parse_pdf(PLOS, time_limit=1e-6)


# --- the passes, on synthetic pages


def line(text: str, x0: float, top: float, x1: float, size: float = 10.0, page: int = 1) -> Line:
    return Line(text=text, page=page, x0=x0, top=top, x1=x1, bottom=top + size * 1.2, size=size, bold=False, italic=False, font="Body")


def test_join_lines_undoes_hyphenation_but_keeps_compounds():
    assert join_lines(["the fertili-", "zation of eggs"]) == "the fertilization of eggs"
    assert join_lines(["co-", "Occurring species"]) == "co-Occurring species"
    assert join_lines(["soft\u00ad", "hyphen"]) == "softhyphen"
    assert join_lines(["two", "lines"]) == "two lines"


def test_two_column_page_reads_down_the_left_column_first():
    lines = [line("Title spanning the whole page width", 50, 40, 560, size=16)]
    for row in range(10):
        lines.append(line(f"left {row}", 50, 100 + row * 14, 290))
        lines.append(line(f"right {row}", 320, 100 + row * 14, 560))
    page = Page(number=1, width=612, height=792, lines=lines, n_chars=500, n_images=0)
    ordered = [item.text for item in order_page(page)]
    assert ordered[0].startswith("Title")
    assert ordered[1:11] == [f"left {row}" for row in range(10)]
    assert ordered[11:] == [f"right {row}" for row in range(10)]


def test_running_heads_page_numbers_and_side_stamps_removed():
    pages = []
    for number in range(1, 5):
        lines = [
            line("Journal of Examples 12 (2020)", 50, 20, 300, size=8, page=number),
            line(f"Body text on page {number}", 50, 300, 500, page=number),
            line(str(number), 300, 770, 310, size=8, page=number),
            line("arXiv:2004.14974v2 [cs.CL] 27 Jun 2020", 10, 200, 30, page=number),
        ]
        lines[-1].vertical = True
        pages.append(Page(number=number, width=612, height=792, lines=lines, n_chars=200, n_images=0))
    remove_page_furniture(pages)
    assert [[item.text for item in page.lines] for page in pages] == [[f"Body text on page {n}"] for n in range(1, 5)]


def test_a_display_equation_is_one_formula_with_its_number(shared_corpus):
    # elsarticle sets each display over several blocks (sub- and superscripts apart) and its
    # number "(n)" on its own: each came out as loose paragraphs, the number detached
    paper = parse_pdf(shared_corpus / "arxiv-1803.07574-elsarticle-water-residence-time-compiled.pdf")
    # all eleven numbered displays (the eleventh, "SNR = 20 log10 …", found from layout since issue 19), no plot legend
    assert [formula.label for formula in paper.formulas] == [str(n) for n in range(1, 12)]
    argmin = next(formula for formula in paper.formulas if formula.label == "2")
    assert "argmin" in argmin.text and "∥y−x ∗k−c1∥" in argmin.text
    assert not any(block.text.strip() == "(2)" for section in paper.sections for block in section.blocks)


def test_a_display_over_several_blocks_is_one_formula():
    from paperpyramid.parsers.embedded.blocks import Block, join_displays

    def block(text: str, top: float, kind: str = "formula", label: str | None = None, column: int = 1) -> Block:
        item = Line(text, 3, 100, top, 300, top + 10, 10, False, False, "CMMI10")
        item.column = column
        return Block([item], kind=kind, label=label)

    blocks = [
        block("We bound the count by", 90, kind="paragraph"),
        block("D = |{x", 104),
        block("n", 113, kind="paragraph"),
        block("i=1 ri ≤ d}|", 118),
        block("≤ (2d choose d)", 131, label="3"),
        block("z = 1", 146),  # after a labelled display: a new one
        block("y = 2", 200),  # too far below: another display
        block("w = 3", 211, column=2),  # the next column
        block("since d ≥ n, the claim follows.", 230, kind="paragraph"),
    ]
    joined = join_displays(blocks)
    assert [(item.kind, item.label, item.text) for item in joined] == [
        ("paragraph", None, "We bound the count by"),
        ("formula", "3", "D = |{x n i=1 ri ≤ d}| ≤ (2d choose d)"),
        ("formula", None, "z = 1"),
        ("formula", None, "y = 2"),
        ("formula", None, "w = 3"),
        ("paragraph", None, "since d ≥ n, the claim follows."),
    ]


@pytest.mark.slow
def test_the_lecture_notes_displays_are_whole(shared_corpus):
    # 1,486 formula rows, 623 of two words or fewer, before displays were joined: 705 and 104 after
    notes = parse_pdf(shared_corpus / "geotopo-lecture-notes-de-117pages-math.pdf")
    assert len(notes.formulas) < 800
    assert sum(1 for formula in notes.formulas if len(formula.text.split()) <= 2) < 150


def test_a_sentence_with_inline_mathematics_is_no_display():
    from paperpyramid.parsers.embedded.blocks import Block, looks_like_formula

    def block(text: str) -> Block:
        return Block([Line(text, 3, 100, 100, 400, 110, 10, False, False, "CMR10")])

    assert looks_like_formula(block("aW = (n, a1, · · · , aE) ∈ N × k"), 10)
    # amsart: a line of the text with symbols in it was stored as a formula
    assert not looks_like_formula(block("W, then we say that aW belongs to |Φ|k if (a1, · · · , aE) ∈ |Φ|k."), 10)


def test_a_reference_list_resumed_after_the_back_matter_is_one_list(shared_corpus, monkeypatch):
    # F1000 sets the back matter (data availability ... acknowledgements) between the two halves
    # of its numbered list: entries 7 onwards were stored as acknowledgements (6 references of 43)
    monkeypatch.setenv("PAPERPYRAMID_INGEST__TESSERACT", "")  # the list's pages have readable fonts; no OCR needed
    paper = parse_pdf(shared_corpus / "f1000research-2015-mosquito-odorant-binding-garbled-fonts.pdf")
    assert len(paper.references) >= 40  # 42 of the 43 the JATS lists
    assert any(reference.raw.startswith("Ishida Y, Cornel AJ, Leal WS") for reference in paper.references)
    acknowledgements = next(section for section in paper.sections if section.title == "Acknowledgements")
    assert not any(block.text.startswith(("7. Ishida", "8. Bohbot")) for block in acknowledgements.blocks)
