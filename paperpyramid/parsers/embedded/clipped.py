"""Text drawn where its clipping path hides it: on the page's text layer, never on the page.

Some publishers' PDFs (MDPI's, made from Word) carry a table three times: once on the page,
twice more inside form XObjects whose clipping path lies elsewhere, so nothing of them is seen
(whole pages of an earlier draft, "FOR PEER REVIEW", hide that way). pdfium's text page lists
every copy, and a reader of it gets every cell three times. An object inside a form (or the
form itself) whose bounds do not meet its clipping path is not drawn: :func:`clipped_chars`
names its characters so that the page is read as it is seen, and :func:`hidden_objects` its
paths (a hidden table's rules are hidden too).

Only forms and what they hold are looked at: that is where the hidden copies are, and a page's
hundreds of text objects outside forms would cost more than the rest of this check. Objects
inside a form are compared in the form's own space, as pdfium keeps both their bounds and their
clipping paths there; :func:`page_bounds` places such an object on the page.
"""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

Box = tuple[float, float, float, float]  # left, bottom, right, top

# a clipping path this close to the text still shows some of it (antialiasing, loose boxes)
_SLACK = 1.0
# forms nest; a hostile file could nest them without end
_MAX_DEPTH = 8


def clipped_chars(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, n: int) -> frozenset[int]:
    """The indices of the characters of ``textpage`` (``n`` of them) that their clipping path
    hides; empty, the common case, after one pass over the page's objects."""
    hidden = hidden_objects(page, pdfium_c.FPDF_PAGEOBJ_TEXT)
    if not hidden:
        return frozenset()
    raw = textpage.raw
    get_object = pdfium_c.FPDFText_GetTextObject
    found = []
    for index in range(n):
        text_object = get_object(raw, index)
        if text_object and address(text_object) in hidden:
            found.append(index)
    return frozenset(found)


def hidden_objects(page: pdfium.PdfPage, kind: int = pdfium_c.FPDF_PAGEOBJ_PATH) -> set[int]:
    """The addresses (``ctypes.c_void_p`` values) of the objects of one ``kind`` (paths, or text
    objects: ``FPDF_PAGEOBJ_*``) inside the page's forms that are not drawn: clipped out
    themselves, or in a form that is. Only the kind asked for is tested: a plot drawn in a form
    holds thousands of paths and no text."""
    hidden: set[int] = set()
    page_raw = page.raw
    get_object, get_type, form = pdfium_c.FPDFPage_GetObject, pdfium_c.FPDFPageObj_GetType, pdfium_c.FPDF_PAGEOBJ_FORM
    for index in range(pdfium_c.FPDFPage_CountObjects(page_raw)):
        page_object = get_object(page_raw, index)
        if get_type(page_object) == form:
            _collect_form(page_object, kind, hidden, 0, _clipped_out(page_object))
    return hidden


def address(page_object: pdfium_c.FPDF_PAGEOBJECT) -> int | None:
    """The object's address, as :func:`hidden_objects` names it."""
    return ctypes.cast(page_object, ctypes.c_void_p).value


def _collect_form(form: pdfium_c.FPDF_PAGEOBJECT, kind: int, hidden: set[int], depth: int, form_hidden: bool) -> None:
    """Add to ``hidden`` every object of ``kind`` in ``form`` (and the forms in it) that is not drawn."""
    for index in range(pdfium_c.FPDFFormObj_CountObjects(form)):
        page_object = pdfium_c.FPDFFormObj_GetObject(form, index)
        found = pdfium_c.FPDFPageObj_GetType(page_object)
        if found == kind:
            if (form_hidden or _clipped_out(page_object)) and (where := address(page_object)) is not None:
                hidden.add(where)
        elif found == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_DEPTH:
            _collect_form(page_object, kind, hidden, depth + 1, form_hidden or _clipped_out(page_object))


def _clipped_out(page_object: pdfium_c.FPDF_PAGEOBJECT) -> bool:
    """Whether the object's clipping path lies wholly apart from the object's bounds."""
    clip = pdfium_c.FPDFPageObj_GetClipPath(page_object)
    if not clip:
        return False
    area = _clip_box(clip)
    if area is None:
        return False
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetBounds(page_object, ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top)):
        return False
    clip_left, clip_bottom, clip_right, clip_top = area
    return (
        right.value < clip_left - _SLACK
        or left.value > clip_right + _SLACK
        or top.value < clip_bottom - _SLACK
        or bottom.value > clip_top + _SLACK
    )


def _clip_box(clip: pdfium_c.FPDF_CLIPPATH) -> Box | None:
    """The box that every path of the clip holds (a clip is the intersection of its paths);
    None for a clip without points."""
    box: Box | None = None
    x, y = ctypes.c_float(), ctypes.c_float()
    for path in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
        xs: list[float] = []
        ys: list[float] = []
        for segment_index in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, path)):
            segment = pdfium_c.FPDFClipPath_GetPathSegment(clip, path, segment_index)
            if segment and pdfium_c.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y)):
                xs.append(x.value)
                ys.append(y.value)
        if not xs:
            continue
        path_box = (min(xs), min(ys), max(xs), max(ys))
        box = (
            path_box
            if box is None
            else (max(box[0], path_box[0]), max(box[1], path_box[1]), min(box[2], path_box[2]), min(box[3], path_box[3]))
        )
    return box


def page_bounds(obj: pdfium.PdfObject, forms: dict[pdfium.PdfObject, pdfium.PdfMatrix]) -> tuple[float, float, float, float]:
    """An object's bounds (left, bottom, right, top) on the page. pdfium gives the bounds of an
    object inside a form XObject in the form's own space: a plot included as a PDF figure (R's
    ``pdf()`` device under ``\\includegraphics``) draws its marks and rules there, scaled and moved
    by the form's matrix and by that of each form it is nested in (``forms``: each form's
    matrix to the page, kept while the page's objects are walked; a plot holds thousands)."""
    left, bottom, right, top = obj.get_bounds()
    form = obj.container
    if form is None:
        return left, bottom, right, top
    matrix = forms.get(form)
    if matrix is None:
        matrix = forms[form] = _to_page(form)
    return _on_rect(matrix, left, bottom, right, top)


def _on_rect(matrix: pdfium.PdfMatrix, left: float, bottom: float, right: float, top: float) -> tuple[float, float, float, float]:
    """:meth:`pdfium.PdfMatrix.on_rect`, its corners reckoned as it reckons them (the same sums in
    the same order, so the same floats) without its calls: a plot's every mark passes here."""
    a, b, c, d, e, f = matrix.get()
    a_left, a_right, c_top, c_bottom = a * left, a * right, c * top, c * bottom
    b_left, b_right, d_top, d_bottom = b * left, b * right, d * top, d * bottom
    xs = (a_left + c_top + e, a_left + c_bottom + e, a_right + c_top + e, a_right + c_bottom + e)
    ys = (b_left + d_top + f, b_left + d_bottom + f, b_right + d_top + f, b_right + d_bottom + f)
    return min(xs), min(ys), max(xs), max(ys)


def _to_page(form: pdfium.PdfObject) -> pdfium.PdfMatrix:
    """A form XObject's matrix from its own space to the page's, through the forms it is in."""
    matrix = form.get_matrix()
    parent = form.container
    while parent is not None:
        matrix = matrix.multiply(parent.get_matrix())
        parent = parent.container
    return matrix


__all__ = ["address", "clipped_chars", "hidden_objects", "page_bounds"]
