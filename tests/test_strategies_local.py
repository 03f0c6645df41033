"""Every LLM-driven strategy end to end with the real embedded model (SmolLM2-135M-Instruct in
numpy) on the bundled sample, with vectors and the frog paper's reference pyramid: the model's
choices are crude, so the test checks structure — limits kept, steps and tokens accounted,
every passage and citation a stored context with its page — never content."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperpyramid.asking.strategies import STRATEGIES
from paperpyramid.asking.trace import Limits
from paperpyramid.corpus import Corpus
from paperpyramid.distill.exchange import import_distillations
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.errors import ConfigurationError
from paperpyramid.ingestion.pipeline import ingest
from paperpyramid.llm import LLM, get_llm
from paperpyramid.llm.local import model_path
from paperpyramid.settings import IngestSettings, LLMSettings, Settings
from tests.conftest import DATA, SAMPLE

FROG = "plos-one-2014-fanged-frog-internal-fertilization"
QUESTION = "How do the fanged frogs of Sulawesi fertilize their eggs?"
#: the moves or rounds each strategy may make here; every strategy's own step names
LIMITS = Limits(max_steps=2, llm_tokens=20_000)
DECISIONS = {"multiquery": "variants", "walk": "walk", "walkingrag": "round", "pyramid": "pyramid"}


@pytest.fixture(scope="module")
def local_llm(tmp_path_factory: pytest.TempPathFactory) -> LLM:
    try:
        model_path()
    except ConfigurationError as exc:
        pytest.skip(str(exc))
    return get_llm(LLMSettings(backend="local", cache=True, cache_path=str(tmp_path_factory.mktemp("cache") / "llm.sqlite")))


@pytest.fixture(scope="module")
def sample_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sample")
    shutil.copytree(SAMPLE, folder / "pdfs")
    db = folder / "sample.sqlite"
    assert ingest([folder / "pdfs"], db, Settings(ingest=IngestSettings(workers=0, embed=True))).count("done") == 3
    assert [error for _, _, error in import_distillations(db, [DATA / "distill" / f"{FROG}.json"], embedder=MiniLM())] == [None]
    return db


#: the default run asks the real model through two strategies; the heavy tier through every one
_HEAVY = {"multiquery", "walkingrag"}


@pytest.mark.slow
@pytest.mark.llm
@pytest.mark.parametrize("strategy", [pytest.param(name, marks=pytest.mark.heavy) if name in _HEAVY else name for name in STRATEGIES])
def test_strategy_answers_with_the_embedded_model(sample_corpus: Path, local_llm: LLM, strategy: str) -> None:
    with Corpus.open(sample_corpus) as corpus:
        answer = corpus.ask(QUESTION, strategy=strategy, budget_tokens=800, llm=local_llm, limits=LIMITS)
        stored = {row[0]: row[1] for row in corpus.conn.execute("SELECT id, page_number FROM contexts")}
    names = [step.name for step in answer.steps]
    assert names.count(DECISIONS[strategy]) <= LIMITS.max_steps, names
    assert names[-1] == "answer" and "retrieve" in names
    assert answer.passages and sum(hit.num_tokens for hit in answer.passages) <= 800
    for hit in answer.passages:
        assert stored[hit.context_id] == hit.citation.page_number
    for claim in answer.claims:
        assert all(source.context_id in stored for source in claim.sources)
    for fact in answer.facts:
        assert fact.text and set(fact.context_ids) <= set(stored)
    data = answer.to_json()
    assert data["usage"]["total_tokens"] == sum(step.prompt_tokens + step.completion_tokens for step in answer.steps) > 0
    assert data["strategy"] == strategy and {citation["context_id"] for citation in data["citations"]} <= set(stored)
