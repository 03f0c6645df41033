"""Distillation and WalkingRAG against a model that answers far more than asked, on a small
context window, and two distill runs at once — a scripted OpenAI-compatible server on
127.0.0.1 (tests/fake_llm.py). What must hold: every list the schema caps is cut on receipt,
every prompt fits the window with room for the answer, a round searches a bounded number of
places, one distill per corpus pays for each article once, and a run in which every article
failed exits non-zero."""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paperpyramid.asking.trace import Limits, Step, Tracker
from paperpyramid.asking.walkingrag import walkingrag
from paperpyramid.cli import app
from paperpyramid.db.sqlite import connect
from paperpyramid.distill.pipeline import DistillSummary, distill_corpus
from paperpyramid.llm import get_llm
from paperpyramid.settings import DistillSettings
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_distill import ScriptedModel, make_corpus, paper, rows, step, window_pages

WINDOW = 2000  # tokens a prompt and its answer may hold together
ANSWER = 400  # max_tokens of each distill call


def prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt's tokens as the client estimates them (3.5 characters a token), whole."""
    return sum(math.ceil(len(str(message.get("content") or "")) / 3.5) for message in body["messages"])


def answer_room(body: dict[str, Any]) -> int:
    return int(body.get("max_tokens") or body.get("max_completion_tokens") or 0)


def sentence(label: str, number: int, length: int) -> str:
    """A distinct sentence of about ``length`` characters."""
    base = f"The {label} finding number {number} states that colonies grew during the survey"
    return (base + " and" + " the nests were counted again" * (length // 30))[:length].rstrip() + "."


class Flood:
    """Valid JSON for every step, far past the schema's caps: 100 long insights per window, 60
    long concepts each naming 50 insights, a long abstract, 12 recollections."""

    def __call__(self, body: dict[str, Any]) -> FakeReply:
        kind = step(body)
        if kind == "insights":
            number = window_pages(body)[-1][0]
            answer: dict[str, Any] = {
                "insights": [{"id": 0, "text": sentence(f"p{number}", i, 590), "pages": [number, number, number]} for i in range(100)],
                "delete": list(range(1000, 1030)),
            }
        elif kind == "concepts":
            answer = {"concepts": [{"text": sentence("concept", i, 790), "insight_ids": list(range(1, 51))} for i in range(60)]}
        elif kind == "abstract":
            answer = {"abstract": sentence("abstract", 0, 2900)}
        else:
            answer = {
                "recollections": [
                    {"id": 0, "text": sentence("link", i, 590), "papers": ["NEW", "P1"], "concept_ids": [1]} for i in range(12)
                ]
            }
        return FakeReply(json.dumps(answer))


def distil(db: Path, base_url: str, window: int = WINDOW, **settings: Any) -> DistillSummary:
    llm = get_llm(llm_settings(base_url, context_window=window))
    return distill_corpus(
        db, llm, DistillSettings(**({"embed": False, "recollections": False, "max_tokens": ANSWER, "concurrency": 1} | settings))
    )


# ---------------------------------------------------------------- caps on what comes back


def test_lists_past_the_schema_caps_are_cut_on_receipt(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=1)})  # one window: [1]
    with FakeLLMServer(Flood()) as server:
        summary = distil(db, server.base_url, window=65_536)  # room for everything: only the caps cut
    assert summary.done == 1, summary.outcomes
    assert rows(db, "SELECT count(*) FROM insights") == [(40,)]  # InsightsReply.insights: maxItems 40
    assert rows(db, "SELECT count(*) FROM concepts") == [(30,)]  # ConceptsReply.concepts: maxItems 30 (60 answered)
    assert rows(db, "SELECT max(n) FROM (SELECT count(*) AS n FROM concepts_insights GROUP BY concept_id)") == [(40,)]  # insight_ids: 40
    assert rows(db, "SELECT max(json_array_length(pages)) FROM insights") == [(1,)]
    warnings = " | ".join(json.loads(rows(db, "SELECT warnings FROM distillations")[0][0]))
    assert "concepts held 60 items where the schema allows 30" in warnings
    assert "insights held 100 items where the schema allows 40" in warnings


# ---------------------------------------------------------------- prompts fitted to the window


def test_every_distill_prompt_fits_a_small_context_window(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3), "beta": paper("beta", pages=2)})
    with FakeLLMServer(Flood()) as server:
        summary = distil(db, server.base_url, recollections=True)
        requests = list(server.requests)
    assert summary.done == 2 and summary.stopped is None, summary.outcomes
    kinds = {step(body) for body in requests}
    assert kinds == {"insights", "concepts", "abstract", "recollections"}
    over = [(step(body), prompt_tokens(body), answer_room(body)) for body in requests if prompt_tokens(body) + answer_room(body) > WINDOW]
    assert over == [], f"prompts past the {WINDOW}-token window: {over}"
    assert all(0 < answer_room(body) <= ANSWER for body in requests)
    # what was left out for room is said
    warnings = " | ".join(warning for (text,) in rows(db, "SELECT warnings FROM distillations") for warning in json.loads(text))
    assert "fit the model's window" in warnings


def test_max_tokens_past_half_the_window_is_cut_to_half(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=2)})
    with FakeLLMServer(ScriptedModel()) as server:
        summary = distil(db, server.base_url, max_tokens=4096)
        requests = list(server.requests)
    assert summary.done == 1
    assert {answer_room(body) for body in requests} == {WINDOW // 2}
    assert all(prompt_tokens(body) + answer_room(body) <= WINDOW for body in requests)


# ---------------------------------------------------------------- walkingrag


_PASSAGE = re.compile(r'<document passage="(\d+)"')


def test_walkingrag_flooded_with_facts_keeps_five_searches_five_and_fits_the_window(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=6)})

    def flood(body: dict[str, Any]) -> FakeReply:
        shown = len(_PASSAGE.findall(body["messages"][1]["content"]))
        offset = len(flood.calls) * 1000  # type: ignore[attr-defined]
        flood.calls.append(shown)  # type: ignore[attr-defined]
        facts = [
            {
                "fact": f"Fact {offset + i}: the colony of alpha grew during survey {i}.",
                "relevance": "it sizes the colony",
                "next_source": f"the survey table {offset + i}",
                "expected_info": f"colony size in survey {offset + i}",
                "passages": [1, 1, 1, 1, 1, 1],
            }
            for i in range(500)
        ]
        return FakeReply(json.dumps({"facts": facts}), prompt_tokens=100, completion_tokens=20)

    flood.calls = []  # type: ignore[attr-defined]
    steps: list[Step] = []
    with FakeLLMServer(flood) as server:
        conn = connect(db, read_only=True)
        try:
            found = walkingrag(
                conn,
                "how large was the frog population",
                get_llm(llm_settings(server.base_url, context_window=WINDOW)),
                tracker=Tracker(Limits(max_steps=3, llm_tokens=1_000_000), on_step=steps.append),
            )
        finally:
            conn.close()
        requests = list(server.requests)
    rounds = [item for item in steps if item.name == "round"]
    searches = [item for item in steps if item.name == "search"]
    # the searches after the first (the question's) look in at most five places each
    assert [item.detail.split(" (")[0].count(" | ") + 1 for item in searches[1:]] == [5] * (len(searches) - 1)
    assert all("500 facts answered, the first 5 kept" in item.detail for item in rounds)
    assert len(found.facts) <= 5 * len(rounds)
    over = [(prompt_tokens(body), answer_room(body)) for body in requests if prompt_tokens(body) + answer_room(body) > WINDOW]
    assert over == [], f"round prompts past the {WINDOW}-token window: {over}"
    assert len(requests) == len(rounds) == 3


def test_walkingrag_facts_so_far_are_fitted_latest_first(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=6)})
    counter = iter(range(10_000))

    def chatty(body: dict[str, Any]) -> FakeReply:
        facts = [
            {
                "fact": f"Fact {next(counter)}: " + "the colony of alpha grew again " * 9,
                "relevance": "it sizes the colony " * 8,
                "next_source": f"place {next(counter)}",
                "expected_info": "colony size",
                "passages": [1],
            }
            for _ in range(5)
        ]
        return FakeReply(json.dumps({"facts": facts}))

    steps: list[Step] = []
    with FakeLLMServer(chatty) as server:
        conn = connect(db, read_only=True)
        try:
            walkingrag(
                conn,
                "how large was the frog population",
                get_llm(llm_settings(server.base_url, context_window=WINDOW)),
                tracker=Tracker(Limits(max_steps=3, llm_tokens=1_000_000), on_step=steps.append),
            )
        finally:
            conn.close()
        requests = list(server.requests)
    over = [(prompt_tokens(body), answer_room(body)) for body in requests if prompt_tokens(body) + answer_room(body) > WINDOW]
    assert over == [], f"round prompts past the {WINDOW}-token window: {over}"
    assert len(requests) == 3
    last = requests[-1]["messages"][1]["content"].split("Passages:")[0]
    assert "Fact 18:" in last and "Fact 0:" not in last  # round 2's last fact shown, round 1's first left out
    assert any("earlier facts not shown" in item.detail for item in steps if item.name == "round")


# ---------------------------------------------------------------- two runs at once, exit codes


def test_two_distill_runs_at_once_pay_for_each_article_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {name: paper(name, pages=2) for name in ("alpha", "beta")})
    model = ScriptedModel()

    def slow(body: dict[str, Any]) -> FakeReply:
        time.sleep(0.1)
        return model(body)

    summaries: list[DistillSummary] = []
    with FakeLLMServer(slow) as server, caplog.at_level(logging.WARNING):
        first = threading.Thread(target=lambda: summaries.append(distil(db, server.base_url)))
        first.start()
        deadline = time.monotonic() + 30
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.requests, "the first run sent nothing"
        second = threading.Thread(target=lambda: summaries.append(distil(db, server.base_url)))
        second.start()
        first.join(60)
        second.join(60)
        calls = len(server.requests)
    assert not first.is_alive() and not second.is_alive()
    assert calls == 2 * 5  # each article once: windows [1], [1, 2], [2], concepts, abstract
    assert sorted(summary.done for summary in summaries) == [0, 2]
    assert max(summary.skipped for summary in summaries) == 2  # the second found both done
    assert "another distill" in caplog.text and "waiting for it to finish" in caplog.text
    assert rows(db, "SELECT status, count(*) FROM distillations GROUP BY status") == [("done", 2)]


def _distill_cli(db: Path, base_url: str) -> Any:
    env = {
        "PAPERPYRAMID_LLM__BACKEND": "openai",
        "PAPERPYRAMID_LLM__MODEL": "fake-model",
        "OPENAI_BASE_URL": base_url,
        "PAPERPYRAMID_LLM__CACHE": "false",
        "PAPERPYRAMID_LLM__RETRIES": "0",
        "PAPERPYRAMID_DISTILL__EMBED": "false",
    }
    return CliRunner().invoke(app, ["distill", "--db", str(db), "--no-recollections"], env=env, terminal_width=400)


def test_distill_exits_non_zero_when_every_article_failed(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {name: paper(name, pages=2) for name in ("alpha", "beta")})
    with FakeLLMServer(lambda body: FakeReply(json.dumps({"insights": [], "delete": []}))) as server:
        failed = _distill_cli(db, server.base_url)
        server.handler = ScriptedModel()
        fine = _distill_cli(db, server.base_url)
    assert failed.exit_code == 1, failed.output
    assert "0 articles distilled" in failed.output and "2 failed" in failed.output
    assert fine.exit_code == 0, fine.output
    assert "2 articles distilled" in fine.output
