"""The MCP server over streamable HTTP: the SDK's app at ``/mcp`` behind the bearer token.

With a token (``PAPERPYRAMID_SERVE__API_TOKEN``, as ``paperpyramid serve`` takes it), every request
needs ``Authorization: Bearer <token>``, compared in constant time (``hmac.compare_digest``);
without it the answer is 401. The SDK checks the Host and Origin headers of a server bound to a
loopback address (DNS rebinding), so a page on another site cannot reach it through the browser.
"""

from __future__ import annotations

import hmac
import json

from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

PATH = "/mcp"


class RequireToken:
    """ASGI middleware: 401 for an HTTP request without the bearer token (lifespan passes)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": "a token is required: Authorization: Bearer <token> (PAPERPYRAMID_SERVE__API_TOKEN)"}).encode()
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                (b"content-length", str(len(body)).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})

    def _allowed(self, scope: Scope) -> bool:
        header = next((value for name, value in scope["headers"] if name == b"authorization"), b"")
        scheme, _, given = header.partition(b" ")
        # compared in constant time; a missing or malformed header compares as empty
        return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self.token)


def http_app(server: MCPServer, *, host: str = "127.0.0.1", token: str | None = None) -> ASGIApp:
    """The streamable HTTP app at :data:`PATH`, behind the token when one is given."""
    app: ASGIApp = server.streamable_http_app(streamable_http_path=PATH, host=host)
    return RequireToken(app, token) if token else app


def serve_http(server: MCPServer, *, host: str, port: int, token: str | None) -> None:
    """Serve until interrupted (blocks)."""
    import uvicorn

    uvicorn.run(http_app(server, host=host, token=token), host=host, port=port, log_level="warning")


__all__ = ["PATH", "RequireToken", "http_app", "serve_http"]
