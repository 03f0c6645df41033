"""What a snapshot is, for both ends: the names of its three files, its manifest's format, the
:class:`Snapshot` a publisher hands out and the errors either end raises.

:mod:`~paperpyramid.db.snapshot.publish` writes these files and :mod:`~paperpyramid.db.snapshot.fetch`
reads them back; anything both must agree on lives here, so the two cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse
from urllib.request import url2pathname

from paperpyramid.db.snapshot.licences import licence_warning
from paperpyramid.errors import PaperPyramidError

SNAPSHOT_SUFFIX = ".sqlite.gz"
#: the fragment key of :attr:`Snapshot.open_url` that carries the manifest's URL
MANIFEST_FRAGMENT = "manifest"
MANIFEST_SUFFIX = ".manifest.json"
METADATA_SUFFIX = ".metadata.json"
#: ``manifest["format"]``, so a reader can tell a snapshot manifest from any other JSON.
MANIFEST_FORMAT = "paperpyramid-snapshot"
MANIFEST_VERSION = 1

_CHUNK = 1 << 20


class SnapshotError(PaperPyramidError):
    """A snapshot cannot be taken, found or fetched (no such file, access denied, not a snapshot)."""


class SnapshotCorrupt(SnapshotError, ValueError):
    """A snapshot does not match its manifest: a damaged download, a tampered or stale file."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A published snapshot. ``uri`` and ``url`` name the compressed database; pass
    ``open_url`` (or ``url`` with ``manifest_url``, or ``uri``) to :meth:`paperpyramid.Corpus.open`.

    For S3, ``uri`` is ``s3://bucket/key`` and the URLs are presigned GET URLs; for a folder,
    ``uri`` is the file's path, the URLs are ``file://`` URLs and the ``*_path`` fields are set.
    """

    manifest: dict[str, Any]
    uri: str
    url: str
    manifest_uri: str
    manifest_url: str
    metadata_uri: str
    path: Path | None = None
    manifest_path: Path | None = None
    metadata_path: Path | None = None

    @property
    def licence_warning(self) -> str | None:
        """One line when the snapshot publishes articles whose licence is unknown or
        non-commercial (from the manifest's ``licences``); None when all are open."""
        return licence_warning(self.manifest.get("licences") or {})

    @property
    def open_url(self) -> str:
        """The one URL that opens the snapshot anywhere: ``url`` with the manifest's own
        (presigned) URL in its fragment, which a client never sends to the server, so both
        signatures stay valid and the download is still checked against the manifest."""
        if self.path is not None:
            return self.url  # a file: its manifest lies beside it
        return f"{self.url}#{MANIFEST_FRAGMENT}={quote(self.manifest_url, safe='')}"


@dataclass(frozen=True, slots=True)
class _Digest:
    sha256: str
    size: int


def _names(stem: str) -> dict[str, str]:
    return {"snapshot": f"{stem}{SNAPSHOT_SUFFIX}", "manifest": f"{stem}{MANIFEST_SUFFIX}", "metadata": f"{stem}{METADATA_SUFFIX}"}


def _manifest_name(snapshot_name: str) -> str:
    stem = snapshot_name[: -len(SNAPSHOT_SUFFIX)] if snapshot_name.endswith(SNAPSHOT_SUFFIX) else snapshot_name
    return f"{stem}{MANIFEST_SUFFIX}"


def _local_path(text: str) -> Path:
    return Path(url2pathname(urlparse(text).path)) if text.startswith("file://") else Path(text)
