#!/usr/bin/env python3
"""Scans read by OCR against the same pages' text layer, on one core.

    python benchmarks/ocr_scans.py [PDF ...] [--pages 3] [--dpi 200] [--json OUT]

Each PDF's first ``--pages`` pages are cut out (the text-layer gold), rendered to greyscale
images at ``--dpi`` and rebuilt as an image-only PDF (a scan, JPEG as scanners write them).
Both are parsed by the embedded parser, the scan with ``ocr="auto"`` (Tesseract), and the
scan's parse is scored against the text layer's:

- section titles: F1 of the scan's titles against the text-layer parse's (lower-cased);
- words: recall and precision of the scan's document words against the text layer's words of
  the same pages (``parsers.coverage.words``: folded, page furniture kept in both);
- title and author names equal;
- pages/s of the text-layer parse and of the scan's (rendering and OCR included), one core.

By default it reads the three bundled sample papers and the PDFs of ``../shared/corpus``
(born-digital, kind ``pdf``, the garbled-font paper aside) in two splits: dev (the samples and
the corpus papers at even positions in MANIFEST.tsv), on which the OCR line sizes, weights and
marks were set and whose failures may be looked at; held-out (the odd positions), reported and
never looked into while tuning (``--split held_out`` prints no per-paper lines). PDFs named on
the command line are one split of their own. Needs the ``tesseract`` program.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
CORPUS = HERE.parents[2] / "shared" / "corpus"
SAMPLE = REPO / "tests" / "data" / "sample"
sys.path.insert(0, str(REPO))

os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def first_pages(source: Path, count: int, out: Path) -> int:
    """Write ``source``'s first ``count`` pages to ``out``; the number of pages written."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(source)
    subset = pdfium.PdfDocument.new()
    try:
        pages = min(count, len(pdf))
        subset.import_pages(pdf, list(range(pages)))
        subset.save(out)
        return pages
    finally:
        subset.close()
        pdf.close()


def score(source: Path, pages: int, dpi: int, folder: Path) -> dict[str, Any]:
    from paperpyramid.parsers.coverage import document_texts, text_layer_words, words
    from paperpyramid.parsers.embedded import parse_pdf
    from tests.scan_maker import render_pages, scanned_pdf

    cut = folder / f"{source.stem}.pdf"
    count = first_pages(source, pages, cut)
    started = time.perf_counter()
    gold = parse_pdf(cut, ocr="never")
    layer_seconds = time.perf_counter() - started
    started = time.perf_counter()
    scan = folder / f"{source.stem}-scan.pdf"
    scan.write_bytes(scanned_pdf(render_pages(cut, dpi), dpi))
    read = parse_pdf(scan, ocr="auto", time_limit=600)
    ocr_seconds = time.perf_counter() - started

    def titles(document: Any) -> Counter[str]:
        return Counter(" ".join(section.title.lower().split()) for section in document.sections if section.title)

    gold_titles, read_titles = titles(gold), titles(read)
    matched = sum((gold_titles & read_titles).values())
    precision = matched / max(1, sum(read_titles.values()))
    recall = matched / max(1, sum(gold_titles.values()))
    layer = text_layer_words(cut)
    held: Counter[str] = Counter()
    for text in document_texts(read):
        held.update(words(text))
    common = sum((layer & held).values())
    return {
        "pdf": source.name, "pages": count, "ocr_pages": len(read.ocr_pages),
        "section_f1": 2 * precision * recall / (precision + recall) if matched else (1.0 if not gold_titles and not read_titles else 0.0),
        "sections_gold": sum(gold_titles.values()), "sections_read": sum(read_titles.values()),
        "word_recall": common / max(1, sum(layer.values())), "word_precision": common / max(1, sum(held.values())),
        "title": (gold.title or "") == (read.title or ""),
        "authors": [author.name for author in gold.authors] == [author.name for author in read.authors],
        "layer_pages_per_s": count / layer_seconds, "ocr_pages_per_s": count / ocr_seconds,
    }  # fmt: skip


def splits() -> dict[str, list[Path]]:
    """dev: the bundled samples and the corpus's PDFs at even positions; held-out: the odd ones."""
    found: dict[str, list[Path]] = {"dev": sorted(SAMPLE.glob("*.pdf")), "held_out": []}
    if not (CORPUS / "MANIFEST.tsv").exists():
        return found
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row["kind"] == "pdf" and "garbled" not in row["file"]]
    samples = {path.name for path in found["dev"]}
    for position, row in enumerate(row for row in rows if row["file"] not in samples):
        found["held_out" if position % 2 else "dev"].append(CORPUS / row["file"])
    return found


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {}
    return {
        "papers": len(rows), "pages": sum(row["pages"] for row in rows),
        "section_f1_mean": statistics.mean(row["section_f1"] for row in rows),
        "section_f1_micro": _micro(rows),
        "word_recall_mean": statistics.mean(row["word_recall"] for row in rows),
        "word_precision_mean": statistics.mean(row["word_precision"] for row in rows),
        "title_equal": sum(row["title"] for row in rows) / len(rows), "authors_equal": sum(row["authors"] for row in rows) / len(rows),
        "ocr_pages_per_s_median": statistics.median(row["ocr_pages_per_s"] for row in rows),
        "layer_pages_per_s_median": statistics.median(row["layer_pages_per_s"] for row in rows),
    }  # fmt: skip


def _micro(rows: list[dict[str, Any]]) -> float:
    # F1 from summed counts: matched = f1 * (gold + read) / 2 per paper
    matched = sum(row["section_f1"] * (row["sections_gold"] + row["sections_read"]) / 2 for row in rows)
    total = sum(row["sections_gold"] + row["sections_read"] for row in rows)
    return 2 * matched / total if total else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--split", choices=("dev", "held_out", "both"), default="both")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    from paperpyramid.parsers.embedded.ocr import tesseract, version

    program = tesseract()
    if program is None:
        print("needs the tesseract program (apt-get install tesseract-ocr)", file=sys.stderr)
        return 2
    chosen = {"given": args.pdfs} if args.pdfs else {name: pdfs for name, pdfs in splits().items() if args.split in (name, "both")}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    with tempfile.TemporaryDirectory(prefix="ocr-scans-") as folder:
        for split, pdfs in chosen.items():
            for pdf in pdfs:
                try:
                    row = score(pdf, args.pages, args.dpi, Path(folder))
                except Exception as exc:  # one paper's failure is reported, the run goes on
                    print(f"{split:8} {pdf.name[:50]:50} failed: {type(exc).__name__}: {exc}", flush=True)
                    continue
                results[split].append(row)
                if split != "held_out":
                    print(
                        f"{split:8} {pdf.name[:50]:50} sections F1 {row['section_f1']:.2f} ({row['sections_read']}/{row['sections_gold']})  "
                        f"words R {row['word_recall']:.3f} P {row['word_precision']:.3f}  title {'=' if row['title'] else 'x'}  "
                        f"authors {'=' if row['authors'] else 'x'}  {row['ocr_pages_per_s']:.2f} pages/s OCR, {row['layer_pages_per_s']:.1f} text layer",
                        flush=True,
                    )
    report: dict[str, Any] = {"tesseract": version(program), "dpi": args.dpi, "pages_per_paper": args.pages,
                              "summary": {split: summary(rows) for split, rows in results.items()},
                              "papers": {split: rows for split, rows in results.items() if split != "held_out"}}  # fmt: skip
    for split, s in report["summary"].items():
        if s:
            print(
                f"\n{split}: {s['papers']} papers, {s['pages']} pages: section titles F1 {s['section_f1_micro']:.3f} micro ({s['section_f1_mean']:.3f} mean), "
                f"word recall {s['word_recall_mean']:.3f}, precision {s['word_precision_mean']:.3f}, title {s['title_equal']:.2f}, "
                f"authors {s['authors_equal']:.2f}; OCR {s['ocr_pages_per_s_median']:.2f} pages/s (median, one core), "
                f"text layer {s['layer_pages_per_s_median']:.1f} pages/s"
            )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
