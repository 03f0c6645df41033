"""Links broken at a line end: a URL or DOI that url.sty (or a publisher's setting) breaks after
"/", ".", "-" or "://" goes on on the next line with no space, and :func:`~.blocks.join_lines` must
join the two halves whole, or a reader and a DOI matcher lose the link ("https:// doi.org/10.…",
"10.1186/1471- 2164-15-588"). A column or page break inside a link cuts it between two blocks
instead: :func:`link_continues` says when :func:`~.assembly.merge_continuations` joins them. Kept
apart from ``blocks`` because it reads only two strings.
"""

from __future__ import annotations

import re

#: how a URL or DOI token opens: "https://", "www.", "doi:10.", a bare DOI "10.1111/" (after an
#: opening bracket too; elsarticle's "doi:http://dx.doi.org/…"), or a host after the "//" that opens a
#: block whose scheme ended the block before ("(http:" / "//www.sph.umich.edu/statgen/abecasis/" "QTDT/)":
#: :func:`link_continues` joins the blocks once each block's lines are joined)
_LINK_OPENING = re.compile(r"[(<\[]?(?:doi:)?(?:(?:https?|ftp)://|//[\w-]+\.[\w-]|www\.|10\.\d{4,}/)|doi:10\.", re.IGNORECASE)
#: a line ending on a link's scheme alone, its "//" on the next line: "URL http:" "//www.jstatsoft.org",
#: elsarticle's "doi:http:" "//dx.doi.org/…"
_SCHEME_ENDING = re.compile(r"(?:^|[\s(<\[]|doi:)(?:https?|ftp|doi):$", re.IGNORECASE)
#: a DOI's "10." after its label and a space, the prefix's digits on the next line: "doi: 10." "1126/science…"
_LABELLED_DOI = re.compile(r"\bdoi:? 10\.$", re.IGNORECASE)
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


def link_goes_on(out: str, text: str, *, inside: bool = False) -> bool:
    """Whether a line ends inside a URL or DOI that the next line goes on with, so that the two
    join without a space: "https://" "doi.org/10.1162/…", "http:" "//eprint.iacr.org", "osdi16/"
    "technical-sessions/…", "10.1111/j.1467-" "9868.2005.00508.x" (a hyphen there is the link's
    own, kept). The last token must open as a link (or be known to lie ``inside`` one opened
    before it) and end where links break; the next line's first token must read as the link's rest
    (a digit or a link's punctuation in it, any text after a query's "=", "?" or "&"), not as the
    prose or the reference fields after it ("Accessed …", "(2019)", a year after a full stop, a
    second link). A hyphenated word outside a link is left to the
    dehyphenation of :func:`~.blocks.join_lines`."""
    last = out[-1]
    if last == ":":
        return text.startswith("//") and ends_on_scheme(out)
    if last not in _LINK_BREAKS or not text[0].isalnum() and text[0] not in "~%_#":
        return False
    token = out[out.rfind(" ") + 1 :]
    if not inside and not _LINK_OPENING.match(token) and not _LABELLED_DOI.search(out):
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


def opens_link(token: str) -> bool:
    """Whether a token (a line's text from its last space) opens as a URL or DOI."""
    return _LINK_OPENING.match(token) is not None


def ends_on_scheme(out: str) -> bool:
    """Whether a line ends on a link's scheme alone ("URL http:"), its "//" to come."""
    return _SCHEME_ENDING.search(out) is not None


def _last_segment(head: str, text: str) -> bool:
    """A plain word after a link's "/" that closes the link where the sentence or the line closes:
    "https://www.ctan.org/pkg/" "lineno.", "https://github.com/chjackson/" "msm. These …". A word
    with more words after it and no stop reads as prose after the link ("http://smf.emath.fr/"
    "under the heading …", "https://www.jstatsoft.org/" "published by …")."""
    return head.isalpha() and text == head or head[:-1].isalpha() and head[-1] in ".,;)"


#: what a link's rest holds and the first word of a paragraph or a note does not: the "//" after a
#: scheme, a path's "/", a query's "=", "?", "&", "#", "~", "%", or a host's dot (a letter, then a
#: domain's two letters or more: "uiuc.edu"); a dot between digits or single letters opens prose
#: as often ("2.5 mg of …", "e.g. …" after "… at http://www.x.org.")
_LINK_REST = re.compile(r"^//|[/=?&#~%]|[^\W\d_]\.[a-z]{2,}")
#: a host's rest opening in capitals after a link's full stop: "http://CRAN." "R-project.org/package=…"
_HOST = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}[/:]")
#: a link closed by its bracket or quote, then the sentence's full stop: "(http://www.x.org/a/)."
_CLOSED = {").", "].", ">.", "”.", '".', "’."}
#: a note's number before its text or its own link: "1See …", "6The …", "1http://www.netlib.org"
_NOTE_MARK = re.compile(r"^\d+(?:[A-Z]|https?:|ftp:|www\.)")


def link_continues(out: str, text: str) -> bool:
    """Whether a block that ends inside a URL or DOI goes on in the next block: a column or page
    break in "http://CRAN." "R-project.org/package=metafor", "(https:" "//osf.io/3yc8q/)", or the
    link's rest set apart as a block of its own. :func:`link_goes_on`'s guards, and stricter ones,
    for a block's end is most often a sentence's end ("… at http://www.r-project.org." then a
    paragraph, a note, an entry): the next block's first word must itself read as a link's rest (see
    :data:`_LINK_REST`), or be a file's or domain's ending alone before its punctuation ("…/change."
    "html;"); after a full stop it opens in lower case or digits, or names a host; a note's number
    before a capital or a link opens a note, not the link's rest; a link closed by its bracket or quote
    before the full stop ("(http://…/QTDT/)." "write.marker.file …") has ended."""
    out, text = out.rstrip(), text.lstrip()
    if not out or not text or out[-2:] in _CLOSED or not link_goes_on(out, text):
        return False
    head = text.split(None, 1)[0]
    piece = head.rstrip(".,;:)]")
    if not piece or _NOTE_MARK.match(piece):
        return False
    if out.endswith(".") and head != piece and _LINK_ENDING.fullmatch(piece):
        return True
    if out.endswith(".") and not (piece[0].islower() or piece[0].isdigit() or _HOST.match(piece)):
        return False
    return _LINK_REST.search(piece) is not None
