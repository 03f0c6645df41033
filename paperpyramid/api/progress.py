"""The progress bar the write side shows on stderr when asked (``progress=True``); silent
otherwise, so that a library call prints nothing a caller did not ask for."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class Bar(Protocol):
    """What a write operation tells its progress bar."""

    def total(self, count: int | None) -> None:
        """How many items there are (None: not known in advance)."""

    def advance(self, count: int = 1, **fields: Any) -> None:
        """``count`` more items are done; ``fields`` fill the bar's text (``done=3``, ...)."""


class _Silent:
    def total(self, count: int | None) -> None:
        return None

    def advance(self, count: int = 1, **fields: Any) -> None:
        return None


class _Rich:
    def __init__(self, progress: Any, task: Any) -> None:
        self._progress = progress
        self._task = task

    def total(self, count: int | None) -> None:
        self._progress.update(self._task, total=count)

    def advance(self, count: int = 1, **fields: Any) -> None:
        self._progress.update(self._task, advance=count, **fields)


@contextmanager
def progress_bar(shown: bool, label: str, text: str = "", **fields: Any) -> Iterator[Bar]:
    """A bar named ``label`` on stderr with ``text`` (a format string over ``fields``, e.g.
    ``"{task.fields[done]} done"``) when ``shown``; else one that shows nothing."""
    if not shown:
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    columns = [TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn()]
    if text:
        columns.append(TextColumn(text))
    with Progress(*columns, TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True)) as progress:
        yield _Rich(progress, progress.add_task(label, total=None, **fields))
