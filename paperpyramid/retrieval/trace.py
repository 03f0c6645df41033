"""A step of a retrieval strategy or an answer, with what it cost: what strategies report as
they go (streamed to the CLI and the service) and sum into an answer's token usage."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Step:
    """One step of answering, with what it cost."""

    name: str
    detail: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
