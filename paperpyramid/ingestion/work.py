"""One input as it travels from discovery (:mod:`.items`) to a worker and back to the writer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from minio import Minio

from paperpyramid.errors import BadInput, ObjectGone, ServiceUnavailable
from paperpyramid.parsers.contract import PDF, Source
from paperpyramid.s3 import S3Object, make_client
from paperpyramid.settings import S3Settings

UNAVAILABLE = "unavailable: "  # prefix of failures that a later run retries


@dataclass(frozen=True, slots=True)
class WorkItem:
    """One input: a local file (hashed up front), a bucket object (fetched and hashed by the
    worker), an archive member (extracted to a temporary file), a PubMed record (held in
    ``data``), one refused before parsing (``error``), or the PMIDs a PubMed update file deletes
    (``deletes``: nothing to parse; the writer removes them, in file order)."""

    uri: str
    path: Path | None = None  # the file (or a LaTeX source's folder) to read
    obj: S3Object | None = None
    sha256: str | None = None
    kind: str = PDF  # the source kind: which parser reads it
    pdf: Path | None = None  # the PDF that gives an XML or LaTeX source its pages
    data: bytes | None = None  # a source held in memory
    temporary: bool = False  # extracted here: delete once stored
    error: str | None = None  # refused before parsing (an unsafe archive member, say)
    deletes: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.uri.rsplit("/", 1)[-1]

    def source(self, path: Path | None = None) -> Source:
        """The source to parse (``path``: where a bucket object was fetched to), named as its
        input was: an archive member's or a record's own name, not the temporary file's."""
        name = PurePosixPath(self.uri.rsplit("#", 1)[-1]).name
        return Source(self.kind, path or self.path, self.pdf, name, self.data)


def refusal(exc: ServiceUnavailable | BadInput) -> str:
    """Why one object could not be fetched, as logged: an outage, or an object deleted since
    the listing, is ``unavailable:`` (a later run that lists it tries again); a refusal of
    this object (its policy, its storage class) is final."""
    return f"{UNAVAILABLE}{exc}" if isinstance(exc, ServiceUnavailable | ObjectGone) else str(exc)


_clients: dict[str, Minio] = {}


def s3_client(settings: S3Settings) -> Minio:
    """One client (and connection pool) per process and endpoint."""
    key = settings.model_dump_json()
    if key not in _clients:
        _clients[key] = make_client(settings)
    return _clients[key]


__all__ = ["UNAVAILABLE", "WorkItem", "refusal", "s3_client"]
