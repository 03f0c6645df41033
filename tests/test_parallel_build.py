"""``benchmarks/parallel_build.py`` resumes: killed in the middle of a chunk's writing (the
script, then a writer process) and run again, it finishes with the same corpora as a run never
stopped, each article stored once and each chunk counted once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus_scale  # noqa: E402
import parallel_build  # noqa: E402

from paperpyramid.contexts import ContextDraft  # noqa: E402
from paperpyramid.db.writer import CorpusWriter  # noqa: E402
from paperpyramid.document import Block, Reference, Section  # noqa: E402
from paperpyramid.tokens import TokenCounter  # noqa: E402

# minutes under load (a 300-article build killed twice and resumed): the heavy tier, `pytest --heavy`;
# the default run keeps the merge itself (tests/test_merge_parts.py)
pytestmark = [pytest.mark.slow, pytest.mark.heavy]
ARTICLES, CHUNK, BATCH = 300, 100, 10


def _real_corpus(path: Path) -> Path:
    """A small corpus of three articles with contexts, vectors, references and a pyramid, written
    by the real writer: what ``--real`` names."""
    sources = []
    for index in range(3):
        rng = np.random.default_rng(index)
        texts = [f"Sentence {i} of paper {index} about frogs and sharks measured in {2010 + i}. More words follow." for i in range(6)]
        drafts = [[ContextDraft(t, 1, 20, "Section", "paragraph") for t in texts[:3]],
                  [ContextDraft(t, 2, 20, "Section", "paragraph") for t in texts[3:]]]  # fmt: skip
        sections = [Section("Introduction", 1, "1", None, [Block(t, 1) for t in texts[:3]]),
                    Section("Methods", 1, "2", None, [Block(t, 2) for t in texts[3:]])]  # fmt: skip
        vectors = rng.standard_normal((6, corpus_scale.DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        row = {"title": f"Paper {index}", "abstract": "An abstract about frogs.", "doi": f"10.1/p{index}", "sha256": f"{index:064x}",
               "pages": 2, "authors": "[]"}  # fmt: skip
        references = [Reference(f"Someone. A cited work {index}-{k}. 2001.", title=f"A cited work {index}-{k}") for k in range(3)]
        source = corpus_scale.SourceArticle(row, sections, drafts, vectors, [], [], [], references)
        source.pyramid = corpus_scale._derived_pyramid(source)
        sources.append(source)
    with CorpusWriter(path, TokenCounter()) as writer:
        corpus_scale.write_batch(writer, [corpus_scale.make_copy(source, index) for index, source in enumerate(sources)])
    return path


def _command(real: Path, out: Path, articles: int = ARTICLES) -> list[str]:
    return [sys.executable, str(ROOT / "benchmarks" / "parallel_build.py"), "--articles", str(articles), "--chunk", str(CHUNK),
            "--batch", str(BATCH), "--queries", "0", "--real", str(real), "--out", str(out)]  # fmt: skip


def _state(out: Path) -> dict[str, Any]:
    try:
        return dict(json.loads((out / parallel_build.STATE).read_text()))
    except (FileNotFoundError, json.JSONDecodeError):
        return {"steps": {}}


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] not in "ZX"
    except (FileNotFoundError, IndexError):
        return False


def _kill_mid_chunk(process: subprocess.Popen[bytes], out: Path, step: str, share: int, *, writer: bool) -> list[int]:
    """SIGKILL the script (or, ``writer``, the first writer that has stored some of its share of
    ``step`` but not all) once a batch of ``step`` is recorded; the writers' pids."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and process.poll() is None:
        tries = _state(out)["steps"].get(step, {}).get("tries", [])
        writing = [w for w in (tries[-1] if tries else {}).values() if 0 < w["stored"] < share]
        if writing:
            os.kill(writing[0]["pid"] if writer else process.pid, signal.SIGKILL)
            process.wait(timeout=60)
            return [w["pid"] for w in tries[-1].values()]
        time.sleep(0.01)
    raise AssertionError(f"the run ended (rc {process.poll()}) before {step} was seen halfway")


def test_a_build_killed_mid_chunk_resumes_to_the_same_corpora(tmp_path: Path) -> None:
    real = _real_corpus(tmp_path / "real.sqlite")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    subprocess.run(_command(real, whole), check=True, env=env, capture_output=True)

    # the script killed halfway through the one writer's second chunk: its writers follow it
    first = subprocess.Popen(_command(real, stopped), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    writers = _kill_mid_chunk(first, stopped, "one/write 101-200", CHUNK, writer=False)
    time.sleep(1.0)
    assert not [pid for pid in writers if _alive(pid)], "a writer outlived the script"
    refused = subprocess.run(_command(real, stopped, articles=ARTICLES + 1), env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "other settings (articles)" in refused.stderr
    # run again, then a writer killed halfway through the parts' last chunk: that run stops
    second = subprocess.Popen(_command(real, stopped), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _kill_mid_chunk(second, stopped, "merged/write 201-300", CHUNK // 2, writer=True)
    assert second.returncode != 0
    last = subprocess.run(_command(real, stopped), env=env, capture_output=True, text=True)
    assert last.returncode == 0, last.stderr
    assert "the run spanned 2 restart(s)" in last.stdout

    for name in ("one", "merged"):
        assert parallel_build.fingerprints(stopped / f"{name}.sqlite") == parallel_build.fingerprints(whole / f"{name}.sqlite")
    assert parallel_build.fingerprints(whole / "one.sqlite") == parallel_build.fingerprints(whole / "merged.sqlite")
    results = json.loads((stopped / "parallel_build.json").read_text())
    assert results["restarts"] == 2 and results["compared"]["differ"] == []
    steps = results["steps"]
    for name in ("one", "merged"):
        chunks = {key: step for key, step in steps.items() if key.startswith(f"{name}/write ")}
        assert sorted(chunks) == [f"{name}/write 1-100", f"{name}/write 101-200", f"{name}/write 201-300"]
        assert all(step["done"] for step in chunks.values()) and sum(step["articles"] for step in chunks.values()) == ARTICLES
        assert results["one" if name == "one" else "parts"]["chunks"] == 3
    for key, share in (("one/write 101-200", CHUNK), ("merged/write 201-300", CHUNK // 2)):
        tries = steps[key]["tries"]
        assert len(tries) == 2, key
        # the try that finished went through the whole chunk: what the stopped try had stored
        # came back as duplicates the writer skipped, and nothing was stored twice
        for writer in tries[-1]:
            assert tries[-1][writer]["stored"] + tries[-1][writer]["skipped"] == share
            assert tries[0].get(writer, {"stored": 0})["stored"] + tries[-1][writer]["stored"] <= share
        assert sum(w["skipped"] for w in tries[-1].values()) > 0
    untouched = [key for key in steps if key not in ("one/write 101-200", "merged/write 201-300")]
    assert all(len(steps[key]["tries"]) == 1 for key in untouched), {key: len(steps[key]["tries"]) for key in untouched}
