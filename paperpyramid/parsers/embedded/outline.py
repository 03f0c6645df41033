"""Which blocks the PDF outline (bookmarks) names as section headings, and at what level.

Where the PDF has an outline of :data:`OUTLINE_ENTRIES` entries or more, its entries name the
sections (:func:`apply_outline`): a heading it names takes its level, and an unnumbered one in
the style of those it names (``\\section*``), a numbered one a level below its last (numbered as
the entry or as the page prints it, and standing in its parent's section), read as a heading or
set in the type of one, or an unnumbered one in a smaller bold it never names but sets for two
headings over text (``\\subsubsection*`` under its subsections), or one of a run numbered 1, 2, 3, …
under a section it names but does not divide (a licence's clauses), stays; a numbered run-in
heading out of its section's numbering is text; lone lines in a type of their own over text
are a level it leaves out; a starred heading before the outline names its style, or read as a
line of the body (a function's name, "Example: …"), in a style it names or leaves out, is one;
an entry is read as the page prints it (a macro's leaked argument dropped) and found whole where
its lines were read apart; a destination before the entry found ahead of it is wrong, and the
entry is sought from there on; a paragraph's last line wrapped alone in bold is no heading
(:func:`.headings.demote_paragraph_ends`). The outline is the author's own list of sections, so
it outranks what the type alone suggests; where there is none, :mod:`.headings` decides from the type.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block, is_reference_heading
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.contents import set_aside_chapter_labels
from paperpyramid.parsers.embedded.figure_labels import demote_axis_titles
from paperpyramid.parsers.embedded.heading_styles import TOP_LEVEL, heading_style, norm, over_list_column, over_prose
from paperpyramid.parsers.embedded.heading_wraps import join_wrapped_titles
from paperpyramid.parsers.embedded.headings import (
    demote_list_terms,
    demote_lone_glyphs,
    demote_paragraph_ends,
    numbered_like_siblings,
    within,
)
from paperpyramid.parsers.embedded.institutions import affiliation_like
from paperpyramid.parsers.embedded.labels import METADATA_LABEL, statement_label
from paperpyramid.parsers.embedded.lead_ins import OPEN_ENDINGS
from paperpyramid.parsers.embedded.outline_entries import entry_names, find_entries, similar_title
from paperpyramid.parsers.embedded.run_in import demote_stray_run_ins

#: an outline of fewer entries names no sections
OUTLINE_ENTRIES = 3
#: where a printed title goes on past its short form: "Labels in the borders: labeling_text()"
_TITLE_REST = re.compile(r"\s*(?::|\(|\s[–—-]\s)")
#: the most words of a heading told by its type alone (:func:`_face_headings`)
_FACE_WORDS = 10
#: an outline names this many headings of a style at least before that style marks a section
_OUTLINED_STYLE = 2
#: known headings that label front matter rather than open a section of the body
_FRONT_LABELS = {"abstract", "summary", "keywords"}
#: entries of one outline level numbered with letters that make the level lettered
_LETTERED_ENTRIES = 2


def apply_outline(blocks: list[Block], toc: list[tuple[int, str, int | None]], body_size: float) -> bool:
    """Let the PDF outline name the headings, when it looks like a section outline; ``body_size``
    is the body text's (:func:`~.reading_order.body_font_size`)."""
    if len(toc) < OUTLINE_ENTRIES:
        return False
    toc = [(level, _bookmark_text(title), page) for level, title, page in toc]
    join_wrapped_titles(blocks, body_size)
    set_aside_chapter_labels(blocks)
    matched = find_entries(blocks, toc)
    if len(matched) < max(3, 0.5 * len(toc)):
        return False
    outline = _read_outline(blocks, toc, matched, body_size)
    last_number: str | None = None  # the number of the last numbered heading kept: the section a line stands in
    for index in range(len(blocks)):
        last_number = _settle_block(blocks, index, outline, last_number)
    _add_unnamed_levels(blocks, outline)
    demote_paragraph_ends(blocks)
    demote_lone_glyphs(blocks)
    demote_list_terms(blocks)
    demote_stray_run_ins(blocks)
    demote_axis_titles(blocks)
    return True


#: a heading's style and face (:func:`_outlined_style`)
_Style = tuple[tuple[float, bool, bool, bool], str]


@dataclass(frozen=True, slots=True)
class _Outline:
    """What the outline tells of the blocks, read before any of them changes."""

    #: the block of each heading it names: its level (the IMRaD headings' is 1) and its entry
    matched: dict[int, tuple[int, str]]
    #: the first block it names
    first: int
    #: each entry's level, as the outline gives it
    levels: dict[str, int]
    #: the outline levels numbered with letters (:func:`_letter_numbered`)
    lettered: set[int]
    #: the styles (and faces: a figure's bold label is in another) of the headings it names
    styles: collections.Counter[_Style]
    #: the same, of those on lines of their own: a run-in heading's style is its paragraph's
    set_apart: collections.Counter[_Style]
    #: where it first names a body heading of each style
    styled_from: dict[_Style, int]
    #: the section number of each heading it names (:func:`_outlined_numbers`)
    printed: dict[int, str]
    #: the level of each of those numbers
    numbered: dict[str, int]
    #: the styles of a level below it that it never names (:func:`_unnamed_styles`)
    unnamed: set[_Style]
    #: the styles it names once that the page sets for starred headings too (:func:`_starred_styles`)
    starred: set[_Style]
    #: where the front matter ends for a starred heading (:func:`_front_bounds`)
    front: tuple[int, int]
    #: the abstract's label and a printed table of contents after it (:func:`_preface`)
    preface: tuple[int, int]
    #: the body text's size (:func:`~.reading_order.body_font_size`)
    body_size: float


def _read_outline(
    blocks: list[Block], toc: list[tuple[int, str, int | None]], matched: dict[int, tuple[int, str]], body_size: float
) -> _Outline:
    """What the outline tells of the blocks, from the headings it names (``matched``)."""
    matched, first = _shifted_levels(matched), min(matched)
    printed = _outlined_numbers(blocks, matched)
    headings = [index for index in matched if blocks[index].kind == "heading"]
    return _Outline(
        matched=matched,
        first=first,
        levels={title: level for level, title, _ in toc},
        lettered=_letter_numbered(toc),
        styles=collections.Counter(_outlined_style(blocks[index]) for index in headings),
        set_apart=collections.Counter(_outlined_style(blocks[index]) for index in headings if not blocks[index].extra.get("run_in")),
        styled_from=_styled_from(blocks, matched),
        printed=printed,
        numbered={number: matched[index][0] for index, number in printed.items()},
        unnamed=_unnamed_styles(blocks, matched, first),
        starred=_starred_styles(blocks, matched, first, body_size),
        front=_front_bounds(blocks),
        preface=_preface(blocks),
        body_size=body_size,
    )


def _shifted_levels(matched: dict[int, tuple[int, str]]) -> dict[int, tuple[int, str]]:
    """The outlined headings' levels with the IMRaD headings' at level 1: outlines often hang
    every section under one root (the article's title)."""
    top = [level for level, title in matched.values() if norm(title) in {norm(name) for name in TOP_LEVEL}]
    shift = min(top) - 1 if top else min(level for level, _ in matched.values()) - 1
    return {index: (max(1, level - shift), title) for index, (level, title) in matched.items()}


def _styled_from(blocks: list[Block], matched: dict[int, tuple[int, str]]) -> dict[_Style, int]:
    """Where the outline first names a body heading of each style (an abstract's label is none)."""
    styled_from: dict[_Style, int] = {}
    for index in sorted(matched):
        if matched[index][1].strip().lower() not in _FRONT_LABELS:
            styled_from.setdefault(_outlined_style(blocks[index]), index)
    return styled_from


def _front_bounds(blocks: list[Block]) -> tuple[int, int]:
    """The title, and an abstract's label: starred headings stand after the one, not after the
    other (:func:`_starred_before`). A printed table of contents after the abstract ends the
    front matter: a vignette's starred "Foreword" under its contents is body."""
    titled = max((index for index, block in enumerate(blocks) if block.kind == "title"), default=len(blocks))
    labelled = next(
        (index for index, block in enumerate(blocks) if block.kind == "heading" and block.text.strip().lower() in _FRONT_LABELS), None
    )
    front = (titled, len(blocks) if labelled is None else labelled)
    listed = max((index for index, block in enumerate(blocks) if block.extra.get("contents")), default=-1)
    return (listed, len(blocks)) if front[1] < listed else front


def _settle_block(blocks: list[Block], index: int, outline: _Outline, last_number: str | None) -> str | None:
    """Make a block the heading the outline names, or settle it among them; returns the number
    of the last numbered heading kept, with this one."""
    block = blocks[index]
    if index in outline.matched:
        _name_heading(block, *outline.matched[index], outline)
        return outline.printed.get(index)
    if block.kind == "heading" and not block.extra.get("run_in"):
        return _settle_heading(blocks, index, outline, last_number)
    if block.kind == "heading" and not block.number:
        # a run-in heading the outline leaves out (``\\paragraph``): the lowest level there is,
        # under the outlined heading it stands in, not at the top
        block.level = _level_below(outline.matched, index)
    elif block.kind == "paragraph" and (index > outline.first or _past_title_page(blocks, index, outline)):
        _promote_paragraph(blocks, index, outline)
    return last_number


def _name_heading(block: Block, level: int, title: str, outline: _Outline) -> None:
    """Make a block the heading an outline entry names, numbered and titled as the entry or the page."""
    parts = blk.NUMBERING.match(title.strip())
    if parts and re.fullmatch(r"[A-H]", parts.group("num")) and outline.levels[title] not in outline.lettered:
        parts = None  # "A surprising contradiction": the article, not a number
    block.kind = "heading"
    block.level = level
    if parts:
        block.number, block.title = parts.group("num").rstrip("."), parts.group("title").strip()
    elif not _appendix_entry(block, title):  # an appendix keeps the letter and title its page prints
        block.number, block.title = _printed_title(block, title) or (None, title.strip())
    block.extra["outline"] = True


#: an outline entry's appendix label, with its letter or without: the appendix package's bookmarks
#: leave the letter out ("Appendix Installing R" for the printed "Appendix A Installing R")
_APPENDIX_ENTRY = re.compile(r"^(?:appendix|annex)\s+(?:(?:[A-Z]|\d{1,2})\s*[.:—–-]?\s+)?", re.I)


def _appendix_entry(block: Block, title: str) -> bool:
    """Whether an outline entry names the appendix a block prints with its label ("Appendix A"):
    the entry's title after its label is the block's."""
    if not (block.extra.get("appendix") and block.number and block.title):
        return False
    return norm(_APPENDIX_ENTRY.sub("", title.strip())) == norm(block.title)


def _settle_heading(blocks: list[Block], index: int, outline: _Outline, last_number: str | None) -> str | None:
    """Give a heading on a line of its own that the outline leaves out its level, or make it text;
    returns the number of the last numbered heading kept, with this one."""
    block = blocks[index]
    plain = block.title.lower()
    if plain in blk.KNOWN_HEADINGS and plain not in _FRONT_LABELS and (index < outline.first or plain in blk.BACK_MATTER_HEADINGS):
        # a printed "Introduction", or "Acknowledgments" after the body (a starred section),
        # that the outline leaves out: demoted, its text would go with the front matter
        # before the outline's first heading, or with the section before it
        block.level = 1
    elif block.number and block.number.rpartition(".")[0] in outline.numbered and within(block.number, last_number):
        # "2.1.1 An Aside on Numbers" under the outline's "2.1": an outline that stops a level short
        block.level = outline.numbered[block.number.rpartition(".")[0]] + 1
        return block.number
    elif _numbered_within_leaf(blocks, index, outline.matched):
        # "1. APPLICABILITY AND DEFINITIONS" … "10. FUTURE REVISIONS" under the outline's "GNU Free
        # Documentation Licence", which it does not divide: its numbered subsections
        block.level = _level_below(outline.matched, index)
        return last_number
    elif _in_outlined_style(blocks, index, outline):
        # an unnumbered section the outline leaves out ("Computational details" set with
        # \section*), printed in the style of the sections it names: one of them
        block.level = _style_level(blocks, outline.matched, block) or _level_below(outline.matched, index)
    elif _in_unnamed_style(blocks, index, outline):
        # a level the outline leaves out (``\\subsubsection*`` under its subsections): its style
        # set apart for more than one heading, smaller than any the outline names, over text
        block.level = _level_below(outline.matched, index)
    elif not is_reference_heading(plain) and plain != "abstract":
        block.kind = "paragraph"
    return last_number


#: the fewest numbered headings that make a run of subsections under a section the outline does not divide
_LEAF_RUN = 3


def _numbered_within_leaf(blocks: list[Block], index: int, matched: dict[int, tuple[int, str]]) -> bool:
    """Whether a heading numbered with a plain number stands in a run numbered 1, 2, 3, … (three or
    more) set in bold inside a section the outline names but does not divide: the outline stops a
    level short there, as where an unnumbered appendix numbers its own parts (a licence's clauses).
    A numbered list in the body's type (a FAQ's questions, an exercise's steps) is no such run."""
    if not (blocks[index].number or "").isdigit():
        return False
    parent = max((named for named in matched if named < index), default=None)
    if parent is None:
        return False
    after = min((named for named in matched if named > parent), default=len(blocks))
    if after < len(blocks) and matched[after][0] > matched[parent][0]:
        return False  # the outline divides the section itself
    run = [block for block in blocks[parent + 1 : after] if block.kind == "heading" and block.number and not block.extra.get("run_in")]
    numbers = [block.number for block in run]
    return (
        len(run) >= _LEAF_RUN
        and numbers == [str(number) for number in range(1, len(run) + 1)]
        and all(_clause_title(block) for block in run)
    )


def _clause_title(block: Block) -> bool:
    """A bold numbered title of a clause, not a bold numbered step that ends as a sentence does
    ("1. Centrifuge the samples at 4 C.")."""
    return block.bold and not block.title.rstrip().endswith((".", "?", "!"))


def _in_outlined_style(blocks: list[Block], index: int, outline: _Outline) -> bool:
    """Whether an unnumbered heading the outline leaves out is set in the style of the headings
    it names, where (or before, starred: :func:`_starred_before`) it names that style."""
    block = blocks[index]
    style = _outlined_style(block)
    starred = style in outline.starred and index > outline.first
    before = _starred_before(blocks, index, outline.front) or _in_preface(blocks, index, outline.preface)
    return (
        (index > outline.styled_from.get(style, len(blocks)) or before or starred)
        and block.title.lower() not in _FRONT_LABELS
        and not block.number
        and block.title[:1].isupper()  # not an algorithm's numbered line ("22: end while") in the same bold
        and not block.text.rstrip().endswith(":")  # "Affiliation:" labels the authors' addresses
        and block.title.split()[-1].lower() not in OPEN_ENDINGS  # a bold line cut short ("… Encyclopedia of")
        and (outline.styles.get(style, 0) >= _OUTLINED_STYLE or starred)
    )


def _in_unnamed_style(blocks: list[Block], index: int, outline: _Outline) -> bool:
    """Whether a heading the outline leaves out is set in the style of a level below it
    (:func:`_unnamed_styles`), a title over text."""
    block = blocks[index]
    return (
        _outlined_style(block) in outline.unnamed
        and block.title.lower() not in _FRONT_LABELS
        and block.title[:1].isupper()
        and not block.text.rstrip().endswith(":")
        and not _statement_head(block)
        and over_prose(blocks, index)
        and not over_list_column(blocks, index)  # a bold group label of a two-column list, set in its first column
    )


def _style_level(blocks: list[Block], matched: dict[int, tuple[int, str]], block: Block) -> int:
    """The level of a heading set in the style of headings the outline names: the highest of theirs
    (0 when none is: a line promoted for its type reads in capitals once it is a title, "C")."""
    return min((level for named, (level, _) in matched.items() if _outlined_style(blocks[named]) == _outlined_style(block)), default=0)


def _promote_paragraph(blocks: list[Block], index: int, outline: _Outline) -> None:
    """Make a heading of a line the blocks read as a paragraph, where it is one of a level the
    outline leaves out (:func:`_unnamed_label`) or in the style of those it names (:func:`_outlined_name`)."""
    block = blocks[index]
    if _unnamed_label(blocks, index, outline.unnamed):
        block.kind, block.number, block.title = "heading", None, block.text.strip()
        block.level = _level_below(outline.matched, index)
    elif _outlined_name(blocks, index, outline):
        appendix = blk.APPENDIX_LABEL.match(block.text.strip())  # its label numbers the title: "Appendix B targetRunner …"
        block.kind, block.number = "heading", appendix.group("num") if appendix else None
        block.title = appendix.group("title").strip() if appendix else block.text.strip()
        block.level = _style_level(blocks, outline.matched, block) or _level_below(outline.matched, index)


def _add_unnamed_levels(blocks: list[Block], outline: _Outline) -> None:
    """Headings of the levels the outline leaves out that the type alone tells: lines in a type
    of their own (:func:`_face_headings`), and numbered lines like their numbered siblings
    (:func:`.headings.numbered_like_siblings`), under the heading they stand in."""
    for index in _face_headings(blocks, outline.matched, outline.first, outline.body_size):
        block = blocks[index]
        block.kind, block.number, block.title = "heading", None, block.text.strip()
        block.level = _level_below(outline.matched, index)
    for index in numbered_like_siblings(blocks, outline.body_size):
        parent = (blocks[index].number or "").rpartition(".")[0]
        blocks[index].level = outline.numbered[parent] + 1 if parent in outline.numbered else _level_below(outline.matched, index)


#: a macro's argument left in a bookmark: hyperref drops a command it cannot put in a bookmark but
#: keeps its bracketed name ("Applying the [functioncolor]ComBat function", the page printing
#: "Applying the ComBat function" in a colour)
_LEAKED_ARGUMENT = re.compile(r"\[[A-Za-z]{3,}\](?=\S)")


def _bookmark_text(title: str) -> str:
    """An outline entry as the page prints it: without the bracketed name of a macro's argument
    glued to the word it styled (:data:`_LEAKED_ARGUMENT`), which would keep the entry from being
    found on the page and would stay in the heading."""
    return _LEAKED_ARGUMENT.sub("", title)


def _starred_before(blocks: list[Block], index: int, front: tuple[int, int]) -> bool:
    """Whether a heading before the first the outline names in its style may still be one of that
    style: ``\\section*`` and ``\\subsection*`` make no bookmark, so a vignette's "Overview" over
    its first page, or its starred subsections ahead of its one numbered subsection, come before
    the outline names their style. Told apart from the title page's lines by standing after the
    title (``front[0]``, or after a table of contents printed under the abstract) but not after an
    abstract's label (``front[1]``: under it "CCS CONCEPTS" and "KEYWORDS" are front matter in the
    sections' type), over prose."""
    titled, labelled = front
    return titled < index and not labelled < index and over_prose(blocks, index)


def _past_title_page(blocks: list[Block], index: int, outline: _Outline) -> bool:
    """Whether a line ahead of the outline's first heading stands where the title page has ended,
    after a printed table of contents or on a later page than the title: a starred heading there
    ("Reading guide" under tinytest's contents, "Scope and Purpose of this Document" over a
    manual's second page) was read as a line of the title page. On the title's page, before
    any contents, a line in the headings' bold is the title page's (the authors' names), and so
    are a date's label and an address anywhere."""
    text = blocks[index].text.strip()
    if not _starred_before(blocks, index, outline.front) or METADATA_LABEL.match(text) or affiliation_like(text):
        return False  # "Received 12 March 2020", "Department of Biology, University of Oslo": the front matter's lines
    listed = any(block.extra.get("contents") for block in blocks[outline.front[0] : index])
    title_page = max((block.page for block in blocks[:index] if block.kind == "title"), default=blocks[index].page)
    return listed or blocks[index].page > title_page


def _preface(blocks: list[Block]) -> tuple[int, int]:
    """The abstract's label and the first block of a printed table of contents after it; (-1, -1)
    where there is no such pair."""
    labelled = next(
        (index for index, block in enumerate(blocks) if block.kind == "heading" and block.text.strip().lower() in _FRONT_LABELS), None
    )
    listed = next((index for index, block in enumerate(blocks) if block.extra.get("contents")), None)
    return (labelled, listed) if labelled is not None and listed is not None and labelled < listed else (-1, -1)


def _in_preface(blocks: list[Block], index: int, preface: tuple[int, int]) -> bool:
    """Whether a starred heading stands between the abstract and a printed table of contents, a
    preface's section: l2tabu's "Legal notice" and "How to get in touch with the authors" over its
    contents, in the bold of the subsections its outline names. Not in capitals and no label
    of the front matter ("CCS CONCEPTS", "KEYWORDS", "Received …": an article's front matter
    under its abstract; an article prints no contents there), over a paragraph."""
    labelled, listed = preface
    block = blocks[index]
    if not labelled < index < listed or heading_style(block)[3] or METADATA_LABEL.match(block.title):
        return False
    if block.title.lower().rstrip(" .:") in _PREFACE_LABELS:
        return False
    below = next((other for other in blocks[index + 1 : index + 4] if other.kind not in ("furniture", "aside")), None)
    return below is not None and below.kind == "paragraph"


#: labels of the front matter under an abstract that are never a preface's sections
_PREFACE_LABELS = {"key words", "index terms", "subject classification", "mathematics subject classification"}


#: an appendix's letter before its title, as the page prints it and the outline may not
_APPENDIX_LETTER = re.compile(r"(?P<num>[A-H])\s+(?P<title>\S.*)", re.DOTALL)


def _printed_title(block: Block, outlined: str) -> tuple[str | None, str] | None:
    """The number and title printed on the page for an unnumbered outline entry, where the page
    says more than the outline: its plain stand-in ("lambda" for "λ"), its short title
    (``\\section[short]{long}``: "Labels in the borders" for "4.1. Labels in the borders:
    labeling_text()", "gsubfn with lists" for "3. gsubfn with list objects": :func:`.outline_entries.entry_names`)
    or its number alone, the block never read as a heading ("6. Example:
    Ovarian cancer survival"), or an appendix's letter the outline leaves out ("C l2tabuen revision
    history" for "l2tabuen revision history"), or the line written another way ("1 ‘Deadly sins’ —
    … LATEX 2ε" for "`Deadly sins'---… LaTeX2e"). None where the page prints another title."""
    key = norm(outlined)
    lettered = _APPENDIX_LETTER.match(block.text.strip())
    if lettered and norm(lettered.group("title")) == key:
        return lettered.group("num"), lettered.group("title")
    readings: list[tuple[str | None, str, bool]] = [(block.number, block.title, True)] if block.title else []
    parts = blk.NUMBERING.match(block.text.strip())
    text = (parts.group("num").rstrip("."), parts.group("title").strip()) if parts else (None, block.text.strip())
    readings.append((*text, False))
    for number, title, heading in readings:
        # the short title, then a colon, a dash or a parenthesis and the rest; a block's text, the
        # title itself: a block may run on into its paragraph ("… of nano-MgO. The"); a line of its
        # own, the whole written with a letter for another ("LATEX 2ε" for the entry's "LaTeX2e")
        heads = [title] + [title[: match.start()] for match in _TITLE_REST.finditer(title)]
        whole = not heading and len(block.lines) == 1 and len(norm(title)) == len(key) and similar_title(norm(title), key)
        if whole or any(entry_names(norm(head), key) if heading else norm(head) == key for head in heads):
            return number, title
    return None


def _outlined_numbers(blocks: list[Block], matched: dict[int, tuple[int, str]]) -> dict[int, str]:
    """The section number of each heading the outline names, for the deeper ones it leaves out
    ("2.1.1" under the outline's "2.1"): the entry's own number, or else the one the page prints
    before it. A document class that numbers its sections often leaves the numbers out of the
    bookmarks ("Quick Start" for the printed "4 Quick Start"), and its "4.1.1 Required input",
    under the outline's last level, must still be known as a heading below "4.1"."""
    numbers: dict[int, str] = {}
    for index, (_, title) in matched.items():
        parts = blk.NUMBERING.match(title.strip())
        block = blocks[index]
        number = parts.group("num") if parts else block.number if block.kind == "heading" else None
        if number:
            numbers[index] = number.rstrip(".")
    return numbers


def _level_below(matched: dict[int, tuple[int, str]], index: int) -> int:
    """The level of a heading the outline leaves out: one below the last outlined heading before it
    (not the deepest before it: a "6.2.1" pages earlier would put PureCN's FAQ entries under "12.2
    FAQ" a level too deep)."""
    last = max((named for named in matched if named < index), default=None)
    return 1 + (matched[last][0] if last is not None else 0)


def _unnamed_styles(blocks: list[Block], matched: dict[int, tuple[int, str]], first: int) -> set[_Style]:
    """The bold, unnumbered heading styles below the outline that it never names, each set for two
    headings or more after its first: a heading level an outline stops short of ("Influenza,
    Southern Germany, 2001-2008" set with ``\\subsubsection*`` under an outlined subsection)."""
    named = [blocks[index] for index in matched if blocks[index].kind == "heading"]
    if not named:
        return set()
    smallest = min(block.size for block in named)
    named_styles = {_outlined_style(block) for block in named}
    counts = collections.Counter(
        _outlined_style(block)
        for index, block in enumerate(blocks)
        if index > first
        and index not in matched
        and block.kind == "heading"
        and block.bold
        and not block.number
        and not block.extra.get("run_in")
        and block.size < smallest
        and not _statement_head(block)  # "Teilaufgabe a)" thrice is no level of headings
    )
    return {style for style, count in counts.items() if count >= 2 and style not in named_styles}


#: the starred headings, bold and larger than the body, that a style the outline names once must set
_STARRED_MEMBERS = 2


def _starred_styles(blocks: list[Block], matched: dict[int, tuple[int, str]], first: int, body_size: float) -> set[_Style]:
    """The styles the outline names for one heading on a line of its own that the page also sets,
    after the outline's first heading, for :data:`_STARRED_MEMBERS` lines or more of their own,
    bold, larger than the body and unnumbered: ``\\subsection*`` makes no bookmark, so a vignette
    that stars all its subsections but one ("3.1 tight and wide styles …" beside "Why would a
    user prefer float=TRUE?" and "alpha level adjustments", all in CMB10 at 10.6 over a 9.5 body)
    shows the style once in its outline. Two outlined headings make a style without this
    (:data:`_OUTLINED_STYLE`); one alone, only where the page repeats it: a bold line of the body
    set once in a heading's face is no level of headings."""
    named = collections.Counter(
        _outlined_style(blocks[index]) for index in matched if blocks[index].kind == "heading" and not blocks[index].extra.get("run_in")
    )
    counts = collections.Counter(
        _outlined_style(block)
        for index, block in enumerate(blocks)
        if index > first
        and index not in matched
        and block.kind in ("heading", "paragraph")
        and len(block.lines) == 1
        and block.bold
        and block.size > body_size + 0.5
        and not block.number
        and not block.extra.get("run_in")
    )
    return {style for style, count in counts.items() if named.get(style) == 1 and count >= _STARRED_MEMBERS}


def _unnamed_label(blocks: list[Block], index: int, unnamed: set[_Style]) -> bool:
    """Whether a line the blocks read as a paragraph is a heading of a level the outline leaves
    out (:func:`_unnamed_styles`): all in that level's bold, a short title over prose. A heading
    that opens like a statement's label ("Example: Measles, Germany, 2005–2007", a
    ``\\subsubsection*`` its macro prefixes with "Example:") is read as no heading at first; a
    statement's label alone in that bold ("Definition 1", :func:`~.labels.statement_label`) is none."""
    block = blocks[index]
    if not (block.bold and len(block.lines) <= 2 and _outlined_style(block) in unnamed):
        return False
    text = block.text.strip()
    return text[:1].isupper() and _short_title(text) and not _statement_head(block) and over_prose(blocks, index)


def _statement_head(block: Block) -> bool:
    """Whether a bold block opens a statement, not a section: its text a statement's label
    (:func:`~.labels.statement_label`), or its first line one alone with the statement going on
    under it ("Definition 60" over "§3) Anordnungsaxiome", the first of the axioms it defines).
    amsthm sets the head on a line of its own in the low headings' bold; its number (or a proof's
    colon) is what tells it."""
    return statement_label(block.text.strip()) or (len(block.lines) > 1 and statement_label(block.lines[0].text.strip()))


def _outlined_name(blocks: list[Block], index: int, outline: _Outline) -> bool:
    """Whether a line the blocks read as a paragraph, for it opens with a small letter, is an
    unnumbered heading in the style of those the outline names on lines of their own
    (``\\subsection*{svdPca}``, a function's name, among numbered subsections in the same type):
    a line of its own, set larger than the body, a short name over prose. Not the rest of a
    run-in heading's line ("1.1 Essential Initial Commands." then "To begin, fill in the fields").
    A style the outline names once will do where the page sets it for starred headings too
    (:func:`_starred_styles`: "alpha level adjustments" under one outlined subsection)."""
    block = blocks[index]
    if len(block.lines) != 1 or block.size <= outline.body_size + 0.5 or (index and blocks[index - 1].extra.get("run_in")):
        return False
    style = _outlined_style(block)
    if outline.set_apart.get(style, 0) < _OUTLINED_STYLE and style not in outline.starred:
        return False
    text = block.text.strip()
    return text[:1].isalpha() and _short_title(text) and over_prose(blocks, index)


def _short_title(text: str) -> bool:
    """A heading's few words, ending no clause."""
    return len(text.split()) <= _FACE_WORDS and not text.endswith((".", ":", ",", ";"))


def _face_headings(blocks: list[Block], matched: dict[int, tuple[int, str]], first: int, body_size: float) -> list[int]:
    """Headings of a level the outline leaves out, set in a type of their own that is neither
    bold nor larger, so that the blocks read them as lines of the body: a ``\\subsubsection*``
    in an italic face that sets nothing else ("Alternative 1: Precomputed gpar object" in
    LMRoman12-Italic), or in a Type 3 (bitmap) font that gives no name and no weight, told by
    its glyphs' measured height (xts: "Subsetting" at 9.0 where the body is 9.4). A type is a
    block's first face and its height, near the body's; one that sets, below the outline's first
    heading, twice or more and nothing else, short lines of words heading prose is a level of
    headings (a listing's, a table's or the body's own type also sets blocks of several lines, or
    lines that head no prose). A face without a name is told by its height alone, so that height
    must also stay under every outlined heading's; a named face, not be one of theirs, nor a math
    face (LMMathExtension10 sets the sum signs of the displays, read as "Pd", "Pn"), nor a
    typewriter face (LaTeX News sets the commands it names in LMMono10)."""
    named = [blocks[index].size for index in matched if blocks[index].kind == "heading"]
    if not named:
        return []
    outlined_faces = {blocks[index].lines[0].font for index in matched}
    groups: dict[tuple[str, float], list[int]] = {}
    for index, block in enumerate(blocks):
        if index > first and index not in matched and block.kind != "furniture":
            groups.setdefault((block.lines[0].font, round(block.size, 1)), []).append(index)
    found: list[int] = []
    for (face, size), members in groups.items():
        if len(members) < 2 or abs(size - body_size) > 0.12 * body_size:
            continue
        if face in outlined_faces if face else size >= min(named):
            continue
        if blk.math_face(face) or MONOSPACE_FONT.search(face):
            # a display's big operator ("Pn": the sum sign read as a P, its index beside it), or
            # a typewriter face, which sets code and commands ("… we added \DeclareUnicodeCommand")
            continue
        if all(_face_heading(blocks, index) for index in members):
            found += members
    return found


def _face_heading(blocks: list[Block], index: int) -> bool:
    """Whether a block of a type of its own reads as a heading: one line, a short title of words
    (not a line of code: "x <- 1", "> plot(x)"), ending no clause and not cut from a sentence
    (a paragraph's line in italics, "Ochrobactrum rhizosphaerae) were grown in flasks for"),
    over prose, not a group label over a two-column list (:func:`~.heading_styles.over_list_column`)."""
    block = blocks[index]
    text = block.text.strip()
    words = text.split()
    return (
        block.kind == "paragraph"
        and len(block.lines) == 1
        and 0 < len(words) <= _FACE_WORDS
        and text.lstrip("(\"“‘'")[:1].isalpha()  # "(Re)converting classes manually: reclass"
        and sum(ch.isalpha() for ch in text) >= 0.7 * len(text.replace(" ", ""))
        and not text.endswith((",", ";", ":"))
        and text.count("(") == text.count(")")
        and words[-1].lower() not in OPEN_ENDINGS
        and over_prose(blocks, index)
        and not over_list_column(blocks, index)
    )


def _outlined_style(block: Block) -> _Style:
    """A heading's style and face: a figure's bold label ("Potential" in Arial) is not set in the sections' face."""
    return heading_style(block), block.lines[0].font


def _letter_numbered(toc: list[tuple[int, str, int | None]]) -> set[int]:
    """Outline levels whose entries are numbered with letters (A, B, …), told by two entries of
    the level so numbered, one past "A": a lone "A" may be numbering or the article that begins
    a heading, and a lone "C" a name that does ("C implementation of RMA", a subsection printed
    "3.3.4 C implementation of RMA")."""
    lettered: collections.Counter[int] = collections.Counter()
    past_a: set[int] = set()
    for level, title, _ in toc:
        if letter := re.match(r"^\s*([A-H])(\.\d+)*\.?\s", title):
            lettered[level] += 1
            if letter.group(1) != "A":
                past_a.add(level)
    return {level for level in past_a if lettered[level] >= _LETTERED_ENTRIES}
