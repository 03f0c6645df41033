"""The default MiniLM's queries: embedded in float32 (ONNX Runtime, else numpy) beside passages in
bfloat16, so that a search waits on neither torch's import nor its thread pool, and never imports
it; the vectors agree across the runtimes, so a corpus embedded by one is searched by the other."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paperpyramid import Corpus
from paperpyramid.embeddings import Embedder, get_embedder, onnxruntime_available
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.embeddings.minilm_torch import bf16_unavailable
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.embed import embed_corpus
from paperpyramid.settings import EmbeddingSettings, IngestSettings, Settings
from tests.conftest import EMBEDDING_TEXTS, SAMPLE

ROOT = Path(__file__).resolve().parents[1]
FROG = "10.1371/journal.pone.0115884"
#: questions as researchers ask them, of the kinds in the QA set (fact, number, table, method)
QUESTIONS = [
    "frogs that give birth to tadpoles after internal fertilization",
    "How many specimens of the tadpole-bearing Limnonectes species did the authors examine?",
    "Which volatile compounds distinguished Fusarium-infected durum wheat kernels?",
    "What barriers did patients report when accessing health services?",
    "What precision were the morphometric measurements taken to, and with which tool?",
    "retention time of hexanal",
]
NEEDS_BF16 = pytest.mark.skipif(
    bf16_unavailable() is not None,
    reason=f"the default does not run in bfloat16 here ({bf16_unavailable()}): queries and passages share one runtime",
)


def float32_embedder() -> MiniLM:
    if onnxruntime_available():
        from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx

        return MiniLMOnnx(threads=1)
    return MiniLM()


def test_the_default_embeds_queries_as_float32_does() -> None:
    default = get_embedder(EmbeddingSettings(threads=1))
    reference = float32_embedder()
    texts = QUESTIONS + EMBEDDING_TEXTS
    ours = np.stack([default.embed_query(text) for text in texts])
    theirs = np.stack([reference.embed_query(text) for text in texts])
    assert ours.shape == (len(texts), 384) and ours.dtype == np.float32
    assert (ours * theirs).sum(1).min() >= 0.999


@NEEDS_BF16
def test_with_torch_and_amx_passages_run_in_bf16_and_queries_in_float32() -> None:
    from paperpyramid.embeddings.minilm_torch import MiniLMBf16

    default = get_embedder(EmbeddingSettings(threads=1))
    assert isinstance(default, MiniLMBf16) and type(default.queries) is type(float32_embedder()), default
    reference = float32_embedder()
    # the query is float32's own vector, the passage bfloat16's (within rounding, not equal)
    assert np.allclose(default.embed_query(QUESTIONS[1]), reference.embed_query(QUESTIONS[1]), atol=1e-6)
    passage, float32_passage = default.embed_passages(QUESTIONS[1:2])[0], reference.embed_passages(QUESTIONS[1:2])[0]
    assert float(passage @ float32_passage) >= 0.999 and not np.allclose(passage, float32_passage, atol=1e-5)
    # a runtime named in the settings runs queries and passages alike, as before
    explicit = get_embedder(EmbeddingSettings(runtime="torch-bf16", threads=1))
    assert isinstance(explicit, MiniLMBf16) and explicit.queries is None
    assert not np.allclose(explicit.embed_query(QUESTIONS[1]), reference.embed_query(QUESTIONS[1]), atol=1e-5)


@pytest.fixture(scope="module")
def unembedded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample papers ingested without vectors."""
    db = tmp_path_factory.mktemp("queries") / "sample.sqlite"
    summary = ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    assert summary.count("done") == 3
    return db


def embedded_copy(unembedded: Path, embedder: Embedder, name: str) -> Path:
    db = unembedded.with_name(f"{name}.sqlite")
    if not db.exists():
        shutil.copy(unembedded, db)
        assert embed_corpus(db, embedder).embedded > 0
    return db


SEARCH_ONLY = """
import json, sys
from paperpyramid import Corpus
with Corpus.open(sys.argv[1]) as corpus:
    hits = {mode: [hit.citation.article_id for hit in corpus.retrieve(sys.argv[2], mode=mode, k=5)] for mode in ("vector", "hybrid")}
    searched = [hit.citation.article_id for hit in corpus.search(sys.argv[2], k=5)]
    frog = corpus.article(sys.argv[3]).id
print(json.dumps({"hits": hits, "searched": searched, "frog": frog, "torch": "torch" in sys.modules}))
"""


@pytest.mark.slow
@NEEDS_BF16
def test_a_search_never_imports_torch(unembedded: Path) -> None:
    """A process that only searches (as ``paperpyramid search`` and ``serve`` do) with the
    default settings finds by meaning without importing torch: no second of import, no model
    load, no thread pool to wait on."""
    from paperpyramid.embeddings.minilm_torch import MiniLMBf16

    db = embedded_copy(unembedded, MiniLMBf16(threads=1), "bf16")
    env = {"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin", "HOME": str(Path.home()), "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", SEARCH_ONLY, str(db), QUESTIONS[0], FROG], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["hits"]["vector"][0] == answer["hits"]["hybrid"][0] == answer["searched"][0] == answer["frog"], answer
    assert answer["torch"] is False, "a search embeds its query in float32: torch stays out of the process"


@pytest.mark.slow
@NEEDS_BF16
def test_a_corpus_embedded_by_either_runtime_is_searched_by_the_other(unembedded: Path) -> None:
    """Vectors of bfloat16 passages and float32 queries (and the other way round) are stored and
    searched under one model name: the same passages come first whichever runtime embedded what."""
    from paperpyramid.embeddings.minilm_torch import MiniLMBf16

    runtimes: dict[str, Embedder] = {"bf16": MiniLMBf16(threads=1), "float32": float32_embedder()}
    corpora = {name: embedded_copy(unembedded, embedder, name) for name, embedder in runtimes.items()}
    found: dict[tuple[str, str], list[list[str]]] = {}
    for corpus_name, db in corpora.items():
        for query_name, embedder in runtimes.items():
            with Corpus.open(db, embedder=embedder) as corpus:
                assert corpus.best_mode() == "hybrid", "the vectors are the query embedder's model's"
                found[corpus_name, query_name] = [
                    [hit.context_id for hit in corpus.retrieve(question, mode="vector", k=5)] for question in QUESTIONS
                ]
                assert corpus.retrieve(QUESTIONS[0], mode="vector", k=1)[0].citation.article_id == corpus.article(FROG).id
    same = found["float32", "float32"]
    for combination, hits in found.items():
        assert [ranked[0] for ranked in hits] == [ranked[0] for ranked in same], combination
        assert all(len(set(ours) & set(theirs)) >= 4 for ours, theirs in zip(hits, same, strict=True)), (combination, hits, same)
