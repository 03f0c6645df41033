"""A stand-in GROBID server on 127.0.0.1 that answers with recorded TEI.

It speaks the two endpoints paperpyramid uses: ``GET /api/isalive`` and
``POST /api/processFulltextDocument`` (multipart form). A :class:`Scenario` says how to
answer: some 503s first (GROBID's back-pressure), a delay longer than the client's
timeout, or a 500 with GROBID's error text. The form fields of every POST are recorded
so tests can check what the client asked for.
"""

from __future__ import annotations

import email.parser
import email.policy
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Scenario:
    tei: bytes = b""
    busy_first: int = 0  # answer 503 this many times before the TEI
    delay: float = 0.0  # seconds to wait before answering a POST
    error_status: int | None = None  # answer this status with error_body instead of the TEI
    error_body: bytes = b"[GENERAL] An exception occurred while running Grobid: PDF parsing failed"
    #: every POST's form fields, name -> values (multi-valued: teiCoordinates is sent once per element)
    requests: list[dict[str, list[str]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _form_fields(content_type: str, body: bytes) -> dict[str, list[str]]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    fields: dict[str, list[str]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        payload = part.get_payload(decode=True)
        value = "<file>" if part.get_filename() else (payload or b"").decode("utf-8", "replace")
        fields.setdefault(name, []).append(value)
    return fields


def _handler(scenario: Scenario) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
            pass

        def answer(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                pass

        def do_GET(self) -> None:
            if self.path == "/api/isalive":
                self.answer(200, b"true")
            else:
                self.answer(404, b"not found")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            if self.path != "/api/processFulltextDocument":
                self.answer(404, b"not found")
                return
            with scenario.lock:
                scenario.requests.append(_form_fields(self.headers.get("Content-Type", ""), body))
                busy = scenario.busy_first > 0
                if busy:
                    scenario.busy_first -= 1
            if busy:
                self.answer(503, b"")
                return
            if scenario.delay:
                time.sleep(scenario.delay)
            if scenario.error_status is not None:
                self.answer(scenario.error_status, scenario.error_body)
                return
            self.answer(200, scenario.tei, "application/xml")

    return Handler


@contextmanager
def grobid_server(scenario: Scenario) -> Iterator[str]:
    """Serve ``scenario`` on an OS-chosen port of 127.0.0.1; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(scenario))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
