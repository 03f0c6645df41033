"""A parser worker's temporary files go into a folder of its own, removed when the worker ends:
normally, killed by a signal mid-document, or stopped for running past the time limit. Before,
each worker killed mid-document left its download (a PDF of up to the size limit) in /tmp."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from paperpyramid.ingestion.workers import Outcome, WorkerPool


def _write_then(action: str, note: str, *, on_phase) -> str:  # runs in the worker (spawned: importable by name)
    """Write a temporary file the way a download does, say where in ``note``, then return, die or hang."""
    on_phase("parse")
    with tempfile.NamedTemporaryFile(delete=False, suffix=".pdf") as handle:
        handle.write(b"%PDF-1.7 " * 1000)
    Path(note).write_text(handle.name)
    if action == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if action == "hang":
        time.sleep(60)
    return handle.name


@pytest.fixture
def system_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The parent's temporary folder, where the pool makes each worker's scratch folder."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def note(tmp_path: Path) -> Path:
    return tmp_path / "written.txt"


def _outcome(pool: WorkerPool) -> Outcome:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        outcomes = pool.wait(timeout=0.5)
        if outcomes:
            return outcomes[0]
    raise AssertionError("no outcome within 60 s")


def test_files_go_to_the_workers_folder_and_leave_with_it(system_tmp: Path, note: Path) -> None:
    with WorkerPool(1, memory_mib=None, time_limit=30) as pool:
        pool.submit(1, _write_then, "return", str(note))
        written = Path(_outcome(pool).value)
        assert written.exists()
        assert written.parent.parent == system_tmp and written.parent.name.startswith("paperpyramid-worker-")
    assert not written.exists()
    assert list(system_tmp.iterdir()) == []


def test_a_killed_worker_leaves_no_file(system_tmp: Path, note: Path) -> None:
    with WorkerPool(1, memory_mib=None, time_limit=30) as pool:
        pool.submit(1, _write_then, "kill", str(note))
        outcome = _outcome(pool)
        assert outcome.died and "SIGKILL" in (outcome.failure or "")
        assert not Path(note.read_text()).exists()  # removed as soon as its death was seen, not at close
        assert list(system_tmp.iterdir()) == []
        pool.submit(2, _write_then, "return", str(note))  # a fresh worker, a fresh folder
        assert Path(_outcome(pool).value).exists()


def test_a_worker_stopped_past_the_time_limit_leaves_no_file(system_tmp: Path, note: Path) -> None:
    with WorkerPool(1, memory_mib=None, time_limit=0.5) as pool:
        pool.submit(1, _write_then, "hang", str(note))
        outcome = _outcome(pool)
        assert outcome.timed_out
        assert not Path(note.read_text()).exists()
        assert list(system_tmp.iterdir()) == []


def test_a_pool_nobody_closed_leaves_no_folder_when_its_process_exits(tmp_path: Path) -> None:
    """A thread's pool of one child (``child_limits``) is kept for its next document and never
    closed: its process's exit closes it, and its worker's folder goes."""
    script = (
        "import time\n"
        "from paperpyramid.ingestion.workers import WorkerPool\n"
        "from test_worker_scratch import _write_then\n"
        "pool = WorkerPool(1, memory_mib=None, time_limit=30)\n"
        f"pool.submit(1, _write_then, 'return', {str(tmp_path / 'note.txt')!r})\n"
        "while not pool.wait(timeout=0.5):\n"
        "    pass\n"
    )
    folder = tmp_path / "tmp"
    folder.mkdir()
    env = {**os.environ, "TMPDIR": str(folder), "PYTHONPATH": str(Path(__file__).parent)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=120)
    assert Path((tmp_path / "note.txt").read_text()).parent.parent == folder  # it wrote into its worker's folder
    assert list(folder.iterdir()) == []
