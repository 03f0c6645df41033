"""What the two OpenAI-compatible clients (embeddings/openai.py, llm/openai_llm.py) read the
same way from a failed request: the server's message and its Retry-After."""

from __future__ import annotations

import openai


def server_message(exc: openai.APIStatusError) -> str:
    """The server's own words, on one short line: OpenAI-style ``{"error": {"message": ...}}``,
    FastAPI-style ``{"detail": ...}``, or the raw body."""
    body = exc.body
    if isinstance(body, dict):
        body = body.get("message") or body.get("detail") or body.get("error") or body
    text = " ".join(str(body if body is not None else exc.message).split())
    return text[:300] + ("..." if len(text) > 300 else "")


def retry_after_seconds(exc: openai.APIStatusError) -> float | None:
    """Seconds a 429/503 asks us to wait (``Retry-After`` in seconds; dates are ignored)."""
    value = exc.response.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
