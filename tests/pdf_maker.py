"""Small, valid PDFs written from text in the test itself (Helvetica, one text line per line),
for tests that need a PDF with specific words in it: the bytes are ours, no licence question."""

from __future__ import annotations

import math
import textwrap

from benchmarks.synthetic.canvas import (  # the writer of the generated table papers: one PDF file writer
    page_pdf,
    pdf_of_objects,
    stream_object,
)


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
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> "
            f"/Contents {pid + 1} 0 R >>".encode()
        )
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
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> "
            f"/Contents {pid + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    return pdf_of_objects(objects)


def winansi_pdf(pages: list[list[tuple[float, float, float, str] | tuple[float, float, float, str, int]]]) -> bytes:
    """Like :func:`placed_pdf`, in the WinAnsi (cp1252) set that en dashes, ``©`` and curly
    quotes need; an item's optional fifth field turns it by that many degrees (90: reading
    upwards, as arXiv stamps its identifier down a first page's left margin)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_ids = [3 + 2 * index for index in range(len(pages))]
    font_id = 3 + 2 * len(pages)
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{pid} 0 R' for pid in page_ids)}] /Count {len(pages)} >>".encode())
    for pid, items in zip(page_ids, pages, strict=True):
        ops = []
        for x, y, size, text, *turn in items:
            angle = math.radians(turn[0] if turn else 0)
            cos, sin = round(math.cos(angle), 6), round(math.sin(angle), 6)
            ops.append(f"BT /F1 {size:g} Tf {cos:g} {sin:g} {-sin:g} {cos:g} {x:g} {y:g} Tm ({_escape(text)}) Tj ET")
        stream = "\n".join(ops).encode("cp1252")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> "
            f"/Contents {pid + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    return pdf_of_objects(objects)


_STYLES = {"regular": "Helvetica", "bold": "Helvetica-Bold", "italic": "Helvetica-Oblique"}


#: a paragraph's words for the styled papers (:class:`StyledPage`)
FILLER = (
    "The clutches were counted along four transects every week, and the water level was read at "
    "each visit from a staff gauge fixed to the bank of the stream before the survey began. "
)


class StyledPage:
    """One page of :func:`styled_pdf` written from the top down as a paper sets it: lines in a
    size with the gap under each, and paragraphs wrapped, a run-in title's runs before the first
    line (the run-in heading tests' papers)."""

    def __init__(self, top: float = 740.0) -> None:
        self.items: list[tuple[float, float, float, list[tuple[str, str]]]] = []
        self.y = top

    def line(self, runs: list[tuple[str, str]], size: float = 10, gap: float = 13, x: float = 72) -> None:
        self.items.append((x, self.y, size, runs))
        self.y -= gap

    def paragraph(
        self, text: str, lead: list[tuple[str, str]] | None = None, *, first: int = 70, width: int = 88, space: str = " ", hang: float = 0
    ) -> None:
        """``text`` wrapped at ``first`` characters on its first line (after ``lead``'s runs) and
        ``width`` on the rest, which start ``hang`` points in; ``space`` between the first line's
        words (a loose line's stretched spaces); a skip under it."""
        opening, *rest = textwrap.wrap(text, first) or [""]
        self.line([*(lead or []), ("regular", opening.replace(" ", space))])
        for wrapped in textwrap.wrap(" ".join(rest), width):
            self.line([("regular", wrapped)], x=72 + hang)
        self.y -= 8

    def pdf(self) -> bytes:
        return styled_pdf([self.items])


def styled_pdf(pages: list[list[tuple[float, float, float, list[tuple[str, str]]]]]) -> bytes:
    """A PDF of ``pages``, each a list of (x, y from the bottom, font size, runs) on US Letter,
    where each run is (style, text) set one after another on the line: ``regular``, ``bold``
    (Helvetica-Bold) or ``italic`` (Helvetica-Oblique), as a journal sets a run-in heading."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_ids = [3 + 2 * index for index in range(len(pages))]
    font_ids = {style: 3 + 2 * len(pages) + index for index, style in enumerate(_STYLES)}
    fonts = " ".join(f"/{style} {font_id} 0 R" for style, font_id in font_ids.items())
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{pid} 0 R' for pid in page_ids)}] /Count {len(pages)} >>".encode())
    for pid, items in zip(page_ids, pages, strict=True):
        ops = []
        for x, y, size, runs in items:
            shown = " ".join(f"/{style} {size:g} Tf ({_escape(text)}) Tj" for style, text in runs)
            ops.append(f"BT {x:g} {y:g} Td {shown} ET")
        stream = "\n".join(ops).encode("cp1252")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << {fonts} >> >> /Contents {pid + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    for base in _STYLES.values():
        objects.append(f"<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>".encode())
    return pdf_of_objects(objects)


#: right-to-left scripts (Hebrew, Arabic and their extensions), by code point
_RTL_RANGES = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF))
#: scripts written without spaces between words, whose lines break between any two characters
_CJK_RANGES = ((0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def _in(ranges: tuple[tuple[int, int], ...], ch: str) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in ranges)


def _advance(ch: str) -> int:
    """A glyph's width in thousandths of an em: CJK full width, a space a quarter, the rest half."""
    return 1000 if _in(_CJK_RANGES, ch) else 250 if ch == " " else 520


def _visual(line: str) -> str:
    """A right-to-left line in the order its glyphs are drawn from left to right, as typesetters
    write such text into a PDF: its runs in reverse, a right-to-left run's words in reverse and
    each reversed, a run of words without right-to-left letters (Latin, digits) as it reads. A
    word's punctuation stays with it, where the bidirectional algorithm would move a full stop
    after a Latin word at a right-to-left sentence's end: keep Latin words off sentence ends."""
    runs: list[tuple[bool, list[str]]] = []
    for word in line.split(" "):
        rtl = any(_in(_RTL_RANGES, ch) for ch in word) or not any(ch.isalnum() for ch in word)
        if runs and runs[-1][0] == rtl:
            runs[-1][1].append(word)
        else:
            runs.append((rtl, [word]))
    return " ".join(" ".join([word[::-1] for word in reversed(words)] if rtl else words) for rtl, words in reversed(runs))


def _wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` cut into lines no wider than ``width`` points: at spaces, or anywhere in CJK text."""
    lines: list[str] = []
    current = ""
    for piece in list(text) if not any(ch == " " for ch in text) else text.split(" "):
        joined = piece if not current else current + ("" if " " not in text else " ") + piece
        if current and sum(_advance(ch) for ch in joined) * size / 1000 > width:
            lines.append(current)
            current = piece
        else:
            current = joined
    return lines + [current] if current else lines


def _to_unicode_cmap(codes: dict[str, int]) -> bytes:
    entries = sorted((code, ch) for ch, code in codes.items())
    chunks = [entries[index : index + 100] for index in range(0, len(entries), 100)]
    body = "".join(
        f"{len(chunk)} beginbfchar\n"
        + "".join(f"<{code:04X}> <{ch.encode('utf-16-be').hex().upper()}>\n" for code, ch in chunk)
        + "endbfchar\n"
        for chunk in chunks
    )
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        + body
        + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode()


def script_pdf(blocks: list[tuple[str, float]], *, rtl: bool = False, font: str = "NotoSans") -> bytes:
    """A PDF of ``blocks`` — (text, font size), a paragraph or a heading each, wrapped to a 468-point
    column and set apart by a blank line's space — in any script, with a Unicode text layer as a
    typesetter writes it: a Type0 font (Identity-H) whose glyph codes are numbered in the order the
    text first uses its characters, a /ToUnicode map from each code to its character, and the
    widths; the font itself is not embedded (a text layer is read from ToUnicode; a viewer draws a
    substitute). ``rtl``: lines are set flush right and their glyphs drawn in visual order, right
    to left (:func:`_visual`). US Letter pages, as many as the text needs."""
    codes: dict[str, int] = {}
    for text, _ in blocks:
        for ch in text:
            codes.setdefault(ch, len(codes) + 1)
    pages: list[list[str]] = [[]]
    y = 740.0
    for text, size in blocks:
        for line in _wrap(text, size, 468):
            if y < 72:
                pages.append([])
                y = 740.0
            width = sum(_advance(ch) for ch in line) * size / 1000
            drawn = _visual(line) if rtl else line
            x = 540 - width if rtl else 72
            pages[-1].append(f"BT /F1 {size:g} Tf {x:.2f} {y:.2f} Td <{''.join(f'{codes[ch]:04X}' for ch in drawn)}> Tj ET")
            y -= size * 1.25
        y -= size * 0.9  # a paragraph's (or heading's) space
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_ids = [3 + 2 * index for index in range(len(pages))]
    font_id = 3 + 2 * len(pages)
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{pid} 0 R' for pid in page_ids)}] /Count {len(pages)} >>".encode())
    for pid, ops in zip(page_ids, pages, strict=True):
        stream = "\n".join(ops).encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> >> "
            f"/Contents {pid + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    widths = " ".join(f"{code} [{_advance(ch)}]" for ch, code in sorted(codes.items(), key=lambda item: item[1]))
    objects.append(
        f"<< /Type /Font /Subtype /Type0 /BaseFont /{font} /Encoding /Identity-H /DescendantFonts [{font_id + 1} 0 R] /ToUnicode {font_id + 3} 0 R >>".encode()
    )
    objects.append(
        f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{font} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
        f"/FontDescriptor {font_id + 2} 0 R /DW 520 /W [{widths}] /CIDToGIDMap /Identity >>".encode()
    )
    objects.append(
        f"<< /Type /FontDescriptor /FontName /{font} /Flags 32 /FontBBox [-300 -300 1200 1000] /ItalicAngle 0 /Ascent 900 /Descent -250 "
        f"/CapHeight 700 /StemV 80 >>".encode()
    )
    cmap = _to_unicode_cmap(codes)
    objects.append(b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream")
    return pdf_of_objects(objects)


def glyph_pdf(items: list[tuple[float, float, float, str, str]]) -> bytes:
    """A US Letter page of ``items`` — (x, y from the bottom, font size, text, a standard font's
    name: Helvetica, Helvetica-Oblique, ...) — each drawn where said, in the order given: the
    content stream's order, which need not be the reading order (a TeX accent drawn after the
    letters beside its own). Latin-1 text, WinAnsi encoding (´ ¨ ¸ ¯ and 0x88 ˆ, 0x98 ˜)."""
    fonts = list(dict.fromkeys(font for *_, font in items))
    stream = "\n".join(
        f"BT /F{fonts.index(font) + 1} {size:g} Tf {x:g} {y:g} Td ({_escape(text)}) Tj ET" for x, y, size, text, font in items
    ).encode("latin-1")
    resources = " ".join(f"/F{index + 1} {5 + index} 0 R" for index in range(len(fonts)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << {resources} >> >> /Contents 4 0 R >>".encode(),
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    objects += [f"<< /Type /Font /Subtype /Type1 /BaseFont /{font} /Encoding /WinAnsiEncoding >>".encode() for font in fonts]
    return pdf_of_objects(objects)


def helvetica_page(ops: list[str]) -> bytes:
    """One US Letter page whose content stream is ``ops`` (text objects that set ``/F1``), ``/F1``
    being Helvetica in WinAnsi: the page that builders drawing their own lines share. Latin-1 text."""
    stream = "\n".join(ops).encode("latin-1")
    return pdf_of_objects(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        ]
    )


def tj_pdf(lines: list[tuple[float, float, list[str | float]]]) -> bytes:
    """A US Letter page of Helvetica lines at 12 points, each (x, y from the bottom, a TJ array:
    strings and kerns in thousandths of an em, a positive one moving left) as pdfTeX writes its
    lines, an accent it lacks drawn with a kern to its letter and one back. Latin-1 text."""
    ops = []
    for x, y, array in lines:
        body = " ".join(f"({_escape(item)})" if isinstance(item, str) else f"{item:g}" for item in array)
        ops.append(f"BT /F1 12 Tf {x:g} {y:g} Td [{body}] TJ ET")
    return helvetica_page(ops)


def wrapped_items(
    text: str, x: float, y: float, width: float, size: float, leading: float = 1.25
) -> tuple[list[tuple[float, float, float, str]], float]:
    """``text`` wrapped to a column ``width`` points wide (Helvetica's mean advance taken as
    0.55 em), its first baseline at ``y``: the (x, y, size, line) items for :func:`placed_pdf`
    and the baseline under the last line."""
    items = []
    for line in textwrap.wrap(text, max(8, int(width / (size * 0.55)))):
        items.append((x, y, size, line))
        y -= size * leading
    return items, y


def filled_lines(text: str, width: int = 70) -> list[str]:
    """``text`` set in lines of at most about ``width`` characters, broken at spaces."""
    lines, line = [], ""
    for word in text.split(" "):
        if len(line) + len(word) > width:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    lines.append(line)
    return lines


def type3_page(lines: list[bytes], names: dict[int, str], to_unicode: dict[int, int], cmap: bytes) -> bytes:
    """One page set in an unnamed Type 3 font, as dvips writes TeX's bitmap fonts: ``lines`` are the
    codes of each line (escaped for a PDF string), ``names`` each code's glyph name in the font's
    Differences, ``to_unicode`` the ToUnicode map (code -> Unicode) under the CMap name ``cmap``.
    Every glyph is one box."""
    content = b"BT /F1 11 Tf 14 TL 72 700 Td " + b" ".join(b"(" + line + b") '" for line in lines) + b" ET"
    differences = b" ".join(b"%d /%s" % (code, name.encode()) for code, name in names.items())
    procs = b" ".join(b"/%s 7 0 R" % name.encode() for name in names.values())
    cmap_text = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /" + cmap + b" def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        + b"%d beginbfchar\n" % len(to_unicode)
        + b"".join(b"<%02X> <%04X>\n" % item for item in to_unicode.items())
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end"
    )
    font = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << " + procs + b" >> /Encoding << /Type /Encoding /Differences [" + differences + b"] >> "
        b"/FirstChar 0 /LastChar 126 /Widths [" + b" ".join(b"500" for _ in range(127)) + b"] /ToUnicode 6 0 R >>"
    )
    glyph = stream_object(b"500 0 0 0 450 650 d1 0 0 450 650 re f")
    return page_pdf(content, b"/Font << /F1 5 0 R >>", font, stream_object(cmap_text), glyph)
