"""Every kind of source from a bucket, against a real S3 server (SeaweedFS on 127.0.0.1): JATS
``.nxml``/``.xml`` objects ingested as local ones are (an ``.xml`` that is no JATS skipped, not
failed), a PubMed file streamed record by record, a tar holding an XML and its PDF read as one
article, beside plain PDFs; a re-run downloads nothing and adds nothing."""

from __future__ import annotations

import io
import sys
import tarfile
from pathlib import Path

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import GOLD, SAMPLE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import pubmed_speed  # noqa: E402

PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
WHEAT = "mdpi-metabolites-2014-durum-wheat-volatiles"
OTHER_PDF = SAMPLE / "bmc-health-serv-res-2014-barriers.pdf"


def put(server: object, bucket: str, key: str, data: bytes) -> None:
    server.make_bucket(bucket)  # type: ignore[attr-defined]
    server.client().put_object(bucket, key, io.BytesIO(data), len(data))  # type: ignore[attr-defined]


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql).fetchall())


def pubmed_file(count: int) -> bytes:
    buffer = io.BytesIO()
    with pubmed_speed.gzip.GzipFile(fileobj=buffer, mode="wb") as out:
        for part in pubmed_speed.framed(pubmed_speed.baseline(count, seed=7, first_pmid=31_000_001)):
            out.write(part)
    return buffer.getvalue()


def pair_tar() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, path in ((f"pairs/{WHEAT}.nxml", GOLD / f"{WHEAT}.nxml"), (f"pairs/{WHEAT}.pdf", SAMPLE / f"{WHEAT}.pdf")):
            data = path.read_bytes()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_jats_pubmed_and_pairs_from_a_bucket(s3_env: object, tmp_path: Path) -> None:
    put(s3_env, "kinds", "in/PMC4280169.nxml", (GOLD / f"{PLOS}.nxml").read_bytes())
    put(s3_env, "kinds", "in/bulk/PMC4280169.xml", (GOLD / f"{PLOS}.nxml").read_bytes() + b"\n<!-- a copy -->\n")
    put(s3_env, "kinds", "in/notes.tei.xml", b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text/></TEI>')
    put(s3_env, "kinds", "in/pubmed26n0001.xml.gz", pubmed_file(3))
    put(s3_env, "kinds", "in/paper.pdf", OTHER_PDF.read_bytes())
    put(s3_env, "kinds", "in/pairs.tar.gz", pair_tar())
    db = tmp_path / "c.sqlite"
    settings = Settings(ingest=IngestSettings(workers=1, embed=False, ocr="never"))
    summary = ingest(["s3://kinds/in/"], db, settings)
    status = {result.source_uri.removeprefix("s3://kinds/in/"): result.status for result in summary.results}
    assert status == {
        "PMC4280169.nxml": "done",
        "bulk/PMC4280169.xml": "done",
        "notes.tei.xml": "skipped",
        "paper.pdf": "done",
        "pubmed26n0001.xml.gz#31000001.1": "done",
        "pubmed26n0001.xml.gz#31000002.1": "done",
        "pubmed26n0001.xml.gz#31000003.1": "done",
        f"pairs.tar.gz#pairs/{WHEAT}.nxml": "done",
    }, summary.results
    (skipped,) = [result for result in summary.results if result.status == "skipped"]
    assert skipped.error == "notes.tei.xml: not JATS, not an input"
    parsers = rows(db, "SELECT parser, count(*) FROM articles GROUP BY parser ORDER BY parser")
    assert dict(parsers) == {"embedded": 1, "jats": 2, "jats+embedded": 1, "pubmed": 3}, parsers
    assert rows(db, f"SELECT parser, pages FROM articles WHERE source_uri LIKE '%pairs.tar.gz#pairs/{WHEAT}.nxml'") == [
        ("jats+embedded", 14)
    ]
    before = rows(db, "SELECT count(*) FROM articles")
    again = ingest(["s3://kinds/in/"], db, settings)
    assert again.count("done") == 0 and rows(db, "SELECT count(*) FROM articles") == before
    assert all(result.previous for result in again.results)
