"""The raised numbers of a block, gathered from its lines for :attr:`paperpyramid.document.Block.raised`.

Each line read from a PDF's text layer knows the numbers it prints raised
(:func:`~.char_runs.raised_numbers`); a body block holds them all, so that the citation linker
can tell a superscript citation glued to its word ("DEET18") from a name or a unit ("BL21").
"""

from __future__ import annotations

from collections.abc import Iterable

from paperpyramid.parsers.embedded.layout import Line

Raised = tuple[tuple[str, str], ...]


def block_raised(lines: Iterable[Line]) -> Raised | None:
    """The raised numbers of a block's lines in turn; None where no line was read from a text
    layer (OCR's lines know nothing of raised type, and the linker then reads the text alone)."""
    found: list[tuple[str, str]] = []
    seen = False
    for line in lines:
        if line.raised is not None:
            seen = True
            found += line.raised
    return tuple(found) if seen else None


def joined_raised(first: Raised | None, second: Raised | None) -> Raised | None:
    """The raised numbers of two blocks joined into one (a paragraph cut by a column break); None
    where either half was not read from a text layer (OCR).

    Such a half has no raised evidence, and the linker reads a block with evidence by it alone, so
    the half's superscripts would all be refused. Nor can the other half's evidence be kept for
    its own text: a pair has no offset, only its order, and the second half's pairs would be
    looked for from the block's start, in the OCR half. So the whole block is read by its text's
    shapes, as OCR text is."""
    if first is None or second is None:
        return None
    return first + second
