"""Downloadable snapshots of a corpus, and fetching them back.

:func:`take_snapshot` copies a corpus while the ingest may still be writing to it, and
publishes three files, to a folder or under an ``s3://`` prefix::

    corpus-20240501T120000Z.sqlite.gz        the database, gzip-compressed
    corpus-20240501T120000Z.manifest.json    schema version, row counts, sha256 and sizes, provenance
    corpus-20240501T120000Z.metadata.json    Datasette metadata (table descriptions, canned queries)

The copy is ``VACUUM INTO`` from a separate read-only connection: one read transaction,
so under WAL the writer keeps committing and the copy holds exactly the articles committed
when it began, compacted, in rollback-journal mode (it opens read-only anywhere).

:func:`fetch_snapshot` is the other end, used by :meth:`paperpyramid.Corpus.open`: it
downloads a snapshot (http(s) URL, ``s3://`` URI or local ``.sqlite.gz``) into a cache
folder, checks it against its manifest and reuses a cached copy that still matches.

A snapshot may come from anywhere, so nothing in it is trusted before it is checked: the
download stops at the compressed size its manifest states and the decompression at the
database size (after checking that the disk has room for it); the database must then have
the corpus schema (tables that are tables, no views, no triggers or virtual tables that
paperpyramid does not make) before anything reads it, no value in it may be longer than
``settings.snapshot`` allows (a 300 MB passage would cost a reader gigabytes), and it is read
with every statement's time bounded (:func:`paperpyramid.db.sqlite.connect` with ``untrusted``).
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
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import IO, Any, Protocol
from urllib.parse import parse_qs, quote, unquote, urlparse, urlunparse
from urllib.request import url2pathname

from minio import Minio
from minio.error import S3Error

from paperpyramid import __version__
from paperpyramid.db.datasette import datasette_metadata
from paperpyramid.db.schema import SCHEMA_VERSION
from paperpyramid.db.snapshot_schema import schema_problem, size_problem
from paperpyramid.db.sqlite import connect as connect_corpus
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.errors import ConfigurationError, NotACorpus, PaperPyramidError, ServiceUnavailable
from paperpyramid.s3 import make_client, parse_s3_uri, with_retries
from paperpyramid.settings import S3Settings, Settings, SnapshotSettings

log = logging.getLogger(__name__)

SNAPSHOT_SUFFIX = ".sqlite.gz"
#: the fragment key of :attr:`Snapshot.open_url` that carries the manifest's URL
MANIFEST_FRAGMENT = "manifest"
MANIFEST_SUFFIX = ".manifest.json"
METADATA_SUFFIX = ".metadata.json"
#: ``manifest["format"]``, so a reader can tell a snapshot manifest from any other JSON.
MANIFEST_FORMAT = "paperpyramid-snapshot"
MANIFEST_VERSION = 1
#: S3 caps a presigned URL's life at seven days.
MAX_EXPIRES = timedelta(days=7)

_CHUNK = 1 << 20
_FTS_SHADOW_SUFFIXES = ("data", "idx", "content", "docsize", "config")
_HTTP_TIMEOUT = 60.0
#: a manifest is a few kilobytes; a server that sends more is not serving one
_MANIFEST_LIMIT = 16 << 20
#: room left on the cache's disk beyond the snapshot itself
_SPACE_HEADROOM = 64 << 20


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
    def open_url(self) -> str:
        """The one URL that opens the snapshot anywhere: ``url`` with the manifest's own
        (presigned) URL in its fragment, which a client never sends to the server, so both
        signatures stay valid and the download is still checked against the manifest."""
        if self.path is not None:
            return self.url  # a file: its manifest lies beside it
        return f"{self.url}#{MANIFEST_FRAGMENT}={quote(self.manifest_url, safe='')}"


@dataclass(frozen=True, slots=True)
class CachedSnapshot:
    """A verified, decompressed snapshot in the cache; ``reused`` when nothing was fetched."""

    path: Path
    manifest: dict[str, Any]
    reused: bool


@dataclass(frozen=True, slots=True)
class _Digest:
    sha256: str
    size: int


# taking a snapshot


def take_snapshot(
    db_path: str | Path,
    destination: str | Path,
    settings: Settings | None = None,
    *,
    client: Minio | None = None,
    expires: timedelta = MAX_EXPIRES,
) -> Snapshot:
    """Copy the corpus at ``db_path`` consistently (ingestion may go on writing), compress it
    and publish it with its manifest and Datasette metadata to ``destination``: a folder
    (created if need be) or ``s3://BUCKET/PREFIX/`` (uploaded with ``client``, by default one
    made from ``settings.s3``; the URLs returned are presigned for ``expires``, at most 7 days).

    Raises :class:`SnapshotError` when ``db_path`` is not a corpus or the upload is refused,
    :class:`~paperpyramid.errors.ServiceUnavailable` when the object store cannot be reached.
    """
    db_path = Path(db_path)
    if not db_path.is_file():
        raise FileNotFoundError(f"no corpus at {db_path}")
    conn = connect_corpus(db_path, read_only=True, timeout=30)
    try:
        _require_corpus(conn, db_path)  # before the destination is made
    finally:
        conn.close()
    target = str(destination)
    where: _Destination
    if target.startswith("s3://"):
        if not timedelta(seconds=1) <= expires <= MAX_EXPIRES:
            raise ValueError(f"expires must be between 1 second and 7 days (S3's limit for presigned URLs), not {expires}")
        s3 = (settings or Settings()).s3
        # staged beside the corpus, whose disk has room for a copy of it (/tmp may not)
        where = _Bucket(target, s3, client or make_client(s3), expires, staging=db_path.parent)
    elif "://" in target and not target.startswith("file://"):
        raise ConfigurationError(f"unsupported snapshot destination {target!r}: give a folder or s3://BUCKET/PREFIX/")
    else:
        where = _Folder(_local_path(target))

    created, stem = _fresh_name(where)
    names = _names(stem)
    with tempfile.TemporaryDirectory(prefix=".paperpyramid-snapshot-", dir=where.staging) as tmp:
        staging = Path(tmp)
        copy = staging / f"{stem}.sqlite"
        copy_database(db_path, copy)
        manifest = _describe(copy, names, created)
        database, compressed = _compress(copy, staging / names["snapshot"], mtime=int(created.timestamp()))
        copy.unlink()
        manifest["database"] = {"name": copy.name, "sha256": database.sha256, "size": database.size}
        manifest["compressed"] = {"name": names["snapshot"], "compression": "gzip", "sha256": compressed.sha256, "size": compressed.size}
        _write_json(staging / names["metadata"], datasette_metadata(stem))
        _write_json(staging / names["manifest"], manifest)
        snapshot = where.publish(staging, names, manifest)
    log.info("snapshot of %s published as %s", db_path, snapshot.uri)
    return snapshot


def _fresh_name(where: _Destination) -> tuple[datetime, str]:
    """The creation time and the name for a new snapshot: one not yet used at ``where``."""
    for _ in range(3):
        created = datetime.now(UTC).replace(microsecond=0)
        stem = f"corpus-{created:%Y%m%dT%H%M%SZ}"
        if not where.exists(f"{stem}{SNAPSHOT_SUFFIX}"):
            return created, stem
        # names are to the second and a published snapshot is never replaced (caches trust
        # the name): wait for the next second
        time.sleep(1.0 - datetime.now(UTC).microsecond / 1e6 + 0.01)
    raise SnapshotError(f"{where.shown} already holds a snapshot named {stem}{SNAPSHOT_SUFFIX}; is the clock going backwards?")


#: Publishing order: the manifest last, so that once it is there the files it describes are complete.
_PUBLISH_ORDER = ("snapshot", "metadata", "manifest")


class _Destination(Protocol):
    shown: str
    staging: Path

    def exists(self, name: str) -> bool: ...

    def publish(self, staging: Path, names: dict[str, str], manifest: dict[str, Any]) -> Snapshot: ...


class _Folder:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.shown = str(folder)
        # staged in the folder itself, so finished files are renamed into place, never seen half-written
        self.staging = folder

    def exists(self, name: str) -> bool:
        return (self.folder / name).exists()

    def publish(self, staging: Path, names: dict[str, str], manifest: dict[str, Any]) -> Snapshot:
        for part in _PUBLISH_ORDER:
            os.replace(staging / names[part], self.folder / names[part])
        paths = {part: (self.folder / name).resolve() for part, name in names.items()}
        return Snapshot(
            manifest=manifest,
            uri=str(paths["snapshot"]),
            url=paths["snapshot"].as_uri(),
            manifest_uri=str(paths["manifest"]),
            manifest_url=paths["manifest"].as_uri(),
            metadata_uri=str(paths["metadata"]),
            path=paths["snapshot"],
            manifest_path=paths["manifest"],
            metadata_path=paths["metadata"],
        )


class _Bucket:
    def __init__(self, destination: str, s3: S3Settings, client: Minio, expires: timedelta, *, staging: Path) -> None:
        location = parse_s3_uri(destination)
        self.bucket = location.bucket
        # s3://bucket/corpus and s3://bucket/corpus/ both mean the folder "corpus/"
        self.prefix = location.prefix if not location.prefix or location.prefix.endswith("/") else f"{location.prefix}/"
        self.shown = f"s3://{self.bucket}/{self.prefix}"
        self.s3 = s3
        self.client = client
        self.expires = expires
        self.staging = staging

    def exists(self, name: str) -> bool:
        uri = f"{self.shown}{name}"
        try:
            with_retries(functools.partial(self.client.stat_object, self.bucket, f"{self.prefix}{name}"), self.s3, f"looking for {uri}")
        except S3Error as exc:
            if exc.code in ("NoSuchKey", "NotFound"):
                return False
            raise SnapshotError(f"cannot publish to {self.shown}: {exc.code}: {exc.message}") from exc
        return True

    def publish(self, staging: Path, names: dict[str, str], manifest: dict[str, Any]) -> Snapshot:
        keys = {part: f"{self.prefix}{name}" for part, name in names.items()}
        for part in _PUBLISH_ORDER:
            _upload(self.client, self.s3, self.bucket, keys[part], staging / names[part])
        return Snapshot(
            manifest=manifest,
            uri=f"s3://{self.bucket}/{keys['snapshot']}",
            url=_presign(self.client, self.s3, self.bucket, keys["snapshot"], self.expires),
            manifest_uri=f"s3://{self.bucket}/{keys['manifest']}",
            manifest_url=_presign(self.client, self.s3, self.bucket, keys["manifest"], self.expires),
            metadata_uri=f"s3://{self.bucket}/{keys['metadata']}",
        )


def copy_database(db_path: Path, target: Path) -> None:
    """A consistent, compacted copy of the corpus at ``db_path`` in the new file ``target``,
    taken while a writer may be committing (one read transaction; WAL lets the writer go on)."""
    # sqlite-vec loaded: VACUUM re-creates the vec0 tables in the copy
    source = connect_corpus(db_path, read_only=True, timeout=30)
    try:
        _require_corpus(source, db_path)
        source.execute("VACUUM INTO ?", [str(target)])
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"cannot copy {db_path}: {exc}") from exc
    finally:
        source.close()
    copy = sqlite3.connect(target)
    try:
        # rollback-journal mode, so a reader needs no -wal/-shm files beside it
        copy.execute("PRAGMA journal_mode = DELETE")
    finally:
        copy.close()


def _require_corpus(conn: sqlite3.Connection, db_path: Path) -> None:
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"{db_path} is not a paperpyramid corpus: {exc}") from exc
    if version == 0:
        raise SnapshotError(f"{db_path} is not a paperpyramid corpus (schema version 0)")


def user_tables(conn: sqlite3.Connection) -> list[str]:
    """The ordinary tables, sorted: no ``sqlite_*`` tables, virtual (FTS) tables or their shadow tables."""
    rows = conn.execute(r"SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'").fetchall()
    virtual = {name for name, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL TABLE")}
    shadow = {f"{name}_{suffix}" for name in virtual for suffix in _FTS_SHADOW_SUFFIXES}
    # sqlite-vec's shadow tables: vec_contexts_1_chunks, _rowids, _info, _vector_chunks00, ...
    vec_shadow = {name for name, _ in rows for table in virtual if table.startswith("vec_") and name.startswith(f"{table}_")}
    return sorted(name for name, _ in rows if name not in virtual and name not in shadow and name not in vec_shadow)


def row_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Rows in every ordinary table (see :func:`user_tables`)."""
    return {name: int(conn.execute(f"SELECT count(*) FROM {_quote(name)}").fetchone()[0]) for name in user_tables(conn)}


def _describe(copy: Path, names: dict[str, str], created: datetime) -> dict[str, Any]:
    conn = connect_corpus(copy, read_only=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        counts = row_counts(conn)
        parsers = [row[0] for row in conn.execute("SELECT DISTINCT parser FROM articles WHERE parser IS NOT NULL ORDER BY parser")]
        provenance: dict[str, list[str]] = {}
        for key, value in conn.execute(
            "SELECT DISTINCT part.key, part.value FROM articles, json_each(articles.provenance) AS part ORDER BY 1, 2"
        ):
            provenance.setdefault(str(key), []).append(str(value))
    finally:
        conn.close()
    return {
        "format": MANIFEST_FORMAT,
        "manifest_version": MANIFEST_VERSION,
        "created_at": created.isoformat().replace("+00:00", "Z"),
        "paperpyramid_version": __version__,
        "sqlite_version": sqlite3.sqlite_version,
        "schema_version": version,
        "files": dict(names),
        "row_counts": counts,
        "parsers": parsers,
        "provenance": provenance,
    }


class _HashingWriter:
    """A write-only file that hashes and counts what passes through it."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self.sha256 = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes, /) -> int:
        self.sha256.update(data)
        self.size += len(data)
        return self._out.write(data)

    def flush(self) -> None:
        self._out.flush()


def _compress(source: Path, target: Path, *, mtime: int) -> tuple[_Digest, _Digest]:
    """gzip ``source`` into ``target`` in one streaming pass; the digests of both."""
    raw = hashlib.sha256()
    raw_size = 0
    with source.open("rb") as inp, target.open("wb") as out:
        hashing = _HashingWriter(out)
        with gzip.GzipFile(filename=source.name, mode="wb", fileobj=hashing, compresslevel=6, mtime=mtime) as packed:
            while chunk := inp.read(_CHUNK):
                raw.update(chunk)
                raw_size += len(chunk)
                packed.write(chunk)
    return _Digest(raw.hexdigest(), raw_size), _Digest(hashing.sha256.hexdigest(), hashing.size)


def _upload(client: Minio, s3: S3Settings, bucket: str, key: str, path: Path) -> None:
    uri = f"s3://{bucket}/{key}"
    content_type = "application/gzip" if key.endswith(".gz") else "application/json"
    try:
        with_retries(functools.partial(client.fput_object, bucket, key, str(path), content_type=content_type), s3, f"uploading {uri}")
    except S3Error as exc:
        raise SnapshotError(f"cannot upload {uri}: {exc.code}: {exc.message}") from exc


def _presign(client: Minio, s3: S3Settings, bucket: str, key: str, expires: timedelta) -> str:
    return with_retries(functools.partial(client.presigned_get_object, bucket, key, expires=expires), s3, f"presigning s3://{bucket}/{key}")


# fetching a snapshot


def default_cache_dir() -> Path:
    """Where fetched snapshots are kept: ``$PAPERPYRAMID_CACHE_DIR``, else ``~/.cache/paperpyramid/snapshots``."""
    configured = os.environ.get("PAPERPYRAMID_CACHE_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "paperpyramid" / "snapshots"


def fetch_snapshot(
    source: str | Path,
    *,
    manifest_url: str | None = None,
    cache_dir: str | Path | None = None,
    settings: Settings | None = None,
    client: Minio | None = None,
    schema_version: int | None = SCHEMA_VERSION,
) -> CachedSnapshot:
    """The snapshot at ``source``, decompressed into the cache and verified against its manifest.

    ``source`` is an http(s) URL (a presigned one too), an ``s3://bucket/key`` URI (read with
    ``client``, by default one made from ``settings.s3``) or a local ``.sqlite.gz`` path or
    ``file://`` URL. The manifest is read from ``manifest_url`` if given, else from beside the
    snapshot (same name, ``.manifest.json`` for ``.sqlite.gz``; a presigned URL's query is not
    carried over, so a presigned snapshot needs its ``manifest_url``).

    The cache (``cache_dir``, else :func:`default_cache_dir`) is keyed by the snapshot's file
    name, within a subfolder per source folder (URL or ``s3://`` prefix, without a presigned
    URL's query). A cached copy is checked against its manifest and reused without any request; one
    that no longer matches is removed and refused. A snapshot whose manifest names another
    schema version than ``schema_version`` is refused before its database is downloaded, and one
    holding a value longer than ``settings.snapshot`` allows once it is (and on every reuse).

    Raises :class:`SnapshotCorrupt` when a file does not match its manifest,
    :class:`SnapshotError` when it cannot be found or read, and
    :class:`~paperpyramid.errors.ServiceUnavailable` when the server cannot be reached.
    """
    text = str(source)
    limits = (settings or Settings()).snapshot
    origin = _origin(text, manifest_url, settings, client)
    if not origin.name.endswith(SNAPSHOT_SUFFIX):
        raise SnapshotError(f"{origin.shown} is not a snapshot: expected a file named *{SNAPSHOT_SUFFIX}")
    stem = origin.name[: -len(SNAPSHOT_SUFFIX)]
    # one folder per place snapshots come from: names are unique only within one destination
    # (two corpora snapshotted in the same second share a name)
    cache = (Path(cache_dir) if cache_dir is not None else default_cache_dir()) / hashlib.sha256(origin.folder.encode()).hexdigest()[:16]
    cache.mkdir(parents=True, exist_ok=True)
    database = cache / f"{stem}.sqlite"
    manifest_file = cache / f"{stem}{MANIFEST_SUFFIX}"

    if database.is_file() and manifest_file.is_file():
        manifest = _parse_manifest(manifest_file.read_bytes(), str(manifest_file))
        actual = _digest(database)
        expected = manifest["database"]
        if (actual.sha256, actual.size) != (expected["sha256"], expected["size"]):
            database.unlink(missing_ok=True)
            manifest_file.unlink(missing_ok=True)
            raise SnapshotCorrupt(
                f"the cached copy {database} does not match its manifest (sha256 {actual.sha256}, expected {expected['sha256']}); "
                "it has been removed, open the snapshot again to fetch it afresh"
            )
        try:
            check_snapshot_schema(database, origin.shown, manifest["schema_version"], limits)  # cached before this check existed
        except SnapshotError:
            database.unlink(missing_ok=True)
            manifest_file.unlink(missing_ok=True)
            raise
        log.info("using the cached snapshot %s", database)
        return CachedSnapshot(database, manifest, reused=True)

    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=cache) as tmp:
        staging = Path(tmp)
        manifest_bytes = origin.fetch_manifest(staging / manifest_file.name).read_bytes()
        manifest = _parse_manifest(manifest_bytes, origin.manifest_shown)
        if schema_version is not None and manifest["schema_version"] != schema_version:
            raise SnapshotError(
                f"{origin.shown} holds a corpus at schema version {manifest['schema_version']}; this paperpyramid reads version {schema_version}"
            )
        size, packed_size = manifest["database"]["size"], manifest["compressed"]["size"]
        _require_space(cache, size + (packed_size if origin.downloads else 0), origin.shown)
        compressed = origin.fetch_snapshot(staging / origin.name, packed_size)
        _verify(_digest(compressed), manifest["compressed"], f"{origin.shown} (compressed)")
        unpacked = staging / database.name
        try:
            digest = _decompress(compressed, unpacked, size, origin.shown)
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise SnapshotCorrupt(f"{origin.shown} is not a readable gzip file: {exc}") from exc
        _verify(digest, manifest["database"], f"{origin.shown} (decompressed)")
        check_snapshot_schema(unpacked, origin.shown, manifest["schema_version"], limits)
        staged_manifest = staging / f"verified{MANIFEST_SUFFIX}"
        staged_manifest.write_bytes(manifest_bytes)
        # the database first: a cache entry counts only once its manifest is there too
        os.replace(unpacked, database)
        os.replace(staged_manifest, manifest_file)
    log.info("fetched snapshot %s into %s", origin.shown, database)
    return CachedSnapshot(database, manifest, reused=False)


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


def _decompress(source: Path, target: Path, limit: int, shown: str) -> _Digest:
    """Inflate ``source`` into ``target``, writing at most ``limit`` bytes: a gzip bomb is
    refused once its output passes the size its manifest states, not when the disk is full."""
    sha = hashlib.sha256()
    size = 0
    with gzip.open(source, "rb") as inp, target.open("wb") as out:
        while chunk := inp.read(min(_CHUNK, limit - size + 1)):
            size += len(chunk)
            if size > limit:
                raise SnapshotCorrupt(
                    f"{shown} inflates to more than the {limit} bytes its manifest states for the database; "
                    "refusing it (stopped there, and nothing of it is kept)"
                )
            sha.update(chunk)
            out.write(chunk)
    return _Digest(sha.hexdigest(), size)


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


def _names(stem: str) -> dict[str, str]:
    return {"snapshot": f"{stem}{SNAPSHOT_SUFFIX}", "manifest": f"{stem}{MANIFEST_SUFFIX}", "metadata": f"{stem}{METADATA_SUFFIX}"}


def _manifest_name(snapshot_name: str) -> str:
    stem = snapshot_name[: -len(SNAPSHOT_SUFFIX)] if snapshot_name.endswith(SNAPSHOT_SUFFIX) else snapshot_name
    return f"{stem}{MANIFEST_SUFFIX}"


def _local_path(text: str) -> Path:
    return Path(url2pathname(urlparse(text).path)) if text.startswith("file://") else Path(text)


def _without_query(url: str) -> str:
    # a presigned URL's query is a credential; keep it out of messages and logs
    return urlunparse(urlparse(url)._replace(query="", fragment=""))


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


__all__ = [
    "MANIFEST_FORMAT",
    "MANIFEST_SUFFIX",
    "METADATA_SUFFIX",
    "SNAPSHOT_SUFFIX",
    "CachedSnapshot",
    "Snapshot",
    "SnapshotCorrupt",
    "SnapshotError",
    "check_snapshot_schema",
    "copy_database",
    "default_cache_dir",
    "fetch_snapshot",
    "row_counts",
    "take_snapshot",
    "user_tables",
]
