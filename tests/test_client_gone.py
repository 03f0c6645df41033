"""No LLM strategy starts another model call once nobody waits for its answer.

Two ways in. Through ``find`` run inside :func:`~paperpyramid.asking.trace.cancelled_when` (what
the service does): the event is set while a call is in flight and the strategy must raise
:class:`~paperpyramid.asking.trace.Cancelled` before the next. Through the ``/ask`` service over
real HTTP, behind a proxy that, as a network often does, lets the service hear that its client
has gone only when it next writes: the client hangs up while a slow model call is in flight,
the service must notice during the call (its stream writes while it waits), and once the call
is answered no further call may start. Every strategy the service offers is asked; every wait
is bounded and the scripted model on 127.0.0.1 counts the calls.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlparse

import pytest
from pydantic import BaseModel

from paperpyramid.asking.strategies import STRATEGIES, find
from paperpyramid.asking.trace import Limits, Step
from paperpyramid.cancel import Cancelled, cancelled_when
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.llm import get_llm
from paperpyramid.services.query import create_app
from tests.asgi_server import serve
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_distill import make_corpus, paper
from tests.test_pyramid_agent import ABSTRACT, CONCEPT, INSIGHTS, add_pyramid

QUESTION = "how large did the shark colony grow"
#: the call during which the client leaves: every strategy has made one whole step before it
LEAVES_DURING = 2
#: how soon the service must hear that its client has gone, while a model call runs
HEARD_SECONDS = 4.0
#: how long the model takes to answer that call, at most (until the test releases it)
HOLD_SECONDS = HEARD_SECONDS + 1.0
#: how long after the held call is answered a further call would have started
GRACE_SECONDS = 1.0
_NUMBERED = re.compile(r'<document (?:passage|candidate)="(\d+)"[^>]*>\n(.*?)\n</document>', re.S)


class Model:
    """Plays every strategy (a walk moves on, a round finds a fact pointing somewhere new, the
    pyramid agent keeps a candidate and searches on, every passage is relevant) and counts the
    calls; ``on_call(n)`` runs as call ``n`` arrives, and calls from ``hold_from`` on wait
    until ``release()`` (at most HOLD_SECONDS)."""

    def __init__(self, hold_from: int | None = None, on_call: Callable[[int], None] = lambda number: None) -> None:
        self.hold_from = hold_from
        self.on_call = on_call
        self.calls = 0
        self._lock = threading.Lock()
        self._released = threading.Event()

    def release(self) -> None:
        self._released.set()

    def __call__(self, body: dict[str, Any]) -> FakeReply:
        with self._lock:
            self.calls += 1
            number = self.calls
        self.on_call(number)
        if self.hold_from is not None and number >= self.hold_from:
            self._released.wait(HOLD_SECONDS)
        return reply(body, number)


def reply(body: dict[str, Any], number: int) -> FakeReply:
    if "tools" in body:
        return FakeReply(tool_calls=[{"name": "next_section", "arguments": {"keep": [1]}}])
    schema = json.dumps(body.get("response_format", {}))
    shown = _NUMBERED.findall(body["messages"][1]["content"])
    if '"facts"' in schema:
        sentence = shown[0][1].split(". ")[0] + "."
        fact = {
            "fact": sentence,
            "relevance": "it counts",
            "next_source": f"survey {number + 1}",
            "expected_info": "nests",
            "passages": [1],
        }
        return FakeReply(json.dumps({"facts": [fact]}))
    if '"keep"' in schema:
        return FakeReply(json.dumps({"keep": [1], "notes": "", "queries": [f"heron nests station {number}"], "enough": False}))
    if '"queries"' in schema:
        return FakeReply(json.dumps({"queries": ["shark colony size", "nests near the station"]}))
    if '"relevant"' in schema:
        return FakeReply(json.dumps({"relevant": True}))
    if '"claims"' in schema:
        return FakeReply(json.dumps({"claims": []}))
    raise AssertionError(f"unexpected request: {schema[:200]}")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two papers, one of them distilled (so the pyramid agent has levels to search)."""
    db = tmp_path_factory.mktemp("gone") / "corpus.sqlite"
    ids = make_corpus(db, {"alpha": paper("alpha", pages=4), "beta": paper("beta", pages=6)})
    add_pyramid(db, ids["alpha"], INSIGHTS, [(CONCEPT, [2, 3])], ABSTRACT)
    return db


# 1. the strategies themselves


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_strategy_starts_no_model_call_once_nobody_waits(corpus: Path, strategy: str) -> None:
    gone = threading.Event()
    model = Model(on_call=lambda number: gone.set() if number == LEAVES_DURING else None)
    steps: list[Step] = []
    conn = db_sqlite.connect(corpus, read_only=True)
    try:
        with FakeLLMServer(model) as fake, cancelled_when(gone), pytest.raises(Cancelled):
            find(conn, strategy, QUESTION, get_llm(llm_settings(fake.base_url)), limits=Limits(max_steps=6), on_step=steps.append)
    finally:
        conn.close()
    if strategy == "multiquery":
        # the judgments run four at a time: those already started may finish, no other starts
        candidates = int(re.search(r"(\d+) candidates", next(step.detail for step in steps if step.name == "search")).group(1))  # type: ignore[union-attr]
        assert candidates > 5 and model.calls <= 1 + 4, f"{model.calls} calls for {candidates} candidates"
    else:
        assert model.calls == LEAVES_DURING, f"{model.calls} model calls: {strategy} went on once nobody waited"


# 2. the service, with a client that hangs up


class LateHearingProxy:
    """A TCP proxy on 127.0.0.1 for one connection to ``upstream`` (``host:port``). When its
    client leaves it closes nothing upstream; only when the service next sends something does
    it close the service's connection instead of forwarding: the service hears of the client's
    leaving when it writes, as behind a network that keeps a dead connection open."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.rsplit(":", 1)
        self._upstream = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(20)
        self.port = self._listener.getsockname()[1]
        self.client_gone = threading.Event()
        self.upstream_closed = threading.Event()

    def __enter__(self) -> LateHearingProxy:
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._listener.close()

    def _run(self) -> None:
        client, _ = self._listener.accept()
        upstream = socket.create_connection(self._upstream, timeout=20)
        client.settimeout(20)
        threading.Thread(target=self._to_upstream, args=(client, upstream), daemon=True).start()
        try:
            while data := upstream.recv(65536):
                if self.client_gone.is_set():
                    break
                try:
                    client.sendall(data)
                except OSError:
                    break
        except OSError:
            pass
        finally:
            upstream.close()
            self.upstream_closed.set()
            client.close()

    def _to_upstream(self, client: socket.socket, upstream: socket.socket) -> None:
        try:
            while data := client.recv(65536):
                upstream.sendall(data)
        except OSError:
            pass
        self.client_gone.set()  # and nothing upstream hears of it


@pytest.fixture
def service(corpus: Path) -> Iterator[tuple[FakeLLMServer, LateHearingProxy]]:
    """The scripted model (its handler set by the test), the service over ``corpus`` and the
    proxy in front of it."""
    with (
        FakeLLMServer(lambda body: FakeReply("{}")) as fake,
        serve(create_app(corpus, llm=get_llm(llm_settings(fake.base_url)))) as url,
        LateHearingProxy(urlparse(url).netloc) as proxy,
    ):
        yield fake, proxy


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_no_strategy_calls_the_model_after_its_client_has_gone(service: tuple[FakeLLMServer, LateHearingProxy], strategy: str) -> None:
    """The probe: a client that hung up at 2 s saw a walk start a model call 8 s later."""
    fake, proxy = service
    model = Model(hold_from=LEAVES_DURING)
    fake.handler = model
    try:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as client:
            query = urlencode({"q": QUESTION, "strategy": strategy, "max_steps": 6})
            client.sendall(f"GET /ask?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            assert wait_for(lambda: model.calls >= LEAVES_DURING, 10), f"{strategy} never made call {LEAVES_DURING}"
        # the client has gone while the call is in flight; the service hears it when it next writes
        heard = proxy.upstream_closed.wait(HEARD_SECONDS)
        time.sleep(0.5)  # the service marks the ask gone as it hears
        calls = model.calls
    finally:
        model.release()
    time.sleep(GRACE_SECONDS)  # past the moment the next call would start
    assert model.calls == calls, f"{model.calls - calls} model calls after the client had gone ({strategy})"
    assert heard, f"the service wrote nothing to the stream for {HEARD_SECONDS:g} s while a model call ran"
    assert len(fake.requests) == model.calls


class _Reply(BaseModel):
    text: str


def test_the_model_client_sends_no_retry_once_nobody_waits() -> None:
    # the first request fails with a 503 (a retry would follow); the client leaves while it is
    # in flight: the retry, a repair turn or a fallback request is never sent
    gone = threading.Event()
    requests: list[dict[str, Any]] = []

    def unavailable(body: dict[str, Any]) -> FakeReply:
        requests.append(body)
        gone.set()
        return FakeReply(status=503, error="overloaded")

    with FakeLLMServer(unavailable) as server:
        llm = get_llm(llm_settings(server.base_url, retries=3))
        with cancelled_when(gone), pytest.raises(Cancelled):
            llm.complete([{"role": "user", "content": "hello"}], _Reply)
    assert len(requests) == 1
