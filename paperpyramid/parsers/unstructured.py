"""Tables from Unstructured (hi_res layout with YOLOX, table structure inferred).

Unstructured's ``hi_res`` strategy is slow (several seconds a page; Unstructured issue
3217), so only the pages that likely hold a table are sent: :func:`table_pages` flags
them cheaply from the embedded text ("Table 3" / "TABLE 3" at the start of a line), and a
PDF holding just those pages is partitioned. Page numbers in the answer are mapped back
to the original document.

Two backends return the same thing, Unstructured's element dicts:

- :func:`partition_tables_local` runs ``unstructured`` in this process (the
  ``paperpyramid[unstructured]`` extra). The YOLOX weights are found through Unstructured's
  own setting ``UNSTRUCTURED_DEFAULT_MODEL_INITIALIZE_PARAMS_JSON_PATH`` (a JSON file with
  ``model_path`` and ``label_map``), which lets an offline machine use a copied model file.
- :func:`partition_tables_http` posts the page subset to our table service
  (:mod:`paperpyramid.services.table_service`, ``POST /tables``) or to any Unstructured API
  (``POST /general/v0/general``).

:func:`elements_to_tables` turns elements into :class:`~paperpyramid.document.Table` rows;
:func:`parse_tables` does the whole journey.
"""

from __future__ import annotations

import json
import logging
import re
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pypdfium2 as pdfium

from paperpyramid.document import BBox, Table
from paperpyramid.errors import BadInput, ConfigurationError, MissingExtra, ServiceUnavailable

logger = logging.getLogger(__name__)

Element = dict[str, Any]

#: Unstructured renders PDF pages at this resolution unless told otherwise (``pdf_image_dpi``).
UNSTRUCTURED_DEFAULT_DPI = 200
_POINTS_PER_INCH = 72

_TABLE_LINE = re.compile(r"^\s*(?:Table|TABLE)\s+(?:\d+|[IVXL]+)\b", re.MULTILINE)
_LABEL = re.compile(r"^\s*((?:Table|TABLE|Figure|FIGURE|Fig\.)\s+(?:\d+|[IVXL]+))\b")
_TABLE_CAPTION = re.compile(r"^\s*(?:Table|TABLE)\s+(?:\d+|[IVXL]+)\b")
_CAPTION_TYPES = {"Title", "NarrativeText", "UncategorizedText", "FigureCaption"}
#: how many elements either side of a table a "Table N" caption may sit (a subtitle such as
#: "(Percent change)" often comes between)
_CAPTION_WINDOW = 2

_UNSTRUCTURED_API_PATH = "/general/v0/general"


# --------------------------------------------------------------------------- HTML cells


class _TableHtml(HTMLParser):
    """Collects ``<tr>`` rows of ``<td>``/``<th>`` cells with their spans."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self._cell: list[str] | None = None
        self._spans = (1, 1)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            if not self.rows:  # a cell outside any <tr>: start a row for it
                self.rows.append([])
            values = dict(attrs)
            self._spans = (_span(values.get("colspan")), _span(values.get("rowspan")))
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            self.rows[-1].append((text, *self._spans))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _span(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 1000))
    except ValueError:
        return 1


def html_to_cells(html: str) -> list[list[str]]:
    """Cells of an HTML table, one list per ``<tr>``; spanned cells repeat their text.

    A cell with ``colspan=n`` fills n columns and one with ``rowspan=n`` fills n rows, so
    every row ends up as wide as the widest; short rows are padded with ``""``.
    """
    parser = _TableHtml()
    parser.feed(html)
    parser.close()
    grid: list[dict[int, str]] = []
    for index, row in enumerate(parser.rows):
        while len(grid) <= index:
            grid.append({})
        column = 0
        for text, colspan, rowspan in row:
            while column in grid[index]:  # taken by a rowspan from above
                column += 1
            for down in range(rowspan):
                if index + down >= len(parser.rows):
                    break
                while len(grid) <= index + down:
                    grid.append({})
                for across in range(colspan):
                    grid[index + down].setdefault(column + across, text)
            column += colspan
    grid = grid[: len(parser.rows)]
    width = max((max(row) + 1 for row in grid if row), default=0)
    return [[row.get(column, "") for column in range(width)] for row in grid]


# --------------------------------------------------------------------------- elements → tables


def elements_to_tables(
    elements: Sequence[Element],
    *,
    page_sizes: dict[int, tuple[float, float]] | None = None,
    warnings: list[str] | None = None,
) -> list[Table]:
    """Every element of type ``Table`` as a :class:`Table`, in element order.

    Cells come from ``metadata.text_as_html`` (first row = header). A table without HTML
    (Unstructured ran without ``infer_table_structure``) becomes one cell holding its text,
    and a line saying so is appended to ``warnings``. ``page_sizes`` (1-based page → width,
    height in PDF points) makes boxes exact; without it a pixel box is scaled from
    Unstructured's default 200 dpi rendering.
    """
    tables: list[Table] = []
    for index, element in enumerate(elements):
        if element.get("type") != "Table":
            continue
        metadata = element.get("metadata") or {}
        page = int(metadata.get("page_number") or 0)
        html = metadata.get("text_as_html")
        text = str(element.get("text") or "")
        if html:
            cells = html_to_cells(html)
        else:
            cells = [[text]] if text else []
            message = f"page {page}: table without structure (no text_as_html); its text is kept as one cell"
            logger.warning(message)
            if warnings is not None:
                warnings.append(message)
        caption, label = _caption(elements, index, page)
        size = (page_sizes or {}).get(page)
        tables.append(Table(caption=caption, cells=cells, page=page, bbox=_bbox(metadata, size), label=label))
    return tables


def _caption(elements: Sequence[Element], index: int, page: int) -> tuple[str, str | None]:
    """The "Table N" text nearest the table on its page, else an adjacent FigureCaption."""

    def candidate(position: int) -> Element | None:
        if not 0 <= position < len(elements):
            return None
        element = elements[position]
        if (element.get("metadata") or {}).get("page_number") != page:
            return None
        return element

    best: tuple[int, str] | None = None
    for distance in range(1, _CAPTION_WINDOW + 1):
        for position in (index - distance, index + distance):  # before wins a tie
            element = candidate(position)
            if element is None or element.get("type") not in _CAPTION_TYPES:
                continue
            text = str(element.get("text") or "").strip()
            if _TABLE_CAPTION.match(text) and best is None:
                best = (distance, text)
        if best is not None:
            break
        # another table between this one and a caption further away: the caption is not ours
        if any((candidate(p) or {}).get("type") == "Table" for p in (index - distance, index + distance)):
            break
    if best is None:
        for position in (index - 1, index + 1):
            element = candidate(position)
            if element is not None and element.get("type") == "FigureCaption":
                best = (1, str(element.get("text") or "").strip())
                break
    if best is None:
        return "", None
    text = best[1]
    match = _LABEL.match(text)
    return text, (match.group(1) if match else None)


def _bbox(metadata: dict[str, Any], page_size: tuple[float, float] | None) -> BBox | None:
    coordinates = metadata.get("coordinates") or {}
    points = coordinates.get("points")
    if not points:
        return None
    xs = [float(point[0]) for point in points]
    ys = [float(point[1]) for point in points]
    x0, x1, top, bottom = min(xs), max(xs), min(ys), max(ys)
    width, height = coordinates.get("layout_width"), coordinates.get("layout_height")
    if coordinates.get("system") == "PointSpace":
        # PDF points already, but with the origin at the bottom-left: flip to top-left
        if height:
            top, bottom = float(height) - bottom, float(height) - top
        return (x0, top, x1, bottom)
    if not width or not height:
        # no layout size to scale by: the box stays in the renderer's pixels
        return (x0, top, x1, bottom)
    if page_size is not None:
        sx, sy = page_size[0] / float(width), page_size[1] / float(height)
    else:
        sx = sy = _POINTS_PER_INCH / UNSTRUCTURED_DEFAULT_DPI
    return (x0 * sx, top * sy, x1 * sx, bottom * sy)


# --------------------------------------------------------------------------- flagging pages


def table_pages(pdf_path: Path, *, password: str | None = None) -> list[int]:
    """1-based pages with a line starting "Table N" / "TABLE N" in their embedded text."""
    from paperpyramid.parsers.embedded import open_pdf

    pdf = open_pdf(pdf_path, password=password)
    pages: list[int] = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            try:
                text = textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
            finally:
                textpage.close()
                page.close()
            if _TABLE_LINE.search(text):
                pages.append(index + 1)
    except pdfium.PdfiumError as exc:
        raise BadInput(f"{pdf_path.name}: corrupt PDF: page {index + 1} cannot be read ({exc})") from exc
    finally:
        pdf.close()
    return pages


def page_sizes(pdf_path: Path, *, password: str | None = None) -> dict[int, tuple[float, float]]:
    """1-based page → (width, height) in PDF points."""
    from paperpyramid.parsers.embedded import open_pdf

    pdf = open_pdf(pdf_path, password=password)
    try:
        sizes = (pdf.get_page_size(index) for index in range(len(pdf)))
        return {number: (float(width), float(height)) for number, (width, height) in enumerate(sizes, start=1)}
    finally:
        pdf.close()


@contextmanager
def _page_subset(pdf_path: Path, pages: Sequence[int]) -> Iterator[Path]:
    """A temporary PDF holding just ``pages`` (1-based) of ``pdf_path``, in that order."""
    from paperpyramid.parsers.embedded import open_pdf

    source = open_pdf(pdf_path)
    subset = pdfium.PdfDocument.new()
    try:
        bad = [page for page in pages if not 1 <= page <= len(source)]
        if bad:
            raise ValueError(f"{pdf_path.name} has {len(source)} pages; no page {bad[0]}")
        subset.import_pages(source, [page - 1 for page in pages])
        with tempfile.TemporaryDirectory(prefix="paperpyramid-tables-") as folder:
            path = Path(folder) / f"{pdf_path.stem}-pages.pdf"
            subset.save(path)
            yield path
    finally:
        subset.close()
        source.close()


def _map_pages(elements: list[Element], pages: Sequence[int]) -> list[Element]:
    """Page numbers of a page-subset answer, put back to the original document's."""
    for element in elements:
        metadata = element.setdefault("metadata", {})
        number = metadata.get("page_number")
        if isinstance(number, int) and 1 <= number <= len(pages):
            metadata["page_number"] = pages[number - 1]
        elif number is not None:
            logger.warning("element page %r is outside the %d pages sent; left as is", number, len(pages))
    return elements


# --------------------------------------------------------------------------- backends


def partition_tables_local(pdf_path: Path, pages: Sequence[int] | None = None) -> list[Element]:
    """Unstructured's elements for ``pages`` (all when ``None``) of the PDF, run in this process.

    hi_res with the YOLOX layout model and table structure inferred. Needs the
    ``paperpyramid[unstructured]`` extra; an offline machine points
    ``UNSTRUCTURED_DEFAULT_MODEL_INITIALIZE_PARAMS_JSON_PATH`` at a JSON file naming a local
    ``model_path`` for YOLOX.
    """
    try:
        from unstructured.partition.pdf import partition_pdf
    except ImportError as exc:
        raise MissingExtra("unstructured", "unstructured") from exc

    def run(path: Path) -> list[Element]:
        found = partition_pdf(
            filename=str(path),
            strategy="hi_res",
            hi_res_model_name="yolox",
            infer_table_structure=True,
        )
        return [element.to_dict() for element in found]

    if pages is None:
        return run(pdf_path)
    if not pages:
        return []
    with _page_subset(pdf_path, pages) as subset:
        return _map_pages(run(subset), pages)


def partition_tables_http(
    pdf_path: Path,
    pages: Sequence[int] | None,
    url: str,
    timeout: float = 300,
    *,
    api_key: str | None = None,
    retries: int = 4,
    backoff: float = 1.0,
) -> list[Element]:
    """Unstructured's elements for ``pages`` of the PDF, from a service at ``url``.

    ``url`` is either our table service's base URL (``http://host:8000``; posts to
    ``/tables``) or an Unstructured API endpoint ending in ``/general/v0/general`` (posts
    its form: hi_res, YOLOX, table structure, coordinates). Only the pages asked for are
    sent. Raises :class:`ServiceUnavailable` when the service cannot be reached, times out,
    or still answers 503 after ``retries`` retries ``backoff``, 2×``backoff``, ... seconds
    apart; :class:`BadInput` when it rejects the PDF (400/422) and
    :class:`ConfigurationError` when it refuses the key (401/403).
    """
    if pages is not None and not pages:
        return []
    unstructured_api = urlsplit(url).path.rstrip("/").endswith(_UNSTRUCTURED_API_PATH)
    endpoint = url if unstructured_api else url.rstrip("/") + "/tables"
    headers = {"accept": "application/json"}
    if api_key:
        headers["unstructured-api-key"] = api_key
    form = (
        {"strategy": "hi_res", "hi_res_model_name": "yolox", "pdf_infer_table_structure": "true", "coordinates": "true"}
        if unstructured_api
        else {}
    )
    field = "files" if unstructured_api else "file"

    def post(path: Path) -> list[Element]:
        content = path.read_bytes()
        for attempt in range(retries + 1):
            try:
                response = httpx.post(
                    endpoint,
                    files={field: (pdf_path.name, content, "application/pdf")},
                    data=form,
                    headers=headers,
                    timeout=timeout,
                )
            except httpx.TimeoutException as exc:
                raise ServiceUnavailable(f"table service {endpoint} timed out after {timeout:g} s") from exc
            except httpx.TransportError as exc:
                raise ServiceUnavailable(f"table service {endpoint} cannot be reached ({exc})") from exc
            if response.status_code == 503 and attempt < retries:
                delay = backoff * 2**attempt
                logger.info("table service busy (503); retry %d/%d in %.1f s", attempt + 1, retries, delay)
                time.sleep(delay)
                continue
            return _elements_from(response, endpoint)
        raise AssertionError("unreachable")  # the loop returns or raises

    if pages is None:
        return post(pdf_path)
    with _page_subset(pdf_path, pages) as subset:
        return _map_pages(post(subset), pages)


def _elements_from(response: httpx.Response, endpoint: str) -> list[Element]:
    reason = _reason(response)
    status = response.status_code
    if status in (400, 413, 415, 422):
        raise BadInput(f"table service {endpoint} rejected the PDF ({status}: {reason})")
    if status in (401, 403):
        raise ConfigurationError(f"table service {endpoint} refused the request ({status}: {reason}); check the API key")
    if status != 200:
        raise ServiceUnavailable(f"table service {endpoint} answered {status}: {reason}")
    try:
        body = response.json()
    except json.JSONDecodeError as exc:
        raise ServiceUnavailable(f"table service {endpoint} answered something that is not JSON") from exc
    elements = body.get("elements") if isinstance(body, dict) else body
    if not isinstance(elements, list):
        raise ServiceUnavailable(f"table service {endpoint} answered JSON without an element list")
    return elements


def _reason(response: httpx.Response) -> str:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text[:200] or response.reason_phrase
    if isinstance(body, dict) and "detail" in body:
        return str(body["detail"])[:200]
    return response.reason_phrase


# --------------------------------------------------------------------------- the journey


def parse_tables(
    pdf_path: Path,
    *,
    url: str | None = None,
    timeout: float = 300,
    warnings: list[str] | None = None,
) -> list[Table]:
    """Tables of the PDF by Unstructured: flag likely pages, partition them, convert.

    Uses the service at ``url`` when given (see :func:`partition_tables_http`), else the
    local extra. Boxes are in PDF points; ``warnings`` collects tables found without cells.
    """
    pages = table_pages(pdf_path)
    if not pages:
        return []
    elements = partition_tables_http(pdf_path, pages, url, timeout) if url else partition_tables_local(pdf_path, pages)
    return elements_to_tables(elements, page_sizes=page_sizes(pdf_path), warnings=warnings)
