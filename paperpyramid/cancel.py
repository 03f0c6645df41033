"""Nobody waits any more: a thread's cancellation, seen by the strategies and by the model clients.

The service runs an ask inside :func:`cancelled_when` with an event it sets when the client has
gone. :func:`raise_if_cancelled` raises :class:`Cancelled` once that event is set: the strategies
call it (through :meth:`~paperpyramid.asking.trace.Tracker.before_call`) before each model call,
and the two LLM clients before each request they send, so that no retry, repair turn or
fallback request starts after the client has gone. Outside the block nothing is ever cancelled.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

__all__ = ["Cancelled", "cancelled_when", "current_event", "raise_if_cancelled"]

_scope = threading.local()


class Cancelled(Exception):
    """Nobody waits for the result any more: raised immediately before a model request."""


@contextlib.contextmanager
def cancelled_when(gone: threading.Event) -> Iterator[None]:
    """Inside the block, once ``gone`` is set, this thread starts no further model request."""
    before = getattr(_scope, "gone", None)
    _scope.gone = gone
    try:
        yield
    finally:
        _scope.gone = before


def current_event() -> threading.Event | None:
    """The event of the :func:`cancelled_when` block this thread is in, if any (a strategy's
    worker threads are handed it: thread-local state does not cross into a pool)."""
    return getattr(_scope, "gone", None)


def raise_if_cancelled(gone: threading.Event | None = None) -> None:
    """Raises :class:`Cancelled` once ``gone`` (by default this thread's event) is set."""
    event = gone if gone is not None else current_event()
    if event is not None and event.is_set():
        raise Cancelled("nobody waits for the answer any more: no further model call")
