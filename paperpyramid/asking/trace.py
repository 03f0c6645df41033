"""What a strategy reports as it goes, and what it hands to the answering model.

A :class:`Step` is one step with what it cost (streamed to the CLI and the service, summed into
an answer's token usage); a :class:`Fact` is a partial fact found on the way (WalkingRAG's),
checked against its passages as an answer's claim is; :class:`Found` is a strategy's result:
the passages, in the order the answering model reads them, the facts its passages support and,
apart, the model's notes they do not. :class:`Tracker` counts a strategy's steps and LLM tokens
against its :class:`Limits` and reports each step, so that every strategy stops the same way.

Nobody may be waiting any more (the service's client has gone): a strategy calls
:meth:`Tracker.before_call` immediately before each model call, which raises
:class:`Cancelled` once the tracker's ``gone`` event is set. A service that cannot hand the
event to the tracker (it is made deep inside ``ask``) runs the ask inside
:func:`~paperpyramid.cancel.cancelled_when`, as :mod:`paperpyramid.http_deadline` sets a thread's
deadline: every tracker that thread makes takes the event, and the model clients check it
before each request they send (retries and repair turns included).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paperpyramid.cancel import current_event, raise_if_cancelled
from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import Usage
from paperpyramid.retrieval import SearchHit


@dataclass(frozen=True, slots=True)
class Step:
    """One step of answering, with what it cost."""

    name: str
    detail: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class Fact:
    """A partial fact read from passages: what it says, how it bears on the question, where
    to look next and what should be found there; ``context_ids`` are the passages it was read
    from (a fact is only as good as its passages: answers cite those, never the fact).
    ``supported`` is True when those passages back ``text`` as they would an answer's claim;
    otherwise it is the model's unverified note and ``reason`` says why."""

    text: str
    relevance: str
    next_source: str = ""
    expected_info: str = ""
    context_ids: tuple[str, ...] = ()
    supported: bool = True
    reason: str = ""


@dataclass(slots=True)
class Found:
    """What a strategy hands to the answering model: ``passages`` in reading order (cut to the
    token budget), the ``facts`` it gathered that their passages support, the ``steps`` it
    took, and apart, the model's ``unverified`` notes: facts their passages do not back (each
    with its reason), never to be shown as findings."""

    passages: list[SearchHit]
    facts: list[Fact] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    unverified: list[Fact] = field(default_factory=list)

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens the steps spent."""
        return sum(step.prompt_tokens for step in self.steps)

    @property
    def completion_tokens(self) -> int:
        """Completion tokens the steps spent."""
        return sum(step.completion_tokens for step in self.steps)


@dataclass(frozen=True, slots=True)
class Limits:
    """How far an LLM-driven strategy may go: at most ``max_steps`` model calls that decide
    where to look (rounds, moves), and at most ``llm_tokens`` tokens (prompt and completion)
    spent on them; whichever runs out first ends the strategy with what it has."""

    max_steps: int = 8
    llm_tokens: int = 30_000


class Tracker:
    """Records a strategy's steps (passing each to ``on_step`` as it ends), says when its
    :class:`Limits` are spent, and stops it once ``gone`` is set (by default, the event of the
    :func:`cancelled_when` block the tracker is made in; None: never)."""

    def __init__(
        self, limits: Limits | None = None, on_step: Callable[[Step], None] | None = None, *, gone: threading.Event | None = None
    ) -> None:
        self.limits = limits or Limits()
        self.steps: list[Step] = []
        self._on_step = on_step
        self._gone: threading.Event | None = gone if gone is not None else current_event()

    def before_call(self) -> None:
        """Raises :class:`Cancelled` once nobody waits for the result; call it immediately before
        each model call (from any thread: a strategy's parallel calls share its tracker)."""
        if self._gone is not None:
            raise_if_cancelled(self._gone)

    def record(self, step: Step) -> None:
        self.steps.append(step)
        if self._on_step is not None:
            self._on_step(step)

    @property
    def tokens(self) -> int:
        return sum(step.prompt_tokens + step.completion_tokens for step in self.steps)

    def spent(self) -> str | None:
        """Why the strategy must stop now (``"token budget spent (31,200 of 30,000)"``), or None."""
        if self.tokens >= self.limits.llm_tokens:
            return f"token budget spent ({self.tokens:,} of {self.limits.llm_tokens:,})"
        return None

    def stop_reason(self, steps_taken: int) -> str | None:
        """Why a strategy that has taken ``steps_taken`` moves or rounds must stop before the
        next: its tokens are spent (:meth:`spent`), or its step limit is reached; else None.
        Raises :class:`Cancelled` once nobody waits (:meth:`before_call`)."""
        self.before_call()
        spent = self.spent()
        if spent is None and steps_taken >= self.limits.max_steps:
            return f"step limit {self.limits.max_steps} reached"
        return spent


def reply_tokens(reply: Any) -> tuple[int, int]:
    """(prompt, completion) tokens an :class:`~paperpyramid.llm.LLMReply` cost this time: none
    when it came from the cache."""
    return (0, 0) if reply.cached else (reply.usage.prompt_tokens, reply.usage.completion_tokens)


def error_tokens(error: LLMOutputError) -> tuple[int, int]:
    """(prompt, completion) tokens the failed attempts behind ``error`` cost (none when it
    carries no usage)."""
    usage = error.usage
    return (usage.prompt_tokens, usage.completion_tokens) if isinstance(usage, Usage) else (0, 0)
