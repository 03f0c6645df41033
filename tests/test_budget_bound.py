"""A corpus with a giant row (a context of 48 MB, as a file this machine did not write may hold,
and one of 200,000 characters) read by every entry point: no passage handed to a model or a
caller is longer than a passage may be, the passages of an answer add up to at most
``budget_tokens`` by the project's count, whatever the strategy, and one request's memory does
not grow by the size of the row (SQLite measures a value without reading it).

The small papers of :mod:`tests.test_distill` are embedded by MiniLM, then two contexts are
rewritten in place with SQL, their stored token counts left as they were (wrong)."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from typer.testing import CliRunner

from paperpyramid.asking.answer import STRATEGIES
from paperpyramid.asking.trace import Limits
from paperpyramid.cli import app
from paperpyramid.corpus import Corpus
from paperpyramid.db.bounded import PASSAGE_CHARS
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, store_pyramid
from paperpyramid.db.writer import connect
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.ingestion.embed import embed_corpus
from paperpyramid.llm import get_llm
from paperpyramid.retrieval import bm25
from paperpyramid.retrieval.api import MODES
from paperpyramid.retrieval.parent import cut_to_budget
from paperpyramid.retrieval.passages import load_hits
from paperpyramid.retrieval.sections import section_passages
from paperpyramid.services.mcp.server import build_server
from paperpyramid.services.query import create_app
from paperpyramid.settings import ServeSettings
from paperpyramid.tokens import CHARS_PER_TOKEN, budget_cost, cut_to_cost
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_distill import make_corpus, paper

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "how large did the shark colony of alpha grow"
GIANT_BYTES = 48_000_000
MID_CHARS = 200_000
BUDGET = 1500
#: a passage cut where a passage may end: its characters and the mark
LONGEST = PASSAGE_CHARS + 1
_PASSAGE = re.compile(r'<document passage="(\d+)" source="([^"]*)">\n(.*?)\n</document>', re.S)
_ANY_DOCUMENT = re.compile(r"<document[^>]*>\n(.*?)\n</document>", re.S)


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """The corpus, the id of the 48 MB context (alpha, p. 2) and of the 200,000-character one (beta, p. 2)."""
    db = tmp_path_factory.mktemp("budget-bound") / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=4), "beta": paper("beta", pages=4)})
    embed_corpus(db, MiniLM())
    with sqlite3.connect(db) as conn:
        ids = []
        for name, size in (("alpha", GIANT_BYTES), ("beta", MID_CHARS)):
            context_id, text = conn.execute("SELECT id, text FROM contexts WHERE text LIKE ?", [f"The shark colony of {name} %"]).fetchone()
            conn.execute("UPDATE contexts SET text = ? WHERE id = ?", [(text + " ") * (size // (len(text) + 1)), context_id])
            ids.append(context_id)
    return db, ids[0], ids[1]


def test_retrieval_hands_over_bounded_passages(corpus_file: tuple[Path, str, str]) -> None:
    db, giant, mid = corpus_file
    with Corpus.open(db) as corpus:
        found = {hit.context_id: hit for hit in corpus.retrieve(QUESTION, mode="bm25", k=10)}
        shown = re.fullmatch(r"\[not shown: (\d+) bytes of stored text, more than a passage may hold\]", found[giant].text)
        assert shown and int(shown.group(1)) > 0.99 * GIANT_BYTES and found[giant].num_tokens == budget_cost(found[giant].text)
        assert len(found[mid].text) == LONGEST and found[mid].text.endswith("…")
        assert found[mid].num_tokens == budget_cost(found[mid].text) > BUDGET  # recounted: the stored count was for one sentence
        for mode in MODES:
            whole = corpus.retrieve(QUESTION, mode=mode, k=10)
            assert whole and max(len(hit.text) for hit in whole) <= LONGEST, mode
            cut = corpus.retrieve(QUESTION, mode=mode, k=10, budget_tokens=BUDGET)
            assert cut and sum(budget_cost(hit.text) for hit in cut) <= BUDGET, mode
            assert sum(hit.num_tokens for hit in cut) <= BUDGET, mode
        assert corpus.context(giant).text.startswith("[not shown: ") and len(corpus.context(mid).text) == LONGEST
        assert max(len(row.text) for row in corpus.parent_contexts(giant, 3, 3)) <= LONGEST
        assert max(len(row.text) for row in corpus.contexts(corpus.context(mid).section_id)) <= LONGEST


def test_a_connection_of_an_older_sqlite_gets_bounded_passages_too(corpus_file: tuple[Path, str, str]) -> None:
    """Python's own sqlite3 here is older than ``octet_length`` (3.43): SQLite then measures a value
    by reading it, but what reaches Python is bounded all the same."""
    db, giant, mid = corpus_file
    with sqlite3.connect(db) as conn:
        found = {hit.context_id: hit for hit in bm25.search(conn, QUESTION, 10)}
        (section,) = {hit.citation.section_id for hit in load_hits(conn, [(mid, 1.0)])}
        passages = section_passages(conn, section)
    assert found[giant].text.startswith("[not shown: ") and len(found[mid].text) == LONGEST
    assert [len(hit.text) for hit in passages] == [LONGEST]


def test_a_passage_larger_than_the_budget_is_cut_to_what_is_left(corpus_file: tuple[Path, str, str]) -> None:
    db, _, mid = corpus_file
    with Corpus.open(db) as corpus:
        (hit,) = [hit for hit in corpus.retrieve("shark colony of beta", mode="bm25", k=10) if hit.context_id == mid]
        other = corpus.retrieve("heron nests", mode="bm25", k=3)
    (cut,) = cut_to_budget([hit, *other], 300)  # cut to the whole budget: nothing else fits beside it
    assert cut.text.endswith("…") and cut.text.startswith(hit.text[:200]) and cut.num_tokens == budget_cost(cut.text) <= 300
    *before, last = cut_to_budget([*other, hit], 300)  # cut to what the others leave
    assert before == other and last.context_id == mid and last.text.endswith("…")
    assert sum(passage.num_tokens for passage in [*before, last]) <= 300
    assert cut_to_budget(other, other[0].num_tokens + 1) == other[:1]  # a passage of ordinary size that does not fit ends the list
    shortened = cut_to_cost("x" * 10_000_000, 50)  # one "word": a tokenizer counts it as a single [UNK]
    assert shortened is not None and len(shortened[0]) <= 50 * CHARS_PER_TOKEN and shortened[1] <= 50


def test_a_distilled_level_hands_over_bounded_items(tmp_path: Path) -> None:
    """An insight of 2 MB and a concept of 200,000 characters, written over in place: a search of
    their level, and the pyramid agent that shows them to the model, hand over bounded text."""
    db = tmp_path / "corpus.sqlite"
    (article,) = make_corpus(db, {"alpha": paper("alpha", pages=3)}).values()
    writer = connect(db)
    try:
        (shark,) = [row[0] for row in writer.conn.execute("SELECT id FROM contexts WHERE text LIKE 'The shark colony%'")]
        insights = [InsightRow("The shark colony of alpha grew to 34 individuals.", [2], None, 12, [(shark, 0.9)])]
        store_pyramid(writer.conn, ArticlePyramid(article, "test", "test", insights, [ConceptRow("Shark colonies grow.", 4, [0])], None))
        writer.conn.execute("UPDATE insights SET text = ?", ["The shark colony of alpha grew. " * 70_000])
        writer.conn.execute("UPDATE concepts SET text = ?", ["Shark colonies grow. " * 10_000])
        writer.conn.commit()
    finally:
        writer.close()
    with FakeLLMServer(scripted) as server, Corpus.open(db) as corpus:
        (insight,) = corpus.retrieve(QUESTION, mode="bm25", level="insights")
        (concept,) = corpus.retrieve(QUESTION, mode="bm25", level="concepts")
        (cut,) = corpus.retrieve(QUESTION, mode="bm25", level="concepts", budget_tokens=300)
        answer = corpus.ask(QUESTION, strategy="pyramid", budget_tokens=BUDGET, llm=get_llm(llm_settings(server.base_url)))
        requests = list(server.requests)
    assert insight.text.startswith("[not shown: ") and len(concept.text) == LONGEST and concept.num_tokens == budget_cost(concept.text)
    assert cut.text.endswith("…") and budget_cost(cut.text) <= 300
    assert [step.name for step in answer.steps][-3:] == ["drill-down", "retrieve", "answer"]  # the kept insight's passage, answered
    check_requests(requests, BUDGET)


def schema(body: dict[str, Any]) -> str | None:
    """The name of the reply's schema a request asks for."""
    return body.get("response_format", {}).get("json_schema", {}).get("name")


def scripted(body: dict[str, Any]) -> FakeReply:
    """Answers every strategy's request: native tool calls (walk) by ending at once with passage
    1 kept, JSON by the schema's name."""
    if "tools" in body:
        return FakeReply(tool_calls=[{"name": "done", "arguments": {"keep": [1]}}])
    if body["messages"][0]["content"].startswith("You search a corpus"):  # the pyramid agent: keep the first candidate, enough
        return FakeReply(json.dumps({"keep": [1], "notes": "", "queries": [], "enough": True}), prompt_tokens=100, completion_tokens=10)
    name = schema(body)
    fact = {
        "fact": "The shark colony grew.",
        "relevance": "its size",
        "next_source": "the heron survey",
        "expected_info": "nests",
        "passages": [1],
    }
    replies = {
        "AnswerReply": {"claims": [{"text": "The shark colony of alpha grew to 34 individuals.", "passages": [1]}]},
        "Variants": {"queries": ["shark colony individuals", "shark nests station"]},
        "Judgment": {"relevant": True},
        "RoundReply": {"facts": [fact]},
    }
    return FakeReply(json.dumps(replies.get(name, {})), prompt_tokens=100, completion_tokens=10)


def check_requests(requests: list[dict[str, Any]], budget: int) -> None:
    """No request holds more than a passage may; the answer's passages cost at most ``budget``,
    and the rest of its prompt (the question, the rules, the markup) is small."""
    assert requests
    for body in requests:
        assert len(json.dumps(body["messages"])) < 4 * PASSAGE_CHARS
        for message in body["messages"]:  # a judge's, a round's, a move's: no passage shown over the budget
            assert all(budget_cost(text) <= budget for text in _ANY_DOCUMENT.findall(str(message.get("content") or "")))
    (answer,) = [body for body in requests if schema(body) == "AnswerReply"]
    user = answer["messages"][1]["content"]
    passages = [text for _, _, text in _PASSAGE.findall(user)]
    assert passages and sum(budget_cost(text) for text in passages) <= budget
    assert budget_cost(_PASSAGE.sub("", user)) <= budget_cost(QUESTION) + 50 + 30 * len(passages)
    assert budget_cost(answer["messages"][0]["content"]) < 1000  # the rules and the reply's schema, the same for every question


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_shows_the_model_at_most_the_budget(corpus_file: tuple[Path, str, str], strategy: str) -> None:
    db, _, _ = corpus_file
    with FakeLLMServer(scripted) as server, Corpus.open(db) as corpus:
        answer = corpus.ask(QUESTION, strategy=strategy, budget_tokens=BUDGET, llm=get_llm(llm_settings(server.base_url)), limits=Limits(2))
        requests = list(server.requests)
    assert sum(budget_cost(hit.text) for hit in answer.passages) <= BUDGET
    check_requests(requests, BUDGET)


def test_cli_ask_stays_within_the_budget(corpus_file: tuple[Path, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    db, _, _ = corpus_file
    with FakeLLMServer(scripted) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
        result = CliRunner().invoke(
            app,
            ["ask", QUESTION, "--db", str(db), "--strategy", "bm25", "--budget-tokens", str(BUDGET)]
            + ["--llm-backend", "openai", "--llm-model", "fake-model", "--json"],
        )
        requests = list(server.requests)
    assert result.exit_code == 0, result.output
    check_requests(requests, BUDGET)


def test_the_service_and_mcp_hand_over_bounded_passages(corpus_file: tuple[Path, str, str]) -> None:
    db, giant, mid = corpus_file
    with FakeLLMServer(scripted) as server:
        service = create_app(db, llm=get_llm(llm_settings(server.base_url)), settings=ServeSettings(max_value_bytes=None))
        client = TestClient(service)
        for mode in ("bm25", "hybrid", "parent"):
            response = client.get("/search", params={"q": QUESTION, "mode": mode, "budget_tokens": BUDGET})
            assert response.status_code == 200 and len(response.content) < 4 * PASSAGE_CHARS, mode
        for context_id in (giant, mid):
            response = client.get(f"/contexts/{context_id}/parent", params={"before": 2, "after": 2})
            assert response.status_code == 200 and len(response.content) < 8 * PASSAGE_CHARS
        response = client.get("/ask", params={"q": QUESTION, "strategy": "bm25", "budget_tokens": BUDGET})
        assert response.status_code == 200 and "event: answer" in response.text
        check_requests(list(server.requests), BUDGET)

    async def mcp_calls() -> list[str]:
        with Corpus.open(db, check_same_thread=False) as corpus:
            async with Client(build_server(corpus)) as mcp:
                search = await mcp.call_tool("search", {"query": QUESTION, "mode": "bm25", "k": 10, "budget_tokens": BUDGET})
                window = await mcp.call_tool("context_window", {"context_id": giant})
        return [json.dumps(result.structured_content) for result in (search, window)]

    assert all(len(answer) < 4 * PASSAGE_CHARS for answer in anyio.run(mcp_calls))


MEASURE = textwrap.dedent(
    """
    import json, resource, sys
    from fastapi.testclient import TestClient
    from paperpyramid.corpus import Corpus
    from paperpyramid.retrieval.api import MODES
    from paperpyramid.retrieval.filters import Filters
    from paperpyramid.services.query import create_app
    from paperpyramid.settings import ServeSettings
    from paperpyramid.tokens import default_counter

    db, giant, question = sys.argv[1:]
    with Corpus.open(db) as corpus:
        client = TestClient(create_app(db, settings=ServeSettings(max_value_bytes=None)))

        def requests(article, context_id):
            filters = None if article is None else Filters(article_ids=(article,))
            for mode in MODES:
                corpus.retrieve(question, mode=mode, k=10, filters=filters)
                corpus.retrieve(question, mode=mode, k=10, budget_tokens=1500, filters=filters)
            corpus.context(context_id), corpus.parent_contexts(context_id)
            for mode in ("bm25", "hybrid", "parent"):
                assert client.get("/search", params={"q": question, "mode": mode, "article": article or []}).status_code == 200
            assert client.get(f"/contexts/{context_id}/parent").status_code == 200

        # warm: every mode's code and models, on the other paper (the giant row is alpha's)
        default_counter().count("warm")
        beta = next(a.id for a in corpus.articles() if a.title == "Colonies of beta")
        requests(beta, corpus.retrieve(question, mode="bm25", k=1, filters=Filters(article_ids=(beta,)))[0].context_id)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        requests(None, giant)
        unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is in bytes there, KiB on Linux
        print(json.dumps({"growth": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * unit}))
    """
)


def test_a_request_does_not_load_the_giant_row(corpus_file: tuple[Path, str, str]) -> None:
    """Peak memory of a process serving every mode, the Python API's reads, ``/search`` and
    ``/parent`` on the corpus grows by far less than the 48 MB row (reading it once would add
    it twice: SQLite's copy and Python's)."""
    db, giant, _ = corpus_file
    done = subprocess.run([sys.executable, "-c", MEASURE, str(db), giant, QUESTION], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    growth = json.loads(done.stdout.strip().splitlines()[-1])["growth"]
    assert growth < GIANT_BYTES / 4, f"peak memory grew by {growth / 1e6:.1f} MB"
