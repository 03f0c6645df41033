"""A wall-clock deadline over a whole HTTP exchange, for the two OpenAI-compatible clients
(llm/openai_llm.py, embeddings/openai.py).

httpx's timeouts are per operation: each read may wait ``timeout`` seconds, so a server that
trickles its status line, its headers or an error body a byte at a time holds a request for
ever. :func:`http_client` gives an httpx client whose connections clamp every connect, read and
write to the time left before the deadline that :func:`deadline` sets for the calling thread;
once it has passed, the operation fails at once with httpx's own timeout error (which the openai
client reports as ``APITimeoutError``). Outside :func:`deadline` the connections behave as
usual. A connection kept alive and reused later reads the deadline of whichever thread uses it.

The clamp sits in httpcore's network backend, which httpx does not expose: the default
transport's pool is given a wrapped backend. Requests that go through a proxy configured from
the environment (their own transports) keep the per-read timeout only.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import time
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import Any

import openai

_local = threading.local()


def _http_libraries() -> tuple[ModuleType, ModuleType]:
    """The httpx and httpcore the installed openai client speaks: ``httpx``/``httpcore`` up to
    openai 2, ``httpx2``/``httpcore2`` from openai 3."""
    for base in openai.DefaultHttpxClient.__mro__:
        top = base.__module__.split(".")[0]
        if top in ("httpx", "httpx2"):
            return importlib.import_module(top), importlib.import_module(top.replace("httpx", "httpcore"))
    raise ImportError(f"openai {openai.__version__}: its HTTP client is neither httpx nor httpx2")


httpx, httpcore = _http_libraries()


@contextlib.contextmanager
def deadline(at: float) -> Iterator[None]:
    """Every HTTP operation this thread runs through an :func:`http_client` inside the block ends
    by ``at`` (a :func:`time.monotonic` time)."""
    before = getattr(_local, "at", None)
    _local.at = at if before is None else min(at, before)
    try:
        yield
    finally:
        _local.at = before


def http_client(**options: Any) -> Any:
    """The openai client's usual httpx client (its limits and redirects), its connections held
    to :func:`deadline`. ``options`` go to ``openai.DefaultHttpxClient``."""
    transport = httpx.HTTPTransport()
    pool = getattr(transport, "_pool", None)
    if pool is not None and hasattr(pool, "_network_backend"):
        pool._network_backend = _Backend(pool._network_backend)
    return openai.DefaultHttpxClient(transport=transport, **options)


def _left(timeout: float | None, late: type[Exception]) -> float | None:
    """``timeout`` cut to the time left before this thread's deadline; ``late`` once it passed."""
    at: float | None = getattr(_local, "at", None)
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise late("the request's deadline passed")
    return left if timeout is None else min(timeout, left)


class _Stream:
    """A connection (httpcore's NetworkStream) whose every operation ends by the deadline."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data: bytes = self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> _Stream:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend:
    """httpcore's NetworkBackend, its connections wrapped in :class:`_Stream`."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner or httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> _Stream:
        connected = self._inner.connect_tcp(host, port, _left(timeout, httpcore.ConnectTimeout), local_address, socket_options)
        return _Stream(connected)

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None) -> _Stream:
        return _Stream(self._inner.connect_unix_socket(path, _left(timeout, httpcore.ConnectTimeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


__all__ = ["deadline", "http_client"]
