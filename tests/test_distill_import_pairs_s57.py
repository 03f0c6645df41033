"""A distillation that names a PDF finds the article read from the JATS beside that PDF."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.distill.exchange import UnmatchedDistillation, pyramid_from_file
from paperpyramid.ingestion.pipeline import ingest
from paperpyramid.settings import IngestSettings, Settings
from paperpyramid.tokens import TokenCounter
from tests.conftest import DATA, SAMPLE

FROG = "plos-one-2014-fanged-frog-internal-fertilization"
DISTILLATION = DATA / "distill" / f"{FROG}.json"


def _ingested(folder: Path, *files: Path) -> Path:
    (folder / "in").mkdir()
    for file in files:
        shutil.copy(file, folder / "in")
    db = folder / "c.sqlite"
    assert ingest([folder / "in"], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 1
    return db


def _matched(db: Path) -> tuple[str, str]:
    """(the matched article's source file name, its parser) for the frog's distillation."""
    conn = db_sqlite.connect(db, read_only=True)
    try:
        pyramid = pyramid_from_file(conn, DISTILLATION, counter=TokenCounter())
        source, parser = conn.execute("SELECT source_uri, parser FROM articles WHERE id = ?", [pyramid.article_id]).fetchone()
        return Path(source).name, parser
    finally:
        conn.close()


def test_a_pdf_name_matches_the_jats_read_with_that_pdf(tmp_path: Path) -> None:
    db = _ingested(tmp_path, SAMPLE / f"{FROG}.pdf", DATA / "gold" / f"{FROG}.nxml")
    assert _matched(db) == (f"{FROG}.nxml", "jats+embedded")


def test_a_pdf_name_does_not_match_a_jats_read_without_a_pdf(tmp_path: Path) -> None:
    db = _ingested(tmp_path, DATA / "gold" / f"{FROG}.nxml")
    with pytest.raises(UnmatchedDistillation, match="no article matches"):
        _matched(db)


def test_only_distilled_keeps_the_questions_naming_the_pdf_beside_the_jats(tmp_path: Path) -> None:
    db = _ingested(tmp_path, SAMPLE / f"{FROG}.pdf", DATA / "gold" / f"{FROG}.nxml")
    imported = CliRunner().invoke(app, ["distill", "--db", str(db), "--import", str(DISTILLATION)])
    assert imported.exit_code == 0, imported.output
    questions = tmp_path / "qa.jsonl"
    asked = [(f"{FROG}.pdf", "fanged frog tadpoles"), ("another-paper.pdf", "sharks")]
    questions.write_text(
        "".join(
            json.dumps({"id": str(i), "pdf": pdf, "question": q, "kind": "fact", "evidence": [q]}) + "\n"
            for i, (pdf, q) in enumerate(asked)
        )
    )
    result = CliRunner().invoke(app, ["eval", "retrieval", str(questions), "--db", str(db), "--only-distilled", "--modes", "bm25"])
    assert result.exit_code == 0, result.output
    assert "1 questions about the 1 distilled papers" in result.output
