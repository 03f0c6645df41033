"""The measuring process the benchmarks share: a script started again in a fresh interpreter.

A benchmark that compares two versions of the package, or two engines, runs each in a process of
its own (its own imports, its own memory, its own CPU clock, pinned to one core) and speaks to it
in JSON, one object a line: the driver writes a request to its stdin and reads the answer from its
stdout. ``parse_speed.py``, ``table_engines.py``, ``jats_speed.py`` and ``writer_speed.py`` do
this; the driver's end of the pipe and the worker's set-up live here once.

- :class:`Measuring`: the driver's end (start, ask, read with a timeout, stop, kill), with the
  worker's stderr kept in a log file so that a worker that dies says why;
- :func:`pin_to_core`: the worker's pinning;
- :func:`protocol_channel`: the worker's stdout kept for the protocol alone (a parser or engine
  that prints would otherwise corrupt it).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any


class WorkerDied(RuntimeError):
    """The measuring process ended (or closed its pipe) before it answered."""


def pin_to_core(core: int) -> int | None:
    """Pin this process to ``core`` (or the first core it may use); the core, or None where
    the system cannot pin."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    target = core if core in allowed else allowed[0]
    os.sched_setaffinity(0, {target})
    return target


def protocol_channel() -> Callable[[dict[str, Any]], None]:
    """Keep file descriptor 1 for the protocol only, send what else is printed to stderr, and
    give the function that writes one message to the driver."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        proto.write(json.dumps(message) + "\n")
        proto.flush()

    return send


class Measuring:
    """The driver's end of one measuring process: ``command`` run in ``cwd`` with ``env``.

    Its stderr goes to ``log`` (appended; ``None`` leaves it on the driver's stderr). Requests
    and answers are JSON objects, one a line; a request given as a string is written as it is
    (the plain words some workers take, such as ``"round"``).
    """

    def __init__(self, name: str, command: list[str], *, env: dict[str, str], cwd: Path, log: Path | None = None) -> None:
        self.name = name
        self.log_path = log
        self._log: IO[str] | None = open(log, "a") if log else None  # noqa: SIM115 - closed in stop()/kill()
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True, bufsize=1, cwd=str(cwd), env=env
        )  # fmt: skip

    def read(self, timeout: float | None = None) -> dict[str, Any]:
        """The next answer; ``TimeoutError`` after ``timeout`` seconds without one, :class:`WorkerDied`
        when the process has ended."""
        assert self.proc.stdout is not None
        if timeout is not None:
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            if not ready:
                raise TimeoutError(f"{self.name}: no answer in {timeout:g} s")
        line = self.proc.stdout.readline()
        if not line:
            raise WorkerDied(self._why_ended())
        message: dict[str, Any] = json.loads(line)
        return message

    def request(self, message: dict[str, Any] | str, timeout: float | None = None) -> dict[str, Any]:
        """Send one request and read its answer."""
        self.send(message)
        return self.read(timeout)

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise WorkerDied(self._why_ended()) from exc

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the process wrote to its log, joined by ``|``."""
        if self._log is None or self.log_path is None:
            return ""
        try:
            self._log.flush()
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(text[-lines:])

    def stop(self, goodbye: dict[str, Any] | str, *, answered: bool = False) -> dict[str, Any]:
        """Say ``goodbye`` and wait for the process to end (killed after 30 s); the answer to the
        goodbye when ``answered`` (``{}`` if none came)."""
        bye: dict[str, Any] = {}
        if self.proc.poll() is None:
            try:
                self.send(goodbye)
                if answered:
                    bye = self.read(timeout=30)
            except (WorkerDied, TimeoutError, json.JSONDecodeError):
                pass
        self._end()
        return bye

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self._end()

    def _end(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self._log is not None and not self._log.closed:
            self._log.close()

    def _why_ended(self) -> str:
        try:  # its pipe closed: the process is ending, give it a moment to say how
            status: int | None = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            status = None
        tail = self.stderr_tail()
        return f"the {self.name} process ended" + (f" (exit status {status})" if status is not None else "") + (f": {tail}" if tail else "")
