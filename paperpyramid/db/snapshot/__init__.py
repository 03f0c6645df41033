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

``take_snapshot(..., licences=["cc-by", "cc0"])`` publishes only the articles under those
licences (:mod:`.licences`); the manifest counts the published articles per licence either way.

The package holds the two ends apart: :mod:`.publish` takes snapshots, :mod:`.fetch` fetches and
checks them, :mod:`.licences` decides what a licence lets through, and :mod:`.manifest` holds what both agree on (file names, the manifest's format,
:class:`Snapshot` and the errors). Import from here; the modules are the layout, not the API.
"""

from __future__ import annotations

from paperpyramid.db.snapshot.fetch import CachedSnapshot, check_snapshot_schema, default_cache_dir, fetch_snapshot
from paperpyramid.db.snapshot.licences import check_licences, licence_counts, licence_warning
from paperpyramid.db.snapshot.manifest import (
    MANIFEST_FORMAT,
    MANIFEST_SUFFIX,
    METADATA_SUFFIX,
    SNAPSHOT_SUFFIX,
    Snapshot,
    SnapshotCorrupt,
    SnapshotError,
)
from paperpyramid.db.snapshot.publish import MAX_EXPIRES, copy_database, row_counts, take_snapshot, user_tables

__all__ = [
    "MANIFEST_FORMAT",
    "MANIFEST_SUFFIX",
    "MAX_EXPIRES",
    "METADATA_SUFFIX",
    "SNAPSHOT_SUFFIX",
    "CachedSnapshot",
    "Snapshot",
    "SnapshotCorrupt",
    "SnapshotError",
    "check_licences",
    "check_snapshot_schema",
    "copy_database",
    "default_cache_dir",
    "fetch_snapshot",
    "licence_counts",
    "licence_warning",
    "row_counts",
    "take_snapshot",
    "user_tables",
]
