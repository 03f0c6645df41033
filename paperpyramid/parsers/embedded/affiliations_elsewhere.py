"""Affiliations printed away from the byline: in an "Author details" list at the article's end,
or in the first page's foot.

BioMed Central and Springer journals set the names under the title with no address under them.
Several affiliations go to an "Author details" list before the references, numbered as the
names' marks are ("Author details" / "1 Institute of Chemistry, …" / "2 Department of Zoology,
…"), and the first page's foot then gives only the corresponding author's ("Full list of author
information is available at the end of the article"). A single affiliation goes to the foot,
under the correspondence line ("* Correspondence: a@b.org" / "Department of Plant Biology, …"),
or, in Springer's journals, under the names repeated there ("H. K. Patel · R. S. Fougat (&)" /
"Department of …" / "e-mail: …"); Nature's journals set them, numbered as the names' marks or
one, in the foot over "Correspondence and requests for materials should be addressed to …";
elsarticle's preprints set them as the foot's notes, numbered as the names' marks ("1GEOPS,
Univ. Paris-Sud, …, 91405 Orsay, France" / "2L2S, …"). :func:`affiliations_elsewhere` reads
the list first, then the foot; :mod:`.affiliations` asks here only where the title page gives
none, and gives these to the authors by their marks as it gives the title page's.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.institutions import ADDRESS, AFFILIATION, INSTITUTION
from paperpyramid.parsers.embedded.layout import Line

_DETAILS = re.compile(r"^\s*author details\s*$", re.I)
# the first page's correspondence line, a label ("* Correspondence:", "*Correspondence:", "Correspondence
# to", "Correspondence should be addressed …"; the word in a sentence, "… correspondence between the
# fitted curves …", is none), or Springer's mark of the corresponding author among the names repeated in
# the foot ("R. S. Fougat (&)")
_CUE = re.compile(r"^\s*\*?\s*Correspondence\s*(?::|to\b|should\b)|\(&\)")
# Nature's journals close the foot's affiliations with this sentence ("… Egypt. Correspondence and requests for
# materials should be addressed to S.H.E.-M."), on the line of the last
_REQUESTS = re.compile(r"\bcorrespondence and requests for\b", re.I)
# what comes after the addresses: the article's dates, the references, the licence, the pointer to the
# full list, an e-mail address
_AFTER = re.compile(r"^\s*(?:(?:received|accepted|published|references|full list of author|e-?mail|open access)\b|©|\(c\))|@", re.I)
# a number that opens an entry of the list: "1 Institute …", "… Pakistan. 2 Department …", BMC's "…
# China 2 Jiangsu …" (no full stop between entries)
_NUMBER = re.compile(r"(?:^|(?<=\s))(\d{1,2})\.?\s*(?=[A-Z])")
# the words an address's number follows ("No. 3 Xueyuan Road", "Room 2 Building B"): no entry's number
_ADDRESS_WORD = re.compile(r"(?:^|\s)(?:No|Nr|Nos|Room|Rm|Building|Bldg|Floor|Box|Suite|Unit|Block|Level|Gate)\.?\s$", re.I)
# a place in the foot that opens with the number of the corresponding author's affiliation, the others
# listed at the article's end (BMC: "* Correspondence: …" / "2 Physical Health and Sports, College of …")
_MARKED_PLACE = re.compile(r"^(\d{1,2})\s?(?=[A-Z][a-z])")
# an e-mail address's label on a note's line: "E-mail:", "Email address:"
_EMAIL_LABEL = re.compile(r"\s*\be-?mail(?: address(?:es)?)?\s*:", re.I)
# the first of a foot's numbered notes: "1GEOPS, …", "1 Department of …"
_FIRST_NOTE = re.compile(r"^\s*1\.?\s*(?=[A-Z])")
#: how many blocks after the list's head or the correspondence line are read: the text layer cuts an
#: entry into pieces where its mark is set apart ("Zhejiang, China. 2" / "Physical Health …")
_SPAN = 12


def affiliations_elsewhere(blocks: list[Block], title_end: int, body_size: float, page_height: float) -> dict[str | None, str]:
    """The affiliations by their number (``None``: unnumbered) from the "Author details" list,
    else the single one in the title page's foot, read with the body's size and the title page's
    height (:func:`_foot`); empty where neither is printed."""
    return _author_details(blocks) or _foot(blocks, title_end, body_size, page_height)


def _author_details(blocks: list[Block]) -> dict[str | None, str]:
    """The entries of the "Author details" list, cut at their numbers (:func:`_numbered`)."""
    for index, block in enumerate(blocks):
        if block.lines and _DETAILS.match(block.lines[0].text):
            lines = _column_lines(blocks, index)[1:]
            texts = [line.text for line in lines[: next((i for i, line in enumerate(lines) if _AFTER.search(line.text)), len(lines))]]
            return _numbered(blk.join_lines(texts)) if texts else {}
    return {}


def _foot(blocks: list[Block], title_end: int, body_size: float, page_height: float) -> dict[str | None, str]:
    """The affiliations in the title page's foot: those over Nature's "Correspondence and
    requests for materials …", numbered or one (:func:`_numbered`); those set as numbered
    notes (:func:`_numbered_notes`); else the one under the correspondence line (or Springer's
    names with the corresponding author's mark): the lines from the first that names an
    institution (:data:`.institutions.AFFILIATION`, :data:`.institutions.INSTITUTION`), past a
    note on equal contributions, up to an e-mail address, the licence or the pointer to the
    full list, cut at its numbers where it opens with one (:data:`_MARKED_PLACE`), the first
    perhaps not 1 (BMC's corresponding author's alone).
    Only blocks set smaller than the body (``body_size``) or in the lower half of
    the page (``page_height`` high, whatever text it holds) are read (a body sentence's
    "Correspondence to the editors …" is no foot's), and a cue with no institution under it
    leaves the next block to be read."""
    if title_end < 0:
        return {}
    page = blocks[title_end].page
    for index in range(title_end + 1, len(blocks)):
        if blocks[index].page != page:
            break
        if blocks[index].size >= body_size - 0.5 and blocks[index].top < page_height / 2:
            continue  # the body's text: the foot is set smaller, or low on the page
        over = _REQUESTS.split(blk.join_lines([line.text for line in blocks[index].lines]), maxsplit=1)
        if len(over) == 2 and over[0].strip():
            return _numbered(over[0])  # Nature's: the affiliations, then where to write
        lines = _column_lines(blocks, index)
        notes = _numbered_notes(lines, len(blocks[index].lines))
        if notes:
            return notes
        cue = next((i for i, line in enumerate(lines) if _CUE.search(line.text)), None)
        if cue is None or cue >= len(blocks[index].lines):
            continue  # the cue only in a later block: read from there
        after = lines[cue + 1 :]
        start = next((i for i, line in enumerate(after) if AFFILIATION.search(line.text) or INSTITUTION.search(line.text)), None)
        if start is None:
            continue  # no address under this cue: a later block may hold the foot's
        texts: list[str] = []
        for line in after[start:]:
            if _AFTER.search(line.text):
                break
            texts.append(line.text)
        text = blk.join_lines(texts).strip(" .,;")
        marked = _MARKED_PLACE.match(text)
        if marked:
            return _numbered(text, int(marked.group(1)))  # by the numbers the names carry, from the first there
        return {None: text} if text else {}
    return {}


def _numbered_notes(lines: list[Line], own: int) -> dict[str | None, str]:
    """The affiliations a title page's foot sets as notes numbered as the names' marks
    (elsarticle's ``\\fntext``: "1GEOPS, Univ. Paris-Sud, …, 91405 Orsay, France" / "2L2S, …"):
    from the line that opens with the number 1, among the block's ``own`` first lines, up to an
    e-mail address, the dates, the licence or a gap of a line, a line's e-mail label and what
    follows it left out ("…, Portland, OR 97203. E-mail: …"); each entry an institution with
    its address (:data:`.institutions.ADDRESS`), else none (a note on funding, on the title)."""
    first = next((i for i, line in enumerate(lines[:own]) if _FIRST_NOTE.match(line.text)), None)
    if first is None:
        return {}
    texts: list[str] = []
    for index in range(first, len(lines)):
        if index > first and lines[index].top - lines[index - 1].bottom > lines[index].height:
            break  # a gap: past the notes (elsarticle's "Preprint submitted to …")
        text = _EMAIL_LABEL.split(lines[index].text, maxsplit=1)[0]
        if _AFTER.search(text):
            break
        texts.append(text)
    entries = _numbered(blk.join_lines(texts))
    if None in entries or not all(
        (AFFILIATION.search(entry) or INSTITUTION.search(entry)) and ADDRESS.search(entry) for entry in entries.values()
    ):
        return {}
    return entries


def _column_lines(blocks: list[Block], index: int) -> list[Line]:
    """The lines of ``blocks[index]`` and of the blocks after it in its column, down its page: not
    a heading's, nor a block set left of it (the next column) or above it."""
    first = blocks[index]
    lines = list(first.lines)
    for block in blocks[index + 1 : index + _SPAN]:
        if block.page != first.page or block.kind == "heading" or block.x0 < first.x0 - 3 or block.top < first.top - 1:
            break
        lines += block.lines
    return lines


def _numbered(text: str, first: int = 1) -> dict[str | None, str]:
    """``text`` cut into entries at their numbers, which come in a series (``first``, then one
    more each time: 1, 2, 3, …): a number
    out of it is an address's ("Lishui University, 1. No, Xueyuan Road" under entry 2), and so is
    one after an address's word (:data:`_ADDRESS_WORD`) even in the series; text
    before the first number is no numbered list; with no number, the one entry is unnumbered."""
    text = " ".join(text.split())
    cuts: list[re.Match[str]] = []
    for match in _NUMBER.finditer(text):
        if int(match.group(1)) == len(cuts) + first and not _ADDRESS_WORD.search(text, max(0, match.start() - 12), match.start()):
            cuts.append(match)
    if not cuts:
        return {None: text.strip(" .,;")} if text.strip(" .,;") else {}
    if cuts[0].start() > 0:
        return {}
    ends = [match.start() for match in cuts[1:]] + [len(text)]
    return {match.group(1): text[match.end() : end].strip(" .,;") for match, end in zip(cuts, ends, strict=True)}
