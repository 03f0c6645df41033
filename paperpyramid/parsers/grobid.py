"""The GROBID backend: send a PDF to a GROBID server, read the TEI it answers.

GROBID answers 503 when its queue is full (back-pressure); that is retried with
exponential backoff, a bounded number of times and within a bounded total time. A
server that cannot be reached or does not answer in time is :class:`ServiceUnavailable`;
a document GROBID cannot process (it answers 500 for an unparseable PDF, 4xx for a bad
request) is :class:`PdfCorrupt`, which is :class:`BadInput`.

``grobid-client-python`` is the optional extra ``paperpyramid[grobid]``, imported only
when a PDF is sent. Its ``process_pdf`` retries a 503 itself, sleeping and recursing without
end, and turns every exception into a status code; :class:`_Client` below takes both back so
that this module decides.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from paperpyramid.document import Document
from paperpyramid.env import read_env
from paperpyramid.errors import MissingExtra, PdfCorrupt, ServiceUnavailable
from paperpyramid.parsers.grobid_tei import tei_to_document

__all__ = ["DEFAULT_COORDINATES", "DEFAULT_URL", "default_url", "fetch_tei", "is_alive", "parse_pdf"]

DEFAULT_URL = "http://localhost:8070"
#: the elements GROBID is asked to give coordinates for (pages and boxes come from these)
DEFAULT_COORDINATES = ("p", "s", "head", "formula", "figure", "ref", "biblStruct", "persName")
_SERVICE = "processFulltextDocument"


def default_url() -> str:
    """``PAPERPYRAMID_INGEST__SERVICES__GROBID_URL``, else GROBID's own default ``http://localhost:8070``."""
    return read_env("PAPERPYRAMID_INGEST__SERVICES__GROBID_URL") or DEFAULT_URL


def is_alive(url: str | None = None, timeout: float = 5.0) -> bool:
    """Whether the GROBID server at ``url`` answers ``GET /api/isalive`` with ``true``."""
    base = (url or default_url()).rstrip("/")
    try:
        with urllib.request.urlopen(f"{base}/api/isalive", timeout=timeout) as response:
            body: str = response.read(64).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, ValueError):
        return False
    return body.strip().lower() == "true"


def _client_class() -> Any:
    try:
        from grobid_client.grobid_client import GrobidClient
    except ImportError as exc:
        raise MissingExtra("grobid-client-python", "grobid") from exc

    class _Client(GrobidClient):
        """GrobidClient that hands a 503 and a transport error back instead of handling them.

        Both overrides hook grobid-client-python 0.2's internals (its ``_send_pdf`` calls
        ``_handle_server_busy_retry`` on a 503 and catches every exception from ``post``).
        """

        transport_error: Exception | None = None

        def _handle_server_busy_retry(self, file_path: str, retry_func: Any, *args: Any, **kwargs: Any) -> Any:
            return (file_path, 503, "server busy")

        def post(self, *args: Any, **kwargs: Any) -> Any:
            data = kwargs.get("data")
            if isinstance(data, dict):  # the library sends the field only when it is 1; say 0 aloud
                data.setdefault("consolidateHeader", "0")
            try:
                return super().post(*args, **kwargs)
            except Exception as exc:  # recorded here, re-raised for the library's own bookkeeping
                self.transport_error = exc
                raise

    return _Client


def fetch_tei(
    pdf_path: Path,
    *,
    url: str | None = None,
    timeout: float = 180.0,
    retries: int = 5,
    backoff: float = 1.0,
    max_wait: float = 60.0,
    max_pages: int | None = None,
    consolidate_header: bool = False,
    coordinates: tuple[str, ...] = DEFAULT_COORDINATES,
    segment_sentences: bool = True,
) -> bytes:
    """Send one PDF to GROBID's ``processFulltextDocument``; return the TEI it answers.

    ``timeout`` bounds each request; ``max_pages`` asks GROBID to stop after that page. A 503 is retried up to ``retries`` times, waiting
    ``backoff``, ``2 * backoff``, ... seconds, and never more than ``max_wait`` seconds of
    waiting in all. Raises :class:`ServiceUnavailable` when the server cannot be reached,
    times out or stays busy, and :class:`PdfCorrupt` when GROBID refuses the document.
    """
    base = (url or default_url()).rstrip("/")
    client = _client_class()(grobid_server=base, check_server=False, timeout=timeout, coordinates=list(coordinates))
    waited = 0.0
    for attempt in range(retries + 1):
        client.transport_error = None
        _, status, text = client.process_pdf(
            _SERVICE,
            str(pdf_path),
            consolidate_header=consolidate_header,
            consolidate_citations=False,
            tei_coordinates=bool(coordinates),
            segment_sentences=segment_sentences,
            end=max_pages or -1,
        )
        error = client.transport_error
        if error is not None:
            kind = "timed out" if "timeout" in type(error).__name__.lower() else "could not be reached"
            raise ServiceUnavailable(f"GROBID at {base} {kind}: {type(error).__name__}: {_snippet(str(error))}") from error
        if status == 200:
            return str(text or "").encode("utf-8")
        if status == 503:
            delay = min(backoff * 2**attempt, max_wait - waited)
            if attempt == retries or delay <= 0:
                break
            time.sleep(delay)
            waited += delay
            continue
        if status == 408:  # the client's own code for a read timeout, should post() not have seen it
            raise ServiceUnavailable(f"GROBID at {base} timed out after {timeout:g} s")
        raise PdfCorrupt(f"GROBID at {base} could not process {pdf_path.name} (HTTP {status}): {_snippet(text or '')}")
    raise ServiceUnavailable(f"GROBID at {base} stayed busy (HTTP 503) after {retries + 1} attempts and {waited:g} s of waiting")


def _snippet(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def parse_pdf(
    path: Path,
    *,
    password: str | None = None,
    max_pages: int = 500,
    time_limit: float | None = None,
    url: str | None = None,
) -> Document:
    """Parse a PDF with GROBID (the :class:`~paperpyramid.parsers.Parser` protocol).

    ``time_limit`` is the request timeout (180 s when not given). GROBID cannot open
    encrypted PDFs, so ``password`` is not sent (GROBID then refuses the file: :class:`PdfCorrupt`);
    ``max_pages`` is sent as GROBID's ``end`` page.
    """
    del password  # GROBID takes none
    tei = fetch_tei(Path(path), url=url, timeout=time_limit if time_limit is not None else 180.0, max_pages=max_pages)
    return tei_to_document(tei)
