"""A JATS XML and its PDF met in one tar stream: one article, its structure from the XML and its
pages from the PDF, as in a folder (:mod:`.jats_sources`).

A tar is read once, front to back, so a member cannot wait for a partner that may never come:
each XML and PDF waits among the last :data:`WINDOW` such members, and is paired when a member of
the same stem (``a.nxml`` and ``a.pdf``, any folders) or of the XML's PMCID (``PMC4709619.pdf``)
arrives in that time. Tars made from a folder of pairs keep partners side by side; a member that
leaves the window unpaired is read alone. At most :data:`WINDOW` extracted members wait on disk.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from paperpyramid.ingestion.jats_sources import looks_like_jats, pmcid_of
from paperpyramid.ingestion.sources import file_sha256
from paperpyramid.ingestion.work import WorkItem
from paperpyramid.parsers.contract import JATS, JATS_PDF, PDF

#: members (XML or PDF) that wait for a partner
WINDOW = 16


@dataclass(slots=True)
class _Waiting:
    uri: str
    path: Path
    kind: str
    keys: tuple[str, ...]


class TarPairs:
    """The PDF and JATS members of one tar, each yielded as an item once paired or once it leaves
    the window (:meth:`add`), the rest at the end (:meth:`flush`)."""

    def __init__(self, window: int = WINDOW) -> None:
        self.window = window
        self._waiting: list[_Waiting] = []

    def add(self, uri: str, path: Path, kind: str) -> Iterator[WorkItem]:
        """Take a member extracted to ``path`` (a PDF, or a JATS candidate: an ``.xml`` whose
        root is no JATS article is deleted, it is not an input)."""
        if kind == JATS and not looks_like_jats(path):
            path.unlink(missing_ok=True)  # some other XML (a file list, say)
            return
        stem = _stem(uri).lower()
        keys = (stem, pmcid.lower()) if kind == JATS and (pmcid := pmcid_of(path)) else (stem,)
        partner = next((other for other in self._waiting if other.kind != kind and _pair(other, keys)), None)
        if partner is not None:
            self._waiting.remove(partner)
            xml, pdf = (partner, path) if partner.kind == JATS else (_Waiting(uri, path, kind, keys), partner.path)
            yield WorkItem(xml.uri, path=xml.path, pdf=pdf, kind=JATS_PDF, sha256=file_sha256(xml.path), temporary=True)
            return
        self._waiting.append(_Waiting(uri, path, kind, keys))
        if len(self._waiting) > self.window:
            yield _alone(self._waiting.pop(0))

    def flush(self) -> Iterator[WorkItem]:
        """The members still waiting, each alone."""
        while self._waiting:
            yield _alone(self._waiting.pop(0))


def _pair(waiting: _Waiting, keys: tuple[str, ...]) -> bool:
    """Whether a waiting member pairs with a new one of the other kind, whose ``keys`` are given:
    a PDF's stem (its one key) is the XML's stem or PMCID."""
    return waiting.keys[0] in keys if waiting.kind == PDF else keys[0] in waiting.keys


def _alone(waiting: _Waiting) -> WorkItem:
    return WorkItem(waiting.uri, path=waiting.path, kind=waiting.kind, sha256=file_sha256(waiting.path), temporary=True)


def _stem(uri: str) -> str:
    name = PurePosixPath(uri.rsplit("#", 1)[-1]).name
    return name[: name.rfind(".")] if "." in name else name


__all__ = ["WINDOW", "TarPairs"]
