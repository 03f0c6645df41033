"""A snapshot in parts: the corpus cut by the value of one article column, each part a corpus.

:func:`split_copy` makes one corpus file per value of ``shard_by`` (``year``, ``source`` or any
column of ``articles``) from a consistent copy of the whole corpus: each keeps the articles of its
value with all their rows and drops every other article (:func:`.licences.drop_articles`), its
indexes rebuilt; the copy is halved and halved again, so that the work grows with log2 of the
number of shards, not with it. A reference that names an article of another shard keeps naming it, so once the
shards are merged again (:mod:`.merge`) the citation links across them are whole. The publisher
(:mod:`.publish`) publishes each shard as a snapshot and then the catalog (:func:`make_catalog`):
the shards, the value each holds and the sha256 of each one's manifest and files.

Recollections (the pyramid's top level) that drew on articles of more than one shard are in
none: a shard holds only what its own articles support.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperpyramid._version import __version__
from paperpyramid.db.snapshot.licences import drop_articles, finish_copy
from paperpyramid.db.snapshot.manifest import CATALOG_FORMAT, CATALOG_VERSION, SnapshotError
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
    is the publisher's to move or remove once yielded). ``copy`` is consumed: it is cut in two
    halves of about as many articles each, and each half again, so that every article is dropped
    about log2(shards) times in all rather than once per shard. A corpus without articles gives
    no shard."""
    conn = connect(copy, read_only=True)
    try:
        groups = list(shard_values(conn, shard_by).items())
    finally:
        conn.close()
    if not groups:
        return
    used: set[str] = set()
    stems = [f"{stem}.{_slug(shard_by)}-{_unique(_slug(value or NO_VALUE), used)}" for value, _ in groups]
    references = staging / f"{stem}.references.sqlite"
    _save_references(copy, references)
    try:
        for index, path in _halves(copy, [ids for _, ids in groups], staging, stem):
            final = staging / f"{stems[index]}.sqlite"
            os.replace(path, final)
            if len(groups) > 1:  # cut: its indexes are rebuilt and its free pages go once, here
                finish_copy(final)
            _restore_cross_references(final, references)
            yield Shard(groups[index][0], stems[index], final)
    finally:
        references.unlink(missing_ok=True)


def _halves(path: Path, groups: list[list[str]], staging: Path, stem: str, first: int = 0) -> Iterator[tuple[int, Path]]:
    """(index, file) for each of ``groups`` (article ids), ``first`` the index of ``groups[0]``:
    the corpus file at ``path`` holds them all, and is cut until each file holds one group."""
    if len(groups) == 1:
        yield first, path
        return
    cut = _balanced_cut([len(group) for group in groups])
    other = staging / f"{stem}.part-{first + cut}.sqlite"
    shutil.copyfile(path, other)
    drop_articles(path, [article_id for group in groups[cut:] for article_id in group], finish=False)
    drop_articles(other, [article_id for group in groups[:cut] for article_id in group], finish=False)
    yield from _halves(path, groups[:cut], staging, stem, first)
    yield from _halves(other, groups[cut:], staging, stem, first + cut)


def _balanced_cut(sizes: list[int]) -> int:
    """Where to cut ``sizes`` (at least two) so that both sides hold about as many articles."""
    total, before = sum(sizes), 0
    best, best_gap = 1, total
    for cut in range(1, len(sizes)):
        before += sizes[cut - 1]
        gap = abs(total - 2 * before)
        if gap < best_gap:
            best, best_gap = cut, gap
    return best


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


def _save_references(whole: Path, target: Path) -> None:
    """Which article each resolved reference of the corpus ``whole`` names, kept in the new file
    ``target`` (dropping an article clears every reference to it)."""
    conn = connect(target)
    try:
        conn.execute("ATTACH DATABASE ? AS whole", [str(whole)])
        with conn:
            conn.execute("CREATE TABLE refs (id TEXT PRIMARY KEY, cited_article_id TEXT NOT NULL)")
            conn.execute("INSERT INTO refs SELECT id, cited_article_id FROM whole.bib_entries WHERE cited_article_id IS NOT NULL")
        conn.execute("DETACH DATABASE whole")
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"cannot read the references of {whole.name}: {exc}") from exc
    finally:
        conn.close()


def _restore_cross_references(shard: Path, references: Path) -> None:
    """References of the shard's articles name the articles they cite again, when those are in
    other shards (from :func:`_save_references`)."""
    conn = connect(shard)
    try:
        conn.execute("ATTACH DATABASE ? AS saved", [str(references)])
        with conn:
            conn.execute(
                "UPDATE bib_entries SET cited_article_id = (SELECT r.cited_article_id FROM saved.refs AS r WHERE r.id = bib_entries.id) "
                "WHERE cited_article_id IS NULL AND id IN (SELECT id FROM saved.refs)"
            )
        conn.execute("DETACH DATABASE saved")
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"cannot make the shard {shard.name}: {exc}") from exc
    finally:
        conn.close()


def _slug(value: str) -> str:
    return _UNSAFE.sub("_", value).strip("._")[:60] or "_"


def _unique(slug: str, used: set[str]) -> str:
    candidate, number = slug, 1
    while candidate.lower() in used:  # names that differ in case alone collide on some disks
        number += 1
        candidate = f"{slug}-{number}"
    used.add(candidate.lower())
    return candidate
