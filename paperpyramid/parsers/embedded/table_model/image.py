"""A table's region as the model sees it: rendered by pdfium, resized, normalised, padded.

The steps are PaddleOCR's for SLANet (``ResizeTableImage``, ``NormalizeImage``,
``PaddingTableImage``, ``ToCHWImage``, as rapid-table 0.3.0 runs them), with OpenCV's
bilinear resize done in numpy: the longer side becomes 488 pixels, channels in BGR order are
scaled to 0-1 and normalised with ImageNet's mean and deviation, and the image is padded with
zeros (after normalising) at its right and bottom to a 488-pixel square.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import text_turn

__all__ = ["SIDE", "prepare", "render_region", "resize_bilinear"]

#: the side of the square the model reads
SIDE = 488
_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
_STD = np.array([0.229, 0.224, 0.225], np.float32)

BBox = tuple[float, float, float, float]


def render_region(pdf: pdfium.PdfDocument, page_number: int, region: BBox, *, dpi: float = 144.0) -> npt.NDArray[np.uint8]:
    """The part of page ``page_number`` (1-based) inside ``region`` (points, top-left origin, on
    the page turned upright as :func:`~.layout.extract_page` reads it) as BGR pixels."""
    page = pdf[page_number - 1]
    try:
        textpage = page.get_textpage()
        try:
            turn = text_turn(textpage.raw, textpage.count_chars())
        finally:
            textpage.close()
        # pdfium turns the page by its /Rotate and then by ``rotation``: undo the one, apply the text's turn
        clockwise = {0: 0, 270: 90, 90: 270}[turn]
        scale = dpi / 72.0
        bitmap = page.render(scale=scale, rotation=(clockwise - page.get_rotation()) % 360)
        try:
            rgb = np.array(bitmap.to_pil().convert("RGB"))
        finally:
            bitmap.close()
    finally:
        page.close()
    x0, top, x1, bottom = region
    rows, columns = rgb.shape[:2]
    left, right = max(0, int(x0 * scale)), min(columns, int(np.ceil(x1 * scale)))
    upper, lower = max(0, int(top * scale)), min(rows, int(np.ceil(bottom * scale)))
    return np.ascontiguousarray(rgb[upper:lower, left:right, ::-1])


def resize_bilinear(image: npt.NDArray[np.uint8], height: int, width: int) -> npt.NDArray[np.float32]:
    """OpenCV's ``INTER_LINEAR`` resize (pixel centres aligned, edges clamped, no antialiasing, rounded to whole values)."""
    rows, columns = image.shape[:2]

    def axis(size: int, source: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        position = np.clip((np.arange(size, dtype=np.float32) + 0.5) * (source / size) - 0.5, 0, source - 1)
        low = np.floor(position).astype(np.intp)
        high = np.minimum(low + 1, source - 1)
        return low, high, (position - low).astype(np.float32)

    y0, y1, fy = axis(height, rows)
    x0, x1, fx = axis(width, columns)
    pixels = image.astype(np.float32)
    top = pixels[y0][:, x0] * (1 - fx)[None, :, None] + pixels[y0][:, x1] * fx[None, :, None]
    bottom = pixels[y1][:, x0] * (1 - fx)[None, :, None] + pixels[y1][:, x1] * fx[None, :, None]
    resized: npt.NDArray[np.float32] = np.rint(top * (1 - fy)[:, None, None] + bottom * fy[:, None, None])
    return resized


def prepare(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """BGR pixels (``rows × columns × 3``) as the model's input: ``3 × 488 × 488``, float32."""
    rows, columns = image.shape[:2]
    ratio = SIDE / max(rows, columns)
    resized = resize_bilinear(image, max(1, int(rows * ratio)), max(1, int(columns * ratio)))
    normalised = (resized / 255.0 - _MEAN) / _STD
    padded = np.zeros((SIDE, SIDE, 3), np.float32)
    padded[: normalised.shape[0], : normalised.shape[1]] = normalised
    return np.ascontiguousarray(padded.transpose(2, 0, 1))
