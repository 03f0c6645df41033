"""Authors' affiliations from the title page: the institutions printed under the names, each
given to the authors whose marks point at it.

The affiliation lines follow the author names on the first page, before the abstract or the
first heading, and stop at the correspondence, dates (a date alone on a line too: the date
article's ``\\maketitle`` sets under the addresses), editor or licence. A line of the authors'
names among them ("Wolfram Stacklies and Henning Redestig" over "CAS-MPG Partner Institute …"
in one block) is no address. An affiliation starts at its number or mark, printed in front of
it ("1 Bioinformatics and ...", "2. Center for ...", "(2) Center for ...", AIP's "1)Authors'
institution", "2Boston University" with the number glued to the first word, or a superscript set
apart as its own tiny block just left of the line); lines without one continue it; where none
opens with a mark, the symbols after each close it (ACM SIGPLAN's "Mozilla Corporation∗" /
"Adobe Corporation#": :func:`_closed_by_marks`). Each author's marks are the digits and
symbols printed right after the name ("O'Connell1,2", "De Marchis1,2,3*", "Wimmer(1,2)∗"),
or set apart on the names' row by the text layer, one block of marks to each name in turn.
Without numbering, names and addresses set in turn give each author the address under the
name, in its column (:func:`_in_turn`), and a line that opens with an author's name gives that
author the address after it (:func:`_opening_names`: "Andrew Baumann, Microsoft Research");
else a single affiliation is every author's, a corresponding author's star aside and the symbols
that key the page's notes (REVTeX's and The American Naturalist's "Yves Roisin* and Serge Aron†"
over one address, the foot giving their e-mail addresses); marks that point nowhere give nothing.
A note keyed so that gives a place adds it to its author's ("† Also at Physics Department, XYZ
University.": :func:`_add_noted_places`). A corresponding author's line under the names does not
end the affiliations set under it, and a collaboration under its members' address ("(MUSO
Collaboration)") is none of it. Where the affiliations are keyed by letters (Elsevier's
"Anna Berga,b" over "aDepartment …" / "b …"), each author gets those of the letters after the
name, the letters stripped. Where the title page prints none, the "Author details" list at the
end or the page's foot gives them (:mod:`.affiliations_elsewhere`), by the same marks, and where
the article gives none by then, the addresses amsart prints after the references
(:func:`_add_closing_places`).

The authors' e-mail addresses are read from the same page (:func:`attach_emails`): each goes to
the author it names, or to the one author whose symbol keys the note that gives it, and none
where that is unsure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from paperpyramid.dates import date_alone
from paperpyramid.document import Author
from paperpyramid.parsers.embedded.affiliations_elsewhere import affiliations_elsewhere
from paperpyramid.parsers.embedded.author_names import group_name, mostly_names, split_names
from paperpyramid.parsers.embedded.authors import letter_keys, mentions_version
from paperpyramid.parsers.embedded.blocks import KNOWN_HEADINGS, Block, join_lines
from paperpyramid.parsers.embedded.closing_addresses import closing_addresses, lower_case_words
from paperpyramid.parsers.embedded.institutions import names_institution
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.title_notes import symbol_notes

_INSTITUTION = re.compile(
    r"\b(universit|institut|departament|department|dept\b|school|college|laborator|hospital|centre|center|faculty|division|academy|"
    r"corporation|clinic|ministry|group|research|council|foundation|inc\b|ltd\b|gmbh)",
    re.I,
)
# where the affiliations end: correspondence, e-mail, dates, editor, licence, keywords, a document's version
# ("v1.1.0", F1000Research's "v2", "This version was compiled on …"; a vignette's "For gnm version 1.1-2,
# 2022-04-29" and "Version 3.5, October 23, 2022": :func:`.authors.mentions_version`), Elsevier's
# article-info box and its letterspaced "A B S T R A C T"
_END = re.compile(
    r"^\s*\(?(\*|✉|correspond|received|accepted|published|submitted|academic editor|edited by|editor\b|copyright|©|"
    r"citation|open access|key ?words|how to cite|first published|abstract|summary|background|v(?:ersion)?\s?\d+(?:\.\d+)*\s*$"
    r"|this version\b|article info\b|a b s t r a c t\b)",
    re.I,
)
# the corresponding author's line, which ends the affiliations after them, not before them
_CONTACT = re.compile(r"^\s*\(?(?:\*|✉|correspond)", re.I)
_SYMBOLS = "*†‡§¶‖#∗♦♣♠♢♡♥◇⋆+$"
# an affiliation's mark where it starts: "1 Bioinformatics", "2. Center", "†Allen", "αAllen"
_START = re.compile(rf"(?:^|(?<=[\s,;]))(?P<mark>\d{{1,2}}(?=\.?\s)|[{_SYMBOLS}]|[α-ω](?=[A-Z]))\.?\s*(?=[A-Z])")
_MARK_BLOCK = re.compile(rf"^\s*(\d{{1,2}}|[{_SYMBOLS}a-h])\s*$")
# the marks of one name, set apart from it: "1", "1,2", "2*"
_MARKS_APART = re.compile(rf"^\s*[\d{_SYMBOLS}](?:[\d,{_SYMBOLS}\s]*[\d{_SYMBOLS}])?\s*$")
# a line's number glued to the place's first word by the text layer ("2Boston University", an acronym
# too: "3AAS Journals"), or in brackets ("(2) MC-Health"), or closed by one (REVTeX's AIP substyles:
# "1)Authors' institution"): read as "2 Boston University"
_LINE_MARK = re.compile(r"^(?:(\d{1,2})(?=[A-Z][A-Za-z])|\((\d{1,2})\)\s*|(\d{1,2})\)\s*(?=[A-Z]))")
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
    page_height = page_heights[blocks[title_end].page]
    notes = symbol_notes(blocks, title_end, body_size, page_height)
    attach_emails(authors, blocks, title_end, zone, notes)
    elsewhere = not entries
    entries = entries or affiliations_elsewhere(blocks, title_end, body_size, page_height)  # none under the names: BMC's and Springer's
    # unmarked: each author's under the name where names and addresses are set in turn; else one
    # affiliation, everybody's, unless the names carry marks it does not show; the one in the page's
    # foot is everybody's unless they carry numbers, their symbols being the foot's notes (BMC's
    # "Anna Berg†, Carl Dahl* and Eva Lind*": equal contribution, correspondence)
    if list(entries) == [None] and (owned or not (_numbered(authors, zone) if elsewhere else _keyed(authors, zone, notes))):
        for author in authors:
            author.affiliation = author.affiliation or owned.get(author.name) or entries[None]
    for author in authors:
        found = [entries[mark] for mark in _marks_of(author.name, zone) if mark in entries]
        found += [entries[mark] for mark in _letters_of(author.name, zone, keys) if mark in entries]
        if found and not author.affiliation:
            author.affiliation = "; ".join(dict.fromkeys(found))
    _add_noted_places(authors, zone, {symbol: note for symbol, note in notes.items() if symbol not in entries})
    if not any(author.affiliation for author in authors):
        _add_closing_places(authors, closing_addresses(blocks, body_size))


def _add_closing_places(authors: Sequence[Author], closing: list[tuple[str, list[str]]]) -> None:
    """Give the authors the addresses that close the article (:func:`.closing_addresses.closing_addresses`):
    each in the authors' order where there are as many or more (an appendix's author's last),
    and no e-mail address under one names another author than the one at its place; one alone
    is every author's, and none without a contact line under it (a reference's last line read
    as an address, no address); else each address whose one e-mail address names an author goes
    to that author, with that e-mail address."""
    if len(closing) == 1 and not closing[0][1]:
        return
    listed = [_addresses(" ".join(contacts)) for _, contacts in closing]
    owners = [_owner_by_local(mails[0].split("@")[0], authors) if len(mails) == 1 else None for mails in listed]
    if len(closing) >= len(authors) and all(owner in (None, index) for index, owner in enumerate(owners[: len(authors)])):
        owners = list(range(len(authors)))
    elif len(closing) == 1:
        for author in authors:
            author.affiliation = closing[0][0]
        return
    for (place, _), mails, owner in zip(closing, listed, owners, strict=False):
        if owner is not None:
            authors[owner].affiliation = place
            authors[owner].email = authors[owner].email or (mails[0] if len(mails) == 1 else None)


# the words before a second place in a note: REVTeX's ``\altaffiliation[Also at ]{…}``, ``[Present address: ]``
_ALSO = re.compile(r"^(?:also\s+(?:at|with)|(?:present|current|permanent)\s+address)\b\s*:?\s*", re.I)
# a note's label: "Correspondence:", "E-mail:"
_LABELLED = re.compile(r"^[^\W\d_][\w\s-]{0,30}:")
# a telephone or fax number after a note's place ("…, Norway. Tel +47 …"), and all after it; not "Tel Aviv"
_PHONE = re.compile(r"[\s.,;]*\b(?:tel(?:ephone)?|phone|fax)\b\.?\s*:?\s*[+(\d].*$", re.I)


def _add_noted_places(authors: Sequence[Author], zone: str, notes: Mapping[str, str]) -> None:
    """Add to each author the places that the title page's notes give by a symbol the name
    carries (REVTeX's "Ann Author†" over "† Also at Physics Department, XYZ University."; a
    ``\\thanks`` note that is the author's address, "Anna Berg∗" over "∗ Department of …"), after
    the places read under the names (:func:`_noted_place`)."""
    for author in authors:
        places = [place for mark in _note_marks(author.name, zone) if mark in notes and (place := _noted_place(notes[mark]))]
        if places:
            author.affiliation = "; ".join(dict.fromkeys([*filter(None, [author.affiliation]), *places]))


def _noted_place(note: str) -> str:
    """The place a note gives, or empty: an institution's name and address, perhaps after "Also
    at" or "Present address", its e-mail address and telephone number aside, and no word in lower case but an institution's small words
    ("of", "and", "für"), as no sentence (a funder thanked, equal contribution, the
    corresponding author) and no collaboration ("Part of the … collaboration") is; not a labelled
    note ("Correspondence: …", BMC's, over the corresponding author's place read already)."""
    place = _PHONE.sub("", _ALSO.sub("", _without_emails(note).strip())).strip(" .;,(")
    if len(place) > 250 or _LABELLED.match(place) or not names_institution(place) or lower_case_words(place):
        return ""
    return place


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


def attach_emails(
    authors: Sequence[Author], blocks: list[Block], title_end: int, zone: str = "", notes: Mapping[str, str] | None = None
) -> None:
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
    for index, address in _noted_addresses(authors, zone, notes or {}).items():
        if address not in given.values():
            given.setdefault(index, address)
    for index, address in given.items():
        authors[index].email = authors[index].email or address


def _noted_addresses(authors: Sequence[Author], zone: str, notes: Mapping[str, str]) -> dict[int, str]:
    """The address of each note that gives one, by the index of the one author whose name carries
    the note's symbol (REVTeX: "Second Author‡" over "‡ Second.Author@institution.edu", where the
    address spells the names of two authors)."""
    given: dict[int, str] = {}
    for symbol, note in notes.items():
        addresses = _addresses(_spelled_out(note))
        bearers = [index for index, author in enumerate(authors) if symbol in _note_marks(author.name, zone)]
        if len(addresses) == 1 and len(bearers) == 1:
            given[bearers[0]] = addresses[0]
    return given


def _addresses(text: str) -> list[str]:
    """The e-mail addresses in ``text``, each one's alone (no braced group's)."""
    return [found.group("one").rstrip(".") for found in _EMAIL.finditer(text) if found.group("one")]


def _folded(text: str) -> str:
    """Lower case, accents and marks off: the letters an e-mail's local part spells a name with."""
    return re.sub(r"[^a-z]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())


def _owner_by_local(local: str, authors: Sequence[Author]) -> int | None:
    """The one author whose name the local part spells: a whole part of the name ("meresescu",
    "alireza.gharabaghi"; a compound surname run together, "demarchis"), or the initials before
    the surname ("jsmith", "j.a.smith"), or the surname and first initial ("smithj"), or the given
    name and the surname's initial ("larst" for Lars Thørväld, "borisv") where the given name has
    four letters or more and the local part no other character (a short one and a letter spell
    words and other names: "eval" is no Eva Lind's, "anne" no Ann Ek's)."""
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
            or (len(words[0]) >= 4 and local.lower() == words[0] + surname[:1])
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


def _keyed(authors: Sequence[Author], zone: str, notes: Mapping[str, str]) -> bool:
    """Whether the names carry marks that key affiliations: any but a star on one name alone,
    which marks the corresponding author ("Anna Berg and Carl Dahl∗"), and the symbols of the
    page's ``notes`` (REVTeX's and The American Naturalist's "Yves Roisin* and Serge Aron†" over
    one address, the foot's notes giving their e-mail addresses); keys come in a series."""
    marks = [[mark for mark in _marks_of(author.name, zone) if mark not in notes] for author in authors]
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
        if _ends_the_zone(block, text, bool(stream), names):
            break
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
            if _END.match(line.text) or date_alone(line.text) or mentions_version(line.text):
                if not stream and _CONTACT.match(line.text):
                    continue  # a corresponding author's line between the names and the affiliations under it
                ended = True
                break
            if _group_line(line.text):
                continue  # a collaboration under its members' address (REVTeX's "(MUSO Collaboration)"): no place
            if _names_line(line.text, names):
                zone.append(line.text)
                named.append((line, split_names(line.text)))
                continue
            bare, opening = _opening_names(line.text, names)
            owners = opening or _names_on_row(line, named) or owners
            text = _LINE_MARK.sub(lambda found: f"{found.group(1) or found.group(2) or found.group(3)} ", _without_emails(bare))
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
        return (
            _split(_joined_entries(stream, keys), keys),
            " ".join(zone),
            {name: join_lines(lines).strip(" ,;") for name, lines in led.items()},
        )
    return _split(_joined_entries(stream, keys), keys), " ".join(zone), _in_turn(named, placed, names)


def _joined_entries(lines: list[str], keys: str) -> str:
    """The stream's lines joined as text is, each line that opens with a mark apart from the line before it."""
    runs: list[list[str]] = []
    for text in lines:
        if not runs or _START.match(text) or (keys and re.match(rf"[{keys}][A-Z]", text)):
            runs.append([])
        runs[-1].append(text)
    return " ".join(join_lines(run) for run in runs)


def _ends_the_zone(block: Block, text: str, placed: bool, names: set[str]) -> bool:
    """Whether ``block`` ends the names and their affiliations: a caption, a formula, a known
    heading, a numbered one (not "1 Allen Institute for AI", an affiliation set so) or, once
    addresses were ``placed``, any heading without an institution (names set in a heading's style
    before them are not yet told from headings: they stay in the zone). A line of the authors'
    ``names`` taken for a numbered heading by its initial (REVTeX's "A. Author" read as a
    heading "A.") is none."""
    if block.kind in ("caption", "formula"):
        return True
    if block.kind != "heading" or _names_line(text, names):
        return False
    if block.title.lower().strip(" .:") in KNOWN_HEADINGS:
        return True
    return (block.number is not None or placed) and not _INSTITUTION.search(text)


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


def _group_line(text: str) -> bool:
    """Whether ``text`` is a group's name alone in brackets (REVTeX's ``\\collaboration``: "(MUSO
    Collaboration)" under its members' address)."""
    inner = re.fullmatch(r"\s*\((.+)\)\s*", text)
    return bool(inner and group_name(inner.group(1)))


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
    nearest above it that it overlaps across; a line of names right over another in its column,
    with no address between, shares that one's (acmart's box of two authors of one address:
    "Ben Trovato∗" / "G.K.M. Tobin∗" / … / "Institute for Clarity in Documentation"); a line of
    names with no address under it (a copyright's holders over the names and their addresses) is
    passed over. Empty unless two lines of names or more have address lines of their own, every
    address line has its names and every author has an address."""
    if len(named) < 2:
        return {}
    lines_of: dict[int, list[str]] = {}
    for line, text in placed:
        above = [index for index, (names_line, _) in enumerate(named) if names_line.top < line.top and _across(names_line, line)]
        if not above:
            return {}
        lines_of.setdefault(max(above, key=lambda index: named[index][0].top), []).append(text)
    if len(lines_of) < 2:
        return {}
    for index in sorted(range(len(named)), key=lambda index: -named[index][0].top):
        line = named[index][0]
        under = [other for other, (below, _) in enumerate(named) if _across(line, below) and 0 <= below.top - line.bottom < line.height]
        if index not in lines_of and len(under) == 1 and under[0] in lines_of:
            lines_of[index] = lines_of[under[0]]
    owned: dict[str, str] = {}
    for index, (_, people) in enumerate(named):
        for name in people if index in lines_of else []:
            owned.setdefault(name, join_lines(lines_of[index]).strip(f" ,;{_SYMBOLS}"))
    return owned if names <= set(owned) else {}


def _across(upper: Line, lower: Line) -> bool:
    """Whether two lines overlap across the page: one column's."""
    return upper.x0 < lower.x1 and lower.x0 < upper.x1


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


def _names_on_row(line: Line, named: list[tuple[Line, list[str]]]) -> list[str]:
    """The names read on the row of an address line that goes on from them after a comma, the
    text layer having cut the row there (ACM's journals: "BEN TROVATO∗" "and G.K.M. TOBIN∗"
    ", Institute for Clarity in Documentation, USA")."""
    if not line.text.lstrip().startswith(","):
        return []
    return [name for names_line, people in named if abs(names_line.top - line.top) < 0.5 * line.height for name in people]


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
        return _closed_by_marks(text)
    entries: dict[str | None, str] = {}
    if starts[0].start() > 0:
        entries[None] = text[: starts[0].start()].strip(" ,;")
    for index, match in enumerate(starts):
        stop = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        piece = _NAMES.split(text[match.end() : stop], maxsplit=1)[0].strip(" ,;")
        if piece:
            entries[match.group("mark") or match.group("letter")] = piece
    return entries


# a place's symbols after its last word, closing it (PLDI's "Mozilla Corporation∗" / "Adobe Corporation#")
_CLOSING = re.compile(rf"(?<=[^\W\d_])(?P<marks>[{_SYMBOLS}]+)(?=\s|$)")


def _closed_by_marks(text: str) -> dict[str | None, str]:
    """A stream of places without marks before them cut at the symbols after each, where two or
    more close one and the last closes the stream (ACM SIGPLAN: "Mozilla Corporation∗ … University
    of California, Irvine+", the names carrying "∗+"), each place keyed by its symbols; else the
    one place, unmarked, a symbol after its end dropped (REVTeX's "…, UK∗", the e-mail's note)."""
    text = text.strip(" ,;")
    closings = list(_CLOSING.finditer(text))
    closed = bool(closings) and closings[-1].end() == len(text)
    if closed and len(closings) == 1:
        text = text[: closings[0].start()].strip(" ,;")
    if not closed or len(closings) == 1:
        return {None: text} if text else {}
    entries: dict[str | None, str] = {}
    start = 0
    for closing in closings:
        place = re.sub(r"^(?:and|&)\s+", "", text[start : closing.start()].strip(" ,;"))  # "… Clinic∗ and Harvard University†"
        for mark in closing.group("marks"):
            entries.setdefault(mark, place)
        start = closing.end()
    return entries


def _marks_of(name: str, zone: str) -> list[str]:
    """The marks printed right after ``name`` in the author zone ("Webb1", "O'Connell1,2"): after
    the whole name where the zone prints it, as co-authors of one surname need ("Gabriel M.
    Leal1,2, Walter S. Leal1"), else after the surname; past an ORCID badge set as text
    between them ("Da-zhuo ShiID1,2*", "Anna Berg iD 1"). A name the zone prints whole without
    marks has none, whatever a co-author of its surname carries (REVTeX's "Ann Author†" over
    "Delta Author")."""
    for written in (name, name.split()[-1]):
        match = re.search(rf"{re.escape(written)}(?:\s?iD)?\s*(?P<marks>{_AUTHOR_MARKS}+)", zone, re.I)
        if match:
            return re.findall(rf"\d{{1,2}}|[{_SYMBOLS}α-ω]", match.group("marks"))
        if re.search(re.escape(written), zone, re.I):
            break
    return []


def _note_marks(name: str, zone: str) -> list[str]:
    """The marks by which ``name`` keys the page's notes: its symbols (:func:`_marks_of`), and the
    letters closed by a bracket that REVTeX's AIP substyles set after its numbers ("A. Author,1,
    b)", "C. Author2, d)")."""
    found = re.search(rf"(?i:{re.escape(name)})[\d,\s{_SYMBOLS}]*?(?P<letters>(?:[a-h]\)[,\s]*)+)", zone)
    return _marks_of(name, zone) + (re.findall(r"[a-h]\)", found.group("letters")) if found else [])


def _letters_of(name: str, zone: str, keys: str) -> list[str]:
    """The key letters printed right after ``name`` in the author zone, glued or a space apart
    ("Berga,b", "Collins a and"): a letter that no word goes on from."""
    if not keys:
        return []
    surname = name.split()[-1]
    match = re.search(rf"{re.escape(surname)}\s?(?P<marks>(?:[{keys}](?![A-Za-z])|[,*∗†‡]\s?(?=[{keys}*∗†‡]))+)", zone)
    return re.findall(rf"[{keys}]", match.group("marks")) if match else []


__all__ = ["attach_affiliations", "attach_emails"]
