"""PubMed baseline and update files (``pubmed25n0001.xml.gz``, or ``.xml``) as a stream of inputs.

A file of 30,000 records is read as it comes (from disk or straight from the bucket), never held:
each record is one input of the ``pubmed-record`` kind, logged as ``FILE#<pmid>.<version>`` with
the SHA-256 of its XML, so a re-run skips what is stored and a revised record (a higher version
in an update file) is a new input. A part of the file that cannot be read is a failed input with
its reason, and the run goes on; a ``<DeleteCitation>`` list is an item that asks the writer to
remove those PMIDs, in file order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from paperpyramid.ingestion.work import WorkItem
from paperpyramid.parsers.contract import PUBMED_RECORD

_SUFFIXES = (".xml", ".xml.gz")


def is_pubmed_name(name: str) -> bool:
    """Whether a file's name is a PubMed file's (``pubmed*.xml``, ``pubmed*.xml.gz``)."""
    if not name.lower().endswith(_SUFFIXES):
        return False
    from paperpyramid.parsers.pubmed import is_pubmed_name as named

    return named(name)


def is_pubmed_file(path: Path) -> bool:
    """Whether a local file is a PubMed file: by its name, else by its opening (an ``.xml`` or
    ``.xml.gz`` whose root is ``<PubmedArticleSet>``; an unreadable file is not one)."""
    if not path.name.lower().endswith(_SUFFIXES):
        return False
    if is_pubmed_name(path.name):
        return True
    from paperpyramid.parsers.pubmed import looks_like_pubmed

    try:
        return looks_like_pubmed(path)
    except OSError:
        return False


def pubmed_items(stream: BinaryIO, uri: str, name: str) -> Iterator[WorkItem]:
    """The inputs of the PubMed file ``name`` read from ``stream`` (gzip or plain), in file order."""
    from paperpyramid.parsers.pubmed import PubmedDeletion, PubmedRecord, read_pubmed

    deletions = 0
    for entry in read_pubmed(stream, name=name):
        if isinstance(entry, PubmedRecord):
            sha256 = hashlib.sha256(entry.xml).hexdigest()
            yield WorkItem(f"{uri}#{entry.pmid}.{entry.version}", kind=PUBMED_RECORD, data=entry.xml, sha256=sha256)
        elif isinstance(entry, PubmedDeletion):
            deletions += 1
            yield WorkItem(f"{uri}#deletions-{deletions}", deletes=entry.pmids)
        else:
            where = entry.where.removeprefix(name).lstrip(", ") or "file"
            yield WorkItem(f"{uri}#{where}", error=f"{entry.where}: {entry.reason}")


__all__ = ["is_pubmed_file", "is_pubmed_name", "pubmed_items"]
