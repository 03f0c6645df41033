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

#: the snapshot file's suffix per compression; :data:`DEFAULT_COMPRESSION` unless asked otherwise
SNAPSHOT_SUFFIXES = {"zstd": ".sqlite.zst", "gzip": ".sqlite.gz"}
COMPRESSIONS = tuple(SNAPSHOT_SUFFIXES)
#: zstd: 6-9x gzip's speed, on every core, for a file the same size (docs/benchmarks.md)
DEFAULT_COMPRESSION = "zstd"
#: the gzip suffix, which snapshots had before zstd
SNAPSHOT_SUFFIX = SNAPSHOT_SUFFIXES["gzip"]
#: what a compressed file starts with; a fetched file is read by these, never by its name
MAGIC = {"gzip": b"\x1f\x8b", "zstd": b"\x28\xb5\x2f\xfd"}
#: the fragment key of :attr:`Snapshot.open_url` that carries the manifest's URL
MANIFEST_FRAGMENT = "manifest"
MANIFEST_SUFFIX = ".manifest.json"
METADATA_SUFFIX = ".metadata.json"
#: ``manifest["format"]``, so a reader can tell a snapshot manifest from any other JSON.
MANIFEST_FORMAT = "paperpyramid-snapshot"
MANIFEST_VERSION = 1
#: a sharded snapshot's catalog: the shards, each a snapshot, and the values each holds
CATALOG_SUFFIX = ".catalog.json"
CATALOG_FORMAT = "paperpyramid-snapshot-catalog"
CATALOG_VERSION = 1

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

    A sharded snapshot is named by its catalog: ``uri``, ``url`` and the manifest's fields name
    the catalog, ``manifest`` is the catalog, and ``shards`` holds each shard's snapshot.
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
    shards: tuple[Snapshot, ...] = ()

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
        if self.shards:
            return self.uri  # a catalog names its shards beside it: s3:// (credentials), not presigned URLs
        return f"{self.url}#{MANIFEST_FRAGMENT}={quote(self.manifest_url, safe='')}"


@dataclass(frozen=True, slots=True)
class _Digest:
    sha256: str
    size: int


def check_compression(compression: str) -> str:
    """``compression`` if it is one a snapshot can have; ``ValueError`` naming them otherwise."""
    if compression not in SNAPSHOT_SUFFIXES:
        raise ValueError(f"unknown compression {compression!r}; choose among: {', '.join(COMPRESSIONS)}")
    return compression


def compression_of(head: bytes) -> str | None:
    """The compression a file starting with ``head`` has (its magic bytes), or None."""
    return next((name for name, magic in MAGIC.items() if head.startswith(magic)), None)


def snapshot_stem(name: str) -> str | None:
    """The stem of a snapshot file's name (``corpus-X`` of ``corpus-X.sqlite.zst``), None for another name."""
    suffix = next((suffix for suffix in SNAPSHOT_SUFFIXES.values() if name.endswith(suffix)), None)
    return None if suffix is None else name[: -len(suffix)]


def _names(stem: str, compression: str = DEFAULT_COMPRESSION) -> dict[str, str]:
    return {
        "snapshot": f"{stem}{SNAPSHOT_SUFFIXES[compression]}",
        "manifest": f"{stem}{MANIFEST_SUFFIX}",
        "metadata": f"{stem}{METADATA_SUFFIX}",
    }


def _manifest_name(snapshot_name: str) -> str:
    return f"{snapshot_stem(snapshot_name) or snapshot_name}{MANIFEST_SUFFIX}"


def _local_path(text: str) -> Path:
    return Path(url2pathname(urlparse(text).path)) if text.startswith("file://") else Path(text)
