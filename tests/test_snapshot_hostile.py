"""Snapshots from untrusted places: a gzip bomb, a download longer than its manifest says, a
schema that would hang or trip every reader, and a query that would run forever. Each is
refused (or interrupted) with a paperpyramid error, and nothing of it is left in the cache."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import closing
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paperpyramid.corpus import Corpus
from paperpyramid.db import SCHEMA_VERSION
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.snapshot import MANIFEST_FORMAT, SnapshotCorrupt, SnapshotError, take_snapshot
from paperpyramid.db.sqlite import OperationalError, connect, sqlite3
from tests.test_distill import make_corpus, paper

STEM = "corpus-20240501T120000Z"
#: the probe's bomb, scaled down: 200 MB of zeros in about 200 KB, with a manifest claiming 4 KB
BOMB_BYTES = 200 << 20
CLAIMED = 4096
ENDLESS = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "corpus.sqlite"
    make_corpus(path, {name: paper(name, pages=3) for name in ("alpha", "beta")})
    return path


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def publish(folder: Path, packed: bytes, *, database: dict[str, Any]) -> Path:
    """A snapshot as take_snapshot lays one out, from compressed bytes and what its manifest
    says of the database (a hostile publisher writes whatever manifest it likes)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{STEM}.sqlite.gz"
    path.write_bytes(packed)
    manifest = {
        "format": MANIFEST_FORMAT, "manifest_version": 1, "schema_version": SCHEMA_VERSION,
        "database": {"name": f"{STEM}.sqlite", **database},
        "compressed": {"name": path.name, "compression": "gzip", "sha256": sha256_of(packed), "size": len(packed)},
    }  # fmt: skip
    (folder / f"{STEM}.manifest.json").write_text(json.dumps(manifest))
    return path


def publish_database(folder: Path, database: Path) -> Path:
    raw = database.read_bytes()
    return publish(folder, gzip.compress(raw), database={"sha256": sha256_of(raw), "size": len(raw)})


def cached_files(cache: Path) -> list[Path]:
    return [path for path in cache.rglob("*") if path.is_file()]


# size limits


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip stream
    zeros = bytes(1 << 20)
    packed = b"".join(packer.compress(zeros) for _ in range(BOMB_BYTES // len(zeros))) + packer.flush()
    assert len(packed) < 1 << 20
    return publish(tmp_path_factory.mktemp("bomb"), packed, database={"sha256": "0" * 64, "size": CLAIMED})


def test_a_gzip_bomb_is_refused_once_it_passes_the_size_its_manifest_states(bomb: Path, tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(SnapshotCorrupt, match=f"inflates to more than the {CLAIMED} bytes its manifest states"):
        Corpus.open(bomb, cache_dir=tmp_path / "cache")
    assert time.monotonic() - started < 5  # it stopped at once, not after inflating 200 MB
    assert cached_files(tmp_path / "cache") == []  # no partial file left behind


def test_a_gzip_bomb_never_writes_more_than_its_manifest_states(bomb: Path, tmp_path: Path) -> None:
    """Measured by the kernel: with files capped at the manifest's size (RLIMIT_FSIZE), writing
    one byte more fails with EFBIG instead of the refusal."""
    script = textwrap.dedent(f"""
        import resource
        from paperpyramid.corpus import Corpus
        from paperpyramid.db.snapshot import SnapshotCorrupt
        resource.setrlimit(resource.RLIMIT_FSIZE, ({CLAIMED}, {CLAIMED}))
        try:
            Corpus.open({str(bomb)!r}, cache_dir={str(tmp_path / "cache")!r})
        except SnapshotCorrupt as exc:
            print("refused:", exc)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})  # fmt: skip
    assert run.returncode == 0 and run.stdout.startswith("refused:") and "inflates to more than" in run.stdout, run.stdout + run.stderr
    assert cached_files(tmp_path / "cache") == []


def test_a_snapshot_bigger_than_the_free_space_is_refused_before_it_is_inflated(corpus_path: Path, tmp_path: Path) -> None:
    raw = corpus_path.read_bytes()
    snapshot = publish(tmp_path / "big", gzip.compress(raw), database={"sha256": sha256_of(raw), "size": 1 << 60})
    with pytest.raises(SnapshotError, match=r"not enough free space in .* its manifest says it needs 1152921504606846976 bytes"):
        Corpus.open(snapshot, cache_dir=tmp_path / "cache")
    assert cached_files(tmp_path / "cache") == []


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def http_folder(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    folder = tmp_path / "served"
    folder.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield folder, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_download_longer_than_its_manifest_states_is_cut_off(corpus_path: Path, http_folder: tuple[Path, str], tmp_path: Path) -> None:
    folder, base = http_folder
    snapshot = publish_database(folder, corpus_path)
    manifest_path = folder / f"{STEM}.manifest.json"
    manifest = json.loads(manifest_path.read_text())
    stated = manifest["compressed"]["size"]
    snapshot.write_bytes(snapshot.read_bytes() + bytes(8 << 20))  # the server sends 8 MB more than stated
    with pytest.raises(SnapshotCorrupt, match=f"sends more than the {stated} bytes expected of the snapshot"):
        Corpus.open(f"{base}/{snapshot.name}", cache_dir=tmp_path / "cache")
    assert cached_files(tmp_path / "cache") == []


# the schema


def hostile_copy(corpus_path: Path, target: Path, *statements: str, writable_schema: bool = False) -> Path:
    """A copy of a real corpus, altered as an attacker would (``writable_schema``: by rewriting
    sqlite_master, for declarations SQLite would refuse to create)."""
    shutil.copy(corpus_path, target)
    conn = sqlite3.connect(target)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
        if writable_schema:
            conn.execute("PRAGMA writable_schema = ON")
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()
    return target


def rewrite(name: str, sql: str) -> str:
    return f"UPDATE sqlite_master SET sql = '{sql.replace(chr(39), chr(39) * 2)}' WHERE name = '{name}'"


ARTICLE_COLUMNS = (
    "'x' AS id, 't' AS title, '[]' AS authors, NULL AS date_published, NULL AS journal, NULL AS doi, NULL AS abstract, "
    "0 AS num_tokens, 1 AS pages, NULL AS source_uri, 'sha' AS sha256, NULL AS parser, '{}' AS provenance, "
    "'[]' AS warnings, '2024-01-01' AS created_at, NULL AS coverage"
)
HOSTILE = {
    # the probe: every reader of the articles hung forever
    "articles, an endless recursive view": (
        ["DROP TABLE articles", f"CREATE VIEW articles AS {ENDLESS} SELECT {ARTICLE_COLUMNS} FROM r"], False, "articles is a view, not a table"),
    "articles, a view calling load_extension": (
        ["DROP TABLE articles", f"CREATE VIEW articles AS SELECT load_extension('/nonexistent/evil.so') AS loaded, {ARTICLE_COLUMNS}"], False,
        "articles is a view, not a table"),
    "a view calling fts3_tokenizer": (
        ["CREATE VIEW tokenizer AS SELECT fts3_tokenizer('simple', x'4141414141414141') AS pointer"], False, "it holds a view, tokenizer"),
    "contexts_fts, an fts3 table with a tokenizer it must be given": (
        [rewrite("contexts_fts", "CREATE VIRTUAL TABLE contexts_fts USING fts3(text, section_title, tokenize=evil)")], True,
        "contexts_fts is not a virtual table using fts5"),
    "an extra fts4 table with a tokenizer it must be given": (
        ["CREATE VIRTUAL TABLE notes USING fts4(body)", rewrite("notes", "CREATE VIRTUAL TABLE notes USING fts4(body, tokenize=evil)")], True,
        "it holds a virtual table notes using fts4"),
    "a computed column calling load_extension": (
        [rewrite("articles", "CREATE TABLE articles (id TEXT PRIMARY KEY, title TEXT AS (load_extension('/nonexistent/evil.so')))")], True,
        r"unsafe use of load_extension\(\)"),
    "an index on load_extension": (
        [rewrite("articles_doi", "CREATE INDEX articles_doi ON articles (load_extension('/nonexistent/evil.so'))")], True,
        r"unsafe use of load_extension\(\)"),
    "a trigger a corpus does not have": (
        ["CREATE TRIGGER spy AFTER INSERT ON ingest_log BEGIN DELETE FROM articles; END"], False, "it holds a trigger, spy"),
    "an fts5 table with a tokenizer that does not exist": (
        [rewrite("contexts_fts", "CREATE VIRTUAL TABLE [contexts_fts] USING FTS5 ([text], [section_title], tokenize='evil', content=[contexts])")], True,
        "no such tokenizer: evil"),
}  # fmt: skip


@pytest.mark.parametrize("case", HOSTILE)
def test_a_snapshot_without_the_corpus_schema_is_refused_before_anything_reads_it(corpus_path: Path, tmp_path: Path, case: str) -> None:
    statements, writable_schema, reason = HOSTILE[case]
    database = hostile_copy(corpus_path, tmp_path / "hostile.sqlite", *statements, writable_schema=writable_schema)
    snapshot = publish_database(tmp_path / "published", database)
    started = time.monotonic()
    with pytest.raises(SnapshotError, match=f"is not a paperpyramid snapshot: .*{reason}"):
        Corpus.open(snapshot, cache_dir=tmp_path / "cache")
    assert time.monotonic() - started < 10
    assert cached_files(tmp_path / "cache") == []  # never cached, so never opened later either


def test_a_genuine_snapshot_with_vectors_passes_the_schema_check(corpus_path: Path, tmp_path: Path) -> None:
    """The check knows what a corpus holds beyond its migrations: sqlite-vec's tables, made
    when a model first embeds."""
    database = tmp_path / "embedded.sqlite"
    shutil.copy(corpus_path, database)
    with closing(connect(database)) as conn, conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM contexts ORDER BY rowid")]
        embedder = db_vectors.ensure_embedder(conn, "test-model", 4, None)
        db_vectors.insert_vectors(conn, embedder, ids, np.eye(len(ids), 4, dtype=np.float32) + 0.1)
        db_vectors.insert_level_vectors(conn, embedder, "insights", ["insight-1"], np.ones((1, 4), dtype=np.float32))
    snap = take_snapshot(database, tmp_path / "out")
    assert snap.path is not None
    with Corpus.open(snap.path, cache_dir=tmp_path / "cache") as corpus:
        assert {"vec_contexts_1", "vec_insights_1"} <= {row[0] for row in corpus.conn.execute("SELECT name FROM sqlite_master")}
        assert len(list(corpus.articles())) == 2
        assert db_vectors.count_vectors(corpus.conn, embedder) == len(ids)


def test_a_hostile_database_put_in_the_cache_is_refused_and_removed(corpus_path: Path, tmp_path: Path) -> None:
    """A copy cached before the check existed (or put there by someone else) is checked too."""
    snapshot = publish_database(tmp_path / "published", corpus_path)
    with Corpus.open(snapshot, cache_dir=tmp_path / "cache"):
        pass
    (cached,) = (tmp_path / "cache").rglob("*.sqlite")
    manifest_path = cached.with_name(f"{STEM}.manifest.json")
    hostile = hostile_copy(corpus_path, tmp_path / "hostile.sqlite", "DROP TABLE articles",
                           f"CREATE VIEW articles AS {ENDLESS} SELECT {ARTICLE_COLUMNS} FROM r")  # fmt: skip
    shutil.copy(hostile, cached)
    manifest = json.loads(manifest_path.read_text())
    manifest["database"] |= {"sha256": sha256_of(cached.read_bytes()), "size": cached.stat().st_size}
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(SnapshotError, match="is not a paperpyramid snapshot: articles is a view, not a table"):
        Corpus.open(snapshot, cache_dir=tmp_path / "cache")
    assert cached_files(tmp_path / "cache") == []


# query time


@pytest.fixture
def snapshot_path(corpus_path: Path, tmp_path: Path) -> Path:
    return publish_database(tmp_path / "published", corpus_path)


def watchdog(conn: Any, seconds: float = 30.0) -> threading.Timer:
    """Interrupts ``conn`` if the guard under test never does, so a failure is not a hang."""
    timer = threading.Timer(seconds, conn.interrupt)
    timer.start()
    return timer


def test_a_query_on_a_snapshot_that_runs_past_the_limit_is_interrupted_with_a_clear_error(snapshot_path: Path, tmp_path: Path) -> None:
    with Corpus.open(snapshot_path, cache_dir=tmp_path / "cache", query_time_limit=0.5) as corpus:
        timer = watchdog(corpus.conn)
        try:
            started = time.monotonic()
            with pytest.raises(OperationalError, match=r"ran for more than 0.5 s and was interrupted"):
                corpus.conn.execute(f"{ENDLESS} SELECT count(*) FROM r").fetchone()
            assert 0.5 <= time.monotonic() - started < 5
            # a first row comes at once; the endless search for a second is stopped while fetching
            rows = corpus.conn.execute(f"{ENDLESS} SELECT n FROM r WHERE n = 1 OR n < 0")
            with pytest.raises(OperationalError, match="was interrupted"):
                list(rows)
            # the connection is still good, and the corpus reads as before
            assert [article.title for article in corpus.articles()] == ["Colonies of alpha", "Colonies of beta"]
        finally:
            timer.cancel()


def test_a_slow_reader_of_a_long_result_is_not_interrupted(snapshot_path: Path, tmp_path: Path) -> None:
    """Only time inside SQLite counts: pausing between rows (a reader doing work with each one)
    for longer than the limit in all is not a runaway query."""
    with Corpus.open(snapshot_path, cache_dir=tmp_path / "cache", query_time_limit=1.0) as corpus:
        started = time.monotonic()
        count = 0
        for (n,) in corpus.conn.execute(f"{ENDLESS.replace('FROM r)', 'FROM r LIMIT 100000)')} SELECT n FROM r"):
            count += 1
            if n % 20_000 == 0:
                time.sleep(0.3)
        assert count == 100_000 and time.monotonic() - started > 1.0


class Stop(Exception):
    """What Ctrl-C raises in this test (pytest treats a real KeyboardInterrupt as the end of the run)."""


def test_ctrl_c_stops_an_endless_query_on_a_snapshot(snapshot_path: Path, tmp_path: Path) -> None:
    def on_interrupt(signum: int, frame: Any) -> None:
        raise Stop

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        with Corpus.open(snapshot_path, cache_dir=tmp_path / "cache") as corpus:  # the default limit, 120 s
            timer = watchdog(corpus.conn, 20.0)
            ctrl_c = threading.Timer(0.5, signal.pthread_kill, [threading.main_thread().ident, signal.SIGINT])
            ctrl_c.start()
            started = time.monotonic()
            try:
                with pytest.raises(OperationalError, match="interrupted"):
                    corpus.conn.execute(f"{ENDLESS} SELECT count(*) FROM r").fetchone()
                assert time.monotonic() - started < 5  # stopped by Ctrl-C, not by the watchdog
            finally:
                timer.cancel()
                ctrl_c.cancel()
    finally:
        signal.signal(signal.SIGINT, previous)
