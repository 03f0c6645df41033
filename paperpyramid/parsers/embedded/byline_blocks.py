"""What one block of a title page's byline holds: names, an affiliation, or names over or before one.

:mod:`.authors` walks the blocks under the title (the names' zone) and asks here, block by block,
what each holds: :func:`names_text` reads a block of names as one line (a line break between two
whole names parts them; an e-mail address in brackets or after its comma after a name is dropped);
:func:`affiliation_line` and :func:`affiliation_block` tell an address (an institution, a postcode, a
country: :mod:`.institutions`) or a line that opens with a mark; :func:`names_over_affiliation` reads
the names a block sets over their affiliation, and :func:`names_before_affiliation` the names that
open an affiliation's lines or have their institution in brackets after them; :func:`names_after_contact` the names after an address the text layer cut
from its name; :func:`group_under_marked_names` tells a group that signs under marked names from
an affiliation. These read one block and know nothing of the page; where a block stands in the
zone (beside, under, after which names) is :mod:`.authors`' to judge.
"""

from __future__ import annotations

import re
from itertools import pairwise

from paperpyramid.dates import date_alone
from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.author_names import (
    DEGREE_WORD,
    MARKS,
    PARTICLES,
    capitals,
    group_name,
    group_tail,
    letters_closed_up,
    mostly_names,
    split_names,
)
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.institutions import ADDRESS, AFFILIATION, INSTITUTION, names_institution
from paperpyramid.parsers.embedded.layout import Line


def group_under_marked_names(line: str, size: float, names: str, names_size: float | None) -> bool:
    """Whether ``line`` (in type of ``size``) names a group alone under ``names`` that carry
    affiliation marks, in their type (a byline's group set on a line of its own: "Anna Berg1,
    Carl Dahl2" / "the ABC Study Group"): where the names are marked, their affiliations are
    keyed by the marks and open with one ("2ABC Study Group"), so an unmarked group is no
    affiliation but signs with them. Under unmarked names it may be their affiliation ("Anna
    Berg" / "Machine Learning Group"), and so may a group in smaller type (ACM: "G.K.M. Tobin∗"
    over "The Thørväld Group")."""
    if names_size is None or abs(size - names_size) > 0.3 or re.match(rf"\s*[\d{MARKS}]", line):
        return False
    return bool(re.search(rf"[^\W\d_][\d{MARKS}]", names)) and bool(group_name(line))


def affiliation_line(text: str, *, names_after_mark: bool = True) -> bool:
    """An address, or a line that opens with a mark; not one of names alone after a mark unless
    ``names_after_mark`` (a name's trailing mark wrapped onto the next box: "1 August Muench,1");
    a group joined to the names is not read as one ("… and the ABC Study Group": :func:`group_tail`)."""
    text = group_tail(text)[0]
    if "@" in text or AFFILIATION.search(text) or INSTITUTION.search(text) or ADDRESS.search(text):
        return True
    return bool(re.match(rf"^[\d{MARKS}]\s*[A-Z][a-z]", text)) and (names_after_mark or not mostly_names(text))


def affiliation_block(content: str, *, first: bool) -> bool:
    """An address or institution, or a block that opens with a mark, save names alone directly
    under the title; a group joined to the names does not make one (:func:`group_tail`)."""
    content = group_tail(content)[0]
    if "@" in content or AFFILIATION.search(content) or INSTITUTION.search(content) or ADDRESS.search(content):
        return True
    if not re.match(rf"^[\d{MARKS}]\s*[A-Z][a-z]", content):
        return False
    names = split_names(content)  # a mark before the only name, directly under the title
    return not (first and names and len("".join(names).replace(" ", "")) >= 0.8 * sum(ch.isalpha() for ch in content))


# the parts of an affiliation's line: after commas, and after a dash set apart, which SciPy's proceedings
# put between a name and its affiliation ("Anna Berg (aberg@example.org) – University of …")
_PARTS = re.compile(r",|\s[–—]\s")


def names_before_affiliation(block: Block, names_size: float | None) -> str:
    """The names that open an affiliation's lines ("A. N. Author, H. Coauthor, Name of Institute,
    City, Country"; ACM's "LARS THØRVÄLD, The Thørväld Group, Iceland"; SciPy's "Anna Berg
    (aberg@example.org) – University of …", its e-mail dropped; a vignette's "Jim Baglama
    (University of Rhode Island)"): the leading parts that are names, where a later part is an
    institution or an address. Once names were read, only
    names in the first names' type or set in capitals before the rest count. Before an address
    with no institution, only on the block's first line or under a line that opened with names:
    under an address's line, it is the address going on, a city before its state and postcode
    ("New York University" / "715, Broadway, 7th Floor" / "New York, NY, 10003"), which is no name
    on any line ("Example Micro" / "North Ryde, NSW, 2113, Australia"). A line whose entries are
    apart by semicolons is read entry by entry (:func:`_entries`)."""
    read: list[tuple[str, bool]] = []  # each name, and whether an affiliation follows it on its line
    opened = True  # the line over it opened with names, or there is none
    entries = [(line.size, entry) for line in block.lines for entry in _entries(without_contact(line.text).strip().lstrip(","))]
    # the first line's name run into its institution, where no names came before and the line gives an e-mail
    apart = names_size is None and bool(block.lines) and "@" in block.lines[0].text
    for number, (size, entry) in enumerate(entries):
        parts = [part.strip() for part in _PARTS.split(_BRACKETED_PLACE.sub(_place_after_comma, entry))]
        parts = _name_apart(parts) if number == 0 and apart else parts
        upper = capitals(parts[0]) if parts else False
        lead: list[str] = []
        for part in parts:
            if AFFILIATION.search(part) or INSTITUTION.search(part) or (upper and not capitals(part)) or len(split_names(part)) != 1:
                break
            lead.append(part)
        if lead and _POSTCODE.match(", ".join(parts[len(lead) :])):
            lead.pop()  # a city before its state's code and postcode: "Colorado Springs, CO 80918", "North Ryde, NSW, 2113"
        rest = ", ".join(parts[len(lead) :])
        under_names, opened = opened, bool(lead)
        if lead and not rest:
            read += [(name, False) for name in lead]  # a line of names alone, among the lines that open with names: "P. Contributor"
            continue
        if not lead or not (AFFILIATION.search(rest) or INSTITUTION.search(rest) or (under_names and ADDRESS.search(", " + rest))):
            continue
        if names_size is not None and abs(size - names_size) > 0.3 and not (upper and not capitals(rest)):
            continue
        read += [(name, True) for name in lead]
    return ", ".join(name for name, _ in read) if any(placed for _, placed in read) else ""


# a name run into its institution with no comma between: a given name, one or two initials set apart and a
# surname, then the institution's words ("John C Nash Telfer School of Management")
_NAME_INTO_PLACE = re.compile(r"(?P<name>[A-Z][a-zß-ÿ]+(?:\s[A-Z]\.?){1,2}\s[A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?)\s+(?P<place>[A-Z].*)")


def _name_apart(parts: list[str]) -> list[str]:
    """A byline's parts with the first one's name parted from the institution it runs into, where
    more of the affiliation follows ("John C Nash Telfer School of Management, University of
    Ottawa, nashjc@…"); the parts as they are otherwise. The caller asks it only of a first line
    that gives an e-mail before any names were read: an institute named after a person under a
    byline ("Thomas J. Watson Research Center", "IBM T. J. Watson …") is no name. The institution
    opens with its own name, not with the institution's word: in "Harvard T H Chan School of
    Public Health, Boston" the words before "School" are the school's name, no person's."""
    match = _NAME_INTO_PLACE.fullmatch(parts[0]) if len(parts) >= 2 else None
    if match is None or not names_institution(match["place"]) or names_institution(match["name"]) or AFFILIATION.match(match["place"]):
        return parts
    return [match["name"], match["place"], *parts[1:]]


# what follows a city in a postal address, to the line's end: a postcode, or a state's or province's code and a
# postcode, and perhaps the country (a name before "82234 Wessling, Germany" is no city)
_POSTCODE = re.compile(r"^(?:[A-Z]{2,3},?\s+)?\d{4,6}(?:-\d{3,4})?(?:,\s*[A-Z][\w. ]*)?$")


# an institution in brackets after a name: "Jim Baglama (University of Rhode Island)", as vignettes set their byline
_BRACKETED_PLACE = re.compile(r"\s\(([^()]{3,120})\)")


def _place_after_comma(match: re.Match[str]) -> str:
    """The institution in brackets after a name as the affiliation after its comma ("Jim Baglama,
    University of Rhode Island"); other words in brackets (an author's role) are left as they are."""
    place = match.group(1)
    return f", {place}" if AFFILIATION.search(place) or INSTITUTION.search(place) else match.group()


def _entries(text: str) -> list[str]:
    """The entries of a byline's line that sets each name before its affiliation, the entries
    apart by semicolons (USENIX's cover page: "Anna Berg, Stony Brook University; Carl Dahl,"
    / "IBM Research; Eva Lund, …"), without the affiliation that opens the line, wrapped from
    the entry before ("IBM Research"); the line itself where it is no such byline."""
    entries = [entry.strip() for entry in text.split(";")]
    if len(entries) < 2 or not any(names_institution(entry.partition(",")[2]) for entry in entries):
        return [text]
    return entries[1:] if "," not in entries[0] and len(split_names(entries[0])) != 1 else entries


def names_over_affiliation(block: Block) -> str:
    """The names of a block that sets them over their affiliation (and e-mail): the lines above
    the first affiliation line; empty unless the block is names, then affiliation."""
    texts = [without_contact(line.text) for line in block.lines]
    sizes = [line.size for line in block.lines]

    def affiliation(i: int) -> bool:
        text = texts[i]
        acronym = _ACRONYM.search(DEGREE_WORD.sub(" ", text)) and not _byline_goes_on(texts[i - 1])
        if i and acronym and not capitals(texts[0]) and (not mostly_names(text) or _opens_with_acronym(text, texts[:i])):
            return True  # an institution's acronym under a name: "Christophe Dutang" / "ENSIMAG, Grenoble INP"
        return affiliation_line(text) and not (i and group_under_marked_names(text, sizes[i], " ".join(texts[:i]), sizes[i - 1]))

    cut = next((i for i in range(len(texts)) if affiliation(i)), 0)
    head = _names_of_lines(block.lines[:cut])
    if cut == 0 or not _names_head(head):
        return ""
    # names and affiliations in turn, stacked (article's \\author{A \\ Univ. X \\and B \\ Univ. Y}): a line
    # of names alone in the first names' type, with an affiliation right under it, is the next author's
    stacked = [
        texts[i]
        for i in range(cut + 1, len(texts) - 1)
        if not affiliation(i)
        and affiliation(i + 1)
        and abs(sizes[i] - sizes[0]) <= 0.3
        and mostly_names(texts[i])
        and not _affiliations_last_line(texts, i)
    ]
    return ", ".join([head, *stacked])


def _names_head(head: str) -> bool:
    """Whether the lines over a block's first affiliation line, read as one (a name wrapped at the
    line's end joined: "…, Carl Dahl, Anna" / "Berg"), are names: mostly names, not a department's
    subjects over its institute ("Applied Mathematics & Statistics, and Scientific Computation" /
    "Center for …", where "Statistics" is no name)."""
    return bool(split_names(head)) and mostly_names(head)


def _affiliations_last_line(texts: list[str], index: int) -> bool:
    """Whether the line ``texts[index]`` goes on with the affiliation over it, not the next author's
    name: the line over it ends in a comma, wrapped ("…, University of California," / "Los
    Angeles"); or an e-mail address alone under it closes an author's entry (name, affiliation's
    lines, address), so that it is a name only where the line over it closed the entry before
    ("Anna Berg" / "Department of Statistics" / "Example Tech" / "aberg@example.edu")."""
    if texts[index - 1].rstrip().endswith(","):
        return True
    return contact_alone(texts[index + 1]) and not contact_alone(texts[index - 1])


# a name's address on its row, then the next name (JMLR, PMLR: "Author One one@x.org and Author Two two@x.org")
_LEADING_CONTACT = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:,|;|&|\band\b)\s*")


def names_after_contact(content: str) -> str:
    """The names after the address that opens ``content``, where the text layer cut a row of
    names, each with its address beside it, after the first name: the block opens with that
    name's address and goes on with the next name, so it is no affiliation ("abc@sample.com and
    Author Name2"). Empty when anything but names follows the address."""
    match = _LEADING_CONTACT.match(content)
    rest = content[match.end() :].strip() if match else ""
    return rest if rest and "@" not in rest and len(rest) < 200 and mostly_names(rest) else ""


def contact_alone(text: str) -> bool:
    return "@" in text and len(text.split()) <= 2


# an institution's acronym: three capitals or more ("ENSIMAG", "INP", "CNRS")
_ACRONYM = re.compile(r"\b[A-Z]{3,}\b")


def _opens_with_acronym(text: str, above: list[str]) -> bool:
    """Whether ``text``, a line under names, is an acronym and one word in lower case after it, where
    no line of names over it prints a word in capitals ("Xavier Leroy" / "INRIA Rocquencourt"):
    an institute and its place, though it reads as a surname in capitals before a given name,
    which a byline that sets no surname so does not write ("MORTELLITE Kelly" under a line that
    ends with a joiner goes on with the names, :func:`_byline_goes_on`). Initials set without
    stops open a name of two words or more ("AKM Fazlul Haque", "ABM Khairul Islam")."""
    opening = re.fullmatch(r"\s*(?![IVX]+\b)[A-Z]{3,}\s+[A-Z][a-zß-ÿ'’-]+\s*", text)
    return opening is not None and not any(_ACRONYM.search(line) for line in above)


_NAME_BREAK = re.compile(rf"[\d,;·⋅{MARKS}]|\band\b|&")


def names_text(block: Block) -> str:
    """A block of names as one line; a line break is a comma where it falls between two whole
    names, each of two words or more and set without a mark (``Nathan Dahlberg`` /
    ``Margo Schlanger♦``), before a group under names with marks (``Carl Dahl2`` / ``the ABC
    Study Group``) or where the line lies in another column than the line over it
    (:func:`_column_apart`), not inside one name (``Hannah`` / ``M. McGee``). A line that is a date alone
    is no name's ("SDC" / "November 2017" under a report's title: the place and the version's date)."""
    return _names_of_lines(block.lines)


def _names_of_lines(lines: list[Line]) -> str:
    """:func:`names_text` of some of a block's lines."""
    lines = [line for line in lines if not date_alone(line.text)]
    if not lines:
        return ""
    groups = [[without_contact(letters_closed_up(lines[0].text))]]
    for above, line in pairwise(lines):
        text = without_contact(letters_closed_up(line.text))
        ending = _NAME_BREAK.split(groups[-1][-1])[-1].split()
        opening = _NAME_BREAK.split(text)[0].split()
        whole = groups[-1][-1][-1:].isalpha() and len(ending) >= 2 and len(opening) >= 2 and not lost_mark(groups[-1][-1])
        between = whole and all(word[:1].isupper() or word in PARTICLES for word in ending + opening)
        if between or _column_apart(above, line) or group_under_marked_names(text, line.size, groups[-1][-1], above.size):
            groups.append([text])
        else:
            groups[-1].append(text)
    return ", ".join(blk.join_lines(group) for group in groups)


def _column_apart(above: Line, line: Line) -> bool:
    """Whether ``line`` lies wholly beside the line over it, in another column: the text layer read
    a grid of authors' boxes row by row across the columns ("Johannes Braams" at the right, then
    "TEXnique", the left-hand author's firm, on the row under it), where a name wrapped goes on
    under the words it wraps from; so the line opens another entry, never a name's second half. It
    stands on the next row, a column's gap (:data:`_COLUMN_GAP`) away: pieces of one row that the
    text layer cut apart ("Anna" and "BERG" in small capitals) are one name. The line
    over it opens an entry itself, with a capital: one that opens with a comma or "and" is the tail of a
    centred row the text layer cut at a mark (", Benjamin Charles Germain" over "Lee⁴"), which the
    next row may well start left of; nor may it end in an initial or what joins two names (" S. Y." over
    "CHEN PhD¹": the name goes on)."""
    upper = above.text.strip()
    whole = bool(re.match(r"[A-Z]", upper)) and not _ENTRY_GOES_ON.search(upper)
    gap = max(above.x0 - line.x1, line.x0 - above.x1)
    next_row = line.top >= above.bottom - _ROW_OVERLAP * line.size  # not a piece of the same row cut at a font or a mark
    return whole and next_row and gap >= _COLUMN_GAP * line.size


#: the gap between two columns of a byline's grid, in ems: more than a centred row's tail cut at its mark leaves
#: ("Eva Maria" over "Lund³" a word's width to its left; ntgclass's columns stand 7.5 ems apart)
_COLUMN_GAP = 3.0
#: how far a line on the next row may reach up into the line over it, in ems
_ROW_OVERLAP = 0.25


# the end of a line that goes on over the next: an initial, a comma, a semicolon, "and", "&"
_ENTRY_GOES_ON = re.compile(r"(?:\b[A-Z]\.|[,;&]|\band)$")


# a name's marks after it, set close, a space apart or after its comma ("Berg1,2", "Berg 1*", "Berg,1 Carl"),
# then what joins it to the next name
_MARKED_NAME = re.compile(rf"[^\W\d_]\.?,?\s?[\d{MARKS}][\d,{MARKS}]*(?:\s*(?:[,;·&]|\band\b)|\s+[A-Z])")
# what ends a byline's line that goes on over the next: a comma, a semicolon, a middle dot, "and", "&", a
# name's marks after its comma ("Anna Berg, MD,2" / "Carl Dahl, MD,1")
_JOINER_AT_END = re.compile(rf"(?:[,;·&]|\band|[^\W\d_],\s?[\d{MARKS}][\d,{MARKS}]*)$")


def _byline_goes_on(line: str) -> bool:
    """Whether the byline goes on from ``line`` to the next line: it ends in what joins two names,
    or in a name cut at its end (:func:`_lost_mark`); the next line is more names, though a
    surname in capitals reads as an institution's acronym ("…, Hardik K. Patel2," / "MORTELLITE
    Kelly1, …")."""
    line = line.rstrip()
    cut = line[-1:].isalpha() or bool(re.search(r"\b[A-Z]\.$", line))  # a given name or an initial: "Margaret K."
    return bool(_JOINER_AT_END.search(line)) or (cut and lost_mark(line))


def lost_mark(line: str) -> bool:
    """Whether ``line``, a byline's line that ends in a name without marks, sets marks after the
    names before it: the last name goes on over the line's end, its marks after its next word
    ("… Hiroshi Takashima3 and María Dolores" / "Albaladejo Otón1,2*"); a line of names
    without marks breaks between whole names."""
    return bool(_MARKED_NAME.search(line))


# an e-mail address in brackets after a name: "Anna Berg (aberg@example.org)", "Anna Berg <aberg@example.org>"
_CONTACT = re.compile(r"\s*[(<\[]\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*[)>\]]")
# one after the name's comma, perhaps before the next name on the row: "Boris Veytsman, borisv@lk.net   Leila …"
_CONTACT_AFTER_COMMA = re.compile(r"(?<=[^\W\d_.]),\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+,?(?=\s|$)")


def without_contact(text: str) -> str:
    """A line of names without the e-mail address in brackets or after a comma after each
    (``\\author{Anna Berg (\\texttt{aberg@example.org}) \\\\ Carl Dahl (…)}``, ``\\author{Anna Berg,
    \\texttt{aberg@example.org} \\and Carl Dahl}``, as vignettes print it): the address is the
    author's contact, not an affiliation that ends the names, and no part of a name. A line of
    the address alone is kept as it is: under a name, it reads as the name's address."""
    bare = _CONTACT.sub("", text).strip()
    after_comma = _CONTACT_AFTER_COMMA.sub(",", bare)
    bare = after_comma.strip(" ,") if after_comma != bare else bare  # a line's own closing comma stays: it wraps
    return bare or text.strip()
