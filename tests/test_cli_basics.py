"""Day-one command-line behaviour: --version, the corpus path from PAPERPYRAMID_DB, and article
ids that begin with '-' (nanoids can)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid import __version__
from paperpyramid.cli import app
from tests.test_distill import make_corpus, paper


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"paperpyramid {__version__}"


def test_corpus_path_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "elsewhere.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=2)})
    monkeypatch.setenv("PAPERPYRAMID_DB", str(db))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["search", "shark colony", "--json"])
    assert result.exit_code == 0, result.output
    assert "Colonies of alpha" in result.stdout and not (tmp_path / "paperpyramid.sqlite").exists()


def test_show_takes_an_id_that_begins_with_a_dash(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    (article_id,) = make_corpus(db, {"alpha": paper("alpha", pages=2)}).values()
    dashed = "-" + article_id[1:]
    with sqlite3.connect(db) as conn:  # give the article an id as nanoid can draw it: every reference to it follows
        conn.execute("UPDATE articles SET id = ? WHERE id = ?", [dashed, article_id])
        for (table,) in conn.execute("SELECT m.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c WHERE m.type = 'table' AND c.name = 'article_id'").fetchall():
            conn.execute(f"UPDATE {table} SET article_id = ? WHERE article_id = ?", [dashed, article_id])
    result = CliRunner().invoke(app, ["show", dashed, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Colonies of alpha" in result.stdout
