"""Reading a document's scanned pages by OCR: which pages, Tesseract on each, and what the
parse should say about it. The pages read replace the text layer's in place."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.errors import ParseTimeout
from paperpyramid.parsers.embedded.glyphs import UNREAD_CHARS, UNREAD_SHARE, GlyphMap, learn, unmapped_fonts
from paperpyramid.parsers.embedded.layout import Page
from paperpyramid.parsers.embedded.ocr import read_words, tesseract, version
from paperpyramid.parsers.embedded.reading_order import mojibake_count
from paperpyramid.parsers.embedded.scans import OcrMode, OcrPage, is_image_only, layer_quality, page_from_words, pages_to_read

#: what one page of OCR costs on one core (Tesseract 5 at 300 dpi, a dense two-column page;
#: benchmarks/ocr_engines.py), for the message of a document that runs out of time
_SECONDS_PER_PAGE = 3


@dataclass(slots=True)
class Scans:
    """The pages OCR read (by page number) and what the parse should report about them."""

    pages: dict[int, OcrPage] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def read_scans(pdf: pdfium.PdfDocument, path: Path, pages: list[Page], mode: OcrMode, *, deadline: float | None) -> Scans:
    """Read by OCR the pages ``mode`` asks for, replacing them in ``pages``.

    An OCR text layer that failed the quality test is replaced only where OCR's reading scores
    better. Without Tesseract nothing is read and the warning says how to install it (the
    parser then refuses a document that is all scans, as it did before). Raises
    :class:`ParseTimeout` once ``deadline`` (``time.monotonic()``) has passed.
    """
    wanted = pages_to_read(pages, mode)
    scans = Scans()
    if not wanted:
        return scans
    program = tesseract()
    if program is None:
        missing = [number for number in wanted if is_image_only(pages[number - 1])]
        if missing:
            scans.warnings.append(
                f"{len(missing)} of {len(pages)} pages are scans without a text layer ({_page_list(missing)}): "
                "install Tesseract (apt-get install tesseract-ocr) to read them by OCR"
            )
        return scans
    failed: list[int] = []
    for position, number in enumerate(wanted):
        if deadline is not None and time.monotonic() > deadline:
            raise ParseTimeout(
                f"{path.name}: OCR of {len(wanted)} pages did not finish in time (stopped at page {number}, {position} read; "
                f"OCR takes about {_SECONDS_PER_PAGE} s a page on one core: raise --time-limit)"
            )
        page = pdf[number - 1]
        try:
            words, image = read_words(page, program)
        except (OSError, subprocess.SubprocessError):
            failed.append(number)
            continue
        finally:
            page.close()
        old = pages[number - 1]
        scan = page_from_words(number, old.width, old.height, words, image)
        if old.invisible_text and mode == "auto" and not _better(scan, old):
            continue  # the scan's own OCR layer reads as well as ours
        pages[number - 1] = scan.page
        scans.pages[number] = scan
    if scans.pages:
        scans.warnings.append(
            f"read by OCR (Tesseract {version(program)}): {len(scans.pages)} of {len(pages)} pages "
            f"({_page_list(list(scans.pages))}); OCR errors are possible"
        )
    if failed:
        scans.warnings.append(f"OCR failed on {len(failed)} pages ({_page_list(failed)}): their text layer was kept")
    return scans


def _better(scan: OcrPage, layer: Page) -> bool:
    ours = layer_quality([line.text for line in scan.page.lines]) or 0.0
    theirs = layer_quality([line.text for line in layer.lines]) or 0.0
    return ours > theirs


def _page_list(numbers: list[int]) -> str:
    return ", ".join(str(number) for number in sorted(numbers))


__all__ = ["Scans", "read_scans"]


def read_unmapped_fonts(pdf: pdfium.PdfDocument, pages: list[Page], *, deadline: float | None) -> tuple[GlyphMap, str | None]:
    """What the glyphs of fonts without a Unicode map stand for, learnt by OCR of the pages
    they make unreadable (:mod:`.glyphs`), and a warning saying so: ({}, None) when no page
    needs it; ({}, why) when Tesseract is missing or fails (those lines are then dropped)."""
    unread = _unread_pages(pdf, pages)
    if not unread:
        return {}, None
    where = f"{len(unread)} of {len(pages)} pages ({_page_list(unread)}) set in fonts without a Unicode map"
    program = tesseract()
    if program is None:
        return {}, f"{where}: their text is unreadable; install Tesseract (apt-get install tesseract-ocr) to read them by OCR"
    try:
        glyphs, read = learn(pdf, unread, program, deadline=deadline)
    except (OSError, subprocess.SubprocessError) as exc:
        return {}, f"{where}: reading them by OCR failed ({exc})"
    return (
        glyphs,
        f"{where}: read with {len(glyphs)} glyphs learnt by OCR (Tesseract) of page{'s' if len(read) > 1 else ''} {_page_list(read)}; OCR errors are possible",
    )


def _unread_pages(pdf: pdfium.PdfDocument, pages: list[Page]) -> list[int]:
    """The pages with mojibake worth OCR, in the order to read them: first a page for each
    unmapped font not yet met, the one with most mojibake first, then the rest by mojibake."""
    found: dict[int, tuple[int, set[str]]] = {}
    for page in pages:
        bad, printed = mojibake_count(page)
        if bad >= UNREAD_CHARS or (printed and bad >= UNREAD_SHARE * printed):
            found[page.number] = (bad, unmapped_fonts(pdf, page.number))
    order: list[int] = []
    met: set[str] = set()
    while found:
        number = max(found, key=lambda key: (bool(found[key][1] - met), found[key][0]))
        met |= found.pop(number)[1]
        order.append(number)
    return order
