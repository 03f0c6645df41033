"""The table service: Unstructured's hi_res table extraction behind HTTP.

A thin layer over :func:`paperpyramid.parsers.unstructured.partition_tables_local` so that
the heavy extra (and its YOLOX model) lives on one GPU/CPU box that ingest workers call::

    uvicorn --factory paperpyramid.services.table_service:create_app --host 0.0.0.0 --port 8000

Endpoints:

- ``GET /healthz`` → ``{"ok": true}``
- ``POST /tables`` (multipart ``file``, optional form ``pages`` = "3,7") →
  ``{"elements": [...]}``, Unstructured's element dicts with the original page numbers
- ``POST /general/v0/general`` (multipart ``files``, Unstructured API form fields) → a JSON
  list of elements, as the Unstructured API answers, so one client talks to either. The
  strategy fields are accepted and ignored: this service always runs hi_res, YOLOX, tables.

A bad upload answers 400 and a failed partition 500, each with a ``detail`` reason.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, File, Form, HTTPException, UploadFile

from paperpyramid.errors import BadInput

logger = logging.getLogger(__name__)

#: (PDF path, 1-based pages or None for all) → Unstructured element dicts
Partition = Callable[[Path, Sequence[int] | None], list[dict[str, Any]]]


def create_app(partition: Partition | None = None) -> FastAPI:
    """The FastAPI app; ``partition`` defaults to the local Unstructured extra (loaded on first use)."""
    if partition is None:
        from paperpyramid.parsers.unstructured import partition_tables_local

        partition = partition_tables_local
    run_partition: Partition = partition
    app = FastAPI(title="paperpyramid tables", description="Tables from PDFs by Unstructured hi_res (YOLOX).")

    @app.get("/healthz")
    def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.post("/tables")
    def tables(
        file: Annotated[UploadFile, File(description="the PDF")],
        pages: Annotated[str | None, Form(description="1-based pages, comma-separated; all when absent")] = None,
    ) -> dict[str, list[dict[str, Any]]]:
        return {"elements": _partition_upload(run_partition, file, _parse_pages(pages))}

    @app.post("/general/v0/general")
    def general(
        files: Annotated[UploadFile, File(description="the PDF (Unstructured API field name)")],
        strategy: Annotated[str | None, Form()] = None,
        hi_res_model_name: Annotated[str | None, Form()] = None,
        pdf_infer_table_structure: Annotated[str | None, Form()] = None,
        coordinates: Annotated[str | None, Form()] = None,
    ) -> list[dict[str, Any]]:
        return _partition_upload(run_partition, files, None)

    return app


def _parse_pages(pages: str | None) -> list[int] | None:
    if pages is None or not pages.strip():
        return None
    try:
        numbers = [int(part) for part in pages.split(",") if part.strip()]
    except ValueError as exc:
        raise HTTPException(400, f"pages must be comma-separated page numbers, not {pages!r}") from exc
    if any(number < 1 for number in numbers):
        raise HTTPException(400, f"pages are 1-based; got {pages!r}")
    return numbers


def _partition_upload(partition: Partition, upload: UploadFile, pages: list[int] | None) -> list[dict[str, Any]]:
    content = upload.file.read()
    if not content:
        raise HTTPException(400, "empty upload: send the PDF as multipart file")
    if b"%PDF-" not in content[:1024]:
        raise HTTPException(400, f"{upload.filename or 'upload'} is not a PDF (no %PDF header)")
    with tempfile.TemporaryDirectory(prefix="paperpyramid-service-") as folder:
        path = Path(folder) / "upload.pdf"
        path.write_bytes(content)
        try:
            return partition(path, pages)
        except (BadInput, ValueError) as exc:
            raise HTTPException(400, f"{upload.filename or 'upload'}: {exc}") from exc
        except Exception as exc:  # a service answers every failure; the reason goes back to the caller
            logger.exception("partition failed for %s", upload.filename)
            raise HTTPException(500, f"partition failed: {type(exc).__name__}: {exc}") from exc
