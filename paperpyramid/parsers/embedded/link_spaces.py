"""Spaces pdfium writes inside a URL or DOI on one line: url.sty (and hyperref, and publishers'
own setting) puts glue where a link may break, and pdfium writes a space at each such place
though the line does not break there ("https: // doi. org/ 10. 1111/j. …", "https : / / doi .
org / 10 . 1007 /"), so that a reader loses the link and a DOI matcher the DOI.
:func:`link_spaces` finds them by the white space first: a link's break glue is narrower than the
line's word spaces. The link's form is the guard: the space must stand after or before a character
where links break, inside a link as :func:`~.link_joins.link_goes_on` reads one broken at a
line's end, with the text after it, its narrow spaces taken out, reading as the link's rest.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from paperpyramid.parsers.embedded.link_joins import ends_on_scheme, link_goes_on, opens_link

#: a line that may hold a space inside a link: a link's opening, then a space before the line ends
#: (or a line that opens with a link's piece, :data:`_PIECE_OPENING`)
_MAY_HOLD = re.compile(r"(?:(?:https?|ftp)\b|www\.|doi\b|10\.\d{4,}\b)\S* \S", re.IGNORECASE)
#: the characters after (or before) which a link breaks; a space beside one is not counted among
#: the line's word spaces, which a sentence's full stop widens too
_BREAKS = frozenset("/.:-_~#=?&")
#: a link whose host has a name but no domain yet ("https://doi.", "http://www.", "www.debian."):
#: it goes on with the next label, a word with no link's punctuation of its own ("debian", "org")
_OPEN_HOST = re.compile(r"[(<\[]?(?:(?:https?|ftp)://(?:www\.)?|www\.)(?:[\w-]+\.)?", re.IGNORECASE)
#: a line's first word that is a link's piece, the link opened on the line before: a DOI's prefix
#: or a path, a "/" after a digit or a host's dot ("1103/", "sciencedirect.com/science")
_PIECE_OPENING = re.compile(r"[\w.-]*\d[\w.-]*/|[a-z][\w-]*\.[\w.-]*/")
#: a space inside a link is narrower than this share of the line's word spaces (their median): a
#: line stretched to the margin widens its word spaces more than a link's glue
_WORD_SHARE = 0.75
#: … or, on a line with no word space, than this share of the font size (the share under which
#: :func:`~.char_runs.read_runs` sees no word gap)
_SIZE_SHARE = 0.22


def may_hold_link(text: str) -> bool:
    """Whether a line's text may hold a space inside a link, by its words alone: a link's opening
    with a space after it, or a link's piece opening the line. A cheap test, before the line's
    spaces are measured."""
    return _MAY_HOLD.search(text) is not None or _PIECE_OPENING.match(text) is not None


def link_spaces(chars: Sequence[str], boxes: Sequence[float], size: float) -> set[int]:
    """The indices into ``chars`` (a line's characters, one space between its words) of the spaces
    inside a URL or DOI, to be taken out. ``boxes``: the left and right edges of each character
    that is not a space, in turn; ``size``: the line's font size, in the units of the boxes."""
    if not may_hold_link("".join(chars)):
        return set()
    gaps = _space_gaps(chars, boxes)
    words = [gap for index, gap in gaps.items() if chars[index - 1][-1] not in _BREAKS and chars[index + 1][0] not in _BREAKS]
    widest = _WORD_SHARE * statistics.median(words) if words else _SIZE_SHARE * size
    narrow = {index for index, gap in gaps.items() if gap < widest}
    return _inside_links(chars, narrow) if narrow else set()


def _space_gaps(chars: Sequence[str], boxes: Sequence[float]) -> dict[int, float]:
    """Each space between two drawn characters (by its index into ``chars``) and the white space
    between their boxes."""
    gaps: dict[int, float] = {}
    drawn = 0
    for index, ch in enumerate(chars):
        if ch == " ":
            continue
        if index >= 2 and chars[index - 1] == " " and chars[index - 2] != " ":
            gaps[index - 1] = boxes[2 * drawn] - boxes[2 * drawn - 1]
        drawn += 1
    return gaps


def _inside_links(chars: Sequence[str], narrow: set[int]) -> set[int]:
    """Those of the ``narrow`` spaces that part a link's pieces, read left to right: the text
    before each is the line so far with the spaces already found taken out, the text after it
    the pieces that narrow spaces bind to it, up to the next word space. Where that rest reads as
    the link's, the narrow spaces inside it go too: the link is joined whole, its last piece not
    judged alone ("j.1467-" "9868." "2005", a DOI's last piece no year). A line that opens with
    a link's piece (:data:`_PIECE_OPENING`) opens inside the link."""
    found: set[int] = set()
    out: list[str] = []
    text = "".join(chars)
    continued = _PIECE_OPENING.match(text[: text.find(" ")]) is not None
    joined_to = 0  # where the rest of the last space found ends
    for index, ch in enumerate(chars):
        if index in narrow:
            if index < joined_to:
                found.add(index)
                continue
            rest, end = _bound(chars, index + 1, narrow)
            line = "".join(out)
            if _continues_link(line, rest, continued and " " not in line):
                found.add(index)
                joined_to = end
                continue
        out.append(ch)
    return found


def _bound(chars: Sequence[str], start: int, narrow: set[int]) -> tuple[str, int]:
    """The characters from ``start`` up to the next space that is not ``narrow``, the narrow
    spaces taken out, and the index where they end."""
    bound: list[str] = []
    for index in range(start, len(chars)):
        if index in narrow:
            continue
        if chars[index] == " ":
            return "".join(bound), index
        bound.append(chars[index])
    return "".join(bound), len(chars)


def _continues_link(out: str, rest: str, inside: bool) -> bool:
    """Whether a link that ``out`` ends inside goes on in ``rest``: after a character where links
    break (:func:`~.link_joins.link_goes_on`), before one (the link goes on after it, or ends
    with it: "10.1007" "/", a scheme's "https" ":" before its "//" on the next line), or after a
    host's name with no domain yet (:data:`_OPEN_HOST`).
    ``inside``: ``out`` is the line's first word, the piece of a link opened on the line before."""
    if link_goes_on(out, rest, inside=inside):
        return True
    token = out[out.rfind(" ") + 1 :]
    if rest[0] in _BREAKS:
        after = rest[1:]
        if after:
            return link_goes_on(out + rest[0], after, inside=inside)
        return inside or opens_link(token + rest[0]) or (rest[0] == ":" and ends_on_scheme(out + ":"))
    return _OPEN_HOST.fullmatch(token) is not None and token.endswith(".") and rest[0].islower()
