"""The document's own XMP metadata packet: the one the catalog's ``/Metadata`` names.

PDFs hold many XMP packets (every embedded figure may carry its own, with another paper's
title and DOI in it), so packets are never searched for in the bytes: the catalog is found,
its ``/Metadata`` reference followed, and that stream alone read. A catalog inside a
compressed object stream is not reached; the reader then returns nothing, as it does for
anything it cannot read: metadata is a hint, never a reason to fail a parse.
"""

from __future__ import annotations

import mmap
import re
import zlib
from pathlib import Path

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

_CATALOG = re.compile(rb"/Type\s*/Catalog\b")
_OBJECT = re.compile(rb"\d+\s+\d+\s+obj\b")
_METADATA_REF = re.compile(rb"/Metadata\s+(\d+)\s+(\d+)\s+R")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_NAMESPACES = {
    "dc": "http://purl.org/dc/elements/1.1/",
    "pdfx": "http://ns.adobe.com/pdfx/1.3/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
}
# PRISM's basic namespace in each version publishers write: the same fields under another URI
# (2.0 and 2.1 the most, 3.0 in newer InDesign and Arbortext exports, 1.2 in older ones)
_PRISM = (
    "http://prismstandard.org/namespaces/basic/2.0/",
    "http://prismstandard.org/namespaces/basic/2.1/",
    "http://prismstandard.org/namespaces/basic/3.0/",
    "http://prismstandard.org/namespaces/1.2/basic/",
)
_MAX_PACKET = 4_000_000


def read_xmp(path: Path) -> dict[str, str]:
    """The fields paperpyramid uses from the document's XMP packet, each a plain string.

    Keys: ``title``, ``creators`` (names joined by ``"; "``), ``doi``, ``identifier``,
    ``journal``, ``date``, ``description``; absent where the packet does not say.
    """
    try:
        # mapped, not read: a PDF of hundreds of megabytes costs the worker no memory here
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as raw:
            packet = _packet(raw)
        return _fields(packet) if packet else {}
    except (OSError, ValueError, zlib.error, SafeET.ParseError, DefusedXmlException):
        return {}


def _packet(raw: mmap.mmap) -> bytes | None:
    catalogs = list(_CATALOG.finditer(raw))
    if not catalogs:
        return None
    at = catalogs[-1].start()  # an incremental update's catalog is the last
    opening = list(_OBJECT.finditer(raw, max(0, at - 8000), at))
    closing = raw.find(b"endobj", at)
    if not opening or closing < 0:
        return None
    reference = _METADATA_REF.search(raw, opening[-1].end(), closing)
    if reference is None:
        return None
    header = list(re.finditer(rb"(?<![\d])" + reference.group(1) + rb"\s+" + reference.group(2) + rb"\s+obj\b", raw))
    if not header:
        return None
    start = header[-1].end()
    stream = raw.find(b"stream", start, start + 2000)
    if stream < 0:
        return None
    dictionary = raw[start:stream]
    body_start = stream + len(b"stream")
    body_start += 2 if raw[body_start : body_start + 2] == b"\r\n" else 1
    length = _LENGTH.search(dictionary)
    end = body_start + int(length.group(1)) if length else raw.find(b"endstream", body_start)
    if end < body_start or end - body_start > _MAX_PACKET:
        return None
    body = raw[body_start:end]
    if b"FlateDecode" in dictionary:
        body = zlib.decompressobj().decompress(body, _MAX_PACKET)
    return body


def _fields(packet: bytes) -> dict[str, str]:
    begin, end = packet.find(b"<x:xmpmeta"), packet.rfind(b"</x:xmpmeta>")
    if begin < 0 or end < 0:
        return {}
    root = SafeET.fromstring(packet[begin : end + len(b"</x:xmpmeta>")])
    found: dict[str, str] = {}

    def values(tag: str) -> list[str]:
        texts: list[str] = []
        for element in root.iter(tag):
            items = [li.text or "" for li in element.iter(f"{{{_NAMESPACES['rdf']}}}li")]
            texts += [t.strip() for t in (items or [element.text or ""]) if t and t.strip()]
        return texts

    def first(*tags: str) -> str | None:
        return next((value for tag in tags for value in values(tag)), None)

    ns = _NAMESPACES

    def prism(name: str) -> list[str]:
        return [f"{{{uri}}}{name}" for uri in _PRISM]

    pairs = {
        "title": first(f"{{{ns['dc']}}}title"),
        "doi": first(*prism("doi"), f"{{{ns['pdfx']}}}doi"),
        "identifier": first(f"{{{ns['dc']}}}identifier"),
        "journal": first(*prism("publicationName")),
        "date": first(*prism("coverDate"), f"{{{ns['dc']}}}date"),
        "description": first(f"{{{ns['dc']}}}description"),
    }
    creators = values(f"{{{ns['dc']}}}creator")
    if creators:
        pairs["creators"] = "; ".join(creators)
    for key, value in pairs.items():
        if value:
            found[key] = value
    return found
