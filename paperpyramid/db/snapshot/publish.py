"""Taking a snapshot: a consistent copy of a corpus, compressed and published with its manifest.

:func:`take_snapshot` copies the corpus while the ingest may still be writing to it
(:func:`copy_database`), cuts the copy down to some licences when asked
(:func:`~paperpyramid.db.snapshot.licences.keep_licences`), describes it (schema version,
:func:`row_counts`, articles per licence, parsers, provenance), compresses it (zstd on every
core by default, or gzip), and publishes the three files to a folder (renamed into place) or under
an ``s3://`` prefix (uploaded, with presigned URLs), the manifest last so that once it is there
the files it describes are complete. With ``shard_by`` it publishes one such snapshot per value
of an article column (:mod:`.shards`) and a catalog listing them, last.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any, Protocol, cast

import zstandard
from minio import Minio
from minio.error import S3Error

from paperpyramid._version import __version__
from paperpyramid.db.datasette import datasette_metadata
from paperpyramid.db.row_copy import user_tables
from paperpyramid.db.snapshot.licences import check_licences, keep_licences, licence_counts
from paperpyramid.db.snapshot.manifest import (
    _CHUNK,
    CATALOG_SUFFIX,
    DEFAULT_COMPRESSION,
    MANIFEST_FORMAT,
    MANIFEST_SUFFIX,
    MANIFEST_VERSION,
    Snapshot,
    SnapshotError,
    _Digest,
    _local_path,
    _names,
    check_compression,
)
from paperpyramid.db.snapshot.shards import catalog_entry, make_catalog, shard_column, split_copy
from paperpyramid.db.sqlite import connect as connect_corpus
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.errors import ConfigurationError
from paperpyramid.s3 import make_client, parse_s3_uri, with_retries
from paperpyramid.settings import S3Settings, Settings

log = logging.getLogger(__name__)

#: S3 caps a presigned URL's life at seven days.
MAX_EXPIRES = timedelta(days=7)


def take_snapshot(
    db_path: str | Path,
    destination: str | Path,
    settings: Settings | None = None,
    *,
    client: Minio | None = None,
    expires: timedelta = MAX_EXPIRES,
    licences: Iterable[str] | None = None,
    compression: str = DEFAULT_COMPRESSION,
    shard_by: str | None = None,
) -> Snapshot:
    """Copy the corpus at ``db_path`` consistently (ingestion may go on writing), compress it
    and publish it with its manifest and Datasette metadata to ``destination``: a folder
    (created if need be) or ``s3://BUCKET/PREFIX/`` (uploaded with ``client``, by default one
    made from ``settings.s3``; the URLs returned are presigned for ``expires``, at most 7 days).

    ``licences`` (keys such as ``cc-by``, ``cc0``: :data:`paperpyramid.licences.KEYS`) publishes
    only the articles under those licences: the copy loses every other article with all its rows,
    vectors and pyramid, and its indexes are rebuilt from what is left. The manifest counts the
    published articles per licence (``licences``; ``unknown`` where none is known) and names the
    licences asked for (``licence_filter``); :attr:`Snapshot.licence_warning` says when some
    published articles have no known licence or a non-commercial one.

    ``compression`` is ``zstd`` (multi-threaded, the default) or ``gzip``; :meth:`paperpyramid.Corpus.open`
    reads either, telling them apart by their first bytes.

    ``shard_by`` publishes the corpus in parts, one snapshot per value of an article column:
    ``year`` (of ``date_published``), ``source`` (the parser: ``jats``, ``pubmed``, ``embedded``, ...)
    or any column of ``articles``. Each shard is a corpus with its own manifest and sha256,
    named ``<stem>.<column>-<value>``; the catalog ``<stem>.catalog.json``, published last, lists
    them with the value each holds and their digests, and is what the returned snapshot names
    (``shards`` holds each shard's). ``Corpus.open(catalog_url, shards=[...])`` fetches only the
    shards asked for.

    Raises ``ValueError`` for a licence that is not a key, an unknown compression or a column
    ``articles`` does not have (before anything is copied), :class:`SnapshotError` when ``db_path`` is not a corpus or the upload is refused,
    :class:`~paperpyramid.errors.ServiceUnavailable` when the object store cannot be reached.
    """
    db_path = Path(db_path)
    kept = None if licences is None else check_licences(licences)
    check_compression(compression)
    if not db_path.is_file():
        raise FileNotFoundError(f"no corpus at {db_path}")
    conn = connect_corpus(db_path, read_only=True, timeout=30)
    try:
        _require_corpus(conn, db_path)  # before the destination is made
        if shard_by is not None:
            shard_column(conn, shard_by)
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
    with tempfile.TemporaryDirectory(prefix=".paperpyramid-snapshot-", dir=where.staging) as tmp:
        staging = Path(tmp)
        copy = staging / f"{stem}.sqlite"
        copy_database(db_path, copy)
        if kept is not None:
            removed = keep_licences(copy, kept)
            log.info("snapshot of %s: %d articles left out (licence not %s)", db_path, removed, ", ".join(kept))
        if shard_by is None:
            snapshot = _publish_one(copy, stem, created, kept, compression, staging, where)
        else:
            snapshot = _publish_shards(copy, stem, created, kept, compression, shard_by, staging, where)
    log.info("snapshot of %s published as %s", db_path, snapshot.uri)
    return snapshot


def _publish_one(
    copy: Path, stem: str, created: datetime, kept: Sequence[str] | None, compression: str, staging: Path, where: _Destination
) -> Snapshot:
    """Describe, compress and publish the corpus copy at ``copy`` (removed once compressed) as ``stem``."""
    names = _names(stem, compression)
    manifest = _describe(copy, names, created)
    manifest["licence_filter"] = None if kept is None else list(kept)
    database, compressed = _compress(copy, staging / names["snapshot"], compression, mtime=int(created.timestamp()))
    copy.unlink()
    manifest["database"] = {"name": f"{stem}.sqlite", "sha256": database.sha256, "size": database.size}
    manifest["compressed"] = {"name": names["snapshot"], "compression": compression, "sha256": compressed.sha256, "size": compressed.size}
    _write_json(staging / names["metadata"], datasette_metadata(stem))
    _write_json(staging / names["manifest"], manifest)
    return where.publish(staging, names, manifest)


def _publish_shards(
    copy: Path,
    stem: str,
    created: datetime,
    kept: Sequence[str] | None,
    compression: str,
    shard_by: str,
    staging: Path,
    where: _Destination,
) -> Snapshot:
    """One snapshot per value of ``shard_by`` in the copy, then the catalog naming them (last)."""
    whole = _describe(copy, _names(stem, compression), created)
    shards: list[Snapshot] = []
    entries: list[dict[str, Any]] = []
    for shard in split_copy(copy, shard_by, stem, staging):
        published = _publish_one(shard.path, shard.stem, created, kept, compression, staging, where)
        shards.append(published)
        entries.append(catalog_entry(shard, published.manifest, _json_bytes(published.manifest)))
    copy.unlink(missing_ok=True)  # split_copy consumes the copy: it is gone, or it is the one shard
    catalog = make_catalog(whole, shard_by, compression, entries)
    catalog["licence_filter"] = None if kept is None else list(kept)
    name = f"{stem}{CATALOG_SUFFIX}"
    _write_json(staging / name, catalog)
    uri, url, path = where.put(staging, name)
    return Snapshot(
        manifest=catalog,
        uri=uri,
        url=url,
        manifest_uri=uri,
        manifest_url=url,
        metadata_uri="",
        path=path,
        manifest_path=path,
        shards=tuple(shards),
    )


def _fresh_name(where: _Destination) -> tuple[datetime, str]:
    """The creation time and the name for a new snapshot: one not yet used at ``where``."""
    for _ in range(3):
        created = datetime.now(UTC).replace(microsecond=0)
        stem = f"corpus-{created:%Y%m%dT%H%M%SZ}"
        if not where.exists(f"{stem}{MANIFEST_SUFFIX}") and not where.exists(f"{stem}{CATALOG_SUFFIX}"):
            return created, stem
        # names are to the second and a published snapshot is never replaced (caches trust
        # the name): wait for the next second
        time.sleep(1.0 - datetime.now(UTC).microsecond / 1e6 + 0.01)
    raise SnapshotError(f"{where.shown} already holds a snapshot named {stem}; is the clock going backwards?")


#: Publishing order: the manifest last, so that once it is there the files it describes are complete.
_PUBLISH_ORDER = ("snapshot", "metadata", "manifest")


class _Destination(Protocol):
    shown: str
    staging: Path

    def exists(self, name: str) -> bool: ...

    def publish(self, staging: Path, names: dict[str, str], manifest: dict[str, Any]) -> Snapshot: ...

    def put(self, staging: Path, name: str) -> tuple[str, str, Path | None]:
        """Publish the one staged file ``name``: its URI, its URL and (in a folder) its path."""
        ...


class _Folder:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.shown = str(folder)
        # staged in the folder itself, so finished files are renamed into place, never seen half-written
        self.staging = folder

    def exists(self, name: str) -> bool:
        return (self.folder / name).exists()

    def put(self, staging: Path, name: str) -> tuple[str, str, Path | None]:
        os.replace(staging / name, self.folder / name)
        path = (self.folder / name).resolve()
        return str(path), path.as_uri(), path

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

    def put(self, staging: Path, name: str) -> tuple[str, str, Path | None]:
        key = f"{self.prefix}{name}"
        _upload(self.client, self.s3, self.bucket, key, staging / name)
        return f"s3://{self.bucket}/{key}", _presign(self.client, self.s3, self.bucket, key, self.expires), None

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


def row_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Rows in every ordinary table (see :func:`user_tables`)."""
    return {name: int(conn.execute(f"SELECT count(*) FROM {_quote(name)}").fetchone()[0]) for name in user_tables(conn)}


def _describe(copy: Path, names: dict[str, str], created: datetime) -> dict[str, Any]:
    conn = connect_corpus(copy, read_only=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        counts = row_counts(conn)
        licences = licence_counts(conn)
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
        "licences": licences,
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


#: zstd's level: at 2 a corpus file packs 5% smaller than with gzip -6, publishing 6x faster
#: (docs/benchmarks.md); 3 packs 2% smaller again, 1.3x slower
ZSTD_LEVEL = 2


def _compress(source: Path, target: Path, compression: str, *, mtime: int) -> tuple[_Digest, _Digest]:
    """Compress ``source`` into ``target`` (``zstd`` on every core, or ``gzip``) in one streaming
    pass; the digests of both."""
    raw = hashlib.sha256()
    raw_size = 0
    with source.open("rb") as inp, target.open("wb") as out:
        hashing = _HashingWriter(out)
        packed: zstandard.ZstdCompressionWriter | gzip.GzipFile
        if compression == "zstd":
            # threads=-1: one worker per core; the frame records the size, so a reader can check it
            compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL, threads=-1, write_checksum=True)
            packed = compressor.stream_writer(cast(IO[bytes], hashing), size=source.stat().st_size, closefd=False)
        else:
            packed = gzip.GzipFile(filename=source.name, mode="wb", fileobj=hashing, compresslevel=6, mtime=mtime)
        with packed:
            while chunk := inp.read(_CHUNK):
                raw.update(chunk)
                raw_size += len(chunk)
                packed.write(chunk)
    return _Digest(raw.hexdigest(), raw_size), _Digest(hashing.sha256.hexdigest(), hashing.size)


def _upload(client: Minio, s3: S3Settings, bucket: str, key: str, path: Path) -> None:
    uri = f"s3://{bucket}/{key}"
    content_type = "application/gzip" if key.endswith(".gz") else "application/zstd" if key.endswith(".zst") else "application/json"
    try:
        with_retries(functools.partial(client.fput_object, bucket, key, str(path), content_type=content_type), s3, f"uploading {uri}")
    except S3Error as exc:
        raise SnapshotError(f"cannot upload {uri}: {exc.code}: {exc.message}") from exc


def _presign(client: Minio, s3: S3Settings, bucket: str, key: str, expires: timedelta) -> str:
    return with_retries(functools.partial(client.presigned_get_object, bucket, key, expires=expires), s3, f"presigning s3://{bucket}/{key}")


def _json_bytes(value: object) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _write_json(path: Path, value: object) -> None:
    path.write_bytes(_json_bytes(value))


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
