"""Downloadable snapshots of a corpus, and fetching them back.

:func:`take_snapshot` copies a corpus while the ingest may still be writing to it, and
publishes three files, to a folder or under an ``s3://`` prefix::

    corpus-20240501T120000Z.sqlite.zst       the database, zstd-compressed (or .sqlite.gz, gzip)
    corpus-20240501T120000Z.manifest.json    schema version, row counts, sha256 and sizes, provenance
    corpus-20240501T120000Z.metadata.json    Datasette metadata (table descriptions, canned queries)

The copy is ``VACUUM INTO`` from a separate read-only connection: one read transaction,
so under WAL the writer keeps committing and the copy holds exactly the articles committed
when it began, compacted, in rollback-journal mode (it opens read-only anywhere).

:func:`fetch_snapshot` is the other end, used by :meth:`paperpyramid.Corpus.open`: it
downloads a snapshot (http(s) URL, ``s3://`` URI or local ``.sqlite.zst`` or ``.sqlite.gz``)
into a cache folder, checks it against its manifest and reuses a cached copy that still matches.
zstd or gzip is told by the file's first bytes.

``take_snapshot(..., shard_by="year")`` publishes the corpus in parts (:mod:`.shards`): one
snapshot per year (or source, or value of any article column), each with its manifest, and a
catalog ``corpus-...catalog.json`` listing them with their values and digests;
:func:`fetch_shards` (``Corpus.open(catalog_url, shards=[2019, 2020])``) fetches only the shards
asked for and merges them into one corpus in the cache (:mod:`.merge`).

A snapshot may come from anywhere, so nothing in it is trusted before it is checked: the
download stops at the compressed size its manifest states and the decompression at the
database size (after checking that the disk has room for it); the database must then have
the corpus schema (tables that are tables, no views, no triggers or virtual tables that
paperpyramid does not make) before anything reads it, no value in it may be longer than
``settings.snapshot`` allows (a 300 MB passage would cost a reader gigabytes), and it is read
with every statement's time bounded (:func:`paperpyramid.db.sqlite.connect` with ``untrusted``).

``take_snapshot(..., licences=["cc-by", "cc0"])`` publishes only the articles under those
licences (:mod:`.licences`); the manifest counts the published articles per licence either way.

The package holds the two ends apart: :mod:`.publish` takes snapshots (:mod:`.shards` cuts one
into parts), :mod:`.fetch` fetches and checks them (:mod:`.catalog` a sharded one's, :mod:`.merge`
joins its shards), :mod:`.licences` decides what a licence lets through, and :mod:`.manifest` holds what both agree on (file names, the manifest's format,
:class:`Snapshot` and the errors). Import from here; the modules are the layout, not the API.
"""

from __future__ import annotations

from paperpyramid.db.row_copy import user_tables
from paperpyramid.db.snapshot.catalog import fetch_published, fetch_shards
from paperpyramid.db.snapshot.fetch import CachedSnapshot, check_snapshot_schema, default_cache_dir, fetch_snapshot
from paperpyramid.db.snapshot.licences import check_licences, licence_counts, licence_warning
from paperpyramid.db.snapshot.manifest import (
    CATALOG_FORMAT,
    CATALOG_SUFFIX,
    COMPRESSIONS,
    DEFAULT_COMPRESSION,
    MANIFEST_FORMAT,
    MANIFEST_SUFFIX,
    METADATA_SUFFIX,
    SNAPSHOT_SUFFIX,
    SNAPSHOT_SUFFIXES,
    Snapshot,
    SnapshotCorrupt,
    SnapshotError,
)
from paperpyramid.db.snapshot.merge import merge_shards
from paperpyramid.db.snapshot.publish import MAX_EXPIRES, copy_database, row_counts, take_snapshot
from paperpyramid.db.snapshot.shards import NAMED_KEYS as SHARD_KEYS

__all__ = [
    "CATALOG_FORMAT",
    "CATALOG_SUFFIX",
    "COMPRESSIONS",
    "DEFAULT_COMPRESSION",
    "MANIFEST_FORMAT",
    "MANIFEST_SUFFIX",
    "MAX_EXPIRES",
    "METADATA_SUFFIX",
    "SHARD_KEYS",
    "SNAPSHOT_SUFFIX",
    "SNAPSHOT_SUFFIXES",
    "CachedSnapshot",
    "Snapshot",
    "SnapshotCorrupt",
    "SnapshotError",
    "check_licences",
    "check_snapshot_schema",
    "copy_database",
    "default_cache_dir",
    "fetch_published",
    "fetch_shards",
    "fetch_snapshot",
    "licence_counts",
    "licence_warning",
    "merge_shards",
    "row_counts",
    "take_snapshot",
    "user_tables",
]
