"""Taking a snapshot: a consistent copy of a corpus, compressed and published with its manifest.

:func:`take_snapshot` copies the corpus while the ingest may still be writing to it
(:func:`copy_database`), cuts the copy down to some licences when asked
(:func:`~paperpyramid.db.snapshot.licences.keep_licences`), describes it (schema version,
:func:`row_counts`, articles per licence, parsers, provenance), gzips it, and publishes the three files to a folder (renamed into place) or under
an ``s3://`` prefix (uploaded, with presigned URLs), the manifest last so that once it is there
the files it describes are complete.
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
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any, Protocol

from minio import Minio
from minio.error import S3Error

from paperpyramid import __version__
from paperpyramid.db.datasette import datasette_metadata
from paperpyramid.db.snapshot.licences import check_licences, keep_licences, licence_counts
from paperpyramid.db.snapshot.manifest import (
    _CHUNK,
    MANIFEST_FORMAT,
    MANIFEST_VERSION,
    SNAPSHOT_SUFFIX,
    Snapshot,
    SnapshotError,
    _Digest,
    _local_path,
    _names,
)
from paperpyramid.db.sqlite import connect as connect_corpus
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.errors import ConfigurationError
from paperpyramid.s3 import make_client, parse_s3_uri, with_retries
from paperpyramid.settings import S3Settings, Settings

log = logging.getLogger(__name__)

#: S3 caps a presigned URL's life at seven days.
MAX_EXPIRES = timedelta(days=7)

_FTS_SHADOW_SUFFIXES = ("data", "idx", "content", "docsize", "config")


def take_snapshot(
    db_path: str | Path,
    destination: str | Path,
    settings: Settings | None = None,
    *,
    client: Minio | None = None,
    expires: timedelta = MAX_EXPIRES,
    licences: Iterable[str] | None = None,
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

    Raises ``ValueError`` for a licence that is not a key (before anything is copied), :class:`SnapshotError` when ``db_path`` is not a corpus or the upload is refused,
    :class:`~paperpyramid.errors.ServiceUnavailable` when the object store cannot be reached.
    """
    db_path = Path(db_path)
    kept = None if licences is None else check_licences(licences)
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
        if kept is not None:
            removed = keep_licences(copy, kept)
            log.info("snapshot of %s: %d articles left out (licence not %s)", db_path, removed, ", ".join(kept))
        manifest = _describe(copy, names, created)
        manifest["licence_filter"] = None if kept is None else list(kept)
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


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
