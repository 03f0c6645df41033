"""In-text citations for the XML parsers (JATS, GROBID TEI): marker spans and arXiv ids.

Both formats hold a citation as an element around its marker (``<xref rid="B3">[3]</xref>``,
``<ref target="#b2">[3]</ref>``). The parsers read an element's text piece by piece and then
collapse its whitespace and tidy its punctuation; :class:`MarkedText` keeps, through that
cleaning, where each marker starts and ends, so that ``block.text[cite.start:cite.end]``
reads the marker. It knows nothing of either format: the parsers say where a marker is.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from paperpyramid.document import Cite

__all__ = ["MarkedText", "arxiv_id_in", "moved", "normalise_arxiv_id"]

# an id after "arXiv:" or in an arxiv.org address: new style "2101.00001v2", old style "hep-th/9901001"
_ARXIV_ID = r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_ARXIV_IN_TEXT = re.compile(rf"(?:\barXiv\s*:?\s*(?:preprint\s+)?(?:arXiv\s*:\s*)?|\barxiv\.org/(?:abs|pdf)/){_ARXIV_ID}", re.I)
_ARXIV_BARE = re.compile(rf"^(?:arXiv\s*:\s*)?{_ARXIV_ID}$", re.I)


def arxiv_id_in(text: str) -> str | None:
    """The first arXiv id written out in ``text`` ("arXiv:2101.00001v2", "arxiv.org/abs/hep-th/9901001"), without its version."""
    match = _ARXIV_IN_TEXT.search(text)
    return match.group("id") if match else None


def normalise_arxiv_id(value: str) -> str | None:
    """An identifier field's value ("arXiv:1903.10676v2", "1903.10676", an arxiv.org address) as a bare id without version."""
    value = value.strip()
    match = _ARXIV_BARE.match(value)
    return match.group("id") if match else arxiv_id_in(value)


def moved(cites: list[Cite], by: int) -> list[Cite]:
    """The cites of a text that now starts ``by`` characters later in its block, moved in
    place (a parser may hold some of them elsewhere, to finish later), and returned."""
    for cite in cites:
        cite.start += by
        cite.end += by
    return cites


class MarkedText:
    """Text read piece by piece, with marked stretches (citation markers) whose place
    survives :meth:`finish`'s whitespace collapsing and tidying."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.marks: list[Cite] = []  # in raw offsets until finish()

    @property
    def position(self) -> int:
        """The raw offset the next piece starts at."""
        return self._length

    def add(self, text: str | None) -> None:
        if text:
            self._parts.append(text)
            self._length += len(text)

    def raw(self, start: int = 0, end: int | None = None) -> str:
        return "".join(self._parts)[start:end]

    def mark(self, start: int, keys: list[str]) -> Cite:
        """Mark what was added since raw offset ``start`` as a marker citing ``keys``."""
        cite = Cite(start, self._length, keys)
        self.marks.append(cite)
        return cite

    def clear(self) -> None:
        self._parts.clear()
        self._length = 0
        self.marks = []  # the cites finish() returned live on in their block

    def finish(self, tidy: Sequence[re.Pattern[str]] = ()) -> tuple[str, list[Cite]]:
        """The text with its whitespace collapsed (as ``" ".join(text.split())``), then each
        pattern in ``tidy`` applied as ``pattern.sub(r"\\1", text)``; and the marks as cites
        in that text, trimmed of spaces at their ends: the marks themselves, moved (so that who
        holds one sees it move). A mark left with no text is dropped."""
        raw = self.raw()
        if not self.marks:  # nothing to keep track of: the same text, at C speed (most paragraphs cite nothing)
            text = " ".join(raw.split())
            for pattern in tidy:
                text = pattern.sub(r"\1", text)
            return text, []
        chars: list[str] = []
        origin: list[int] = []  # raw offset of each kept character
        gap: int | None = None
        for index, char in enumerate(raw):
            if char.isspace():
                if chars and gap is None:
                    gap = index
                continue
            if gap is not None:
                chars.append(" ")
                origin.append(gap)
                gap = None
            chars.append(char)
            origin.append(index)
        for pattern in tidy:
            text = "".join(chars)
            keep = [True] * len(chars)
            for match in pattern.finditer(text):
                start, end = match.span(1)
                for position in (*range(match.start(), start), *range(end, match.end())):
                    keep[position] = False
            chars = [char for char, kept in zip(chars, keep, strict=True) if kept]
            origin = [offset for offset, kept in zip(origin, keep, strict=True) if kept]
        text = "".join(chars)
        cites: list[Cite] = []
        for mark in self.marks:
            start, end = bisect_left(origin, mark.start), bisect_left(origin, mark.end)
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if start < end:
                mark.start, mark.end = start, end
                cites.append(mark)
        return text, cites
