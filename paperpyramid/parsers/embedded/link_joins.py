"""Links broken at a line end: a URL or DOI that url.sty (or a publisher's setting) breaks after
"/", ".", "-" or "://" goes on on the next line with no space, and :func:`~.blocks.join_lines` must
join the two halves whole, or a reader and a DOI matcher lose the link ("https:// doi.org/10.…",
"10.1186/1471- 2164-15-588"). Kept apart from ``blocks`` because it reads only two strings.
"""

from __future__ import annotations

import re

#: how a URL or DOI token opens: "https://", "www.", "doi:10.", a bare DOI "10.1111/" (after an
#: opening bracket too; elsarticle's "doi:http://dx.doi.org/…")
_LINK_OPENING = re.compile(r"[(<\[]?(?:doi:)?(?:(?:https?|ftp)://|www\.|10\.\d{4,}/)|doi:10\.", re.IGNORECASE)
#: a line ending on a link's scheme alone, its "//" on the next line: "URL http:" "//www.jstatsoft.org"
_SCHEME_ENDING = re.compile(r"(?:^|[\s(<\[])(?:https?|ftp|doi):$", re.IGNORECASE)
#: the characters after which url.sty (and publishers' own setting) break a link without a hyphen
_LINK_BREAKS = "/.-_~#=?&"
#: what a link's second piece holds and a word of prose does not: a digit or a link's punctuation
_LINK_PIECE = re.compile(r"[\d/._\-=?&#%~:]")
#: a link of its own on the next line, not this one's rest
_NEXT_LINK = re.compile(r"[(<\[]?(?:(?:https?|ftp)://|www\.|doi:)", re.IGNORECASE)
#: a domain's or a file's ending alone after a link's full stop: "…/tesis_n4546." "pdf", "www.x." "org"
_LINK_ENDING = re.compile(r"[a-z]{2,4}")
#: a year after a link that closed with its sentence's full stop: "… www.x.org." "2019."
_YEAR = re.compile(r"(?:1[89]|20)\d\d")


def link_goes_on(out: str, text: str) -> bool:
    """Whether a line ends inside a URL or DOI that the next line goes on with, so that the two
    join without a space: "https://" "doi.org/10.1162/…", "http:" "//eprint.iacr.org", "osdi16/"
    "technical-sessions/…", "10.1111/j.1467-" "9868.2005.00508.x" (a hyphen there is the link's
    own, kept). The last token must open as a link and end where links break; the next line's first
    token must read as the link's rest (a digit or a link's punctuation in it, any text after a
    query's "=", "?" or "&"), not as the prose or the reference fields after it ("Accessed …", "(2019)",
    a year after a full stop, a second link). A hyphenated word outside a link is left to the
    dehyphenation of :func:`~.blocks.join_lines`."""
    last = out[-1]
    if last == ":":
        return text.startswith("//") and _SCHEME_ENDING.search(out) is not None
    if last not in _LINK_BREAKS or not text[0].isalnum() and text[0] not in "~%_#":
        return False
    token = out[out.rfind(" ") + 1 :]
    if not _LINK_OPENING.match(token):
        return False
    head = text.split(None, 1)[0]
    if token.endswith("://") or last in "=?&":
        return True
    piece = head.rstrip(".,;:)]")
    if _NEXT_LINK.match(piece) or (last != "/" and _LINK_OPENING.match(piece)):
        return False  # a second link; a DOI after a resolver's "https://doi.org/" goes on with it
    if (
        not _LINK_PIECE.search(piece)
        and not (last == "." and _LINK_ENDING.fullmatch(piece))
        and not (last == "/" and _last_segment(head, text))
    ):
        return False
    if last == ".":  # a sentence's full stop too: the rest opens in lower case or digits, or holds a link's "/" or "."
        return not _YEAR.fullmatch(piece) and (piece[0].islower() or piece[0].isdigit() or "/" in piece or "." in piece)
    return True


def _last_segment(head: str, text: str) -> bool:
    """A plain word after a link's "/" that closes the link where the sentence or the line closes:
    "https://www.ctan.org/pkg/" "lineno.", "https://github.com/chjackson/" "msm. These …". A word
    with more words after it and no stop reads as prose after the link ("http://smf.emath.fr/"
    "under the heading …", "https://www.jstatsoft.org/" "published by …")."""
    return head.isalpha() and text == head or head[:-1].isalpha() and head[-1] in ".,;)"
