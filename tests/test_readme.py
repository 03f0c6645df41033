"""The README's first lines are the two set-up commands, and the main job runs end to end (its Python
examples run in tests/test_docs.py with the rest of the documentation's)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_first_lines_are_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    commands = [line for line in lines[:6] if line.startswith("bash scripts/setup.sh")]
    assert len(commands) == 2 and "pytest" in commands[1] and "scripts/demo.py" in commands[0]
    assert "pytest" in (ROOT / ".ci/run").read_text()


@pytest.mark.slow
@pytest.mark.llm
def test_readme_main_job_runs_end_to_end(s3_env, tmp_path):
    """scripts/demo.py, the README's first command, against the tests' S3 server."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "demo.py"), "--use-running-server", "--db", str(tmp_path / "demo.sqlite")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    output = " ".join(result.stdout.split())
    assert "3 articles" in output and "3 ingested, 0 failed" in " ".join(result.stderr.split())
    assert "1. A Novel Reproductive Mode in Frogs" in output
    assert "mode: hybrid" in output, "the main job embeds, and the snapshot carries the vectors"
    assert "parent-document retrieval:" in output
    # the pyramid: the embedded model distilled the three papers (crude content: assert structure only)
    assert "3 articles distilled with local:SmolLM2-135M-Instruct-Q4_1, 0 failed" in " ".join(result.stderr.split())
    counts = dict(re.findall(r"^\s+(insights|concepts|abstracts)\s+(\d+) items", result.stdout, re.M))
    assert int(counts["insights"]) >= 3 and int(counts["abstracts"]) == 3, result.stdout
    shown = re.findall(r"^   \d\. .+\n      (.+)$", result.stdout.split("insights (the pyramid's first level)")[1], re.M)
    assert shown and all("p. " in line for line in shown), "each insight is cited to a page"
    # asking: the steps, an answer (cited claims, or the statement that the passages do not answer), the tokens
    asked = result.stdout.split("7. asking the corpus")[1]
    parent, agent = asked.split("the same question by the pyramid search agent")
    assert "step retrieve: parent:" in parent and "step answer:" in parent and "   answer: " in parent
    assert re.search(r"tokens: [1-9]\d* prompt \+ \d+ completion", parent)
    # the pyramid agent: one or two rounds over the demo's own pyramid, the drill-down, an answer
    assert 1 <= len(re.findall(r"^   step pyramid: round \d", agent, re.M)) <= 2, agent
    assert "step retrieve: pyramid:" in agent and "step answer:" in agent and re.search(r"tokens: [1-9]\d* prompt", agent)
    # what the models wrote is shown a line at a time, each cut to ~300 characters: no run of "1.1.1.1…"
    shown = result.stdout.split("6. opening the snapshot")[1].splitlines()
    assert max(len(line) for line in shown) <= 320, max(shown, key=len)
    assert not re.search(r"(\S.{0,3}?)\1{20,}", result.stdout), "a model's loop printed"
