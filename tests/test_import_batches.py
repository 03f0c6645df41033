"""``distill --import`` stores its files a batch to a transaction (``store_pyramids``), with the
same result as one at a time; a file that cannot be read, or whose pyramid cannot be stored,
fails alone and the others are stored."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paperpyramid.db import pyramid as db_pyramid
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.distill import exchange
from paperpyramid.distill.exchange import export_distillation, import_distillations
from paperpyramid.tokens import TokenCounter
from tests.test_insights_fts import content, pyramid, stored


@pytest.fixture
def corpus_and_files(tmp_path: Path) -> tuple[Path, list[Path]]:
    """Five small articles; each one's distillation exported to a file; the corpus without them."""
    db = tmp_path / "corpus.sqlite"
    writer = CorpusWriter(db, counter=TokenCounter())
    try:
        articles = stored(writer, range(5))
        fresh = tmp_path / "fresh.sqlite"
        writer.db.conn.execute("VACUUM INTO ?", [str(fresh)])
        files = []
        for n, (article_id, context) in enumerate(articles):
            db_pyramid.store_pyramid(writer.db.conn, pyramid(article_id, context, n, vectors=False))
            files.append(tmp_path / f"{n}.json")
            files[-1].write_text(json.dumps(export_distillation(writer.db.conn, article_id)))
    finally:
        writer.close()
    return fresh, files


def imported(fresh: Path, folder: Path, files: list[Path], batch: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list, dict]:
    db = folder / f"batch-{batch}.sqlite"
    shutil.copy(fresh, db)
    monkeypatch.setattr(exchange, "IMPORT_BATCH", batch)
    results = import_distillations(db, files)
    writer = CorpusWriter(db, counter=TokenCounter())
    try:
        return results, content(writer.db.conn)
    finally:
        writer.close()


def test_batches_store_what_one_at_a_time_stores(corpus_and_files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, files = corpus_and_files
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    given = [files[0], broken, *files[1:], files[2]]  # a bad file among them, and one article twice
    alone, one_at_a_time = imported(fresh, tmp_path, given, 1, monkeypatch)
    together, batched = imported(fresh, tmp_path, given, 3, monkeypatch)
    assert [(path, error is None) for path, _, error in together] == [(path, error is None) for path, _, error in alone]
    assert [path for path, _, error in together if error] == [broken]
    assert batched == one_at_a_time
    assert len(batched["insights"]) == 15  # the article given twice replaced, not doubled


def test_a_pyramid_that_cannot_be_stored_fails_alone(corpus_and_files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, files = corpus_and_files
    check = db_pyramid._check
    refused: list[str] = []

    def failing(given: db_pyramid.ArticlePyramid) -> None:
        if not refused or given.article_id == refused[0]:
            refused[:1] = [given.article_id]
            raise ValueError("vectors of another size")
        check(given)

    monkeypatch.setattr(db_pyramid, "_check", failing)
    results, stored_content = imported(fresh, tmp_path, files, 5, monkeypatch)
    errors = [error for _, _, error in results]
    assert errors[0] == "could not store its pyramid: ValueError: vectors of another size"
    assert errors[1:] == [None] * 4
    assert len(stored_content["insights"]) == 12 and len(stored_content["done"]) == 4
