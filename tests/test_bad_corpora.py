"""Bad corpora at the command line: a corpus damaged in the middle (its header and schema
intact, so it opens and fails only when a query reaches a bad page), a file that is no database,
and another program's SQLite database. Reading commands print one line and exit 2; the file is
left byte for byte as it was; ingest adds no tables to another program's database."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from paperpyramid.corpus import Corpus
from paperpyramid.db import CorpusWriter
from tests.conftest import SAMPLE
from tests.test_distill import make_corpus, paper

READERS = [["search", "colony"], ["status"], ["show", "ARTICLE"], ["list"]]
#: the b-trees the reading commands go through: the articles, the ingest log, the full-text index
DAMAGED_TABLES = ("articles", "ingest_log", "contexts_fts_data")


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("corpus") / "corpus.sqlite"
    ids = make_corpus(path, {f"paper{number}": paper(f"paper{number}", pages=12) for number in range(8)})
    with CorpusWriter(path) as writer:
        for name, article_id in ids.items():
            writer.record(f"file:///papers/{name}.pdf", None, "done", article_id=article_id)
        writer.record("file:///papers/broken.pdf", None, "failed", error="corrupt PDF: no xref table")
    return path, ids["paper0"]


def damage(corpus: Path, target: Path) -> Path:
    """A copy of ``corpus`` with the pages at the root of DAMAGED_TABLES overwritten, as a
    failing disk or a bad copy would: the first page (header and schema) is left alone."""
    with sqlite3.connect(f"{corpus.resolve().as_uri()}?mode=ro", uri=True) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = [conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", [name]).fetchone()[0] for name in DAMAGED_TABLES]
    conn.close()
    data = bytearray(corpus.read_bytes())
    assert 1 not in pages and max(pages) * page_size < len(data)
    for page in pages:
        data[(page - 1) * page_size : page * page_size] = b"\xde\xad\xbe\xef" * (page_size // 4)
    target.write_bytes(bytes(data))
    return target


def bad_file(kind: str, corpus: Path, folder: Path) -> Path:
    db = folder / "bad.sqlite"
    if kind == "damaged corpus":
        damage(corpus, db)
        Corpus.open(db).close()  # it opens: the damage shows only when a query reaches it
    elif kind == "not a database":
        db.write_text("a notebook, not a database\n" * 100)
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE measurements (x REAL)")
            conn.execute("INSERT INTO measurements VALUES (1.5)")
        conn.close()
    return db


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command, as a user runs it."""
    command = shutil.which("paperpyramid", path=str(Path(sys.executable).parent))
    assert command is not None
    return subprocess.run([command, *args], capture_output=True, text=True, timeout=120, check=False, env={**os.environ, "COLUMNS": "400"})


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["damaged corpus", "not a database", "another program's SQLite"])
def test_reading_a_bad_corpus_prints_one_line_exits_3_and_leaves_the_file_as_it_was(
    kind: str, corpus_path: tuple[Path, str], tmp_path: Path
) -> None:
    corpus, article_id = corpus_path
    db = bad_file(kind, corpus, tmp_path)
    before = db.read_bytes()
    for args in READERS:
        args = [article_id if arg == "ARTICLE" else arg for arg in args]
        run = run_cli(*args, "--db", str(db))
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert run.returncode == 3, (args, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr and len(lines) == 1, (args, run.stderr)
        assert lines[0].startswith("error:") and str(db) in lines[0], (args, lines)
        if kind == "damaged corpus":
            assert "malformed" in lines[0], lines  # SQLite's word for it: the user learns the file is damaged
        assert db.read_bytes() == before, args


@pytest.mark.slow
def test_the_same_commands_read_the_undamaged_corpus(corpus_path: tuple[Path, str], tmp_path: Path) -> None:
    """The damage, not the commands, is what fails above."""
    corpus, article_id = corpus_path
    db = tmp_path / "good.sqlite"
    shutil.copy(corpus, db)
    for args in READERS:
        args = [article_id if arg == "ARTICLE" else arg for arg in args]
        run = run_cli(*args, "--db", str(db))
        assert run.returncode == 0 and run.stdout.strip(), (args, run.stdout, run.stderr)


def test_ingest_into_another_programs_sqlite_adds_no_tables(tmp_path: Path) -> None:
    db = tmp_path / "theirs.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE measurements (x REAL)")
    conn.close()
    before = db.read_bytes()
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf", pdfs)
    run = run_cli("ingest", str(pdfs), "--db", str(db), "--no-embed", "--workers", "0")
    assert run.returncode == 3 and "Traceback" not in run.stderr, run.stderr
    assert [line for line in run.stderr.splitlines() if line.strip()][0].startswith(
        f"error: {db} is an SQLite database but not a paperpyramid corpus"
    )
    assert db.read_bytes() == before
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("measurements",)]
    conn.close()
