"""The lines where a paper cites itself, for the journal's reader (:func:`.journal.find_journal`).

Publishers print the journal, volume and year in running heads and feet, in mastheads, in "Cite
this article" boxes and in a self-archived copy's footnote; the text layer often breaks such a
citation over lines or boxes. :func:`citation_lines` gives every page's head and foot lines and
all of page 1's, and rebuilds the broken ones: each line with the next where it wraps at one left
edge (:func:`_wrapped_pairs`), heads and feet set in parts along one row read as one line, small
capitals written as capitals (:func:`_furniture_rows`), a masthead's name with the issue line
centred under it (:func:`_masthead_pairs`), a masthead's long name wrapped over lines of display
type, with the line under it (:func:`_wrapped_mastheads`), a citation box's lines under its cue
(:func:`_citation_boxes`), a footnote's indented first line with its second (:func:`_note_pairs`)
and a proceedings' head over its second line (:func:`_meeting_heads`). Page 1's lines of a request
to cite another paper ("please cite the following paper:" and the citation under it) are left
out (:func:`_without_other_papers`). It is read before the running heads are removed from the text.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded.journal import CUE
from paperpyramid.parsers.embedded.layout import Line, Page


def citation_lines(pages: list[Page]) -> list[tuple[int, str]]:
    """(page, text) of the lines in every page's head and foot, all of page 1's, and each with the next (wrapped)."""
    texts: list[tuple[int, str]] = []
    for page in pages:
        lines: list[Line] = sorted(
            (line for line in page.lines if page.number == 1 or line.top < 0.12 * page.height or line.bottom > 0.88 * page.height),
            key=lambda line: (line.top, line.x0),
        )
        if page.number == 1:
            lines = _without_other_papers(lines)
        single = [line.text.strip() for line in lines]
        # a masthead's whole name before the pair of its last line and the line under it (the name cut): read
        # first, it wins the tie, as the journal's reader takes the first of the names on as many pages
        mastheads = _wrapped_mastheads(lines, page.height) if page.number == 1 else []
        wrapped = [f"{a.text.strip()} {b.text.strip()}" for a, b in _wrapped_pairs(lines)]
        texts += [(page.number, text) for text in single + mastheads + wrapped]
        texts += [(page.number, row) for row in _furniture_rows(lines, page.height)]
        if page.number == 1:
            texts += [(1, f"{a.text.strip()} {b.text.strip()}") for a, b in _masthead_pairs(lines, page.height)]
            texts += [(1, box) for box in _citation_boxes(lines)]
            texts += [(1, f"{a.text.strip()} {b.text.strip()}") for a, b in _note_pairs(lines)]
            texts += [(1, head) for head in _meeting_heads(lines, page.height)]
    return texts


# a request to cite another paper, the tool's or the method's ("… please cite the following paper:", "If you use
# it, please cite:", "Please cite … when using ExaML:"), not the paper's own citation ("Please cite as: …", "Please cite
# this article as: …")
_OTHER_PAPER = re.compile(
    r"\bcite the following\b|\b(?:if|when) you use\b.{0,80}\bplease cite\b|\bplease cite\b.{0,60}\bwhen using\b", re.I
)
#: how many lines under such a request its citation may take, and how far apart (in line heights) they may be
_CITED_LINES = 6
_CITED_GAP = 2.0


def _without_other_papers(lines: list[Line]) -> list[Line]:
    """Page 1's lines without those of a citation another paper's request introduces (LTRharvest's
    manual: "… please cite the following paper:" over "D. Ellinghaus, … LTRharvest, an efficient
    and flexible software …, BMC Bioinformatics 2008, 9:18"): the journal named there is the
    cited paper's, not this document's. The request's own line goes too, and the lines set under
    it in its column, a few line heights apart at most, where the request ends its line on a colon
    (a request that cites in its own sentence, "… please cite Berg (2018).", takes its line only)."""
    dropped: set[int] = set()
    for index, line in enumerate(lines):
        if not _OTHER_PAPER.search(line.text) or CUE.search(line.text):
            continue
        dropped.add(index)
        if not line.text.rstrip().endswith(":"):
            continue
        last = line
        for following_index in range(index + 1, min(index + 1 + _CITED_LINES, len(lines))):
            following = lines[following_index]
            if following.x0 >= line.x1 or following.x1 <= line.x0:
                continue  # the other column
            if following.top - last.bottom > _CITED_GAP * max(last.height, 1.0):
                break
            dropped.add(following_index)
            last = following
    return [line for index, line in enumerate(lines) if index not in dropped]


# a small-caps face by its name: TeX's "CMCSC10", "LMRomanCaps10-Regular", "TeXPalladioL-SC", "…-ReguSC"
_SMALL_CAPS = re.compile(r"(?i:csc\d|smallcaps|caps\d*(?:$|-))|[-_+]SC(?:$|[-_])|[a-z]SC$")
_SMALL_WORDS = {"of", "and", "in", "for", "the", "on", "at", "to"}


def _furniture_rows(lines: list[Line], height: float) -> list[str]:
    """The running heads and feet set in parts on one row, each row read left to right as one
    text (a foot of the journal's name at the left and its volume and date at the right:
    "philosophers’ imprint" … "- 2 -" … "vol. 100, no. 20 (january 2000)"), its parts in small
    capitals written with their capitals ("Philosophers’ Imprint … Vol. 100, No. 20 (January
    2000)"): their text holds the small capitals as lower case, which no journal's name is."""
    rows: list[list[Line]] = []
    for line in lines:
        if not (line.top < 0.12 * height or line.bottom > 0.88 * height):
            continue
        row = next((row for row in rows if _one_row(row[0], line)), None)
        if row is None:
            rows.append([line])
        else:
            row.append(line)
    return [" ".join(_with_capitals(line) for line in sorted(row, key=lambda line: line.x0)) for row in rows if len(row) >= 2]


def _one_row(first: Line, line: Line) -> bool:
    """Set on one row in type of about one size (not a masthead's name in display type beside its volume)."""
    middle = abs((first.top + first.bottom) / 2 - (line.top + line.bottom) / 2)
    return middle <= 0.3 * max(first.height, 1.0) and max(first.size, line.size) <= 1.5 * max(min(first.size, line.size), 1.0)


def _with_capitals(line: Line) -> str:
    """The line's text, its words capitalised where it is set in small capitals."""
    text = line.text.strip()
    if not _SMALL_CAPS.search(line.font):
        return text
    words = text.split()
    return " ".join(word if index and word in _SMALL_WORDS else re.sub(r"^\W*[a-z]", _upper, word) for index, word in enumerate(words))


def _upper(match: re.Match[str]) -> str:
    return match.group().upper()


_MEETING = re.compile(r"^(?:Proceedings|(?:Extended\s+)?Abstracts)\s+of\b", re.I)


def _meeting_heads(lines: list[Line], height: float) -> list[str]:
    """A conference paper's head over the first page: the proceedings' title over two or three
    lines, then the meeting's days and place ("Proceedings of the ASME 2023" / "International
    … Congress and Exposition" / "IMECE2023" / "October 29–November 2, 2023, New Orleans, LA"),
    as one text."""
    heads = []
    for index, line in enumerate(lines):
        if line.top < 0.2 * height and _MEETING.match(line.text.strip()):
            heads.append(" ".join(other.text.strip() for other in lines[index : index + 5]))
    return heads


def _wrapped_pairs(lines: list[Line]) -> list[tuple[Line, Line]]:
    """Each line with the one that goes on under it in its column: the next of the few lines after
    it that starts at its left edge, a line or so lower (a masthead's second line may come after a
    line of the column beside it: "Archives of …" / "2014, Vol. 2, No. 1")."""
    pairs = []
    for index, line in enumerate(lines):
        below = next((other for other in lines[index + 1 : index + 4] if abs(line.x0 - other.x0) < 5), None)
        if below is not None and below.top - line.top < 2.5 * max(line.height, 1.0):
            pairs.append((line, below))
    return pairs


_NOTE_OPENING = re.compile(r"^[\d*∗†‡§¶]\s?[A-Z][a-z]")


def _note_pairs(lines: list[Line]) -> list[tuple[Line, Line]]:
    """A footnote's first line with its second: the first opens with its mark and is indented
    (TeX's footnotes: "1This vignette corresponds to a paper published in Computational Statistics
    and Data" over "Analysis. Currently …"), so :func:`_wrapped_pairs`, at one left edge, misses them."""
    pairs = []
    for index, line in enumerate(lines):
        if not _NOTE_OPENING.match(line.text.strip()):
            continue
        below = next((other for other in lines[index + 1 : index + 4] if 0 < line.x0 - other.x0 < 3 * max(line.height, 1.0)), None)
        if below is not None and below.top - line.top < 2.5 * max(line.height, 1.0):
            pairs.append((line, below))
    return pairs


def _masthead_pairs(lines: list[Line], height: float) -> list[tuple[Line, Line]]:
    """A masthead's name in display type with the issue's line set under it but not at its left
    edge (JSS: "Journal of Statistical Software" over "November 2012, Volume 51, Issue 7.", the
    issue line centred across the name's left edge), in the top fifth of the first page: each
    line of the row right under it that overlaps it across, within two of its lines (JSS since
    2014 sets the DOI at the row's right, beside the issue line: "doi: 10.18637/…" and
    "February 2015, Volume 64, Issue 2.", the DOI a little higher, read first)."""
    pairs = []
    for index, line in enumerate(lines):
        if line.top > 0.2 * height or line.height < 1.5 * min((other.height for other in lines), default=line.height):
            continue
        under = [other for other in lines[index + 1 :] if other.top >= line.bottom - 2 and other.x0 < line.x1 and other.x1 > line.x0]
        if not under or under[0].top - line.bottom >= 2 * line.height:
            continue
        row = [other for other in under if abs(other.top - under[0].top) < 0.5 * max(under[0].height, 1.0)]
        pairs += [(line, below) for below in row if abs(line.x0 - below.x0) >= 5]
    return pairs


def _wrapped_mastheads(lines: list[Line], height: float) -> list[str]:
    """A masthead's long name wrapped over two or three lines of display type, with the line set
    under it: a narrow measure beside a logo breaks "Journal of the Association for Information
    Science" / "and Technology" over "Volume 2003, Article ID 25804"; a pair of lines at one left
    edge (:func:`_wrapped_pairs`) holds the name or the issue line, never both. The name's lines
    are in the top fifth of the first page, in one size half again the page's smallest, each
    close under the last and overlapping it across; the text is the name's lines joined, then
    the same with the next line under them (the volume, the ISSN, the copyright)."""
    smallest = min((line.height for line in lines), default=0.0)
    masthead: list[str] = []
    for index, line in enumerate(lines):
        if line.top > 0.2 * height or line.height < 1.5 * smallest:
            continue
        run = [line]
        for other in lines[index + 1 : index + 3]:
            last = run[-1]
            if abs(other.size - line.size) > 0.5 or other.top - last.bottom > 0.6 * last.height:
                break
            if other.x0 < last.x1 and other.x1 > last.x0:
                run.append(other)
        if len(run) < 2:
            continue
        name = " ".join(member.text.strip() for member in run)
        under = next((other for other in lines[index + len(run) :] if other.top >= run[-1].bottom - 2), None)
        masthead.append(name)
        if under is not None and under.top - run[-1].bottom < 2 * run[-1].height:
            masthead.append(f"{name} {under.text.strip()}")
    return masthead


# a note that leads into the reference set under it ends its line: "… published in a similar form in", "… Software:"
_LEAD_IN = re.compile(r"(?::|\bpublished\b.*\b(?:in|by))\s*$", re.I)


# a cue set alone on its line, over the citation (bepress's cover page: "Recommended Citation")
_CUE_ALONE = re.compile(r"^\s*recommended citation\s*:?\s*$", re.I)


def _citation_boxes(lines: list[Line]) -> list[str]:
    """A line that says how to cite the paper, with the next two lines set close under it in
    its column (a footnote's first line is indented, so they need not share its left edge); then,
    where the cue's note ends its line or the next (:data:`_LEAD_IN`), the same with a third line
    too: a reference of authors, a long title and the journal set under its note runs to three
    lines ("This document was published in a similar form in" / "Gerber F, Furrer R (2015). “…
    Modeling" / "of Areal Count Data: … Journal of Statistical" / "Software, Code Snippets, 63(1),
    1–32."). A cue that runs on into the citation keeps three lines ("How to cite this article:
    Sun B, …": its journal comes later, abbreviated, where the masthead gives the name and date)."""
    boxes = []
    for index, line in enumerate(lines):
        if not (CUE.search(line.text) or _CUE_ALONE.match(line.text)):
            continue
        run = [line]
        for following in lines[index + 1 :]:
            if following.x0 >= line.x1 or following.x1 <= line.x0:
                continue  # the other column
            if following.top - run[-1].bottom > run[-1].height or len(run) == 4:
                break
            run.append(following)
        if len(run) >= 3:
            boxes.append(" ".join(member.text.strip() for member in run[:3]))
        if len(run) == 4 and any(_LEAD_IN.search(member.text) for member in run[:2]):
            boxes.append(" ".join(member.text.strip() for member in run))
    return boxes
