"""PubMed's baseline and update files (``pubmed26n0001.xml.gz``): their records as documents.

NLM publishes PubMed as ``<PubmedArticleSet>`` XML files of about 30,000 records each, gzipped: a
baseline once a year and daily update files that add new records, revise old ones (the same PMID
again, often with a higher ``Version``) and list PMIDs to delete (``<DeleteCitation>``). Two steps:

- :func:`read_pubmed` streams a file's records in flat memory (:mod:`.reader`), each a
  :class:`PubmedRecord` holding the record's bytes unparsed, with :class:`PubmedDeletion` lists
  and a :class:`PubmedRefusal` for anything it cannot use, in file order;
- :func:`parse_record` turns one record into a :class:`~paperpyramid.document.Document`
  (:mod:`.record`): metadata, MeSH headings, keywords, publication types and the abstract.

A record's identity is its PMID and version; two deliveries of the same version may differ in
bytes (a file's indentation, a corrected field), so a content hash is ``sha256(record.xml)``.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

from paperpyramid.parsers.pubmed.items import MAX_RECORD_BYTES, PubmedDeletion, PubmedItem, PubmedRecord, PubmedRefusal
from paperpyramid.parsers.pubmed.reader import read_pubmed
from paperpyramid.parsers.pubmed.record import NAME, parse_record
from paperpyramid.parsers.pubmed.stream import GZIP_MAGIC

__all__ = [
    "MAX_RECORD_BYTES",
    "NAME",
    "PubmedDeletion",
    "PubmedItem",
    "PubmedRecord",
    "PubmedRefusal",
    "is_pubmed_name",
    "looks_like_pubmed",
    "parse_record",
    "read_pubmed",
]

_NAME = re.compile(r"pubmed[^/\\]*\.xml(?:\.gz)?", re.IGNORECASE)
_SNIFF_BYTES = 1024
_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")
_ROOTS = (b"PubmedArticleSet", b"PubmedBookArticleSet")
_DOCTYPE = re.compile(rb"<!DOCTYPE\s+([A-Za-z_][\w.:-]*)")


def is_pubmed_name(name: str) -> bool:
    """Whether a file's name (or path, or object key) is a PubMed file's: ``pubmed*.xml`` or
    ``pubmed*.xml.gz`` (``pubmed26n0001.xml.gz``, ``pubmed26n1450.xml``)."""
    return _NAME.fullmatch(name.replace("\\", "/").rsplit("/", 1)[-1]) is not None


def looks_like_pubmed(path: Path) -> bool:
    """Whether the file's first KB (decompressed when it is gzip) opens a ``<PubmedArticleSet>``
    (or a ``<PubmedBookArticleSet>``): its root element, or its DOCTYPE when a long one fills the
    KB. OSError when the file cannot be read; a corrupt gzip header is not PubMed."""
    with path.open("rb") as file:
        head = file.read(64 * 1024)
    if head.startswith(GZIP_MAGIC):
        try:
            head = zlib.decompressobj(31).decompress(head, _SNIFF_BYTES)
        except zlib.error:
            return False
    head = head[:_SNIFF_BYTES]
    root = _ROOT.search(head)  # "<?xml" and "<!DOCTYPE" do not match: the first element's tag does
    if root is not None:
        return root.group(1) in _ROOTS
    doctype = _DOCTYPE.search(head)
    return doctype is not None and doctype.group(1) in _ROOTS
