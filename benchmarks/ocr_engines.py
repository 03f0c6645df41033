#!/usr/bin/env python3
"""OCR engines side by side on one core: word accuracy against the text layer, seconds a page.

    python benchmarks/ocr_engines.py [PDF ...] [--pages-per-pdf 2] [--max-pdfs 8] [--json OUT]

Every page is rendered from a born-digital PDF (so its text layer is the gold) and read by:

  tesseract-300   the ``tesseract`` program (Apache-2.0; Debian ``tesseract-ocr``, eng model),
                  300 dpi, one thread (OMP_THREAD_LIMIT=1) - what paperpyramid uses
  tesseract-200   the same at 200 dpi
  rapidocr-100    RapidOCR (``rapidocr-onnxruntime``, Apache-2.0: PP-OCRv4 detection and
                  recognition ONNX models in its wheel), onnxruntime with one thread, 100 dpi
  rapidocr-150    the same at 150 dpi

Word recall and precision are bag-of-words (lower-cased ``\\w+`` tokens) of the engine's text
against the page's text layer, so reading order does not count here (the parser orders lines
itself). Seconds a page is the engine call alone (rendering apart), medians.

RapidOCR is not a paperpyramid dependency: run this script with an interpreter that has it
(``pip install rapidocr-onnxruntime pypdfium2`` in a separate venv, then
``/path/to/venv/bin/python benchmarks/ocr_engines.py``); an engine that cannot run is skipped,
saying why. Needs nothing from paperpyramid, so any interpreter with pypdfium2 runs it.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
CORPUS = HERE.parents[2] / "shared" / "corpus"
SAMPLE = HERE.parents[1] / "tests" / "data" / "sample"
_WORD = re.compile(r"\w+")

#: an engine: a page image (PIL, greyscale) in, its text out
Engine = Callable[[Any], str]


def words(text: str) -> Counter[str]:
    return Counter(word.lower() for word in _WORD.findall(text))


def tesseract_engine() -> Engine | str:
    program = shutil.which("tesseract")
    if program is None:
        return "the tesseract program is not installed (apt-get install tesseract-ocr)"

    def read(image: Any) -> str:
        with tempfile.TemporaryDirectory() as folder:
            image.save(Path(folder) / "page.png")
            env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
            subprocess.run([program, str(Path(folder) / "page.png"), str(Path(folder) / "page")], check=True, capture_output=True, env=env)
            return (Path(folder) / "page.txt").read_text(encoding="utf-8", errors="replace")

    return read


def rapidocr_engine() -> Engine | str:
    try:
        import numpy as np
        from rapidocr_onnxruntime import RapidOCR  # type: ignore[import-not-found]
    except ImportError:
        return "rapidocr-onnxruntime is not installed here (pip install rapidocr-onnxruntime)"
    engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)

    def read(image: Any) -> str:
        found, _ = engine(np.asarray(image.convert("RGB")), use_cls=False)
        return "\n".join(item[1] for item in found or [])

    return read


ENGINES: dict[str, tuple[Callable[[], Engine | str], int]] = {
    "tesseract-300": (tesseract_engine, 300),
    "tesseract-200": (tesseract_engine, 200),
    "rapidocr-100": (rapidocr_engine, 100),
    "rapidocr-150": (rapidocr_engine, 150),
}


def default_pdfs() -> list[Path]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return sorted(SAMPLE.glob("*.pdf"))
    with manifest.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [CORPUS / row["file"] for row in rows if row["kind"] == "pdf" and "garbled" not in row["file"]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pages-per-pdf", type=int, default=2)
    parser.add_argument("--max-pdfs", type=int, default=8)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    import pypdfium2 as pdfium

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    engines: dict[str, tuple[Engine, int]] = {}
    for name, (make, dpi) in ENGINES.items():
        made = make()
        if isinstance(made, str):
            print(f"{name}: skipped: {made}")
        else:
            engines[name] = (made, dpi)
    pdfs = (args.pdfs or default_pdfs())[:: max(1, len(args.pdfs or default_pdfs()) // args.max_pdfs)][: args.max_pdfs]
    rows: dict[str, list[tuple[float, float, float]]] = {name: [] for name in engines}
    for path in pdfs:
        pdf = pdfium.PdfDocument(path)
        try:
            for index in range(min(args.pages_per_pdf, len(pdf))):
                page = pdf[index]
                gold = words(page.get_textpage().get_text_range())
                if sum(gold.values()) < 100:
                    continue  # a figure page or a cover: too few words to score
                for name, (engine, dpi) in engines.items():
                    image = page.render(scale=dpi / 72).to_pil().convert("L")
                    started = time.perf_counter()
                    read = words(engine(image))
                    seconds = time.perf_counter() - started
                    common = sum((gold & read).values())
                    rows[name].append((common / sum(gold.values()), common / max(1, sum(read.values())), seconds))
                    print(
                        f"{path.name[:44]:44} p{index + 1} {name:14} recall {rows[name][-1][0]:.3f} precision {rows[name][-1][1]:.3f} {seconds:.1f} s",
                        flush=True,
                    )
        finally:
            pdf.close()
    report = {}
    print()
    for name, values in rows.items():
        if not values:
            continue
        report[name] = {"pages": len(values), "word_recall": statistics.mean(v[0] for v in values),
                        "word_precision": statistics.mean(v[1] for v in values), "seconds_per_page_median": statistics.median(v[2] for v in values)}  # fmt: skip
        r = report[name]
        print(
            f"{name:14} {r['pages']} pages  word recall {r['word_recall']:.3f}  precision {r['word_precision']:.3f}  "
            f"{r['seconds_per_page_median']:.2f} s/page ({1 / r['seconds_per_page_median']:.2f} pages/s) on one core"
        )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
