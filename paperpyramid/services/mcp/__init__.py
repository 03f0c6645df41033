"""``paperpyramid mcp``: a read-only MCP server over a corpus, for Claude Desktop, Cursor, VS Code
and any MCP client (see docs/guides/mcp.md).

Tools: search, list_articles, outline, read_section, next_section, previous_section,
context_window, pyramid, citations, cite; each article as a markdown resource; the prompt
``answer_from_corpus``. Over stdio by default, or streamable HTTP on 127.0.0.1 behind the
``serve`` bearer token. Nothing here is imported at package import: the SDK loads on use.
"""

from __future__ import annotations

from pathlib import Path


def run_mcp(db: str, *, http: bool = False, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> None:
    """Serve the corpus at ``db`` over MCP until interrupted: stdio (the client starts this
    process), or with ``http`` streamable HTTP at ``http://host:port/mcp``, where ``token``
    (else none) is required as ``Authorization: Bearer <token>``. The corpus is opened read-only
    first, so a missing or foreign file fails here, before anything is served. Without the SDK
    (``pip install 'paperpyramid[mcp]'``) it raises ``MissingExtra`` naming the install command."""
    from paperpyramid.corpus import Corpus
    from paperpyramid.errors import MissingExtra

    try:
        import mcp  # noqa: F401  (the mcp extra: the official MCP Python SDK)

        if http:
            import uvicorn  # noqa: F401
    except ImportError as exc:
        raise MissingExtra(exc.name or "mcp", "mcp") from exc
    from paperpyramid.services.mcp.server import build_server

    corpus = Corpus.open(Path(db), check_same_thread=False)
    server = build_server(corpus)
    try:
        if http:
            from paperpyramid.services.mcp.streamable import serve_http

            serve_http(server, host=host, port=port, token=token)
        else:
            server.run("stdio")
    finally:
        corpus.close()


__all__ = ["run_mcp"]
