"""Authors' affiliations from the title page: the institutions printed under the names, each
given to the authors whose marks point at it.

The affiliation lines follow the author names on the first page, before the abstract or the
first heading, and stop at the correspondence, dates (a date alone on a line too: the date
article's ``\\maketitle`` sets under the addresses), editor or licence. A line of the authors'
names among them ("Wolfram Stacklies and Henning Redestig" over "CAS-MPG Partner Institute …"
in one block) is no address. An affiliation starts at its number or mark, printed in front of
it ("1 Bioinformatics and ...", "2. Center for ...", "(2) Center for ...", "2Boston University"
with the number glued to the first word, or a superscript set apart as its own tiny block just
left of the line); lines without one continue it. Each author's marks are the digits and
symbols printed right after the name ("O'Connell1,2", "De Marchis1,2,3*", "Wimmer(1,2)∗"),
or set apart on the names' row by the text layer, one block of marks to each name in turn.
Without numbering, names and addresses set in turn give each author the address under the
name, in its column (:func:`_in_turn`), and a line that opens with an author's name gives that
author the address after it (:func:`_opening_names`: "Andrew Baumann, Microsoft Research");
else a single affiliation is every author's, a corresponding author's star aside; marks that
point nowhere give nothing. A corresponding author's line under the names does not end the
affiliations set under it. Where the affiliations are keyed by letters (Elsevier's
"Anna Berga,b" over "aDepartment …" / "b …"), each author gets those of the letters after the
name, the letters stripped. Where the title page prints none, the "Author details" list at the
end or the page's foot gives them (:mod:`.affiliations_elsewhere`), by the same marks.

The authors' e-mail addresses are read from the same page (:func:`attach_emails`): each goes to
the author it names, and none where that is unsure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from paperpyramid.dates import date_alone
from paperpyramid.document import Author
from paperpyramid.parsers.embedded.affiliations_elsewhere import affiliations_elsewhere
from paperpyramid.parsers.embedded.author_names import mostly_names, split_names
from paperpyramid.parsers.embedded.authors import letter_keys
from paperpyramid.parsers.embedded.blocks import KNOWN_HEADINGS, Block
from paperpyramid.parsers.embedded.layout import Line

_INSTITUTION = re.compile(
    r"\b(universit|institut|departament|department|dept\b|school|college|laborator|hospital|centre|center|faculty|division|academy|"
    r"corporation|clinic|ministry|group|research|council|foundation|inc\b|ltd\b|gmbh)",
    re.I,
)
# where the affiliations end: correspondence, e-mail, dates, editor, licence, keywords, a document's version
# ("v1.1.0", F1000Research's "v2", "This version was compiled on …"), Elsevier's article-info box and its
# letterspaced "A B S T R A C T"
_END = re.compile(
    r"^\s*\(?(\*|✉|correspond|received|accepted|published|submitted|academic editor|edited by|editor\b|copyright|©|"
    r"citation|open access|key ?words|how to cite|first published|abstract|summary|background|v(?:ersion)?\s?\d+(?:\.\d+)*\s*$"
    r"|this version\b|article info\b|a b s t r a c t\b)",
    re.I,
)
# the corresponding author's line, which ends the affiliations after them, not before them
_CONTACT = re.compile(r"^\s*\(?(?:\*|✉|correspond)", re.I)
_SYMBOLS = "*†‡§¶#∗♦♣♠♢♡♥◇⋆+"
# an affiliation's mark where it starts: "1 Bioinformatics", "2. Center", "†Allen", "αAllen"
_START = re.compile(rf"(?:^|(?<=[\s,;]))(?P<mark>\d{{1,2}}(?=\.?\s)|[{_SYMBOLS}]|[α-ω](?=[A-Z]))\.?\s*(?=[A-Z])")
_MARK_BLOCK = re.compile(rf"^\s*(\d{{1,2}}|[{_SYMBOLS}a-h])\s*$")
# the marks of one name, set apart from it: "1", "1,2", "2*"
_MARKS_APART = re.compile(rf"^\s*[\d{_SYMBOLS}](?:[\d,{_SYMBOLS}\s]*[\d{_SYMBOLS}])?\s*$")
# a line's number glued to the place's first word by the text layer ("2Boston University", an acronym
# too: "3AAS Journals"), or in brackets ("(2) MC-Health"): read as "2 Boston University"
_LINE_MARK = re.compile(r"^(?:(\d{1,2})(?=[A-Z][A-Za-z])|\((\d{1,2})\)\s*)")
_AUTHOR_MARKS = rf"[\d,(){_SYMBOLS}α-ω]"  # in brackets too: "Wimmer(1,2)∗"
# names read into an affiliation (an author grid read across): "… for AI Doug Downeyα,η Luca …"
_NAMES = re.compile(rf"\s(?=(?:[A-Z](?:[a-z][\w’'-]*|\.)\s+){{1,3}}[A-Z][\w’'-]*[a-z][α-ω{_SYMBOLS}\d])")


def attach_affiliations(
    authors: Sequence[Author], blocks: list[Block], title_end: int, body_size: float, page_heights: Mapping[int, float]
) -> None:
    """Set ``author.affiliation`` from the title page's affiliation lines (see the module); where
    it has none, from those printed elsewhere, read with the body's size and the pages' heights
    by their number (:func:`.affiliations_elsewhere.affiliations_elsewhere`)."""
    if not authors or title_end < 0:
        return
    keys = "".join(sorted(letter_keys(blocks, title_end)))
    entries, zone, owned = _entries(blocks, title_end, {author.name for author in authors}, keys)
    attach_emails(authors, blocks, title_end, zone)
    elsewhere = not entries
    page_height = page_heights[blocks[title_end].page]
    entries = entries or affiliations_elsewhere(blocks, title_end, body_size, page_height)  # none under the names: BMC's and Springer's
    if not entries:
        return
    if list(entries) == [None]:
        # unmarked: each author's under the name where names and addresses are set in turn; else one
        # affiliation, everybody's, unless the names carry marks it does not show; the one in the page's
        # foot is everybody's unless they carry numbers, their symbols being the foot's notes (BMC's
        # "Anna Berg†, Carl Dahl* and Eva Lind*": equal contribution, correspondence)
        if owned or not (_numbered(authors, zone) if elsewhere else _keyed(authors, zone)):
            for author in authors:
                author.affiliation = author.affiliation or owned.get(author.name) or entries[None]
        return
    for author in authors:
        found = [entries[mark] for mark in _marks_of(author.name, zone) if mark in entries]
        found += [entries[mark] for mark in _letters_of(author.name, zone, keys) if mark in entries]
        if found and not author.affiliation:
            author.affiliation = "; ".join(dict.fromkeys(found))


# an e-mail address, or a braced group of local parts sharing one domain ("{anna,carl}@x.org"); a
# footnote's digit glued in front by the text layer is no part of it ("1sanders@fs.tum.de")
_EMAIL = re.compile(
    r"\{(?P<group>[\w.+-]+(?:\s*[,;|]\s*[\w.+-]+)+)\}\s?@\s?(?P<domain>[\w-]+(?:\.[\w-]+)+)|(?<![\w.+-])\d?(?P<one>[A-Za-z_][\w.+-]*@[\w-]+(?:\.[\w-]+)+)"
)
#: the most characters between a corresponding author's label and the address it gives ("∗Corresponding
#: author. Tel.: +1 555 0100; fax: … E-mail address: …")
_CONTACT_SPAN = 160
# the owner named in brackets after an address: "(Alina G. Meresescu)", "(M.-S.H.)"
_OWNER = re.compile(r"\s?\((?P<owner>[^()@]{2,60})\)")


def attach_emails(authors: Sequence[Author], blocks: list[Block], title_end: int, zone: str = "") -> None:
    """Set ``author.email`` from the addresses printed on the title page: each to the author
    named in brackets after it, or whose name or initials its local part spells
    ("meresescu", "jsmith", "a.berg"); a braced group's in order where it holds one per author
    and names nobody else; a corresponding author's line with one address, under names of
    which one alone is starred, to that author, where the address follows the line's label
    closely (:data:`_CONTACT_SPAN`; not a publisher's "journals.permissions@…" in the page's
    licence). Nothing where the owner is unsure (two authors match, or none)."""
    if not authors or title_end < 0:
        return
    page = blocks[title_end].page
    text = _spelled_out(" ".join(block.text for block in blocks[title_end + 1 :] if block.page == page))
    if "@" not in text:
        return
    given: dict[int, str] = {}
    loose: list[str] = []
    for found in _EMAIL.finditer(text):
        if found.group("group"):
            locals_ = [part.strip() for part in re.split(r"[,;|]", found.group("group"))]
            owners = [_owner_by_local(local, authors) for local in locals_]
            if len(locals_) == len(authors) and all(owner in (None, index) for index, owner in enumerate(owners)):
                owners = list(range(len(authors)))
            for local, owner in zip(locals_, owners, strict=True):
                if owner is not None:
                    given.setdefault(owner, f"{local}@{found.group('domain')}")
            continue
        address = found.group("one").rstrip(".")
        named = _OWNER.match(text, found.end())
        owner = _owner_by_name(named.group("owner"), authors) if named else None
        owner = owner if owner is not None else _owner_by_local(address.split("@")[0], authors)
        if owner is None:
            loose.append(address)
        elif address not in given.values():
            given.setdefault(owner, address)
    starred = [index for index, author in enumerate(authors) if set(_marks_of(author.name, zone)) & {"*", "∗"}]
    labelled = len(loose) == 1 and re.search(rf"(?:correspond|[*∗]).{{0,{_CONTACT_SPAN}}}{re.escape(loose[0])}", text, re.I | re.S)
    if labelled and not given and len(starred) == 1:
        given[starred[0]] = loose[0]
    for index, address in given.items():
        authors[index].email = authors[index].email or address


def _folded(text: str) -> str:
    """Lower case, accents and marks off: the letters an e-mail's local part spells a name with."""
    return re.sub(r"[^a-z]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())


def _owner_by_local(local: str, authors: Sequence[Author]) -> int | None:
    """The one author whose name the local part spells: a whole part of the name ("meresescu",
    "alireza.gharabaghi"; a compound surname run together, "demarchis"), or the initials before
    the surname ("jsmith", "j.a.smith"), or the surname and first initial ("smithj")."""
    pieces = {_folded(piece) for piece in re.split(r"[._+-]", local) if len(_folded(piece)) >= 3}
    whole = _folded(local)
    matches = []
    for index, author in enumerate(authors):
        words = [_folded(word) for word in re.split(r"[\s.-]+", author.name) if _folded(word)]
        if not words:
            continue
        surname = words[-1]
        compound = "".join(words[1:]) if len(words) > 2 else ""
        spelled = {word for word in words if len(word) >= 3} | ({compound} if compound else set())
        initials = "".join(word[0] for word in words[:-1])
        every = initials + surname[0]  # all the initials: "jcc" for John C. Collins
        if (
            spelled & pieces
            or whole in {initials + surname, initials[:1] + surname, surname + initials[:1], "".join(words)}
            or (len(every) >= 3 and whole == every)
        ):
            matches.append(index)
    return matches[0] if len(matches) == 1 else None


def _owner_by_name(owner: str, authors: Sequence[Author]) -> int | None:
    """The author named in brackets after an address, by the name or its initials ("M.-S.H.")."""
    folded = _folded(owner)
    capitals = re.sub(r"[^A-Z]", "", owner)
    found = [
        index
        for index, author in enumerate(authors)
        if folded == _folded(author.name)
        or (len(capitals) >= 2 and capitals == re.sub(r"[^A-Z]", "", author.name) and folded == capitals.lower())
    ]
    return found[0] if len(found) == 1 else None


def _keyed(authors: Sequence[Author], zone: str) -> bool:
    """Whether the names carry marks that key affiliations: any but a star on one name alone,
    which marks the corresponding author ("Anna Berg and Carl Dahl∗"); keys come in a series."""
    marks = [_marks_of(author.name, zone) for author in authors]
    marked = [found for found in marks if found]
    return bool(marked) and not (len(marked) == 1 and set(marked[0]) <= {"*", "∗"})


def _numbered(authors: Sequence[Author], zone: str) -> bool:
    """Whether any name carries a number among its marks ("Din1*"): the affiliations are numbered."""
    return any(mark.isdigit() for author in authors for mark in _marks_of(author.name, zone))


def _entries(blocks: list[Block], title_end: int, names: set[str], keys: str) -> tuple[dict[str | None, str], str, dict[str, str]]:
    """The affiliations by their mark (``None``: unmarked), the author zone's text, and each
    author's address where they are set in turn (:func:`_in_turn`); a line of the authors'
    ``names`` is the zone's wherever it comes (names over their address in one block, a name
    under an address set above it), never an address's. Where the affiliations are keyed by
    letters (``keys``: Elsevier's "aDebian Project, …" / "a Department of …"), a line that opens
    with one starts an affiliation, an institution word or not."""
    keyed = re.compile(rf"^([{keys}])\s?(?=[A-Z][A-Za-z])") if keys else None
    title = blocks[title_end]
    page_blocks = [block for block in blocks[title_end + 1 :] if block.page == title.page]
    markers = [block for block in page_blocks if _MARK_BLOCK.match(block.text)]
    zone: list[str] = []
    stream: list[str] = []
    named: list[tuple[Line, list[str]]] = []  # the lines of names, with the names
    placed: list[tuple[Line, str]] = []  # the address lines, with their text
    led: dict[str, list[str]] = {}  # each author's address lines, where a line opens with the author's name
    owners: list[str] = []  # the names that opened the last such line
    apart: list[Block] = []  # marks put back after the names they follow (:func:`_marks_set_apart`)
    for block in page_blocks:
        text = block.text.strip()
        if any(block is mark for mark in apart):
            continue
        if block.kind == "title" or _MARK_BLOCK.match(text):
            if not stream and _MARK_BLOCK.match(text):
                zone.append(text)  # a name's mark set apart: "Zejiang Shen" "1"
            continue
        known = block.kind == "heading" and (
            block.title.lower().strip(" .:") in KNOWN_HEADINGS or (block.number is not None and not _INSTITUTION.search(text))
        )  # "1 Allen Institute for AI" set as a numbered heading is an affiliation
        if known or block.kind in ("caption", "formula") or (stream and block.kind == "heading" and not _INSTITUTION.search(text)):
            break  # names set in a heading's style are not yet told from headings: they stay in the zone
        if not stream:
            if _prose(text) and not (_START.match(text) or _LINE_MARK.match(text)):
                break  # the abstract or the body, unlabelled: a "research" in its sentences starts no affiliation
            # where places are keyed by letters, a block that opens with none and names two authors is the
            # byline, whatever its roles say (cas-dc: "Sir J.K. Krishnana,c,∗,1 (Researcher), Han Thaneb,d, …")
            byline = keyed is not None and not keyed.match(text) and sum(name in text for name in names) >= 2
            if byline or not (_INSTITUTION.search(text) or _START.match(text) or (keyed and keyed.match(text))):
                marked, found = _marks_set_apart(block, page_blocks)
                zone.append(marked)
                apart += found
                named += [(line, split_names(line.text)) for line in block.lines if _names_line(line.text, names)]
                if len(zone) > 12:
                    return {}, "", {}
                continue
        elif len(text) > 400 or (len(block.lines) > 3 and not _INSTITUTION.search(block.lines[0].text)):
            break  # the abstract, run in without a heading
        ended = False
        for line in block.lines:
            if _END.match(line.text) or date_alone(line.text):
                if not stream and _CONTACT.match(line.text):
                    continue  # a corresponding author's line between the names and the affiliations under it
                ended = True
                break
            if _names_line(line.text, names):
                zone.append(line.text)
                named.append((line, split_names(line.text)))
                continue
            bare, opening = _opening_names(line.text, names)
            owners = opening or owners
            text = _LINE_MARK.sub(lambda found: f"{found.group(1) or found.group(2)} ", _without_emails(bare))
            text = keyed.sub(r"\1", text) if keyed else text  # "a Department" as "aDepartment": one form to cut at
            if not text:
                continue
            mark = next((m.text.strip() for m in markers if abs(m.top - line.top) <= 4 and 0 <= line.x0 - m.lines[-1].x1 < 12), None)
            stream.append(f"{mark} {text}" if mark is not None and not _START.match(text) else text)
            placed.append((line, text))
            for owner in owners:
                led.setdefault(owner, []).append(text)
        if ended:
            break
    if names <= set(led):  # every author's name opens the address lines that follow it
        return _split(" ".join(stream), keys), " ".join(zone), {name: " ".join(lines).strip(" ,;") for name, lines in led.items()}
    return _split(" ".join(stream), keys), " ".join(zone), _in_turn(named, placed, names)


def _marks_set_apart(block: Block, page_blocks: list[Block]) -> tuple[str, list[Block]]:
    """The text of a block of names with the marks that the text layer set apart on a line's row,
    as blocks of their own, put back after the names in turn (F1000Research's "Bryan S. Frazier ,
    William B. Driggers III" with a "1" and a "2" over the gaps before the commas), where the row
    holds as many as the line names; and those blocks. Else the block's text, and none."""
    texts: list[str] = []
    found: list[Block] = []
    for line in block.lines:
        row = sorted(
            (
                other
                for other in page_blocks
                if other is not block
                and _MARKS_APART.match(other.text)
                and abs(other.top - line.top) < 0.5 * line.height
                and line.x0 < other.x0
                and other.x1 <= line.x1 + 1
            ),
            key=lambda other: other.x0,
        )
        people = split_names(line.text)
        if row and len(row) == len(people):
            texts.append(", ".join(f"{person}{''.join(mark.text.split())}" for person, mark in zip(people, row, strict=True)))
            found += row
        else:
            texts.append(line.text)
    return (" ".join(texts), found) if found else (block.text.strip(), [])


def _prose(text: str) -> bool:
    """Whether ``text`` is a paragraph of sentences: long, and most of its words in lower case,
    as no list of names or of institutions is (Scientific Reports' unlabelled abstract and
    introduction under the names, the affiliations at the page's foot)."""
    words = text.split()
    return len(text) > 400 and sum(word[:1].islower() for word in words) > 0.5 * len(words)


def _in_turn(named: list[tuple[Line, list[str]]], placed: list[tuple[Line, str]], names: set[str]) -> dict[str, str]:
    """Each author's address where names and addresses are set in turn, each address under its
    names in their column (article's ``\\author{A \\\\ Univ. X \\and B \\\\ Univ. Y}``, jss.cls's grid
    of names over addresses, a template's name over its address): an address line is the names'
    nearest above it that it overlaps across. Empty unless two lines of names or more each have
    address lines of their own, every address line has its names and every author is among them."""
    if len(named) < 2:
        return {}
    lines_of: dict[int, list[str]] = {}
    for line, text in placed:
        above = [
            index
            for index, (names_line, _) in enumerate(named)
            if names_line.top < line.top and names_line.x0 < line.x1 and line.x0 < names_line.x1
        ]
        if not above:
            return {}
        lines_of.setdefault(max(above, key=lambda index: named[index][0].top), []).append(text)
    if len(lines_of) < len(named):
        return {}
    owned = {name: " ".join(lines_of[index]).strip(f" ,;{_SYMBOLS}") for index, (_, people) in enumerate(named) for name in people}
    return owned if names <= set(owned) else {}


def _names_line(text: str, names: set[str]) -> bool:
    """Whether ``text`` is a line of the authors' ``names`` alone, with their marks ("Wolfram
    Stacklies and Henning Redestig", "Sebastian Meyer∗")."""
    found = split_names(text)
    return bool(found) and set(found) <= names and mostly_names(text)


def _opening_names(text: str, names: set[str]) -> tuple[str, list[str]]:
    """An address line without the authors' names that open it before a comma, and those names
    ("Andrew Baumann, Microsoft Research"; ACM's "LARS THØRVÄLD, The Thørväld Group, Iceland"):
    the names are the byline's, read there; the address is the rest, theirs."""
    parts = text.split(",")
    lead: list[str] = []
    while len(lead) < len(parts) - 1 and (found := split_names(parts[len(lead)])) and set(found) <= names:
        lead.append(parts[len(lead)])
    return (",".join(parts[len(lead) :]).strip(), [name for part in lead for name in split_names(part)]) if lead else (text, [])


def _without_emails(text: str) -> str:
    """A line without its e-mail addresses ("Italy; E-Mails: a@b.it (A.B.)" -> "Italy"), and the
    owner's initials in brackets after each ("Korea; ab@skku.edu (M.-S.H.)" -> "Korea"); what
    is left of a line of addresses alone (an underscore read as a space leaves pieces) goes too."""
    text = _spelled_out(text)
    kept = re.split(r"\b(?:e-?mails?|email addresses)\b\s*:?", re.sub(r"\{[^}]*\}\S*", " ", text), maxsplit=1, flags=re.I)[0]
    kept = re.sub(r"(?<=\S@\S)(\S*)\s*\([A-Z][A-Z.\s-]{0,15}\)", r"\1", kept)
    kept = " ".join(word for word in kept.split() if "@" not in word and "{" not in word and "}" not in word)
    if kept.strip() == text.strip():
        return kept.strip()
    return kept.strip(" ;,") if any(word[:1].isupper() for word in kept.split()) else ""


# an address spelled out against harvesters: "jcc8 at psu dot edu", "t68 at nikhef dot nl"
_SPELLED = re.compile(r"\b([\w.+-]+) at ([\w-]+(?: dot [\w-]+)+)\b")


def _spelled_out(text: str) -> str:
    """``text`` with each spelled-out address written as one ("jcc8 at psu dot edu" -> "jcc8@psu.edu")."""
    return _SPELLED.sub(lambda found: f"{found.group(1)}@{found.group(2).replace(' dot ', '.')}", text) if " dot " in text else text


def _split(text: str, keys: str) -> dict[str | None, str]:
    """The stream of affiliation lines cut at each mark; a key letter marks one only glued to
    the place's first word ("bNICTA, … cQueensland University"), as a word "a" never is."""
    text = " ".join(text.split())
    start = re.compile(rf"{_START.pattern}|(?:^|(?<=[\s,;]))(?P<letter>[{keys}])(?=[A-Z][A-Za-z])") if keys else _START
    starts = list(start.finditer(text))
    if not starts:
        return {None: text.strip(" ,;")} if text else {}
    entries: dict[str | None, str] = {}
    if starts[0].start() > 0:
        entries[None] = text[: starts[0].start()].strip(" ,;")
    for index, match in enumerate(starts):
        stop = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        piece = _NAMES.split(text[match.end() : stop], maxsplit=1)[0].strip(" ,;")
        if piece:
            entries[match.group("mark") or match.group("letter")] = piece
    return entries


def _marks_of(name: str, zone: str) -> list[str]:
    """The marks printed right after ``name`` in the author zone ("Webb1", "O'Connell1,2"): after
    the whole name where the zone prints it, as co-authors of one surname need ("Gabriel M.
    Leal1,2, Walter S. Leal1"), else after the surname; past an ORCID badge set as text
    between them ("Da-zhuo ShiID1,2*", "Anna Berg iD 1")."""
    for written in (name, name.split()[-1]):
        match = re.search(rf"{re.escape(written)}(?:\s?iD)?\s*(?P<marks>{_AUTHOR_MARKS}+)", zone, re.I)
        if match:
            return re.findall(rf"\d{{1,2}}|[{_SYMBOLS}α-ω]", match.group("marks"))
    return []


def _letters_of(name: str, zone: str, keys: str) -> list[str]:
    """The key letters printed right after ``name`` in the author zone, glued or a space apart
    ("Berga,b", "Collins a and"): a letter that no word goes on from."""
    if not keys:
        return []
    surname = name.split()[-1]
    match = re.search(rf"{re.escape(surname)}\s?(?P<marks>(?:[{keys}](?![A-Za-z])|[,*∗†‡]\s?(?=[{keys}*∗†‡]))+)", zone)
    return re.findall(rf"[{keys}]", match.group("marks")) if match else []


__all__ = ["attach_affiliations", "attach_emails"]
