"""A paper's authors from its first page, in every publisher's arrangement: where the byline is.

The names are read from the blocks between the title and the affiliations, abstract or first heading,
fragments on one line joined (publishers set each name and its marks apart), and the text read
is split into names by :func:`.author_names.split_names` (marks, degrees, capitals); a line break
between two whole names parts them; a report's kind under the names (``TECHNICAL REPORT``) is
none; an e-mail address in brackets after a name is dropped, not taken for an affiliation
(:func:`_without_contact`); the letters that key the affiliations, glued to the names by the text
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
page past the zone's depth.

Moved out of :mod:`.front_matter`, which reads the title, DOI, journal and date, and asks here
for the names (a line of names is never the title).
"""

from __future__ import annotations

import re
from itertools import pairwise

from paperpyramid.dates import date_alone
from paperpyramid.document import Author
from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.author_names import (
    GROUP,
    MARKS,
    PARTICLES,
    SPACING_ACCENTS,
    capitals,
    group_name,
    group_tail,
    mostly_names,
    split_names,
)
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.institutions import ADDRESS, AFFILIATION, INSTITUTION
from paperpyramid.parsers.embedded.layout import Line

# the front matter's labelled fields after the names, where no "Abstract" heading comes first
_FRONT_LABEL = re.compile(
    r"^(?:nomenclature|ccs concepts|additional key words|acm reference format|index terms|(?:table of )?contents|key ?words"
    r"|mathematics subject classification|msc\s?\d*|pacs|jel"
    # the same labels and the abstract's head in the languages of the journals that print them (Czech, Slovak,
    # German, French, Spanish, Italian, Portuguese, Polish): "Klíčová slova: LATEX, …"
    r"|klíčová slova|kľúčové slová|schlüsselwörter|schlagwörter|mots[- ]clés|palabras clave|parole chiave|palavras[- ]chave"
    r"|słowa kluczowe|abstrakt|zusammenfassung|résumé|resumen|riassunto|resumo|souhrn|streszczenie)\b",
    re.I,
)
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
    printed = _without_letter_marks(split_names(_APART_MARK.sub(r"\1", zone) if keys else zone), keys)
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
_APART_MARK = re.compile(r"(?<=[a-z]) ([a-h])(?=\s*(?:,|\band\b|&|$))")


# an address on the web, as an affiliation gives one ("aDebian Project, http: // www. debian. org")
_WEB = re.compile(r"https?:|\bwww\s?\.")


def letter_keys(blocks: list[Block], title_end: int) -> set[str]:
    """The letters that key the affiliations under the title, where they are letters: each opens
    an affiliation's line or follows a semicolon or comma in it, set close to the place's first
    word, or stands alone as its own small block before it (pinp: "a" "http://…"); an affiliation
    is an institution with its address, or a place with its e-mail or web address (elsarticle:
    "aDebian Project, http://www.debian.org")."""
    if title_end < 0:
        return set()
    page = blocks[title_end].page
    under = [block for block in blocks[title_end + 1 : title_end + 24] if block.page == page]
    alone = {block.text.strip() for block in under if re.fullmatch(r"[a-h]", block.text.strip())}
    return alone | {
        match.group(1) or match.group(2)
        for block in under
        if AFFILIATION.search(block.text) or "@" in block.text or _WEB.search(block.text)  # "bNikhef Theory Group": no comma
        for line in block.lines
        for match in _LETTER_KEY.finditer(line.text.strip())
    }


def _without_letter_marks(names: list[str], keys: set[str]) -> list[str]:
    """Names without the superscript letter each carries, glued to it by the text layer
    ("Dirk Eddelbuettela", "James Joseph Balamutab"), where the affiliations are keyed by
    those letters. Only where every name ends in one of the keys: a name that ends in such a
    letter of its own ("Garcia") beside names without one keeps it."""
    if not names or not keys or not all(name[-1] in keys and name.split()[-1][-2:-1].islower() for name in names):
        return names
    return [name[:-1] for name in names]


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
    window = [
        index
        for index in range(title_end + 1, min(title_end + 24, len(blocks)))
        if blocks[index].page == title.page
        and blocks[index].bottom > title.top  # not a masthead over the title, read after it (OUP's box at the right)
        and (blocks[index].kind != "furniture" or _names_only(blocks[index], title))
    ]
    # an affiliation's row; not one that goes on from a name on its line (ACM: "BEN TROVATO" + ", Institute …")
    rows = [
        blocks[i].top
        for i in window
        if _affiliation_line(blocks[i].lines[0].text.strip(), names_after_mark=False)
        and not blocks[i].text.lstrip().startswith(",")
        # an author's address beside the name (JMLR, PMLR), alone or then the next name, is no affiliation's row
        and not _contact_alone(blocks[i].text.strip())
        and not _names_after_contact(blocks[i].lines[0].text.strip())
    ]
    held = [line.top for i in window for line in blocks[i].lines if _COPYRIGHT.match(line.text.strip())]
    text = ""
    previous: Block | None = None
    stop: Block | None = None
    read: set[int] = set()
    names_size: float | None = None  # the type of the first names: later ones share it
    names_bold: bool | None = None  # and their weight
    after_affiliation = False
    affiliations: list[Block] = []  # names after an affiliation come below it, not on its row in its column (JSS)
    named: list[Block] = []  # the blocks names were read from
    for index in window:
        block = blocks[index]
        read.add(index)
        if block.top - title.bottom > 250 and not _goes_on_from(block, named + affiliations):
            break  # far under the title; not a stack of names and addresses that runs on there (a manual's title page)
        plain = block.text.strip().lower().strip(" .:")
        if (
            _NUMBER.sub("", plain) in blk.KNOWN_HEADINGS
            or plain.startswith(("abstract", "summary", "keywords", "background"))
            or _FRONT_LABEL.match(plain)
        ):
            stop = block
            break
        if _opens_a_section(blocks, index):
            break
        if any(other.x0 < block.x1 and block.x0 < other.x1 and block.top < other.bottom - 1 for other in affiliations):
            continue
        if any(abs(line.top - row) < 3 for line in block.lines for row in held):
            continue  # a copyright's holders ("Copyright 1999-2003 by" … "H.A. Schmidt, K. Strimmer, …")
        if _under_bold_names(block, named) and not _BYLINE.match(block.text.strip()):
            after_affiliation = True
            affiliations.append(block)
            continue
        if _version_line(block):
            continue
        content = _names_over_affiliation(block)
        if not content:
            content = _names_text(block)
            content = (_names_after_contact(content) if text and not after_affiliation else "") or content
            beside = any(abs(block.top - row) < 3 for row in rows) and not _affiliation_line(block.lines[0].text.strip())
            if len(content) > 400:
                if text:
                    break
                continue
            # a mark that opens a block on the names' row trails the name before it ("Schwarz ⓘ,1" "1 August Muench,1")
            opening = previous is None or abs(block.top - previous.top) < 3
            signing = not after_affiliation and _group_under_marked_names(content, block.size, text, names_size)
            if not signing and (beside or _affiliation_block(content, first=opening)):
                lead = "" if beside else _names_before_affiliation(block, names_size)
                if not lead:
                    after_affiliation = after_affiliation or bool(text)
                    affiliations += [block] if text else []
                    continue
                content = lead
            elif after_affiliation and content.startswith("(") and content.endswith(")"):
                continue  # a collaboration's name under its members: "(MUSO Collaboration)"
            elif after_affiliation and not _more_names(block, content, names_size, names_bold):
                # names, affiliation, names (REVTeX, Elsevier, AIAA): a block in smaller type goes on with the affiliation
                if names_size is not None and block.size < names_size - 0.3 and len(content) < 200:
                    continue
                break
        if not content.strip(MARKS + SPACING_ACCENTS + "0123456789, "):
            continue  # a block of marks or accents alone
        if _BYLINE.match(content) and not after_affiliation:
            text, named, previous, names_size, names_bold = "", [], None, None, None  # over a byline: the subtitle
        same_line = previous is not None and abs(block.top - previous.top) < 3 and -2 < block.x0 - previous.x1 < 0.3 * block.size
        split_word = same_line and text[-1:].isalpha() and (content[:1].isalpha() or content[:1] in SPACING_ACCENTS)
        text += "" if split_word else (" " if same_line else ", ")
        text += content
        previous = block
        if not split_names(text):
            continue  # nobody named yet (an article type's banner under the title): its type is not the names'
        named.append(block)
        names_size = block.size if names_size is None else names_size
        names_bold = block.bold if names_bold is None else names_bold
    if stop is not None:  # the boxes beside, reached after the abstract in reading order
        for index in range(title_end + 1, len(blocks)):
            block = blocks[index]
            if index in read or block.page != title.page or block.kind in ("furniture", "aside"):
                continue  # nor a note in the margin (Bioconductor's affiliation: "Cambridge Systems" / "Biology …")
            names = _names_over_affiliation(block) if title.bottom < block.top < stop.top else ""
            text += f", {names}" if names else ""
    return text


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
# these are affiliations, so only :data:`GROUP` is joined to them
_SIGNER = re.compile(rf"{GROUP.pattern}|\b(?:society|press|program|programme)\b", re.I)


def _group_names(zone: str, kind: re.Pattern[str] = GROUP) -> list[str]:
    """A group that signs the paper where no person does ("Online-Journal Subcommittee of
    JPSJ", "The XYZ Study Group"): a part of the names' zone that is one (:func:`group_name`;
    beside people's names, see :func:`group_tail`)."""
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
        if dated and not date_alone(block.text) and mostly_names(block.text) and not _affiliation_line(block.text):
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
        if split_names(lead) == [lead] and _affiliation_line(rest):
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
    """The group joined to the people's names as the last of them (:func:`group_tail`)."""
    group = group_tail(zone.strip(" ,;"))[1]
    return [group] if group else []


def _group_under_marked_names(line: str, size: float, names: str, names_size: float | None) -> bool:
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
        content = _names_text(block)
        if (block.bold or block.size > largest - 0.3) and not _affiliation_block(content, first=True) and mostly_names(content):
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
    smaller = block.size < named[0].size - _SMALLER and not _names_before_affiliation(block, None)
    if not (named[0].bold and not block.bold) and not smaller:
        return False
    return any(other.x0 < block.x1 and block.x0 < other.x1 and 0 <= block.top - other.bottom < other.size for other in named)


#: how much smaller, in points, an affiliation's type is than its names' where a class sets it a size down
#: (10pt under 11pt names, 9pt under 10pt); a name's accents or marks change a line's size less
_SMALLER = 0.6


def _affiliation_line(text: str, *, names_after_mark: bool = True) -> bool:
    """An address, or a line that opens with a mark; not one of names alone after a mark unless
    ``names_after_mark`` (a name's trailing mark wrapped onto the next box: "1 August Muench,1");
    a group joined to the names is not read as one ("… and the ABC Study Group": :func:`group_tail`)."""
    text = group_tail(text)[0]
    if "@" in text or AFFILIATION.search(text) or INSTITUTION.search(text) or ADDRESS.search(text):
        return True
    return bool(re.match(rf"^[\d{MARKS}]\s*[A-Z][a-z]", text)) and (names_after_mark or not mostly_names(text))


def _affiliation_block(content: str, *, first: bool) -> bool:
    """An address or institution, or a block that opens with a mark, save names alone directly
    under the title; a group joined to the names does not make one (:func:`group_tail`)."""
    content = group_tail(content)[0]
    if "@" in content or AFFILIATION.search(content) or INSTITUTION.search(content) or ADDRESS.search(content):
        return True
    if not re.match(rf"^[\d{MARKS}]\s*[A-Z][a-z]", content):
        return False
    names = split_names(content)  # a mark before the only name, directly under the title
    return not (first and names and len("".join(names).replace(" ", "")) >= 0.8 * sum(ch.isalpha() for ch in content))


def _names_only(block: Block, title: Block) -> bool:
    """Whether ``block``, under ``title``, holds names and their marks only (an amsart author
    line that the running heads repeat, so that it is taken for page furniture); not a box in
    the margin beside the title."""
    if not title.x0 <= (block.x0 + block.x1) / 2 <= title.x1:
        return False
    content = _names_text(block)
    if len(content) > 200 or _affiliation_block(content, first=True):
        return False
    return mostly_names(content)


def _more_names(block: Block, content: str, names_size: float | None, names_bold: bool | None = None) -> bool:
    """Whether a block after an affiliation names more authors: short, names only, in the first
    names' type, size and weight (names in bold over roman affiliations: an affiliation's second
    line, "Los Angeles" under "University of California,", is no name)."""
    if names_size is None or abs(block.size - names_size) > 0.3 or (names_bold is not None and block.bold != names_bold):
        return False
    return len(content) < 200 and mostly_names(content)


def _names_before_affiliation(block: Block, names_size: float | None) -> str:
    """The names that open an affiliation's lines ("A. N. Author, H. Coauthor, Name of Institute,
    City, Country"; ACM's "LARS THØRVÄLD, The Thørväld Group, Iceland"): the leading parts that
    are names, where a later part is an institution or an address. Once names were read, only
    names in the first names' type or set in capitals before the rest count. Before an address
    with no institution, only on the block's first line or under a line that opened with names:
    under an address's line, it is the address going on, a city before its state and postcode
    ("New York University" / "715, Broadway, 7th Floor" / "New York, NY, 10003")."""
    found: list[str] = []
    alone: list[str] = []
    opened = True  # the line over it opened with names, or there is none
    for line in block.lines:
        parts = [part.strip() for part in line.text.strip().lstrip(",").split(",")]
        upper = capitals(parts[0]) if parts else False
        lead: list[str] = []
        for part in parts:
            if AFFILIATION.search(part) or INSTITUTION.search(part) or (upper and not capitals(part)) or len(split_names(part)) != 1:
                break
            lead.append(part)
        rest = ", ".join(parts[len(lead) :])
        under_names, opened = opened, bool(lead)
        if lead and not rest:
            alone += lead  # a line of names alone, among the lines that open with names: "P. Contributor"
            continue
        if not lead or not (AFFILIATION.search(rest) or INSTITUTION.search(rest) or (under_names and ADDRESS.search(", " + rest))):
            continue
        if names_size is not None and abs(line.size - names_size) > 0.3 and not (upper and not capitals(rest)):
            continue
        found += lead
    return ", ".join(found + alone) if found else ""


def _names_over_affiliation(block: Block) -> str:
    """The names of a block that sets them over their affiliation (and e-mail): the lines above
    the first affiliation line; empty unless the block is names, then affiliation."""
    texts = [_without_contact(line.text) for line in block.lines]
    sizes = [line.size for line in block.lines]

    def affiliation(i: int) -> bool:
        text = texts[i]
        if i and _ACRONYM.search(text) and not mostly_names(text) and not capitals(texts[0]):
            return True  # an institution's acronym under a name: "Christophe Dutang" / "ENSIMAG, Grenoble INP"
        return _affiliation_line(text) and not (i and _group_under_marked_names(text, sizes[i], " ".join(texts[:i]), sizes[i - 1]))

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
    return _contact_alone(texts[index + 1]) and not _contact_alone(texts[index - 1])


# a name's address on its row, then the next name (JMLR, PMLR: "Author One one@x.org and Author Two two@x.org")
_LEADING_CONTACT = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:,|;|&|\band\b)\s*")


def _names_after_contact(content: str) -> str:
    """The names after the address that opens ``content``, where the text layer cut a row of
    names, each with its address beside it, after the first name: the block opens with that
    name's address and goes on with the next name, so it is no affiliation ("abc@sample.com and
    Author Name2"). Empty when anything but names follows the address."""
    match = _LEADING_CONTACT.match(content)
    rest = content[match.end() :].strip() if match else ""
    return rest if rest and "@" not in rest and len(rest) < 200 and mostly_names(rest) else ""


def _contact_alone(text: str) -> bool:
    return "@" in text and len(text.split()) <= 2


# an institution's acronym: three capitals or more ("ENSIMAG", "INP", "CNRS")
_ACRONYM = re.compile(r"\b[A-Z]{3,}\b")


_NAME_BREAK = re.compile(rf"[\d,;·⋅{MARKS}]|\band\b|&")


def _names_text(block: Block) -> str:
    """A block of names as one line; a line break is a comma where it falls between two whole
    names, each of two words or more and set without a mark (``Nathan Dahlberg`` /
    ``Margo Schlanger♦``), or before a group under names with marks (``Carl Dahl2`` / ``the ABC
    Study Group``), not inside one name (``Hannah`` / ``M. McGee``). A line that is a date alone
    is no name's ("SDC" / "November 2017" under a report's title: the place and the version's date)."""
    return _names_of_lines(block.lines)


def _names_of_lines(lines: list[Line]) -> str:
    """:func:`_names_text` of some of a block's lines."""
    lines = [line for line in lines if not date_alone(line.text)]
    if not lines:
        return ""
    groups = [[_without_contact(lines[0].text)]]
    for above, line in pairwise(lines):
        text = _without_contact(line.text)
        ending = _NAME_BREAK.split(groups[-1][-1])[-1].split()
        opening = _NAME_BREAK.split(text)[0].split()
        whole = groups[-1][-1][-1:].isalpha() and len(ending) >= 2 and len(opening) >= 2
        between = whole and all(word[:1].isupper() or word in PARTICLES for word in ending + opening)
        if between or _group_under_marked_names(text, line.size, groups[-1][-1], above.size):
            groups.append([text])
        else:
            groups[-1].append(text)
    return ", ".join(blk.join_lines(group) for group in groups)


# an e-mail address in brackets after a name: "Anna Berg (aberg@example.org)", "Anna Berg <aberg@example.org>"
_CONTACT = re.compile(r"\s*[(<\[]\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*[)>\]]")


def _without_contact(text: str) -> str:
    """A line of names without the e-mail address in brackets after each (``\\author{Anna Berg
    (\\texttt{aberg@example.org}) \\\\ Carl Dahl (…)}``, as vignettes print it): the address is the
    author's contact, not an affiliation that ends the names, and no part of a name. A line of
    the address alone is kept as it is: under a name, it reads as the name's address."""
    return _CONTACT.sub("", text).strip() or text.strip()
