"""zstd snapshots and snapshots in parts: zstd written and read (told from gzip by its first
bytes), gzip still written and read, a corpus published as one snapshot per year with a catalog,
and ``Corpus.open(catalog_url, shards=[...])`` fetching only the shards asked for over HTTP on
127.0.0.1, merging them into one corpus with the same ids, search, vectors and citation links."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zstandard

from paperpyramid.corpus import Corpus
from paperpyramid.db import SCHEMA_VERSION, CorpusWriter
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.snapshot import SnapshotCorrupt, take_snapshot
from paperpyramid.db.sqlite import connect
from paperpyramid.document import Block, Document, Reference, Section
from paperpyramid.tokens import TokenCounter

YEARS = (2019, 2020, 2021)
#: every corpus table that follows the articles (recollections draw on several: not here)
TABLES = ("articles", "sections", "contexts", "article_sections", "sections_contexts", "bib_entries", "ingest_log", "embedders")
DIMENSION = 8
#: what the writer stores as the parser of a document made in code
PARSER = "unknown"


def paper(year: int | None) -> Document:
    """A paper whose passages carry a word of its own (``quokka2019``); the 2021 paper cites the 2019 one by DOI."""
    word = f"quokka{year or 'undated'}"
    return Document(
        title=f"Marsupials of {year or 'no year'}",
        date_published=None if year is None else f"{year}-03-01",
        doi=None if year is None else f"10.1000/quokka.{year}",
        pages=2,
        sections=[
            Section(title, 1, str(position + 1), blocks=[Block(f"The {word} {title.lower()} passage about island marsupials.", 1)])
            for position, title in enumerate(("Introduction", "Methods"))
        ],
        references=[Reference("Smith J. Island marsupials. 2019.", doi="10.1000/quokka.2019")] if year == 2021 else [],
    )


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four articles (2019, 2020, 2021 and one undated), every context with a vector, and a failed input."""
    path = tmp_path_factory.mktemp("shards") / "corpus.sqlite"
    with CorpusWriter(path, TokenCounter()) as writer:
        for year in (*YEARS, None):
            writer.add_document(paper(year), source_uri=f"papers/{year}.pdf", sha256=f"sha-{year}")
            writer.record(f"papers/{year}.pdf", f"sha-{year}", "done")
        writer.record("papers/broken.pdf", None, "failed", error="corrupt PDF: no xref table")
    conn = connect(path)
    try:
        ids = [str(row[0]) for row in conn.execute("SELECT id FROM contexts ORDER BY id")]
        embedder = db_vectors.ensure_embedder(conn, "test-embedder", DIMENSION, None)
        db_vectors.insert_vectors(conn, embedder, ids, unit_vectors(len(ids)))
        conn.commit()
    finally:
        conn.close()
    return path


def source_vectors(path: Path) -> dict[str, np.ndarray[Any, np.dtype[np.float32]]]:
    """The vector the fixture gave each context, by context id."""
    conn = sqlite3.connect(path)
    try:
        ids = [str(row[0]) for row in conn.execute("SELECT id FROM contexts ORDER BY id")]
    finally:
        conn.close()
    return dict(zip(ids, unit_vectors(len(ids)), strict=True))


def unit_vectors(count: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    vectors = np.random.default_rng(7).normal(size=(count, DIMENSION)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def counts(path_or_conn: Path | Any) -> dict[str, int]:
    """Rows per table, counted here rather than by the code under test."""
    conn = sqlite3.connect(f"{path_or_conn.resolve().as_uri()}?mode=ro", uri=True) if isinstance(path_or_conn, Path) else path_or_conn
    try:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
    finally:
        if isinstance(path_or_conn, Path):
            conn.close()


def article_ids(path: Path) -> dict[str, str]:
    """Article id by title in the corpus file at ``path``."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {str(title): str(article_id) for article_id, title in conn.execute("SELECT id, title FROM articles")}
    finally:
        conn.close()


# zstd and gzip


def test_a_zstd_snapshot_is_the_default_and_opens_over_http(
    corpus_path: Path, http_folder: tuple[Path, str, list[str]], tmp_path: Path
) -> None:
    folder, base, requests = http_folder
    snap = take_snapshot(corpus_path, folder)
    assert snap.path is not None and snap.path.name.endswith(".sqlite.zst")
    packed = snap.path.read_bytes()
    assert packed[:4] == b"\x28\xb5\x2f\xfd"  # a zstd frame
    database = zstandard.ZstdDecompressor().decompress(packed)
    assert snap.manifest["compressed"] == {
        "name": snap.path.name,
        "compression": "zstd",
        "sha256": hashlib.sha256(packed).hexdigest(),
        "size": len(packed),
    }
    assert snap.manifest["database"]["sha256"] == hashlib.sha256(database).hexdigest() and len(packed) < len(database)

    with Corpus.open(f"{base}/{snap.path.name}", cache_dir=tmp_path / "cache") as copy:
        assert counts(copy.conn) == counts(corpus_path) == {table: snap.manifest["row_counts"][table] for table in TABLES}
        assert [hit.citation.article_title for hit in copy.search("quokka2020")] == ["Marsupials of 2020"] * 2
    assert sorted(requests) == sorted([f"/{snap.path.name}", f"/{snap.path.name.removesuffix('.sqlite.zst')}.manifest.json"])


def test_gzip_is_still_written_and_compression_is_told_by_the_first_bytes(corpus_path: Path, tmp_path: Path) -> None:
    gzipped = take_snapshot(corpus_path, tmp_path / "gzip", compression="gzip")
    assert gzipped.path is not None and gzipped.path.name.endswith(".sqlite.gz") and gzipped.path.read_bytes()[:2] == b"\x1f\x8b"
    assert gzipped.manifest["compressed"]["compression"] == "gzip"
    with Corpus.open(gzipped.path, cache_dir=tmp_path / "cache") as copy:
        assert counts(copy.conn) == counts(corpus_path)

    # zstd bytes under a gzip name, the manifest beside them: read as what they are
    zstd = take_snapshot(corpus_path, tmp_path / "zstd")
    assert zstd.path is not None and zstd.manifest_path is not None
    misnamed = tmp_path / "misnamed" / zstd.path.name.replace(".sqlite.zst", ".sqlite.gz")
    misnamed.parent.mkdir()
    shutil.copy(zstd.path, misnamed)
    shutil.copy(zstd.manifest_path, misnamed.parent)
    with Corpus.open(misnamed, cache_dir=tmp_path / "cache") as copy:
        assert counts(copy.conn) == counts(corpus_path)

    with pytest.raises(ValueError, match="unknown compression 'lz4'; choose among: zstd, gzip"):
        take_snapshot(corpus_path, tmp_path / "lz4", compression="lz4")
    assert not (tmp_path / "lz4").exists()


def test_a_damaged_zstd_snapshot_is_refused(corpus_path: Path, tmp_path: Path) -> None:
    snap = take_snapshot(corpus_path, tmp_path / "out")
    assert snap.path is not None
    data = bytearray(snap.path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    snap.path.write_bytes(bytes(data))
    with pytest.raises(SnapshotCorrupt, match=r"\(compressed\) does not match its manifest"):
        Corpus.open(snap.path, cache_dir=tmp_path / "cache")


# shards


def test_a_snapshot_sharded_by_year_publishes_a_corpus_per_year_and_a_catalog(corpus_path: Path, tmp_path: Path) -> None:
    made = take_snapshot(corpus_path, tmp_path / "out", shard_by="year")
    folder = tmp_path / "out"
    catalog = json.loads((folder / Path(made.uri).name).read_text())
    assert made.manifest == catalog and made.uri.endswith(".catalog.json") and made.open_url == made.url
    assert catalog["format"] == "paperpyramid-snapshot-catalog" and catalog["shard_by"] == "year" and catalog["compression"] == "zstd"
    assert [entry["value"] for entry in catalog["shards"]] == ["2019", "2020", "2021", None]
    assert catalog["row_counts"]["articles"] == 4
    stem = Path(made.uri).name.removesuffix(".catalog.json")
    assert [entry["stem"] for entry in catalog["shards"]] == [f"{stem}.year-{value}" for value in ("2019", "2020", "2021", "none")]

    titles = article_ids(corpus_path)
    for entry, shard in zip(catalog["shards"], made.shards, strict=True):
        manifest_file = folder / entry["files"]["manifest"]
        packed = (folder / entry["files"]["snapshot"]).read_bytes()
        assert entry["manifest_sha256"] == hashlib.sha256(manifest_file.read_bytes()).hexdigest()
        assert entry["compressed"]["sha256"] == hashlib.sha256(packed).hexdigest() == shard.manifest["compressed"]["sha256"]
        unpacked = tmp_path / f"{entry['stem']}.sqlite"
        unpacked.write_bytes(zstandard.ZstdDecompressor().decompress(packed))
        assert entry["database"]["sha256"] == hashlib.sha256(unpacked.read_bytes()).hexdigest()
        # each shard is a corpus holding its year's article alone, under the id it had
        year = entry["value"]
        title = f"Marsupials of {year or 'no year'}"
        assert article_ids(unpacked) == {title: titles[title]} and entry["articles"] == 1
        assert counts(unpacked)["contexts"] == 2
        # no row, index entry or free page holds another shard's words
        data = unpacked.read_bytes()
        assert f"quokka{year or 'undated'}".encode() in data
        assert [other for other in (*YEARS, "undated") if str(other) != (year or "undated") and f"quokka{other}".encode() in data] == []
    # the 2021 paper's reference still names the 2019 paper, which is in another shard
    conn = sqlite3.connect(tmp_path / f"{stem}.year-2021.sqlite")
    assert conn.execute("SELECT cited_article_id FROM bib_entries").fetchall() == [(titles["Marsupials of 2019"],)]
    conn.close()


def test_a_filtered_open_fetches_only_the_shards_asked_for(
    corpus_path: Path, http_folder: tuple[Path, str, list[str]], tmp_path: Path
) -> None:
    folder, base, requests = http_folder
    made = take_snapshot(corpus_path, folder, shard_by="year")
    catalog_name = Path(made.uri).name
    files = {entry["value"]: entry["files"] for entry in made.manifest["shards"]}
    cache = tmp_path / "cache"
    titles = article_ids(corpus_path)

    with Corpus.open(f"{base}/{catalog_name}", shards=[2019, "2021"], cache_dir=cache) as opened:
        assert sorted(requests) == sorted(
            [f"/{catalog_name}", *(f"/{files[year][part]}" for year in ("2019", "2021") for part in ("manifest", "snapshot"))]
        )
        # the two years' articles under their ids, searchable together, the citation across them whole
        assert {article.title: article.id for article in opened.articles()} == {
            title: titles[title] for title in ("Marsupials of 2019", "Marsupials of 2021")
        }
        assert [hit.citation.article_title for hit in opened.search("quokka2019")] == ["Marsupials of 2019"] * 2
        assert [hit.citation.article_title for hit in opened.search("quokka2021")] == ["Marsupials of 2021"] * 2
        assert opened.search("quokka2020") == []
        (link,) = opened.cites(titles["Marsupials of 2021"], in_corpus=True)
        assert link.cited_article_id == titles["Marsupials of 2019"]
        assert [link.citing_article_id for link in opened.cited_by(titles["Marsupials of 2019"])] == [titles["Marsupials of 2021"]]
        # every context's vector came along: each context of both years is nearest to its own vector
        (embedder,) = db_vectors.embedders(opened.conn)
        assert db_vectors.count_vectors(opened.conn, embedder) == 4
        for context_id, vector in source_vectors(corpus_path).items():
            found = db_vectors.nearest(opened.conn, embedder, vector, 1)[0][0]
            in_opened = opened.conn.execute("SELECT 1 FROM contexts WHERE id = ?", [context_id]).fetchone() is not None
            assert (found == context_id) == in_opened
        assert opened.conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    # the same shards again: nothing fetched; another year: its two files alone
    with Corpus.open(f"{base}/{catalog_name}", shards=["2021", 2019], cache_dir=cache) as opened:
        assert len(list(opened.articles())) == 2
    assert len(requests) == 5
    with Corpus.open(f"{base}/{catalog_name}", shards=[2020], cache_dir=cache) as opened:
        assert [article.title for article in opened.articles()] == ["Marsupials of 2020"]
    assert sorted(requests[5:]) == sorted(f"/{files['2020'][part]}" for part in ("manifest", "snapshot"))

    # every shard merged is the corpus again, row for row (the failed input and the model once)
    with Corpus.open(f"{base}/{catalog_name}", cache_dir=cache) as whole:
        assert counts(whole.conn) == counts(corpus_path)

    with pytest.raises(ValueError, match=r"no shard .* holds '1999'; its shards by year: 2019, 2020, 2021, none"):
        Corpus.open(f"{base}/{catalog_name}", shards=[1999], cache_dir=cache)


def test_a_corrupted_shard_is_refused_by_its_sha256(corpus_path: Path, http_folder: tuple[Path, str, list[str]], tmp_path: Path) -> None:
    folder, base, _ = http_folder
    made = take_snapshot(corpus_path, folder, shard_by="year")
    catalog_name = Path(made.uri).name
    files = {entry["value"]: entry["files"] for entry in made.manifest["shards"]}

    damaged = folder / files["2020"]["snapshot"]
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(SnapshotCorrupt, match=r"year-2020\.sqlite\.zst \(compressed\) does not match its manifest"):
        Corpus.open(f"{base}/{catalog_name}", shards=[2019, 2020], cache_dir=tmp_path / "cache")

    # a shard replaced by another corpus with a manifest that matches it: the catalog tells
    forged = folder / files["2021"]["manifest"]
    manifest = json.loads(forged.read_text())
    manifest["row_counts"]["articles"] = 99
    forged.write_text(json.dumps(manifest))
    with pytest.raises(SnapshotCorrupt, match="does not match its catalog"):
        Corpus.open(f"{base}/{catalog_name}", shards=[2021], cache_dir=tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*year-2021*"))

    # the undamaged shards still open
    with Corpus.open(f"{base}/{catalog_name}", shards=[2019], cache_dir=tmp_path / "cache") as opened:
        assert [article.title for article in opened.articles()] == ["Marsupials of 2019"]


def test_sharding_by_a_column_articles_lacks_is_refused_before_anything_is_written(corpus_path: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"cannot shard by 'colour': choose year, source or a column of articles \(id, title"):
        take_snapshot(corpus_path, tmp_path / "out", shard_by="colour")
    assert not (tmp_path / "out").exists()
    # "source" is the parser; any column of articles names itself
    made = take_snapshot(corpus_path, tmp_path / "by-source", shard_by="source")
    assert [(entry["value"], entry["articles"]) for entry in made.manifest["shards"]] == [(PARSER, 4)]
    made = take_snapshot(corpus_path, tmp_path / "by-doi", shard_by="doi")
    assert [entry["value"] for entry in made.manifest["shards"]] == [f"10.1000/quokka.{year}" for year in YEARS] + [None]
    assert [Path(shard.uri).name.split(".")[1] for shard in made.shards][-1] == "doi-none"


def test_the_snapshot_command_shards_by_year_and_prints_the_catalog_last(corpus_path: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from paperpyramid.cli import app

    result = CliRunner().invoke(app, ["snapshot", "--db", str(corpus_path), "--to", str(tmp_path / "out"), "--shard-by", "year"])
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("file://") and last.endswith(".catalog.json")
    assert result.output.count(" shard ") == 4
    with Corpus.open(last, shards=[2020], cache_dir=tmp_path / "cache") as opened:
        assert [article.title for article in opened.articles()] == ["Marsupials of 2020"]


def test_a_sharded_snapshot_in_s3_opens_from_its_catalog_uri(corpus_path: Path, s3_env: Any, tmp_path: Path) -> None:
    s3_env.make_bucket("snapshots")
    made = take_snapshot(corpus_path, "s3://snapshots/parts/", shard_by="year")
    stem = made.uri.removeprefix("s3://snapshots/parts/").removesuffix(".catalog.json")
    keys = sorted(obj.object_name for obj in s3_env.client().list_objects("snapshots", prefix="parts/", recursive=True))
    shards = [
        f"parts/{stem}.year-{value}{suffix}"
        for value in ("2019", "2020", "2021", "none")
        for suffix in (".manifest.json", ".metadata.json", ".sqlite.zst")
    ]
    assert keys == sorted([f"parts/{stem}.catalog.json", *shards])
    assert made.uri == f"s3://snapshots/parts/{stem}.catalog.json" and made.open_url == made.uri
    with Corpus.open(made.uri, shards=[2020, None], cache_dir=tmp_path / "cache") as opened:
        assert sorted(article.title or "" for article in opened.articles()) == ["Marsupials of 2020", "Marsupials of no year"]


def hostile(folder: Path, name: str, packed: bytes, database_size: int) -> Path:
    """A snapshot whose manifest matches its compressed bytes and claims ``database_size``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(packed)
    stem = name.removesuffix(".sqlite.zst").removesuffix(".sqlite.gz")
    manifest = {
        "format": "paperpyramid-snapshot",
        "manifest_version": 1,
        "schema_version": SCHEMA_VERSION,
        "database": {"name": f"{stem}.sqlite", "sha256": "0" * 64, "size": database_size},
        "compressed": {"name": name, "compression": "zstd", "sha256": hashlib.sha256(packed).hexdigest(), "size": len(packed)},
    }
    (folder / f"{stem}.manifest.json").write_text(json.dumps(manifest))
    return path


def test_a_zstd_bomb_stops_at_the_size_its_manifest_states_and_other_bytes_are_refused(tmp_path: Path) -> None:
    zeros = zstandard.ZstdCompressor(level=19).compress(bytes(200 << 20))
    assert len(zeros) < 1 << 20
    bomb = hostile(tmp_path / "bomb", "corpus-20000101T000000Z.sqlite.zst", zeros, 1 << 20)
    with pytest.raises(SnapshotCorrupt, match=f"inflates to more than the {1 << 20} bytes its manifest states"):
        Corpus.open(bomb, cache_dir=tmp_path / "cache")
    assert [path for path in (tmp_path / "cache").rglob("*") if path.is_file()] == []

    plain = hostile(tmp_path / "plain", "corpus-20000102T000000Z.sqlite.zst", b"SQLite format 3\0" + bytes(4096), 1 << 20)
    with pytest.raises(SnapshotCorrupt, match="is neither a zstd nor a gzip file"):
        Corpus.open(plain, cache_dir=tmp_path / "cache")
