"""Small, valid PDFs written from text in the test itself (Helvetica, one text line per line),
for tests that need a PDF with specific words in it: the bytes are ours, no licence question."""

from __future__ import annotations


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: list[list[tuple[str, int]]]) -> bytes:
    """A PDF of ``pages``, each a list of (line, font size) drawn top-down on US Letter; a
    bigger size reads as a heading to a layout parser. Latin-1 text only."""
    objects: list[bytes] = []
    page_ids = [3 + 2 * index for index in range(len(pages))]
    font_id = 3 + 2 * len(pages)
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{pid} 0 R' for pid in page_ids)}] /Count {len(pages)} >>".encode())
    for pid, lines in zip(page_ids, pages, strict=True):
        y, ops = 740, []
        for line, size in lines:
            ops.append(f"BT /F1 {size} Tf 72 {y} Td ({_escape(line)}) Tj ET")
            y -= int(size * 1.6)
        stream = "\n".join(ops).encode("latin-1")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> "
                       f"/Contents {pid + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    return pdf_of_objects(objects)


def placed_pdf(pages: list[list[tuple[float, float, float, str]]]) -> bytes:
    """A PDF of ``pages``, each a list of (x, y from the bottom, font size, text) placed where
    said on US Letter (columns, tables). Latin-1 text only."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_ids = [3 + 2 * index for index in range(len(pages))]
    font_id = 3 + 2 * len(pages)
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{pid} 0 R' for pid in page_ids)}] /Count {len(pages)} >>".encode())
    for pid, items in zip(page_ids, pages, strict=True):
        stream = "\n".join(f"BT /F1 {size:g} Tf {x:g} {y:g} Td ({_escape(text)}) Tj ET" for x, y, size, text in items).encode("latin-1")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> "
                       f"/Contents {pid + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    return pdf_of_objects(objects)


def pdf_of_objects(objects: list[bytes]) -> bytes:
    """A PDF file of numbered ``objects`` (the first the catalog), with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
