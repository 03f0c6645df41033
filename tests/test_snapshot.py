"""Snapshots: a consistent, compressed copy of a corpus with its manifest and Datasette
metadata, published to a folder or S3, and opened back, verified and cached, by Corpus.open."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from paperpyramid import __version__
from paperpyramid.corpus import Corpus
from paperpyramid.db import SCHEMA_VERSION, CorpusWriter
from paperpyramid.db.datasette import QUERIES, TABLES, datasette_metadata
from paperpyramid.db.snapshot import SnapshotCorrupt, SnapshotError, take_snapshot
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.sqlite import sqlite3 as corpus_sqlite
from paperpyramid.document import Block, Document, Section
from paperpyramid.ingestion.sources import file_sha256
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.tokens import TokenCounter
from tests.conftest import SAMPLE

FROG = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"
BARRIERS = SAMPLE / "bmc-health-serv-res-2014-barriers.pdf"
CORPUS_TABLES = {
    "articles",
    "sections",
    "contexts",
    "article_sections",
    "sections_contexts",
    "bib_entries",
    "tables",
    "formulas",
    "figures",
    "ingest_log",
    "embedders",
    "distillations",
    "llm_calls",
    "insights",
    "insights_contexts",
    "concepts",
    "concepts_insights",
    "abstracts",
    "recollections",
    "recollections_sources",
    "citations",
    "recollection_history",
    "mesh_terms",
    "merged_sources",
}
NAME = re.compile(r"corpus-\d{8}T\d{6}Z")


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory, counter: TokenCounter) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "corpus.db"
    with CorpusWriter(path, counter) as writer:
        for pdf in (FROG, BARRIERS):
            article_id = writer.add_document(parse_pdf(pdf), source_uri=f"s3://papers/{pdf.name}", sha256=file_sha256(pdf))
            writer.record(f"s3://papers/{pdf.name}", file_sha256(pdf), "done", article_id=article_id)
        writer.record("s3://papers/broken.pdf", None, "failed", error="corrupt PDF: no xref table")
    return path


def table_counts(path: Path) -> dict[str, int]:
    """Rows per corpus table, counted here rather than by the code under test."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in CORPUS_TABLES}
    finally:
        conn.close()


def corpus_counts(corpus: Corpus) -> dict[str, int]:
    return {table: corpus.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in CORPUS_TABLES}


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# taking a snapshot


def test_folder_snapshot_publishes_database_manifest_and_metadata_that_agree(corpus_path: Path, tmp_path: Path) -> None:
    snap = take_snapshot(corpus_path, tmp_path / "out" / "nested", compression="gzip")

    folder = tmp_path / "out" / "nested"
    stem = snap.manifest["database"]["name"].removesuffix(".sqlite")
    assert NAME.fullmatch(stem)
    # only the three files: the staging copy is gone
    assert sorted(p.name for p in folder.iterdir()) == sorted([f"{stem}.manifest.json", f"{stem}.metadata.json", f"{stem}.sqlite.gz"])
    assert snap.path == (folder / f"{stem}.sqlite.gz").resolve()
    assert snap.uri == str(snap.path) and snap.url == snap.path.as_uri()
    assert snap.manifest_path is not None and snap.manifest_url == snap.manifest_path.as_uri()

    manifest = json.loads((folder / f"{stem}.manifest.json").read_text())
    assert manifest == snap.manifest
    packed = (folder / f"{stem}.sqlite.gz").read_bytes()
    database = gzip.decompress(packed)
    assert manifest["compressed"] == {"name": f"{stem}.sqlite.gz", "compression": "gzip", "sha256": sha256_of(packed), "size": len(packed)}
    assert manifest["database"] == {"name": f"{stem}.sqlite", "sha256": sha256_of(database), "size": len(database)}
    assert len(packed) < len(database)
    assert manifest["files"] == {"snapshot": f"{stem}.sqlite.gz", "manifest": f"{stem}.manifest.json", "metadata": f"{stem}.metadata.json"}

    # every corpus table, no FTS index or shadow table, and the same rows as the corpus
    assert manifest["row_counts"] == table_counts(corpus_path)
    assert manifest["row_counts"]["articles"] == 2 and manifest["row_counts"]["ingest_log"] == 3
    assert manifest["schema_version"] == SCHEMA_VERSION
    assert manifest["paperpyramid_version"] == __version__
    assert manifest["parsers"] == ["embedded"]
    assert manifest["provenance"]["structure"] == ["embedded 0.1.0"]
    assert manifest["provenance"]["contexts"] == ["all-MiniLM-L6-v2 window 256"]
    created = datetime.fromisoformat(manifest["created_at"].replace("Z", "+00:00"))
    assert manifest["created_at"].endswith("Z") and abs(datetime.now(UTC) - created) < timedelta(minutes=1)
    assert stem == f"corpus-{created:%Y%m%dT%H%M%SZ}"

    assert json.loads((folder / f"{stem}.metadata.json").read_text()) == datasette_metadata(stem)


def test_folder_snapshot_opens_read_only_with_the_same_rows_and_search(corpus_path: Path, tmp_path: Path) -> None:
    snap = take_snapshot(corpus_path, tmp_path / "out")
    assert snap.path is not None

    with Corpus.open(snap.path, cache_dir=tmp_path / "cache") as copy, Corpus.open(corpus_path) as original:
        assert corpus_counts(copy) == snap.manifest["row_counts"] == corpus_counts(original)
        hits = copy.search("internal fertilization frog", k=3)
        assert hits and hits[0].context_id == original.search("internal fertilization frog", k=3)[0].context_id
        with pytest.raises(corpus_sqlite.OperationalError, match="readonly"):
            copy.conn.execute("DELETE FROM ingest_log")
    # the snapshot's file:// URL opens too, from the same cache
    with Corpus.open(snap.url, cache_dir=tmp_path / "cache") as copy:
        assert corpus_counts(copy) == snap.manifest["row_counts"]


def test_snapshots_in_the_same_second_never_replace_one_another(corpus_path: Path, tmp_path: Path) -> None:
    first = take_snapshot(corpus_path, tmp_path / "out", compression="gzip")
    second = take_snapshot(corpus_path, tmp_path / "out", compression="gzip")
    assert first.path is not None and second.path is not None
    assert first.path != second.path
    assert len(list((tmp_path / "out").glob("*.sqlite.gz"))) == 2
    assert json.loads(first.path.with_name(first.path.name.replace(".sqlite.gz", ".manifest.json")).read_text()) == first.manifest


def test_snapshot_of_a_file_that_is_not_a_corpus_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain.db"
    sqlite3.connect(plain).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(SnapshotError, match="not a paperpyramid corpus"):
        take_snapshot(plain, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # refused before the destination is made


def busy_document(number: int) -> Document:
    return Document(
        title=f"Census {number}",
        pages=3,
        sections=[
            Section(title, 1, str(position + 1), blocks=[Block(f"Article quokka{number:04d} {title.lower()} text.", position + 1)])
            for position, title in enumerate(("Introduction", "Methods", "Results"))
        ],
    )


def test_snapshot_taken_while_a_writer_commits_is_consistent(tmp_path: Path, counter: TokenCounter) -> None:
    path = tmp_path / "busy.db"
    CorpusWriter(path, counter).close()
    committed = [0]
    stop = threading.Event()
    failures: list[BaseException] = []

    def write() -> None:
        try:
            with CorpusWriter(path, counter) as writer:
                while not stop.is_set():
                    number = committed[0]
                    writer.add_document(busy_document(number), source_uri=f"busy/{number}.pdf", sha256=f"busy-{number}")
                    committed[0] = number + 1
        except BaseException as exc:  # handed to the test thread, which fails on it
            failures.append(exc)

    writer_thread = threading.Thread(target=write)
    writer_thread.start()
    seen: list[int] = []
    try:
        while committed[0] < 20 and writer_thread.is_alive():
            threading.Event().wait(0.01)
        for attempt in range(3):
            before = committed[0]
            snap = take_snapshot(path, tmp_path / f"out{attempt}", compression="gzip")
            after = committed[0]
            with Corpus.open(snap.uri, cache_dir=tmp_path / "cache") as copy:
                counts = corpus_counts(copy)
                articles = counts["articles"]
                # everything committed before the snapshot began is in it (the WAL included),
                # and every article in it is whole: three sections, each with its context
                assert before <= articles <= after + 1
                assert counts == snap.manifest["row_counts"]
                assert counts["sections"] == counts["article_sections"] == counts["contexts"] == counts["sections_contexts"] == 3 * articles
                assert copy.conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
                last = articles - 1
                assert [hit.citation.article_title for hit in copy.search(f"quokka{last:04d}")] == [f"Census {last}"] * 3
                assert copy.search(f"quokka{articles:04d}") == []
            seen.append(articles)
    finally:
        stop.set()
        writer_thread.join(timeout=10)
    assert not failures, failures
    # the writer went on committing around the snapshots
    assert committed[0] > max(seen)
    # the search index came along whole
    check = tmp_path / "check.sqlite"
    assert snap.path is not None
    check.write_bytes(gzip.decompress(snap.path.read_bytes()))
    sqlite3.connect(check).execute("INSERT INTO contexts_fts (contexts_fts) VALUES ('integrity-check')").connection.close()


# S3


def test_s3_snapshot_opens_from_its_presigned_url_and_its_s3_uri(
    corpus_path: Path, s3_env: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s3_env.make_bucket("snapshots")
    snap = take_snapshot(corpus_path, "s3://snapshots/corpus/", compression="gzip")

    stem = snap.manifest["database"]["name"].removesuffix(".sqlite")
    keys = sorted(obj.object_name for obj in s3_env.client().list_objects("snapshots", prefix="corpus/", recursive=True))
    assert keys == sorted(f"corpus/{stem}{suffix}" for suffix in (".manifest.json", ".metadata.json", ".sqlite.gz"))
    assert snap.uri == f"s3://snapshots/corpus/{stem}.sqlite.gz"
    assert snap.manifest_uri == f"s3://snapshots/corpus/{stem}.manifest.json"
    assert snap.path is None
    assert snap.url.startswith(f"{s3_env.endpoint}/snapshots/corpus/{stem}.sqlite.gz?") and "X-Amz-Signature=" in snap.url
    assert "X-Amz-Signature=" in snap.manifest_url and f"{stem}.manifest.json?" in snap.manifest_url

    original = table_counts(corpus_path)
    with Corpus.open(snap.url, manifest_url=snap.manifest_url, cache_dir=tmp_path / "url-cache") as copy:
        assert corpus_counts(copy) == snap.manifest["row_counts"] == original
        hit = copy.search("internal fertilization", k=1)[0]
        assert (
            hit.citation.article_title == copy.article(hit.citation.article_id).title
            and "frog" in (hit.citation.article_title or "").lower()
        )

    with Corpus.open(snap.uri, cache_dir=tmp_path / "s3-cache") as copy:
        assert corpus_counts(copy) == original

    # a cached s3:// snapshot needs no server at all
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    with Corpus.open(snap.uri, cache_dir=tmp_path / "s3-cache") as copy:
        assert corpus_counts(copy) == original


def test_the_last_line_the_snapshot_command_prints_opens_the_snapshot(corpus_path: Path, s3_env: Any, tmp_path: Path) -> None:
    """What a user does: publish to a bucket, copy the last line printed, open it anywhere."""
    from typer.testing import CliRunner

    from paperpyramid.cli import app

    s3_env.make_bucket("snapshots")
    result = CliRunner().invoke(app, ["snapshot", "--db", str(corpus_path), "--to", "s3://snapshots/printed/"])
    assert result.exit_code == 0, result.output
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith(f"{s3_env.endpoint}/snapshots/printed/") and "X-Amz-Signature=" in line and "#manifest=" in line
    with Corpus.open(line, cache_dir=tmp_path / "cache") as copy:
        assert corpus_counts(copy) == table_counts(corpus_path)
    # without the fragment the presigned URL alone still cannot find its manifest (and says so)
    with pytest.raises(SnapshotError, match="pass manifest_url"):
        Corpus.open(line.split("#")[0], cache_dir=tmp_path / "other-cache")


def test_snapshot_to_a_missing_bucket_names_it(corpus_path: Path, s3_env: Any) -> None:
    with pytest.raises(SnapshotError, match="s3://no-such-bucket/corpus/.*NoSuchBucket"):
        take_snapshot(corpus_path, "s3://no-such-bucket/corpus")


def test_presigned_url_without_its_manifest_url_says_what_to_pass(corpus_path: Path, s3_env: Any, tmp_path: Path) -> None:
    s3_env.make_bucket("snapshots")
    snap = take_snapshot(corpus_path, "s3://snapshots/unsigned-manifest")
    with pytest.raises(SnapshotError, match="pass manifest_url") as caught:
        Corpus.open(snap.url, cache_dir=tmp_path / "cache")
    assert "X-Amz-Signature" not in str(caught.value)  # a presigned URL is a credential: not in messages


def test_a_snapshot_whose_manifest_has_another_sha_is_refused(corpus_path: Path, s3_env: Any, tmp_path: Path) -> None:
    s3_env.make_bucket("snapshots")
    snap = take_snapshot(corpus_path, "s3://snapshots/genuine/", compression="gzip")
    client = s3_env.client()
    stem = snap.manifest["database"]["name"].removesuffix(".sqlite")
    packed = tmp_path / f"{stem}.sqlite.gz"
    client.fget_object("snapshots", f"genuine/{stem}.sqlite.gz", str(packed))
    client.fput_object("snapshots", f"tampered/{stem}.sqlite.gz", str(packed))
    lying = json.loads(json.dumps(snap.manifest))
    lying["database"]["sha256"] = "0" * 64
    (tmp_path / "lying.json").write_text(json.dumps(lying))
    client.fput_object("snapshots", f"tampered/{stem}.manifest.json", str(tmp_path / "lying.json"))

    with pytest.raises(SnapshotCorrupt, match="does not match its manifest"):
        Corpus.open(f"s3://snapshots/tampered/{stem}.sqlite.gz", cache_dir=tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*.sqlite")) and not list((tmp_path / "cache").rglob("*.json"))


# local snapshot files


def test_a_damaged_or_foreign_local_snapshot_is_refused(corpus_path: Path, tmp_path: Path) -> None:
    snap = take_snapshot(corpus_path, tmp_path / "out")
    assert snap.path is not None and snap.manifest_path is not None

    damaged = tmp_path / "damaged" / snap.path.name
    damaged.parent.mkdir()
    data = bytearray(snap.path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    shutil.copy(snap.manifest_path, damaged.parent)
    with pytest.raises(SnapshotCorrupt, match=r"\(compressed\) does not match its manifest"):
        Corpus.open(damaged, cache_dir=tmp_path / "cache")

    newer = json.loads(snap.manifest_path.read_text())
    newer["schema_version"] = SCHEMA_VERSION + 1
    (tmp_path / "newer.json").write_text(json.dumps(newer))
    with pytest.raises(SnapshotError, match=f"schema version {SCHEMA_VERSION + 1}"):
        Corpus.open(snap.path, manifest_url=str(tmp_path / "newer.json"), cache_dir=tmp_path / "cache")

    lone = tmp_path / "lone" / snap.path.name
    lone.parent.mkdir()
    shutil.copy(snap.path, lone)
    with pytest.raises(SnapshotError, match="no snapshot manifest at"):
        Corpus.open(lone, cache_dir=tmp_path / "cache")
    assert [path for path in (tmp_path / "cache").rglob("*") if path.is_file()] == []


# http(s) and the cache


def test_http_snapshot_is_cached_reused_without_requests_and_refused_when_altered(
    corpus_path: Path, http_folder: tuple[Path, str, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, base, requests = http_folder
    snap = take_snapshot(corpus_path, folder, compression="gzip")
    assert snap.path is not None
    name = snap.path.name
    stem = name.removesuffix(".sqlite.gz")
    url = f"{base}/{name}"
    cache = tmp_path / "env-cache"
    monkeypatch.setenv("PAPERPYRAMID_CORPUS__CACHE_DIR", str(cache))

    # the manifest is found beside the snapshot when the URL is not presigned
    with Corpus.open(url) as copy:
        assert corpus_counts(copy) == snap.manifest["row_counts"]
    assert sorted(requests) == sorted([f"/{name}", f"/{stem}.manifest.json"])
    (entry,) = cache.iterdir()  # one folder per source folder
    assert sorted(p.name for p in entry.iterdir()) == [f"{stem}.manifest.json", f"{stem}.sqlite"]

    with Corpus.open(url) as copy:
        assert corpus_counts(copy) == snap.manifest["row_counts"]
    assert len(requests) == 2  # the second open made no request

    cached = entry / f"{stem}.sqlite"
    data = bytearray(cached.read_bytes())
    data[-100] ^= 0x01
    cached.write_bytes(bytes(data))
    with pytest.raises(SnapshotCorrupt, match="cached copy .* does not match its manifest"):
        Corpus.open(url)
    assert len(requests) == 2 and not cached.exists()

    # once the bad copy is gone, the next open fetches a good one
    with Corpus.open(url) as copy:
        assert corpus_counts(copy) == snap.manifest["row_counts"]
    assert len(requests) == 4


def test_a_missing_http_snapshot_names_the_url(http_folder: tuple[Path, str, list[str]], tmp_path: Path) -> None:
    _, base, _ = http_folder
    with pytest.raises(SnapshotError, match=rf"{base}/corpus-20000101T000000Z.manifest.json: HTTP 404"):
        Corpus.open(f"{base}/corpus-20000101T000000Z.sqlite.gz", cache_dir=tmp_path / "cache")


# Datasette metadata


def test_metadata_describes_every_table_and_column_of_the_schema(corpus_path: Path) -> None:
    conn = sqlite3.connect(corpus_path)
    try:
        assert set(TABLES) == CORPUS_TABLES
        for table, (description, columns) in TABLES.items():
            assert description
            actual = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            assert list(columns) == actual, table
            assert all(columns.values()), table
    finally:
        conn.close()
    metadata = datasette_metadata("corpus-x")
    assert metadata["title"] and metadata["description"] and metadata["license"]
    queries = metadata["databases"]["corpus-x"]["queries"]
    assert {query["title"] for query in queries.values()} == {
        "Sections of an article in order",
        "Contexts of a section in order",
        "Search contexts",
        "Who cites this article",
        "What this article cites in the corpus",
        "Failed inputs",
    }


def test_canned_queries_answer_on_a_real_corpus(corpus_path: Path) -> None:
    def run(name: str, **params: str) -> list[corpus_sqlite.Row]:
        return conn.execute(QUERIES[name][2], params).fetchall()

    with Corpus.open(corpus_path) as corpus:
        conn = corpus.conn
        conn.row_factory = corpus_sqlite.Row
        frog = next(article for article in corpus.articles() if article.source_uri and "frog" in article.source_uri)
        sections = corpus.sections(frog.id)

        rows = run("article_sections_in_order", article_id=frog.id)
        assert [row["section_id"] for row in rows] == [section.id for section in sections]
        assert [row["position"] for row in rows] == list(range(len(sections)))

        longest = max(sections, key=lambda section: len(corpus.contexts(section.id)))
        rows = run("section_contexts_in_order", section_id=longest.id)
        assert len(rows) > 1
        assert [row["context_id"] for row in rows] == [context.id for context in corpus.contexts(longest.id)]

        rows = run("search_contexts", q="fertilization")
        assert rows and {row["article_title"] for row in rows} == {frog.title}
        assert all(row["page"] is not None for row in rows) and "**" in rows[0]["snippet"]
        # any text is a query: FTS5 syntax in it is searched as words (free-living: "no such column: living")
        rows = run("search_contexts", q="free-living")
        assert rows and {row["article_title"] for row in rows} == {frog.title} and any("**free-living**" in row["snippet"] for row in rows)
        for text in ('a "quoted', "AND OR NOT", "NEAR(", "col:umn", "prefix*", "", "   ", "(", "'", '""', "^start", "tab\there\nnewline"):
            run("search_contexts", q=text)  # no error
        assert len(run("search_contexts", q="fertilization NOT frogs")) >= len(run("search_contexts", q="fertilization"))  # NOT is a word

        # the citation graph's queries run (the sample's papers do not cite each other: no rows)
        assert run("cited_by", article_id=frog.id) == [] and run("cites_in_corpus", article_id=frog.id) == []

        # labels are stored as their numbers, as the metadata says (it promised "Table 2")
        labels = [row[0] for row in conn.execute("SELECT label FROM tables UNION ALL SELECT label FROM figures")]
        assert labels and all(label is None or not label.lower().startswith(("table", "fig")) for label in labels)
        assert "2 for Table 2" in TABLES["tables"][1]["label"] and "1 for Figure 1" in TABLES["figures"][1]["label"]

        rows = run("failed_inputs")
        assert [(row["source_uri"], row["error"]) for row in rows] == [("s3://papers/broken.pdf", "corrupt PDF: no xref table")]
