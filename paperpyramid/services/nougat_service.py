"""The Nougat service: PDF pages in, one Mathpix-markdown (.mmd) string per page out.

A thin FastAPI layer over one ``predict(pdf_bytes, pages) -> list[str]`` callable::

    GET  /healthz   -> {"status": "ok"}
    POST /predict   multipart ``file`` (a PDF), optional form field ``pages`` ("1,3-4", 1-based;
                    all pages when absent) -> {"pages": [{"page": n, "mmd": "..."}, ...]}

Tests inject ``predict``; the default, :func:`load_nougat_predict`, imports nougat-ocr
lazily and loads the model once, when the app starts (never at import). The default has
not been run in this repository (no GPU, no weights here); it follows nougat-ocr 0.1.17's
own ``predict.py``. Run it with ``uvicorn --factory paperpyramid.services.nougat_service:create_app``;
``docker/Dockerfile.nougat`` builds an image with the weights baked in.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, File, Form, HTTPException, UploadFile

from paperpyramid.errors import MissingExtra

#: Turns a PDF's bytes and 1-based page numbers into one .mmd string per page, in order.
Predict = Callable[[bytes, Sequence[int]], list[str]]


def parse_page_spec(spec: str, page_count: int) -> list[int]:
    """``"1,3-4"`` -> ``[1, 3, 4]``; raises ValueError for pages outside ``1..page_count``."""
    pages: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        first, _, last = part.partition("-")
        start, stop = int(first), int(last or first)
        if not 1 <= start <= stop <= page_count:
            raise ValueError(f"page range {part!r} is outside 1..{page_count}")
        pages.extend(range(start, stop + 1))
    return pages


def _page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError as exc:
        raise HTTPException(status_code=422, detail=f"not a readable PDF: {exc}") from exc
    try:
        return len(document)
    finally:
        document.close()


def load_nougat_predict(checkpoint: str | None = None, *, batch_size: int = 4, model_tag: str = "0.1.0-small") -> Predict:
    """Load Nougat once and return a batched ``predict``. Needs ``paperpyramid[nougat]`` and a GPU
    for useful speed; ``checkpoint`` (or ``NOUGAT_CHECKPOINT``) is a local directory of weights,
    else nougat's own cache/download (``get_checkpoint``), which the Docker image fills at build.

    Unverified here: nougat-ocr cannot be installed in this repository's environment.
    """
    try:
        import torch
        from nougat import NougatModel
        from nougat.dataset.rasterize import rasterize_paper
        from nougat.postprocessing import markdown_compatible
        from nougat.utils.checkpoint import get_checkpoint
        from nougat.utils.device import move_to_device
        from PIL import Image
    except ImportError as exc:
        raise MissingExtra("nougat-ocr", "nougat") from exc

    path = get_checkpoint(checkpoint or os.environ.get("NOUGAT_CHECKPOINT"), model_tag=model_tag)
    model = NougatModel.from_pretrained(path)
    model = move_to_device(model, bf16=torch.cuda.is_available(), cuda=torch.cuda.is_available())
    model.eval()

    def predict(pdf: bytes, pages: Sequence[int]) -> list[str]:
        # rasterize_paper renders with pdfium at 96 dpi and returns BMP bytes per page
        images = rasterize_paper(pdf, return_pil=True, pages=[page - 1 for page in pages]) or []
        if len(images) != len(pages):
            raise RuntimeError(f"rasterized {len(images)} of {len(pages)} pages")
        outputs: list[str] = []
        for start in range(0, len(images), batch_size):
            batch = [model.encoder.prepare_input(Image.open(image), random_padding=False) for image in images[start : start + batch_size]]
            with torch.inference_mode():
                result = model.inference(image_tensors=torch.stack(batch), early_stopping=True)
            for offset, text in enumerate(result["predictions"]):
                number = pages[start + offset]
                repeats = result["repeats"][offset]
                if text.strip() == "[MISSING_PAGE_POST]":
                    outputs.append(f"[MISSING_PAGE_EMPTY:{number}]")
                elif repeats is not None and repeats > 0:
                    # nougat's early stopping found a loop: the page's text is truncated
                    outputs.append(f"[MISSING_PAGE_FAIL:{number}]")
                elif repeats is not None:
                    outputs.append(f"[MISSING_PAGE_EMPTY:{number}]")
                else:
                    outputs.append(markdown_compatible(text))
        return outputs

    return predict


def create_app(predict: Predict | None = None, *, load: Callable[[], Predict] = load_nougat_predict) -> FastAPI:
    """The service app. With ``predict`` given (tests), nothing is loaded; otherwise ``load()``
    runs once at startup and its ``predict`` serves every request. Requests run one at a
    time in a worker thread: the model is a single GPU resource."""
    state: dict[str, Predict] = {}
    if predict is not None:
        state["predict"] = predict
    lock = asyncio.Lock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if "predict" not in state:
            state["predict"] = await asyncio.to_thread(load)
        yield

    app = FastAPI(title="paperpyramid nougat", lifespan=lifespan)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        if "predict" not in state:
            raise HTTPException(status_code=503, detail="model loading")
        return {"status": "ok"}

    @app.post("/predict")
    async def predict_pages(file: Annotated[UploadFile, File()], pages: Annotated[str | None, Form()] = None) -> dict[str, Any]:
        model = state.get("predict")
        if model is None:
            raise HTTPException(status_code=503, detail="model loading", headers={"Retry-After": "5"})
        pdf = await file.read()
        count = _page_count(pdf)
        try:
            wanted = parse_page_spec(pages, count) if pages else list(range(1, count + 1))
        except ValueError as exc:
            raise HTTPException(status_code=422, detail=str(exc)) from exc
        async with lock:
            mmd = await asyncio.to_thread(model, pdf, wanted)
        if len(mmd) != len(wanted):
            raise HTTPException(status_code=500, detail=f"predict returned {len(mmd)} pages for {len(wanted)}")
        return {"pages": [{"page": page, "mmd": text} for page, text in zip(wanted, mmd, strict=True)]}

    return app
