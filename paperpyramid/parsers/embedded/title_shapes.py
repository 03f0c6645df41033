"""Two shapes of a title page that type size alone misreads, for :func:`.front_matter.find_title`.

- a program's name alone, centred in the page's largest type over a centred line or two that
  describe it in smaller display type (a package's cover page: "pst-asr" over "Tex macros for
  typesetting autosegmental representations", "APCluster" over "An R Package for Affinity
  Propagation Clustering"): the name is the title, though one word is too short for one elsewhere
  (:func:`name_over_description`);
- a title's line set in another font between two lines in the title's own face (a program's name
  in a typewriter face: "A Program For Automatic Pedigree Construction" / "With pst-pdgr" /
  "User Manual and Algorithm Description"): the three are the title (:func:`face_resumes_under`);
- the document's kind alone on a line of its own under a title that reads alone ("A Program to
  find Maximal Matches" / "in Large Sequences" / "Manual*"): a kicker the page sets apart from the
  title's lines, no word of the title (:func:`kind_under_title`), where a kind read in the title's
  paragraph at its own leading ("An extension for Greek philology" / "User manual") is;
- a program's name alone over the document's kind alone ("LTRharvest" / "a manual"), the kind
  perhaps in larger type: the name is the title (:func:`name_over_kind`);
- a title of a word or two, in the page's largest type, whose byline is aligned under it on the
  same edge however far down the cover sets it ("DIFFKK" set flush right over the names flush
  right, between a cover's rules): the title, though too short for one elsewhere
  (:func:`word_over_byline`);
- a name closed by a comma and followed by an address and an e-mail ("Paul Johnson, CRMDA,
  pauljohn@ku.edu") under a centred title at body size: a byline, as no title's line is
  (:func:`name_with_address`);
- a bold title at body size opening the page flush left, over names each on a line over its
  institution, flush with it (a software guide's "PyCorrFit" / "FCS data evaluation" over
  "Software Guide" and "Thomas Weidemann" / "Max Planck Institute of Biochemistry, …"): the title,
  though the page's largest type is its contents' heading (:func:`title_over_names_at_margin`).
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded.author_names import capitals, mostly_names
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.institutions import names_institution
from paperpyramid.parsers.embedded.layout import Page

#: the kinds of block no title is
NEVER_TITLE = ("caption", "formula", "furniture")
#: and small print set aside, which a title is only where its type reads small (a bold title boxed small)
SET_APART = (*NEVER_TITLE, "aside")
# a program's name: one word of letters, digits and joiners, with three letters at least ("pst-asr", "APCluster", "R/GSEPD")
_PROGRAM_NAME = re.compile(r"(?=(?:.*[^\W\d_]){3})[\w][\w.+/-]{2,29}")


def name_over_description(blocks: list[Block], index: int, first_page: Page, body_size: float) -> bool:
    """Whether ``blocks[index]`` is a program's name set as the title over its description: the
    name alone (:func:`_program_name_alone`) with right under it one to three centred lines of
    three words or more in display type smaller than the name's and no byline."""
    if not _program_name_alone(blocks, index, first_page, body_size):
        return False
    block, below = blocks[index], blocks[index + 1]
    if below.page != block.page or below.kind in SET_APART or len(below.lines) > 3 or len(below.text.split()) < 3:
        return False
    if not body_size + 1 <= below.size <= block.size - 0.6 or not 0 <= below.top - block.bottom <= 1.5 * block.size:
        return False
    return _centred_on(below, (block.x0 + block.x1) / 2, 3.0) and not mostly_names(below.text)


def _program_name_alone(blocks: list[Block], index: int, first_page: Page, body_size: float) -> bool:
    """Whether ``blocks[index]`` is a program's name alone, as a cover sets its title, with a block
    after it: one word (never all capitals, as a journal's or a publisher's logo is: "PLOS", "BMJ",
    nor a word as a dictionary writes it: "Editorial", "Biometrika", "Inria") on a line of its own
    in the top two fifths of the page, well above the text's size and centred on the page."""
    block = blocks[index]
    text = block.text.strip()
    if block.kind in SET_APART or len(block.lines) != 1 or not _PROGRAM_NAME.fullmatch(text) or capitals(text) or _dictionary_word(text):
        return False
    if block.size < body_size + 3 or block.top > 0.4 * first_page.height or index + 1 >= len(blocks):
        return False
    return _centred_on(block, first_page.width / 2, 0.04 * first_page.width)  # a page's margins may differ by a few points


def name_over_kind(blocks: list[Block], index: int, first_page: Page, body_size: float) -> bool:
    """Whether ``blocks[index]`` is a program's name set as the title over the document's kind
    alone ("LTRharvest" / "a manual", "Manual", "User's Guide"): the name alone
    (:func:`_program_name_alone`), and right under it, centred under it, one line in
    display type that is the kind alone, which may be set larger than the name (an italic name
    over an upright kind). The kind is no part of the title; a title in larger type elsewhere on
    the page is the title still (:func:`.front_matter.find_title` takes the largest)."""
    if not _program_name_alone(blocks, index, first_page, body_size):
        return False
    block, below = blocks[index], blocks[index + 1]
    if below.page != block.page or below.kind in SET_APART or len(below.lines) != 1 or below.size < body_size + 1:
        return False
    if not _DOCUMENT_KIND.fullmatch(_NOTE_MARKS.sub("", below.text.strip())) or not 0 <= below.top - block.bottom <= 1.5 * block.size:
        return False
    return _centred_on(below, (block.x0 + block.x1) / 2, 3.0)


# the words a title's line in another face opens with where it goes on with the title's sentence ("With pst-pdgr");
# never "by", which opens a byline
_JOINING_WORD = re.compile(r"(?i:with|without|for|and|of|in|on|using|via|from|to|through)\s+\S")


def face_resumes_under(blocks: list[Block], index: int, title: Block) -> bool:
    """Whether ``blocks[index]`` is one line of the title set in another face, right under the
    title's line ``title`` and within its width, opening with a word that goes on with the title's
    sentence ("With …"), with the next block in the title's own face (its font, weight and size)
    right under it and no names ("In memory of …" over a byline set as the title is): a title goes on in its face after a word a class sets in another font (a
    program's name in a typewriter face), where a byline ("by …") or a date under a title opens
    with no such word."""
    if index + 1 >= len(blocks):
        return False
    block, resumed = blocks[index], blocks[index + 1]
    if block.page != title.page or resumed.page != title.page or len(block.lines) != 1 or block.kind in SET_APART:
        return False
    if block.lines[0].font == title.lines[-1].font or not 0.5 * title.size <= block.size <= title.size + 0.6:
        return False
    if not _right_under(title, block) or not _right_under(block, resumed, title.size) or len(resumed.lines) > 2:
        return False
    face = (title.lines[-1].font, title.bold)
    if (resumed.lines[0].font, resumed.bold) != face or abs(resumed.size - title.size) > 0.6 or resumed.kind in SET_APART:
        return False
    return bool(_JOINING_WORD.match(block.text.strip())) and not mostly_names(block.text) and not mostly_names(resumed.text)


def _dictionary_word(text: str) -> bool:
    """Whether ``text`` is a word as a dictionary prints it, with a capital first ("Editorial",
    "Biometrika", "Inria", "Kurzbeschreibung"): an article's type, a journal's or an institute's
    name, a heading; a program's name is written otherwise ("pst-asr", "APCluster", "isomath")."""
    return text[:1].isupper() and text[1:].isalpha() and text[1:].islower()


def _right_under(above: Block, block: Block, size: float | None = None) -> bool:
    """``block`` right under ``above`` (within 1.2 of ``size``, the one above's by default), within its width or centred under it."""
    gap = block.top - above.bottom
    within = above.x0 - 2 <= block.x0 and block.x1 <= above.x1 + 2
    return 0 <= gap <= 1.2 * (size or above.size) and (within or _centred_on(block, (above.x0 + above.x1) / 2, 3.0))


def _centred_on(block: Block, middle: float, slack: float) -> bool:
    """The middle of ``block`` within ``slack`` points of ``middle`` (a page's or a line's)."""
    return abs((block.x0 + block.x1) / 2 - middle) <= slack


#: an e-mail address
E_MAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def name_with_address(block: Block) -> bool:
    """Whether ``block`` is a byline of one name with its address: a line or two that open with a
    name, closed by a comma, and give an e-mail address ("Paul Johnson, CRMDA, pauljohn@ku.edu"),
    as no title's line does."""
    text = block.text.strip()
    name = text.split(",", 1)[0]
    return len(block.lines) <= 2 and "," in text and bool(E_MAIL.search(text)) and len(name.split()) >= 2 and mostly_names(name)


# a document's kind, as a cover sets it alone under the title: "Manual", "User's Guide", "a manual", "Reference Manual"
_DOCUMENT_KIND = re.compile(
    r"(?i:(?:an?|the)\s+)?(?i:(?:user['’]?s?|users['’]|reference|programmer['’]?s|quick\s+start|installation|technical|software|package)\s+)?"
    r"(?i:manual|guide|tutorial|handbook|documentation|vignette|primer)"
)
# the marks a \thanks note leaves after a line: "Manual*", "Guide†"
_NOTE_MARKS = re.compile(r"[\s*∗†‡§¶⋆\d]*$")


def kind_in_title_type(previous: Block, block: Block) -> bool:
    """Whether ``block`` is the document's kind alone on a line of the title's own type and face,
    centred under its last line ``previous`` at up to 1.6 of its size ("MUSIC — Multi-Simulation
    Coordinator" / "Users Manual"): the title's last line, set off by a wider leading than a line
    break's, which :func:`find_title` reads with the title though the gap parts them; the kind alone
    and marked as a note's line is :func:`kind_under_title`'s."""
    if len(block.lines) != 1 or block.page != previous.page or abs(block.size - previous.size) > 0.3:
        return False
    line, last = block.lines[0], previous.lines[-1]
    if (line.font, line.bold, line.italic) != (last.font, last.bold, last.italic):
        return False
    centred = abs((block.x0 + block.x1) - (last.x0 + last.x1)) / 2 <= 0.2 * previous.size
    return centred and 0 <= block.top - previous.bottom <= 1.6 * previous.size and bool(_DOCUMENT_KIND.fullmatch(block.text.strip()))


def kind_under_title(block: Block) -> bool:
    """Whether ``block``, a block of its own under the title's lines, is the document's kind alone
    ("Manual*", "User's Guide"): a kicker that names what the document is, set apart from the title
    by a wider leading than its own lines (which parts it into a block of its own): one word, or
    more with a note's mark; "A Primer" and "Reference Manual" alone are a subtitle. The caller asks
    it only where the title's lines above read as a title alone; a kind in the title's paragraph, at
    its leading ("An extension for Greek philology" / "User manual"), is read with it."""
    if len(block.lines) != 1:
        return False
    text = block.text.strip()
    bare = _NOTE_MARKS.sub("", text)
    # a kind with an article or a qualifier ("A Primer", "Reference Manual") reads as a subtitle, unless a
    # note's mark sets it apart as a line of its own ("User's Guide*")
    return bool(_DOCUMENT_KIND.fullmatch(bare)) and (len(bare.split()) == 1 or bare != text)


#: how much larger than the text a cover's one-word title is set at least (points), and how near the page's
#: largest type
_DISPLAY_OVER_BODY = 3.0
_NEAR_LARGEST = 0.2
#: the share of the page's height a cover's title stands within, from the top
_COVER_TOP = 0.6
#: how much smaller than the title its byline is set at least (points)
_BYLINE_SMALLER = 0.6
#: how far a byline's edge or middle may stand from the title's to be aligned with it (points)
_ALIGNED = 3.0


def word_over_byline(blocks: list[Block], index: int, first_page: Page, body_size: float, largest: float) -> bool:
    """Whether ``blocks[index]`` is a title of a word or two on a cover ("DIFFKK"): one line in the
    page's largest type (``largest``), well above the text's size, in the top three fifths of the
    page, with the next block a line of names in smaller type aligned with it on the same edge or
    axis (flush right under flush right, centred under centred; flush left counts only off the
    page's left margin, where every block starts). A title too short to be told by its words is
    told by its byline: a cover sets the names on the title's own axis, however far under it; a
    logo over a title has the title, not names, under it. The caller rules out known labels and
    article types ("Contents", "Correspondence") and a journal's name."""
    block = blocks[index]
    text = block.text.strip()
    if block.kind in SET_APART or len(block.lines) != 1 or not 1 <= len(text.split()) <= 2 or not re.search(r"[^\W\d_]{3}", text):
        return False
    if block.size < max(body_size + _DISPLAY_OVER_BODY, largest - _NEAR_LARGEST) or block.top > _COVER_TOP * first_page.height:
        return False
    if index + 1 >= len(blocks):
        return False
    names = blocks[index + 1]
    if names.page != block.page or names.kind in SET_APART or len(names.lines) != 1 or names.size > block.size - _BYLINE_SMALLER:
        return False
    margin = min(other.x0 for other in blocks if other.page == block.page)
    edges = [abs(names.x1 - block.x1), abs((names.x0 + names.x1 - block.x0 - block.x1) / 2)]
    if block.x0 > margin + _ALIGNED:
        edges.append(abs(names.x0 - block.x0))
    return min(edges) <= _ALIGNED and names.top >= block.bottom and mostly_names(names.text)


#: how many blocks under a bold title at the margin its byline may start after (a kind, a logo beside it)
_BYLINE_WITHIN = 3


def title_over_names_at_margin(blocks: list[Block], index: int) -> bool:
    """Whether ``blocks[index]``, bold, is the first block of its page and stands over a byline
    flush with it: within the next blocks under it at its left edge (past a logo beside it and a
    line of the document's kind), one whose first line is names and whose second names an
    institution ("Thomas Weidemann" / "Max Planck Institute of Biochemistry, Martinsried,
    Germany"). The caller asks it where no block in display type is the title."""
    block = blocks[index]
    if not block.bold or block.kind in SET_APART or any(other.page == block.page for other in blocks[:index]):
        return False
    under = [other for other in blocks[index + 1 : index + 1 + _BYLINE_WITHIN] if other.page == block.page and other.top >= block.bottom]
    for other in under:
        if abs(other.x0 - block.x0) > _ALIGNED or other.kind in SET_APART:
            continue
        lines = [line.text.strip() for line in other.lines]
        if len(lines) >= 2 and mostly_names(lines[0]) and "," not in lines[0] and names_institution(lines[1]):
            return True
    return False
