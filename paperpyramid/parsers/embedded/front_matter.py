"""A paper's bibliographic fields from every source the PDF has: title, authors, DOI, journal, date.

- **title**: the largest type on the first page, with the lines in the same type just below it
  (titles wrap over several blocks; a block beside them, as authors in a margin column, does not
  end them); without one, bold capitals at the top of page 1 (amsart), else a bold block centred
  near the top (JPSJ, AASTeX); a title of two words only in the page's largest type, over every
  longer candidate (``Rcpp FAQ``); a bold line at body size the running feet repeat (TUGboat:
  :func:`.reading_order.remove_page_furniture` keeps it on page 1 and tags it); never a line
  of names with their marks (OUP sets them large); never a journal's masthead over its issue
  line (JSS) or beside it (OUP's Bioinformatics); a first line read apart from the rest, too short alone or in smaller boxes, is
  the title's (:func:`_line_over_title`); a title at body size flush over its author's name set
  a paragraph's indent in (TUGboat: :func:`_byline_opening`, under the journal's section head),
  centred over a line of names with their marks, or a title of one or two words over \\maketitle's
  name and date lines (:func:`_maketitle`), or over a name with its address and e-mail
  (:func:`.title_shapes.name_with_address`), or a cover's title of a word or two over its byline aligned under
  it on the same edge (:func:`.title_shapes.word_over_byline`); never a line of dates and their
  labels ("Modified: … Compiled: …": :func:`.journal.date_line`); TUGboat's title over two blocks, or a program's
  name in its logo's font smaller than the text, over the indented name too; a line ending on a
  word no title ends on goes on in a logo's smaller type under it (:func:`_cut_after_function_word`),
  and a title goes on in a line of another font that opens with a small word in lower case
  (:func:`_goes_on_with_a_connective`: "… package" / "and greektonoi.map mapping."), and over
  a lone "or" into its alternative (:func:`_alternative_title`); an article's type is never the
  title, though Hindawi sets it larger ("Letter to the Editor"), nor is a manual's kind on its
  cover's banner ("Software Manual"); a program's name alone over its description, and a title's
  line in another face between lines in its own (:mod:`.title_shapes`), are read as titles;
  a footnote's letter mark after it (REVTeX's ``a)``) is dropped, and a ``\\thanks`` symbol (``∗``),
  and a note's number glued to the last word where the note under it opens with that number
  (elsarticle: ``… Linear Algebra1``); a description of what the paper documents, set in its
  paragraph in another face and ending in a full stop, is not the title (:func:`_description_start`);
  a package's version on a line of its own under the title (``Version 2.30.0``, or ``(version 1.7.7)`` in
  roman under a bold title) is not the title's, nor is a report's banner (``TECHNICAL REPORT``),
  nor the document's kind alone set apart under a title that reads alone (``Manual*``:
  :func:`.title_shapes.kind_under_title`);
  a title's last words set apart along its row by a widened space are (:func:`_goes_on_along_the_row`);
  the Info or XMP title where the page gives none, or where the page's is a cut-off start of it.
- **authors**: :mod:`.authors` (names between the title and the affiliations, in every
  publisher's arrangement); :func:`find_authors` is re-exported here for the parser.
- **DOI**: the first on the first two pages (running heads included), the XMP's, the Info
  subject's; of two versions of one DOI printed together (F1000: ``….4767.1`` first
  published, ``….4767.2`` latest), the latest.
- **journal and year**: the citation line publishers print in running heads, footers,
  mastheads and "Cite this article" boxes, gathered by :mod:`.citation_lines` and read
  by :func:`.journal.find_journal` (see there); XMP's ``prism:publicationName``; an Info or XMP
  description (or a word processor's title field) written as a citation.
- **date**: "Published" (the latest, for a paper with versions) before "published online",
  before "Accepted", which is not a publication date; else the journal line's date or year
  (without one, the first page's arXiv stamp, copyright line or date line: :mod:`.journal`),
  else the XMP's date.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from itertools import pairwise

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.author_names import MARKS, capitals, mostly_names, split_names
from paperpyramid.parsers.embedded.authors import find_authors as find_authors  # the parser reads it here
from paperpyramid.parsers.embedded.authors import mentions_version, version_alone
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.journal import CUE, DATE, date_line
from paperpyramid.parsers.embedded.journal import find_journal as find_journal  # the parser reads it here
from paperpyramid.parsers.embedded.labels import GENERIC_TITLES, KICKERS
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.reading_order import REPEATED_TITLE
from paperpyramid.parsers.embedded.scripts import unspaced
from paperpyramid.parsers.embedded.title_shapes import (
    E_MAIL,
    NEVER_TITLE,
    SET_APART,
    face_resumes_under,
    kind_in_title_type,
    kind_under_title,
    name_over_description,
    name_over_kind,
    name_with_address,
    title_over_names_at_margin,
    word_over_byline,
)

# a DOI may wrap after a full stop: "doi:10.1371/journal.pone.\n0115884"
DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>,;]+?(?:\.\s(?=\d)(?!\d{1,3}(?:\s|$))[^\s\"<>,;]+)?)(?=[\s\"<>,;]|[.)\]](?:\s|$)|$)")
_DATED = re.compile(
    rf"\b(?P<kind>latest published|first published|published online|published|accepted|date of publication)\s*:?\s*(?P<date>{DATE})", re.I
)
_DATE_RANK = {"latest published": 0, "date of publication": 1, "published": 1, "published online": 2, "first published": 3, "accepted": 4}


def find_title(blocks: list[Block], pages: list[Page], body_size: float) -> list[int]:
    """The blocks of the printed title, in order; empty when the first page shows none."""
    best: int | None = None
    short = _short_title_over_the_rest(blocks, pages[0], body_size)
    for index, block in enumerate(blocks):
        if block.page != 1:
            break
        if not (index == short or _title_like(block, pages[0]) or _stacked_title(blocks, index, pages[0])):
            continue
        if _masthead(blocks, index) or _journal_name(block) or _overlaid(blocks, index):
            continue
        if best is None or block.size > blocks[best].size + 0.2:
            best = index
    if best is not None and blocks[best].size < body_size + 1:
        best = None
    if best is None:
        best = _title_at_body_size(blocks, pages[0], body_size)
    opening = _byline_opening(blocks, pages[0], body_size)
    if opening is not None and (best is None or (best < opening[0] and len(blocks[best].text.split()) <= 3)):
        # over it, the journal's section head in display type ("Graphics Applications"), a title's words never
        return list(range(opening[0], opening[0] + opening[1]))
    if best is None:
        return _newsletter_masthead(blocks, body_size)
    if best == short and name_over_kind(blocks, best, pages[0], body_size):
        return [best]  # "LTRharvest" / "a manual": the kind under the name is no part of the title
    by_weight = blocks[best].size < body_size + 1  # found by its bold type, which then ends it too
    members = [best]
    while members[0] > 0 and (
        _line_over_title(blocks[members[0] - 1], blocks[members[0]]) or _head_over_subtitle(blocks[members[0] - 1], blocks[members[0]])
    ):
        members.insert(0, members[0] - 1)
    for index in range(best + 1, min(best + 6, len(blocks))):
        block, previous = blocks[index], blocks[members[-1]]
        if index <= members[-1]:
            continue  # read with the line over it
        if _goes_on_along_the_row(previous, block):
            members.append(index)  # the line's last words set apart by a wide space: "This is a specimen ab" "title⋆"
            continue
        if block.page == 1 and (block.x1 <= previous.x0 or block.x0 >= previous.x1):
            continue  # a block beside the title (the authors in a margin column) does not end it
        if _cut_after_function_word(previous, block) or _goes_on_with_a_connective(previous, block):
            members.append(index)  # "… l'espace avec" / "METAPOST", "… package" / "and greektonoi.map mapping."
            if not block.text.rstrip().endswith(":"):
                break
            continue  # no title ends on a colon: its subtitle follows ("… disease" / "in Jiangsu Province, China:" / "a population-based study")
        if _subtitle_after_colon(previous, block, body_size):
            members.append(index)  # "Aspirin in Older Adults:" / "A Randomised Trial" in smaller display type
            continue  # its lines read apart go on in its type under it
        if face_resumes_under(blocks, index, previous):
            members += [index, index + 1]  # "… Construction" / "With pst-pdgr" in a typewriter face / "User Manual …"
            continue
        if _alternative_title(blocks, index, previous, pages[0]):
            members += [index, index + 1]  # "Repository of …" / "or" / "Essay on …"
            break
        if block.page != 1 or abs(block.size - previous.size) > 0.6 or block.kind in SET_APART:
            break
        if by_weight and not block.bold or _names_line(_row_text(blocks, index)):
            break  # a byline in the title's size opens with names and their marks
        wide = block.top - previous.bottom > 1.2 * previous.size and not kind_in_title_type(previous, block)
        if wide or len(" ".join(blocks[i].text for i in members)) + len(block.text) > 400:
            break
        if kind_under_title(block) and _reads_alone(" ".join(blocks[i].text for i in members)):
            break  # "… in Large Sequences" / "Manual*": the document's kind set apart under a title that reads alone
        members.append(index)
    following = members[-1] + 1
    if following < len(blocks) and _description_start(blocks, [*members, following]) is not None:
        members.append(following)  # the description's last line, in smaller type: read with the title, not as names
    return members


def _reads_alone(title: str) -> bool:
    """Whether the title's lines read as a title without the line under them: a plausible title
    that does not end on a colon or a dash, which a subtitle follows."""
    title = title.rstrip()
    return plausible_title(title) and not title.endswith((":", "-", "–", "—"))


def _title_at_body_size(blocks: list[Block], first_page: Page, body_size: float) -> int | None:
    """The title where no block in display type is one, by the first of these shapes the page has:
    amsart's title in bold capitals at body size; a bold title centred over the page (JPSJ, AASTeX,
    ASME); a title at body size centred over its names with their marks or over a name with its
    address; LaTeX's \\maketitle of two words over its author and date lines; a cover's title of a
    word or two over its byline aligned under it ("DIFFKK" over names flush right); a title the
    running feet repeat, in bold at body size (TUGboat)."""
    largest = max((b.size for b in blocks if b.page == 1), default=0.0)

    def over_byline(i: int, b: Block) -> bool:
        below = blocks[i + 1] if i + 1 < len(blocks) else None
        return below is not None and below.page == 1 and _centred(b, first_page) and (_names_line(below.text) or name_with_address(below))

    shapes: list[Callable[[int, Block], bool]] = [
        lambda i, b: b.bold and _title_like(b, first_page) and capitals(b.text),
        lambda i, b: b.bold and _title_like(b, first_page) and _centred(b, first_page),
        lambda i, b: _title_like(b, first_page) and over_byline(i, b),
        lambda i, b: _title_like(b, first_page) and title_over_names_at_margin(blocks, i),
        lambda i, b: i < len(blocks) - 2 and _maketitle(blocks[i : i + 3], first_page, body_size),
        lambda i, b: word_over_byline(blocks, i, first_page, body_size, largest) and not _label(b.text) and not _journal_name(b),
        lambda i, b: REPEATED_TITLE in b.lines[0].tags and _title_like(b, first_page),
    ]
    for shape in shapes:
        found = next((i for i, b in enumerate(blocks) if b.page == 1 and shape(i, b)), None)
        if found is not None:
            return found
    return None


# words no title ends on (English, French, German): a title's line ending on one goes on below
# (not "in", "on", "to", "die": "Plug-in", "Carry on", "How to", "To Die" may end one; nor "A": "Plan A")
_OPEN_ENDED = re.compile(
    r"(?<![\w-])(?:(?i:with|of|for|and|the|from|avec|pour|dans|des|du|les|et|sur|par|mit|und|für|von|zur|zum)|a|an|la|le|de|der|das)$"
)


def _cut_after_function_word(previous: Block, block: Block) -> bool:
    """Whether ``block`` is the title's last line though its type differs: the title's line over it
    ends on a word no title ends on ("… dans l'espace avec"), and the block is one short line right
    under it, flush with it, in smaller type (a program's logo set in its own font, "METAPOST")."""
    if block.page != previous.page or len(block.lines) != 1 or block.kind in SET_APART:
        return False
    if not _OPEN_ENDED.search(previous.text.strip()) or block.size >= previous.size or block.size < 0.5 * previous.size:
        return False
    if not 0 <= block.top - previous.bottom <= 1.2 * previous.size or abs(block.x0 - previous.x0) >= 2 or len(block.text) >= 60:
        return False
    return not mostly_names(block.text)  # names flush under a title are its byline, whatever it ends on


def _subtitle_after_colon(previous: Block, block: Block, body_size: float) -> bool:
    """Whether ``block`` is the title's subtitle, set a size smaller: the title's line over it ends
    on a colon, where no title ends ("Aspirin in Older Adults:" / "A Randomised Trial of Its
    Harms", as medical journals set a title in two sizes), and the block is right under it, in
    display type still larger than the text's, four lines at most (a long subtitle in a narrow
    measure) and no byline."""
    if block.page != previous.page or block.kind in SET_APART or len(block.lines) > 4:
        return False
    if not previous.text.rstrip().endswith(":") or not body_size + 1 <= block.size < previous.size - 0.6:
        return False
    # the boxes of two lines set close may touch: a descender's box reaches under the next line's top
    if not -0.1 * previous.size <= block.top - previous.bottom <= 1.2 * previous.size or len(block.text) >= 250:
        return False
    if capitals(previous.text) and capitals(block.text):  # in capitals every word reads as a name: a byline has its marks
        return not _names_line(block.text)
    return not mostly_names(block.text)


# the small words a title's next line may open with, in lower case: "Documentation for the greektonoi.sty
# package" / "and greektonoi.map mapping." (the file's name set in another font and size), and the
# conjunctions and relatives that go on with its sentence ("How to sample from the SN and related
# distributions" / "when we want to fix skewness and other cumulants", set a size smaller)
_CONNECTIVE = re.compile(r"^(?:and|or|of|for|with|in|on|to|from|via|using|und|et|ou|when|where|while|which|whose|that|if)\s+\S")


def _goes_on_with_a_connective(previous: Block, block: Block) -> bool:
    """Whether ``block`` is the title's last line though its type differs: one line right under
    the title's, within its width, in type no larger and at least half its size, that opens with a
    small word in lower case, as no byline, affiliation or abstract does (a title's words that a
    class sets in another font: "… package" / "and greektonoi.map mapping.")."""
    if block.page != previous.page or len(block.lines) != 1 or block.kind in SET_APART:
        return False
    if not _CONNECTIVE.match(block.text.strip()) or not 0.5 * previous.size <= block.size <= previous.size + 0.6:
        return False
    if not 0 <= block.top - previous.bottom <= 1.2 * previous.size or block.x0 < previous.x0 - 2 or block.x1 > previous.x1 + 2:
        return False
    return len(block.text) < 100 and not mostly_names(block.text) and not mentions_version(block.text)  # "for BMS Version 0.3.5"


_OR_ALONE = re.compile(r"(?i:or|ou|oder),?")


def _alternative_title(blocks: list[Block], index: int, previous: Block, first_page: Page) -> bool:
    """Whether ``blocks[index]`` is the "or" alone on its line between a title and its alternative
    ("Repository of music-notation mistakes" / "or" / "Essay on the true art of music engraving"),
    each set centred under the other: the alternative in the title's weight, at least three
    quarters of its size, read with it."""
    if index + 1 >= len(blocks) or not _OR_ALONE.fullmatch(blocks[index].text.strip()):
        return False
    conjunction, other = blocks[index], blocks[index + 1]
    if conjunction.page != previous.page or other.page != previous.page or other.bold != previous.bold:
        return False
    if not 0.75 * previous.size <= other.size <= previous.size + 0.6:
        return False
    if conjunction.top - previous.bottom > 3 * previous.size or other.top - conjunction.bottom > 3 * previous.size:
        return False
    return previous.x0 - 2 <= conjunction.x0 and conjunction.x1 <= previous.x1 + 2 and _title_like(other, first_page)


_ABSTRACT_HEAD = re.compile(r"^abstract\b", re.I)


def _byline_opening(blocks: list[Block], first_page: Page, body_size: float) -> tuple[int, int] | None:
    """The title of an article that opens as TUGboat's do, as (first block, blocks): the title
    flush with the column, in one block or two (a long title's second line read apart:
    "Automatically removing widows and orphans" / "with lua-widow-control"), the author's name on
    a line of its own under it indented by about a paragraph's indent, then the abstract's or the
    first section's head. No type size tells such a title from the text: it is set at the body's
    size, or smaller where it is a program's logo in its own font ("METATEX" in METAFONT's logo
    font, a word too short for a title elsewhere); a section head of the journal in display type
    may stand over it; the indented name under it tells it, its indent measured in the line's
    height where the text layer reads the font's size smaller (TUGboat's bitmap fonts)."""
    for index in range(min(6, len(blocks) - 2)):
        for span in (1, 2):
            if index + span + 1 >= len(blocks):
                break
            title, last, name, after = blocks[index], blocks[index + span - 1], blocks[index + span], blocks[index + span + 1]
            if title.page != 1 or after.page != 1 or title.size > body_size + 0.6 or len(title.lines) > 3:
                continue
            if span == 2 and (abs(last.size - title.size) > 0.6 or abs(last.x0 - title.x0) > 2 or last.top - title.bottom > title.size):
                continue
            if len(name.lines) != 1 or abs(name.size - body_size) > 0.6 or not _opening_title(blocks[index : index + span], first_page):
                continue
            indent, em = name.x0 - title.x0, max(name.size, name.bottom - name.top)  # a font's size misread small: its box's height
            if not 0.8 * em <= indent <= 3.5 * em or name.top - last.bottom > 2 * em:
                continue
            if mostly_names(name.text) and (after.kind == "heading" or _ABSTRACT_HEAD.match(after.text)):
                return index, span
    return None


def _opening_title(members: list[Block], first_page: Page) -> bool:
    """Whether ``members`` read as the title of :func:`_byline_opening`: a title by its text, or,
    in its slot, a short one (a program's name: "METATEX"), never a known heading, an article's
    type or a line of names."""
    text = " ".join(block.text.strip() for block in members)
    # a title in bold whose boxes the text layer reads smaller than the text's is set aside as small print
    if any(block.kind in ("caption", "formula") or (block.kind == "aside" and not block.bold) for block in members) or _names_line(text):
        return False
    if _generic(text) or not re.search(r"[^\W\d_]{3}", text):
        return False
    if _title_like(members[0], first_page, text, NEVER_TITLE if members[0].bold else SET_APART):
        return True
    return len(text.split()) <= 2 and members[0].top < 0.3 * first_page.height


def _goes_on_along_the_row(previous: Block, block: Block) -> bool:
    """Whether ``block`` goes on with the title's last line along its row: one line in the title's
    type, set right after it on its baseline, closer than a word or two (a space the text layer
    widened, where the page's reading parts the line into two boxes); a block farther off beside
    the title is another column's."""
    if block.page != previous.page or len(block.lines) != 1 or abs(block.size - previous.size) > 0.6:
        return False
    last = previous.lines[-1]
    return abs(block.top - last.top) < 0.3 * previous.size and 0 <= block.x0 - last.x1 < previous.size


def _description_start(blocks: list[Block], members: list[int]) -> int | None:
    """Where a description of the paper opens among the lines of ``members``, the title's
    paragraph; None where it holds none. The title's lines change face (another font or weight;
    in bitmap fonts without names, as dvips embeds them, another box height) and the lines from
    there run on into a last block in smaller type, one or two lines right under them at the
    title's own line spacing, that ends in a full stop ("Visualising very long data vectors" /
    "with the Hilbert curve" / "Description of the Bioconductor packages" / "HilbertVis and
    HilbertVisGUI."): a title is no sentence; these lines describe what the paper documents."""
    if len(members) < 2:
        return None
    last, before = blocks[members[-1]], blocks[members[-2]]
    lines = [line for index in members for line in blocks[index].lines]
    if last.page != before.page or len(last.lines) > 2 or not last.text.rstrip().endswith(".") or last.size > lines[0].size - 2:
        return None
    spacing = [b.top - a.bottom for a, b in pairwise(blocks[members[0]].lines)]
    if not spacing or not 0 <= last.top - before.bottom <= max(spacing) + 1:
        return None
    faces = [(line.font, line.bold, line.italic, round(line.size, 1)) for line in lines]
    title_lines = len(lines) - len(last.lines)
    opening = next((index for index in range(1, title_lines) if faces[index] != faces[0]), None)
    if opening is None or any(faces[index] != faces[opening] for index in range(opening, title_lines)):
        return None
    return opening


# a masthead's issue line: "November 2012, Volume 51, Issue 7.", "Vol. 3, No. 2 (2019)"
_ISSUE_LINE = re.compile(
    r"\b(?:vol(?:ume)?\.?|issue|no\.|number)\s*\d+\b.*\b(?:19|20)\d\d\b|\b(?:19|20)\d\d\b.*\b(?:vol(?:ume)?\.?|issue|no\.)\s*\d+", re.I
)


def _masthead(blocks: list[Block], index: int) -> bool:
    """Whether ``blocks[index]`` is a journal's masthead, not the title: its name in display type
    with the issue's line right under it (JSS: "Journal of Statistical Software" over "November
    2012, Volume 51, Issue 7."), or beside it on its row (OUP's Bioinformatics: "BIOINFORMATICS
    APPLICATIONS NOTE" at the left, "Vol. 29 no. 9 2013, pages 1215–1217" and the DOI at the
    right); a title is followed by its authors, never by an issue line, nor set beside one."""
    block = blocks[index]
    for below in blocks[index + 1 : index + 4]:
        if below.page != block.page or below.top - block.bottom > 1.5 * block.size:
            break
        if below.top >= block.bottom - 2 and _issue_line(below):
            return True
    return any(
        other.page == block.page
        and (other.x0 >= block.x1 or other.x1 <= block.x0)
        and other.top < block.bottom
        and block.top < other.bottom
        and _issue_line(other)
        for other in blocks[max(index - 3, 0) : index + 4]
        if other is not block
    )


# the headings a newsletter's first page may set in display type beside its masthead
_ISSUE_HEADINGS = {"contents", "table of contents", "in this issue"}


def _newsletter_masthead(blocks: list[Block], body_size: float) -> list[int]:
    """The masthead as the title of a newsletter's issue, where the first page prints no other
    title ("LaTeX News" over "Issue 35, June 2022", its contents under it): the one block of the
    page in display type, save a contents' heading, with an issue's line under it (:func:`_masthead`).
    A journal's masthead over an article's title is passed over as ever."""
    display = [
        index
        for index, block in enumerate(blocks)
        if block.page == 1 and block.size > body_size + 2 and block.text.strip().lower() not in _ISSUE_HEADINGS
    ]
    return display if len(display) == 1 and _masthead(blocks, display[0]) else []


def _issue_line(block: Block) -> bool:
    """Whether ``block`` is an issue's line, short ("November 2012, Volume 51, Issue 7.")."""
    return len(block.text) < 120 and bool(_ISSUE_LINE.search(block.text))


# a journal's name as a masthead prints it: "Journal of Invented Medicine", "Annals of …", "The Invented Journal";
# the words after "of" are whole words apart (re.I: "and", "the" are words too), or a long title that fails at its
# end ("Archives of …, 2019") would be tried in every split of its words
_JOURNAL_NAME = re.compile(
    r"^(?:the\s+)?(?:[A-Z][\w&-]*\s+){0,4}(?:journal|annals|archives|bulletin|transactions)\s+(?:of|on|in|for)\s+"
    r"(?:(?:[A-Z][\w&-]*+|&)(?:\s+|$)){1,8}$|^(?:the\s+)?(?:[A-Z][\w&-]*\s+){1,5}journal$",
    re.I,
)


def _overlaid(blocks: list[Block], index: int) -> bool:
    """Whether the box of ``blocks[index]`` lies over the lines of two blocks of text or more, as
    no title's does, and its type is read far too large for the width its letters take: a font
    whose glyphs' boxes the text layer reads far too tall (TUGboat's small capitals read at 120
    points over the column they stand in: "Go forth now and", 96 points wide). A title read
    twice (a PDF repeating its text, an OCR layer under it) is read at its size."""
    block = blocks[index]
    if block.x1 - block.x0 > 0.15 * block.size * len(block.text.strip()):
        return False
    crossed = [
        other
        for other in blocks
        if other is not block
        and other.page == block.page
        and len(other.text.strip()) >= 10
        and other.x0 < block.x1 - 1
        and block.x0 < other.x1 - 1
        and other.top < block.bottom - 1
        and block.top < other.bottom - 1
    ]
    return len(crossed) >= 2


def _journal_name(block: Block) -> bool:
    """Whether ``block`` is a journal's name alone, a masthead in display type over the title (its
    issue line elsewhere, or none): no article is titled with a journal's name alone."""
    return len(block.lines) <= 3 and bool(_JOURNAL_NAME.match(" ".join(block.text.split())))


def _line_over_title(above: Block, title: Block) -> bool:
    """Whether ``above`` is the title's first line, read apart from it: right over it in its type
    (within a tenth of its size: an italic part's boxes are shorter), over the same column, and no
    label (an article type as "Research Article", a kicker in capitals over a title that is not):
    a first line too short to be a title alone ("Simultaneous Inference" / "in General Parametric
    Models"), or in a font whose box is smaller, is still the title's."""
    text = above.text.strip()
    if above.page != title.page or above.kind in SET_APART or not text:
        return False
    if abs(above.size - title.size) > max(0.6, 0.1 * title.size) or above.bold != title.bold:
        return False
    if not 0 <= title.top - above.bottom <= 1.2 * title.size or above.x1 <= title.x0 or above.x0 >= title.x1:
        return False
    if _generic(text) or (capitals(text) and not capitals(title.text)):
        return False
    return not text.endswith(".") and _neither_names_nor_issue(text)


def _head_over_subtitle(above: Block, title: Block) -> bool:
    """Whether ``above`` is the title's head, too short to be taken alone, over its subtitle taken
    for the title: one line in larger type of the same weight that ends on a colon, right over it
    ("Ocimum:" / "an overview of classification and relationships", "Part I:" / "…"), as medical
    journals set a title in two sizes; no label ends on a colon there (:func:`_subtitle_after_colon`
    reads the same two the other way)."""
    text = above.text.strip()
    if above.page != title.page or above.kind in SET_APART or len(above.lines) != 1:
        return False
    if not text.endswith(":") or above.bold != title.bold or not title.size + 0.6 < above.size <= 1.6 * title.size:
        return False
    if not -0.1 * above.size <= title.top - above.bottom <= 1.2 * above.size or above.x1 <= title.x0 or above.x0 >= title.x1:
        return False
    if _generic(text) or not re.search(r"[^\W\d_]{3}", text):
        return False
    return _neither_names_nor_issue(text)


def _neither_names_nor_issue(text: str) -> bool:
    """Whether a line over the title may be part of it: no byline, no issue line, no journal's cue."""
    return not _names_line(text) and not _ISSUE_LINE.search(text) and not CUE.search(text)


def _title_like(block: Block, first_page: Page, text: str | None = None, set_apart: tuple[str, ...] = SET_APART) -> bool:
    text = (block.text if text is None else text).strip()
    if block.kind in set_apart or not 8 <= len(text) <= 300:
        return False
    if block.top > first_page.height * 0.6 or not re.search(r"[^\W\d_]{3}", text):  # letters of any script
        return False
    return text.lower().strip(" .:") not in blk.KNOWN_HEADINGS and plausible_title(text) and not _names_line(text) and not date_line(text)


def _stacked_title(blocks: list[Block], index: int, first_page: Page) -> bool:
    """Whether ``blocks[index]`` opens a title in display type whose lines, set with a leading
    wide enough that the page's reading gives each its own block ("PHILOSOPHERS’" / "IMPRINT
    MISSION" / "STATEMENT"), read as a title together; :func:`find_title` then gathers them as
    it gathers any title's lines. A single line of them is too short to be taken alone."""
    block = blocks[index]
    if len(block.lines) != 1 or (index > 0 and _stacked_under(blocks[index - 1], block)):
        return False
    stack, previous = [block], block
    for following in blocks[index + 1 : index + 4]:
        if not _stacked_under(previous, following):
            break
        stack.append(following)
        previous = following
    if len(stack) < 2 or any(_title_like(line, first_page) for line in stack):
        return False  # a label over the title ("Research Article"), where the title's line is one alone
    if any(
        other.page == block.page and other.kind != "furniture" and other.bottom <= block.top and len(other.text) >= 40
        for other in blocks[:index]
    ):
        return False  # a title stands over the page's text: not a figure's labels under the real title ("Fact-checker" / "Decision")
    return _title_like(block, first_page, " ".join(line.text for line in stack))


def _stacked_under(previous: Block, block: Block) -> bool:
    """A line of the same display type right under ``previous``, its leading at most 1.2 of the size."""
    return (
        block.page == previous.page
        and len(block.lines) == 1
        and block.kind not in SET_APART
        and abs(block.size - previous.size) <= 0.6
        and 0 <= block.top - previous.bottom <= 1.2 * previous.size
    )


def _short_title_over_the_rest(blocks: list[Block], first_page: Page, body_size: float) -> int | None:
    """The block of a title of two words ("Prion Diseases"), or of a program's name over its
    description (:func:`.title_shapes.name_over_description`): in the first page's largest type,
    set over every longer title's candidate (for a name, every one in type at least its
    description's: a cover's banner may set its institute's line over it, smaller). Where none is, a
    program's name over the document's kind alone, the kind perhaps larger (:func:`.title_shapes.name_over_kind`)."""
    first = [(index, block) for index, block in enumerate(blocks) if block.page == 1]
    largest = max((block.size for _, block in first), default=0.0)
    short = next(
        (
            index
            for index, block in first
            if block.size > largest - 0.2
            and (_short_title(block, first_page, body_size) or name_over_description(blocks, index, first_page, body_size))
        ),
        None,
    )
    if short is None:  # only where no title is in the largest type: a series' banner over a kind is no title over one
        short = next((index for index, _ in first if name_over_kind(blocks, index, first_page, body_size)), None)
    if short is None:
        return None
    least = blocks[short + 1].size if name_over_description(blocks, short, first_page, body_size) else body_size + 1
    longer = (block for _, block in first if block.size >= least and block.top <= blocks[short].top)
    return None if any(_title_like(block, first_page) for block in longer) else short


def _maketitle(stack: list[Block], first_page: Page, body_size: float) -> bool:
    """Whether ``stack`` is LaTeX's standard title block of a short title: the title centred in
    larger type, then one centred line of names, then the date's line ("Tree Macros" / "Emma
    Pease" / "May 10, 1995"). Too short for a title alone (:func:`plausible_title`), two words
    are one over a byline and its date."""
    title, names, date = stack
    text = title.text.strip()
    if len(title.lines) != 1 or title.size < body_size + 1 or len(text.split()) > 2 or not text[:1].isupper():
        return False
    if _generic(text) or title.kind in ("caption", "formula"):
        return False
    if not all(block.page == title.page and len(block.lines) == 1 and _centred(block, first_page) for block in stack):
        return False
    return mostly_names(names.text) and date_line(date.text)


def _short_title(block: Block, first_page: Page, body_size: float) -> bool:
    """A title of two words: set well above the body's type near the top of the page, and not
    an article type ("Research Article") or a known heading."""
    text = block.text.strip()
    if block.kind in SET_APART or len(text.split()) != 2 or block.size < body_size + 3:
        return False
    return block.top < 0.4 * first_page.height and not _generic(text) and text[:1].isalpha() and not text.islower()


def _generic(text: str) -> bool:
    """Whether ``text``, its case and closing stops aside, is an article's type or a known heading
    ("Research Article", "Abstract"), no title."""
    lowered = text.lower().strip(" .:")
    return lowered in GENERIC_TITLES or lowered in blk.KNOWN_HEADINGS


def _label(text: str) -> bool:
    """Whether ``text`` is a known heading, a contents' heading, an article's type or a section's
    kicker ("Abstract", "Contents", "Review", "Correspondence"), no title."""
    lowered = text.lower().strip(" .:")
    return _generic(text) or lowered in KICKERS or lowered in _ISSUE_HEADINGS


def _names_line(text: str) -> bool:
    """Whether a line in large type is the authors' names, not a title: names only, two with
    their affiliation marks or three and more ("First Author,1,∗ Second Author,2 Third Author,3")."""
    names = split_names(text)
    marked = bool(re.search(rf"[\d{MARKS}]", text) or _LETTER_MARK.search(text))
    return (len(names) >= 3 or (len(names) == 2 and marked)) and mostly_names(text)


# an affiliation's letter after a name, set apart from it ("John C. Collins a and …"): a lone letter
# before "and", a comma or the line's end, which no title's words are
_LETTER_MARK = re.compile(r"[a-z]\s[a-h](?=\s*(?:,|\band\b|&|$))")


def _centred(block: Block, page: Page) -> bool:
    """Set in the top two fifths of the page, centred on it, and narrower than the text width."""
    middle = (block.x0 + block.x1) / 2
    return block.top < 0.4 * page.height and abs(middle - page.width / 2) < 0.04 * page.width and block.x1 - block.x0 < 0.8 * page.width


def plausible_title(text: str) -> bool:
    """Not a file name, a word processor's placeholder, a generic article type or a line with an
    e-mail address (a byline's or a version line's: "Version 1.3.0 hood@mit.edu 2022/2/20")."""
    text = text.strip()
    lowered = text.lower()
    # a Chinese or Japanese title has no spaces: its characters count as its words
    if (len(text.split()) < 3 and sum(1 for ch in text if unspaced(ch)) < 6) or lowered in GENERIC_TITLES or E_MAIL.search(text):
        return False
    return not re.search(r"microsoft word|\.(pdf|docx?|dvi|tex)$|^untitled|^\S+ \d+\.\.\d+$|^file:", lowered)


def title_text(blocks: list[Block], members: list[int], metadata: dict[str, str]) -> str | None:
    """The title printed in ``members``, or the metadata's where the page's is missing or cut off."""
    found = [line for index in members for line in blocks[index].lines][: _description_start(blocks, members)]
    found = found[: _byline_start(found)]
    while len(found) > 1 and _version_under(found[0], found[-1]):
        found.pop()  # the package's version under it (a vignette's "\\ Version 2.30.0"): what is documented, not the title
    lines = [line.text for line in found]
    printed = blk.join_lines(lines) if members else ""
    printed = re.sub(r"\s*\[v\d+;\s*ref status:[^\]]*\]\s*$", "", printed).strip()  # F1000's version stamp
    if "(" not in printed:  # a footnote's letter mark set after the last word (REVTeX: "Linebreak" + "a)")
        printed = re.sub(r"(?<=[^\W\d_]{3})[a-z]\)$", "", printed)
    # a \thanks note's symbols: "Conditional Inference ∗", "… title⋆,⋆⋆"
    printed = re.sub(r"(?<=\w)\s*[∗†‡§¶⁎⋆](?:[,\s]*[∗†‡§¶⁎⋆])*$|(?<=\w)\s+\*+$", "", printed)
    printed = _without_note_number(printed, blocks, members)
    stored = next((metadata[key].strip() for key in ("Title", "xmp:title") if plausible_title(metadata.get(key, ""))), "")
    if not printed:
        return stored or None
    if stored and len(_fold(stored)) > len(_fold(printed)) and _fold(stored).startswith(_fold(printed)):
        return printed if _name_and_description(printed, stored, blocks, members) else stored
    return printed


def _name_and_description(printed: str, stored: str, blocks: list[Block], members: list[int]) -> bool:
    """Whether ``stored``, the metadata's title, is the program's name the page prints as its title
    (``printed``, one word) joined to the description set under it in a smaller face ("APCluster -
    An R Package for Affinity Propagation Clustering"): no cut-off start of the title, but the
    name with what the page sets apart from it."""
    following = members[-1] + 1 if members else len(blocks)
    if len(printed.split()) != 1 or following >= len(blocks):
        return False
    return _fold(stored)[len(_fold(printed)) :] == _fold(blocks[following].text)


def _row_text(blocks: list[Block], index: int) -> str:
    """The first line of ``blocks[index]`` with the one-line blocks set after it along its row (a
    byline the page's reading parts at a wide space: "Marta Oliveira1" / "and Lucas Moreau2")."""
    block = blocks[index]
    texts = [block.lines[0].text]
    for other in blocks[index + 1 : index + 4]:
        if other.page != block.page or len(other.lines) != 1 or abs(other.top - block.top) > 0.3 * block.size or other.x0 < block.x1:
            break
        texts.append(other.text)
    return " ".join(texts)


def _byline_start(lines: list[Line]) -> int | None:
    """Where the byline opens among the title's lines, read with them where it is set in the
    title's size and close under it (a journal that sets the names as large as the title, in
    another weight or the same): the first line after the first that is names with their marks
    or three names and more (:func:`_names_line`); None where no line is."""
    return next((index for index, line in enumerate(lines) if index and _names_line(line.text)), None)


def _version_under(first: Line, last: Line) -> bool:
    """Whether ``last``, a line under the title, gives the version the paper documents, no word of
    the title: a version alone ("Version 2.30.0"), or one in brackets set in roman under a title in
    bold ("Haplo Stats" / "(version 1.7.7)"); in the title's own weight, a guide writes "(Version
    1.0)" into its title."""
    text = last.text.strip()
    if version_alone(text):
        return True
    return first.bold and not last.bold and text.startswith("(") and text.endswith(")") and version_alone(text[1:-1])


def _without_note_number(printed: str, blocks: list[Block], members: list[int]) -> str:
    """``printed`` without a footnote's number glued to its last word ("… Linear Algebra1"), where
    a note in smaller type lower on the title's page opens with that number ("1This vignette …"):
    a title that ends in a number of its own ("Web 2", "Python3") has no such note under it."""
    mark = re.search(r"(?:(?<=[^\W\d_]{2})|(?<=[)?\]]))(\d)$", printed)  # after a word, a bracket or a question: "… (Brassica napus L.)1"
    if mark is None or not members:
        return printed
    title = blocks[members[-1]]
    for block in blocks:
        if block.page != title.page or block.top <= title.bottom or block.size >= title.size - 1:
            continue
        if re.match(rf"{mark.group(1)}\s?[A-Z][a-z]", block.text.strip()):
            return printed[: mark.start()]
    return printed


def _fold(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


_CITE_BOX = re.compile(
    r"doi:\s*(10\.\d{4,9}/\S+?)\.?\s*Cite this article as|Cite this article as:.{0,400}?doi:\s*(10\.\d{4,9}/\S+?)\.?(?:\s|$)", re.S | re.I
)


def find_doi(first_pages: str, metadata: dict[str, str], last_page: str = "") -> str | None:
    """The article's DOI; of two versions printed together, the latest.

    Sources: the first pages, then the XMP and Info fields, then the "Cite this article as"
    box BMC prints on the last page.
    """
    printed = [re.sub(r"\s", "", m.group(1)) for m in DOI.finditer(first_pages)]
    if not printed:
        box = _CITE_BOX.search(last_page)
        printed = [box.group(1) or box.group(2)] if box else []
    stored = [
        m.group(1) for key in ("xmp:doi", "xmp:identifier", "Subject", "xmp:description") for m in DOI.finditer(metadata.get(key, ""))
    ]
    candidates = [doi for doi in printed or stored if not _placeholder_doi(doi)]
    if not candidates:
        return None
    chosen = candidates[0]
    stem = re.match(r"^(.*\.)(\d{1,2})$", chosen)  # a version number, not a DOI's serial
    if stem:
        versions = [c for c in candidates if re.fullmatch(re.escape(stem.group(1)) + r"\d{1,2}", c)]
        chosen = max(versions, key=lambda c: int(c[len(stem.group(1)) :]))
    return chosen.rstrip(".") if "{" in chosen else chosen.rstrip(".}")  # "\\doi{10.1115/1.4042912}}" printed in a template


# what a template writes where the DOI's suffix goes: letters repeated ("xxxx", "zzz"), a number of zeros ("v000.i00",
# "0-0"), words in capitals ("DOI-NUMBER", "YY-TN") or saying so ("idonotexist")
_PLACEHOLDER_PART = re.compile(r"([xXyYzZ])\1{2,}|(?<![^\W\d_])0+(?![^\W\d_]|[1-9])|[A-Z]{2,}|(?i:doi|number|notexist)")


def _placeholder_doi(doi: str) -> bool:
    """Whether ``doi`` is a template's placeholder, no DOI: its suffix holds no digit but zeros and
    a placeholder's part (:data:`_PLACEHOLDER_PART`: "10.1007/DOI-NUMBER", "10.1214/YY-TN",
    "10.5300/xxxx-x/zzz", "10.18637/jss.v000.i00"). A real suffix holds a serial, a year or a
    volume, or an identifier of letters (OSF's preprints: "10.31234/osf.io/egydq")."""
    suffix = doi.partition("/")[2]
    return not re.search(r"[1-9]", suffix) and bool(_PLACEHOLDER_PART.search(suffix))


def find_date(first_pages: str) -> str | None:
    """The publication date printed on the first pages; never the date a paper was accepted."""
    found = sorted(_DATED.finditer(first_pages), key=lambda m: _DATE_RANK.get(m.group("kind").lower(), 5))
    published = [m for m in found if m.group("kind").lower() != "accepted"]
    return published[0].group("date") if published else None
