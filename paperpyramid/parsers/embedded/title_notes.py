"""The title page's notes keyed by symbols: REVTeX's "† Also at …", "‡ e-mail", The American
Naturalist's "* Corresponding author; e-mail: …", AIP's "b)Also at …". :mod:`.affiliations`
reads them for the places and e-mail addresses they give to the authors whose names carry the
symbols.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block

# the symbols that key a title page's notes to the names that carry them (LaTeX's \\thanks run ∗ † ‡ § ¶ ‖)
_NOTE_SYMBOLS = "*∗†‡§¶‖#$+⋆"
# a note's symbol where it opens a line: "† Also at …", "‡Electronic address: …", "* Corresponding author", or
# REVTeX's letter closed by a bracket in its AIP substyles ("b)Also at …")
_NOTE = re.compile(rf"^\s*(?P<symbol>[{_NOTE_SYMBOLS}](?![{_NOTE_SYMBOLS}])|[a-h]\))\s*(?=\S)")


def symbol_notes(blocks: list[Block], title_end: int, body_size: float, page_height: float) -> dict[str, str]:
    """The title page's notes that open with a symbol, by the symbol: each line that opens with
    one, with the lines of its block under it that open with none (REVTeX's foot: "† Also at
    Physics Department, XYZ University." / "‡ Second.Author@institution.edu"; The American
    Naturalist's "* Corresponding author; e-mail: …" / "† E-mail: …"; AIP's "b)Also at …"), and the
    lines of a block right under it that open with none (a note's "Email: …" line, set in another
    size, read as a block of its own: :func:`_goes_on`). The first note of a symbol is its own; a doubled symbol ("††") keys none here. As for the foot's
    places (:mod:`.affiliations_elsewhere`), only blocks set smaller than the body (``body_size``)
    or in the lower half of the page (``page_height`` high) are read: the body's "* P < 0.05" or a
    table's "a) patients older …" is no note."""
    if title_end < 0:
        return {}
    page = blocks[title_end].page
    notes: dict[str, list[str]] = {}
    current: list[str] | None = None
    previous: Block | None = None
    for block in blocks[title_end + 1 :]:
        if block.page != page:
            break
        if block.size >= body_size - 0.5 and block.top < page_height / 2:
            continue
        current = current if previous is not None and _goes_on(previous, block) else None
        previous = block
        for line in block.lines:
            opening = _NOTE.match(line.text)
            if opening:
                current = [line.text[opening.end() :]] if opening.group("symbol") not in notes else None
                if current is not None:
                    notes[opening.group("symbol")] = current
            elif current is not None:
                current.append(line.text)
    return {symbol: blk.join_lines(texts).strip() for symbol, texts in notes.items()}


def _goes_on(previous: Block, block: Block) -> bool:
    """Whether ``block`` may go on with the note that ``previous`` ends: right under it, at most
    half a line apart, a line or two."""
    close = len(block.lines) <= 2 and 0 <= block.top - previous.bottom <= 0.5 * previous.lines[-1].height
    return close and _CONTACT_LINE.search(block.lines[0].text) is not None


# a note's contact line: an e-mail address, or a contact's label
_CONTACT_LINE = re.compile(r"@|^\s*(?:e-?mail|tel|phone|fax)\b", re.I)


__all__ = ["symbol_notes"]
