"""The bucket as the work queue, against a real S3 server (SeaweedFS on 127.0.0.1)."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from paperpyramid.db.sqlite import (
    sqlite3,  # the library the writer uses: two SQLite libraries in one process would drop each other's file locks
)
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.executors import open_executor
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import HOSTILE, SAMPLE

ROOT = Path(__file__).resolve().parents[1]
GOOD = sorted(SAMPLE.glob("*.pdf"))
BAD = sorted(HOSTILE.glob("*.pdf"))


def put(server, bucket: str, key: str, data: bytes) -> None:
    server.make_bucket(bucket)
    server.client().put_object(bucket, key, io.BytesIO(data), len(data))


def distinct_copy(data: bytes, n: int) -> bytes:
    # bytes after %%EOF are ignored by PDF readers: a distinct file, the same paper
    return data + f"\n% copy {n}\n".encode()


def log(db: Path) -> dict[str, tuple[str, str | None]]:
    with sqlite3.connect(db) as connection:
        return {uri: (status, error) for uri, status, error in connection.execute("SELECT source_uri, status, error FROM ingest_log")}


def count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def settings(workers: int = 2, **ingest_options) -> Settings:
    # OCR off: every committed hostile file, the image-only scan too, is bad input for the queue
    # (tests/test_scans.py reads scans)
    return Settings(ingest=IngestSettings(workers=workers, **{"ocr": "never", **ingest_options}))


@pytest.mark.slow
def test_bucket_drained_skipped_by_etag_and_duplicates_logged(s3_env, tmp_path):
    for path in GOOD + BAD:
        put(s3_env, "queue1", f"batch/{path.name}", path.read_bytes())
    put(s3_env, "queue1", "batch/twin/same-as-plos.pdf", GOOD[-1].read_bytes())
    put(s3_env, "queue1", "elsewhere/not-in-prefix.pdf", GOOD[0].read_bytes())
    db = tmp_path / "c.sqlite"
    summary = ingest(["s3://queue1/batch/"], db, settings())
    outcome = log(db)
    assert len(outcome) == len(GOOD) + len(BAD) + 1, "every object under the prefix, and only those, is logged"
    assert summary.count("done") == len(GOOD) and count(db, "articles") == len(GOOD)
    assert outcome["s3://queue1/batch/hostile-encrypted-user-password.pdf"][1].startswith(
        "hostile-encrypted-user-password.pdf: encrypted PDF"
    )
    assert "corrupt" in outcome["s3://queue1/batch/hostile-fuzzed-no-trailer.pdf"][1]
    twins = [outcome["s3://queue1/batch/twin/same-as-plos.pdf"], outcome[f"s3://queue1/batch/{GOOD[-1].name}"]]
    assert sorted(status for status, _ in twins) == ["done", "skipped"]
    # a re-run downloads nothing: every object is skipped (or still failed) by its ETag
    rerun = ingest(["s3://queue1/batch/"], db, settings())
    assert rerun.count("done") == 0 and all(result.seconds == 0 for result in rerun.results)
    assert all(result.previous for result in rerun.results), "every outcome is replayed from the log"
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT max(attempts) FROM ingest_log").fetchone()[0] == 1


@pytest.mark.slow
def test_worker_that_dies_is_replaced_and_its_document_retried_then_failed(s3_env, tmp_path):
    put(s3_env, "queue2", "a.pdf", GOOD[0].read_bytes())
    put(s3_env, "queue2", "crash-me.pdf", GOOD[1].read_bytes())
    put(s3_env, "queue2", "z.pdf", GOOD[2].read_bytes())
    db = tmp_path / "c.sqlite"
    summary = ingest(["s3://queue2/"], db, settings(parser="tests.crashing_parser:parse", max_attempts=3))
    outcome = log(db)
    assert outcome["s3://queue2/a.pdf"][0] == "done" and outcome["s3://queue2/z.pdf"][0] == "done"
    assert outcome["s3://queue2/crash-me.pdf"] == (
        "failed",
        "crash-me.pdf: the parser process died 3 times on this document (last: exit status 3)",
    )
    assert summary.count("done") == 2


@pytest.mark.slow
def test_s3_server_stopped_and_restarted_mid_run(s3_env, tmp_path):
    for n in range(8):
        put(s3_env, "queue3", f"p{n}.pdf", distinct_copy(GOOD[n % len(GOOD)].read_bytes(), n))
    db = tmp_path / "c.sqlite"
    first = threading.Event()
    outage = threading.Thread(target=lambda: (first.wait(60), s3_env.stop(), time.sleep(2), s3_env.start()))
    outage.start()
    try:
        summary = ingest(["s3://queue3/"], db, settings(workers=1), on_result=lambda result: first.set())
    finally:
        outage.join(90)
        if s3_env.process is None:
            s3_env.start()
    assert summary.count("done") + summary.count("failed") == 8
    # an object whose download outlasted the retries is logged as unavailable and retried by the next run
    ingest(["s3://queue3/"], db, settings(workers=1))
    assert {status for status, _ in log(db).values()} == {"done"} and count(db, "articles") == 8


@pytest.mark.slow
def test_watch_ingests_objects_as_they_arrive(s3_env, tmp_path):
    s3_env.make_bucket("queue4")
    db = tmp_path / "c.sqlite"
    stop = threading.Event()
    results = []
    runner = threading.Thread(
        target=lambda: results.append(
            ingest(["s3://queue4/"], db, settings(workers=0), watch=True, poll_interval=0.2, max_poll_interval=0.5, stop=stop)
        )
    )
    runner.start()
    try:
        for n, path in enumerate(GOOD):
            put(s3_env, "queue4", f"arrived-{n}.pdf", path.read_bytes())
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and log(db).get(f"s3://queue4/arrived-{n}.pdf", ("",))[0] != "done":
                time.sleep(0.1)
            assert log(db)[f"s3://queue4/arrived-{n}.pdf"][0] == "done"
    finally:
        stop.set()
        runner.join(30)
    assert not runner.is_alive() and results[0].count("done") == len(GOOD)


def test_watch_backs_off_while_only_old_failures_are_listed(s3_env, tmp_path):
    """A bad PDF failed once stays in the bucket: later passes replay that outcome and must
    not count as new work, so the wait between listings doubles (0.1, 0.2, 0.4, 0.4 s ...)."""
    put(s3_env, "queue7", "corrupt.pdf", (HOSTILE / "hostile-fuzzed-no-trailer.pdf").read_bytes())
    db = tmp_path / "c.sqlite"
    stop = threading.Event()
    passes = []
    runner = threading.Thread(
        target=lambda: ingest(
            ["s3://queue7/"],
            db,
            settings(workers=0),
            watch=True,
            poll_interval=0.1,
            max_poll_interval=0.4,
            stop=stop,
            on_result=passes.append,
        )
    )
    runner.start()
    time.sleep(2.5)
    stop.set()
    runner.join(30)
    assert not runner.is_alive()
    assert passes[0].status == "failed" and not passes[0].previous
    assert all(result.previous for result in passes[1:])
    # without back-off 2.5 s of 0.1 s waits would be ~20 passes; with it, about 7
    assert 3 <= len(passes) <= 10, len(passes)


@pytest.mark.slow
def test_same_ingest_on_a_dask_local_cluster(s3_env, tmp_path):
    for path in GOOD + BAD[:2]:
        put(s3_env, "queue5", path.name, path.read_bytes())
    db = tmp_path / "c.sqlite"
    with open_executor("dask", 2) as executor:
        summary = ingest(["s3://queue5/"], db, settings(), executor=executor)
    assert summary.count("done") == len(GOOD) and summary.count("failed") == 2
    assert {status for uri, (status, _) in log(db).items() if "hostile" not in uri} == {"done"}


@pytest.mark.slow
@pytest.mark.parametrize("objects", [36, pytest.param(200, marks=pytest.mark.heavy)])
def test_kill_9_halfway_then_rerun_ingests_every_object_exactly_once(s3_env, tmp_path, shared_or_sample_pdfs, objects):
    good, hostile = shared_or_sample_pdfs
    bucket = f"queue6-{objects}"
    keys = {}
    n = 0
    while len(keys) < objects - len(hostile):
        source = good[n % len(good)]
        key = f"dump/{n:04d}-{source.name}"
        put(s3_env, bucket, key, distinct_copy(source.read_bytes(), n))
        keys[key] = source
        n += 1
    for path in hostile:
        put(s3_env, bucket, f"dump/hostile/{path.name}", path.read_bytes())
    db = tmp_path / "c.sqlite"
    command = [sys.executable, "-m", "paperpyramid.cli", "ingest", f"s3://{bucket}/dump/", "--db", str(db), "--workers", "2"]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {
        **os.environ,
        # the writer stores 8 documents a transaction (a batch fills before it waits a minute): the kill lands inside a batch
        "PAPERPYRAMID_INGEST__WRITE_BATCH": "8",
        "PAPERPYRAMID_INGEST__WRITE_BATCH_SECONDS": "60",
        # both runs' temporary folder: the folders the killed run leaves, the re-run removes
        "TMPDIR": str(scratch),
    }
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if db.exists() and _done(db) >= objects * 2 // 5:
            break
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)  # the ingest process and its workers, mid-write
    process.wait(30)
    killed_at = _done(db)
    assert 0 < killed_at < len(keys), "the kill must land halfway"
    rerun_started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stderr[-2000:]  # the hostile objects stay failed
    assert list(scratch.iterdir()) == []  # the killed run's folders (its own, its workers') too
    print(
        f"\nkill -9 after {killed_at} of {len(keys)} good objects done (+{len(hostile)} hostile); re-run took {time.monotonic() - rerun_started:.1f} s"
    )
    outcome = log(db)
    assert all(outcome[f"s3://{bucket}/{key}"][0] == "done" for key in keys)
    readable = sum(1 for path in hostile if path.name in READABLE)  # scans, owner-password-only
    assert count(db, "articles") == len(keys) + readable
    for path in hostile:
        status, error = outcome[f"s3://{bucket}/dump/hostile/{path.name}"]
        assert status == "failed" or path.name in READABLE, (path.name, status, error)
    with sqlite3.connect(db) as connection:
        orphans = connection.execute("SELECT count(*) FROM sections WHERE id NOT IN (SELECT section_id FROM article_sections)").fetchone()[
            0
        ]
        assert orphans == 0
        assert (
            connection.execute(
                "SELECT count(*) FROM articles WHERE id NOT IN (SELECT article_id FROM ingest_log WHERE status = 'done')"
            ).fetchone()[0]
            == 0
        )


READABLE = {
    "hostile-scanned-ocr-layer-z-naturforsch-1999.pdf",
    "hostile-scanned-ocr-layer-cacm-1978-backus-p21.pdf",
    "hostile-encrypted-owner-aes-layoutparser-2pages.pdf",
}
if shutil.which("tesseract"):  # the image-only scan is read by OCR
    READABLE.add("hostile-scanned-image-only-two-column.pdf")


def _done(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return int(connection.execute("SELECT count(*) FROM ingest_log WHERE status = 'done'").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.fixture
def shared_or_sample_pdfs() -> tuple[list[Path], list[Path]]:
    """The shared corpus's PDFs when present (the issue's bucket), else the committed ones."""
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    if (corpus / "MANIFEST.tsv").is_file():
        import csv

        rows = list(csv.DictReader((corpus / "MANIFEST.tsv").open(), delimiter="\t"))
        good = [corpus / row["file"] for row in rows if row["kind"] == "pdf" and int(row["pages"] or 0) <= 40]
        hostile = [corpus / row["file"] for row in rows if row["kind"] == "hostile"]
        return good, hostile
    return GOOD, BAD


def _tar(members: dict[str, bytes], gz: bool) -> bytes:
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz" if gz else "w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_pmc_package_in_the_bucket_ingests_through_jats_with_pdf_pages(s3_env, tmp_path):
    from paperpyramid import Corpus
    from paperpyramid.eval.gold import load_gold
    from paperpyramid.eval.parse import soft_norm
    from tests.conftest import GOLD

    stem = "plos-one-2014-fanged-frog-internal-fertilization"
    package = _tar(
        {
            f"PMC4280169/{stem}.nxml": (GOLD / f"{stem}.nxml").read_bytes(),
            f"PMC4280169/{stem}.pdf": (SAMPLE / f"{stem}.pdf").read_bytes(),
            "PMC4280169/pone.0115884.g001.jpg": b"\xff\xd8 not really a jpeg",
        },
        gz=True,
    )
    put(s3_env, "pmc", "oa_package/00/00/PMC4280169.tar.gz", package)
    db = tmp_path / "c.sqlite"
    summary = ingest(["s3://pmc/oa_package/"], db, settings(workers=1))
    assert summary.count("done") == 1, summary.results
    with Corpus.open(db) as corpus:
        (article,) = list(corpus.articles())
        assert article.parser.startswith("jats") and article.pages == 14
        titles = [section.title for section in corpus.sections(article.id)]
        gold = load_gold(GOLD / f"{stem}.nxml")
        assert [soft_norm(t) for t in gold.section_titles] == [
            soft_norm(t) for t in titles if soft_norm(t) in {soft_norm(g) for g in gold.section_titles}
        ]
        hit = corpus.search("digital calipers nearest 0.1 mm", k=1)[0]
        assert hit.citation.page_number == 2  # the sentence is on page 2 of the PDF


@pytest.mark.slow
def test_arxiv_tar_streams_members_and_refuses_unsafe_ones(tmp_path):
    dump = tmp_path / "dump"
    dump.mkdir()
    members = {f"0001/{path.stem}.pdf": path.read_bytes() for path in GOOD}
    members["../escape.pdf"] = GOOD[0].read_bytes()
    members["0001/README.txt"] = b"not a paper"
    (dump / "arXiv_pdf_0001_001.tar").write_bytes(_tar(members, gz=False))
    before = {p for p in tmp_path.rglob("*")}
    db = tmp_path / "c.sqlite"
    totals: list[int | None] = []
    summary = ingest([dump], db, settings(workers=0), on_total=totals.append)
    assert totals == [None], "an archive's members are not known before it streams"
    outcome = log(db)
    uri = str((dump / "arXiv_pdf_0001_001.tar").resolve())
    assert {outcome[f"{uri}#0001/{path.stem}.pdf"][0] for path in GOOD} == {"done"}
    refused = [error for key, (status, error) in outcome.items() if status == "failed"]
    assert len(refused) == 1 and "escape" in refused[0]
    assert summary.count("done") == len(GOOD)
    after = {p for p in tmp_path.rglob("*") if not p.name.startswith("c.sqlite")}
    assert after == before, "nothing extracted outside the scratch folder, and nothing left behind"


def test_the_test_server_takes_writes_in_more_buckets_than_its_disk_would_allow_by_default(s3_env):
    """weed sizes its volume count from free disk (free GiB / 1 GiB), one volume a bucket: a CI disk
    with 21 GiB free refused every write to the 22nd bucket with a 500. tests/s3server.py fixes the
    count; 40 buckets, each written and read back, hold it to that."""
    from tests.s3server import MAX_VOLUMES

    client = s3_env.client()
    names = [f"volumes-{n}" for n in range(40)]
    assert len(names) < MAX_VOLUMES
    try:
        for name in names:
            put(s3_env, name, "one.txt", name.encode())
        assert [client.get_object(name, "one.txt").read() for name in names] == [name.encode() for name in names]
    finally:
        for name in names:
            if client.bucket_exists(name):
                for item in client.list_objects(name, recursive=True):
                    client.remove_object(name, item.object_name)
                client.remove_bucket(name)
