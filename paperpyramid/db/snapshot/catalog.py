"""Opening a sharded snapshot: its catalog read, only the shards asked for fetched, one corpus made.

:func:`fetch_shards`, used by :meth:`paperpyramid.Corpus.open` for a ``*.catalog.json``, reads the
catalog (an http(s) URL, an ``s3://`` URI or a local file; kept in the cache, since a published
catalog is never replaced), picks the shards whose value is asked for, and fetches each as a
snapshot (:func:`.fetch.fetch_snapshot`: bounded, verified against its manifest, whose own
sha256 the catalog names, and cached). One shard is opened as it is; several are merged into one
corpus file in the cache (:func:`.merge.merge_shards`), kept for the next open of the same shards.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote, urlparse, urlunparse

from minio import Minio

from paperpyramid.db.schema import SCHEMA_VERSION
from paperpyramid.db.snapshot.fetch import (
    _MANIFEST_LIMIT,
    CachedSnapshot,
    _digest,
    _http_get,
    _local_get,
    _s3_get,
    _without_query,
    default_cache_dir,
    fetch_snapshot,
)
from paperpyramid.db.snapshot.manifest import CATALOG_FORMAT, CATALOG_SUFFIX, SnapshotCorrupt, SnapshotError, _local_path
from paperpyramid.db.snapshot.merge import merge_shards
from paperpyramid.db.snapshot.shards import NO_VALUE
from paperpyramid.s3 import make_client, parse_s3_uri
from paperpyramid.settings import S3Settings, Settings

log = logging.getLogger(__name__)


def fetch_shards(
    source: str | Path,
    shards: Iterable[str | int | None] | None = None,
    *,
    cache_dir: str | Path | None = None,
    settings: Settings | None = None,
    client: Minio | None = None,
) -> CachedSnapshot:
    """The corpus of the shards of the catalog at ``source`` whose values are in ``shards`` (all
    of them when None): years as ``2019`` or ``"2019"``, ``None`` (or ``"none"``) for the
    articles without a value. The shards' files are beside the catalog; only those asked for are
    fetched, each verified against its manifest and the catalog. ``manifest`` of the result is
    the catalog; ``path`` is the shard's cached copy, or the cached merge of several.

    Raises ``ValueError`` for a value no shard holds (naming those there are), and what
    :func:`.fetch.fetch_snapshot` raises: :class:`SnapshotCorrupt` for a shard or manifest that
    does not match, :class:`SnapshotError` for one that cannot be fetched or is not a corpus.
    """
    where = _catalog_origin(str(source), settings, client)
    cache = (Path(cache_dir) if cache_dir is not None else default_cache_dir()) / hashlib.sha256(where.folder.encode()).hexdigest()[:16]
    cache.mkdir(parents=True, exist_ok=True)
    catalog = _read_catalog(where, cache)
    chosen = _choose(catalog, shards, where.shown)
    fetched = [
        fetch_snapshot(
            where.beside(entry["files"]["snapshot"]),
            manifest_url=where.beside(entry["files"]["manifest"]),
            manifest_sha256=entry["manifest_sha256"],
            cache_dir=cache_dir if cache_dir is not None else default_cache_dir(),
            settings=settings,
            client=client,
        )
        for entry in chosen
    ]
    for entry, shard in zip(chosen, fetched, strict=True):
        if shard.manifest["database"]["sha256"] != entry["database"]["sha256"]:  # the manifest's digest was checked: cannot differ
            raise SnapshotCorrupt(f"the shard {entry['stem']} of {where.shown} is not the one its catalog names")
    reused = all(shard.reused for shard in fetched)
    if len(fetched) == 1:
        return CachedSnapshot(fetched[0].path, catalog, reused=reused)
    return _merged(cache, where.name, catalog, [shard.path for shard in fetched], [e["database"]["sha256"] for e in chosen], reused)


class _CatalogOrigin:
    """Where a catalog is: its name, its folder (the cache's key), how to name it, how to fetch
    it into a file, and the source of a file beside it."""

    def __init__(self, name: str, folder: str, shown: str, fetch: Callable[[Path], Path], beside: Callable[[str], str]) -> None:
        self.name = name
        self.folder = folder
        self.shown = shown
        self.fetch = fetch
        self.beside = beside


def _catalog_origin(source: str, settings: Settings | None, client: Minio | None) -> _CatalogOrigin:
    if source.startswith(("http://", "https://")):
        parsed = urlparse(source)
        if parsed.query:
            raise SnapshotError(
                f"{_without_query(source)}: a catalog opens from a URL without a query (a presigned one cannot reach its shards); "
                "serve the folder, or open its s3:// URI"
            )
        name = PurePosixPath(unquote(parsed.path)).name
        folder_path = parsed.path.rsplit("/", 1)[0]
        folder = urlunparse(parsed._replace(path=folder_path, fragment=""))
        return _CatalogOrigin(
            name,
            folder,
            source,
            lambda target: _http_get(source, target, "the snapshot catalog", "", _MANIFEST_LIMIT),
            lambda file: urlunparse(parsed._replace(path=f"{folder_path}/{quote(file)}", fragment="")),
        )
    if source.startswith("s3://"):
        location = parse_s3_uri(source)
        name = PurePosixPath(location.prefix).name
        folder = f"s3://{location.bucket}/{location.prefix[: -len(name)]}"

        @functools.cache
        def s3_client() -> tuple[Minio, S3Settings]:
            s3 = (settings or Settings()).s3
            return client or make_client(s3), s3

        return _CatalogOrigin(
            name,
            folder,
            source,
            lambda target: _s3_get(*s3_client(), location.bucket, location.prefix, target),
            lambda file: f"{folder}{file}",
        )
    path = _local_path(source)
    return _CatalogOrigin(
        path.name,
        path.resolve().parent.as_uri(),
        str(path),
        lambda target: _local_get(path, "snapshot catalog"),
        lambda file: str(path.parent / file),
    )


def _read_catalog(where: _CatalogOrigin, cache: Path) -> dict[str, Any]:
    """The catalog, from the cache when it was fetched before (a published catalog never changes)."""
    if not where.name.endswith(CATALOG_SUFFIX):
        raise SnapshotError(f"{where.shown} is not a snapshot catalog: expected a file named *{CATALOG_SUFFIX}")
    cached = cache / where.name
    if cached.is_file():
        return _parse_catalog(cached.read_bytes(), str(cached))
    with tempfile.TemporaryDirectory(prefix=".catalog-", dir=cache) as tmp:
        data = where.fetch(Path(tmp) / where.name).read_bytes()
        catalog = _parse_catalog(data, where.shown)
        staged = Path(tmp) / "verified.json"
        staged.write_bytes(data)
        os.replace(staged, cached)
    return catalog


def _parse_catalog(data: bytes, shown: str) -> dict[str, Any]:
    try:
        catalog = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SnapshotError(f"{shown} is not a snapshot catalog: {exc}") from exc
    entries = catalog.get("shards") if isinstance(catalog, dict) else None
    if not (isinstance(catalog, dict) and catalog.get("format") == CATALOG_FORMAT and isinstance(entries, list)) or not all(
        _is_entry(entry) for entry in entries or []
    ):
        raise SnapshotError(
            f"{shown} is not a paperpyramid snapshot catalog (no format {CATALOG_FORMAT!r} with its shards and their digests)"
        )
    if catalog.get("schema_version") != SCHEMA_VERSION:
        raise SnapshotError(
            f"{shown} holds a corpus at schema version {catalog.get('schema_version')}; this paperpyramid reads version {SCHEMA_VERSION}"
        )
    result: dict[str, Any] = catalog
    return result


def _is_entry(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    files, database = entry.get("files"), entry.get("database")
    return (
        (entry.get("value") is None or isinstance(entry.get("value"), str))
        and isinstance(entry.get("stem"), str)
        and isinstance(entry.get("manifest_sha256"), str)
        and isinstance(files, dict)
        and all(
            isinstance(files.get(part), str) and "/" not in files[part] and "\\" not in files[part] for part in ("snapshot", "manifest")
        )
        and isinstance(database, dict)
        and isinstance(database.get("sha256"), str)
    )


def _choose(catalog: dict[str, Any], shards: Iterable[str | int | None] | None, shown: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = catalog["shards"]
    if not entries:
        raise SnapshotError(f"{shown} lists no shard (the corpus it was made of had no articles)")
    if shards is None:
        return entries
    asked = {NO_VALUE if value is None else str(value) for value in shards}
    by_value = {NO_VALUE if entry["value"] is None else entry["value"]: entry for entry in entries}
    unknown = sorted(asked - set(by_value))
    if unknown or not asked:
        named = f"no shard of {shown} holds {', '.join(map(repr, unknown))}" if unknown else "no shard asked for"
        raise ValueError(f"{named}; its shards by {catalog.get('shard_by')}: {', '.join(by_value)}")
    return [entry for value, entry in by_value.items() if value in asked]


def _merged(cache: Path, catalog_name: str, catalog: dict[str, Any], parts: list[Path], digests: list[str], reused: bool) -> CachedSnapshot:
    """The cached merge of these shards (by their databases' digests), made when missing or altered."""
    key = hashlib.sha256("\n".join(digests).encode()).hexdigest()[:16]
    stem = catalog_name[: -len(CATALOG_SUFFIX)]
    target = cache / f"{stem}.merged-{key}.sqlite"
    record = cache / f"{stem}.merged-{key}.json"
    if target.is_file() and record.is_file():
        expected = json.loads(record.read_text(encoding="utf-8"))
        actual = _digest(target)
        if expected.get("shards") == digests and expected.get("database") == {"sha256": actual.sha256, "size": actual.size}:
            log.info("using the cached merge %s", target)
            return CachedSnapshot(target, catalog, reused=reused)
        log.warning("the cached merge %s does not match its record; merging the shards again", target)
    target.unlink(missing_ok=True)
    record.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix=".merge-", dir=cache) as tmp:
        staged = Path(tmp) / target.name
        merge_shards(parts, staged)
        digest = _digest(staged)
        os.replace(staged, target)
        record.write_text(json.dumps({"shards": digests, "database": {"sha256": digest.sha256, "size": digest.size}}), encoding="utf-8")
    log.info("merged %d shards into %s", len(parts), target)
    return CachedSnapshot(target, catalog, reused=False)


def fetch_published(
    source: str | Path,
    *,
    shards: Iterable[str | int | None] | None = None,
    manifest_url: str | None = None,
    cache_dir: str | Path | None = None,
    settings: Settings | None = None,
    client: Minio | None = None,
) -> CachedSnapshot:
    """A published snapshot, verified and cached: a sharded one's catalog (``*.catalog.json``,
    :func:`fetch_shards` with ``shards``) or one snapshot (:func:`.fetch.fetch_snapshot`)."""
    if _without_query(str(source)).endswith(CATALOG_SUFFIX):
        if manifest_url is not None:
            raise ValueError("manifest_url is for one snapshot; a catalog names its shards' manifests itself")
        return fetch_shards(source, shards, cache_dir=cache_dir, settings=settings, client=client)
    if shards is not None:
        raise ValueError(
            f"shards are chosen from a sharded snapshot's catalog (*{CATALOG_SUFFIX}), and {_without_query(str(source))} is not one"
        )
    return fetch_snapshot(source, manifest_url=manifest_url, cache_dir=cache_dir, settings=settings, client=client)
