"""Scratch folders whose owner is gone are removed by the next process that makes one of the
same kind; a live owner's never are. Before, each ingest killed with -9 left its workers' and
its own folder in /tmp for ever, and each pool of an executor's thread (a Dask worker's) left
its worker's folder when the executor shut down: hundreds had piled up."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from paperpyramid.ingestion import scratch
from paperpyramid.ingestion.child_limits import Limits, run_limited

PREFIX = "paperpyramid-worker-"


def _dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _owned_by_a_child(where: Path) -> tuple[subprocess.Popen[str], Path]:
    """A child process that makes a scratch folder in ``where``, holds it and waits."""
    code = f"from paperpyramid.ingestion import scratch; print(scratch.make({PREFIX!r}, {str(where)!r}).path, flush=True); input()"
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    return child, Path(child.stdout.readline().strip())


def test_the_folder_of_an_owner_killed_with_sigkill_goes_and_a_live_owners_stays(tmp_path: Path) -> None:
    mine = scratch.make(PREFIX, str(tmp_path))
    assert Path(mine.path).name.startswith(f"{PREFIX}{os.getpid()}-")
    child, theirs = _owned_by_a_child(tmp_path)
    try:
        assert theirs.is_dir() and theirs.name.startswith(f"{PREFIX}{child.pid}-")
        assert scratch.sweep(PREFIX, str(tmp_path)) == 0  # both owners alive
        assert theirs.is_dir()
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        assert scratch.sweep(PREFIX, str(tmp_path)) == 1
        assert not theirs.exists() and Path(mine.path).is_dir()
    finally:
        child.kill()
        child.wait(timeout=10)
        mine.close()
    assert list(tmp_path.iterdir()) == []


def test_a_folder_whose_owner_holds_its_lock_stays_though_its_pid_looks_dead(tmp_path: Path) -> None:
    """Containers sharing /tmp but not their pid numbers: a live owner's pid may look dead."""
    folder = tmp_path / f"{PREFIX}{_dead_pid()}-abcd"
    folder.mkdir()
    held = scratch._lock(str(folder))
    assert held is not None
    assert scratch.sweep(PREFIX, str(tmp_path)) == 0 and folder.is_dir()
    os.close(held)  # the owner ends
    assert scratch.sweep(PREFIX, str(tmp_path)) == 1 and not folder.exists()


def test_only_folders_of_the_prefix_with_a_pid_are_touched(tmp_path: Path) -> None:
    dead = _dead_pid()
    kept = [
        f"{PREFIX}abcd1234",  # the old names, with no pid
        f"{PREFIX}{dead}",  # no dash after the pid
        f"{PREFIX}0-abcd",  # pid 0 is no process
        f"{PREFIX}99999999999-abcd",  # past any pid
        f"paperpyramid-scratch-{dead}-abcd",  # another prefix
        f"x{PREFIX}{dead}-abcd",
    ]
    for name in kept:
        (tmp_path / name).mkdir()
    (tmp_path / f"{PREFIX}{dead}-file").write_text("a file, not a folder")
    (tmp_path / f"{PREFIX}{dead}-link").symlink_to(tmp_path / kept[0])
    (tmp_path / f"{PREFIX}{dead}-gone").mkdir()
    assert scratch.sweep(PREFIX, str(tmp_path)) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([*kept, f"{PREFIX}{dead}-file", f"{PREFIX}{dead}-link"])


def test_a_sweep_removes_at_most_its_limit(tmp_path: Path) -> None:
    dead = _dead_pid()
    for n in range(5):
        (tmp_path / f"{PREFIX}{dead}-{n}" / "inside").mkdir(parents=True)
    assert scratch.sweep(PREFIX, str(tmp_path), limit=2) == 2
    assert len(list(tmp_path.iterdir())) == 3
    assert scratch.sweep(PREFIX, str(tmp_path)) == 3


def test_a_threads_pool_dropped_with_its_thread_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An executor's threads each keep a pool of one child (:mod:`.child_limits`); when the
    executor shuts down the pools are dropped with their threads, unclosed: their folders go."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with ThreadPoolExecutor(2) as executor:
        outcomes = [future.result() for future in [executor.submit(run_limited, Limits(0, 30, None), _echo, n) for n in range(3)]]
    assert sorted(outcome.value for outcome in outcomes) == [0, 1, 2]
    gc.collect()
    deadline = time.monotonic() + 10
    while list(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(tmp_path.iterdir()) == []


def _echo(value: int, on_phase: object = None) -> int:  # runs in the child (spawned: importable by name)
    return value
