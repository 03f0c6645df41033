"""In-text citations for the XML parsers (JATS, GROBID TEI): marker spans and arXiv ids.

Both formats hold a citation as an element around its marker (``<xref rid="B3">[3]</xref>``,
``<ref target="#b2">[3]</ref>``). The parsers read an element's text piece by piece and then
collapse its whitespace and tidy its punctuation; :class:`MarkedText` keeps, through that
cleaning, where each marker starts and ends, so that ``block.text[cite.start:cite.end]``
reads the marker. It knows nothing of either format: the parsers say where a marker is.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Sequence

from paperpyramid.document import Cite

__all__ = ["MarkedText", "arxiv_id_in", "collapse", "group_1", "moved", "normalise_arxiv_id"]

# an id after "arXiv:" or in an arxiv.org address: new style "2101.00001v2", old style "hep-th/9901001"
_ARXIV_ID = r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_ARXIV_IN_TEXT = re.compile(rf"(?:\barXiv\s*:?\s*(?:preprint\s+)?(?:arXiv\s*:\s*)?|\barxiv\.org/(?:abs|pdf)/){_ARXIV_ID}", re.I)
_ARXIV_BARE = re.compile(rf"^(?:arXiv\s*:\s*)?{_ARXIV_ID}$", re.I)


def arxiv_id_in(text: str) -> str | None:
    """The first arXiv id written out in ``text`` ("arXiv:2101.00001v2", "arxiv.org/abs/hep-th/9901001"), without its version."""
    if "arx" not in text.lower():  # both forms start so; most texts are not worth the pattern's search
        return None
    match = _ARXIV_IN_TEXT.search(text)
    return match.group("id") if match else None


def normalise_arxiv_id(value: str) -> str | None:
    """An identifier field's value ("arXiv:1903.10676v2", "1903.10676", an arxiv.org address) as a bare id without version."""
    value = value.strip()
    match = _ARXIV_BARE.match(value)
    return match.group("id") if match else arxiv_id_in(value)


def collapse(text: str) -> str:
    """``" ".join(text.split())``. Most texts read from XML are so already, and a test of that
    costs less than splitting them: every character ``split`` cuts at but the space is unprintable."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


def group_1(match: re.Match[str]) -> str:
    """What ``pattern.sub(r"\\1", text)`` puts in place of a match. Given as a function, ``sub``
    does not look the template up again on every call, which costs more than most subs."""
    return match.group(1) or ""


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
        #: add a piece known to be a non-empty string (the readers' fast path; :meth:`add` checks)
        self.append = self._parts.append
        self._length = 0  # of the first _counted parts
        self._counted = 0
        self.marks: list[Cite] = []  # in raw offsets until finish()

    @property
    def position(self) -> int:
        """The raw offset the next piece starts at."""
        parts = self._parts
        if self._counted != len(parts):
            self._length += sum(map(len, parts[self._counted :]))
            self._counted = len(parts)
        return self._length

    def add(self, text: str | None) -> None:
        if text:
            self._parts.append(text)

    def raw(self, start: int = 0, end: int | None = None) -> str:
        parts = self._parts
        if len(parts) > 1:  # joined once, so that asking again is cheap
            parts[:] = ["".join(parts)]
            self._counted = 1
            self._length = len(parts[0])
        return parts[0][start:end] if parts else ""

    def mark(self, start: int, keys: list[str]) -> Cite:
        """Mark what was added since raw offset ``start`` as a marker citing ``keys``."""
        cite = Cite(start, self.position, keys)
        self.marks.append(cite)
        return cite

    def clear(self) -> None:
        self._parts.clear()  # the same list: ``append`` stays bound to it
        self._length = self._counted = 0
        self.marks = []  # the cites finish() returned live on in their block

    def finish(self, tidy: Sequence[re.Pattern[str]] = ()) -> tuple[str, list[Cite]]:
        """The text with its whitespace collapsed (as ``" ".join(text.split())``), then each
        pattern in ``tidy`` applied as ``pattern.sub(r"\\1", text)``; and the marks as cites
        in that text, trimmed of spaces at their ends: the marks themselves, moved (so that who
        holds one sees it move). A mark left with no text is dropped."""
        raw = self.raw()
        if not self.marks:  # nothing to keep track of (most paragraphs cite nothing)
            text = collapse(raw)
            if text:  # not whitespace between blocks (most calls): no pattern to run
                for pattern in tidy:
                    text = pattern.sub(group_1, text)
            return text, []
        # where each mark's ends land: counted in the collapsed text, then past what each pattern removes
        offsets = [offset for mark in self.marks for offset in (mark.start, mark.end)]
        text = collapse(raw)
        if text == raw:  # nothing to collapse (most texts): every offset stays where it is
            ends = offsets
        else:
            text, collapsed = _collapsed_at(raw, offsets)
            ends = [collapsed[offset] for offset in offsets]
        if not text:  # no mark is left in whitespace alone
            return text, []
        for pattern in tidy:
            removed: list[int] = []  # offsets the pattern removes, in order
            kept: list[str] = []  # the text, each match replaced by its group 1
            last = 0
            for match in pattern.finditer(text):
                start, end = match.span(1)
                removed += range(match.start(), start)
                removed += range(end, match.end())
                kept += (text[last : match.start()], text[start:end])
                last = match.end()
            if removed:
                text = "".join(kept) + text[last:]
                ends = [offset - bisect_left(removed, offset) for offset in ends]
        cites: list[Cite] = []
        for number, mark in enumerate(self.marks):
            start, end = ends[2 * number], ends[2 * number + 1]
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if start < end:
                mark.start, mark.end = start, end
                cites.append(mark)
        return text, cites


def _collapsed_at(raw: str, offsets: list[int]) -> tuple[str, dict[int, int]]:
    """``" ".join(raw.split())``, and for each raw offset how many of its characters come from
    the text before the offset: its words, the spaces between them, and the space after them
    when a word follows. A character that is no whitespace, put at every offset, is collapsed
    with the text and taken out again (with the one space too many it leaves where it stood
    alone between spaces): one split of the text, whatever the number of offsets."""
    point = next(character for character in map(chr, itertools.count()) if character not in raw and not character.isspace())
    points = sorted(set(offsets))
    cuts = [raw[start:end] for start, end in zip([0, *points], [*points, len(raw)], strict=True)]
    pieces = collapse(point.join(cuts)).split(point)
    kept = [pieces[0]]
    length = len(pieces[0])
    space_last = pieces[0][-1:] == " "
    found: dict[int, int] = {}
    for offset, piece in zip(points, pieces[1:], strict=True):
        found[offset] = length
        if piece[:1] == " " and (space_last or not length):
            piece = piece[1:]
        if piece:
            kept.append(piece)
            length += len(piece)
            space_last = piece[-1] == " "
    text = "".join(kept)
    if space_last:  # the text ended in points after a space: that space goes, and the points land at the end
        text = text[:-1]
        found = {offset: min(at, len(text)) for offset, at in found.items()}
    return text, found
