"""``embed`` with a model whose every vector is unusable: nothing is stored, the run stops after
the first batch rather than send the whole corpus to a broken model, and it exits 1, the status
the docs give for unusable vectors (3 is for an endpoint that does not answer at all)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperpyramid.cli.common import EXIT_CONFIGURATION, EXIT_SOME_FAILED
from tests.test_distill import make_corpus, paper
from tests.test_embed_faults import Faults, count, embed_cli, fake, server  # noqa: F401 - fixtures


def test_embed_where_every_vector_is_nan_exits_1(fake: tuple[str, Faults], tmp_path: Path) -> None:  # noqa: F811 - fixtures
    url, faults = fake
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3), "beta": paper("beta", pages=3)})
    faults.nan = True
    result: Any = embed_cli(db, url)
    said = " ".join(result.output.split())
    assert result.exit_code == EXIT_SOME_FAILED, said
    assert "0 contexts embedded" in said and "4 failed" in said and "NaN" in said and url in said
    assert "a re-run" in said
    assert count(db, "SELECT count(*) FROM vec_contexts_1") == 0


def test_embed_where_the_endpoint_does_not_answer_exits_3(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    result: Any = embed_cli(db, "http://127.0.0.1:9/v1")  # the discard port: nothing listens
    assert result.exit_code == EXIT_CONFIGURATION, result.output
