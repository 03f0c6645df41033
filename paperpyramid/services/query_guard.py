"""Who may use the query service: the bearer token, the Host header, and tokens kept out of logs.

With a token set (``PAPERPYRAMID_SERVE__API_TOKEN``), every route but ``/healthz`` and the page itself
(``/``, which holds no data) needs it: as ``Authorization: Bearer <token>``, or as the
``paperpyramid_token`` cookie, which the page sets from its address's fragment (``/#token=...``:
a browser never sends the fragment, so it reaches no log). A credential in a query string
(``token``, ``access_token``, ``api_key``, ``password``, ...: see :func:`is_credential`) is
refused with 400, since access logs and browser history keep query strings; the access log
redacts one anyway. Tokens are compared in constant time (``hmac.compare_digest``).

The Host header is checked against ``allowed_hosts``: without it, a page on another site whose
name resolves to 127.0.0.1 (DNS rebinding) could read a service bound to this machine.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote, unquote_plus

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_COOKIE = "paperpyramid_token"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: addresses that bind every interface: the service then answers any name it is reached by
_ALL_INTERFACES = ("", "0.0.0.0", "::")
#: what a query parameter that carries a credential is called, at the end of its name
#: (``token``, ``access_token``, ``api_key``, ``x-amz-signature``; not ``budget_tokens``)
_CREDENTIAL = re.compile(r".*(?:token|key|secret|password|passwd|pwd|auth|authorization|credentials?|bearer|jwt|signature)")
#: a ``name=value`` pair of a query string (or of a log line quoting one)
_PAIR = re.compile(r"(^|[?&;#])([^=&;#\s\"?]+)=([^&;#\s\"]*)")


def is_credential(name: str) -> bool:
    """Whether a query parameter called ``name`` (percent-encoded or not) would carry a secret."""
    return _CREDENTIAL.fullmatch(unquote_plus(name).strip().lower().replace("-", "_")) is not None


def require_token(request: Request) -> None:
    """The dependency of every route that reads the corpus: 401 unless the request carries the token."""
    token: str | None = request.app.state.token
    if not token:
        return
    given = _bearer(request.headers.get("authorization", ""))
    if given is None and TOKEN_COOKIE in request.cookies:
        given = unquote(request.cookies[TOKEN_COOKIE])  # the page percent-encodes it
    if given is None or not hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8")):
        raise HTTPException(
            401,
            "a token is required: Authorization: Bearer <token>, or open the page as /#token=<token>",
            headers={"WWW-Authenticate": "Bearer"},
        )


def _bearer(header: str) -> str | None:
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def default_allowed_hosts(served_on: str) -> list[str]:
    """The names a service bound to ``served_on`` answers by default: the loopback names and the
    address itself; any name when it is bound to every interface (it cannot know its names)."""
    address = served_on.strip("[]").lower()
    return ["*"] if address in _ALL_INTERFACES else list(dict.fromkeys([*LOOPBACK_HOSTS, address]))


def host_allowed(host_header: str, allowed: Sequence[str]) -> bool:
    """Whether the Host header names an allowed host: ``*`` allows any, ``*.example.org`` its
    subdomains; the port is ignored, an IPv6 address is written ``[::1]:8000``."""
    host = host_header.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        host = host.split(":")[0]
    for pattern in (entry.strip().strip("[]").lower() for entry in allowed):
        if pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


class RequestGuard:
    """ASGI middleware in front of every route: a Host not in ``allowed_hosts`` (None: not
    checked) and a ``token`` in the query string are refused with 400 before any route runs."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str] | None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = self._problem(scope)
            if problem is not None:
                await JSONResponse({"detail": problem}, status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _problem(self, scope: Scope) -> str | None:
        if self.allowed_hosts is not None:
            host = Headers(scope=scope).get("host", "")
            if not host_allowed(host, self.allowed_hosts):
                return f"this service does not answer to the host {host[:100]!r} (PAPERPYRAMID_SERVE__ALLOWED_HOSTS)"
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        if any(is_credential(name) for name, _ in query):
            return "a token is never taken from a query string (logs keep them): open the page as /#token=<token>, or send Authorization: Bearer <token>"
        return None


class RedactTokens(logging.Filter):
    """Replaces the value of any credential (``token=``, ``access_token=``, ``api_key=``, ...:
    :func:`is_credential`) in a log record's message and arguments (uvicorn's access log writes
    each request's path with its query string)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = self._redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(self._redact(arg) for arg in record.args)
        return True

    def _redact(self, value: Any) -> Any:
        return _PAIR.sub(_redacted, value) if isinstance(value, str) else value


def _redacted(pair: re.Match[str]) -> str:
    before, name, value = pair.groups()
    return f"{before}{name}={'[redacted]' if is_credential(name) else value}"
