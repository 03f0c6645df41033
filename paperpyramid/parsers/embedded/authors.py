"""A paper's authors from its first page, in every publisher's arrangement: where the byline is.

The names are read from the blocks between the title and the affiliations, abstract or first heading,
fragments on one line joined (publishers set each name and its marks apart), and the text read
is split into names by :func:`.author_names.split_names` (marks, degrees, capitals); a line break
between two whole names parts them; a report's kind under the names (``TECHNICAL REPORT``) is
none; an e-mail address after a name, in brackets or after its comma, is dropped, not taken for
an affiliation, and an institution in brackets after a name is its affiliation
(:mod:`.byline_blocks`); the letters that key the affiliations, glued to the names by the text
layer (``Eddelbuettela``) or set a space apart (``Collins a and …``), are dropped (the key may
open an acronym, ``bNICTA``, or a place with its web address).
Authors set over their affiliations in boxes side by side are read box by box
(:func:`_author_zone`), and so are names and affiliations stacked in turn in one box (an
affiliation known by an institution's acronym too: ``ENSIMAG, Grenoble INP``); a numbered
known heading (``1 Introduction``) ends the names; after an affiliation, more names share the
first names' size and weight (an affiliation's second line, ``Los Angeles``, is none); names and affiliations set in turn are all read; names that open an
affiliation's line are read (JACoW, ACM journals); a line the running heads repeat is read
where it holds names only (amsart); a mark that wraps to the next box on the names' row is
the name's before (AASTeX). An address is known by its institution, postcode or country
(:mod:`.institutions`), or
as roman type right under names in bold (JSS) or as smaller type right under names; an affiliation's
line wrapped after a comma, or over an e-mail address that closes the entry, is no name; a version line
under the title is none (:func:`_version_line`); a byline ("by …") follows a subtitle, which is not
read; a note in the margin is no box beside; the front matter's labelled fields
(nomenclature, CCS concepts, key words) end the names; a masthead over the title, read after
it, is not among them. Names in a column beside the title are read there (ASME journals). A
group signs the paper where no person does (JPSJ's subcommittee), or an organisation (a society,
press or publisher's programme: REVTeX's guides, even alone under the title over its address;
an agency's whole name alone under the title: "European Centre for … Control (ECDC)"), and after the people where
the byline ends in one (medical journals: "… on behalf of the ABC Study Group", or the group
on a line of its own under names with marks), every person kept (:func:`.author_names.group_tail`). Where
no names follow the title, a name in the first page's head beside the date is the author's
(:func:`_head_names`). The Info or XMP author list wins where it names more people.

A byline set as "BY" alone over a name, "AND" alone over the next (ijmart) is read slot by slot
(:func:`_conjunction_lines`). A copyright line's holders ("Copyright 1999-2003 by" … names) are
no byline; the front matter's labels end the names in the languages journals print them
("Klíčová slova", "Mots-clés"); names stacked in bold over their addresses are read down a title
page past the zone's depth. A byline wrapped after a first name goes on with it on the next line
(:func:`_first_name_cut`); names in letter-spaced capitals are read closed up
(:func:`.author_names.letters_closed_up`); a name, its e-mail and a dash before the affiliation
(SciPy's "Anna Berg (…@…) – University …") is read as a name before its affiliation. A drawing
under the title whose labels are words (a guide's cover) is not read, a label that reads as a name
neither (:func:`_drawing_span`).

Moved out of :mod:`.front_matter`, which reads the title, DOI, journal and date, and asks here
for the names (a line of names is never the title).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from paperpyramid.dates import date_alone
from paperpyramid.document import Author
from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.author_names import (
    DEGREE_WORD,
    GENERATION,
    GROUP,
    MARKS,
    SPACING_ACCENTS,
    as_written,
    group_name,
    group_tail,
    mostly_names,
    split_names,
)
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.byline_blocks import (
    affiliation_block,
    affiliation_line,
    contact_alone,
    group_under_marked_names,
    lost_mark,
    names_after_contact,
    names_before_affiliation,
    names_over_affiliation,
    names_text,
    without_contact,
)
from paperpyramid.parsers.embedded.institutions import AFFILIATION, INSTITUTION, names_institution

# the front matter's labelled fields after the names, where no "Abstract" heading comes first
_FRONT_LABEL = re.compile(
    r"^(?:nomenclature|ccs concepts|additional key words|acm reference format|index terms|(?:table of )?contents|key ?words"
    r"|mathematics subject classification|pacs|jel"
    # the same labels and the abstract's head in the languages of the journals that print them (Czech, Slovak,
    # German, French, Spanish, Italian, Portuguese, Polish): "Klíčová slova: LATEX, …"
    r"|klíčová slova|kľúčové slová|schlüsselwörter|schlagwörter|mots[- ]clés|palabras clave|parole chiave|palavras[- ]chave"
    r"|słowa kluczowe|abstrakt|zusammenfassung|résumé|resumen|riassunto|resumo|souhrn|streszczenie)\b",
    re.I,
)
# the Mathematics Subject Classification's label, in capitals: "MSC 2010:", "MSC2020", never a degree that
# opens a line of a byline ("MSc, and Carl Dahl", "MSc4, Anna Berg")
_MSC = re.compile(r"MSC(?:\b|\d)")
# a copyright line ("Copyright 1999-2003 by", "© 2004 …"): the names on its row hold the rights, they are no byline
_COPYRIGHT = re.compile(r"^(?:©|\(c\)|copyright\b)", re.I)


def find_authors(blocks: list[Block], title_end: int, metadata: dict[str, str]) -> list[Author]:
    """The names printed under the title; the metadata's list where it names more people. A
    group joined to the people's names as the last of them ("Robin Fairbairns & TUGboat
    editors", "… and the ABC Study Group") is an author after them, as JATS gives a ``<collab>``
    among the contributors; a group named elsewhere in the zone is left out (an affiliation's
    "Machine Learning Group")."""
    zone = _author_zone(blocks, title_end) if title_end >= 0 else ""
    keys = letter_keys(blocks, title_end)
    printed = _names_without_letter_marks(zone, keys)
    printed = (_margin_names(blocks, title_end) if title_end >= 0 else []) or printed
    slotted = _conjunction_lines(blocks, title_end)
    if slotted:  # each name in its own slot: a group among them is an author as it stands
        return [Author(name=name) for name in slotted]
    joined = _joined_groups(zone) if printed else []
    printed = printed or _group_names(zone, _SIGNER) or _signing_block(blocks, title_end) or _head_names(blocks, title_end)
    printed = printed or _name_beside_address(blocks, title_end)
    for key in ("Author", "xmp:creators"):
        value = metadata.get(key, "")
        if "et al" in value.lower():
            continue
        listed = split_names(value)
        if len(listed) > len(printed) and (len(listed) >= 2 or not printed):
            printed = listed
    people = [name for name in printed if not GROUP.search(name)]  # a group only as printed beside them (``joined``)
    return [Author(name=name) for name in (people + joined if people else printed)]


# an affiliation keyed by a letter set close to its first word: "aDebian and R Projects; bDepts of …";
# at a line's start the text layer may set it a space apart ("a Department of Physics, …")
_LETTER_KEY = re.compile(r"(?:^\s?|[;,]\s*)([a-h])(?=[A-Z][A-Za-z])|^([a-h])\s(?=[A-Z][a-z])")  # an acronym too: "bNICTA, PO Box …"
# a name's letter mark the text layer set a space apart ("John C. Collins a and …"): glued back, so
# that it goes as the glued ones do (:func:`_without_letter_marks`)
_APART_MARK = re.compile(rf"(?<=[a-z]) ([a-h])(?=[{MARKS}]*\s*(?:[,;·|]|\band\b|&|$))")


# a name's letter marks set after its comma ("Anna Berg,a,b Carl Dahl", "Anna Berg, a Carl Dahl")
_COMMA_MARK = re.compile(rf"(?<=[a-zß-ÿ]),\s?([a-h])(?:,[a-h])*([{MARKS}]*)(?=\s+[A-Z])")
# the same set a space after the comma, before the last name's "and" ("Carl Dahl, a and Eva Lund"), or at a line's
# end, the comma that parts it from the next line's names after it ("Anna Berg, b, Carl Dahl"); set close, a comma
# and a letter there are a second key after a glued one ("Anna Berga,c and …")
_COMMA_MARK_APART = re.compile(rf"(?<=[a-zß-ÿ]),\s([a-h])(?:,[a-h])*([{MARKS}]*)(?=,?\s+(?:[A-Z]|and\s|&))")
# set close at a line's end, before the comma that parts it from the next line ("Carl Dahl,b" / "Eva Lund,a"): read
# so in a byline that sets its letters after the commas elsewhere, where a comma after a letter is no joiner
_COMMA_MARK_AT_LINE_END = re.compile(rf"(?<=[a-zß-ÿ]),([a-h])(?:,[a-h])*([{MARKS}]*)(?=,\s+[A-Z])")


def _names_without_letter_marks(zone: str, keys: set[str]) -> list[str]:
    """The names of ``zone`` without their letter marks: glued to the names, as the text layer
    glues most (``Eddelbuettela``), where it set them a space apart or after the comma, so that
    each name ends in its key and the keys go as the glued ones do (:func:`_without_letter_marks`),
    the last name's too ("Anna Berg,a Carl Dahlb*"); where a name is then left without its key
    (a mark the text layer lost), those after the commas go as :func:`.author_names.split_names`
    reads them."""
    if not keys:
        return split_names(zone)
    text = _COMMA_MARK_APART.sub(r"\1\2,", _APART_MARK.sub(r"\1", zone))
    text = _COMMA_MARK_AT_LINE_END.sub(r"\1\2,", text) if _COMMA_MARK.search(text) else text
    glued = split_names(_COMMA_MARK.sub(r"\1\2,", text), as_printed=True)
    stripped = _without_letter_marks(glued, keys)
    return as_written(
        stripped if stripped != glued else _without_letter_marks(split_names(_APART_MARK.sub(r"\1", zone), as_printed=True), keys)
    )


# an address on the web, as an affiliation gives one ("aDebian Project, http: // www. debian. org")
_WEB = re.compile(r"https?:|\bwww\s?\.")


def letter_keys(blocks: list[Block], title_end: int) -> set[str]:
    """The letters that key the affiliations under the title, where they are letters: each opens
    an affiliation's line or follows a semicolon or comma in it, set close to the place's first
    word, or stands alone as its own small block before it (pinp: "a" "http://…"); an affiliation
    is an institution with its address, or a place with its e-mail or web address (elsarticle:
    "aDebian Project, http://www.debian.org"). The keys run from "a": with "a" found, a letter
    found keys every letter before it too (an entry no institution's word tells)."""
    if title_end < 0:
        return set()
    page = blocks[title_end].page
    under = [block for block in blocks[title_end + 1 : title_end + 24] if block.page == page]
    alone = {block.text.strip() for block in under if re.fullmatch(r"[a-h]", block.text.strip())}
    found = alone | {
        match.group(1) or match.group(2)
        for block in under
        if _keyed_place(block.text)
        for line in block.lines
        for match in _LETTER_KEY.finditer(line.text.strip())
    }
    return {chr(letter) for letter in range(ord("a"), ord(max(found)) + 1)} if "a" in found else found


def _keyed_place(text: str) -> bool:
    """Whether ``text`` is an affiliation (an institution, an e-mail or web address), its keys
    read apart from the words they are glued to ("aFaculty of …": no word starts there)."""
    text = re.sub(r"(?:^|(?<=[\s;,]))[a-h](?=[A-Z][A-Za-z])", "", text)
    return bool(AFFILIATION.search(text) or "@" in text or _WEB.search(text))  # "bNikhef Theory Group": no comma


def _without_letter_marks(names: list[str], keys: set[str]) -> list[str]:
    """Names without the superscript letter each carries, glued to it by the text layer
    ("Dirk Eddelbuettela", "James Joseph Balamutab"), where the affiliations are keyed by
    those letters. Only where every name ends in one of the keys (or in a generation's suffix, its
    mark read off already: "Driggers III"): a name that ends in such a letter of its own ("Garcia")
    beside names without one keeps it."""
    keyed = [name[-1] in keys and name.split()[-1][-2:-1].islower() for name in names]
    if not any(keyed) or not all(key or GENERATION.fullmatch(name.split()[-1]) for name, key in zip(names, keyed, strict=True)):
        return names
    return [name[:-1] if key else name for name, key in zip(names, keyed, strict=True)]


def _author_zone(blocks: list[Block], title_end: int) -> str:
    """The names under the title as one text, read block by block up to the abstract, the first
    heading or the affiliations after the names.

    Running heads and the publisher's boxes beside the title (page furniture) are not read. An author set over an affiliation in
    one block (conference styles: ``Diptodip Deb`` / ``Georgia Institute of Technology``) gives
    the lines above it, and such boxes set side by side across the page are all read, though
    the reading order reaches the right-hand one after the abstract. A block on the row of an
    affiliation (``Facebook AI`` beside ``†University of Washington``) is one too. A block that
    opens with a mark (``1 Department …``) is an affiliation, unless it is the first under the
    title and holds names only (``1Taofik Mohammed IBRAHIM``).
    """
    title = blocks[title_end]
    window = _zone_window(blocks, title_end)
    reading = _ZoneReading(
        rows=_affiliation_rows(blocks, window),
        held=[line.top for i in window for line in blocks[i].lines if _COPYRIGHT.match(line.text.strip())],
    )
    drawing = _drawing_span(blocks, window)
    read: set[int] = set()
    stop: Block | None = None
    for position, index in enumerate(window):
        block = blocks[index]
        read.add(index)
        if drawing is not None and _short(block) and drawing[0] <= block.top <= drawing[1]:
            continue  # a drawing's label, though it reads as a name ("Soft Palate" among "Place", "Coronal")
        above = max(title.bottom, drawing[1]) if drawing is not None and drawing[1] < block.top else title.bottom
        far = block.top - above > 250 and not _goes_on_from(block, reading.named + reading.affiliations)
        if far and not _names_far_under(blocks, window[position:], reading.text, first=position == 0):
            break  # far under the title; not a stack of names and addresses that runs on there (a manual's title page)
        if _front_heading(block):
            stop = block
            break
        if _opens_a_section(blocks, index):
            break
        content = reading.names_in(block)
        if reading.ended:
            break
        if content is not None:
            reading.add(block, content)
    if stop is None:
        return reading.text
    return reading.text + _boxes_beside(blocks, title_end, read, stop)


def _zone_window(blocks: list[Block], title_end: int) -> list[int]:
    """The indices of the blocks the names' zone may read: the next ones on the title's page, not
    a masthead over the title read after it (OUP's box at the right), nor page furniture save a
    line of names the running heads repeat (:func:`_names_only`) and a name's marks set apart on
    its row (:func:`_mark_beside_names`)."""
    title = blocks[title_end]
    following = [index for index in range(title_end + 1, min(title_end + 24, len(blocks))) if blocks[index].page == title.page]
    neighbours = [blocks[index] for index in following]
    return [
        index
        for index in following
        if blocks[index].bottom > title.top
        and (blocks[index].kind != "furniture" or _names_only(blocks[index], title) or _mark_beside_names(blocks[index], neighbours))
    ]


# a name's marks alone: its affiliations' letters or digits and symbols ("a,b*", "2,3", "†")
_MARKS_ALONE = re.compile(rf"[a-h\d{MARKS}](?:,?[a-h\d{MARKS}])*")


def _mark_beside_names(block: Block, others: list[Block]) -> bool:
    """Whether ``block`` is a name's marks alone, raised on the row of a block of the byline: the
    text layer sets a mark after a comma apart from its name, and one at the line's end is taken
    for furniture ("Miriana Durante," "b" / "Ingemar S. J. Merkies,"), though it keys the name's
    affiliation as the marks glued to the other names do."""
    if not _MARKS_ALONE.fullmatch(block.text.strip()):
        return False
    return any(
        other.kind == "paragraph" and other.top < block.bottom and block.top < other.bottom for other in others if other is not block
    )


def _affiliation_rows(blocks: list[Block], window: list[int]) -> list[float]:
    """The tops of the affiliations' rows in the zone: a block on one is an affiliation beside
    another; not one that goes on from a name on its line (ACM: "BEN TROVATO" + ", Institute …"),
    nor an author's address beside the name (JMLR, PMLR), alone or then the next name."""
    return [
        blocks[i].top
        for i in window
        if affiliation_line(without_contact(blocks[i].lines[0].text), names_after_mark=False)
        and not blocks[i].text.lstrip().startswith(",")
        and not contact_alone(blocks[i].text.strip())
        and not names_after_contact(blocks[i].lines[0].text.strip())
    ]


def _front_heading(block: Block) -> bool:
    """Whether ``block`` is a heading that ends the names: a known section's, numbered or not,
    the abstract's or a labelled field's of the front matter (:data:`_FRONT_LABEL`)."""
    plain = block.text.strip().lower().strip(" .:")
    return (
        _NUMBER.sub("", plain) in blk.KNOWN_HEADINGS
        or plain.startswith(("abstract", "summary", "keywords", "background"))
        or bool(_FRONT_LABEL.match(plain))
        or bool(_MSC.match(block.text.strip()))
    )


@dataclass
class _ZoneReading:
    """The names' zone as read so far, block by block: the names' text, the blocks named and the
    affiliations after them, and the first names' type, which later names share."""

    rows: list[float]  # the affiliations' rows (:func:`_affiliation_rows`)
    held: list[float]  # a copyright line's rows: its holders are no byline
    text: str = ""
    previous: Block | None = None
    named: list[Block] = field(default_factory=list)  # the blocks names were read from
    affiliations: list[Block] = field(default_factory=list)  # names after one come below it, not on its row in its column (JSS)
    names_size: float | None = None  # the type of the first names: later ones share it
    names_bold: bool | None = None  # and their weight
    after_affiliation: bool = False
    ended: bool = False  # the names are over: no block after this one is read

    def names_in(self, block: Block) -> str | None:
        """The names ``block`` adds to the zone, or None where it adds none (an affiliation, a
        version's line, a copyright's holders), setting :attr:`ended` where the names end at it."""
        if any(other.x0 < block.x1 and block.x0 < other.x1 and block.top < other.bottom - 1 for other in self.affiliations):
            return None
        if any(abs(line.top - row) < 3 for line in block.lines for row in self.held):
            return None  # a copyright's holders ("Copyright 1999-2003 by" … "H.A. Schmidt, K. Strimmer, …")
        if _under_bold_names(block, self.named) and not _BYLINE.match(block.text.strip()):
            self.after_affiliation = True
            self.affiliations.append(block)
            return None
        if _version_line(block):
            return None
        return names_over_affiliation(block) or self._names_beside_affiliations(block)

    def _names_beside_affiliations(self, block: Block) -> str | None:
        """:meth:`names_in` for a block that does not set names over an affiliation: its names,
        the names that open its affiliation's lines, or none where it is an affiliation."""
        content = names_text(block)
        content = (names_after_contact(content) if self.text and not self.after_affiliation else "") or content
        beside = any(abs(block.top - row) < 3 for row in self.rows) and not affiliation_line(block.lines[0].text.strip())
        if len(content) > 400:
            self.ended = bool(self.text)
            return None
        # a mark that opens a block on the names' row trails the name before it ("Schwarz ⓘ,1" "1 August Muench,1")
        opening = self.previous is None or abs(block.top - self.previous.top) < 3
        signing = not self.after_affiliation and group_under_marked_names(content, block.size, self.text, self.names_size)
        if not signing and (beside or affiliation_block(content, first=opening)):
            lead = "" if beside else names_before_affiliation(block, self.names_size)
            if not lead:
                self.after_affiliation = self.after_affiliation or bool(self.text)
                self.affiliations += [block] if self.text else []
                return None
            return lead
        if self.after_affiliation and content.startswith("(") and content.endswith(")"):
            return None  # a collaboration's name under its members: "(MUSO Collaboration)"
        if self.after_affiliation and not _more_names(block, content, self.names_size, self.names_bold):
            # names, affiliation, names (REVTeX, Elsevier, AIAA): a block in smaller type goes on with the affiliation
            self.ended = not (self.names_size is not None and block.size < self.names_size - 0.3 and len(content) < 200)
            return None
        return content

    def add(self, block: Block, content: str) -> None:
        """Read ``content``, the names of ``block``, into the zone's text: on the previous block's
        line, set close, it goes on from it (a word the text layer split: no space)."""
        if not content.strip(MARKS + SPACING_ACCENTS + "0123456789, "):
            return  # a block of marks or accents alone
        if _BYLINE.match(content) and not self.after_affiliation:
            self.text, self.named, self.previous, self.names_size, self.names_bold = "", [], None, None, None  # over a byline: the subtitle
        previous = self.previous
        same_line = previous is not None and abs(block.top - previous.top) < 3 and -2 < block.x0 - previous.x1 < 0.3 * block.size
        touching = previous is not None and block.x0 - previous.x1 < 0.12 * block.size  # a word space after a raised mark is none
        split_word = same_line and touching and self.text[-1:].isalpha() and (content[:1].isalpha() or content[:1] in SPACING_ACCENTS)
        self.text += "" if split_word else (" " if same_line or _first_name_cut(self.text, previous, block) else ", ")
        self.text += content
        self.previous = block
        if not split_names(self.text):
            return  # nobody named yet (an article type's banner under the title): its type is not the names'
        self.named.append(block)
        self.names_size = block.size if self.names_size is None else self.names_size
        self.names_bold = block.bold if self.names_bold is None else self.names_bold


# what ends the name before a cut one: its marks or digits, a separator, "and", and the letters ACS and
# AIP set after the comma ("… Helen L. Johnson, c Bethany" / "Albers a*")
_AFTER_A_NAME = rf"(?:[{MARKS}\d,;·|&]|\band)\s*(?:(?:[a-h],)*[a-h]\s+)?"
# the zone's last name cut after its first word at the line's end, after the marks of the name before it:
# "… I. Ken Groupleader,∗,‡,¶ Susanne" / "K. Laborator,∗,§"
_CUT_FIRST_NAME = re.compile(rf"{_AFTER_A_NAME}[A-Z][^\W\d_]+(?:\s[A-Z]\.)*$")


def _first_name_cut(text: str, previous: Block | None, block: Block) -> bool:
    """Whether ``block`` goes on with the name the zone's ``text`` ends in, cut at the line's end
    after its first word (achemso sets a long byline over lines as they fill, double spaced): the
    block opens the next line under ``previous``, in its type, and the word stands alone after the
    marks of the name before it, too short for a name."""
    if previous is not None and text.endswith(",") and _LETTERS_OPENING.match(block.text.strip()):
        return True  # the name's letters after its comma, set over the line's end: "… Pirtea," / "b Max Kipf, …"
    if previous is not None and _LETTERS_CLOSING.search(text) and re.match(r"[A-Z]", block.text.strip()):
        return True  # the next name after those letters, in a box of its own: "… Pirtea, b" / "Max Kipf, …"
    if previous is None or not 0 <= block.top - previous.lines[-1].bottom < 1.5 * block.size or abs(block.size - previous.size) > 0.3:
        return False
    opening = block.text.strip()
    if _CUT_NAME.search(text) and (
        _SURNAME_THEN_MARK.match(opening) or (_GIVEN_AFTER_AND.search(text) and _SURNAME_ALONE.fullmatch(opening))
    ):
        return True  # "… Hyun Joo" / "Song,3 Carl Dahl": one word, then the name's marks, ends the name cut
    if _CUT_NAME.search(text) and lost_mark(text) and _TWO_WORDS_THEN_MARK.match(opening):
        return True  # a byline whose names carry marks: "… Takashima3 and María Dolores" / "Albaladejo Otón1,2*"
    if _CUT_INITIALS.search(text) and re.match(r"[A-Z][^\W\d_]", opening):
        return True  # initials alone are no name: "… J. C. R. Silva, A. D." / "Barnosky", "S. Y." / "CHEN PhD2*"
    if _CUT_NAME.search(text) and DEGREE_WORD.match(opening):
        return True  # a degree never opens a name: it closes the one cut before it ("… S. CHO" / "MD PhD,1 …")
    return bool(_CUT_FIRST_NAME.search(text)) and bool(re.match(r"[A-Z]", opening))


# a line that opens with letter marks, then a name or nothing: the letters after the comma closing the line
# above; and the zone closing in such letters, after a name's comma
_LETTERS_OPENING = re.compile(r"(?:[a-h],)*[a-h]\*?(?:\s+[A-Z]|$)")
_LETTERS_CLOSING = re.compile(r"[^\W\d_],\s?(?:[a-h],)*[a-h]\*?$")
# the zone ending in a name's initials, cut from its surname at the line's end, after the name before it:
# "… J. C. R. Silva, A. D." / "Barnosky", "… Shukla,4 S." / "Shukla,1 …", "… Ramel, K. Saranyaadevi, A." / "Harry"
_CUT_INITIALS = re.compile(rf"{_AFTER_A_NAME}(?:[A-Z]\.(?:-[A-Z]\.)?\s?){{1,4}}$")
# the zone ending in a name's words without its marks, after the name before it: "… Yang Song,2,3 Hyun Joo",
# "… and Jung-Gu"
_CUT_NAME = re.compile(rf"{_AFTER_A_NAME}(?:[A-Z][^\W\d_]*(?:-[^\W\d_]+)?\.?\s?){{1,3}}$")
# a line that opens with one word and what ends a name: its marks, set close or a space apart, its letters
# after the comma, a comma, a semicolon, "and": "Song,3 Carl …", "Linden2, …", "Singleton 3, …", "Kubicek,a,b*",
# "Zhan; Nils …" (a name is never one word)
_SURNAME_THEN_MARK = re.compile(rf"[A-Z][^\W\d_]+(?:[-'’][A-Z][^\W\d_]+)?(?:\s?,?[\d{MARKS}]|,[a-h]\b|[,;]\s|\s(?:and|&)\s)")
# the byline's last name cut after its one given name, after "and": "… and Feng-Jun" / "Ye"
_GIVEN_AFTER_AND = re.compile(r"(?:\band|&)\s+[A-Z][^\W\d_]*(?:-[^\W\d_]+)?$")
_SURNAME_ALONE = re.compile(r"[A-Z][^\W\d_A-Z]+(?:[-'’][A-Z][^\W\d_A-Z]+)?")
# a line that opens with two words and a name's marks, set close or a space apart: "Albaladejo Otón1,2*, …"
_TWO_WORDS_THEN_MARK = re.compile(rf"[A-Z][^\W\d_]+(?:[-'’][A-Z][^\W\d_]+)?\s[A-Z][^\W\d_]+(?:[-'’][A-Z][^\W\d_]+)?\s?[\d{MARKS}]")


def _boxes_beside(blocks: list[Block], title_end: int, read: set[int], stop: Block) -> str:
    """The names of the boxes beside the zone that the reading order reaches after the abstract
    (names over affiliations set side by side across the page), between the title and ``stop``;
    not a note in the margin (Bioconductor's affiliation: "Cambridge Systems" / "Biology …")."""
    title = blocks[title_end]
    text = ""
    for index in range(title_end + 1, len(blocks)):
        block = blocks[index]
        if index in read or block.page != title.page or block.kind in ("furniture", "aside"):
            continue
        names = names_over_affiliation(block) if title.bottom < block.top < stop.top else ""
        text += f", {names}" if names else ""
    return text


#: how many labels make a drawing: a byline's blocks that name no one (marks, degrees, dates) are fewer
_DRAWING_LABELS = 6


def _drawing_span(blocks: list[Block], window: list[int]) -> tuple[float, float] | None:
    """(top, bottom) of a drawing under the title whose labels the text layer gives as words (a
    guide's cover: a diagram's nodes "[+cons]", "Place", "Coronal" over the name): six short
    blocks or more that are no name, mark, date or address, each within three lines of the
    next down the page, two of them side by side, and at most one name among them (which is a
    label too); None where there is no such cluster."""
    labels = sorted((blocks[index] for index in window if _label(blocks[index])), key=lambda block: block.top)
    clusters: list[list[Block]] = []
    for label in labels:
        if clusters and label.top - max(other.bottom for other in clusters[-1]) < 3 * label.size:
            clusters[-1].append(label)
        else:
            clusters.append([label])
    for cluster in clusters:
        side_by_side = any(abs(a.top - b.top) < 3 for i, a in enumerate(cluster) for b in cluster[i + 1 :])
        span = cluster[0].top, max(label.bottom for label in cluster)
        if len(cluster) >= _DRAWING_LABELS and side_by_side and not _names_among(blocks, window, span):
            return span
    return None


def _names_among(blocks: list[Block], window: list[int], span: tuple[float, float]) -> bool:
    """Whether two blocks or more inside ``span`` read as names: a grid of authors, each over a
    line that names no one (a city, "Google Research"), not a drawing, where a label may read as a
    name once ("Soft Palate") but not row after row."""
    named = [index for index in window if span[0] <= blocks[index].top <= span[1] and split_names(blocks[index].text.strip())]
    return len(named) >= 2


def _label(block: Block) -> bool:
    """Whether ``block`` may be a drawing's label: short, a word of three letters in it, and no
    name, degree, joiner, date or address."""
    text = block.text.strip()
    if not _short(block) or not re.search(r"[^\W\d_]{3}", text) or split_names(text):
        return False
    return not (DEGREE_WORD.search(text) or _CONJUNCTION.fullmatch(text) or date_alone(text) or affiliation_line(text))


def _short(block: Block) -> bool:
    """Whether ``block`` is one line of three words at most: a label's size."""
    return len(block.lines) == 1 and len(block.text.split()) <= 3


def _names_atop_address(blocks: list[Block], window: list[int]) -> bool:
    """Whether the zone's first block is names over their address, in one block or the address right
    under it (a manual's title page: the title high, nothing under it, and far down the page
    "Matthew Newville" over "Consortium for … / University of Chicago, Chicago, IL"): the page
    sets its byline low, no stray line far under the title."""
    first = blocks[window[0]]
    if names_over_affiliation(first):
        return True
    under = blocks[window[1]] if len(window) > 1 else None
    content = names_text(first)
    return (
        under is not None
        and mostly_names(content)
        and not affiliation_block(content, first=True)
        and _goes_on_from(under, [first])
        and affiliation_block(names_text(under), first=False)
    )


def _names_far_under(blocks: list[Block], window: list[int], read: str, *, first: bool) -> bool:
    """Whether the block ``window[0]``, far under the title, where the lines under the title
    named nobody (``read``: a subtitle, a version line), is a cover's byline set low: names over
    their address (:func:`_names_atop_address`), or names alone at the page's foot
    (:func:`_names_at_foot`). Under lines that were read (not ``first``), the address must name
    an institution: a workshop's place over its dates ("Santa Fe, New Mexico" / "July 12-23,
    2010") reads as a name over a postcode."""
    if split_names(read):
        return False
    if _names_at_foot(blocks, window[0]):
        return True
    if not _names_atop_address(blocks, window):
        return False
    return first or any(names_institution(blocks[index].text) for index in window[:2])


def _cover_over(blocks: list[Block], index: int) -> bool:
    """Whether the blocks between the title and ``blocks[index]`` are a cover's short lines (a
    subtitle, a version line), none of the page's text."""
    return all(len(block.lines) <= 3 for block in blocks[:index] if block.page == blocks[index].page and block.kind != "furniture")


# what names a firm, a publisher or a project at a cover's foot, where Texinfo sets its authors: "Cygnus
# Support", "Adobe Systems Incorporated", "Morgan Kaufmann Publishers", "The GNU Project"
_FIRM = re.compile(
    r"\b(?:inc(?:orporated)?|corp(?:oration)?|publish\w*|press|support|systems?|software|solutions|technolog\w*|team|project|editions?)\b",
    re.I,
)


def _names_at_foot(blocks: list[Block], index: int) -> bool:
    """Whether ``blocks[index]`` is a cover's names alone at its foot, the page's last block
    (Texinfo's title page: the title and its subtitle high, "Björn Beutel" in bold over a rule at
    the bottom, nothing between): a line or two of names in bold, as Texinfo sets them, no
    affiliation, firm or place after a comma ("Santa Fe, New Mexico"), nothing under them. A
    place alone in bold there ("Los Alamos") reads as a name; no word tells it from one."""
    block = blocks[index]
    last = index + 1 >= len(blocks) or blocks[index + 1].page != block.page
    if not last or len(block.lines) > 2 or block.kind == "furniture" or not block.bold or not _cover_over(blocks, index):
        return False
    content = names_text(block)
    if _FIRM.search(content) or any("," in line.text for line in block.lines):
        return False
    return bool(split_names(content)) and mostly_names(content) and not affiliation_block(content, first=True)


def _goes_on_from(block: Block, read: list[Block]) -> bool:
    """Whether ``block`` goes on from the names and affiliations read, within two of its lines
    under the last of them (names in bold over their addresses, stacked down a title page)."""
    last = max((other.bottom for other in read), default=None)
    return last is not None and 0 <= block.top - last < 2 * block.size


#: a byline: the names after "by" (R News, The R Journal); what the zone read over it is the title's subtitle
#: ("Utilities for handling genetic data" / "by Anna Example")
_BYLINE = re.compile(r"^(?i:by)\s+[A-Z]")  # "By ANNA EXAMPLE" too


#: a package's or document's version: "Version 2.30.0", "version 1.1-2", "Package version 0.9", "v1.4.0",
#: "release 3"; one pattern for both its uses, a version alone on a line under a title
#: (:func:`version_alone`) and one inside a line of other words (:func:`_version_line`)
_VERSION = re.compile(r"(?<!\w)(?:(?:package|software)\s+)?(?:version|release|v\.?)\s*v?(?P<number>\d+(?:[.-]\d+)*)[a-z]?(?!\w)", re.I)


def version_alone(text: str) -> bool:
    """Whether ``text`` is a version and nothing else ("Version 2.30.0", "v1.4.0"): under a
    title, what the paper documents, not a word of the title; one in brackets ("(Version
    1.0)", which a guide writes into its title) or a line that goes on in words is not."""
    return bool(_VERSION.fullmatch(text.strip()))


def _version_line(block: Block) -> bool:
    """Whether ``block`` is a line that gives the version a vignette documents, under the title
    ("For ExamplePkg version 1.1-2, 2020-02-02"): no names, though its capitalised words and
    its digits, read as marks, look like one ("For ExamplePkg"). Among other words, only a
    version number with its parts ("1.1-2", not "Version 2") tells it. A manual's name over its
    version's line ("TREE-PUZZLE Manual" / "Version 5.2 (July 2004)") is one too."""
    if len(block.lines) == 2:
        return any((match := _VERSION.match(line.text.strip())) and re.search(r"[.-]", match.group("number")) for line in block.lines)
    return len(block.lines) == 1 and mentions_version(block.text)


def mentions_version(text: str) -> bool:
    """Whether ``text`` gives a version number with its parts among other words ("For ExamplePkg
    version 1.1-2", "for BMS Version 0.3.5"): what a document documents, no name's or title's words."""
    return any(re.search(r"[.-]", match.group("number")) for match in _VERSION.finditer(text))


# a section's number before its heading: "1 Introduction", "1. Introduction", "I. Introduction"
_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*|[ivx]+)\.?\s+(?=[^\W\d_])")


def _opens_a_section(blocks: list[Block], index: int) -> bool:
    """Whether ``blocks[index]`` is a numbered section heading with its body's prose under it
    ("1 Installation" over "Copy llncs.cls to a directory …."): the text has begun, and no name
    comes after it. A numbered affiliation ("1 Department of …") or a name after its mark is
    followed by another affiliation, a name or the abstract, never by sentences."""
    block = blocks[index]
    if block.kind != "heading" or not block.number or index + 1 >= len(blocks):
        return False
    after = blocks[index + 1]
    words = after.text.split()
    return (
        after.kind == "paragraph"
        and after.page == block.page
        and len(words) >= 12
        and after.text.rstrip().endswith(".")
        and sum(word[:1].islower() for word in words) > len(words) / 2
    )


# where no person signs, an organisation may: a society, a press, a publisher's programme ("The
# American Physical Society", "AIP Journal Program" sign REVTeX's guides); beside people's names
# these are affiliations, so only :data:`.author_names.GROUP` is joined to them
_SIGNER = re.compile(rf"{GROUP.pattern}|\b(?:society|press|program|programme)\b", re.I)


def _group_names(zone: str, kind: re.Pattern[str] = GROUP) -> list[str]:
    """A group that signs the paper where no person does ("Online-Journal Subcommittee of
    JPSJ", "The XYZ Study Group"): a part of the names' zone that is one (:func:`.author_names.group_name`;
    beside people's names, see :func:`.author_names.group_tail`)."""
    parts = (group_name(part, kind) for part in re.split(r"\s*(?:[,;&]|\band\b)\s*", zone))
    return [part for part in parts if part]


_CONJUNCTION = re.compile(r"(?i:by|and)")


def _conjunction_lines(blocks: list[Block], title_end: int) -> list[str]:
    """The names of a byline set as the Israel Journal of Mathematics (ijmart) and older
    mathematics journals set it: "BY" alone on a line under the title, each author's name on the
    line under it, then the author's address, and "AND" alone on a line before each next name.
    The slot says it is a name, so an organisation that signs there is one too ("American
    Mathematical Society", "The Hebrew University Magnes Press"); read from the lines, not the
    zone, where the address's lines would read as names ("Electronic Products and Services")."""
    if title_end < 0 or title_end + 2 >= len(blocks):
        return []
    page = blocks[title_end].page
    following = [block for block in blocks[title_end + 1 : title_end + 40] if block.page == page and block.kind != "caption"]
    if not following or following[0].text.strip().lower() != "by":
        return []
    names: list[str] = []
    for lone, under in pairwise(following):
        if not _CONJUNCTION.fullmatch(lone.text.strip()):
            continue
        line = under.lines[0].text
        found = split_names(line)
        if not found:
            bare = re.sub(rf"[{MARKS}\d]+", " ", line)
            found = [name] if (name := group_name(bare, _SIGNER) or _institution_name(bare)) else []
        if len(found) != 1:
            return []  # not one name under each: some other layout
        names += found
    return names


def _head_names(blocks: list[Block], title_end: int) -> list[str]:
    """The author named only in the first page's head over the title, on one row with the date
    (a manual's head set with ``fancyhdr``: "February 20, 2021" at the left, "David
    Simmons-Duffin" at the right), where no names follow the title: a date beside it makes the
    row a document's head, not a journal's section or a kicker over the title."""
    if title_end < 0:
        return []
    title = blocks[title_end]
    above = [block for block in blocks[:title_end] if block.page == title.page and block.bottom <= title.top and len(block.lines) == 1]
    for block in above:
        dated = any(other is not block and abs(other.top - block.top) < 0.5 * block.size and date_alone(other.text) for other in above)
        if dated and not date_alone(block.text) and mostly_names(block.text) and not affiliation_line(block.text):
            return split_names(block.text)
    return []


def _signing_block(blocks: list[Block], title_end: int) -> list[str]:
    """An organisation that signs the paper alone on the first line under the title, where the
    names' zone read it as an affiliation ("The American Physical Society∗" over its address):
    one line (and perhaps a date alone), nothing but the organisation's name and its marks
    (:data:`_SIGNER`), or an institution's whole name (:func:`_institution_name`)."""
    if title_end < 0 or title_end + 1 >= len(blocks):
        return []
    block = blocks[title_end + 1]
    lines = [line for line in block.lines if not date_alone(line.text)]  # the date set close under it
    if block.page != blocks[title_end].page or block.kind == "furniture" or len(lines) != 1:
        return []
    name = group_name(lines[0].text, _SIGNER) or _institution_name(lines[0].text)
    return [name] if name else []


# an institution's whole name: capitalised words and the small words between them, perhaps its
# acronym in brackets after it ("European Centre for Disease Prevention and Control (ECDC)")
_INSTITUTION_WORD = r"(?:[A-Z][\w’'.-]*|of|and|for|the|on|in|&|de|du|des|der|für)"
_INSTITUTION_NAME = re.compile(rf"{_INSTITUTION_WORD}(?:\s+{_INSTITUTION_WORD})*(?:\s+\([A-Z]{{2,}}\))?")
# a unit within an institution, under a title where the names were not read, is their affiliation
_UNIT = re.compile(r"^(?:department|dept|school|faculty|division|laborator|lab\b|group|chair|section|unit)", re.I)


def _name_beside_address(blocks: list[Block], title_end: int) -> list[str]:
    """The author a title page sets in a table at its foot, the name in the first column and
    the address in the second, where nothing under the title named anyone (a vignette's
    ``\\begin{tabular}{ll} Anna Berg & Example Centre, Town \\\\ & Department of …``): the text
    layer reads the first row as one line, "Anna Berg Example Centre, Town". The second
    column's edge is the left edge of the lines under it; the line is cut at the word that
    starts there (estimated from the line's width, the words' positions being unread here),
    and the part before it is one name, the part after it an address."""
    if title_end < 0:
        return []
    title = blocks[title_end]
    page = [block for block in blocks[title_end + 1 :] if block.page == title.page and block.kind != "furniture"]
    if not page:
        return []  # the title ends its page
    for block, under in zip(page, [*page[1:], None], strict=True):
        line = block.lines[0]
        below = [other.x0 for other in block.lines[1:2]]
        if under is not None and 0 < under.top - line.bottom < 2 * line.size:
            below.append(under.x0)
        edges = [x for x in below if line.x0 + 3 * line.size < x < line.x1 - 3 * line.size]
        if not edges:
            continue
        words = line.text.split()
        starts = [len(" ".join(words[:i])) + (1 if i else 0) for i in range(len(words))]
        per_char = line.width / max(len(line.text.strip()), 1)
        cut = min(range(2, len(words)), key=lambda i: abs(line.x0 + per_char * starts[i] - edges[0]), default=None)
        if cut is None or abs(line.x0 + per_char * starts[cut] - edges[0]) > 1.5 * line.size:
            continue
        lead, rest = " ".join(words[:cut]), " ".join(words[cut:])
        if split_names(lead) == [lead] and affiliation_line(rest):
            return [lead]
    return []


def _institution_name(text: str) -> str:
    """``text`` as an institution that signs the document, or empty: a report or guide by an agency
    prints the agency's whole name where the names go, with no address (a comma), no mark and no
    e-mail, as the Info author often gives it too ("European Centre for Disease Prevention and
    Control (ECDC)" over the date); two to twelve words with an institution's word
    (:data:`AFFILIATION`, :data:`INSTITUTION`), not a unit's name (a department alone under
    the title is the affiliation of names not read); a leading "The" is dropped as a society's is."""
    name = " ".join(text.split()).strip(" .")
    if not _INSTITUTION_NAME.fullmatch(name) or not 2 <= len(name.split()) <= 12 or _UNIT.match(name):
        return ""
    if not (AFFILIATION.search(name) or INSTITUTION.search(name)):
        return ""
    return re.sub(r"^the\s+", "", name, flags=re.I)


def _joined_groups(zone: str) -> list[str]:
    """The group joined to the people's names as the last of them (:func:`.author_names.group_tail`)."""
    group = group_tail(zone.strip(" ,;"))[1]
    return [group] if group else []


def _margin_names(blocks: list[Block], title_end: int) -> list[str]:
    """The names in a column beside the title (ASME journals: each name in bold over its
    affiliation in small type, left of the title and abstract): the blocks wholly to one side
    of the title that hold names only, in the column's largest type or in bold; none unless the
    first of them starts beside the title's own lines."""
    title = blocks[title_end]
    column = [
        block
        for block in blocks
        if block.page == title.page
        and block.kind not in ("caption", "formula", "title")
        and (block.x1 <= title.x0 + 2 or block.x0 >= title.x1 - 2)
        and title.top - 3 * title.size < block.top < title.bottom + 250
    ]
    largest = max((block.size for block in column), default=0.0)
    names: list[str] = []
    for block in sorted(column, key=lambda block: block.top):
        content = names_text(block)
        if (block.bold or block.size > largest - 0.3) and not affiliation_block(content, first=True) and mostly_names(content):
            if not names and block.top > title.bottom:
                return []
            names += split_names(content)
    return names


def _under_bold_names(block: Block, named: list[Block]) -> bool:
    """Whether ``block`` is set in roman right under names set in bold, or in smaller type right
    under names: their affiliation, with or without an institution word (JSS: "Dirk
    Eddelbuettel" over "Debian Project"; a bold face the text layer does not flag, its
    affiliation a size smaller: "Anna Example" over "FH Technikum Wien"); not smaller lines that
    open with more names before their affiliations (ACM: "LARS THØRVÄLD, The Thørväld Group, Iceland")."""
    if not named or len(block.text.strip()) < 4:
        return False
    smaller = block.size < named[0].size - _SMALLER and not names_before_affiliation(block, None)
    if not (named[0].bold and not block.bold) and not smaller:
        return False
    return any(other.x0 < block.x1 and block.x0 < other.x1 and 0 <= block.top - other.bottom < other.size for other in named)


#: how much smaller, in points, an affiliation's type is than its names' where a class sets it a size down
#: (10pt under 11pt names, 9pt under 10pt); a name's accents or marks change a line's size less
_SMALLER = 0.6


def _names_only(block: Block, title: Block) -> bool:
    """Whether ``block``, under ``title``, holds names and their marks only (an amsart author
    line that the running heads repeat, so that it is taken for page furniture); not a box in
    the margin beside the title."""
    if not title.x0 <= (block.x0 + block.x1) / 2 <= title.x1:
        return False
    content = names_text(block)
    if len(content) > 200 or affiliation_block(content, first=True):
        return False
    return mostly_names(content)


def _more_names(block: Block, content: str, names_size: float | None, names_bold: bool | None = None) -> bool:
    """Whether a block after an affiliation names more authors: short, names only, in the first
    names' type, size and weight (names in bold over roman affiliations: an affiliation's second
    line, "Los Angeles" under "University of California,", is no name)."""
    if names_size is None or abs(block.size - names_size) > 0.3 or (names_bold is not None and block.bold != names_bold):
        return False
    return len(content) < 200 and mostly_names(content)
