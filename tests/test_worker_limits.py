"""Hard limits on parser workers, one writer per corpus, and no process outliving an ingest.

The hostile input is the probe's: a small PDF whose one content stream inflates to 2 GB (made
here; pdfium inflates a page's whole stream into memory before reading it). Without limits it
drives a worker past 3 GB and runs well past a 5 s time limit, because the alarm a worker sets
itself cannot interrupt pdfium's C code.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import psutil
import pytest

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.scratch import sweep
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE
from tests.pdf_maker import pdf_of_objects, text_pdf

PAPERPYRAMID = Path(sys.executable).with_name("paperpyramid")
GOOD = sorted(SAMPLE.glob("*.pdf"))


def flate_bomb_pdf(inflated_mib: int) -> bytes:
    """A one-page PDF whose content stream is a line of text and then ``inflated_mib`` MiB of spaces."""
    compressor = zlib.compressobj(1)
    data = compressor.compress(b"BT /F1 12 Tf 72 740 Td (A flate bomb) Tj ET\n")
    space = b" " * 2**20
    data += b"".join(compressor.compress(space) for _ in range(inflated_mib)) + compressor.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return pdf_of_objects(objects)


@pytest.fixture(scope="module")
def bomb_folder(tmp_path_factory) -> Path:
    """The bomb beside a real paper."""
    folder = tmp_path_factory.mktemp("bomb")
    # 4 GiB: pdfium inflates 2 GiB in ~4.6 s on a quiet core, which a 5 s time limit did not always stop
    (folder / "bomb.pdf").write_bytes(flate_bomb_pdf(4096))
    shutil.copy(GOOD[0], folder / GOOD[0].name)
    return folder


def settings(**ingest_options: object) -> Settings:
    options = {"workers": 1, "embed": False, **ingest_options}
    return Settings(ingest=IngestSettings(**options))  # type: ignore[arg-type]


class PeakChildMemory:
    """Samples the resident memory of this process's children every 20 ms, keeping the peak."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            for child in me.children(recursive=True):
                with contextlib.suppress(psutil.Error):  # a worker that just ended
                    self.peak = max(self.peak, child.memory_info().rss)
            time.sleep(0.02)

    def __enter__(self) -> PeakChildMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def outcomes(db: Path) -> dict[str, tuple[str, str | None]]:
    with sqlite3.connect(db) as connection:
        return {
            Path(uri).name: (status, error) for uri, status, error in connection.execute("SELECT source_uri, status, error FROM ingest_log")
        }


@pytest.mark.slow
def test_flate_bomb_fails_under_the_memory_ceiling_and_the_paper_beside_it_is_done(bomb_folder, tmp_path):
    db = tmp_path / "c.sqlite"
    started = time.monotonic()
    with PeakChildMemory() as memory:
        summary = ingest([bomb_folder], db, settings(max_worker_memory=1024, time_limit=30))
    seconds = time.monotonic() - started
    log = outcomes(db)
    assert log[GOOD[0].name][0] == "done"
    status, reason = log["bomb.pdf"]
    assert status == "failed"
    assert "died 3 times" in reason and "at most 1024 MiB (--max-worker-memory)" in reason, reason
    assert memory.peak < 1024 * 2**20, f"a worker reached {memory.peak / 2**20:.0f} MiB"
    assert summary.count("done") == 1 and seconds < 60
    print(f"bomb failed in {seconds:.1f} s (3 tries); peak worker RSS {memory.peak / 2**20:.0f} MiB under a 1024 MiB ceiling")


@pytest.mark.slow
def test_flate_bomb_is_stopped_within_twice_the_time_limit(bomb_folder, tmp_path):
    db = tmp_path / "c.sqlite"
    results = {}
    summary = ingest(
        [bomb_folder],
        db,
        settings(max_worker_memory=0, time_limit=5),
        on_result=lambda result: results.update({Path(result.source_uri).name: result}),
    )
    bomb = results["bomb.pdf"]
    # the worker's own alarm fires when pdfium hands control back between calls; when it does not
    # in time, the parent stops the worker: either way the document fails, within twice the limit
    assert bomb.status == "failed" and (bomb.error or "").startswith("bomb.pdf: parsing took longer than 5 s"), bomb.error
    assert bomb.seconds < 10, f"the bomb ran {bomb.seconds:.1f} s against a 5 s limit"
    assert results[GOOD[0].name].status == "done" and summary.count("done") == 1
    print(f"bomb stopped after {bomb.seconds:.1f} s against a 5 s limit")


@pytest.mark.slow
def test_a_rerun_does_not_try_the_stopped_bomb_again(bomb_folder, tmp_path):
    db = tmp_path / "c.sqlite"
    ingest([bomb_folder], db, settings(max_worker_memory=512, time_limit=30, max_attempts=1))
    started = time.monotonic()
    again = ingest([bomb_folder], db, settings(max_worker_memory=512, time_limit=30, max_attempts=1))
    assert {result.status for result in again.results} == {"failed", "skipped"} and all(result.previous for result in again.results)
    assert time.monotonic() - started < 5


def _children_of(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.slow
def test_no_worker_outlives_an_ingest_killed_with_sigkill(tmp_path):
    folder = tmp_path / "inputs"
    folder.mkdir()
    for index in range(40):  # enough distinct papers to keep both workers busy for a while
        (folder / f"paper-{index}.pdf").write_bytes(
            text_pdf([[(f"Paper {index}", 18), *((f"line {n} of paper {index}", 10) for n in range(40))]] * 30)
        )
    scratch = tmp_path / "tmp"  # its temporary folder: what the kill leaves lands here, not in /tmp
    scratch.mkdir()
    process = subprocess.Popen(
        [str(PAPERPYRAMID), "ingest", str(folder), "--db", str(tmp_path / "c.sqlite"), "--workers", "2", "--no-embed"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    deadline = time.monotonic() + 60
    children: list[psutil.Process] = []
    while time.monotonic() < deadline and len(children) < 3:  # two workers and multiprocessing's resource tracker
        children = _children_of(process.pid)
        time.sleep(0.1)
    assert len(children) >= 2, "the workers never started"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    time.sleep(10)
    alive = [child.pid for child in children if child.is_running() and child.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], f"{len(alive)} of {len(children)} child processes still alive 10 s after kill -9 of the ingest"
    # a killed ingest removes nothing: its folders name it, and the next ingest's sweep removes them
    left = sorted(path.name for path in scratch.iterdir())
    assert left and all(
        name.startswith((f"paperpyramid-worker-{process.pid}-", f"paperpyramid-scratch-{process.pid}-")) for name in left
    ), left
    assert sweep("paperpyramid-worker-", str(scratch)) + sweep("paperpyramid-scratch-", str(scratch)) == len(left)
    assert list(scratch.iterdir()) == []


@pytest.mark.slow
def test_two_concurrent_ingests_of_different_files_store_everything(tmp_path):
    db = tmp_path / "shared.sqlite"  # a fresh file: both runs would create the schema
    runs = []
    for index, paper in enumerate(GOOD[:2]):
        folder = tmp_path / f"inputs-{index}"
        folder.mkdir()
        shutil.copy(paper, folder / paper.name)
        runs.append(
            subprocess.Popen(
                [str(PAPERPYRAMID), "ingest", str(folder), "--db", str(db), "--workers", "1", "--no-embed"],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    log = outcomes(db)
    assert {name: status for name, (status, _) in log.items()} == {paper.name: "done" for paper in GOOD[:2]}
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM articles").fetchone()[0] == 2


@pytest.mark.slow
def test_a_second_ingest_waits_for_the_first_and_says_so(tmp_path):
    from paperpyramid.db.writer import writer_lock

    db = tmp_path / "c.sqlite"
    folder = tmp_path / "inputs"
    folder.mkdir()
    shutil.copy(GOOD[0], folder / GOOD[0].name)
    with writer_lock(db):  # as a first ingest would hold it
        run = subprocess.Popen(
            [str(PAPERPYRAMID), "ingest", str(folder), "--db", str(db), "--workers", "0", "--no-embed"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        # wait for its word that it waits, however slowly it starts under load, not for a fixed time
        assert run.stdout is not None
        lines: list[str] = []
        waiting = threading.Event()

        def read() -> None:
            for line in run.stdout:
                lines.append(line)
                if "waiting for it to finish" in line:
                    waiting.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert waiting.wait(timeout=120), "".join(lines)
        time.sleep(0.5)  # holding the lock a moment longer: nothing may be written meanwhile
        assert run.poll() is None, "the second ingest did not wait"
        assert not db.exists() or outcomes(db) == {}, "it wrote while the first held the lock"
    run.wait(timeout=120)
    reader.join(timeout=30)
    output = "".join(lines)
    assert run.returncode == 0 and "another ingest" in output and "waiting for it to finish" in output, output
    assert outcomes(db)[GOOD[0].name][0] == "done"


def test_a_done_row_is_never_replaced_by_skipped(tmp_path):
    with CorpusWriter(tmp_path / "c.sqlite") as writer:
        writer.record("s3://b/a.pdf", "abc", "done", article_id=None)
        writer.record("s3://b/a.pdf", "abc", "skipped", error="same bytes as an article already stored")
        assert writer.logged("s3://b/a.pdf")[0] == "done"
        writer.record("s3://b/a.pdf", "def", "failed", error="changed bytes that no longer parse")
        assert writer.logged("s3://b/a.pdf")[0] == "failed"


def test_watch_over_an_ingested_bucket_keeps_no_memory_per_pass(s3_env, tmp_path):
    import tracemalloc

    s3_env.make_bucket("idle")
    client = s3_env.client()
    for index in range(60):
        data = text_pdf([[(f"Paper number {index}", 12)]])
        client.put_object("idle", f"p{index}.pdf", io.BytesIO(data), len(data))
    db = tmp_path / "c.sqlite"
    ingest(["s3://idle/"], db, settings(workers=0))
    listed = [0]
    marks: dict[int, int] = {}
    stop = threading.Event()

    def on_result(result: object) -> None:
        listed[0] += 1
        passes = listed[0] // 60
        if listed[0] % 60 == 0 and passes in (10, 60):
            marks[passes] = tracemalloc.get_traced_memory()[0]
            if passes == 60:
                stop.set()

    tracemalloc.start()
    try:
        summary = ingest(
            ["s3://idle/"], db, settings(workers=0), watch=True, poll_interval=0.01, max_poll_interval=0.01, stop=stop, on_result=on_result
        )
    finally:
        tracemalloc.stop()
    assert summary.count("skipped") >= 60 * 60 and summary.results == []
    growth = marks[60] - marks[10]
    # the old summary kept ~300 bytes per listed object per pass: 50 passes x 60 objects ~ 0.9 MB
    assert growth < 150_000, f"memory grew by {growth} bytes over 50 idle passes"
    print(f"50 idle passes over 60 objects: traced memory grew by {growth} bytes")


def _refuse_settings(*args: object, on_phase: object = None) -> None:
    from paperpyramid.errors import ConfigurationError

    raise ConfigurationError("access denied to s3://papers/ with the given AWS_ACCESS_KEY_ID (InvalidAccessKeyId)")


def test_an_error_of_the_run_not_the_document_reaches_the_caller_from_a_worker():
    from paperpyramid.errors import ConfigurationError
    from paperpyramid.ingestion.workers import WorkerPool

    with WorkerPool(1, memory_mib=None, time_limit=30) as pool:
        pool.submit(7, _refuse_settings)
        outcomes: list = []
        deadline = time.monotonic() + 60
        while not outcomes and time.monotonic() < deadline:
            outcomes = pool.wait(timeout=1.0)
    assert len(outcomes) == 1 and isinstance(outcomes[0].raised, ConfigurationError)
    assert "InvalidAccessKeyId" in str(outcomes[0].raised)


def _echo(value: int, on_phase: object = None) -> int:
    return value


@pytest.mark.slow
def test_a_worker_that_died_while_idle_is_replaced_when_the_next_job_comes():
    from paperpyramid.ingestion.workers import WorkerPool

    with WorkerPool(1, memory_mib=None, time_limit=30) as pool:
        pool.submit(1, _echo, 1)
        first: list = []
        deadline = time.monotonic() + 60
        while not first and time.monotonic() < deadline:
            first = pool.wait(timeout=1.0)
        (worker,) = pool._workers
        worker.process.kill()  # as the OOM killer would, between two documents
        worker.process.join(timeout=10)
        pool.submit(2, _echo, 2)
        second: list = []
        deadline = time.monotonic() + 60
        while not second and time.monotonic() < deadline:
            second = pool.wait(timeout=1.0)
    assert [outcome.value for outcome in first] == [1]
    assert len(second) == 1 and second[0].value == 2  # a fresh worker took the job


@pytest.mark.slow
def test_a_document_stuck_in_native_code_is_stopped_by_the_parent(tmp_path):
    folder = tmp_path / "inputs"
    folder.mkdir()
    shutil.copy(GOOD[0], folder / "stuck.pdf")
    shutil.copy(GOOD[1], folder / GOOD[1].name)
    results = {}
    started = time.monotonic()
    ingest(
        [folder],
        tmp_path / "c.sqlite",
        settings(parser="tests.stuck_parser:parse", time_limit=2, workers=1),
        on_result=lambda result: results.update({Path(result.source_uri).name: result}),
    )
    assert results["stuck.pdf"].error == "stuck.pdf: parsing took longer than 2 s (the worker was stopped)"
    assert results[GOOD[1].name].status == "done"  # the fresh worker parsed the next one
    assert time.monotonic() - started < 30
