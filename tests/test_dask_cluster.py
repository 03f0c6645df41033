"""Ingest on a real Dask cluster (issue 23, item 2): a scheduler and two workers started here as
separate processes (`dask scheduler`, `dask worker`) on 127.0.0.1, apart from the ingest, which
joins them with ``dask://`` and reads from a real S3 server (SeaweedFS on 127.0.0.1).

On the cluster the parser workers' limits hold as on the ingest's own pool: each document is
parsed in a limited child of the Dask worker (paperpyramid/ingestion/child_limits.py), so a document
that runs out of memory, overruns the time limit or kills its process is charged alone, and
the Dask workers themselves live on (their pids are the same before and after). A Dask worker
killed with -9 mid-run loses nothing and stores nothing twice.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.ingestion import IngestResult, ingest
from paperpyramid.ingestion.child_limits import Limits, run_limited
from paperpyramid.ingestion.executors import open_executor
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import HOSTILE, SAMPLE
from tests.test_worker_limits import flate_bomb_pdf
from tests.thread_probe import probe

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed (pip install 'paperpyramid[dask]')")

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")
PAPERPYRAMID = Path(sys.executable).with_name("paperpyramid")
GOOD = sorted(SAMPLE.glob("*.pdf"))
BAD = sorted(HOSTILE.glob("*.pdf"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _in_group(pgid: int) -> list[psutil.Process]:
    alive = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                alive.append(process)
    return alive


@dataclass
class Cluster:
    """A scheduler and its workers, each a process group of its own (a `dask worker` is a nanny,
    the worker it starts, and the parser children that worker starts)."""

    port: int
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _start(self, name: str, *args: str, **variables: str) -> subprocess.Popen[bytes]:
        # the workers import paperpyramid, and the tests' crashing and stuck parsers, from here
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])), **variables}
        # the processes' temporary files (their parser children's folders, Dask's own) in the test's
        # folder: the cluster is torn down with kill -9, which leaves them
        env["TMPDIR"] = str(self.logs)
        with (self.logs / f"{name}.log").open("ab") as log:
            process = subprocess.Popen([str(DASK), *args], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(process)
        return process

    def start_scheduler(self) -> None:
        # a task whose worker dies under it fails at once with KilledWorker (by default Dask tries
        # it on two more workers first): the kill -9 case meets Dask's harshest answer. No other
        # case may kill a Dask worker (each checks that none did), so no other case sees it.
        process = self._start(
            "scheduler",
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--no-dashboard",
            DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0",
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert process.poll() is None, f"dask scheduler exited with {process.returncode}: {self.log('scheduler')}"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return
            time.sleep(0.2)
        raise AssertionError(f"the scheduler did not listen on {self.address} within 60 s: {self.log('scheduler')}")

    def start_worker(self, name: str) -> subprocess.Popen[bytes]:
        return self._start(
            name,
            "worker",
            f"tcp://{self.address}",
            "--nworkers",
            "1",
            "--nthreads",
            "1",
            "--no-dashboard",
            "--host",
            "127.0.0.1",
            "--name",
            name,
        )

    def wait_for_workers(self, count: int, timeout: float = 90) -> dict[str, int]:
        """The worker processes' pids by worker name, once ``count`` workers are connected."""
        with distributed.Client(f"tcp://{self.address}", timeout="30s") as client:
            client.wait_for_workers(count, timeout=timeout)
            info = client.scheduler_info(n_workers=-1)["workers"]
            return {info[address]["name"]: pid for address, pid in client.run(os.getpid).items()}

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"

    def stop(self) -> list[int]:
        """Kill every process group; the pids of any process still alive 10 s later."""
        groups = [process.pid for process in self.processes]
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGKILL)
        for process in self.processes:
            process.wait(timeout=30)
        deadline = time.monotonic() + 10
        left = [p.pid for pgid in groups for p in _in_group(pgid)]
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = [p.pid for pgid in groups for p in _in_group(pgid)]
        return left


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    """One scheduler and two single-threaded workers for the whole module, torn down with
    nothing left behind."""
    if not DASK.exists():
        pytest.skip(f"no dask command beside {sys.executable}")
    cluster = Cluster(free_port(), tmp_path_factory.mktemp("dask-logs"))
    try:
        cluster.start_scheduler()
        cluster.start_worker("w1")
        cluster.start_worker("w2")
        try:
            cluster.wait_for_workers(2)
        except TimeoutError as exc:
            raise AssertionError(f"the workers did not join: {cluster.log('w1')}\n{cluster.log('w2')}") from exc
        yield cluster
    finally:
        leaked = cluster.stop()
    assert leaked == [], f"processes of the cluster still alive after teardown: {leaked}"


def put(server, bucket: str, key: str, data: bytes) -> None:
    server.make_bucket(bucket)
    server.client().put_object(bucket, key, io.BytesIO(data), len(data))


def distinct_copy(data: bytes, n: int) -> bytes:
    # bytes after %%EOF are ignored by PDF readers: a distinct file, the same paper
    return data + f"\n% copy {n}\n".encode()


def settings(**ingest_options: object) -> Settings:
    options: dict[str, object] = {"workers": 2, "ocr": "never", "embed": False, **ingest_options}
    return Settings(ingest=IngestSettings(**options))  # type: ignore[arg-type]


def outcomes(db: Path) -> dict[str, tuple[str, str | None]]:
    with sqlite3.connect(db) as connection:
        return {
            uri.rsplit("/", 1)[-1]: (status, error)
            for uri, status, error in connection.execute("SELECT source_uri, status, error FROM ingest_log")
        }


def corpus(db: Path) -> dict[str, tuple[object, ...]]:
    """Each input's outcome and, for an article, what a reader gets: its title, its contexts in
    order, and how many references and tables it has (ids and timings aside)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT source_uri, status, error, article_id FROM ingest_log").fetchall()
        result: dict[str, tuple[object, ...]] = {}
        for uri, status, error, article in rows:
            content: tuple[object, ...] = ()
            if status == "done":
                title = connection.execute("SELECT title FROM articles WHERE id = ?", (article,)).fetchone()[0]
                texts = [text for (text,) in connection.execute(
                    "SELECT c.text FROM article_sections a JOIN sections_contexts s ON s.section_id = a.section_id JOIN contexts c ON c.id = s.context_id "
                    "WHERE a.article_id = ? ORDER BY a.position, s.position", (article,))]  # fmt: skip
                references = connection.execute("SELECT count(*) FROM bib_entries WHERE article_id = ?", (article,)).fetchone()[0]
                tables = connection.execute("SELECT count(*) FROM tables WHERE article_id = ?", (article,)).fetchone()[0]
                content = (title, texts, references, tables)
            result[uri.rsplit("/", 1)[-1]] = (status, error, *content)
        return result


def count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


# -- the same corpus as the process executor ------------------------------------------------


@pytest.mark.slow
def test_cli_ingest_from_the_bucket_on_the_cluster_gives_the_process_executors_corpus(cluster, s3_env, tmp_path):
    for path in GOOD + BAD[:2]:
        put(s3_env, "dask1", path.name, path.read_bytes())
    started = time.monotonic()
    ingest(["s3://dask1/"], tmp_path / "process.sqlite", settings(workers=2))  # the process executor, the reference
    on_processes = time.monotonic() - started
    db = tmp_path / "dask.sqlite"
    command = [
        str(PAPERPYRAMID),
        "ingest",
        "s3://dask1/",
        "--db",
        str(db),
        "--executor",
        f"dask://{cluster.address}",
        "--no-embed",
        "--ocr",
        "never",
    ]
    run = subprocess.run(
        command, cwd=ROOT, env={**os.environ, "COLUMNS": "300"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300
    )
    assert run.returncode == 1 and f"{len(GOOD)} ingested, 2 failed" in run.stdout, run.stdout[-3000:]
    print(f"process executor {on_processes:.1f} s; the CLI on the cluster {time.monotonic() - started - on_processes:.1f} s")
    on_cluster, reference = corpus(db), corpus(tmp_path / "process.sqlite")
    assert on_cluster == reference
    assert sorted(status for status, *_ in on_cluster.values()) == ["done"] * len(GOOD) + ["failed"] * 2
    assert all(len(content[3]) > 5 for content in on_cluster.values() if content[0] == "done"), "each article has its contexts"


# -- the workers' limits hold on the cluster ------------------------------------------------
# (in this order the parser children the Dask workers start in the first test serve the next
# two: only a run with another memory ceiling needs new ones)


def _ingest_on_cluster(cluster: Cluster, source: str, db: Path, options: Settings) -> tuple[dict[str, IngestResult], float]:
    pids = cluster.wait_for_workers(2)
    started = time.monotonic()
    with open_executor(f"dask://{cluster.address}", 2) as executor:
        summary = ingest([source], db, options, executor=executor)
    seconds = time.monotonic() - started
    # the document was charged, not the cluster: the same two Dask worker processes, none restarted
    assert cluster.wait_for_workers(2) == pids
    return {result.source_uri.rsplit("/", 1)[-1]: result for result in summary.results}, seconds


def test_a_stuck_document_is_killed_past_the_time_limit_and_the_others_finish(cluster, s3_env, tmp_path):
    put(s3_env, "dask3", "stuck.pdf", GOOD[0].read_bytes())
    for path in GOOD[1:]:
        put(s3_env, "dask3", path.name, path.read_bytes())
    results, seconds = _ingest_on_cluster(
        cluster, "s3://dask3/", tmp_path / "c.sqlite", settings(parser="tests.stuck_parser:parse", time_limit=2)
    )
    assert results["stuck.pdf"].error == "stuck.pdf: parsing took longer than 2 s (the worker was stopped)"
    assert [results[path.name].status for path in GOOD[1:]] == ["done"] * len(GOOD[1:])
    assert seconds < 60, f"the stuck document held the run {seconds:.0f} s (it sleeps 600 s)"


@pytest.mark.slow
def test_a_document_that_kills_its_process_is_charged_alone_after_max_attempts(cluster, s3_env, tmp_path):
    put(s3_env, "dask4", "crash-me.pdf", GOOD[0].read_bytes())
    for path in GOOD[1:]:
        put(s3_env, "dask4", path.name, path.read_bytes())
    db = tmp_path / "c.sqlite"
    results, _ = _ingest_on_cluster(cluster, "s3://dask4/", db, settings(parser="tests.crashing_parser:parse", max_attempts=3))
    # word for word what the process executor logs (tests/test_bucket.py)
    assert results["crash-me.pdf"].error == "crash-me.pdf: the parser process died 3 times on this document (last: exit status 3)"
    assert [results[path.name].status for path in GOOD[1:]] == ["done"] * len(GOOD[1:])
    # a re-run does not try it again (a bad document, not an outage)
    results, _ = _ingest_on_cluster(cluster, "s3://dask4/", db, settings(parser="tests.crashing_parser:parse", max_attempts=3))
    assert all(result.previous for result in results.values())


@pytest.mark.slow
def test_a_dask_workers_parser_child_runs_one_blas_thread(cluster):
    # (its memory ceiling is the next test's: a flate bomb fails naming it)
    with open_executor(f"dask://{cluster.address}", 2) as executor:
        outcome = executor.submit(run_limited, Limits.of(IngestSettings(max_worker_memory=1024)), probe).result(timeout=120)
    assert outcome.failure is None, outcome.failure
    assert outcome.value["threads"] == 1 and outcome.value["OMP_NUM_THREADS"] == outcome.value["OPENBLAS_NUM_THREADS"] == "1", outcome.value


@pytest.mark.slow
def test_a_document_past_the_memory_ceiling_is_charged_alone_on_the_cluster(cluster, s3_env, tmp_path):
    put(s3_env, "dask2", "bomb.pdf", flate_bomb_pdf(2048))  # inflates to 2 GiB in pdfium
    for path in GOOD[:2]:
        put(s3_env, "dask2", path.name, path.read_bytes())
    results, seconds = _ingest_on_cluster(cluster, "s3://dask2/", tmp_path / "c.sqlite", settings(max_worker_memory=1024, max_attempts=1))
    bomb = results["bomb.pdf"]
    assert bomb.status == "failed" and "1024 MiB (--max-worker-memory)" in (bomb.error or ""), bomb.error
    # pdfium aborts when an allocation fails (a death, charged after max_attempts: one here), or Python sees a MemoryError
    assert "died 1 time on" in (bomb.error or "") or "needed more memory" in (bomb.error or ""), bomb.error
    assert [results[path.name].status for path in GOOD[:2]] == ["done", "done"]
    print(f"bomb charged alone in {seconds:.1f} s: {bomb.error}")


# -- a Dask worker killed with -9 mid-run ---------------------------------------------------


def _parser_children(pid: int) -> list[psutil.Process]:
    with contextlib.suppress(psutil.Error):
        return [child for child in psutil.Process(pid).children() if "spawn_main" in " ".join(child.cmdline())]
    return []


@pytest.mark.slow
def test_a_dask_worker_killed_with_sigkill_mid_run_loses_nothing_and_duplicates_nothing(cluster, s3_env, tmp_path):
    doomed = cluster.start_worker("doomed")  # a third worker of its own, the two others stay; it starts while the bucket fills
    objects = 12
    keys = [f"p{n:02d}.pdf" for n in range(objects)]
    for n, key in enumerate(keys):
        put(s3_env, "dask5", key, distinct_copy(GOOD[n % len(GOOD)].read_bytes(), n))
    pids = cluster.wait_for_workers(3)
    db = tmp_path / "c.sqlite"
    results: list[IngestResult] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            with open_executor(f"dask://{cluster.address}", 2) as executor:
                # each document reported as it is stored, not 64 at a time: the kill lands while the run is under way
                ingest(["s3://dask5/"], db, settings(write_batch=1), executor=executor, on_result=results.append)
        except BaseException as exc:  # re-raised by the test below
            errors.append(exc)

    runner = threading.Thread(target=run)
    runner.start()
    worker = pids["doomed"]
    with distributed.Client(f"tcp://{cluster.address}", timeout="30s") as client:
        address = next(addr for addr, info in client.scheduler_info(n_workers=-1)["workers"].items() if info["name"] == "doomed")
        deadline = time.monotonic() + 120
        children: list[psutil.Process] = []
        # mid-run: some documents stored, and the doomed worker parsing one in its child
        while time.monotonic() < deadline and runner.is_alive():
            children = _parser_children(worker)
            if len(results) >= 2 and children and client.processing(workers=[address]).get(address):
                break
            time.sleep(0.05)
    assert runner.is_alive() and children, "the kill did not land mid-run"
    stored_at_kill = len(results)
    os.kill(doomed.pid, signal.SIGKILL)  # the `dask worker` (its nanny) and the worker process it runs
    os.kill(worker, signal.SIGKILL)
    runner.join(240)
    assert not runner.is_alive() and not errors, errors
    # nothing of that `dask worker` is left: its parser child died with it (the kernel's
    # parent-death signal), multiprocessing's resource tracker when its pipe closed
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _in_group(doomed.pid):
        time.sleep(0.1)
    left = [(process.pid, " ".join(process.cmdline())[:120]) for process in _in_group(doomed.pid)]
    assert left == [], f"processes of the killed dask worker still alive: {left}"
    assert not any(child.is_running() and child.status() != psutil.STATUS_ZOMBIE for child in children)
    assert 0 < stored_at_kill < objects
    log = outcomes(db)
    assert sorted(log) == keys and len(results) == objects, "every object has one outcome"
    # the document the worker was parsing is lost to KilledWorker: an outage, not the document's
    # fault, logged for the next run to try again; the rest were stored
    lost = {key: error for key, (status, error) in log.items() if status != "done"}
    assert lost and all(
        (error or "").startswith(f"unavailable: {key}: the executor lost it: KilledWorker") for key, error in lost.items()
    ), lost
    assert count(db, "articles") == sum(status == "done" for status, _ in log.values())
    with open_executor(f"dask://{cluster.address}", 2) as executor:
        rerun = ingest(["s3://dask5/"], db, settings(), executor=executor)
    assert {outcomes(db)[key][0] for key in keys} == {"done"}
    assert count(db, "articles") == objects and rerun.count("done") == objects - sum(status == "done" for status, _ in log.values())
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(DISTINCT article_id) FROM ingest_log").fetchone()[0] == objects
        assert (
            connection.execute("SELECT count(*) FROM sections WHERE id NOT IN (SELECT section_id FROM article_sections)").fetchone()[0] == 0
        )
    print(
        f"kill -9 of a Dask worker after {stored_at_kill} of {objects} stored; the run lost {sum(s != 'done' for s, _ in log.values())} to a re-run"
    )
