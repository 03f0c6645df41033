"""Fetching a snapshot back: download it, check it against its manifest, keep it in a cache.

:func:`fetch_snapshot`, used by :meth:`paperpyramid.Corpus.open`, takes an http(s) URL, an
``s3://`` URI or a local ``.sqlite.zst`` or ``.sqlite.gz``; nothing in what it fetches is trusted
before it is checked (download and decompression bounded by the manifest's sizes, digests
verified, then :func:`check_snapshot_schema` before anything reads the database). The compression
(zstd or gzip) is read from the file's first bytes, not its name. :func:`default_cache_dir` says
where verified copies are kept.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import logging
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlparse, urlunparse

import zstandard
from minio import Minio
from minio.error import S3Error

from paperpyramid._version import __version__
from paperpyramid.db.schema import SCHEMA_VERSION
from paperpyramid.db.snapshot.manifest import (
    _CHUNK,
    MANIFEST_FORMAT,
    MANIFEST_FRAGMENT,
    MANIFEST_SUFFIX,
    SNAPSHOT_SUFFIXES,
    SnapshotCorrupt,
    SnapshotError,
    _Digest,
    _local_path,
    _manifest_name,
    compression_of,
    snapshot_stem,
)
from paperpyramid.db.snapshot_schema import schema_problem, size_problem
from paperpyramid.db.sqlite import connect as connect_corpus
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.env import read_env
from paperpyramid.errors import NotACorpus, ServiceUnavailable
from paperpyramid.s3 import make_client, parse_s3_uri, with_retries
from paperpyramid.settings import S3Settings, Settings, SnapshotSettings

log = logging.getLogger(__name__)

_HTTP_TIMEOUT = 60.0
#: a manifest is a few kilobytes; a server that sends more is not serving one
_MANIFEST_LIMIT = 16 << 20
#: room left on the cache's disk beyond the snapshot itself
_SPACE_HEADROOM = 64 << 20


@dataclass(frozen=True, slots=True)
class CachedSnapshot:
    """A verified, decompressed snapshot in the cache; ``reused`` when nothing was fetched."""

    path: Path
    manifest: dict[str, Any]
    reused: bool


def default_cache_dir() -> Path:
    """Where fetched snapshots are kept: ``$PAPERPYRAMID_CORPUS__CACHE_DIR``, else ``~/.cache/paperpyramid/snapshots``."""
    configured = read_env("PAPERPYRAMID_CORPUS__CACHE_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "paperpyramid" / "snapshots"


def fetch_snapshot(
    source: str | Path,
    *,
    manifest_url: str | None = None,
    cache_dir: str | Path | None = None,
    settings: Settings | None = None,
    client: Minio | None = None,
    schema_version: int | None = SCHEMA_VERSION,
    manifest_sha256: str | None = None,
) -> CachedSnapshot:
    """The snapshot at ``source``, decompressed into the cache and verified against its manifest.

    ``source`` is an http(s) URL (a presigned one too), an ``s3://bucket/key`` URI (read with
    ``client``, by default one made from ``settings.s3``) or a local ``.sqlite.zst`` or ``.sqlite.gz``
    path or ``file://`` URL. The manifest is read from ``manifest_url`` if given, else from beside the
    snapshot (same name, ``.manifest.json`` for ``.sqlite.zst``; a presigned URL's query is not
    carried over, so a presigned snapshot needs its ``manifest_url``).

    The cache (``cache_dir``, else :func:`default_cache_dir`) is keyed by the snapshot's file
    name, within a subfolder per source folder (URL or ``s3://`` prefix, without a presigned
    URL's query). A cached copy is checked against its manifest and reused without any request; one
    that no longer matches is removed and refused. A snapshot whose manifest names another
    schema version than ``schema_version`` is refused before its database is downloaded, and one
    holding a value longer than ``settings.snapshot`` allows once it is (and on every reuse).
    ``manifest_sha256`` (a catalog's, for a shard) must then be the manifest's own digest, checked
    before the database is downloaded and on every reuse.

    Raises :class:`SnapshotCorrupt` when a file does not match its manifest,
    :class:`SnapshotError` when it cannot be found or read, and
    :class:`~paperpyramid.errors.ServiceUnavailable` when the server cannot be reached.
    """
    limits = (settings or Settings()).snapshot
    origin = _origin(str(source), manifest_url, settings, client)
    stem = snapshot_stem(origin.name)
    if stem is None:
        raise SnapshotError(
            f"{origin.shown} is not a snapshot: expected a file named {' or '.join(f'*{s}' for s in SNAPSHOT_SUFFIXES.values())}"
        )
    # one folder per place snapshots come from: names are unique only within one destination
    # (two corpora snapshotted in the same second share a name)
    cache = (Path(cache_dir) if cache_dir is not None else default_cache_dir()) / hashlib.sha256(origin.folder.encode()).hexdigest()[:16]
    cache.mkdir(parents=True, exist_ok=True)
    entry = _CacheEntry(cache / f"{stem}.sqlite", cache / f"{stem}{MANIFEST_SUFFIX}")
    if entry.database.is_file() and entry.manifest.is_file():
        return _reuse(entry, origin, limits, manifest_sha256)
    return _download(entry, origin, limits, schema_version, manifest_sha256)


@dataclass(frozen=True, slots=True)
class _CacheEntry:
    """Where one snapshot lives in the cache: its database and, beside it, its manifest."""

    database: Path
    manifest: Path

    def remove(self) -> None:
        self.database.unlink(missing_ok=True)
        self.manifest.unlink(missing_ok=True)


def _reuse(entry: _CacheEntry, origin: _Origin, limits: SnapshotSettings, manifest_sha256: str | None) -> CachedSnapshot:
    """The cached copy, checked against its manifest (and the manifest against its catalog's
    digest) without a request; one that does not match is removed and refused."""
    cached_bytes = entry.manifest.read_bytes()
    if manifest_sha256 is not None and hashlib.sha256(cached_bytes).hexdigest() != manifest_sha256:
        entry.remove()
        raise SnapshotCorrupt(f"the cached manifest {entry.manifest} is not the one its catalog names; it has been removed")
    manifest = _parse_manifest(cached_bytes, str(entry.manifest))
    actual = _digest(entry.database)
    expected = manifest["database"]
    if (actual.sha256, actual.size) != (expected["sha256"], expected["size"]):
        entry.remove()
        raise SnapshotCorrupt(
            f"the cached copy {entry.database} does not match its manifest (sha256 {actual.sha256}, expected {expected['sha256']}); "
            "it has been removed, open the snapshot again to fetch it afresh"
        )
    try:
        # checked on every reuse too: the limits may be lower than when the copy was fetched
        check_snapshot_schema(entry.database, origin.shown, manifest["schema_version"], limits)
    except SnapshotError:
        entry.remove()
        raise
    log.info("using the cached snapshot %s", entry.database)
    return CachedSnapshot(entry.database, manifest, reused=True)


def _download(
    entry: _CacheEntry, origin: _Origin, limits: SnapshotSettings, schema_version: int | None, manifest_sha256: str | None
) -> CachedSnapshot:
    """Fetch the manifest, check it (its digest against the catalog's, its schema version),
    then the compressed database; verify both digests and the schema in a staging folder
    before the entry is put in the cache."""
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=entry.database.parent) as tmp:
        staging = Path(tmp)
        manifest_bytes = origin.fetch_manifest(staging / entry.manifest.name).read_bytes()
        if manifest_sha256 is not None and (found := hashlib.sha256(manifest_bytes).hexdigest()) != manifest_sha256:
            raise SnapshotCorrupt(
                f"{origin.manifest_shown} does not match its catalog: sha256 {found}, expected {manifest_sha256}; refusing the shard"
            )
        manifest = _parse_manifest(manifest_bytes, origin.manifest_shown)
        if schema_version is not None and manifest["schema_version"] != schema_version:
            raise SnapshotError(
                f"{origin.shown} holds a corpus at schema version {manifest['schema_version']}; this paperpyramid reads version {schema_version}"
            )
        size, packed_size = manifest["database"]["size"], manifest["compressed"]["size"]
        _require_space(entry.database.parent, size + (packed_size if origin.downloads else 0), origin.shown)
        compressed = origin.fetch_snapshot(staging / origin.name, packed_size)
        _verify(_digest(compressed), manifest["compressed"], f"{origin.shown} (compressed)")
        unpacked = staging / entry.database.name
        digest = _decompress(compressed, unpacked, size, origin.shown)
        _verify(digest, manifest["database"], f"{origin.shown} (decompressed)")
        check_snapshot_schema(unpacked, origin.shown, manifest["schema_version"], limits)
        staged_manifest = staging / f"verified{MANIFEST_SUFFIX}"
        staged_manifest.write_bytes(manifest_bytes)
        # the database first: a cache entry counts only once its manifest is there too
        os.replace(unpacked, entry.database)
        os.replace(staged_manifest, entry.manifest)
    log.info("fetched snapshot %s into %s", origin.shown, entry.database)
    return CachedSnapshot(entry.database, manifest, reused=False)


@dataclass(frozen=True, slots=True)
class _Origin:
    """Where a snapshot comes from: its file name, how to name it in messages, how to fetch
    it (at most so many bytes) and its manifest into a given file (returning where the file
    now is), and whether fetching it ``downloads`` a copy (a local file is read in place)."""

    name: str
    folder: str
    shown: str
    manifest_shown: str
    fetch_snapshot: Callable[[Path, int], Path]
    fetch_manifest: Callable[[Path], Path]
    downloads: bool = True


def _origin(source: str, manifest_url: str | None, settings: Settings | None, client: Minio | None) -> _Origin:
    if source.startswith(("http://", "https://")):
        parsed = urlparse(source)
        carried = parse_qs(parsed.fragment).get(MANIFEST_FRAGMENT)  # Snapshot.open_url
        if carried and manifest_url is None:
            manifest_url = carried[0]
        source = urlunparse(parsed._replace(fragment=""))
        parsed = urlparse(source)
        name = PurePosixPath(unquote(parsed.path)).name
        shown = _without_query(source)
        if manifest_url is None:
            beside = f"{parsed.path.rsplit('/', 1)[0]}/{quote(_manifest_name(name))}"
            manifest_url = urlunparse(parsed._replace(path=beside, query="", fragment=""))
            hint = "; a presigned snapshot URL needs its manifest's own URL: pass manifest_url"
        else:
            hint = ""
        manifest_source = manifest_url
        return _Origin(
            name=name,
            folder=urlunparse(parsed._replace(path=parsed.path.rsplit("/", 1)[0], query="", fragment="")),
            shown=shown,
            manifest_shown=_without_query(manifest_source),
            fetch_snapshot=lambda target, limit: _http_get(source, target, "the snapshot", "", limit),
            fetch_manifest=lambda target: _http_get(manifest_source, target, "the snapshot's manifest", hint, _MANIFEST_LIMIT),
        )
    if source.startswith("s3://"):
        location = parse_s3_uri(source)
        name = PurePosixPath(location.prefix).name
        manifest_uri = manifest_url or f"s3://{location.bucket}/{location.prefix[: -len(name)]}{_manifest_name(name)}"
        manifest_location = parse_s3_uri(manifest_uri)

        @functools.cache
        def s3_client() -> tuple[Minio, S3Settings]:
            # made on first use: a cached snapshot needs no connection and no credentials
            s3 = (settings or Settings()).s3
            return client or make_client(s3), s3

        return _Origin(
            name=name,
            folder=f"s3://{location.bucket}/{location.prefix[: -len(name)]}",
            shown=source,
            manifest_shown=manifest_uri,
            fetch_snapshot=lambda target, limit: _s3_get(*s3_client(), location.bucket, location.prefix, target),
            fetch_manifest=lambda target: _s3_get(*s3_client(), manifest_location.bucket, manifest_location.prefix, target),
        )
    path = _local_path(source)
    local_manifest = _local_path(manifest_url) if manifest_url is not None else path.with_name(_manifest_name(path.name))
    return _Origin(
        name=path.name,
        folder=path.resolve().parent.as_uri(),
        shown=str(path),
        manifest_shown=str(local_manifest),
        fetch_snapshot=lambda target, limit: _local_get(path, "snapshot"),
        fetch_manifest=lambda target: _local_get(local_manifest, "snapshot manifest"),
        downloads=False,
    )


def _http_get(url: str, target: Path, what: str, hint: str, limit: int) -> Path:
    """Download ``url`` into ``target``, refusing it once it passes ``limit`` bytes."""
    shown = _without_query(url)
    request = urllib.request.Request(url, headers={"User-Agent": f"paperpyramid/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=_HTTP_TIMEOUT) as response, target.open("wb") as out:
            size = 0
            while chunk := response.read(min(_CHUNK, limit - size + 1)):
                size += len(chunk)
                if size > limit:
                    raise SnapshotCorrupt(f"{shown} sends more than the {limit} bytes expected of {what}; refusing it")
                out.write(chunk)
    except urllib.error.HTTPError as exc:
        if exc.code >= 500 or exc.code == 429:
            raise ServiceUnavailable(f"{shown} answered HTTP {exc.code} {exc.reason} while fetching {what}") from exc
        raise SnapshotError(f"cannot fetch {what} from {shown}: HTTP {exc.code} {exc.reason}{hint}") from exc
    except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise ServiceUnavailable(f"cannot reach {shown} to fetch {what}: {reason}") from exc
    return target


def _s3_get(client: Minio, s3: S3Settings, bucket: str, key: str, target: Path) -> Path:
    uri = f"s3://{bucket}/{key}"
    try:
        with_retries(lambda: client.fget_object(bucket, key, str(target)), s3, f"downloading {uri}")
    except S3Error as exc:
        if exc.code in ("NoSuchKey", "NoSuchBucket"):
            raise SnapshotError(f"no such object: {uri}") from exc
        raise SnapshotError(f"cannot download {uri}: {exc.code}: {exc.message}") from exc
    return target


def _local_get(path: Path, what: str) -> Path:
    # read in place: a local snapshot is decompressed straight into the cache
    if not path.is_file():
        raise SnapshotError(f"no {what} at {path}")
    return path


def _parse_manifest(data: bytes, shown: str) -> dict[str, Any]:
    try:
        manifest = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SnapshotError(f"{shown} is not a snapshot manifest: {exc}") from exc
    required = (
        isinstance(manifest, dict)
        and manifest.get("format") == MANIFEST_FORMAT
        and all(
            isinstance(manifest.get(part), dict) and isinstance(manifest[part].get("sha256"), str) and _is_count(manifest[part].get("size"))
            for part in ("database", "compressed")
        )
        and _is_count(manifest.get("schema_version"))
    )
    if not required:
        raise SnapshotError(
            f"{shown} is not a paperpyramid snapshot manifest (no format {MANIFEST_FORMAT!r} with database and compressed checksums)"
        )
    result: dict[str, Any] = manifest
    return result


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _require_space(folder: Path, needed: int, shown: str) -> None:
    free = shutil.disk_usage(folder).free
    if needed + _SPACE_HEADROOM > free:
        raise SnapshotError(f"not enough free space in {folder} for {shown}: its manifest says it needs {needed} bytes, {free} are free")


def _verify(actual: _Digest, expected: dict[str, Any], shown: str) -> None:
    if actual.size != expected["size"] or actual.sha256 != expected["sha256"]:
        raise SnapshotCorrupt(
            f"{shown} does not match its manifest: sha256 {actual.sha256} and {actual.size} bytes, "
            f"expected {expected['sha256']} and {expected['size']} bytes; refusing to open it"
        )


def _digest(path: Path) -> _Digest:
    sha = hashlib.sha256()
    size = 0
    with path.open("rb") as inp:
        while chunk := inp.read(_CHUNK):
            sha.update(chunk)
            size += len(chunk)
    return _Digest(sha.hexdigest(), size)


#: the most memory a zstd frame may ask of a reader (its window): 128 MiB, zstd's own default limit
_ZSTD_MAX_WINDOW = 1 << 27


def _decompress(source: Path, target: Path, limit: int, shown: str) -> _Digest:
    """Inflate ``source`` (zstd or gzip, told by its first bytes) into ``target``, writing at
    most ``limit`` bytes: a compression bomb is refused once its output passes the size its
    manifest states, not when the disk is full."""
    with source.open("rb") as packed:
        compression = compression_of(packed.read(4))
    if compression is None:
        raise SnapshotCorrupt(f"{shown} is neither a zstd nor a gzip file (its first bytes say neither)")
    sha = hashlib.sha256()
    size = 0
    try:
        with _reader(source, compression) as inp, target.open("wb") as out:
            while chunk := inp.read(min(_CHUNK, limit - size + 1)):
                size += len(chunk)
                if size > limit:
                    raise SnapshotCorrupt(
                        f"{shown} inflates to more than the {limit} bytes its manifest states for the database; "
                        "refusing it (stopped there, and nothing of it is kept)"
                    )
                sha.update(chunk)
                out.write(chunk)
    except (gzip.BadGzipFile, EOFError, zlib.error, zstandard.ZstdError) as exc:
        raise SnapshotCorrupt(f"{shown} is not a readable {compression} file: {exc}") from exc
    return _Digest(sha.hexdigest(), size)


def _reader(source: Path, compression: str) -> Any:
    """A binary file object reading ``source`` decompressed."""
    if compression == "gzip":
        return gzip.open(source, "rb")
    decompressor = zstandard.ZstdDecompressor(max_window_size=_ZSTD_MAX_WINDOW)
    return decompressor.stream_reader(source.open("rb"), read_across_frames=True, closefd=True)


def check_snapshot_schema(path: Path, shown: str, schema_version: int, limits: SnapshotSettings | None = None) -> None:
    """Raise :class:`SnapshotError` ("not a paperpyramid snapshot: ...") unless the database at
    ``path`` has the corpus schema at ``schema_version``: every corpus table a table (not a
    view) with its columns, no views, no computed columns, no triggers or virtual tables that a
    corpus does not have; and no text or blob longer than ``limits`` allow (default:
    :class:`~paperpyramid.settings.SnapshotSettings`). Read untrusted, so nothing in the file
    runs while it is checked."""
    limits = limits or SnapshotSettings()
    try:
        conn = connect_corpus(path, read_only=True, immutable=True, untrusted=True)
    except NotACorpus as exc:
        raise SnapshotError(f"{shown} is not a paperpyramid snapshot: {exc.__cause__ or exc}") from exc
    try:
        problem = schema_problem(conn, schema_version) or size_problem(conn, limits.max_text_bytes, limits.max_blob_bytes)
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"{shown} is not a paperpyramid snapshot: {exc}") from exc
    finally:
        conn.close()
    if problem is not None:
        raise SnapshotError(f"{shown} is not a paperpyramid snapshot: {problem}")


def _without_query(url: str) -> str:
    # a presigned URL's query is a credential; keep it out of messages and logs
    return urlunparse(urlparse(url)._replace(query="", fragment=""))
