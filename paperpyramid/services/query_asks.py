"""The asks a query service is answering: at most so many at once, each stopped once nobody waits.

An ask runs in a thread of its own (strategies and model calls block) and hands its events to
its response (server-sent events) through a queue on the event loop. When the response ends
for any reason but the answer (the client disconnected, the server is stopping), the ask is
marked gone. From then on its strategy starts no model call (each checks immediately before
one, :func:`~paperpyramid.asking.trace.cancelled_when`) and its next step raises
:class:`AskCancelled` where the step is reported, so a client that leaves costs at most the
model calls already in flight. A client that has gone is often heard of only when the stream
next writes to it, so a quiet stream writes a comment every :data:`HEARTBEAT_SECONDS`: it is
noticed while a long model call runs, before the next one would start. A slot is held until
the ask's thread ends, so the bound counts the work really running.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from paperpyramid.asking.trace import Step
from paperpyramid.cancel import Cancelled, cancelled_when
from paperpyramid.db.sqlite import DatabaseError
from paperpyramid.errors import PaperPyramidError

log = logging.getLogger(__name__)

Event = tuple[str, dict[str, Any]]
#: what an ask does, given the callback its steps are reported to; returns the answer's JSON
Work = Callable[[Callable[[Step], None]], dict[str, Any]]
#: seconds of silence after which the stream sends a comment: proxies keep a quiet stream open,
#: and a client that has gone is noticed within about this long, even while a model call runs
HEARTBEAT_SECONDS = 2.0


class AskCancelled(Cancelled):
    """Raised in an ask's thread, at its next step, once nobody waits for its answer."""


class _Ask:
    def __init__(self, loop: asyncio.AbstractEventLoop, bound: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.loop = loop
        self.bound = bound
        self.events: asyncio.Queue[Event | None] = asyncio.Queue()
        self.gone = threading.Event()

    def put(self, event: Event | None) -> None:
        with contextlib.suppress(RuntimeError):  # the event loop has closed: the server stopped, nobody reads this stream
            self.loop.call_soon_threadsafe(self.events.put_nowait, event)

    def on_step(self, step: Step) -> None:
        if self.gone.is_set():
            raise AskCancelled
        self.put(("step", self.bound(step_json(step))))


class Asks:
    """The asks running in one service, at most ``limit`` at once; ``bound`` shapes each step's
    JSON before it is sent (cutting long texts)."""

    def __init__(self, limit: int, bound: Callable[[dict[str, Any]], dict[str, Any]] = lambda data: data) -> None:
        self.limit = limit
        self._bound = bound
        self._slots = threading.BoundedSemaphore(limit)
        self._running: set[_Ask] = set()
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        with self._lock:
            return len(self._running)

    def start(self, work: Work) -> StreamingResponse | None:
        """Start ``work`` in a thread and return its event stream (call from the event loop);
        None when ``limit`` asks are running already."""
        if not self._slots.acquire(blocking=False):
            return None
        ask = _Ask(asyncio.get_running_loop(), self._bound)
        with self._lock:
            self._running.add(ask)
        threading.Thread(target=self._answer, args=(ask, work), name="ask", daemon=True).start()
        return _EventStream(ask)

    def stop_all(self, reason: str) -> None:
        """End every ask's stream now with ``reason`` as an error event; each ask stops before its
        next model call or at its next step."""
        with self._lock:
            running = list(self._running)
        for ask in running:
            ask.gone.set()
            ask.put(("error", {"error": reason}))
            ask.put(None)

    def _answer(self, ask: _Ask, work: Work) -> None:
        try:
            with cancelled_when(ask.gone):
                ask.put(("answer", work(ask.on_step)))
        except Cancelled:
            log.info("an ask stopped: nobody waits for its answer")
        except (PaperPyramidError, ValueError, DatabaseError) as exc:
            ask.put(("error", {"error": str(exc)}))
        except Exception as exc:  # a bug: logged with its traceback, and said on the stream rather than leave the page waiting
            log.exception("an ask failed")
            ask.put(("error", {"error": f"{type(exc).__name__}: {exc}"}))
        finally:
            ask.put(None)
            with self._lock:
                self._running.discard(ask)
            self._slots.release()


class _EventStream(StreamingResponse):
    """An ask's events as server-sent events; marks the ask gone whenever the response ends."""

    def __init__(self, ask: _Ask) -> None:
        super().__init__(_events(ask), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
        self._ask = ask

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._ask.gone.set()  # the client disconnected, the server is stopping, or the answer is out


async def _events(ask: _Ask) -> AsyncIterator[str]:
    while True:
        try:
            event = await asyncio.wait_for(ask.events.get(), HEARTBEAT_SECONDS)
        except TimeoutError:
            yield ": working\n\n"  # a comment line, which clients ignore
            continue
        if event is None:
            return
        name, data = event
        yield f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def step_json(step: Step) -> dict[str, Any]:
    return {
        "name": step.name,
        "detail": step.detail,
        "prompt_tokens": step.prompt_tokens,
        "completion_tokens": step.completion_tokens,
        "seconds": round(step.seconds, 3),
    }
