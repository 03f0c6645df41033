"""The retrieval metric of ../shared/qa/README.md, on hand-made passages whose answers are known,
and `paperpyramid eval retrieval` on a real corpus: the modes, and the LLM-driven strategies
beside them against a scripted model on 127.0.0.1 (their LLM tokens, --limit, failures)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paperpyramid.asking.strategies import STRATEGIES
from paperpyramid.asking.trace import Found, Step
from paperpyramid.cli import app
from paperpyramid.corpus import Corpus
from paperpyramid.errors import LLMOutputError
from paperpyramid.eval.retrieval import Evidence, Question, Retrieved, prepare, retrievers, score_question, summarise
from paperpyramid.ingestion import ingest
from paperpyramid.llm import Usage, get_llm
from paperpyramid.retrieval import Citation, SearchHit
from paperpyramid.settings import IngestSettings, Settings
from paperpyramid.tokens import TokenCounter
from tests.conftest import SAMPLE
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_distill import make_corpus, paper

ROOT = Path(__file__).resolve().parents[1]
COUNTER = TokenCounter()


def passage(text: str) -> SearchHit:
    return SearchHit(text[:8], text, 1.0, Citation("a", "T", "s", "1", "S", 1), COUNTER.count(text))


def question(*evidence: str, kind: str = "fact") -> Question:
    return Question("q", "?", kind, evidence, ("x.pdf",))


def test_evidence_matches_by_containment_or_sixty_percent_of_its_words() -> None:
    evidence = Evidence("Measured to the nearest  0.1 mm using DIGITAL calipers.")
    assert evidence.matches(prepare("All frogs were measured to the nearest 0.1 mm using digital calipers. Then"))
    # 6 of the 9 distinct words (67%) but not contiguous: still a match
    assert evidence.matches(prepare("nearest mm measured using the digital"))
    # 5 of 9 (56%): not a match
    assert not evidence.matches(prepare("nearest mm measured using the"))
    assert not Evidence("").matches(prepare("anything"))


def test_rank_recall_and_mrr_come_from_the_first_matching_passage() -> None:
    filler = [passage(f"unrelated passage number {n} about something else") for n in range(30)]
    target = passage("We analyzed more than 100 specimens from 23 localities.")
    q = question("We analyzed more than 100 specimens from 23 localities")
    at_3 = score_question(q, [*filler[:2], target, *filler[2:]], 0.01, COUNTER)
    at_12 = score_question(q, [*filler[:11], target], 0.01, COUNTER)
    missing = score_question(q, filler, 0.01, COUNTER)
    assert (at_3.rank, at_12.rank, missing.rank) == (3, 12, None)
    figures = summarise([at_3, at_12, missing])
    assert abs(figures["mrr@10"] - (1 / 3) / 3) < 1e-9  # rank 12 is past the cut-off
    assert figures["r@5"] == 1 / 3 and figures["r@20"] == 2 / 3


def test_evidence_within_a_budget_is_cut_by_tokens() -> None:
    long_filler = passage(" ".join(["data"] * 1500))  # 1,500 tokens
    target = passage("the odontoid process is 2.0 mm long")
    result = score_question(question("the odontoid process is 2.0 mm long"), [long_filler, target], 0.0, COUNTER)
    assert result.within == {2000: True, 4000: True, 8000: True}
    result = score_question(question("the odontoid process is 2.0 mm long"), [long_filler, long_filler, target], 0.0, COUNTER)
    assert result.within == {2000: False, 4000: True, 8000: True}
    # a passage cut short by the budget is matched on what is left of it
    half = passage(" ".join(["data"] * 1995) + " the odontoid process is 2.0 mm long")
    cut = score_question(question("the odontoid process is 2.0 mm long"), [half], 0.0, COUNTER)
    assert cut.within[2000] is False and cut.within[4000] is True


def test_a_retriever_that_answers_each_budget_is_scored_on_those_answers() -> None:
    long_filler = passage(" ".join(["data"] * 1500))
    target = passage("the odontoid process is 2.0 mm long")
    q = question("the odontoid process is 2.0 mm long")
    # the plain answer holds the evidence past 4k; asked for 4k and 8k the retriever hands it early
    by_budget = {2000: [long_filler], 4000: [target], 8000: [long_filler, target]}
    result = score_question(q, [long_filler] * 3 + [target], 0.0, COUNTER, by_budget=by_budget)
    assert result.within == {2000: False, 4000: True, 8000: True} and result.rank == 4


def test_parent_is_asked_for_each_budget(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    with Corpus.open(db) as corpus:
        got = retrievers(corpus, ["parent"])["parent"]("frogs")
        assert isinstance(got, Retrieved) and got.by_budget is not None and got.seconds is not None
        assert got.passages == corpus.retrieve("frogs", mode="parent")
        for budget, passages in got.by_budget.items():
            assert passages == corpus.retrieve("frogs", mode="parent", budget_tokens=budget)
            assert sum(hit.num_tokens for hit in passages) <= budget
        # a budget larger than the five windows is filled with further hits
        assert len(got.by_budget[8000]) > len(got.passages)


def test_all_evidence_at_20_for_cross_questions() -> None:
    first, second = passage("alpha beta gamma delta"), passage("epsilon zeta eta theta")
    q = question("alpha beta gamma delta", "epsilon zeta eta theta", kind="cross-paper")
    assert score_question(q, [first, second], 0.0, COUNTER).all_evidence_at_20
    assert not score_question(q, [first], 0.0, COUNTER).all_evidence_at_20
    assert summarise([score_question(q, [first], 0.0, COUNTER)])["all_evidence@20"] == 0.0


@pytest.mark.slow
def test_cli_scores_modes_side_by_side(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    qa = tmp_path / "qa.jsonl"
    rows = [
        {
            "id": "1",
            "question": "digital calipers precision",
            "kind": "method",
            "evidence": ["made to the nearest 0.1 mm using digital calipers"],
            "pdf": "x",
        },
        {"id": "2", "question": "zzzz qqqq", "kind": "fact", "evidence": ["no such text anywhere in the corpus at all"], "pdf": "x"},
    ]
    qa.write_text("\n".join(json.dumps(row) for row in rows))
    out = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "eval", "retrieval", str(qa), "--db", str(db), "--modes", "bm25", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "overall (2 questions)" in result.stdout and "bm25" in result.stdout
    report = json.loads(out.read_text())
    assert report["bm25"]["ranks"]["2"] is None and report["bm25"]["ranks"]["1"] is not None
    assert report["bm25"]["overall"]["r@20"] == 0.5
    refused = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "eval", "retrieval", str(qa), "--db", str(db), "--modes", "vector"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 3 and "paperpyramid embed" in refused.stderr and "Traceback" not in refused.stderr


# --------------------------------------------------------------------------- strategies beside the modes


def strategies_model(body: dict[str, Any]) -> FakeReply:
    """multiquery's two prompts, every reply costing 40 + 2 tokens; the question about garbage
    gets a reply that is not JSON, every time."""
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    if "garbage" in user:
        return FakeReply("this is not JSON at all", prompt_tokens=40, completion_tokens=2)
    if "rewrite a researcher's question" in system:
        return FakeReply(
            json.dumps({"queries": ["shark colony individuals", "heron nests station"]}), prompt_tokens=40, completion_tokens=2
        )
    return FakeReply(json.dumps({"relevant": True}), prompt_tokens=40, completion_tokens=2)


def test_cli_scores_a_strategy_beside_the_modes_with_its_llm_tokens(tmp_path: Path, monkeypatch: Any) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    questions = [
        "how large did the shark colony grow",
        "where were the heron nests counted",
        "garbage in the colony",
        "zebra migration routes",
    ]
    qa = tmp_path / "qa.jsonl"
    qa.write_text(
        "\n".join(
            json.dumps({"id": str(n), "question": text, "kind": "fact", "evidence": ["34 shark individuals"], "pdf": "alpha.pdf"})
            for n, text in enumerate(questions, 1)
        )
    )
    out = tmp_path / "report.json"
    monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
    with FakeLLMServer(strategies_model) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        result = CliRunner().invoke(
            app,
            [
                "eval",
                "retrieval",
                str(qa),
                "--db",
                str(db),
                "--modes",
                "bm25,multiquery",
                "--limit",
                "3",
                "--llm-backend",
                "openai",
                "--llm-model",
                "fake-model",
                "--out",
                str(out),
            ],
        )
        asked = [body["messages"][1]["content"] for body in server.requests]
    assert result.exit_code == 0, result.output
    assert "the first 3 of 4 questions (--limit 3)" in result.stdout and "overall (3 questions)" in result.stdout
    overall_table = result.stdout.split("overall (3 questions)\n")[1].split("\n\n")[0].splitlines()
    assert overall_table[0].split()[-4:] == ["tokens", "llm", "tok", "failed"]
    rows = {line.split()[0]: line.split() for line in overall_table[1:]}
    assert set(rows) == {"bm25", "multiquery"}
    assert not any("zebra" in text for text in asked)  # the fourth question is past the limit

    def spent(question: str) -> int:  # what the script charged for the calls about one question
        return 42 * sum(1 for text in asked if text.startswith(f"Question: {question}"))

    report = json.loads(out.read_text())
    assert report["bm25"]["llm_tokens"] == {"1": 0, "2": 0, "3": 0} and report["bm25"]["failures"] == {}
    assert report["multiquery"]["llm_tokens"] == {str(n): spent(text) for n, text in enumerate(questions[:3], 1)}
    assert spent(questions[0]) > 42 and spent(questions[2]) == 84  # variants and judgments; the garbage: two attempts
    assert (
        list(report["multiquery"]["failures"]) == ["3"] and "did not answer with a valid Variants" in report["multiquery"]["failures"]["3"]
    )
    assert report["multiquery"]["ranks"]["1"] is not None and report["multiquery"]["ranks"]["3"] is None
    overall = report["multiquery"]["overall"]
    assert overall["failures"] == 1 and overall["llm_tokens"] == sum(spent(text) for text in questions[:3]) / 3
    assert rows["multiquery"][-1] == "1" and rows["multiquery"][-2] == f"{overall['llm_tokens']:.0f}" and rows["bm25"][-2:] == ["0", "0"]


def test_every_strategy_name_runs_through_find(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    calls: list[tuple[str, str, int | None]] = []
    hit = passage("The shark colony of alpha grew to 34 individuals")

    def finder(
        conn: Any, strategy: str, question: str, llm: Any, *, budget_tokens: int | None = None, on_step: Any = None, **_: Any
    ) -> Found:
        calls.append((strategy, question, budget_tokens))
        if question == "unreadable":
            on_step(Step("first", "", 7, 3))
            raise LLMOutputError("fake did not answer with a valid Move after 2 attempts", usage=Usage(30, 6))
        steps = [Step("first", "", 7, 3), Step("second", "", 11, 1)]
        for step in steps:
            on_step(step)
        return Found([hit], steps=steps)

    with FakeLLMServer(strategies_model) as server, Corpus.open(db) as corpus:
        chosen = retrievers(corpus, ["bm25", *STRATEGIES], llm=get_llm(llm_settings(server.base_url)), budget_tokens=2000, finder=finder)
        got = {name: chosen[name]("shark colony") for name in chosen}
        failed = chosen["pyramid"]("unreadable")
    assert calls[: len(STRATEGIES)] == [(name, "shark colony", 2000) for name in STRATEGIES]
    assert all(got[name] == Retrieved([hit], 22) for name in STRATEGIES)
    assert not isinstance(got["bm25"], Retrieved) and got["bm25"][0].text.startswith("The shark colony")  # a mode: no LLM, no finder
    assert failed == Retrieved([], 10 + 36, "fake did not answer with a valid Move after 2 attempts")


def test_cli_stops_with_one_line_when_the_model_is_down(tmp_path: Path, monkeypatch: Any) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=2)})
    qa = tmp_path / "qa.jsonl"
    qa.write_text(
        json.dumps({"id": "1", "question": "shark colony", "kind": "fact", "evidence": ["34 shark individuals"], "pdf": "alpha.pdf"})
    )
    monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
    monkeypatch.setenv("PAPERPYRAMID_LLM__RETRIES", "0")
    with FakeLLMServer(lambda body: FakeReply(status=503, error="overloaded")) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        result = CliRunner().invoke(
            app,
            [
                "eval",
                "retrieval",
                str(qa),
                "--db",
                str(db),
                "--modes",
                "bm25,multiquery",
                "--llm-backend",
                "openai",
                "--llm-model",
                "fake-model",
            ],
        )
    assert result.exit_code == 3 and "error: stopped:" in result.output and "overall" not in result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback, one line
