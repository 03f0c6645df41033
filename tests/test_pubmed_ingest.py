"""PubMed baseline and update files through ``ingest``: each record one article (source kind
``pubmed-record``, logged as ``FILE#<pmid>.<version>``), a refused record a failure with its reason
while the run goes on, a revised record replacing the older version, an update file's deletions
applied in file order (even with records of the same file still in the workers), a re-run that adds
nothing, licences from PMC's ``oa_file_list.csv``, and a file streamed in flat memory. Records are
built from the real one in ``tests/data/pubmed`` by ``benchmarks/pubmed_speed.py``'s generator."""

from __future__ import annotations

import random
import re
import shutil
import sys
import threading
import tracemalloc
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.document import Document
from paperpyramid.errors import ConfigurationError
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.items import iter_items
from paperpyramid.ingestion.licences import read_licences
from paperpyramid.ingestion.parsing import Parsed
from paperpyramid.ingestion.running import open_pool, run
from paperpyramid.ingestion.work import WorkItem
from paperpyramid.ingestion.workers import Outcome
from paperpyramid.parsers.contract import PUBMED_RECORD
from paperpyramid.settings import IngestSettings, S3Settings, Settings
from tests.conftest import GOLD

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import pubmed_speed  # noqa: E402

TEMPLATE = pubmed_speed.Template()
FIRST = 30_000_001
OA_HEADER = "File,Article Citation,Accession ID,Last Updated (YYYY-MM-DD HH:MM:SS),PMID,License\n"
PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
runner = CliRunner()


def record(pmid: int, *, version: int = 1, title: str | None = None, pmcid: int | None = None) -> bytes:
    """A journal article's record (never a book's), with the PMC id asked for (or none)."""
    seed = pmid
    while (xml := pubmed_speed.make_record(pmid, random.Random(seed), TEMPLATE, version=version)).lstrip().startswith(b"<PubmedBook"):
        seed += 1_000_000
    xml = re.sub(rb'\s*<ArticleId IdType="pmc">PMC\d+</ArticleId>', b"", xml)
    if pmcid is not None:
        xml = xml.replace(
            b"\t\t\t</ArticleIdList>", f'\t\t\t\t<ArticleId IdType="pmc">PMC{pmcid}</ArticleId>\n\t\t\t</ArticleIdList>'.encode()
        )
    if title is not None:
        xml = re.sub(rb"<ArticleTitle>.*?</ArticleTitle>", f"<ArticleTitle>{title}</ArticleTitle>".encode(), xml, count=1, flags=re.S)
    return xml


def write(path: Path, parts: list[bytes]) -> Path:
    pubmed_speed.write_file(path, parts)
    return path


def settings(**options: object) -> Settings:
    return Settings(ingest=IngestSettings(**{"workers": 0, "embed": False, **options}))  # type: ignore[arg-type]


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql).fetchall())


def pmids(db: Path) -> set[str]:
    return {str(row[0]) for row in rows(db, "SELECT pmid FROM articles")}


def test_a_baseline_file_is_one_article_per_record_and_a_rerun_adds_nothing(tmp_path: Path) -> None:
    parts = [record(FIRST + index) for index in range(8)]
    parts[3] = re.sub(rb"<PMID[^>]*>\d+</PMID>", b"", parts[3], count=1)  # a record without its PMID
    file = write(tmp_path / "pubmed26n0001.xml.gz", parts)
    db = tmp_path / "c.sqlite"
    summary = ingest([file], db, settings())
    assert (summary.count("done"), summary.count("failed")) == (7, 1), summary.results
    (failure,) = [result for result in summary.results if result.status == "failed"]
    assert failure.source_uri.startswith(f"{file.resolve()}#record 4") and "PMID" in (failure.error or "")
    assert pmids(db) == {str(FIRST + index) for index in range(8) if index != 3}
    logged = {str(uri).rsplit("#", 1)[1] for (uri,) in rows(db, "SELECT source_uri FROM ingest_log WHERE status = 'done'")}
    assert logged == {f"{FIRST + index}.1" for index in range(8) if index != 3}
    assert rows(db, "SELECT DISTINCT parser FROM articles") == [("pubmed",)]
    assert rows(db, "SELECT count(*) FROM articles WHERE sha256 IS NULL OR title IS NULL") == [(0,)]
    before = rows(db, "SELECT count(*) FROM articles"), rows(db, "SELECT count(*) FROM contexts")
    again = ingest([file], db, settings())
    assert (again.count("done"), again.count("skipped"), again.count("failed")) == (0, 7, 1)
    assert (rows(db, "SELECT count(*) FROM articles"), rows(db, "SELECT count(*) FROM contexts")) == before


def test_an_update_file_revises_and_deletes_in_file_order(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    baseline = write(tmp_path / "pubmed26n0001.xml.gz", [record(FIRST + index) for index in range(6)])
    assert ingest([baseline], db, settings()).count("done") == 6
    added = FIRST + 100
    update = write(
        tmp_path / "pubmed26n0002.xml",  # plain XML, as well as gzip
        [
            record(added),
            # deleted in the file that added it, while that record may still be in a worker: applied after it is stored
            pubmed_speed.delete_citation([FIRST + 2, added, 39_999_999]),
            record(FIRST + 1, version=2, title="A revised title for the second record"),
            record(FIRST + 200),
        ],
    )
    summary = ingest([update], db, settings(workers=2))
    assert (summary.count("done"), summary.count("failed"), summary.deleted) == (3, 0, 2), summary.results
    assert pmids(db) == {str(FIRST + index) for index in (0, 1, 3, 4, 5, 200)}
    assert rows(db, f"SELECT title FROM articles WHERE pmid = '{FIRST + 1}'") == [("A revised title for the second record",)]
    again = ingest([update], db, settings())
    assert (again.count("done"), again.deleted) == (0, 0) and pmids(db) == {str(FIRST + index) for index in (0, 1, 3, 4, 5, 200)}


def test_a_deletion_waits_for_the_records_before_it() -> None:
    """On any executor, the items before a deletion are stored before it, however much faster it is."""

    class Uneven(Executor):
        def submit(self, fn: Callable[..., object], /, *args: Any, **kwargs: Any) -> Future[Any]:
            item = args[2]  # run_limited(limits, parse_item, item, ...)
            future: Future[Any] = Future()
            done = Outcome(0, value=Parsed(None, item.uri, 0.0))
            threading.Timer(0.0 if item.deletes else 0.3, future.set_result, [done]).start()
            return future

    items = [WorkItem("a", kind=PUBMED_RECORD), WorkItem("deletion", deletes=("1",)), WorkItem("b", kind=PUBMED_RECORD)]
    with open_pool(Uneven(), IngestSettings(workers=1)) as pool:
        order = [item.uri for item, _ in run(iter(items), settings(workers=1), pool)]
    assert order == ["a", "deletion", "b"]


def test_pubmed_files_are_found_in_a_folder_by_name_and_by_content(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    write(folder / "pubmed26n0003.xml.gz", [record(FIRST)])
    write(folder / "medline-part.xml", [record(FIRST + 1)])  # no PubMed name, a <PubmedArticleSet> root
    shutil.copy(GOLD / f"{PLOS}.nxml", folder / f"{PLOS}.nxml")
    db = tmp_path / "c.sqlite"
    summary = ingest([folder], db, settings())
    assert (summary.count("done"), summary.total) == (3, 3), summary.results
    assert rows(db, "SELECT parser, count(*) FROM articles GROUP BY parser ORDER BY parser") == [("jats", 1), ("pubmed", 2)]


def test_licences_from_pmcs_file_list(tmp_path: Path) -> None:
    file = write(
        tmp_path / "pubmed26n0004.xml.gz",
        [record(FIRST, pmcid=5_000_001), record(FIRST + 1, pmcid=5_000_002), record(FIRST + 2), record(FIRST + 3, pmcid=5_000_004)],
    )
    listing = tmp_path / "oa_file_list.csv"
    listing.write_text(
        OA_HEADER
        + 'oa_package/08/e0/PMC5000001.tar.gz,"Some J. 2001 Nov 2; 3(1):55-60",PMC5000001,2019-11-05 11:56:12,30000001,CC BY-NC\n'
        + 'oa_package/08/e0/PMC5000002.tar.gz,"Other J, with a comma. 2003",PMC5000002,2019-11-05 11:56:12,,NO-CC CODE\n'
        + "oa_package/08/e0/PMC5000003.tar.gz,Third J,PMC5000003,2019-11-05 11:56:12,,CC0\n",
        encoding="utf-8",
    )
    db = tmp_path / "c.sqlite"
    result = runner.invoke(app, ["ingest", str(file), "--db", str(db), "--no-embed", "--workers", "0", "--licences", str(listing)])
    assert result.exit_code == 0, result.output
    assert "4 ingested, 0 failed, 0 skipped of 4 inputs" in " ".join(result.output.split())
    licences = dict(rows(db, "SELECT pmid, licence FROM articles"))
    assert licences == {"30000001": "cc-by-nc", "30000002": "NO-CC CODE", "30000003": None, "30000004": None}


def test_a_licence_list_keeps_a_licence_of_the_articles_own_and_refuses_other_files(tmp_path: Path) -> None:
    listing = tmp_path / "oa_file_list.csv"
    listing.write_text(OA_HEADER + "a.tar.gz,X,PMC7,2019-11-05 11:56:12,1,CC BY\nb.tar.gz,Y,PMC12,2019-11-05,2,CC BY-SA\n")
    licences = read_licences(listing)
    assert len(licences) == 2 and licences.licence_of("PMC12") == "cc-by-sa" and licences.licence_of("7") == "cc-by"
    assert licences.licence_of("PMC8") is None and licences.licence_of(None) is None
    own = Document(pmcid="PMC7", licence="cc0")
    assert not licences.apply(own) and own.licence == "cc0"
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(ConfigurationError, match="not PMC's oa_file_list.csv"):
        read_licences(other)


def test_a_pubmed_file_streams_in_flat_memory(tmp_path: Path) -> None:
    """Items are made one at a time as the file is read: the peak does not grow with the file."""

    def peak(count: int) -> int:
        file = write(tmp_path / f"pubmed26n{count:04d}.xml.gz", [record(FIRST + index) for index in range(count)])
        tracemalloc.start()
        try:
            seen = sum(1 for _ in iter_items([file], S3Settings(), tmp_path, IngestSettings()))
            return tracemalloc.get_traced_memory()[1] if seen == count else -1
        finally:
            tracemalloc.stop()

    small, large = peak(100), peak(1500)
    assert small > 0 and large > 0
    assert large < 2 * small, (small, large)
