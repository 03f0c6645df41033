"""Where a block's in-text citations land in the contexts cut from its section.

Contexts are cut from the section's blocks (stripped, joined by a blank line, long ones cut
between sentences or words), so a marker's offset in its block is not its offset in a context.
Each marker is found again, in order: the marker with the words before it in its block, from
where the previous one was found onwards; failing that, the marker alone; failing that, a marker
that a cut split in two ("(Okafor et al.," ending one context, "2021)" opening the next), whose
span is then its first part, to the end of the context it starts in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paperpyramid.document import Section

#: Characters of the block before a marker searched for with it, so that a short marker ("3")
#: lands where the block had it and not on an earlier "3".
LEAD = 24


@dataclass(frozen=True, slots=True)
class Span:
    """A citation as stored: ``texts[context][start:end]`` is its marker; ``keys`` what it cites."""

    context: int
    start: int
    end: int
    keys: tuple[str, ...]


def locate(section: Section, texts: Sequence[str]) -> list[Span]:
    """The spans of ``section``'s block citations in ``texts``, its contexts' texts in order."""
    spans: list[Span] = []
    at = (0, 0)  # (context, offset) where the search goes on
    for block in section.blocks:
        for cite in block.cites:
            marker = block.text[cite.start : cite.end]
            if not marker.strip() or not cite.keys:
                continue
            words = block.text[max(0, cite.start - LEAD) : cite.start].split()
            lead = " ".join(words[1:] if cite.start > LEAD else words)  # whole words only: the first may be cut
            before = block.text[cite.start - 1] if cite.start else ""
            found = _find(texts, at, lead, marker) if lead else None
            found = found or _find(texts, at, "", marker, before)
            if found is not None:
                context, start = found
                end = start + len(marker)
            else:
                split = _find_split(texts, at, marker)
                if split is None:
                    continue
                context, start, end = split
            spans.append(Span(context, start, end, tuple(cite.keys)))
            at = (context, end)
    return spans


def _find(texts: Sequence[str], at: tuple[int, int], lead: str, marker: str, before: str | None = None) -> tuple[int, int] | None:
    """The first (context, offset of the marker) at or after ``at`` where ``lead`` (whitespace
    as in the block, loosely) and then ``marker`` read; without a lead, where the character
    before the marker is ``before`` as in the block (a space like any space; a context's start
    like the block's)."""
    context, offset = at
    while context < len(texts):
        text = texts[context]
        position = _search(text, lead, marker, offset, before)
        if position is not None:
            return context, position
        context, offset = context + 1, 0
    return None


def _find_split(texts: Sequence[str], at: tuple[int, int], marker: str) -> tuple[int, int, int] | None:
    """(context, start, end) of a marker's first part ending a context at or after ``at`` whose
    rest opens the next context."""
    for context in range(at[0], len(texts) - 1):
        text, following = texts[context].rstrip(), texts[context + 1].lstrip()
        for cut in range(len(marker) - 1, 0, -1):
            head, rest = marker[:cut].rstrip(), marker[cut:].lstrip()
            if (
                head
                and rest
                and text.endswith(head)
                and following.startswith(rest)
                and len(text) - len(head) >= (at[1] if context == at[0] else 0)
            ):
                return context, len(text) - len(head), len(text)
    return None


def _search(text: str, lead: str, marker: str, offset: int, before: str | None = None) -> int | None:
    if not lead:
        start = offset
        while (found := text.find(marker, start)) >= 0:
            if before is None or _alike(text[found - 1] if found else "", before):
                return found
            start = found + 1
        return None
    start = offset
    while True:
        found = text.find(marker, start)
        if found < 0:
            return None
        if " ".join(text[max(0, found - len(lead) - 8) : found].split()).endswith(lead):
            return found
        start = found + 1


def _alike(one: str, other: str) -> bool:
    """Two characters before a marker read alike: the same, or both space (a block's start and
    a context's start count as space)."""
    return one == other or (not one.strip() and not other.strip())


__all__ = ["Span", "locate"]
