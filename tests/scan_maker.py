"""Scans made in the test: a PDF's pages rendered to images and rebuilt as an image-only PDF
(as a scanner writes it), optionally with an invisible OCR text layer of our choosing over
each image (as OCR software writes it)."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from tests.pdf_maker import pdf_of_objects


def render_pages(pdf_path: Path, dpi: int = 200, pages: list[int] | None = None) -> list[Image.Image]:
    """The PDF's pages (1-based numbers; all by default) as greyscale images."""
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        numbers = pages or list(range(1, len(pdf) + 1))
        return [pdf[number - 1].render(scale=dpi / 72).to_pil().convert("L") for number in numbers]
    finally:
        pdf.close()


def scanned_pdf(images: list[Image.Image], dpi: int = 200, hidden_text: list[list[tuple[float, float, float, str]]] | None = None) -> bytes:
    """An image-only PDF of ``images`` (JPEG, one per page at ``dpi``); ``hidden_text`` gives each
    page an invisible text layer of (x, y from the bottom, size, text) in points (WinAnsi characters)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    font_id = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for index, image in enumerate(images):
        width, height = image.width * 72 / dpi, image.height * 72 / dpi
        jpeg = io.BytesIO()
        image.save(jpeg, "JPEG", quality=85)
        data = jpeg.getvalue()
        image_id = len(objects) + 1
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 "
            b"/Filter /DCTDecode /Length %d >>\nstream\n" % (image.width, image.height, len(data)) + data + b"\nendstream"
        )
        ops = [f"q {width:.2f} 0 0 {height:.2f} 0 0 cm /Im0 Do Q"]
        for x, y, size, text in hidden_text[index] if hidden_text else []:
            escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT 3 Tr /F1 {size:g} Tf {x:g} {y:g} Td ({escaped}) Tj ET")
        stream = "\n".join(ops).encode("cp1252")
        content_id = len(objects) + 1
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        page_id = len(objects) + 1
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:.2f} {height:.2f}] /Resources << /XObject << /Im0 {image_id} 0 R >> "
            f"/Font << /F1 {font_id} 0 R >> >> /Contents {content_id} 0 R >>".encode()
        )
        kids.append(page_id)
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(f'{kid} 0 R' for kid in kids)}] /Count {len(kids)} >>".encode()
    return pdf_of_objects(objects)
