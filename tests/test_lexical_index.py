"""The BM25 index kept beside FTS5 (``paperpyramid.db.lexical_index``), on the three real sample
papers: it ranks and scores exactly as FTS5's ``bm25()`` (phrases and diacritics included), it
answers only while it is current (a changed context sends search back to FTS5, which finds the
change), ingest keeps it current with a segment for the new contexts, and a small corpus gets
none unless asked."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from paperpyramid.db import lexical_index
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.ingestion import ingest
from paperpyramid.retrieval import bm25
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE

SETTINGS = Settings(ingest=IngestSettings(workers=0, embed=False))
FTS5_TOP = "SELECT rowid, -bm25(contexts_fts, 1.0, 0.5) AS score FROM contexts_fts WHERE contexts_fts MATCH ? ORDER BY score DESC LIMIT ?"

QUESTIONS = [
    "How were the frogs euthanised?",
    "internal fertilization in fanged frogs",
    "barriers to health services in rural areas",
    "volatile organic compounds of durum wheat infected by Fusarium",
    "self-attention transformer",  # a phrase that matches nothing, beside its parts
    "naïve café Ærø",  # diacritics, folded by FTS5's tokenizer
    "snake_case x_y",  # underscores split words in FTS5 but not in Python's \w
    "the of and",  # stopwords only: searched as they are
]


def _copy(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / "pdfs"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(SAMPLE / name, folder / name)
    return folder


def _queries(conn: object) -> list[str]:
    """The questions above, words of the corpus two by two, and its hyphenated words (phrases)."""
    text = " ".join(row[0] for row in conn.execute("SELECT text FROM contexts"))  # type: ignore[attr-defined]
    words = sorted(set(re.findall(r"[A-Za-z]{4,}", text)))
    pairs = [f"{a} {b}" for a, b in zip(words[::37], words[18::37], strict=False)]
    hyphenated = sorted(set(re.findall(r"\b[A-Za-z]+-[A-Za-z]+\b", text)))[:30]
    assert len(pairs) > 50 and len(hyphenated) > 10
    return QUESTIONS + pairs + [f"{word} frogs" for word in hyphenated]


def _phrases(query: str) -> list[str]:
    match = bm25.fts_query(query)
    assert match is not None
    return [part[1:-1] for part in match.split(" OR ")]


def _assert_as_fts5(conn: object, queries: list[str], fetch: int = 100) -> None:
    for query in queries:
        by_index = lexical_index.search(conn, _phrases(query), lexical_index.WEIGHTS, fetch)
        assert by_index is not None, "the index should answer"
        by_fts5 = [(int(rowid), float(score)) for rowid, score in conn.execute(FTS5_TOP, [bm25.fts_query(query), fetch])]  # type: ignore[attr-defined]
        # the same rows with the same scores, bit for bit (rows tied at the cut may differ)
        assert [score for _, score in by_index] == [score for _, score in by_fts5], query
        last = by_fts5[-1][1] if len(by_fts5) == fetch else None
        assert {pair for pair in by_index if pair[1] != last} == {pair for pair in by_fts5 if pair[1] != last}, query


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lexical") / "corpus.sqlite"
    assert ingest([SAMPLE], db, SETTINGS).count("done") == 3
    return db


@pytest.mark.slow
def test_the_index_ranks_and_scores_exactly_as_fts5(sample_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    shutil.copy(sample_db, db)
    conn = db_sqlite.connect(db)
    conn.isolation_level = None
    status = lexical_index.update(conn, lexical_index.WEIGHTS)
    contexts = conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
    assert status.current and status.rows == contexts and status.segments == 1 and status.terms > 1000
    _assert_as_fts5(conn, _queries(conn))
    # retrieval goes through it and returns what FTS5 returns
    for query in QUESTIONS[:4]:
        shipped = [(hit.context_id, hit.score, hit.citation) for hit in bm25.search(conn, query, 20)]
        baseline = [(hit.context_id, hit.score, hit.citation) for hit in bm25.search(conn, query, 20, index=False)]
        assert shipped == baseline and shipped


def test_a_changed_context_sends_search_to_fts5_until_the_index_is_rebuilt(sample_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    shutil.copy(sample_db, db)
    conn = db_sqlite.connect(db)
    conn.isolation_level = None
    lexical_index.update(conn, lexical_index.WEIGHTS)
    rowid, context_id = conn.execute("SELECT rowid, id FROM contexts ORDER BY rowid LIMIT 1 OFFSET 40").fetchone()
    conn.execute("UPDATE contexts SET text = text || ' zyxwvutsrq' WHERE rowid = ?", [rowid])
    assert not lexical_index.is_current(conn, lexical_index.WEIGHTS)
    assert lexical_index.search(conn, ["zyxwvutsrq"], lexical_index.WEIGHTS, 10) is None
    assert [hit.context_id for hit in bm25.search(conn, "zyxwvutsrq")] == [context_id]  # FTS5 found it
    status = lexical_index.update(conn, lexical_index.WEIGHTS)  # rows rewritten: the whole index again
    assert status.current and status.segments == 1
    assert lexical_index.search(conn, ["zyxwvutsrq"], lexical_index.WEIGHTS, 10) == [
        (rowid, pytest.approx(bm25.search(conn, "zyxwvutsrq")[0].score))
    ]
    _assert_as_fts5(conn, QUESTIONS)


@pytest.mark.slow
def test_ingest_keeps_the_index_current_with_a_segment_for_the_new_contexts(tmp_path: Path) -> None:
    papers = sorted(path.name for path in SAMPLE.glob("*.pdf"))
    db = tmp_path / "corpus.sqlite"
    assert ingest([_copy(tmp_path, papers[:2])], db, SETTINGS).count("done") == 2
    conn = db_sqlite.connect(db)
    conn.isolation_level = None
    assert lexical_index.maintain(conn) is None  # small corpus: no index unless asked
    assert lexical_index.maintain(conn, min_rows=1) is not None
    conn.close()
    assert ingest([_copy(tmp_path, papers)], db, SETTINGS).count("done") == 1  # the third paper
    conn = db_sqlite.connect(db, read_only=True)
    status = lexical_index.index_status(conn, lexical_index.WEIGHTS)
    assert status.current and status.segments == 2
    assert status.rows == conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
    _assert_as_fts5(conn, _queries(conn))


def test_a_small_corpus_gets_no_index_from_ingest(sample_db: Path) -> None:
    conn = db_sqlite.connect(sample_db, read_only=True)
    assert not lexical_index.index_status(conn, lexical_index.WEIGHTS).exists
    assert lexical_index.search(conn, ["frog"], lexical_index.WEIGHTS, 10) is None


def test_a_snapshot_carries_the_index_current(sample_db: Path, tmp_path: Path) -> None:
    from paperpyramid import Corpus
    from paperpyramid.db.snapshot import take_snapshot

    db = tmp_path / "corpus.sqlite"
    shutil.copy(sample_db, db)
    conn = db_sqlite.connect(db)
    conn.isolation_level = None
    lexical_index.update(conn, lexical_index.WEIGHTS)
    conn.close()
    take_snapshot(db, str(tmp_path / "published"), SETTINGS)
    snapshot = next((tmp_path / "published").glob("*.sqlite.zst"))
    with Corpus.open(snapshot, cache_dir=tmp_path / "cache") as opened:
        assert lexical_index.is_current(opened.conn, lexical_index.WEIGHTS)
        _assert_as_fts5(opened.conn, QUESTIONS)
