"""The bytes of a PubMed file as a stream: gzip undone on the fly, and a window that holds only
what the reader still needs.

A ``.gz`` file is told by its magic bytes, not its name, and decompressed chunk by chunk, each
chunk at most :data:`CHUNK` bytes however well the input compresses, so that a gzip bomb costs
time, never memory. A gzip stream that ends before its end marker (a download cut short) or
whose data is corrupt raises :class:`StreamFault` where the reader has got to.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from typing import BinaryIO, Literal

#: bytes read (and decompressed) at a time
CHUNK = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"
_GZIP_WBITS = 31  # zlib's window bits for a gzip header and trailer


class StreamFault(Exception):
    """The file's bytes end or break before the XML does (a truncated or corrupt gzip stream)."""


def file_chunks(stream: BinaryIO) -> Iterator[bytes]:
    """The file's bytes, decompressed when it is gzip, in chunks of at most :data:`CHUNK` bytes."""
    head = stream.read(CHUNK)
    while 0 < len(head) < len(GZIP_MAGIC):  # a stream may hand over fewer bytes than asked
        more = stream.read(CHUNK)
        if not more:
            break
        head += more
    if head.startswith(GZIP_MAGIC):
        yield from _gunzip(head, stream)
        return
    while head:
        yield head
        head = stream.read(CHUNK)


def _gunzip(data: bytes, stream: BinaryIO) -> Iterator[bytes]:
    """Every gzip member of the stream, decompressed; zero padding after the last is allowed."""
    inflater = zlib.decompressobj(_GZIP_WBITS)
    while True:
        if not data:
            data = stream.read(CHUNK)
            if not data:
                break
        if inflater.eof:  # a further member follows (or the padding some tools write)
            if not data.strip(b"\0"):
                data = b""
                continue
            inflater = zlib.decompressobj(_GZIP_WBITS)
        try:
            out = inflater.decompress(data, CHUNK)
        except zlib.error as exc:
            raise StreamFault(f"the gzip data is corrupt ({exc})") from exc
        data = inflater.unused_data if inflater.eof else inflater.unconsumed_tail
        if out:
            yield out
    if not inflater.eof:
        try:
            rest = inflater.flush()
        except zlib.error as exc:
            raise StreamFault(f"the gzip data is corrupt ({exc})") from exc
        if rest:
            yield rest
        if not inflater.eof:
            raise StreamFault("the gzip stream is truncated")


class Window:
    """The stream's bytes from :attr:`pos` on (``data[pos:]``), read on as a search needs them;
    what lies before ``pos`` is dropped as the window moves on, so memory is the longest span
    searched (a record) plus a chunk."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self.data = bytearray()
        self.pos = 0
        self.offset = 0  # the stream offset of data[0]
        self.ended = False

    @property
    def stream_pos(self) -> int:
        """How far into the (decompressed) stream the reader has got, in bytes."""
        return self.offset + self.pos

    def more(self) -> bool:
        """Read one more chunk; False at the end of the stream. Indexes into ``data`` from
        ``pos`` on move back by what was dropped before ``pos``: callers hold them relative to ``pos``."""
        if self.ended:
            return False
        chunk = next(self._chunks, None)
        if chunk is None:
            self.ended = True
            return False
        if self.pos:
            del self.data[: self.pos]
            self.offset += self.pos
            self.pos = 0
        self.data += chunk
        return True

    def available(self, count: int) -> bool:
        """Whether ``count`` bytes from ``pos`` on are there, reading on until they are."""
        while len(self.data) - self.pos < count:
            if not self.more():
                return False
        return True

    def search(self, pattern: re.Pattern[bytes], start: int, limit: int) -> re.Match[bytes] | Literal["over limit", "ended"]:
        """The first match of ``pattern`` from ``pos + start`` on that ends within ``limit`` bytes
        of ``pos``, reading on as needed. ``pattern`` must match at most :data:`_OVERLAP` bytes."""
        begin = start  # relative to pos, which moves when more() drops what lies before it
        while True:
            found = pattern.search(self.data, self.pos + begin, self.pos + limit)
            if found is not None:
                return found
            if len(self.data) - self.pos >= limit:
                return "over limit"
            begin = max(begin, len(self.data) - self.pos - _OVERLAP)
            if not self.more():
                return "ended"

    def skip_past(self, pattern: re.Pattern[bytes]) -> bool:
        """Move ``pos`` past the next match of ``pattern``, dropping what it passes; False when
        the stream ends first."""
        while True:
            found = pattern.search(self.data, self.pos)
            if found is not None:
                self.pos = found.end()
                return True
            self.pos = max(self.pos, len(self.data) - _OVERLAP)
            if not self.more():
                return False


#: the longest match :meth:`Window.search` and :meth:`Window.skip_past` find across two chunks
_OVERLAP = 256
