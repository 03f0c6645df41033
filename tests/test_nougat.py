"""Nougat client and service, on a real recorded Nougat output (../shared/recorded/nougat).

The recording is nougat-ocr 0.1.17 (0.1.0-small) on arXiv 1804.07821v1, a whole-document .mmd.
Checked by hand against the PDF's embedded text: it has five display equations, numbered
(1)-(5); the PDF prints (1) and (2) on page 3, (3) on page 4, (4) and (5) on page 5.
"""

from __future__ import annotations

import re
import socket
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from fastapi import FastAPI, Request, Response
from fastapi.testclient import TestClient

from paperpyramid.errors import ConfigurationError, ServiceUnavailable
from paperpyramid.parsers import nougat
from paperpyramid.services.nougat_service import create_app
from tests.asgi_server import serve

SHARED = Path(__file__).resolve().parents[2] / "shared"
RECORDED = SHARED / "recorded" / "nougat"
STEM = "arxiv-1804.07821v1-multicolumn-dilated-cnn-counting"
#: Hand-checked: the page of each of equations (1)..(5) in the PDF.
EQUATION_PAGES = [3, 3, 4, 5, 5]

REPEATED_PAGE = "## 3 Method\n\nWe train the network end to end.\n\n" + "\n".join(["The density map is summed over the image."] * 30)


@pytest.fixture(scope="module")
def recording() -> tuple[Path, str]:
    if not SHARED.is_dir():
        pytest.skip(f"../shared not present ({SHARED}): the recorded Nougat output lives there")
    pdf = RECORDED / f"{STEM}.pdf"
    mmd = RECORDED / f"{STEM}.nougat-0.1.17-small.mmd"
    return pdf, mmd.read_text(encoding="utf-8")


def _page_texts(pdf: pdfium.PdfDocument) -> list[str]:
    return [pdf[index].get_textpage().get_text_range() for index in range(len(pdf))]


# ---------------------------------------------------------------- display equations


def test_display_equations_of_the_recording(recording: tuple[Path, str]) -> None:
    _, mmd = recording
    independent = len(re.findall(r"^\\\[", mmd, flags=re.MULTILINE))
    assert independent == 5  # counted by hand in the .mmd
    equations = nougat.display_equations(mmd)
    assert len(equations) == independent
    assert [label for _, label in equations] == ["1", "2", "3", "4", "5"]
    for latex, _ in equations:
        assert "\\" in latex or "^" in latex or "_" in latex
        assert "\\tag" not in latex and not latex.startswith("\\[")
    assert equations[2][0] == r"L=\frac{1}{n}\sum_{i=1}^{n}|\hat{y}_{i}-\gamma y_{i}|"
    # inline math \( \) is not display math
    assert all("GAME\\)" not in latex for latex, _ in equations)


def test_display_equations_other_forms() -> None:
    mmd = (
        "Text with \\(x\\) inline.\n\n$$E=mc^{2}\\qquad(7)$$\n\n"
        "\\begin{equation}a_{i}=b\\label{eq:ab}\\end{equation}\n\n\\[\\int f\\,dx\\]\n"
    )
    assert nougat.display_equations(mmd) == [
        ("E=mc^{2}", "7"),
        ("a_{i}=b", "eq:ab"),
        ("\\int f\\,dx", None),
    ]


# ---------------------------------------------------------------- pages


def test_math_pages_are_the_pages_with_numbered_equations(recording: tuple[Path, str]) -> None:
    pdf, _ = recording
    assert nougat.math_pages(pdf) == sorted(set(EQUATION_PAGES))


def test_locate_pages_puts_equations_on_the_pages_that_print_them(recording: tuple[Path, str]) -> None:
    pdf_path, mmd = recording
    pages = nougat.locate_pages(mmd, pdf_path)
    assert pages == EQUATION_PAGES
    assert pages == sorted(pages)
    texts = _page_texts(pdfium.PdfDocument(pdf_path))
    for number, page in enumerate(pages, start=1):
        assert re.search(rf"\({number}\)\s*$", texts[page - 1], flags=re.MULTILINE)
    assert "Nb(xb, Σb)) (5)" in texts[pages[4] - 1]
    # the prose around each equation alone is enough: same pages without the numbers
    untagged = re.sub(r"\\tag\{\d+\}", "", mmd)
    assert nougat.locate_pages(untagged, pdf_path) == EQUATION_PAGES


# ---------------------------------------------------------------- repetition failures


def test_repetition_failure_detected() -> None:
    assert nougat.is_repetition_failure(REPEATED_PAGE)
    assert nougat.is_repetition_failure("Some text.\n\n[MISSING_PAGE_FAIL:4]\n\n")
    assert nougat.is_repetition_failure("[MISSING_PAGE_EMPTY:2]")
    # a loop cut off mid-repeat by the token limit, with a two-line period
    loop = "\n".join(["\\(\\mathbf{x}_{i}\\), the input", "and \\(y_{i}\\) its count,"] * 12)
    assert nougat.is_repetition_failure("Real start of the page.\n\n" + loop + "\n\\(\\mathbf{x")


def test_real_paragraphs_are_not_repetition_failures(recording: tuple[Path, str]) -> None:
    _, mmd = recording
    paragraphs = [chunk for chunk in mmd.split("\n\n") if chunk.strip()]
    assert len(paragraphs) > 50
    assert not any(nougat.is_repetition_failure(chunk) for chunk in paragraphs)
    # and page-sized windows of the whole recording (tables included)
    windows = [mmd[start : start + 4000] for start in range(0, len(mmd), 1000)]
    assert not any(nougat.is_repetition_failure(window) for window in windows)


# ---------------------------------------------------------------- the service


def _split_pages(mmd: str, count: int) -> list[str]:
    paragraphs = mmd.split("\n\n")
    size = -(-len(paragraphs) // count)
    return ["\n\n".join(paragraphs[i * size : (i + 1) * size]) for i in range(count)]


def test_service_answers_per_page(recording: tuple[Path, str]) -> None:
    pdf_path, mmd = recording
    chunks = _split_pages(mmd, 10)
    calls: list[list[int]] = []

    def predict(pdf: bytes, pages: Sequence[int]) -> list[str]:
        calls.append(list(pages))
        return [chunks[page - 1] for page in pages]

    with TestClient(create_app(predict)) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        files = {"file": ("paper.pdf", pdf_path.read_bytes(), "application/pdf")}
        answer = client.post("/predict", files=files, data={"pages": "3-5"}).json()
        assert answer == {"pages": [{"page": page, "mmd": chunks[page - 1]} for page in (3, 4, 5)]}
        whole = client.post("/predict", files=files).json()["pages"]
        assert [item["page"] for item in whole] == list(range(1, 11))
        assert "".join(item["mmd"] for item in whole).count("\\tag{") == 5
        assert client.post("/predict", files=files, data={"pages": "11"}).status_code == 422
        bad = client.post("/predict", files={"file": ("x.pdf", b"<html>", "application/pdf")})
        assert bad.status_code == 422
    assert calls == [[3, 4, 5], list(range(1, 11))]


def test_service_loads_the_model_once_at_startup_and_lazily() -> None:
    assert "nougat" not in sys.modules  # importing the service did not import nougat-ocr
    loads: list[int] = []

    def load() -> Any:
        loads.append(1)
        return lambda pdf, pages: ["x"] * len(pages)

    app = create_app(load=load)
    assert loads == []
    with TestClient(app) as client:
        assert loads == [1]
        pdf = pdfium.PdfDocument.new()
        pdf.new_page(200, 200)
        pdf.new_page(200, 200)
        import io

        buffer = io.BytesIO()
        pdf.save(buffer)
        for _ in range(2):
            answer = client.post("/predict", files={"file": ("a.pdf", buffer.getvalue(), "application/pdf")})
            assert answer.json() == {"pages": [{"page": 1, "mmd": "x"}, {"page": 2, "mmd": "x"}]}
    assert loads == [1]


# ---------------------------------------------------------------- client against a served app


class _Behaviour:
    def __init__(self) -> None:
        self.fail_next = 0  # answer 503 to this many requests
        self.requests = 0
        self.broken_pages: set[int] = set()  # original pages whose output loops


@pytest.fixture(scope="module")
def served(recording: tuple[Path, str]) -> Iterator[tuple[str, _Behaviour]]:
    pdf_path, mmd = recording
    original_texts = _page_texts(pdfium.PdfDocument(pdf_path))
    # per original page: the paragraph before each equation and the equation, as Nougat wrote them
    blocks = mmd.split("\n\n")
    per_page: dict[int, list[str]] = {}
    equation_blocks = [i for i, block in enumerate(blocks) if block.startswith("\\[")]
    for index, page in zip(equation_blocks, EQUATION_PAGES, strict=True):
        per_page.setdefault(page, []).extend(blocks[index - 1 : index + 1])
    behaviour = _Behaviour()

    def predict(pdf: bytes, pages: Sequence[int]) -> list[str]:
        received = pdfium.PdfDocument(pdf)
        out = []
        for page in pages:
            original = original_texts.index(received[page - 1].get_textpage().get_text_range()) + 1
            out.append(REPEATED_PAGE if original in behaviour.broken_pages else "\n\n".join(per_page.get(original, ["Prose."])))
        return out

    app: FastAPI = create_app(predict)

    @app.middleware("http")
    async def flaky(request: Request, call_next: Any) -> Response:
        behaviour.requests += 1
        if behaviour.fail_next > 0:
            behaviour.fail_next -= 1
            return Response("busy", status_code=503, headers={"Retry-After": "0"})
        response: Response = await call_next(request)
        return response

    with serve(app) as url:
        yield url, behaviour


@pytest.fixture
def behaviour(served: tuple[str, _Behaviour]) -> _Behaviour:
    behaviour = served[1]
    behaviour.fail_next, behaviour.requests, behaviour.broken_pages = 0, 0, set()
    return behaviour


def test_parse_formulas_end_to_end(recording: tuple[Path, str], served: tuple[str, _Behaviour], behaviour: _Behaviour) -> None:
    pdf_path, mmd = recording
    formulas, warnings = nougat.parse_formulas(pdf_path, url=served[0], timeout=30)
    assert warnings == []
    assert [(f.page, f.label) for f in formulas] == list(zip(EQUATION_PAGES, ["1", "2", "3", "4", "5"], strict=True))
    assert [f.latex for f in formulas] == [latex for latex, _ in nougat.display_equations(mmd)]
    assert all(f.text == f.latex for f in formulas)
    assert behaviour.requests == 1


def test_a_looping_page_falls_back_with_a_warning(
    recording: tuple[Path, str], served: tuple[str, _Behaviour], behaviour: _Behaviour
) -> None:
    behaviour.broken_pages = {4}
    formulas, warnings = nougat.parse_formulas(recording[0], url=served[0], timeout=30)
    assert [(f.page, f.label) for f in formulas] == [(3, "1"), (3, "2"), (5, "4"), (5, "5")]
    assert len(warnings) == 1 and "page 4" in warnings[0]


def test_503_is_retried_then_given_up(recording: tuple[Path, str], served: tuple[str, _Behaviour], behaviour: _Behaviour) -> None:
    behaviour.fail_next = 1
    pages = nougat.fetch_pages(recording[0], [4], served[0], 30, backoff=0.01)
    assert behaviour.requests == 2
    assert list(pages) == [4] and "\\tag{3}" in pages[4]
    behaviour.fail_next, behaviour.requests = 10, 0
    with pytest.raises(ServiceUnavailable, match="503"):
        nougat.fetch_pages(recording[0], [4], served[0], 30, retries=2, backoff=0.01)
    assert behaviour.requests == 3


def test_closed_port_is_service_unavailable(recording: tuple[Path, str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ServiceUnavailable, match="127.0.0.1"):
        nougat.fetch_pages(recording[0], [3], f"http://127.0.0.1:{port}", 5)


def test_no_url_is_a_configuration_error(recording: tuple[Path, str]) -> None:
    with pytest.raises(ConfigurationError, match="nougat_url"):
        nougat.parse_formulas(recording[0], url=None)
