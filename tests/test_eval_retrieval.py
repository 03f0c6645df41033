"""The retrieval metric of ../shared/qa/README.md, on hand-made passages whose answers are known,
and `paperpyramid eval retrieval` on a real corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paperpyramid.eval.retrieval import Evidence, Question, prepare, score_question, summarise
from paperpyramid.ingest import ingest
from paperpyramid.retrieval import Citation, SearchHit
from paperpyramid.settings import IngestSettings, Settings
from paperpyramid.tokens import TokenCounter
from tests.conftest import SAMPLE

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


def test_all_evidence_at_20_for_cross_questions() -> None:
    first, second = passage("alpha beta gamma delta"), passage("epsilon zeta eta theta")
    q = question("alpha beta gamma delta", "epsilon zeta eta theta", kind="cross-paper")
    assert score_question(q, [first, second], 0.0, COUNTER).all_evidence_at_20
    assert not score_question(q, [first], 0.0, COUNTER).all_evidence_at_20
    assert summarise([score_question(q, [first], 0.0, COUNTER)])["all_evidence@20"] == 0.0


def test_cli_scores_modes_side_by_side(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    qa = tmp_path / "qa.jsonl"
    rows = [
        {"id": "1", "question": "digital calipers precision", "kind": "method", "evidence": ["made to the nearest 0.1 mm using digital calipers"], "pdf": "x"},
        {"id": "2", "question": "zzzz qqqq", "kind": "fact", "evidence": ["no such text anywhere in the corpus at all"], "pdf": "x"},
    ]
    qa.write_text("\n".join(json.dumps(row) for row in rows))
    out = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "eval", "retrieval", str(qa), "--db", str(db), "--modes", "bm25", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "overall (2 questions)" in result.stdout and "bm25" in result.stdout
    report = json.loads(out.read_text())
    assert report["bm25"]["ranks"]["2"] is None and report["bm25"]["ranks"]["1"] is not None
    assert report["bm25"]["overall"]["r@20"] == 0.5
    refused = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "eval", "retrieval", str(qa), "--db", str(db), "--modes", "vector"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert refused.returncode == 2 and "paperpyramid embed" in refused.stderr and "Traceback" not in refused.stderr
