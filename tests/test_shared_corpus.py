"""The whole shared corpus in one run: every ordinary PDF ingested, every hostile one either
failed with its reason or (readable scans, owner-password files) ingested with a warning, and
section titles scored against the gold files. Skips when ../shared is absent."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from paperpyramid.eval.parse import evaluate
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings

READABLE_HOSTILE = {
    "hostile-scanned-ocr-layer-z-naturforsch-1999.pdf": "OCR text layer",
    "hostile-scanned-ocr-layer-cacm-1978-backus-p21.pdf": "OCR text layer",
    "hostile-encrypted-owner-aes-layoutparser-2pages.pdf": "owner password only: opens without a password",
}
REASONS = {
    "hostile-619-pages-small-file.pdf": "619 pages is over the limit of 500",
    "hostile-encrypted-user-password.pdf": "needs a password",
    "hostile-header-then-eof-no-objects.pdf": "corrupt",
    "hostile-fuzzed-no-trailer.pdf": "corrupt",
    "hostile-not-a-pdf-html-landing-page.pdf": "no %PDF header",
    "hostile-scanned-image-only-two-column.pdf": "tesseract-ocr",
}
if shutil.which("tesseract"):  # the image-only scan is read by OCR
    READABLE_HOSTILE["hostile-scanned-image-only-two-column.pdf"] = REASONS.pop("hostile-scanned-image-only-two-column.pdf")


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory):
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    if not (corpus / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/corpus not present ({corpus})")
    db = tmp_path_factory.mktemp("shared") / "corpus.sqlite"
    summary = ingest([corpus], db, Settings(ingest=IngestSettings(workers=2, jats=False)))  # the PDF parser, scored against the XML
    manifest = list(csv.DictReader((corpus / "MANIFEST.tsv").open(), delimiter="\t"))
    return corpus, db, summary, manifest


@pytest.mark.slow
def test_every_pdf_ingested_every_hostile_file_failed_with_its_reason(corpus_run):
    corpus, db, summary, manifest = corpus_run
    outcome = {Path(r.source_uri).name: r for r in summary.results}
    for row in manifest:
        if row["kind"] == "pdf":
            assert outcome[row["file"]].status == "done", (row["file"], outcome[row["file"]].error)
        elif row["kind"] == "hostile" and row["file"] in READABLE_HOSTILE:
            result = outcome[row["file"]]
            assert result.status == "done" and result.warnings, row["file"]
        elif row["kind"] == "hostile":
            result = outcome[row["file"]]
            assert result.status == "failed" and REASONS[row["file"]] in result.error, (row["file"], result.error)
    assert set(REASONS) | set(READABLE_HOSTILE) == {row["file"] for row in manifest if row["kind"] == "hostile"}


@pytest.mark.slow
def test_section_titles_beat_grobids_published_soft_f1(corpus_run):
    corpus, db, _, _ = corpus_run
    report = evaluate(corpus, db)
    assert len(report.papers) == 12 and not report.missing
    assert report.overall.micro_f1 >= 0.75  # GROBID 0.8.2 on PubMed Central: 0.753 (soft)
    assert report.overall.mean_body_recall >= 0.95
