"""Tables from Unstructured: recorded real outputs converted, the table service and its client.

The recorded element lists are real Unstructured outputs (../shared/recorded/unstructured,
see its MANIFEST.tsv); the service is exercised with a partition function that answers a
recording, since ``unstructured`` itself is an optional extra not installed here.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from fastapi.testclient import TestClient

from paperpyramid.errors import MissingExtra, ServiceUnavailable
from paperpyramid.parsers.unstructured import (
    elements_to_tables,
    html_to_cells,
    partition_tables_http,
    partition_tables_local,
    table_pages,
)
from paperpyramid.services.table_service import create_app
from tests.asgi_server import serve

SAMPLE = Path(__file__).parent / "data" / "sample"
FROG = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"
RECORDED = Path(__file__).resolve().parents[2] / "shared" / "recorded" / "unstructured"
RECORDINGS = sorted(RECORDED.glob("*.json")) if RECORDED.is_dir() else []
TABLES_022 = "layout-parser-paper.UNPAIRED-input-pdf-missing.unstructured-oss-hi_res-tables-0.22.json"

needs_recorded = pytest.mark.skipif(
    not RECORDINGS, reason=f"../shared/recorded/unstructured not present ({RECORDED}): recorded outputs live beside the project"
)


def load(name: str) -> list[dict[str, Any]]:
    elements: list[dict[str, Any]] = json.loads((RECORDED / name).read_text(encoding="utf-8"))
    return elements


def html_shape(html: str) -> tuple[int, int]:
    """Rows and columns of an HTML table counted with regexes, independently of the parser."""
    rows = re.findall(r"<tr\b.*?</tr>", html, flags=re.S)
    widths = [sum(int(span or 1) for span in re.findall(r"<t[dh]\b(?:[^>]*?colspan=\"(\d+)\")?[^>]*>", row)) for row in rows]
    return len(rows), max(widths)


# "Table N" captions checked by hand in each recording: (page, label, caption start) per table, in order
CAPTIONS = {
    "2023-Jan-economic-outlook.unstructured-api-hi_res-2026.json": [(7, "Table 1", "Table 1. Overview of the World")],
    "2023-Jan-economic-outlook.unstructured-oss-hi_res-0.14-with-coordinates.json": [(7, "Table 1", "Table 1. Overview")],
    "2023-Jan-economic-outlook.unstructured-oss-hi_res-0.15.json": [(7, "Table 1", "Table 1. Overview")],
    "layout-parser-paper-fast.unstructured-api-hi_res-2023.json": [],
    TABLES_022: [(5, "Table 1", "Table 1: Current layout detection"), (8, "Table 2", "Table 2: All operations")],
    "multi-column-2p.unstructured-oss-hi_res-0.14.json": [],
    # the "table" is the body of Figure 1, whose FigureCaption follows it directly
    "recalibrating-risk-report.unstructured-api-hi_res-2026.json": [(4, "Figure 1", "Figure 1. Ordering of perceived")],
    "recalibrating-risk-report.unstructured-oss-hi_res-0.15.json": [(4, "Figure 1", "Figure 1. Ordering of perceived")],
}


@needs_recorded
def test_every_recording_is_checked_by_hand() -> None:
    assert sorted(CAPTIONS) == [path.name for path in RECORDINGS]


@needs_recorded
@pytest.mark.parametrize("name", sorted(CAPTIONS))
def test_recorded_tables(name: str) -> None:
    elements = load(name)
    recorded = [element for element in elements if element["type"] == "Table"]
    warnings: list[str] = []
    tables = elements_to_tables(elements, warnings=warnings)

    assert len(tables) == len(recorded) == len(CAPTIONS[name])
    for table, element, (page, label, caption) in zip(tables, recorded, CAPTIONS[name], strict=True):
        assert table.page == element["metadata"]["page_number"] == page
        assert table.label == label
        assert table.caption.startswith(caption)
        html = element["metadata"].get("text_as_html")
        if html:
            rows, columns = html_shape(html)
            assert len(table.cells) == rows
            assert all(len(row) == columns for row in table.cells)
            lines = table.markdown.splitlines()
            assert len(lines) == rows + 1
            assert lines[1] == "|" + "---|" * columns
        else:  # no structure recorded: the text as one cell, and a warning says so
            assert table.cells == [[element["text"]]]
            assert any(f"page {page}" in warning for warning in warnings)
    assert len(warnings) == sum(1 for element in recorded if not element["metadata"].get("text_as_html"))


@needs_recorded
def test_spans_repeat_so_rows_line_up() -> None:
    [table] = elements_to_tables(load("2023-Jan-economic-outlook.unstructured-api-hi_res-2026.json"))
    assert (len(table.cells), len(table.cells[0])) == (47, 10)
    assert table.cells[0][1:7] == ["Year over Year"] * 6  # colspan=6
    assert table.cells[1][1] == table.cells[2][1] == "2021"  # rowspan=2
    assert table.cells[2][3:5] == ["2023", "2024"]  # after the rowspan, not shifted left
    assert table.cells[3][:2] == ["World Output", "6.2"]
    [figure] = elements_to_tables(load("recalibrating-risk-report.unstructured-api-hi_res-2026.json"))
    assert figure.cells[0] == ["Laypersons", "Laypersons", "Experts"]
    assert figure.cells[-1] == ["30", "Vaccinations", "25"]


def test_html_entities_breaks_and_ragged_rows() -> None:
    cells = html_to_cells("<table><tr><th>a&amp;b</th><th>c<br>d</th></tr><tr><td>1</td></tr></table>")
    assert cells == [["a&b", "c d"], ["1", ""]]


@needs_recorded
def test_pixel_box_becomes_pdf_points() -> None:
    [table] = elements_to_tables(
        load("2023-Jan-economic-outlook.unstructured-oss-hi_res-0.14-with-coordinates.json"), page_sizes={7: (612.0, 792.0)}
    )
    assert table.bbox is not None
    x0, top, x1, bottom = table.bbox
    # PixelSpace 1700x2200 points [[207.08, 255.96], ..., [1488.95, 1329.58]] on a 612x792 letter page
    assert (x0, top, x1, bottom) == pytest.approx((207.08 * 0.36, 255.956 * 0.36, 1488.949 * 0.36, 1329.58 * 0.36), abs=0.05)
    assert 0 < x0 < x1 <= 612 and 0 < top < bottom <= 792


def test_table_pages_flags_the_page_with_table_1() -> None:
    assert table_pages(FROG) == [9]


def test_local_backend_without_the_extra_names_the_install_command() -> None:
    try:
        import unstructured  # noqa: F401
    except ImportError:
        with pytest.raises(MissingExtra, match=r"pip install 'paperpyramid\[unstructured\]'"):
            partition_tables_local(FROG, [9])
    else:
        pytest.skip("unstructured is installed; the missing-extra path cannot be shown")


# --------------------------------------------------------------------------- the service


class RecordedPartition:
    """Answers the 0.22 recording's pages 5 and 8 as if they were pages 1 and 2 of the PDF sent."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, Sequence[int] | None]] = []

    def __call__(self, path: Path, pages: Sequence[int] | None) -> list[dict[str, Any]]:
        pdf = pdfium.PdfDocument(path)
        self.calls.append((len(pdf), pages))
        pdf.close()
        renumber = {5: 1, 8: 2}
        answer = []
        for element in load(TABLES_022):
            page = element["metadata"].get("page_number")
            if page in renumber:
                answer.append({**element, "metadata": {**element["metadata"], "page_number": renumber[page]}})
        return answer


@needs_recorded
def test_service_answers_elements_and_rejects_bad_uploads() -> None:
    partition = RecordedPartition()
    client = TestClient(create_app(partition))
    assert client.get("/healthz").json() == {"ok": True}

    response = client.post("/tables", files={"file": ("frog.pdf", FROG.read_bytes(), "application/pdf")}, data={"pages": "3,9"})
    assert response.status_code == 200
    assert [table.page for table in elements_to_tables(response.json()["elements"])] == [1, 2]
    assert partition.calls == [(14, [3, 9])]

    general = client.post("/general/v0/general", files={"files": ("frog.pdf", FROG.read_bytes())}, data={"strategy": "hi_res"})
    assert general.status_code == 200 and isinstance(general.json(), list)

    html = client.post("/tables", files={"file": ("frog.pdf", b"<html>not a pdf</html>")})
    assert html.status_code == 400 and "not a PDF" in html.json()["detail"]
    assert client.post("/tables", files={"file": ("x.pdf", b"")}).status_code == 400
    bad_pages = client.post("/tables", files={"file": ("frog.pdf", FROG.read_bytes())}, data={"pages": "nine"})
    assert bad_pages.status_code == 400 and "pages" in bad_pages.json()["detail"]


def test_service_reports_a_failed_partition_as_500() -> None:
    def broken(path: Path, pages: Sequence[int] | None) -> list[dict[str, Any]]:
        raise RuntimeError("yolox weights not found")

    response = TestClient(create_app(broken)).post("/tables", files={"file": ("frog.pdf", FROG.read_bytes())})
    assert response.status_code == 500
    assert "yolox weights not found" in response.json()["detail"]


@pytest.fixture
def service_url() -> Iterator[tuple[str, RecordedPartition]]:
    partition = RecordedPartition()
    with serve(create_app(partition)) as url:
        yield url, partition


@needs_recorded
@pytest.mark.parametrize("path", ["", "/general/v0/general"])
def test_http_client_maps_pages_back(service_url: tuple[str, RecordedPartition], path: str) -> None:
    url, partition = service_url
    elements = partition_tables_http(FROG, [3, 9], url + path, timeout=10)
    tables = elements_to_tables(elements)
    expected = elements_to_tables(load(TABLES_022))
    assert [table.page for table in tables] == [3, 9]  # subset pages 1, 2 back to the document's
    assert [table.cells for table in tables] == [table.cells for table in expected]
    assert [table.label for table in tables] == ["Table 1", "Table 2"]
    assert partition.calls == [(2, None)]  # only the two flagged pages travelled


class _Busy(BaseHTTPRequestHandler):
    answers: list[int] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["Content-Length"]))
        status = self.answers.pop(0)
        body = (
            b'{"detail": "busy"}'
            if status == 503
            else json.dumps([{"type": "Table", "text": "x", "metadata": {"page_number": 1}}]).encode()
        )
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def busy_server() -> Iterator[tuple[str, list[int]]]:
    answers: list[int] = []
    handler = type("Busy", (_Busy,), {"answers": answers})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", answers
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_503_is_retried_then_succeeds(busy_server: tuple[str, list[int]]) -> None:
    url, answers = busy_server
    answers.extend([503, 503, 200])
    elements = partition_tables_http(FROG, [9], url, timeout=5, backoff=0.01)
    assert [element["metadata"]["page_number"] for element in elements] == [9]
    assert answers == []


def test_503_past_the_retries_is_an_outage(busy_server: tuple[str, list[int]]) -> None:
    url, answers = busy_server
    answers.extend([503] * 3)
    with pytest.raises(ServiceUnavailable, match="503"):
        partition_tables_http(FROG, [9], url, timeout=5, retries=2, backoff=0.01)
    assert answers == []


def test_closed_port_is_an_outage() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ServiceUnavailable, match="cannot be reached"):
        partition_tables_http(FROG, [9], f"http://127.0.0.1:{port}", timeout=5)
