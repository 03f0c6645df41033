"""Which blocks the PDF outline (bookmarks) names as section headings, and at what level.

Where the PDF has an outline of :data:`OUTLINE_ENTRIES` entries or more, its entries name the
sections (:func:`apply_outline`): a heading it names takes its level, and an unnumbered one in
the style of those it names (``\\section*``), a numbered one a level below its last (numbered as
the entry or as the page prints it, and standing in its parent's section), read as a heading or
set in the type of one, or an unnumbered one in a smaller bold it never names but sets for two
headings over text (``\\subsubsection*`` under its subsections), stays; a numbered run-in
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
from difflib import SequenceMatcher

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block, is_reference_heading
from paperpyramid.parsers.embedded.contents import set_aside_chapter_labels
from paperpyramid.parsers.embedded.figure_labels import demote_axis_titles
from paperpyramid.parsers.embedded.heading_styles import TOP_LEVEL, heading_style, norm, over_prose
from paperpyramid.parsers.embedded.headings import demote_paragraph_ends, numbered_like_siblings, within
from paperpyramid.parsers.embedded.labels import statement_label
from paperpyramid.parsers.embedded.lead_ins import OPEN_ENDINGS
from paperpyramid.parsers.embedded.run_in import demote_stray_run_ins

#: an outline of fewer entries names no sections
OUTLINE_ENTRIES = 3


def apply_outline(blocks: list[Block], toc: list[tuple[int, str, int | None]], body_size: float) -> bool:
    """Let the PDF outline name the headings, when it looks like a section outline; ``body_size``
    is the body text's (:func:`~.reading_order.body_font_size`)."""
    if len(toc) < OUTLINE_ENTRIES:
        return False
    toc = [(level, _bookmark_text(title), page) for level, title, page in toc]
    # the title block is never a section: outlines often hang every heading under the title
    # nor is a printed table of contents (:func:`.contents.set_aside_contents`)
    set_aside_chapter_labels(blocks)
    candidates = [
        index for index, block in enumerate(blocks) if len(block.lines) <= 4 and block.kind != "title" and not block.extra.get("contents")
    ]
    matched: dict[int, tuple[int, str]] = {}
    start = 0
    ancestors: dict[int, str] = {}
    for level, title, page in toc:
        ancestors = {depth: name for depth, name in ancestors.items() if depth < level}
        ancestors[level] = norm(title)
        if any(ancestors.get(depth) in ("abstract", "summary") for depth in range(level)):
            continue  # a structured abstract's labels, not sections
        # the title without what may be its numbering, and whole: "A surprising contradiction"
        # may be printed with the article, "B. New options" with its letter
        keys = [key for key in dict.fromkeys((norm(re.sub(r"^\s*([\dIVXA-H]+(\.\d+)*\.?)\s+", "", title)), norm(title))) if len(key) >= 3]
        if not keys:
            continue
        # the page the outline names first, then its neighbours (destinations can be off by one);
        # never a page before the last entry found: a destination that points there is wrong
        # ("2. Besag-York-Mollié model" on page 3 sent to page 1, after "1. Introduction" on page 2)
        if page is not None and matched:
            page = max(page, blocks[max(matched)].page)
        for slack in (0, 1):
            position = _find_heading(blocks, candidates, start, keys, page, slack)
            if position is not None:
                matched[candidates[position]] = (level, title)
                start = position + 1
                break
    if len(matched) < max(3, 0.5 * len(toc)):
        return False
    lettered = _letter_numbered(toc)
    first = min(matched)
    levels = {title: level for level, title, _ in toc}
    # outlines often hang every section under one root (the article's title): the IMRaD
    # headings' level is level 1
    top = [level for level, title in matched.values() if norm(title) in {norm(name) for name in TOP_LEVEL}]
    shift = min(top) - 1 if top else min(level for level, _ in matched.values()) - 1
    matched = {index: (max(1, level - shift), title) for index, (level, title) in matched.items()}
    # the styles (and faces: a figure's bold label is in another) of the headings the outline names
    outlined_styles = collections.Counter(_outlined_style(blocks[index]) for index in matched if blocks[index].kind == "heading")
    styled_from: dict[tuple[tuple[float, bool, bool, bool], str], int] = {}  # where the outline first names a body heading of each
    for index in sorted(matched):
        if matched[index][1].strip().lower() not in _FRONT_LABELS:
            styled_from.setdefault(_outlined_style(blocks[index]), index)
    printed = _outlined_numbers(blocks, matched)
    numbered = {number: matched[index][0] for index, number in printed.items()}
    last_number: str | None = None  # the number of the last numbered heading kept: the section a line stands in
    unnamed = _unnamed_styles(blocks, matched, first)
    # the styles of the outlined headings on lines of their own: a run-in heading's is its paragraph's
    set_apart = collections.Counter(
        _outlined_style(blocks[index]) for index in matched if blocks[index].kind == "heading" and not blocks[index].extra.get("run_in")
    )
    # the title, and an abstract's label: starred headings stand after the one, not after the other
    titled = max((index for index, block in enumerate(blocks) if block.kind == "title"), default=len(blocks))
    labelled = next(
        (index for index, block in enumerate(blocks) if block.kind == "heading" and block.text.strip().lower() in _FRONT_LABELS), None
    )
    front = (titled, len(blocks) if labelled is None else labelled)
    # a printed table of contents after the abstract ends the front matter: a vignette's starred
    # "Foreword" under its contents is body (see _starred_before)
    listed = max((index for index, block in enumerate(blocks) if block.extra.get("contents")), default=-1)
    if front[1] < listed:
        front = (listed, len(blocks))
    for index, block in enumerate(blocks):
        if index in matched:
            level, title = matched[index]
            parts = blk._NUMBERING.match(title.strip())
            if parts and re.fullmatch(r"[A-H]", parts.group("num")) and levels[title] not in lettered:
                parts = None  # "A surprising contradiction": the article, not a number
            block.kind = "heading"
            block.level = level
            if parts:
                block.number, block.title = parts.group("num").rstrip("."), parts.group("title").strip()
            else:
                block.number, block.title = _printed_title(block, title) or (None, title.strip())
            block.extra["outline"] = True
            last_number = printed.get(index)
        elif block.kind == "heading" and not block.extra.get("run_in"):
            plain = block.title.lower()
            if plain in blk.KNOWN_HEADINGS and plain not in _FRONT_LABELS and (index < first or plain in blk.BACK_MATTER_HEADINGS):
                # a printed "Introduction", or "Acknowledgments" after the body (a starred section),
                # that the outline leaves out: demoted, its text would go with the front matter
                # before the outline's first heading, or with the section before it
                block.level = 1
            elif block.number and block.number.rpartition(".")[0] in numbered and within(block.number, last_number):
                # "2.1.1 An Aside on Numbers" under the outline's "2.1": an outline that stops a level short
                block.level = numbered[block.number.rpartition(".")[0]] + 1
                last_number = block.number
            elif (
                (index > styled_from.get(_outlined_style(block), len(blocks)) or _starred_before(blocks, index, front))
                and plain not in _FRONT_LABELS
                and not block.number
                and block.title[:1].isupper()  # not an algorithm's numbered line ("22: end while") in the same bold
                and not block.text.rstrip().endswith(":")  # "Affiliation:" labels the authors' addresses
                and block.title.split()[-1].lower() not in OPEN_ENDINGS  # a bold line cut short ("… Encyclopedia of")
                and outlined_styles.get(_outlined_style(block), 0) >= _OUTLINED_STYLE
            ):
                # an unnumbered section the outline leaves out ("Computational details" set with
                # \section*), printed in the style of the sections it names: one of them
                block.level = min(
                    level for named, (level, _) in matched.items() if _outlined_style(blocks[named]) == _outlined_style(block)
                )
            elif (
                _outlined_style(block) in unnamed
                and plain not in _FRONT_LABELS
                and block.title[:1].isupper()
                and not block.text.rstrip().endswith(":")
                and not _statement_head(block)
                and over_prose(blocks, index)
            ):
                # a level the outline leaves out (``\\subsubsection*`` under its subsections): its style
                # set apart for more than one heading, smaller than any the outline names, over text
                block.level = _level_below(matched, index)
            elif not is_reference_heading(plain) and plain != "abstract":
                block.kind = "paragraph"
        elif block.kind == "heading" and not block.number:
            # a run-in heading the outline leaves out (``\\paragraph``): the lowest level there is,
            # under the outlined heading it stands in, not at the top
            block.level = _level_below(matched, index)
        elif block.kind == "paragraph" and index > first and _unnamed_label(blocks, index, unnamed):
            block.kind, block.number, block.title = "heading", None, block.text.strip()
            block.level = _level_below(matched, index)
        elif block.kind == "paragraph" and index > first and _outlined_name(blocks, index, set_apart, body_size):
            block.kind, block.number, block.title = "heading", None, block.text.strip()
            block.level = min(level for named, (level, _) in matched.items() if _outlined_style(blocks[named]) == _outlined_style(block))
    for index in _face_headings(blocks, matched, first, body_size):
        block = blocks[index]
        block.kind, block.number, block.title = "heading", None, block.text.strip()
        block.level = _level_below(matched, index)
    for index in numbered_like_siblings(blocks, body_size):
        parent = (blocks[index].number or "").rpartition(".")[0]
        blocks[index].level = numbered[parent] + 1 if parent in numbered else _level_below(matched, index)
    demote_paragraph_ends(blocks)
    demote_stray_run_ins(blocks)
    demote_axis_titles(blocks)
    return True


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


def _printed_title(block: Block, outlined: str) -> tuple[str | None, str] | None:
    """The number and title printed on the page for an unnumbered outline entry, where the page
    says more than the outline: its plain stand-in ("lambda" for "λ"), its short title
    (``\\section[short]{long}``: "Labels in the borders" for "4.1. Labels in the borders:
    labeling_text()") or its number alone, the block never read as a heading ("6. Example:
    Ovarian cancer survival"). None where the page prints another title."""
    key = norm(outlined)
    readings: list[tuple[str | None, str, bool]] = [(block.number, block.title, True)] if block.title else []
    parts = blk._NUMBERING.match(block.text.strip())
    text = (parts.group("num").rstrip("."), parts.group("title").strip()) if parts else (None, block.text.strip())
    readings.append((*text, False))
    for number, title, heading in readings:
        # the short title, then a colon, a dash or a parenthesis and the rest; a block's text, the
        # title itself: a block may run on into its paragraph ("… of nano-MgO. The")
        heads = [title] + [title[: match.start()] for match in _TITLE_REST.finditer(title)]
        if any(_similar(norm(head), key) if heading else norm(head) == key for head in heads):
            return number, title
    return None


#: where a printed title goes on past its short form: "Labels in the borders: labeling_text()"
_TITLE_REST = re.compile(r"\s*(?::|\(|\s[–—-]\s)")


def _outlined_numbers(blocks: list[Block], matched: dict[int, tuple[int, str]]) -> dict[int, str]:
    """The section number of each heading the outline names, for the deeper ones it leaves out
    ("2.1.1" under the outline's "2.1"): the entry's own number, or else the one the page prints
    before it. A document class that numbers its sections often leaves the numbers out of the
    bookmarks ("Quick Start" for the printed "4 Quick Start"), and its "4.1.1 Required input",
    under the outline's last level, must still be known as a heading below "4.1"."""
    numbers: dict[int, str] = {}
    for index, (_, title) in matched.items():
        parts = blk._NUMBERING.match(title.strip())
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


def _unnamed_styles(
    blocks: list[Block], matched: dict[int, tuple[int, str]], first: int
) -> set[tuple[tuple[float, bool, bool, bool], str]]:
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


def _unnamed_label(blocks: list[Block], index: int, unnamed: set[tuple[tuple[float, bool, bool, bool], str]]) -> bool:
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


def _outlined_name(
    blocks: list[Block], index: int, outlined: collections.Counter[tuple[tuple[float, bool, bool, bool], str]], body_size: float
) -> bool:
    """Whether a line the blocks read as a paragraph, for it opens with a small letter, is an
    unnumbered heading in the style of those the outline names on lines of their own
    (``\\subsection*{svdPca}``, a function's name, among numbered subsections in the same type):
    a line of its own, set larger than the body, a short name over prose. Not the rest of a
    run-in heading's line ("1.1 Essential Initial Commands." then "To begin, fill in the fields")."""
    block = blocks[index]
    if len(block.lines) != 1 or block.size <= body_size + 0.5 or (index and blocks[index - 1].extra.get("run_in")):
        return False
    if outlined.get(_outlined_style(block), 0) < _OUTLINED_STYLE:
        return False
    text = block.text.strip()
    return text[:1].isalpha() and _short_title(text) and over_prose(blocks, index)


def _short_title(text: str) -> bool:
    """A heading's few words, ending no clause."""
    return len(text.split()) <= _FACE_WORDS and not text.endswith((".", ":", ",", ";"))


#: the most words of a heading told by its type alone (:func:`_face_headings`)
_FACE_WORDS = 10


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
    face (LMMathExtension10 sets the sum signs of the displays, read as "Pd", "Pn")."""
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
        if blk._MATH_FONT.match(face) and not blk._ROMAN_FONT.match(face):
            continue  # a display's big operator ("Pn": the sum sign read as a P, its index beside it)
        if all(_face_heading(blocks, index) for index in members):
            found += members
    return found


def _face_heading(blocks: list[Block], index: int) -> bool:
    """Whether a block of a type of its own reads as a heading: one line, a short title of words
    (not a line of code: "x <- 1", "> plot(x)"), ending no clause and not cut from a sentence
    (a paragraph's line in italics, "Ochrobactrum rhizosphaerae) were grown in flasks for"),
    over prose."""
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
    )


#: an outline names this many headings of a style at least before that style marks a section
_OUTLINED_STYLE = 2


def _outlined_style(block: Block) -> tuple[tuple[float, bool, bool, bool], str]:
    """A heading's style and face: a figure's bold label ("Potential" in Arial) is not set in the sections' face."""
    return heading_style(block), block.lines[0].font


def _find_heading(blocks: list[Block], candidates: list[int], start: int, keys: list[str], page: int | None, slack: int) -> int | None:
    for position in range(start, len(candidates)):
        block = blocks[candidates[position]]
        if page is not None and abs(block.page - page) > slack:
            if block.page > page + slack:
                return None
            continue
        # the printed text too, where no heading was read from it: an appendix's heading in small type
        # ("APPENDIX A. THE VECTOR PRODUCT", set aside as small print) that the outline names
        text = block.text  # joined once: the lines' join is the costly part
        printed = {norm(_APPENDIX_LEAD.sub("", block.title)), norm(_APPENDIX_LEAD.sub("", text))}
        for text_key in {norm(block.title), norm(text), *printed} - {""}:
            if any(text_key == key for key in keys):
                return position
            if any(len(key) > 12 and text_key.startswith(key[:40]) for key in keys):
                return _whole_title_after(blocks, candidates, position, keys)
            if block.kind == "heading" and block.page == page and any(_similar(text_key, key) for key in keys):
                return position
        if _wrapped_heading(blocks, candidates[position], keys, norm(text)):
            return position
    return None


def _whole_title_after(blocks: list[Block], candidates: list[int], position: int, keys: list[str]) -> int:
    """The block that prints an outline entry whole, among the next few after one that only opens
    with it: a paragraph opening with the words of the heading right under it ("Species
    accumulation models and species pool models study…" under "5.1 Species accumulation models",
    read before it in another column order) is not that heading."""
    page = blocks[candidates[position]].page
    for later in range(position + 1, min(position + 4, len(candidates))):
        block = blocks[candidates[later]]
        if block.page == page and (norm(block.title) in keys or norm(block.text) in keys):
            return later
    return position


def _wrapped_heading(blocks: list[Block], index: int, keys: list[str], text: str) -> bool:
    """Whether a heading's title wraps onto a line read as a block of its own (its second line in
    another size: "5 Adjusting for surrogate variables using the" over "f.pvalue function", the
    function's name set in a smaller type, or a justified line cut at its wide gaps), together
    reading as the outline's entry (``text``: the first block's, normalised). The pieces then
    join the heading's block."""
    if len(text) < 8 or not any(key.startswith(text) and key != text for key in keys):
        return False
    for end in range(index + 1, min(index + 1 + _WRAPPED_PIECES, len(blocks))):
        after = blocks[end]
        if after.page != blocks[index].page or len(after.lines) > 1 or after.kind not in ("paragraph", "heading"):
            return False
        text += norm(after.text)
        if text in keys:
            blocks[index].lines = [line for block in blocks[index : end + 1] for line in block.lines]
            for block in blocks[index + 1 : end + 1]:
                block.kind = "furniture"
            return True
        if not any(key.startswith(text) for key in keys):
            return False
    return False


#: the most blocks a wrapped heading's lines are read as (a justified line's wide gaps cut it too:
#: "3.1 Taxonomic diversity:", "average", "distance of traits")
_WRAPPED_PIECES = 3


#: "Appendix A." before an appendix's title, which its outline entry leaves out
_APPENDIX_LEAD = re.compile(r"^\s*(?:appendix|annexe?)\s+[A-Z0-9]{1,2}[.:]?\s+", re.I)


def _similar(printed: str, outlined: str) -> bool:
    """Whether a printed heading and an outline entry are one title written two ways: the
    outline spells out what the page prints as a symbol ("lambda" for "λ")."""
    return printed == outlined or (len(outlined) > 12 and SequenceMatcher(None, printed, outlined).ratio() >= 0.85)


#: known headings that label front matter rather than open a section of the body
_FRONT_LABELS = {"abstract", "summary", "keywords"}


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


#: entries of one outline level numbered with letters that make the level lettered
_LETTERED_ENTRIES = 2
