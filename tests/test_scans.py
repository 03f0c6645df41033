"""Scans read by OCR (parsers/embedded/scans.py, scan_reading.py): an image-only PDF is
ingested, not refused; an OCR text layer that fails the quality test is read again.

The scans are made in the test: a bundled open-access paper (tests/data/sample, CC BY) is
rendered to images and rebuilt as an image-only PDF, so the text layer's parse of the same
pages is the gold. The end-to-end tests need the ``tesseract`` program (``apt-get install
tesseract-ocr``; .ci/run installs it) and skip, saying why, without it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from paperpyramid.errors import NeedsOcr
from paperpyramid.parsers.coverage import coverage, document_texts, words
from paperpyramid.parsers.embedded.ocr import Word, parse_tsv
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.scans import layer_quality, page_from_words
from tests.scan_maker import render_pages, scanned_pdf

SAMPLE = Path(__file__).parent / "data" / "sample"
FROG = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"
BMC = SAMPLE / "bmc-health-serv-res-2014-barriers.pdf"
needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="needs the tesseract program (apt-get install tesseract-ocr)"
)

# an OCR layer as bad OCR software writes it: letters, digits and symbols mixed in every word
_GARBLED = [
    "Tlie 1nt3rnal f€rti1izati0n 0f tbe fr0g L1mn0nectes",
    "wa5 0bserv3d in tbe f1eld; tadp0les w€re b0rn",
    "fr0m tlie f€male's 0viduct (F1g. 2)",
]


def test_quality_tells_a_clean_layer_from_a_garbled_one():
    clean = [
        "We describe a new species of fanged frog (Limnonectes larvaepartus) that is unique among anurans",
        "in having both internal fertilization and birth of tadpoles. The new species is endemic to Sulawesi.",
    ]
    assert layer_quality(clean) is not None and layer_quality(clean) > 0.95  # type: ignore[operator]
    assert layer_quality(_GARBLED * 2) is not None and layer_quality(_GARBLED * 2) < 0.5  # type: ignore[operator]
    # a script other than Latin is not garbage; too few words cannot be judged
    greek = ["Περιγράφουμε ένα νέο είδος βατράχου που γεννά γυρίνους στο νησί Σουλαουέζι της Ινδονησίας"] * 3
    assert layer_quality(greek) == 1.0
    assert layer_quality(["a few words"]) is None


def test_tesseract_tsv_rows_become_words_in_points():
    tsv = (
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
        "4\t1\t1\t1\t1\t0\t300\t600\t900\t50\t-1\t\n"
        "5\t1\t1\t1\t1\t1\t300\t600\t200\t50\t96.5\tFrogs\n"
        "5\t1\t1\t1\t1\t2\t520\t600\t10\t50\t95\t \n"
        "5\t1\t2\t1\t3\t1\t600\t900\t100\t40\t12.0\tbirth\n"
    )
    found = parse_tsv(tsv, scale=300 / 72)
    assert [word.text for word in found] == ["Frogs", "birth"]
    assert (round(found[0].x0, 1), round(found[0].top, 1), round(found[0].x1, 1), found[0].confidence, found[0].line) == (
        72.0,
        144.0,
        120.0,
        96.5,
        (1, 1, 1),
    )
    assert found[1].line == (2, 1, 3)


def test_ocr_words_become_lines_cut_at_gutters_with_sizes_from_their_letters():
    def word(text: str, x0: float, top: float, height: float, line: int) -> Word:
        return Word(text, x0, top, x0 + 6 * len(text), top + height, 95.0, (1, 1, line))

    # 10 pt type: a word with ascenders and descenders spans about 0.92 em, "in a" only the x-height
    words_ = [
        word("Hospital", 72, 100, 9.2, 1),
        word("in", 125, 102.8, 4.8, 1),
        word("a", 140, 102.8, 4.8, 1),
        word("Lilongwe", 150, 100, 9.2, 1),
        word("Table", 330, 100, 7.0, 1),
        word("in", 72, 120, 4.8, 2),
        word("a", 87, 120, 4.8, 2),
    ]
    page = page_from_words(3, 612, 792, words_).page
    assert [line.text for line in page.lines] == ["Hospital in a Lilongwe", "Table", "in a"]  # 130 pt apart: a gutter
    sizes = {line.text: line.size for line in page.lines}
    assert sizes["Hospital in a Lilongwe"] == sizes["in a"] == sizes["Table"]  # one size, whatever the letters
    assert all(line.page == 3 and line.font == "ocr" for line in page.lines)


@pytest.fixture(scope="module")
def frog_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("scans") / "frog-scan.pdf"
    path.write_bytes(scanned_pdf(render_pages(FROG, 200, [1, 2]), 200))
    return path


def _titles(document) -> list[str]:  # type: ignore[no-untyped-def]
    return [section.title.lower() for section in document.sections if section.title]


@pytest.mark.slow
@pytest.mark.ocr
@needs_tesseract
def test_an_image_only_scan_is_read_by_ocr_like_its_text_layer(frog_scan: Path):
    with pytest.raises(NeedsOcr, match="Tesseract"):
        parse_pdf(frog_scan, ocr="never")  # refused, as before, saying what would read it
    scanned = parse_pdf(frog_scan)
    assert scanned.ocr_pages == [1, 2] and any("read by OCR" in warning for warning in scanned.warnings)
    gold = parse_pdf(FROG)
    assert scanned.title == gold.title
    assert [author.name for author in scanned.authors] == [author.name for author in gold.authors]
    # the sections the text layer finds on the same two pages, found from the page images
    gold_titles = [section.title.lower() for section in gold.sections if section.title and section.blocks and section.blocks[0].page <= 2]
    found = set(_titles(scanned))
    assert sum(title in found for title in gold_titles) >= len(gold_titles) - 1, (gold_titles, found)
    # nearly every word of those pages' text layer reaches the document
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(FROG)
    layer: Counter[str] = Counter()
    for index in (0, 1):
        layer.update(words(pdf[index].get_textpage().get_text_range()))
    pdf.close()
    held: Counter[str] = Counter()
    for text in document_texts(scanned):
        held.update(words(text))
    recall = sum(min(count, held[word]) for word, count in layer.items()) / sum(layer.values())
    assert recall > 0.93, recall
    # coverage is measured against what OCR read, not against the empty text layer
    measured = coverage(frog_scan, scanned)
    assert measured is not None and measured > 0.9


@pytest.mark.slow
@pytest.mark.ocr
@needs_tesseract
def test_a_garbled_ocr_layer_is_read_again_and_a_good_one_is_kept(tmp_path: Path):
    image = render_pages(BMC, 200, [2])
    garbled = tmp_path / "garbled.pdf"
    garbled.write_bytes(
        scanned_pdf(image, 200, hidden_text=[[(72, 700 - 14 * index, 10, line) for index, line in enumerate(_GARBLED * 4)]])
    )
    reread = parse_pdf(garbled)
    assert reread.ocr_pages == [1]
    text = " ".join(document_texts(reread))
    assert "f€rti1izati0n" not in text and "Pakistan" in text  # the page's own words, not the layer's
    kept = parse_pdf(garbled, ocr="never")
    assert kept.ocr_pages == [] and "f€rti1izati0n" in " ".join(document_texts(kept))

    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(BMC)
    good_lines = [line for line in pdf[1].get_textpage().get_text_range().splitlines() if line.strip()][:60]
    pdf.close()
    good = tmp_path / "good-layer.pdf"
    good.write_bytes(
        scanned_pdf(
            image,
            200,
            hidden_text=[
                [(72, 760 - 12 * index, 9, line.encode("cp1252", "replace").decode("cp1252")) for index, line in enumerate(good_lines)]
            ],
        )
    )
    layer_read = parse_pdf(good)
    assert layer_read.ocr_pages == [] and any("OCR text layer" in warning for warning in layer_read.warnings)


def test_without_tesseract_a_scan_is_refused_saying_how_to_read_it(frog_scan: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PAPERPYRAMID_INGEST__TESSERACT", "")
    with pytest.raises(NeedsOcr, match="apt-get install tesseract-ocr"):
        parse_pdf(frog_scan)


@pytest.mark.slow
@pytest.mark.ocr
@needs_tesseract
def test_ingest_stores_the_pages_read_by_ocr_and_show_prints_them(frog_scan: Path, tmp_path: Path):
    db = tmp_path / "scans.sqlite"
    cli = [sys.executable, "-m", "paperpyramid.cli"]
    done = subprocess.run(
        [*cli, "ingest", str(frog_scan), "--db", str(db), "--workers", "0", "--no-embed"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shown = subprocess.run([*cli, "list", "--db", str(db), "--json"], capture_output=True, text=True, timeout=60)
    article_id = json.loads(shown.stdout.splitlines()[0])["id"]
    detail = subprocess.run([*cli, "show", "--db", str(db), "--json", "--", article_id], capture_output=True, text=True, timeout=60)
    article = json.loads(detail.stdout)
    assert article["ocr_pages"] == [1, 2] and article["coverage"] > 0.9
    printed = subprocess.run([*cli, "show", "--db", str(db), "--", article_id], capture_output=True, text=True, timeout=60)
    assert "read by OCR: pages 1, 2" in printed.stdout
    never = subprocess.run(
        [*cli, "ingest", str(frog_scan), "--db", str(tmp_path / "never.sqlite"), "--workers", "0", "--no-embed", "--ocr", "never"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert never.returncode != 0 and "tesseract-ocr" in " ".join((never.stdout + never.stderr).split())
