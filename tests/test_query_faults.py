"""The query service under hostile input, faults and load (issue 20, items 1, 2, 3 and 8).

An ask whose client has gone stops at its next step; asks at once and their caps are bounded.
A hostile or damaged corpus file is refused in one line or answers 503, never hangs and never
shows a traceback; ``/healthz`` reads no table's rows; SIGTERM stops the server in seconds.
The token works for the page without a query string, never reaches the log, and guards the docs;
the Host header is checked. Snapshot values are bounded in size; responses come in pages and
long texts are cut with a marker. Every server here is started and stopped inside its test, on
127.0.0.1, and every wait is bounded.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from paperpyramid.corpus import Corpus
from paperpyramid.db.snapshot import SnapshotError
from paperpyramid.db.sqlite import OperationalError, sqlite3
from paperpyramid.document import Block, Document, Section
from paperpyramid.errors import NotACorpus
from paperpyramid.llm import get_llm
from paperpyramid.services.query import create_app
from paperpyramid.settings import ServeSettings, Settings, SnapshotSettings
from tests.asgi_server import serve
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_ask import answering
from tests.test_bad_corpora import damage
from tests.test_distill import make_corpus, paper
from tests.test_snapshot_hostile import ARTICLE_COLUMNS, ENDLESS, hostile_copy, publish_database, watchdog

QUESTION = "how large did the shark colony grow"
TOKEN = "s3cret-token-0123456789"


def long_paper(name: str) -> Document:
    """One section of three long paragraphs: three passages in one section."""
    paragraphs = [" ".join(f"{animal}{number} nests near {name}." for number in range(60)) for animal in ("frog", "shark", "heron")]
    section = Section(title="Results", number="1", blocks=[Block(text, 1) for text in paragraphs], page_start=1, page_end=1)
    return Document(title=f"Colonies of {name}", pages=1, sections=[section], provenance={"sections": "test"})


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "corpus.sqlite"
    make_corpus(path, {"alpha": paper("alpha", pages=12), "beta": paper("beta", pages=3), "gamma": long_paper("gamma")})
    return path


@pytest.fixture
def corpus_file(corpus_path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "corpus.sqlite"
    shutil.copy(corpus_path, copy)
    return copy


class Gate:
    """A scripted model that answers the first ``free`` calls at once and holds the others until
    ``open()`` (at most 20 s, so a failing test never hangs): walks on with ``next_section`` where
    it is offered tools, else answers as ``tests.test_ask.answering``."""

    def __init__(self, free: int = 0) -> None:
        self.free = free
        self.calls = 0
        self._lock = threading.Lock()
        self._open = threading.Event()

    def open(self) -> None:
        self._open.set()

    def __call__(self, body: dict[str, Any]) -> FakeReply:
        with self._lock:
            self.calls += 1
            held = self.calls > self.free
        if held:
            self._open.wait(20)
        if "tools" in body:
            return FakeReply(tool_calls=[{"name": "next_section", "arguments": {"keep": []}}])
        return answering(body)


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


# 1. asks: a client that leaves, too many at once, caps


@pytest.mark.slow
def test_an_ask_stops_at_its_next_step_once_its_client_has_gone(corpus_file: Path) -> None:
    """The probe: 20 clients that left after 1 s caused 392 model calls over 4 minutes. Here the
    walk's first move is answered, the second is held while the client disconnects; once it is
    answered the walk must stop there, not make its remaining 6 moves and the answer."""
    gate = Gate(free=1)
    with FakeLLMServer(gate) as fake, serve(create_app(corpus_file, llm=get_llm(llm_settings(fake.base_url)))) as url:
        with httpx.Client(timeout=10) as client, client.stream("GET", f"{url}/ask", params={"q": QUESTION, "strategy": "walk"}) as response:
            assert response.status_code == 200
            assert wait_for(lambda: len(fake.requests) >= 2, 10), "the walk never made its second move"
        # the client has gone (the connection is closed) while the second move is in flight
        time.sleep(1.0)  # uvicorn hears the disconnect at once; this leaves room for a loaded machine
        gate.open()
        walked_on = wait_for(lambda: len(fake.requests) > 2, 3)
        assert not walked_on, f"{len(fake.requests)} model calls: the walk went on after its client had gone"


def test_concurrent_asks_are_bounded_and_the_next_is_told_when_to_retry(corpus_file: Path) -> None:
    gate = Gate()
    settings = ServeSettings(max_concurrent_asks=2)
    with (
        FakeLLMServer(gate) as fake,
        serve(create_app(corpus_file, llm=get_llm(llm_settings(fake.base_url)), settings=settings)) as url,
        httpx.Client(timeout=20) as client,
    ):
        params = {"q": QUESTION, "strategy": "bm25"}
        with client.stream("GET", f"{url}/ask", params=params) as first, client.stream("GET", f"{url}/ask", params=params) as second:
            assert first.status_code == second.status_code == 200
            assert wait_for(lambda: len(fake.requests) == 2, 10)  # both are waiting for the model
            refused = client.get(f"{url}/ask", params=params)
            assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
            assert "2 questions are being answered already" in refused.json()["detail"]
            gate.open()
            assert all("event: answer" in response.read().decode() for response in (first, second))
        assert wait_for(lambda: client.get(f"{url}/ask", params=params).status_code == 200, 10)  # the slots are free again
    assert len(fake.requests) == 3  # the refused ask cost nothing


def test_an_asks_steps_and_budgets_are_capped_by_the_service(corpus_file: Path) -> None:
    """A caller may no longer ask for max_steps=50 and max_llm_tokens=1,000,000 (the defaults cap
    them), and a service can lower the caps; nothing is asked of the model when refused."""
    with FakeLLMServer(answering) as fake:
        llm = get_llm(llm_settings(fake.base_url))
        default = TestClient(create_app(corpus_file, llm=llm))
        for name, value in (("max_steps", 50), ("max_llm_tokens", 1_000_000), ("budget_tokens", 100_000)):
            response = default.get("/ask", params={"q": QUESTION, name: value})
            assert response.status_code == 422 and f"{name} may be at most" in response.json()["detail"], (name, response.text)
        strict = TestClient(create_app(corpus_file, llm=llm, settings=ServeSettings(max_steps=2, max_llm_tokens=1000)))
        response = strict.get("/ask", params={"q": QUESTION, "strategy": "walk", "max_steps": 3})
        assert response.status_code == 422 and "PAPERPYRAMID_SERVE__MAX_STEPS" in response.json()["detail"]
        assert fake.requests == []
        assert strict.get("/ask", params={"q": QUESTION, "strategy": "bm25"}).status_code == 200  # the defaults fit under the caps


# 2. hostile and damaged corpus files, shutdown


@pytest.fixture
def hostile_file(corpus_path: Path, tmp_path: Path) -> Path:
    """The probe's file: a plain .sqlite whose articles is a view with an endless recursive CTE."""
    return hostile_copy(corpus_path, tmp_path / "hostile.sqlite", "DROP TABLE articles",
                        f"CREATE VIEW articles AS {ENDLESS} SELECT {ARTICLE_COLUMNS} FROM r")  # fmt: skip


def test_a_local_corpus_file_without_the_corpus_schema_is_refused_on_open(hostile_file: Path) -> None:
    started = time.monotonic()
    with pytest.raises(NotACorpus, match=f"{hostile_file} is not a paperpyramid corpus: articles is a view, not a table"):
        Corpus.open(hostile_file).close()
    with pytest.raises(NotACorpus, match="articles is a view"):
        create_app(hostile_file)
    assert time.monotonic() - started < 5


def test_a_query_on_a_local_corpus_file_is_bounded_in_time(corpus_file: Path) -> None:
    with Corpus.open(corpus_file, query_time_limit=0.3) as corpus:
        timer = watchdog(corpus.conn, 5.0)
        try:
            with pytest.raises(OperationalError, match=r"ran for more than 0.3 s and was interrupted"):
                corpus.conn.execute(f"{ENDLESS} SELECT count(*) FROM r").fetchone()
        finally:
            timer.cancel()


def test_healthz_reads_no_rows_and_a_damaged_or_missing_corpus_is_a_503_line(corpus_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(corpus_file)
    shutil.copy(corpus_file, corpus_file.with_name("good.sqlite"))
    damage(corpus_file.with_name("good.sqlite"), corpus_file)  # the articles' pages overwritten after the service started
    client = TestClient(app, raise_server_exceptions=False)
    assert client.get("/healthz").json() == {"status": "ok"}  # the schema is intact and no row is read
    response = client.get("/articles")
    assert response.status_code == 503, response.text
    detail = response.json()["detail"]
    assert detail.startswith("the corpus cannot be read:") and "malformed" in detail and "\n" not in detail
    assert str(corpus_file.parent) not in detail  # the file's name, not where it lives
    corpus_file.unlink()
    for url in ("/healthz", "/articles", "/sections/x/contexts"):
        response = client.get(url)
        assert response.status_code == 503 and response.json()["detail"] == "the corpus is unavailable: no corpus at corpus.sqlite", url
    assert not [record for record in caplog.records if record.exc_info], "a traceback was logged"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cli(*args: str) -> list[str]:
    command = shutil.which("paperpyramid", path=str(Path(sys.executable).parent))
    assert command is not None
    return [command, *args]


@pytest.fixture
def served(corpus_file: Path) -> Iterator[Callable[..., tuple[subprocess.Popen[str], str]]]:
    """``paperpyramid serve`` as a user runs it, with extra environment; killed at the end if still running."""
    started: list[subprocess.Popen[str]] = []

    def start(**env: str) -> tuple[subprocess.Popen[str], str]:
        port = free_port()
        process = subprocess.Popen(
            cli("serve", "--db", str(corpus_file), "--port", str(port)),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PAPERPYRAMID_LLM__CACHE": "false", **env},
        )
        started.append(process)
        url = f"http://127.0.0.1:{port}"

        def up() -> bool:
            try:
                return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return process.poll() is not None

        assert wait_for(up, 30) and process.poll() is None, "the server did not start"
        return process, url

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def test_serve_refuses_a_hostile_corpus_file_in_one_line(hostile_file: Path) -> None:
    run = subprocess.run(cli("serve", "--db", str(hostile_file), "--port", str(free_port())), capture_output=True, text=True, timeout=30,
                         check=False, env={**os.environ, "COLUMNS": "400"})  # fmt: skip
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 3 and len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert lines[0] == f"error: {hostile_file} is not a paperpyramid corpus: articles is a view, not a table"


@pytest.mark.slow
def test_sigterm_stops_the_server_within_seconds_while_an_ask_waits_on_the_model(served: Any) -> None:
    gate = Gate()
    with FakeLLMServer(gate) as fake:
        try:
            process, url = served(
                PAPERPYRAMID_LLM__BACKEND="openai",
                OPENAI_BASE_URL=fake.base_url,
                OPENAI_API_KEY="unused",
                PAPERPYRAMID_LLM__MODEL="fake-model",
            )
            with (
                httpx.Client(timeout=20) as client,
                client.stream("GET", f"{url}/ask", params={"q": QUESTION, "strategy": "bm25"}) as response,
            ):
                assert response.status_code == 200
                assert wait_for(lambda: len(fake.requests) == 1, 10)  # the answer's model call is held
                process.send_signal(signal.SIGTERM)
                stopped = time.monotonic()
                stream = response.read().decode()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pytest.fail("the server was still running 10 s after SIGTERM")
            assert time.monotonic() - stopped < 10
            assert "event: error" in stream and "the service is stopping" in stream  # the client is told, not left waiting
        finally:
            gate.open()


# 3. the token and the Host header


def test_the_page_loads_and_its_requests_carry_the_token_without_a_query_string(corpus_file: Path) -> None:
    client = TestClient(create_app(corpus_file, token=TOKEN))
    page = client.get("/")
    assert page.status_code == 200 and "location.hash" in page.text and TOKEN not in page.text  # the page holds no data
    refused = client.get("/", params={"token": TOKEN})
    assert refused.status_code == 400 and "never taken from a query string" in refused.json()["detail"]
    assert client.get("/articles", params={"token": TOKEN}).status_code == 400
    assert client.get("/articles", headers={"Cookie": f"paperpyramid_token={TOKEN}"}).status_code == 200  # what the page sets from /#token=
    assert client.get("/articles", headers={"Cookie": "paperpyramid_token=s3cret"}).status_code == 401
    assert client.get("/articles", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert (
        client.get("/articles", headers={"Authorization": "Bearer é-not-ascii".encode("latin-1")}).status_code == 401
    )  # compared as bytes, no 500


def test_the_docs_need_the_token_when_one_is_set(corpus_file: Path) -> None:
    client = TestClient(create_app(corpus_file, token=TOKEN))
    for url in ("/docs", "/redoc", "/openapi.json"):
        assert client.get(url).status_code == 401, url
        assert client.get(url, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200, url
    assert "/ask" in client.get("/openapi.json", headers={"Cookie": f"paperpyramid_token={TOKEN}"}).json()["paths"]
    open_client = TestClient(create_app(corpus_file))
    assert open_client.get("/docs").status_code == 200 and open_client.get("/openapi.json").status_code == 200


def test_the_host_header_is_checked(corpus_file: Path) -> None:
    served_here = create_app(corpus_file, served_on="127.0.0.1")
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        assert TestClient(served_here, base_url=base).get("/healthz").status_code == 200, base
    rebound = TestClient(served_here, base_url="http://rebind.example:8000").get("/healthz")  # DNS rebinding: another site's name
    assert rebound.status_code == 400 and "does not answer to the host" in rebound.json()["detail"]
    named = create_app(corpus_file, settings=ServeSettings(allowed_hosts=["*.example.org"]))
    assert TestClient(named, base_url="http://papers.example.org").get("/healthz").status_code == 200
    assert TestClient(named, base_url="http://127.0.0.1").get("/healthz").status_code == 400
    assert TestClient(create_app(corpus_file, served_on="0.0.0.0"), base_url="http://anything.example").get("/healthz").status_code == 200


def test_a_token_never_reaches_the_log_and_the_default_hosts_are_checked(served: Any) -> None:
    process, url = served(PAPERPYRAMID_SERVE__API_TOKEN=TOKEN)
    assert httpx.get(f"{url}/", params={"token": TOKEN}, timeout=5).status_code == 400
    assert httpx.get(f"{url}/articles", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5).status_code == 200
    assert httpx.get(f"{url}/healthz", headers={"Host": "rebind.example"}, timeout=5).status_code == 400
    process.send_signal(signal.SIGTERM)
    log, _ = process.communicate(timeout=15)
    assert "GET /?token=[redacted]" in log, log
    assert TOKEN not in log


# 8. sizes


def test_a_snapshot_holding_an_oversized_value_is_refused(corpus_path: Path, tmp_path: Path) -> None:
    """The probe's snapshot held a 300 MB context and passed; serving it peaked at 2.7 GB."""
    big = "shark " * 1_000_000  # 6 MB of text in one context: over the default 4 MiB
    database = hostile_copy(corpus_path, tmp_path / "big.sqlite")
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE contexts SET text = ? WHERE rowid = (SELECT min(rowid) FROM contexts)", [big])
    conn.close()
    snapshot = publish_database(tmp_path / "published", database)
    with pytest.raises(
        SnapshotError, match=r"not a paperpyramid snapshot: its table contexts holds a text value of 6,000,000 bytes in text"
    ):
        Corpus.open(snapshot, cache_dir=tmp_path / "cache")
    roomy = Settings(snapshot=SnapshotSettings(max_text_bytes=8 << 20))
    with Corpus.open(snapshot, cache_dir=tmp_path / "cache", settings=roomy) as corpus:  # the limit is a setting
        assert corpus.conn.execute("SELECT max(length(text)) FROM contexts").fetchone()[0] == len(big)
    strict = Settings(snapshot=SnapshotSettings(max_text_bytes=1000))
    with pytest.raises(SnapshotError, match="at most 1,000 are allowed"):  # on reuse from the cache too
        Corpus.open(snapshot, cache_dir=tmp_path / "cache", settings=strict)


def test_serve_refuses_a_local_corpus_file_holding_an_oversized_value(corpus_path: Path, tmp_path: Path) -> None:
    """The same file served as a plain .sqlite: refused at start, in one line, unless the check is off."""
    database = hostile_copy(corpus_path, tmp_path / "big.sqlite")
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE contexts SET text = ? WHERE rowid = (SELECT min(rowid) FROM contexts)", ["shark " * 1_000_000])
    conn.close()
    with pytest.raises(NotACorpus, match=r"big.sqlite is refused: its table contexts holds a text value of 6,000,000 bytes in text"):
        create_app(database)
    run = subprocess.run(cli("serve", "--db", str(database), "--port", str(free_port())), capture_output=True, text=True, timeout=60,
                         check=False, env={**os.environ, "COLUMNS": "400", "PAPERPYRAMID_SERVE__MAX_VALUE_BYTES": "1000"})  # fmt: skip
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 3 and len(lines) == 1, run.stderr
    assert lines[0].endswith("(at most 1,000 are allowed) (PAPERPYRAMID_SERVE__MAX_VALUE_BYTES sets the limit)")
    client = TestClient(create_app(database, settings=ServeSettings(max_value_bytes=None, max_text_chars=1000)))
    assert client.get("/articles").status_code == 200


def test_long_texts_in_responses_are_cut_with_a_marker(corpus_file: Path) -> None:
    with sqlite3.connect(corpus_file) as conn:
        # alpha's first passage: its neighbours are short (without ORDER BY the row was any passage, a long paper's too)
        context_id, section_id = conn.execute(
            "SELECT sc.context_id, sc.section_id FROM sections_contexts AS sc JOIN article_sections AS ars ON ars.section_id = sc.section_id "
            "JOIN articles AS a ON a.id = ars.article_id WHERE a.title = 'Colonies of alpha' ORDER BY ars.position, sc.position LIMIT 1"
        ).fetchone()  # fmt: skip
        # 50,000 characters: under what the read side hands over (db/bounded.py), over the service's 1,000
        conn.execute("UPDATE contexts SET text = ? WHERE id = ?", ["frog " * 10_000, context_id])
    conn.close()
    client = TestClient(create_app(corpus_file, settings=ServeSettings(max_text_chars=1000)))
    for response in (client.get(f"/sections/{section_id}/contexts"), client.get(f"/contexts/{context_id}/parent")):
        assert response.status_code == 200 and len(response.content) < 20_000
        body = response.json()
        rows = body["contexts"] if isinstance(body, dict) else body
        (cut,) = [row for row in rows if row["id"] == context_id]
        assert cut["truncated"] is True and cut["text"].endswith("… [truncated: 49,000 more characters]")
        assert not any(row.get("truncated") for row in rows if row["id"] != context_id)
    with sqlite3.connect(corpus_file) as conn:  # 3 MB: the read side never reads it, a note of its size stands in
        conn.execute("UPDATE contexts SET text = ? WHERE id = ?", ["frog " * 600_000, context_id])
    conn.close()
    body = client.get(f"/sections/{section_id}/contexts").json()
    (row,) = [row for row in (body["contexts"] if isinstance(body, dict) else body) if row["id"] == context_id]
    assert row["text"].startswith("[not shown: 3000000 bytes of stored text")


def test_lists_come_in_pages(corpus_file: Path) -> None:
    client = TestClient(create_app(corpus_file, settings=ServeSettings(page_size=2)))
    first = client.get("/articles")
    assert [row["title"] for row in first.json()] == ["Colonies of alpha", "Colonies of beta"]
    assert first.headers["Link"] == '</articles?offset=2&limit=2>; rel="next"'
    last = client.get("/articles", params={"offset": 2, "limit": 50})  # a limit over the page size is cut to it
    assert [row["title"] for row in last.json()] == ["Colonies of gamma"] and "Link" not in last.headers
    alpha, gamma = first.json()[0]["id"], last.json()[0]["id"]
    outline = client.get(f"/articles/{alpha}/outline", params={"limit": 1})
    assert len(outline.json()) == 1 and "offset=1" in outline.headers["Link"]
    (section,) = client.get(f"/articles/{gamma}/outline").json()
    with Corpus.open(corpus_file) as corpus:
        stored = [context.id for context in corpus.contexts(section["id"])]
    assert len(stored) > 2
    one = client.get(f"/sections/{section['id']}/contexts", params={"limit": 1}).json()
    assert [row["id"] for row in one["contexts"]] == stored[:1] and one["next_offset"] == 1
    paged, offset = [], 0
    for _ in range(len(stored)):  # page by page, as a client follows next_offset
        body = client.get(f"/sections/{section['id']}/contexts", params={"offset": offset}).json()
        paged += [row["id"] for row in body["contexts"]]
        assert len(body["contexts"]) <= 2
        if (offset := body["next_offset"]) is None:
            break
    assert paged == stored
