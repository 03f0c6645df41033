"""A snapshot in parts: the corpus cut by the value of one article column, each part a corpus.

:func:`split_copy` makes one corpus file per value of ``shard_by`` (``year``, ``source`` or any
column of ``articles``) from a consistent copy of the whole corpus: each is a fresh corpus holding
the articles of its value with all their rows, copied from the whole (:mod:`.shard_copy`), its
indexes built once. A reference that names an article of another shard keeps naming it, so once
the shards are merged again (:mod:`.merge`) the citation links across them are whole. The
publisher (:mod:`.publish`) publishes each shard as a snapshot and then the catalog
(:func:`make_catalog`): the shards, the value each holds and the sha256 of each one's manifest
and files.

Recollections (the pyramid's top level) that drew on articles of more than one shard are in
none: a shard holds only what its own articles support.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperpyramid._version import __version__
from paperpyramid.db.snapshot.manifest import CATALOG_FORMAT, CATALOG_VERSION
from paperpyramid.db.snapshot.shard_copy import copy_shards
from paperpyramid.db.sqlite import connect, sqlite3

#: shard keys that are not a column's name: what they read of an article
NAMED_KEYS = {"year": "substr(date_published, 1, 4)", "source": "parser"}
#: the value of a shard whose articles have none (no date, no parser, ...)
NO_VALUE = "none"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True, slots=True)
class Shard:
    """One part of a sharded snapshot: the value it holds (None: articles without one), its
    name's stem, and its corpus file while it is staged."""

    value: str | None
    stem: str
    path: Path


def shard_column(conn: sqlite3.Connection, shard_by: str) -> str:
    """The SQL expression over ``articles`` that ``shard_by`` names; ``ValueError`` listing the
    keys and columns there are for any other name."""
    if shard_by in NAMED_KEYS:
        return NAMED_KEYS[shard_by]
    columns = [str(row[1]) for row in conn.execute("PRAGMA table_info(articles)")]
    if shard_by not in columns:
        raise ValueError(f"cannot shard by {shard_by!r}: choose {', '.join(NAMED_KEYS)} or a column of articles ({', '.join(columns)})")
    return '"' + shard_by.replace('"', '""') + '"'


def shard_values(conn: sqlite3.Connection, shard_by: str) -> dict[str | None, list[str]]:
    """The article ids per value of ``shard_by`` (as text; None for articles without one), in value order."""
    expression = shard_column(conn, shard_by)
    groups: dict[str | None, list[str]] = {}
    for article_id, value in conn.execute(f"SELECT id, CAST({expression} AS TEXT) FROM articles ORDER BY 2, rowid"):
        groups.setdefault(None if value in (None, "") else str(value), []).append(str(article_id))
    return dict(sorted(groups.items(), key=lambda item: (item[0] is None, item[0] or "")))


def split_copy(copy: Path, shard_by: str, stem: str, staging: Path) -> Iterator[Shard]:
    """One corpus file per value of ``shard_by`` in the corpus ``copy``, made in ``staging`` (each
    is the publisher's to move or remove once yielded): each a fresh corpus that the rows of its
    articles are copied into (:func:`~.shard_copy.copy_shards`), so that the work is the size of
    the corpus once, not once per shard. All are made before the first is yielded; ``copy`` is
    consumed (with one value, it is the shard). A corpus without articles gives no shard."""
    conn = connect(copy, read_only=True)
    try:
        groups = list(shard_values(conn, shard_by).items())
    finally:
        conn.close()
    if not groups:
        return
    used: set[str] = set()
    stems = [f"{stem}.{_slug(shard_by)}-{_unique(_slug(value or NO_VALUE), used)}" for value, _ in groups]
    finals = [staging / f"{shard_stem}.sqlite" for shard_stem in stems]
    if len(groups) == 1:
        os.replace(copy, finals[0])
    else:
        copy_shards(copy, [(ids, final) for (_, ids), final in zip(groups, finals, strict=True)])
        copy.unlink()
    for (value, _), shard_stem, final in zip(groups, stems, finals, strict=True):
        yield Shard(value, shard_stem, final)


def catalog_entry(shard: Shard, manifest: Mapping[str, Any], manifest_bytes: bytes) -> dict[str, Any]:
    """What the catalog says of one published shard: its value, files, size and digests."""
    return {
        "value": shard.value,
        "stem": shard.stem,
        "articles": int(manifest["row_counts"].get("articles", 0)),
        "files": dict(manifest["files"]),
        "manifest_sha256": hashlib.sha256(manifest_bytes).hexdigest(),
        "database": dict(manifest["database"]),
        "compressed": dict(manifest["compressed"]),
    }


def make_catalog(whole: Mapping[str, Any], shard_by: str, compression: str, shards: list[dict[str, Any]]) -> dict[str, Any]:
    """The catalog of a sharded snapshot: ``whole`` describes the corpus before it was cut (its
    row counts, licences, schema version), ``shards`` are :func:`catalog_entry`'s."""
    return {
        "format": CATALOG_FORMAT,
        "catalog_version": CATALOG_VERSION,
        "created_at": whole.get("created_at") or datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "paperpyramid_version": __version__,
        "sqlite_version": sqlite3.sqlite_version,
        "schema_version": whole["schema_version"],
        "shard_by": shard_by,
        "compression": compression,
        "row_counts": whole["row_counts"],
        "licences": whole["licences"],
        "shards": shards,
    }


def _slug(value: str) -> str:
    return _UNSAFE.sub("_", value).strip("._")[:60] or "_"


def _unique(slug: str, used: set[str]) -> str:
    candidate, number = slug, 1
    while candidate.lower() in used:  # names that differ in case alone collide on some disks
        number += 1
        candidate = f"{slug}-{number}"
    used.add(candidate.lower())
    return candidate
