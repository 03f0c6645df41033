"""Scratch folders in the system's temporary folder that outlive no process for long: the
parser workers' (:mod:`.workers`) and the ingest's own (:mod:`.pipeline`).

A folder is removed by the process that made it, however its workers end; but a process killed
with ``kill -9`` (or by the OOM killer) removes nothing, and each such kill used to leave its
folders in ``/tmp`` for ever. So a folder's name carries its owner's pid
(``paperpyramid-worker-<pid>-<random>``), the owner holds a lock on it (``flock``) while it
lives, and the next process that makes a folder of the same prefix removes those whose owner is
gone. Gone means both: no process has that pid here (a pid taken again by another process keeps
the folder, a harmless wait), and the lock is free. The lock is what keeps a live folder safe
from a process that cannot see its owner: containers that share ``/tmp`` but not their pid
numbers, where a live owner's pid looks dead. The kernel releases the lock however the owner
ends. Where locks are not to be had (some network file systems), nothing is removed.

The sweep looks only at this prefix followed by digits and a dash, only at folders of this user,
and removes at most :data:`SWEEP_LIMIT` a time, so that a start never waits on a huge backlog.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SWEEP_LIMIT", "Scratch", "make", "scratch_folder", "sweep"]

#: the most folders one sweep removes (what is left goes at the next start)
SWEEP_LIMIT = 100


@dataclass(slots=True)
class Scratch:
    """A scratch folder and the lock its owner holds on it."""

    path: str
    lock: int | None  # a descriptor of the folder, locked; None where locks are not to be had

    def close(self, *, remove: bool = True) -> None:
        """Remove the folder (unless ``remove`` is false: a worker that would not die keeps its
        files, which a later sweep removes once this process is gone) and release the lock."""
        if remove:
            shutil.rmtree(self.path, ignore_errors=True)
        if self.lock is not None:
            with contextlib.suppress(OSError):
                os.close(self.lock)
            self.lock = None


def make(prefix: str, where: str | None = None) -> Scratch:
    """A fresh folder ``<prefix><pid>-<random>`` in ``where`` (the temporary folder by default),
    locked by this process, once the dead owners' folders of the same prefix are removed."""
    sweep(prefix, where)
    path = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=where)
    return Scratch(path, _lock(path))


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """:func:`make` as a context: the folder is removed when the block ends."""
    scratch = make(prefix)
    try:
        yield Path(scratch.path)
    finally:
        scratch.close()


def sweep(prefix: str, where: str | None = None, limit: int = SWEEP_LIMIT) -> int:
    """Remove up to ``limit`` folders ``<prefix><pid>-…`` of this user in ``where`` whose owner
    is gone (see the module's docstring); how many were removed."""
    removed = 0
    with contextlib.suppress(OSError), os.scandir(where or tempfile.gettempdir()) as entries:
        for entry in entries:
            if removed >= limit:
                break
            pid = _owner(entry.name, prefix)
            if pid is None or _alive(pid):
                continue
            with contextlib.suppress(OSError):
                if (
                    entry.is_dir(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_uid == os.getuid()
                    and _remove_if_free(entry.path)
                ):
                    removed += 1
    return removed


def _owner(name: str, prefix: str) -> int | None:
    """The owner's pid that a folder's name gives, or None: not a folder of this prefix."""
    if not name.startswith(prefix):
        return None
    digits, dash, _ = name[len(prefix) :].partition("-")
    pid = int(digits) if dash and digits.isdigit() and len(digits) <= 9 else 0
    return pid or None  # pid 0 (or none) is no process: os.kill(0) would signal our own group


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (signal 0 checks, sends nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _lock(path: str) -> int | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return None
    return descriptor


def _remove_if_free(path: str) -> bool:
    """Remove the folder if its lock can be taken (its owner is gone); keep it otherwise."""
    lock = _lock(path)
    if lock is None:  # held by a live owner, or no locks here: either way not ours to remove
        return False
    Scratch(path, lock).close()
    return True
