"""The real embedded model (SmolLM2-135M-Instruct, in numpy) distils one short paper end to
end. Its sentences are crude: the test checks structure, never content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.distill.pipeline import distill_corpus
from paperpyramid.distill.prompts import PROMPT_VERSION
from paperpyramid.errors import ConfigurationError
from paperpyramid.llm import get_llm
from paperpyramid.llm.local import model_path
from paperpyramid.settings import DistillSettings, LLMSettings
from tests.test_distill import make_corpus, paper


@pytest.mark.slow
@pytest.mark.llm
def test_embedded_model_distils_a_short_paper(tmp_path: Path) -> None:
    try:
        model_path()
    except ConfigurationError as exc:
        pytest.skip(str(exc))
    db = tmp_path / "corpus.sqlite"
    (article_id,) = make_corpus(db, {"alpha": paper("alpha", pages=2)}).values()
    llm = get_llm(LLMSettings(backend="local", cache=True, cache_path=str(tmp_path / "cache.sqlite")))
    summary = distill_corpus(db, llm, DistillSettings(embed=False, recollections=False, max_tokens=200))
    assert (summary.done, summary.failed) == (1, 0), summary.outcomes
    conn = db_sqlite.connect(db, read_only=True)
    try:
        status = conn.execute("SELECT model, prompt_version, calls, prompt_tokens > 0, completion_tokens > 0 FROM distillations").fetchone()
        insights = conn.execute(
            "SELECT position, text, pages, num_tokens FROM insights WHERE article_id = ? ORDER BY position", [article_id]
        ).fetchall()
        steps = [row[0] for row in conn.execute("SELECT step FROM llm_calls ORDER BY id")]
        abstracts = conn.execute("SELECT count(*) FROM abstracts").fetchone()[0]
        bad_links = conn.execute("SELECT count(*) FROM concepts_insights WHERE insight_id NOT IN (SELECT id FROM insights)").fetchone()[0]
    finally:
        conn.close()
    assert status == ("local:SmolLM2-135M-Instruct-Q4_1", PROMPT_VERSION, 5, 1, 1)
    assert steps == ["insights:p1", "insights:p1-2", "insights:p2", "concepts", "abstract"]
    assert [position for position, *_ in insights] == list(range(1, len(insights) + 1))
    for _, text, pages, num_tokens in insights:
        assert text.strip() and num_tokens > 0 and set(json.loads(pages)) <= {1, 2}
    assert abstracts <= 1 and bad_links == 0
    # greedy decoding and the cache: a re-distillation costs nothing and gives the same pyramid
    again = distill_corpus(db, llm, DistillSettings(embed=False, recollections=False, max_tokens=200), redo=True)
    assert again.done == 1 and again.tokens == 0
