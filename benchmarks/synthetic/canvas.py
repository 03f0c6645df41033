"""A minimal PDF writer for the generated papers: text in the standard 14 fonts, and rules.

Coordinates are the document model's (points, origin at the page's top-left, y down); text
is placed by its baseline. Text is written in WinAnsiEncoding, so it must be cp1252 text
(the en dash, "±", "µ", "×" are; the minus sign U+2212 is not). Widths come from pdfium's
own metrics of the standard fonts (the Adobe AFM widths), so what is measured here is what
a reader of the PDF measures. Nothing is compressed and nothing depends on the clock: the
same pages give the same bytes.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from functools import cache

import pypdfium2.raw as pdfium_c

__all__ = ["FONTS", "Canvas", "pdf_of_objects", "text_width", "write_pdf"]

#: the standard fonts the papers use, by family: (regular, bold, italic)
FONTS: dict[str, tuple[str, str, str]] = {
    "helvetica": ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique"),
    "times": ("Times-Roman", "Times-Bold", "Times-Italic"),
    "courier": ("Courier", "Courier-Bold", "Courier-Oblique"),
}


@cache
def _metrics_document() -> ctypes.c_void_p:
    # an empty pdfium document, kept for the process: the standard fonts load into it
    document: ctypes.c_void_p = pdfium_c.FPDF_CreateNewDocument()
    return document


@cache
def _font(name: str) -> ctypes.c_void_p:
    font: ctypes.c_void_p = pdfium_c.FPDFText_LoadStandardFont(_metrics_document(), name.encode("ascii"))
    if not font:
        raise ValueError(f"{name} is not one of the standard 14 fonts")
    return font


@cache
def _char_width(font: str, char: str) -> float:
    """The advance of ``char`` in ``font`` at 1 pt."""
    char.encode("cp1252")  # raises for a character WinAnsiEncoding cannot write
    width = ctypes.c_float()
    if not pdfium_c.FPDFFont_GetGlyphWidth(_font(font), ord(char), ctypes.c_float(1000.0), ctypes.byref(width)):
        raise ValueError(f"no width for {char!r} in {font}")
    return width.value / 1000.0


def text_width(text: str, font: str, size: float) -> float:
    """The printed width of ``text`` in ``font`` at ``size`` points."""
    return sum(_char_width(font, char) for char in text) * size


def _escape(text: str) -> bytes:
    return text.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


@dataclass
class Canvas:
    """One page's drawing: text runs, rules and filled boxes, in the order drawn."""

    width: float
    height: float
    fonts: list[str] = field(default_factory=list)
    _ops: list[bytes] = field(default_factory=list)

    def _font_name(self, font: str) -> str:
        if font not in self.fonts:
            self.fonts.append(font)
        return f"F{self.fonts.index(font) + 1}"

    def text(self, x: float, baseline: float, text: str, font: str, size: float, *, word_spacing: float = 0.0) -> float:
        """Draw ``text`` with its baseline at ``baseline`` from the top, ``word_spacing`` points
        added to every space (justified lines); returns its width."""
        if text:
            # word spacing is graphics state, kept past ET: q ... Q keeps it to this line
            spacing = f"{_number(word_spacing)} Tw " if word_spacing else ""
            position = (
                f"q BT /{self._font_name(font)} {_number(size)} Tf {spacing}1 0 0 1 {_number(x)} {_number(self.height - baseline)} Tm ("
            )
            self._ops.append(position.encode("ascii") + _escape(text) + b") Tj ET Q")
        return text_width(text, font, size) + word_spacing * text.count(" ")

    def rule(self, x0: float, y0: float, x1: float, y1: float, width: float) -> None:
        """A straight line from (x0, y0) to (x1, y1), ``width`` points thick."""
        ops = f"q {_number(width)} w 0 J {_number(x0)} {_number(self.height - y0)} m {_number(x1)} {_number(self.height - y1)} l S Q"
        self._ops.append(ops.encode("ascii"))

    def box(self, x0: float, top: float, x1: float, bottom: float, width: float) -> None:
        """A stroked rectangle (a figure's frame)."""
        ops = f"q {_number(width)} w {_number(x0)} {_number(self.height - bottom)} {_number(x1 - x0)} {_number(bottom - top)} re S Q"
        self._ops.append(ops.encode("ascii"))

    def fill(self, x0: float, top: float, x1: float, bottom: float, grey: float) -> None:
        """A filled rectangle in ``grey`` (0 black, 1 white): a shaded cell or band, drawn under
        the text drawn after it."""
        ops = f"q {_number(grey)} g {_number(x0)} {_number(self.height - bottom)} {_number(x1 - x0)} {_number(bottom - top)} re f Q"
        self._ops.append(ops.encode("ascii"))

    def polyline(self, points: list[tuple[float, float]], width: float) -> None:
        """A stroked open path through ``points`` (a figure's data line)."""
        if len(points) < 2:
            return
        path = " ".join(f"{_number(x)} {_number(self.height - y)} {'m' if index == 0 else 'l'}" for index, (x, y) in enumerate(points))
        self._ops.append(f"q {_number(width)} w {path} S Q".encode("ascii"))

    @property
    def content(self) -> bytes:
        return b"\n".join(self._ops)


def write_pdf(pages: list[Canvas], title: str) -> bytes:
    """The PDF file of ``pages`` (one font object per standard font used), with ``title`` in its Info."""
    fonts = list(dict.fromkeys(font for page in pages for font in page.fonts))
    font_ids = {font: 3 + 2 * len(pages) + index for index, font in enumerate(fonts)}
    page_ids = [3 + 2 * index for index in range(len(pages))]
    info_id = 3 + 2 * len(pages) + len(fonts)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode("ascii"))
    for pid, page in zip(page_ids, pages, strict=True):
        resources = " ".join(f"/F{index + 1} {font_ids[font]} 0 R" for index, font in enumerate(page.fonts))
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_number(page.width)} {_number(page.height)}] "
            f"/Resources << /Font << {resources} >> >> /Contents {pid + 1} 0 R >>".encode("ascii")
        )
        stream = page.content
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    for font in fonts:
        objects.append(f"<< /Type /Font /Subtype /Type1 /BaseFont /{font} /Encoding /WinAnsiEncoding >>".encode("ascii"))
    objects.append(b"<< /Title (" + _escape(title) + b") /Producer (paperpyramid synthetic tables) >>")
    return pdf_of_objects(objects, info_id)


def stream_object(data: bytes, entries: bytes = b"") -> bytes:
    """A stream object's body: its dictionary's ``entries`` (``/Type /XObject /Subtype /Form …``), its length and ``data``."""
    return b"<< " + entries + (b" " if entries else b"") + b"/Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def page_pdf(content: bytes, resources: bytes, *objects: bytes) -> bytes:
    """A one-page PDF (612 × 792 points) drawing the content stream ``content``. ``resources`` is
    the body of the page's resource dictionary (``/Font << /F1 5 0 R >>``); ``objects`` are
    numbered from 5 on, for it to name (fonts, form XObjects)."""
    return pdf_of_objects([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << " + resources + b" >> /Contents 4 0 R >>",
        stream_object(content),
        *objects,
    ])  # fmt: skip


def pdf_of_objects(objects: list[bytes], info_id: int | None = None) -> bytes:
    """A PDF file of numbered ``objects`` (the first the catalog; ``info_id`` the Info
    dictionary's number, if any), with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    info = b"" if info_id is None else b" /Info %d 0 R" % info_id
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, info, xref)
    return bytes(out)
