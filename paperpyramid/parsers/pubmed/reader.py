"""A PubMed baseline or update file, record by record, in flat memory.

The file is one ``<PubmedArticleSet>`` of ``<PubmedArticle>`` (and ``<PubmedBookArticle>``)
elements, with ``<DeleteCitation>`` lists in update files. The reader cuts it at those elements'
tags and hands each record over as the bytes the file holds, unparsed: parsing is
:func:`~paperpyramid.parsers.pubmed.record.parse_record`'s work, done once, and a caller that
already holds a record's PMID and version can skip it unparsed. What lies before the first record
is :mod:`~paperpyramid.parsers.pubmed.prolog`'s; records carry no DTD, so no entity is ever
expanded in them.

Memory is one record and a chunk, whatever the file's size: a record over ``max_record_bytes``
is refused (its PMID named where it can be read) and skipped without being held. Everything the
reader cannot use is a :class:`PubmedRefusal` in file order, with the records before it kept: a
record without a PMID (the next records still come), a truncated or corrupt gzip stream or a file
that stops mid-record (then nothing follows), text or a stray tag between records (the rest of the
file is refused: where the next record starts cannot be known).
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from paperpyramid.parsers.pubmed.items import MAX_RECORD_BYTES, PubmedDeletion, PubmedItem, PubmedRecord, PubmedRefusal
from paperpyramid.parsers.pubmed.prolog import Broken, read_prolog
from paperpyramid.parsers.pubmed.stream import StreamFault, Window, file_chunks

_MAX_START_TAG = 4096
_ARTICLES = frozenset({"PubmedArticle", "PubmedBookArticle"})

_SPACE = re.compile(rb"[ \t\r\n]*")
_START_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*(/?)>")
_CLOSE_TAG = re.compile(rb"</([A-Za-z_][\w.:-]*)\s*>")
_COMMENT_END = re.compile(rb"-->")
_PI_END = re.compile(rb"\?>")
_PMID = re.compile(rb"<PMID(\s[^>]*)?>([^<]*)</PMID\s*>")
_VERSION = re.compile(rb"""\bVersion\s*=\s*["']([^"']*)["']""")


@functools.cache
def _end_tag(name: str) -> re.Pattern[bytes]:
    return re.compile(rb"</" + re.escape(name.encode()) + rb"\s*>")


def read_pubmed(stream: BinaryIO, *, name: str, max_record_bytes: int = MAX_RECORD_BYTES) -> Iterator[PubmedItem]:
    """The records, deletion lists and refusals of a PubMed XML file (gzip or plain, told by its
    first bytes), in file order; ``name`` (the file's name) is what refusals say ``where`` is."""
    scanner = _Scanner(Window(file_chunks(stream)), name, max_record_bytes)
    try:
        yield from scanner.items()
    except StreamFault as fault:
        number = scanner.whole + 1
        reason = f"{fault} at record {number}: nothing from there on is read (whole records before it: {scanner.whole})"
        yield PubmedRefusal(f"{name}, record {number}", reason)


@dataclass(frozen=True, slots=True)
class _Tag:
    name: str
    end: int  # where the tag ends, relative to the window's pos (where it starts)
    closing: bool = False
    empty: bool = False


class _Scanner:
    def __init__(self, window: Window, name: str, max_record_bytes: int) -> None:
        self.window = window
        self.name = name
        self.max_record_bytes = max_record_bytes
        self.records = 0  # <PubmedArticle> and <PubmedBookArticle> elements begun
        self.in_record = False
        self.root = ""

    @property
    def whole(self) -> int:
        """The records read to their end (or refused whole) so far."""
        return self.records - 1 if self.in_record else self.records

    def where(self, number: int | None = None, pmid: str | None = None) -> str:
        if number is None:
            return f"{self.name}, byte {self.window.stream_pos}"
        return f"{self.name}, record {number}" + (f" (PMID {pmid})" if pmid else "")

    def items(self) -> Iterator[PubmedItem]:
        try:
            empty = self._prolog()
        except Broken as exc:
            yield PubmedRefusal(self.name, str(exc))
            return
        try:
            if not empty:
                yield from self._body()
            yield from self._epilogue()
        except Broken as exc:
            yield PubmedRefusal(exc.where or self.where(), f"{exc}; nothing from there on is read (whole records before it: {self.whole})")

    # ---- the parts of the file

    def _prolog(self) -> bool:
        """Read up to the root element's start tag (the window's pos then lies past it); whether
        the root is empty (``<PubmedArticleSet/>``)."""
        self.root, self.window.pos = read_prolog(self.window)
        tag = self._tag()
        self.window.pos += tag.end
        return tag.empty

    def _body(self) -> Iterator[PubmedItem]:
        """The root's children, up to and past its end tag."""
        window = self.window
        while True:
            tag = self._next_tag()
            if tag is None:
                raise Broken(f"the file ends before </{self.root}>: truncated")
            if tag.closing:
                if tag.name != self.root:
                    raise Broken(f"a stray </{tag.name}> tag")
                window.pos += tag.end
                return
            if tag.name in _ARTICLES:
                yield from self._article(tag)
            elif tag.name == "DeleteCitation":
                yield from self._deletion(tag)
            else:
                yield PubmedRefusal(self.where(), f"an unexpected <{tag.name}> element, not a PubMed record, was skipped")
                window.pos += tag.end
                if not tag.empty and not window.skip_past(_end_tag(tag.name)):
                    raise Broken(f"the file ends inside <{tag.name}>: truncated")

    def _epilogue(self) -> Iterator[PubmedItem]:
        tag = self._next_tag()
        if tag is not None:
            yield PubmedRefusal(self.where(), f"content after </{self.root}> was ignored")

    # ---- the root's children

    def _article(self, tag: _Tag) -> Iterator[PubmedItem]:
        window = self.window
        self.records += 1
        number = self.records
        if tag.empty:
            window.pos += tag.end
            yield PubmedRefusal(self.where(number), f"an empty <{tag.name}/> element")
            return
        self.in_record = True
        end = window.search(_end_tag(tag.name), tag.end, self.max_record_bytes)
        if end == "ended":
            raise Broken("the file ends inside this record: truncated", self.where(number))
        if end == "over limit":
            pmid = _PMID.search(window.data, window.pos, window.pos + self.max_record_bytes)
            known = pmid.group(2).strip().decode("ascii", "replace") if pmid else None
            size = f"{self.max_record_bytes / 2**20:g} MiB"
            yield PubmedRefusal(self.where(number, known), f"the record is larger than {size} (the reader's bound): skipped")
            window.pos += tag.end
            if not window.skip_past(_end_tag(tag.name)):
                raise Broken("the file ends inside this record: truncated", self.where(number, known))
        else:
            xml = bytes(window.data[window.pos : end.end()])
            window.pos = end.end()
            yield self._record(xml, number)
        self.in_record = False

    def _record(self, xml: bytes, number: int) -> PubmedRecord | PubmedRefusal:
        found = _PMID.search(xml)
        if found is None:
            return PubmedRefusal(self.where(number), "the record has no <PMID>")
        pmid = found.group(2).strip().decode("utf-8", "replace")
        if not (pmid.isascii() and pmid.isdigit()):
            return PubmedRefusal(self.where(number), f"the record's PMID {pmid[:40]!r} is not a number")
        version = _VERSION.search(found.group(1) or b"")
        text = version.group(1).strip().decode("utf-8", "replace") if version else "1"
        if not (text.isascii() and text.isdigit()):
            return PubmedRefusal(self.where(number, pmid), f"the PMID's Version {text[:40]!r} is not a number")
        return PubmedRecord(pmid=pmid, version=int(text), xml=xml)

    def _deletion(self, tag: _Tag) -> Iterator[PubmedItem]:
        window = self.window
        if tag.empty:
            window.pos += tag.end
            return
        end = window.search(_end_tag(tag.name), tag.end, self.max_record_bytes)
        if not isinstance(end, re.Match):
            raise Broken(
                "a <DeleteCitation> list that does not end"
                + (": truncated" if end == "ended" else f" within {self.max_record_bytes} bytes")
            )
        where = self.where()
        xml = bytes(window.data[window.pos : end.end()])
        window.pos = end.end()
        try:
            element = ET.fromstring(xml)  # a fragment without a DTD: no entity can be declared in it
        except ET.ParseError as exc:
            yield PubmedRefusal(where, f"the <DeleteCitation> list is not well-formed XML: {exc}")
            return
        pmids = tuple((pmid.text or "").strip() for pmid in element.iter("PMID"))
        wrong = [pmid for pmid in pmids if not (pmid.isascii() and pmid.isdigit())]
        if wrong:
            yield PubmedRefusal(where, f"the <DeleteCitation> list holds a PMID that is not a number: {wrong[0][:40]!r}")
        elif pmids:
            yield PubmedDeletion(pmids)

    # ---- tags between records

    def _next_tag(self) -> _Tag | None:
        """The next tag between records (whitespace, comments and processing instructions are
        passed over), the window's pos at its start; None at the end of the stream."""
        window = self.window
        while True:
            window.pos = _skip_space(window.data, window.pos)
            if window.pos == len(window.data):
                if not window.more():
                    return None
                continue
            window.available(_MAX_START_TAG)
            if window.data.startswith(b"<!--", window.pos):
                skipped = window.skip_past(_COMMENT_END)
            elif window.data.startswith(b"<?", window.pos):
                skipped = window.skip_past(_PI_END)
            else:
                return self._tag()
            if not skipped:
                return None

    def _tag(self) -> _Tag:
        window = self.window
        window.available(_MAX_START_TAG)
        start = window.pos
        found = _START_TAG.match(window.data, start, start + _MAX_START_TAG)
        if found is not None:
            return _Tag(found.group(1).decode("utf-8", "replace"), found.end() - start, empty=bool(found.group(2)))
        found = _CLOSE_TAG.match(window.data, start, start + _MAX_START_TAG)
        if found is not None:
            return _Tag(found.group(1).decode("utf-8", "replace"), found.end() - start, closing=True)
        if window.ended and window.data.find(b">", start) < 0:
            raise Broken("the file ends inside a tag: truncated")
        if window.data.startswith(b"<", start):
            raise Broken("not a well-formed tag between records")
        raise Broken("text outside any record")


def _skip_space(data: bytearray, pos: int) -> int:
    space = _SPACE.match(data, pos)
    return space.end() if space is not None else pos
