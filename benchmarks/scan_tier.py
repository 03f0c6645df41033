"""The scan tier of ``parse_speed.py``: image-only PDFs made from the first pages of text-layer
PDFs, parsed by our parser (its OCR reads them: Tesseract, one thread, on the worker's core)
and reported apart from the text-layer figures, in pages/s per core.

A scan is each page rendered at ``dpi`` (200 by default, as a desk scanner files a journal
page), saved as JPEG and bound into a PDF with no text layer, by Pillow; nothing here depends
on the parser being measured.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: what the default parser uses for page regions: rules of its own, no layout model (rapid-layout
#: was measured for it at 0.69 s a page on one core and not adopted; see the README)
LAYOUT_MODEL_NOTE = "layout model: none in the default parser (rapid-layout measured at 0.69 s/page, one core, and not adopted)"


def make_scans(files: list[Path], pages: int, dpi: int, folder: Path) -> list[tuple[Path, int]]:
    """An image-only PDF of the first ``pages`` pages of each file, in ``folder``: (path, pages)."""
    import pypdfium2 as pdfium

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for source in files:
        pdf = pdfium.PdfDocument(source)
        try:
            images = [pdf[index].render(scale=dpi / 72).to_pil().convert("RGB") for index in range(min(pages, len(pdf)))]
        finally:
            pdf.close()
        if not images:
            continue
        path = folder / f"scan-{source.stem}.pdf"
        images[0].save(path, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:], quality=85)
        out.append((path, len(images)))
    return out


def time_scans(scans: list[tuple[Path, int]], parse: Callable[[Path], dict[str, Any]], repeat: int) -> dict[str, Any]:
    """Parse each scan ``repeat`` times with ``parse`` (the ``ours`` worker); the figures by file and overall."""
    rows = []
    for path, pages in scans:
        results = [parse(path) for _ in range(repeat)]
        ok = [result["seconds"] for result in results if result.get("ok")]
        rows.append({"file": path.name, "pages": pages, "seconds": statistics.median(ok) if ok else None,
                     "error": None if ok else results[-1].get("error")})  # fmt: skip
    timed = [row for row in rows if row["seconds"] is not None]
    seconds = sum(row["seconds"] for row in timed)
    pages = sum(row["pages"] for row in timed)
    return {
        "files": rows,
        "pages": pages,
        "seconds": seconds,
        "pages_per_s_core": pages / seconds if seconds else None,
        "s_per_page": seconds / pages if pages else None,
        "failed": [row["file"] for row in rows if row["seconds"] is None],
    }


def report_lines(tier: dict[str, Any], dpi: int) -> list[str]:
    if not tier["pages"]:
        return ["Scans (image-only, read by OCR): none parsed" + (f"; failed: {', '.join(tier['failed'])}" if tier["failed"] else "")]
    lines = [
        f"Scans (image-only, {dpi} dpi, read by our parser's OCR; apart from the text-layer figures): "
        f"{len(tier['files']) - len(tier['failed'])} files, {tier['pages']} pages in {tier['seconds']:.1f} s: "
        f"{tier['pages_per_s_core']:.2f} pages/s/core ({tier['s_per_page']:.2f} s/page)"
    ]
    if tier["failed"]:
        lines.append(f"  failed (no OCR engine? see the worker log): {', '.join(tier['failed'])}")
    lines.append(LAYOUT_MODEL_NOTE)
    return lines
