"""Batch distillation (``distill --batch-export`` / ``--batch-import`` / ``--dry-run``) against a
fake batch endpoint: each round's JSONL file is answered line by line by the scripted
OpenAI-compatible server of the live tests (tests/fake_llm.py over HTTP on 127.0.0.1, the
ScriptedModel of tests/test_distill.py), and written back as an OpenAI Batch API output file or
as vLLM's ``run_batch`` writes one. What must hold: the pyramid stored from batch results equals
the one a live run stores from the same replies (every row, link and token count; only row ids,
times and durations differ), a bad reply leads to one repair request in the next round, an error
line fails its article with the reason, importing a file twice or after a crash stores each
article once, and the dry run counts round 1's prompt tokens exactly."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from paperpyramid.cli import distill
from paperpyramid.distill.batch import BatchStore, batch_step, read_output_file, store_path
from paperpyramid.distill.batch.results import read_output_line
from paperpyramid.distill.pipeline import distill_corpus
from paperpyramid.ingestion import ingest
from paperpyramid.llm import get_llm
from paperpyramid.settings import DistillSettings, IngestSettings, LLMSettings, Settings
from tests.conftest import SAMPLE
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_distill import ScriptedModel, make_corpus, paper, rows, step, window_pages

ENV = {"PAPERPYRAMID_DISTILL__EMBED": "false", "PAPERPYRAMID_LLM__CACHE": "false"}
MAX_ROUNDS = 25  # the longest sample paper has 12 pages: 15 rounds


# ---------------------------------------------------------------- the fake batch endpoint


def answer_round(server: FakeLLMServer, requests: Path, output: Path, flavour: str = "openai") -> int:
    """Answer every line of a batch input file through the fake server and write the output file
    as the OpenAI Batch API (``flavour="openai"``) or vLLM's run_batch (``"vllm"``) writes it.
    Checks each line is a well-formed batch request first."""
    lines = []
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        for number, line in enumerate(requests.read_text(encoding="utf-8").splitlines(), 1):
            request = json.loads(line)
            assert request["method"] == "POST" and request["url"] == "/v1/chat/completions"
            body = request["body"]
            assert {"model", "messages", "max_tokens", "temperature", "seed", "response_format"} <= set(body)
            reply = client.post("/chat/completions", json=body)
            if flavour == "openai":
                answer = {
                    "id": f"batch_req_{number}",
                    "custom_id": request["custom_id"],
                    "response": {"status_code": reply.status_code, "request_id": f"req_{number}", "body": reply.json()},
                    "error": None,
                }
            elif reply.status_code == 200:
                answer = {
                    "id": f"vllm-{number:032x}",
                    "custom_id": request["custom_id"],
                    "response": {"status_code": 200, "request_id": f"vllm-batch-{number:032x}", "body": reply.json()},
                    "error": None,
                }
            else:  # vLLM: every failure is a 400 without a body, the message a plain string
                answer = {
                    "id": f"vllm-{number:032x}",
                    "custom_id": request["custom_id"],
                    "response": {"status_code": 400, "request_id": f"vllm-batch-{number:032x}", "body": None},
                    "error": reply.json()["error"]["message"],
                }
            lines.append(json.dumps(answer))
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


#: the distill command alone: typer builds the whole command line again on every invocation, which costs a round 0.4 s
DISTILL = typer.Typer(add_completion=False)
DISTILL.command()(distill)


def cli(*args: str, env: dict[str, str] | None = None) -> Any:
    """``paperpyramid distill ARGS`` with the test's environment."""
    return CliRunner().invoke(DISTILL, list(args), env=ENV | (env or {}), terminal_width=400)


def batch_rounds(db: Path, folder: Path, server: FakeLLMServer, flavour: str = "openai") -> list[int]:
    """Export, answer, import until no round is left; return the requests of each round."""
    first = cli("--db", str(db), "--llm-model", "fake-model", "--batch-export", str(folder))
    assert first.exit_code == 0, first.output
    sizes: list[int] = []
    for number in range(1, MAX_ROUNDS + 1):
        requests = folder / f"round-{number:03d}.jsonl"
        if not requests.exists():
            return sizes
        output = folder / f"output-{number:03d}.jsonl"
        sizes.append(answer_round(server, requests, output, flavour))
        step = cli("--db", str(db), "--llm-model", "fake-model", "--batch-import", str(output), "--batch-export", str(folder))
        assert step.exit_code in (0, 1), step.output
    raise AssertionError(f"still requests left after {MAX_ROUNDS} rounds")


def distil_live(db: Path, server: FakeLLMServer) -> None:
    summary = distill_corpus(db, get_llm(llm_settings(server.base_url)), DistillSettings(embed=False, recollections=False))
    assert summary.stopped is None


def pyramid(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every pyramid row of the corpus, keyed by article and position instead of row ids; the
    call log without its row ids, times and durations, the distillations without their times."""
    return {
        "insights": rows(
            db,
            "SELECT article_id, position, text, pages, page_number, section, num_tokens, model, prompt_version "
            "FROM insights ORDER BY article_id, position",
        ),
        "insights_contexts": rows(
            db,
            "SELECT i.article_id, i.position, ic.context_id, ic.score FROM insights_contexts AS ic "
            "JOIN insights AS i ON i.id = ic.insight_id ORDER BY 1, 2, 3",
        ),
        "concepts": rows(
            db, "SELECT article_id, position, text, num_tokens, model, prompt_version FROM concepts ORDER BY article_id, position"
        ),
        "concepts_insights": rows(
            db,
            "SELECT c.article_id, c.position, i.position FROM concepts_insights AS ci JOIN concepts AS c ON c.id = ci.concept_id "
            "JOIN insights AS i ON i.id = ci.insight_id ORDER BY 1, 2, 3",
        ),
        "abstracts": rows(db, "SELECT article_id, text, num_tokens, model, prompt_version FROM abstracts ORDER BY article_id"),
        "distillations": rows(
            db,
            "SELECT article_id, status, error, model, prompt_version, calls, cached_calls, prompt_tokens, completion_tokens, "
            "attempts, warnings, recollected FROM distillations ORDER BY article_id",
        ),
        "llm_calls": rows(
            db,
            "SELECT article_id, step, model, prompt_version, prompt_tokens, completion_tokens, cached, attempts "
            "FROM llm_calls ORDER BY article_id, id",
        ),
        "fts": rows(
            db, "SELECT (SELECT count(*) FROM insights_fts), (SELECT count(*) FROM concepts_fts), (SELECT count(*) FROM abstracts_fts)"
        ),
    }


@pytest.fixture(scope="module")
def sample_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("sample") / "corpus.sqlite"
    assert ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    return db


def copies(source: Path, folder: Path, *names: str) -> Iterator[Path]:
    for name in names:
        (folder / name).mkdir()
        target = folder / name / "corpus.sqlite"
        shutil.copy(source, target)
        yield target


# ---------------------------------------------------------------- (1) the round trip


@pytest.mark.slow
def test_batch_round_trip_equals_live_distillation(sample_corpus: Path, tmp_path: Path) -> None:
    live, batched = copies(sample_corpus, tmp_path, "live", "batch")
    with FakeLLMServer(ScriptedModel()) as server:
        distil_live(live, server)
        live_requests = len(server.requests)
        sizes = batch_rounds(batched, tmp_path / "rounds", server)
    expected = pyramid(live)
    assert [row[1] for row in expected["distillations"]] == ["done"] * 3 and len(expected["insights"]) > 20
    assert pyramid(batched) == expected
    # a round per window, then concepts and abstract: 8, 12 and 11 pages read give 15 rounds, 3 requests a round while all three read
    assert sum(sizes) == live_requests and len(sizes) == 12 + 1 + 2 and sizes[0] == 3
    # round 1 holds the first window of every article; a re-run has nothing left to ask
    first = [json.loads(line) for line in (tmp_path / "rounds" / "round-001.jsonl").read_text().splitlines()]
    assert all('<document page="1">' in line["body"]["messages"][1]["content"] for line in first)
    again = cli("--db", str(batched), "--llm-model", "fake-model", "--batch-export", str(tmp_path / "rounds"))
    assert again.exit_code == 0 and "no request left" in again.output and "3 already done" in again.output
    assert pyramid(batched) == expected


# ---------------------------------------------------------------- (2) vLLM run_batch's files


def test_vllm_run_batch_output_is_imported(tmp_path: Path) -> None:
    docs = {"alpha": paper("alpha", pages=3), "beta": paper("beta", pages=2)}
    live, batched = tmp_path / "live.sqlite", tmp_path / "batch.sqlite"
    make_corpus(live, docs)
    shutil.copy(live, batched)
    with FakeLLMServer(ScriptedModel()) as server:
        distil_live(live, server)
        batch_rounds(batched, tmp_path / "rounds", server, flavour="vllm")
        line = json.loads((tmp_path / "rounds" / "output-001.jsonl").read_text().splitlines()[0])
    assert line["id"].startswith("vllm-") and line["response"]["request_id"].startswith("vllm-batch-")
    assert pyramid(batched) == pyramid(live)


def test_output_lines_of_both_servers_are_read() -> None:
    completion = {
        "id": "c",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "{}"}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1},
    }
    ok = read_output_line(
        json.dumps(
            {"id": "vllm-1", "custom_id": "a", "response": {"status_code": 200, "request_id": "r", "body": completion}, "error": None}
        )
    )
    assert ok.status_code == 200 and ok.completion is not None and json.loads(ok.completion)["usage"]["prompt_tokens"] == 5
    vllm = read_output_line(
        json.dumps(
            {
                "id": "vllm-2",
                "custom_id": "b",
                "response": {"status_code": 400, "request_id": "r", "body": None},
                "error": "This model's maximum context length is 4096 tokens",
            }
        )
    )
    assert (vllm.completion, vllm.error) == (None, "HTTP 400: This model's maximum context length is 4096 tokens")
    expired = read_output_line(
        json.dumps(
            {
                "id": "batch_req_3",
                "custom_id": "c",
                "response": None,
                "error": {"code": "batch_expired", "message": "not executed before the completion window expired"},
            }
        )
    )
    assert expired.error == "not executed before the completion window expired (batch_expired)"
    refused = read_output_line(
        json.dumps(
            {
                "id": "batch_req_4",
                "custom_id": "d",
                "response": {
                    "status_code": 429,
                    "request_id": "r",
                    "body": {"error": {"message": "token limit reached", "type": "tokens"}},
                },
                "error": None,
            }
        )
    )
    assert refused.error == "HTTP 429: token limit reached"
    with pytest.raises(ValueError, match="no custom_id"):
        read_output_line('{"id": "x", "response": null}')


# ---------------------------------------------------------------- (3) repair turns


def bad_replies(model: ScriptedModel) -> Callable[[dict[str, Any]], FakeReply]:
    """The scripted model, except that "broken"'s first window answers malformed JSON once (its
    repair turn is answered well) and "hopeless"'s first window never answers valid JSON."""

    def handler(body: dict[str, Any]) -> FakeReply:
        text = body["messages"][1]["content"]
        first_window = step(body) == "insights" and [number for number, _ in window_pages(body)] == [1]
        if first_window and ("colony of hopeless" in text or ("colony of broken" in text and len(body["messages"]) == 2)):
            return FakeReply('{"insights": [{"id": 0, "text": "unterminated')
        return model(body)

    return handler


def test_bad_reply_gets_one_repair_request_in_the_next_round_then_fails(tmp_path: Path) -> None:
    docs = {"broken": paper("broken", pages=2), "hopeless": paper("hopeless", pages=2), "fine": paper("fine", pages=2)}
    live, batched = tmp_path / "live.sqlite", tmp_path / "batch.sqlite"
    ids = make_corpus(live, docs)
    shutil.copy(live, batched)
    folder = tmp_path / "rounds"
    with FakeLLMServer(bad_replies(ScriptedModel())) as server:
        distil_live(live, server)
        sizes = batch_rounds(batched, folder, server)
    second = [json.loads(line) for line in (folder / "round-002.jsonl").read_text().splitlines()]
    repairs = [line["body"]["messages"] for line in second if len(line["body"]["messages"]) == 4]
    assert len(repairs) == 2  # broken's and hopeless's first windows, asked again with the bad reply and what was wrong
    assert all(
        turns[2]["role"] == "assistant" and "unterminated" in turns[2]["content"] and "cannot be used" in turns[3]["content"]
        for turns in repairs
    )
    assert sizes == [3, 3, 2, 2, 2, 1]  # hopeless fails after round 2 and asks nothing more; broken is a round behind fine
    status = {article: (state, error) for article, state, error in rows(batched, "SELECT article_id, status, error FROM distillations")}
    assert (
        status[ids["hopeless"]][0] == "failed"
        and "did not answer with a valid InsightsReply after 2 attempts" in status[ids["hopeless"]][1]
    )
    assert status[ids["broken"]] == ("done", None) and status[ids["fine"]] == ("done", None)
    assert rows(batched, "SELECT attempts FROM llm_calls WHERE article_id = ? AND step = 'insights:p1'", (ids["broken"],)) == [(2,)]
    assert pyramid(batched) == pyramid(live)  # the repair and the failure, token for token, as live


# ---------------------------------------------------------------- (4) error lines


@pytest.mark.parametrize(("flavour", "reason"), [("openai", "HTTP 500: model overloaded"), ("vllm", "HTTP 400: model overloaded")])
def test_error_line_fails_its_article_with_the_reason(tmp_path: Path, flavour: str, reason: str) -> None:
    db = tmp_path / "corpus.sqlite"
    ids = make_corpus(db, {"alpha": paper("alpha", pages=2), "doomed": paper("doomed", pages=3)})
    model = ScriptedModel()

    def handler(body: dict[str, Any]) -> FakeReply:
        if (
            step(body) == "insights"
            and "colony of doomed" in body["messages"][1]["content"]
            and [n for n, _ in window_pages(body)] == [1, 2]
        ):
            return FakeReply(status=500, error="model overloaded")
        return model(body)

    with FakeLLMServer(handler) as server:
        sizes = batch_rounds(db, tmp_path / "rounds", server, flavour)
    ((state, error, calls, attempts),) = rows(
        db, "SELECT status, error, calls, attempts FROM distillations WHERE article_id = ?", (ids["doomed"],)
    )
    assert state == "failed" and reason in error and "batch request pp1-" in error
    assert (calls, attempts) == (1, 1)  # the window answered before it, recorded once; later rounds leave the article alone
    assert sizes == [2, 2, 1, 1, 1]
    assert rows(db, "SELECT status FROM distillations WHERE article_id = ?", (ids["alpha"],)) == [("done",)]


# ---------------------------------------------------------------- (5) exactly once


def test_same_file_twice_and_a_crash_mid_import_store_each_article_once(tmp_path: Path) -> None:
    docs = {name: paper(name, pages=2) for name in ("alpha", "beta", "gamma")}
    live, batched = tmp_path / "live.sqlite", tmp_path / "batch.sqlite"
    make_corpus(live, docs)
    shutil.copy(live, batched)
    folder = tmp_path / "rounds"
    settings = LLMSettings(model="fake-model")
    with FakeLLMServer(ScriptedModel()) as server:
        distil_live(live, server)
        assert cli("--db", str(batched), "--llm-model", "fake-model", "--batch-export", str(folder)).exit_code == 0
        for number in range(1, 5):  # windows [1], [1,2], [2], concepts: the abstracts are left
            answer_round(server, folder / f"round-{number:03d}.jsonl", folder / f"output-{number:03d}.jsonl")
            assert (
                cli(
                    "--db",
                    str(batched),
                    "--llm-model",
                    "fake-model",
                    "--batch-import",
                    str(folder / f"output-{number:03d}.jsonl"),
                    "--batch-export",
                    str(folder),
                ).exit_code
                == 0
            )
        last = folder / "output-005.jsonl"
        assert answer_round(server, folder / "round-005.jsonl", last) == 3
    # a damaged download (the last line cut short) is refused whole: nothing of it is stored
    cut = tmp_path / "cut.jsonl"
    cut.write_text(last.read_text()[:-40], encoding="utf-8")
    refused = cli("--db", str(batched), "--llm-model", "fake-model", "--batch-import", str(cut))
    assert refused.exit_code == 1 and "line 3" in refused.output and "nothing of the file was imported" in refused.output
    assert rows(batched, "SELECT count(*) FROM distillations") == [(0,)]
    # a crash after the first article of the round is stored
    stored: list[str] = []

    def crash(outcome: Any) -> None:
        stored.append(outcome.status)
        raise RuntimeError("killed")

    with BatchStore(store_path(batched)) as store, pytest.raises(RuntimeError, match="killed"):
        batch_step(batched, settings, DistillSettings(embed=False), store, import_files=[last], on_article=crash)
    assert stored == ["done"] and rows(batched, "SELECT status, count(*) FROM distillations GROUP BY status") == [("done", 1)]
    # importing the file again (twice) finishes the others and stores nothing twice
    for _ in range(2):
        again = cli("--db", str(batched), "--llm-model", "fake-model", "--batch-import", str(last))
        assert again.exit_code == 0 and "0 results stored, 3 stored before" in again.output and "no request left" in again.output
    assert pyramid(batched) == pyramid(live)
    assert rows(batched, "SELECT count(*), sum(attempts) FROM distillations") == [(3, 3)]
    assert len(read_output_file(last)) == 3


# ---------------------------------------------------------------- (6) the dry run


def test_dry_run_prints_tokens_per_article_and_cost(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    ids = make_corpus(db, {"alpha": paper("alpha", pages=3), "beta": paper("beta", pages=5)})
    result = cli(
        "--db",
        str(db),
        "--llm-model",
        "fake-model",
        "--dry-run",
        "--batch-export",
        str(tmp_path / "rounds"),
        "--price-input",
        "0.075",
        "--price-output",
        "0.30",
    )
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "rounds").exists() and not store_path(db).exists()  # nothing written
    lines = {
        article: next(line for line in result.output.splitlines() if line.startswith(article_id)) for article, article_id in ids.items()
    }
    assert "   6 requests" in lines["alpha"] and "   8 requests" in lines["beta"]  # n + 1 windows, concepts, abstract
    # round 1 counted exactly: the first request the export writes, as the client counts tokens
    assert cli("--db", str(db), "--llm-model", "fake-model", "--batch-export", str(tmp_path / "rounds")).exit_code == 0
    written = {
        json.loads(line)["body"]["messages"][1]["content"].split("colony of ")[1].split()[0]: json.loads(line)["body"]["messages"]
        for line in (tmp_path / "rounds" / "round-001.jsonl").read_text().splitlines()
    }
    for article in ("alpha", "beta"):
        exact = sum(math.ceil(len(message["content"]) / 3.5) for message in written[article])
        assert f"round 1: {exact:>7} prompt tokens" in lines[article]
        prompt, completion = (int(word) for word in lines[article].split("all:")[1].split()[0:4:3])
        assert prompt > 4 * exact and completion > 0
        assert f"{(prompt * 0.075 + completion * 0.30) / 1e6:.4f}" in lines[article]
    # prices from the settings; without any, tokens only
    priced = cli(
        "--db",
        str(db),
        "--llm-model",
        "fake-model",
        "--dry-run",
        env={"PAPERPYRAMID_DISTILL__PRICE_INPUT": "1", "PAPERPYRAMID_DISTILL__PRICE_OUTPUT": "2"},
    )
    assert "estimated cost" in priced.output
    bare = cli("--db", str(db), "--llm-model", "fake-model", "--dry-run")
    assert "set --price-input/--price-output for a cost" in bare.output and "estimated cost" not in bare.output
    no_model = cli("--db", str(db), "--dry-run", env={"PAPERPYRAMID_LLM__MODEL": ""})
    assert no_model.exit_code == 3 and "--llm-model" in no_model.output
