"""Which blocks are a paper's section headings, and at what level.

After the blocks are classified, the parser settles the headings here:

- :func:`apply_outline`: where the PDF has an outline (bookmarks) of :data:`OUTLINE_ENTRIES` entries
  or more, its entries name the sections; a heading it names takes its level, and an unnumbered one
  in the style of those it names (``\\section*``), a numbered one a level below its last, or an
  unnumbered one in a smaller bold it never names but sets for two headings over text
  (``\\subsubsection*`` under its subsections), stays; lone lines in a type of their own over
  text are a level it leaves out; a starred heading before the outline names its style, or
  read as a line of the body (a function's name, "Example: …"), in a style it names or leaves
  out, is one; an entry is read as the page prints it (a macro's leaked argument dropped) and
  found whole where its lines were read apart;
- :func:`filter_headings`: otherwise levels come from numbering ("2.1" is level 2; a small letter,
  "a. Syntax", the lowest there is) and from the heading styles ranked by size and weight
  (:func:`heading_style`); back matter is flattened to the top level; a line in the face and
  size of the paper's headings is one though it opens with a small letter ("network attributes");
  a plot's labels in the figures' face, and labels after the reference list in a style no
  heading before it uses, are none;
- :func:`set_aside_contents` (first): a printed table of contents is page furniture, never headings;
  so is a chapter's label over its title (:func:`set_aside_chapter_labels`); a plot's axis title
  after its tick labels is no heading either way;
- :func:`mark_sections_on_citing`: a "References" heading over prose, set as a subsection or
  numbered with the next section after it, is a section on how to cite, not the reference list.

Moved out of :mod:`.parser`, which calls these in order.
"""

from __future__ import annotations

import collections
import re
from difflib import SequenceMatcher

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.blocks import REFERENCE_HEADINGS, Block


def prose(text: str) -> bool:
    """Words a sentence is made of, not labels: at least two lowercase words."""
    words = text.split()
    return len(words) >= 4 and sum(1 for word in words if len(word) >= 3 and word.isalpha() and word.islower()) >= 2


def _norm(text: str) -> str:
    return re.sub(r"[\W\d_]+", "", text.lower())


#: an outline of fewer entries names no sections
OUTLINE_ENTRIES = 3


def apply_outline(blocks: list[Block], toc: list[tuple[int, str, int | None]], body_size: float) -> bool:
    """Let the PDF outline name the headings, when it looks like a section outline; ``body_size``
    is the body text's (:func:`~.reading_order.body_font_size`)."""
    if len(toc) < OUTLINE_ENTRIES:
        return False
    toc = [(level, _bookmark_text(title), page) for level, title, page in toc]
    # the title block is never a section: outlines often hang every heading under the title
    # nor is a printed table of contents (:func:`set_aside_contents`)
    set_aside_chapter_labels(blocks)
    candidates = [
        index for index, block in enumerate(blocks) if len(block.lines) <= 4 and block.kind != "title" and not block.extra.get("contents")
    ]
    matched: dict[int, tuple[int, str]] = {}
    start = 0
    ancestors: dict[int, str] = {}
    for level, title, page in toc:
        ancestors = {depth: name for depth, name in ancestors.items() if depth < level}
        ancestors[level] = _norm(title)
        if any(ancestors.get(depth) in ("abstract", "summary") for depth in range(level)):
            continue  # a structured abstract's labels, not sections
        # the title without what may be its numbering, and whole: "A surprising contradiction"
        # may be printed with the article, "B. New options" with its letter
        keys = [key for key in dict.fromkeys((_norm(re.sub(r"^\s*([\dIVXA-H]+(\.\d+)*\.?)\s+", "", title)), _norm(title))) if len(key) >= 3]
        if not keys:
            continue
        # the page the outline names first, then its neighbours (destinations can be off by one)
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
    top = [level for level, title in matched.values() if _norm(title) in {_norm(name) for name in _TOP_LEVEL}]
    shift = min(top) - 1 if top else min(level for level, _ in matched.values()) - 1
    matched = {index: (max(1, level - shift), title) for index, (level, title) in matched.items()}
    # the styles (and faces: a figure's bold label is in another) of the headings the outline names
    outlined_styles = collections.Counter(_outlined_style(blocks[index]) for index in matched if blocks[index].kind == "heading")
    styled_from: dict[tuple[tuple[float, bool, bool, bool], str], int] = {}  # where the outline first names a body heading of each
    for index in sorted(matched):
        if matched[index][1].strip().lower() not in _FRONT_LABELS:
            styled_from.setdefault(_outlined_style(blocks[index]), index)
    # the level of each section number the outline names ("2.1": 2), for the deeper ones it leaves out
    numbered = {
        parts.group("num").rstrip("."): level for level, title in matched.values() if (parts := blk._NUMBERING.match(title.strip()))
    }
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
        elif block.kind == "heading" and not block.extra.get("run_in"):
            plain = block.title.lower()
            if plain in blk.KNOWN_HEADINGS and plain not in _FRONT_LABELS and (index < first or plain in blk.BACK_MATTER_HEADINGS):
                # a printed "Introduction", or "Acknowledgments" after the body (a starred section),
                # that the outline leaves out: demoted, its text would go with the front matter
                # before the outline's first heading, or with the section before it
                block.level = 1
            elif block.number and block.number.rpartition(".")[0] in numbered:
                # "2.1.1 An Aside on Numbers" under the outline's "2.1": an outline that stops a level short
                block.level = numbered[block.number.rpartition(".")[0]] + 1
            elif (
                (index > styled_from.get(_outlined_style(block), len(blocks)) or _starred_before(blocks, index, front))
                and plain not in _FRONT_LABELS
                and not block.number
                and block.title[:1].isupper()  # not an algorithm's numbered line ("22: end while") in the same bold
                and not block.text.rstrip().endswith(":")  # "Affiliation:" labels the authors' addresses
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
                and _over_prose(blocks, index)
            ):
                # a level the outline leaves out (``\\subsubsection*`` under its subsections): its style
                # set apart for more than one heading, smaller than any the outline names, over text
                block.level = _level_below(matched, index)
            elif plain not in REFERENCE_HEADINGS and plain != "abstract":
                block.kind = "paragraph"
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
    _demote_axis_titles(blocks)
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
    title (``front[0]``) but not after an abstract's label (``front[1]``: under it "CCS CONCEPTS"
    and "KEYWORDS" are front matter in the sections' type), over prose."""
    titled, labelled = front
    return titled < index and not labelled < index and _over_prose(blocks, index)


def _printed_title(block: Block, outlined: str) -> tuple[str | None, str] | None:
    """The number and title printed on the page for an unnumbered outline entry, where the page
    says more than the outline: its plain stand-in ("lambda" for "λ"), its short title
    (``\\section[short]{long}``: "Labels in the borders" for "4.1. Labels in the borders:
    labeling_text()") or its number alone, the block never read as a heading ("6. Example:
    Ovarian cancer survival"). None where the page prints another title."""
    key = _norm(outlined)
    readings: list[tuple[str | None, str, bool]] = [(block.number, block.title, True)] if block.title else []
    parts = blk._NUMBERING.match(block.text.strip())
    text = (parts.group("num").rstrip("."), parts.group("title").strip()) if parts else (None, block.text.strip())
    readings.append((*text, False))
    for number, title, heading in readings:
        # the short title, then a colon, a dash or a parenthesis and the rest; a block's text, the
        # title itself: a block may run on into its paragraph ("… of nano-MgO. The")
        heads = [title] + [title[: match.start()] for match in _TITLE_REST.finditer(title)]
        if any(_similar(_norm(head), key) if heading else _norm(head) == key for head in heads):
            return number, title
    return None


#: where a printed title goes on past its short form: "Labels in the borders: labeling_text()"
_TITLE_REST = re.compile(r"\s*(?::|\(|\s[–—-]\s)")


def _level_below(matched: dict[int, tuple[int, str]], index: int) -> int:
    """The level of a heading the outline leaves out: one below the last outlined heading before it."""
    return 1 + max((level for named, (level, _) in matched.items() if named < index), default=0)


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
    )
    return {style for style, count in counts.items() if count >= 2 and style not in named_styles}


def _unnamed_label(blocks: list[Block], index: int, unnamed: set[tuple[tuple[float, bool, bool, bool], str]]) -> bool:
    """Whether a line the blocks read as a paragraph is a heading of a level the outline leaves
    out (:func:`_unnamed_styles`): all in that level's bold, a short title over prose. A heading
    that opens like a statement's label ("Example: Measles, Germany, 2005–2007", a
    ``\\subsubsection*`` its macro prefixes with "Example:") is read as no heading at first."""
    block = blocks[index]
    if not (block.bold and len(block.lines) <= 2 and _outlined_style(block) in unnamed):
        return False
    text = block.text.strip()
    return text[:1].isupper() and _short_title(text) and _over_prose(blocks, index)


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
    return text[:1].isalpha() and _short_title(text) and _over_prose(blocks, index)


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
    must also stay under every outlined heading's; a named face, not be one of theirs."""
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
        and words[-1].lower() not in blk.OPEN_ENDINGS
        and _over_prose(blocks, index)
    )


def _over_prose(blocks: list[Block], index: int) -> bool:
    """Whether the next block of text after a heading is a paragraph of prose, not another label."""
    for block in blocks[index + 1 : index + 4]:
        if block.kind in ("furniture", "aside"):
            continue
        return block.kind == "paragraph" and (len(block.text) >= 80 or prose(block.text))
    return False


_CONTENTS_LABEL = re.compile(r"^(?:table of )?contents$", re.I)
_LEADERS = re.compile(r"(?:\.\s?){4,}")
_PAGE_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$")


def set_aside_contents(blocks: list[Block]) -> None:
    """A printed table of contents near the front (``\\tableofcontents`` under the abstract), or on
    the last page (nwejm's class prints it at the end), is no section and names none: its label and entries become page furniture, so an outline's
    "Introduction" is not found in it and its lines are not read as headings. The entries are
    the blocks right after a "Contents" label that are set on a row with their page numbers,
    carry dot leaders or are a page number alone; two page numbers at least, or it is no table.
    A section's entry read apart from its page number (set in the sections' bold without
    leaders, it reads as a heading: "2 Setting") is one too (:func:`_contents_entry`)."""
    last = blocks[-1].page if blocks else 0
    for start, label in enumerate(blocks):
        if 3 < label.page < last or len(label.lines) > 1 or not _CONTENTS_LABEL.match(label.lines[0].text.strip()):
            continue
        entries: list[int] = []
        listed: set[str] = set()
        numbers = 0
        for index in range(start + 1, len(blocks)):
            block, text = blocks[index], blocks[index].text.strip()
            leaders = bool(_LEADERS.search(text))
            alone = bool(_PAGE_NUMBER.match(text))
            row = bool(text) and all("row" in line.tags for line in block.lines)
            if not (leaders or alone or not text or row or _contents_entry(blocks, index, listed) or _wrapped_entry(blocks, index)):
                break
            # a page number a line: the entries may be read as one block
            numbers += sum(1 for line in block.lines if _LEADERS.search(line.text)) if leaders else alone
            entries.append(index)
            listed.add(_norm(_LEADERS.split(text)[0]))
        if numbers >= 2:
            for index in [start, *entries]:
                blocks[index].kind = "furniture"
                blocks[index].extra["contents"] = True
        return


def _wrapped_entry(blocks: list[Block], index: int) -> bool:
    """Whether a line of a printed table of contents is an entry wrapped in a narrow column, read
    apart from the leaders and page number on its next line ("3.1 Taxonomic diversity: average
    dis-" over "tance of traits . . . 3"): a line of its own, and within the next two lines,
    each a line of its own, one with leaders or a page number alone."""
    if len(blocks[index].lines) != 1:
        return False
    for block in blocks[index + 1 : index + 3]:
        if len(block.lines) != 1:
            return False
        text = block.text.strip()
        if _LEADERS.search(text) or _PAGE_NUMBER.match(text):
            return True
    return False


def _contents_entry(blocks: list[Block], index: int, listed: set[str]) -> bool:
    """Whether a heading inside a printed table of contents is an entry of it, not the first
    section after it: a table lists each section once and heads no prose, so the heading that
    repeats an entry already listed, or stands over a paragraph, is the section itself."""
    block = blocks[index]
    if block.kind != "heading" or _norm(block.text) in listed:
        return False
    after = blocks[index + 1] if index + 1 < len(blocks) else None
    return after is not None and not (after.kind == "paragraph" and prose(after.text) and not _LEADERS.search(after.text))


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
        printed = {_norm(_APPENDIX_LEAD.sub("", block.title)), _norm(_APPENDIX_LEAD.sub("", text))}
        for text_key in {_norm(block.title), _norm(text), *printed} - {""}:
            if any(text_key == key for key in keys):
                return position
            if any(len(key) > 12 and text_key.startswith(key[:40]) for key in keys):
                return _whole_title_after(blocks, candidates, position, keys)
            if block.kind == "heading" and block.page == page and any(_similar(text_key, key) for key in keys):
                return position
        if _wrapped_heading(blocks, candidates[position], keys, _norm(text)):
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
        if block.page == page and (_norm(block.title) in keys or _norm(block.text) in keys):
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
        text += _norm(after.text)
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
    """Outline levels whose entries are numbered with letters (A, B, …), told by a second
    letter: a lone "A" may be numbering or the article that begins a heading."""
    return {level for level, title, _ in toc if re.match(r"^\s*[B-H](\.\d+)*\.?\s", title)}


def filter_headings(blocks: list[Block], body_size: float) -> None:
    """Keep heading styles that behave like headings; give each a level."""
    set_aside_chapter_labels(blocks)
    _demote_list_items(blocks)
    _demote_plain_numbered_lines(blocks, body_size)
    _demote_figure_labels(blocks)
    _demote_axis_titles(blocks)
    _lowercase_headings(blocks)
    _demote_back_labels(blocks)
    for block in blocks:
        # "2 Paolo Pelosi, University of Pisa, Italy": a numbered affiliation, not a section
        if (
            block.kind == "heading"
            and block.number
            and not block.extra.get("outline")
            and not block.extra.get("run_in")
            and fm.affiliation_like(block.title)
        ):
            block.kind = "paragraph"
    styles: dict[tuple[float, bool, bool, bool], list[int]] = {}
    for index, block in enumerate(blocks):
        if block.kind == "heading" and not block.extra.get("run_in"):
            styles.setdefault(heading_style(block), []).append(index)
    paragraphs = sum(1 for block in blocks if block.kind == "paragraph")
    for members in styles.values():
        numbered = sum(1 for index in members if blocks[index].number)
        known = sum(1 for index in members if blocks[index].title.lower() in blk.KNOWN_HEADINGS)
        # a style used as often as the body paragraphs is emphasis, not a heading
        if len(members) > max(8, paragraphs * 0.6) and numbered + known < len(members) * 0.5:
            for index in members:
                blocks[index].kind = "paragraph"
    headings = [block for block in blocks if block.kind == "heading"]
    level_of = _style_levels(headings)
    numbered_levels = any(block.number for block in headings)
    above = 0  # the level of the last heading set on a line of its own
    for block in headings:
        if block.number and block.number.islower() and len(block.number) == 1:
            block.level = min(above + 1, 4)  # "a. Syntax": a small letter numbers the lowest level there is
            continue
        if block.number and numbered_levels:
            block.level = block.number.count(".") + 1 if block.number[0].isdigit() or "." in block.number else 1
        elif block.extra.get("run_in"):
            block.level = min(above + 1, 4)  # a run-in heading is the lowest there is: under the heading above it
            continue
        else:
            block.level = level_of.get(heading_style(block), 1)
        if not block.extra.get("run_in"):  # a numbered run-in heading is levelled by its number, and nests nothing
            above = block.level
    _flatten_back_matter(headings)


#: the most words of a heading found by its face alone (:func:`_lowercase_headings`)
_LOWERCASE_WORDS = 8
#: this many headings at least set in one face and size make it a heading style
_STYLE_MEMBERS = 2


def _lowercase_headings(blocks: list[Block]) -> None:
    """A heading that opens with a small letter, set in the face and size of two headings or
    more: "network attributes" (the package's name first, in typewriter) among the italic
    "Edge structure" and "Vertex attributes", "mRNA expression" among bold headings. A heading's
    style is its face, size and place, not its first letter's case; :func:`~.blocks.heading_parts`
    wants a capital only because it judges a block alone. The block is one short line, ending no
    sentence, at the left edge of a heading of that style, with text in another face right under it;
    never in the body's face (numbered lines of a listing, table cells read as headings set it)."""
    styles: dict[tuple[str, float], list[float]] = {}  # each face and size: its headings' left edges
    faces: collections.Counter[str] = collections.Counter()
    for block in blocks:
        if block.kind == "heading" and not block.extra.get("run_in") and len(block.lines) == 1:
            line = block.lines[0]
            styles.setdefault((line.font, round(line.size, 1)), []).append(line.x0)
        elif block.kind == "paragraph":
            faces.update(line.font for line in block.lines)
    body_face = faces.most_common(1)[0][0] if faces else ""
    for index, block in enumerate(blocks[:-1]):
        if block.kind != "paragraph" or len(block.lines) != 1:
            continue
        line, text = block.lines[0], block.text.strip()
        edges = styles.get((line.font, round(line.size, 1)), [])
        if line.font == body_face or len(edges) < _STYLE_MEMBERS or not any(abs(line.x0 - x0) <= 2 for x0 in edges):
            continue
        number = blk._NUMBERING.match(text)
        title = number.group("title") if number else text
        if not title[:1].islower() or len(title.split()) > _LOWERCASE_WORDS or re.search(r"[.,;:]$", title):
            continue
        letters = sum(ch.isalpha() for ch in title)
        if letters < 3 or letters < 0.6 * len(title.replace(" ", "")):
            continue
        below = blocks[index + 1]
        first = below.lines[0]
        if below.kind != "paragraph" or first.page != line.page or first.column != line.column or first.font == line.font:
            continue
        if not 0 <= first.top - line.bottom <= 3 * line.height:
            continue
        block.kind, block.title = "heading", title.strip()
        block.number = number.group("num").rstrip(".") if number else None


def _demote_back_labels(blocks: list[Block]) -> None:
    """After the reference list, an appendix's sections are set as the body's are; an unnumbered
    heading there in a style no heading before the list uses (a reference card's bold group
    labels, "Creation", "Coercion", in a smaller bold over its two-column rows) labels a part of
    a table or a list, not a section. Known headings ("Acknowledgments") and appendices stay."""
    headings = [(index, block) for index, block in enumerate(blocks) if block.kind == "heading" and not block.extra.get("run_in")]
    listed = next(
        (
            position
            for position, (_, block) in enumerate(headings)
            if block.title.lower().strip() in REFERENCE_HEADINGS and not block.extra.get("on_citing")
        ),
        None,
    )
    if listed is None:
        return
    body_styles = {heading_style(block) for _, block in headings[:listed]}
    for index, block in headings[listed + 1 :]:
        plain = block.title.lower().strip()
        if block.number or plain in blk.KNOWN_HEADINGS or plain.startswith(("appendix", "annex")) or heading_style(block) in body_styles:
            continue
        blocks[index].kind = "paragraph"


#: a face that sets this many labels (small print, lines of no prose) at least may be the figures' face
_FIGURE_FACE_BLOCKS = 5


def _demote_figure_labels(blocks: list[Block]) -> None:
    """A plot's larger labels in the figures' own face are no headings: a legend's title ("Scale
    Est.") or a tick and a key read together ("6 Hampel") in a bold Helvetica among the axis
    numbers set aside as small print, a panel's title ("Empirical and theoretical CDFs") in the
    bold Helvetica of the other panels' titles. The figures' face sets labels (small print, or
    lines that are no paragraph of prose) many times and never a paragraph; a heading in it that
    heads no prose, where no heading in it does, is a label."""
    labels: collections.Counter[str] = collections.Counter()
    prose_faces: set[str] = set()
    for block in blocks:
        if _paragraph(block):
            prose_faces.update(line.font for line in block.lines)
        elif block.kind == "paragraph" or (block.kind == "furniture" and not block.extra.get("contents")):
            labels[block.lines[0].font] += 1
    members: dict[str, list[int]] = {}
    heading_faces: set[str] = set()
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.extra.get("outline") or block.extra.get("run_in"):
            continue
        face = block.lines[0].font
        if not face or labels[face] < _FIGURE_FACE_BLOCKS or face in prose_faces:
            continue
        following = next((other for other in blocks[index + 1 : index + 4] if other.kind not in ("furniture", "aside")), None)
        if following is not None and _paragraph(following):
            heading_faces.add(face)
        else:
            members.setdefault(face, []).append(index)
    for face, indices in members.items():
        if face not in heading_faces:
            for index in indices:
                blocks[index].kind = "paragraph"


#: a plot's tick label: a number alone ("3.5", "−0.25", "10000", "20%")
_TICK = re.compile(r"^[−–-]?\d[\d,]*(?:\.\d+)?%?$")
#: this many tick labels at least right before a line make it an axis's title
_TICKS = 2


def _demote_axis_titles(blocks: list[Block]) -> None:
    """A plot's axis or panel title read after its tick labels is no heading, whatever follows it
    (a figure without a caption, the text going on under it: "Log10 of mean expression" after
    "3.0 3.5 4.0", then a paragraph): a heading whose blocks right before it are two tick labels
    or more, set in its own face's family (Helvetica beside Helvetica-Bold), is a label. A
    section's heading follows text, a caption or a table, never a plot's bare numbers in its face."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.extra.get("outline") or block.extra.get("run_in"):
            continue
        family = _family(block.lines[0].font)
        if not family:
            continue
        ticks = 0
        for before in reversed(blocks[max(0, index - _TICKS * 2) : index]):
            if not _TICK.match(before.text.strip()) or _family(before.lines[0].font) != family:
                break
            ticks += 1
        if ticks >= _TICKS:
            block.kind = "paragraph"


def _family(font: str) -> str:
    """A font's family: its name without subset prefix and style ("ABCDEF+Helvetica-Bold": "Helvetica")."""
    return font.rpartition("+")[2].partition("-")[0]


#: a chapter's label on a line of its own over its title (``\\chapter``, ``\\part``)
_CHAPTER_LABEL = re.compile(r"^(?:chapter|part|kapitel|chapitre)\s+(?:\d{1,2}|[IVXLC]{1,6}|[A-Z])$", re.I)


def set_aside_chapter_labels(blocks: list[Block]) -> None:
    """A chapter's label over its title ("Chapter 2" over "Analyses for DM in Denmark") is one
    heading with it, not a heading of its own with nothing under it: the label, read as a heading
    in the title's type, right before the title on its page, becomes page furniture."""
    for index, block in enumerate(blocks[:-1]):
        after = blocks[index + 1]
        if block.kind == "heading" and after.kind == "heading" and after.page == block.page and _CHAPTER_LABEL.match(block.text.strip()):
            block.kind = "furniture"


#: a paragraph of prose is this long at least: a plot's key or an axis's title is shorter
_PARAGRAPH_CHARS = 40


def _paragraph(block: Block) -> bool:
    """A paragraph of prose, by its length too: a plot's key ("lognormal loglogistic Pareto Burr")
    or an axis's title ("amount of contamination ε") reads as prose. A line is enough: some
    layouts are read a block to a line."""
    if block.kind != "paragraph":
        return False
    text = block.text  # joined once: the lines' join is the costly part
    return len(text) >= _PARAGRAPH_CHARS and prose(text)


_ITEM_NUMBER = re.compile(r"^\s*(\d{1,2})[.)]\s")
#: the most two items of a list differ in size (points): one set mostly in a smaller typewriter;
#: numbered headings a level apart differ by more
_ITEM_SIZES = 1.0


def _demote_list_items(blocks: list[Block]) -> None:
    """A numbered list's short items in the body's own type are no sections: "2. The network
    header file must be included during compilation." between the items "1. …" and "3. …" read
    as paragraphs. A numbered heading not in bold, with a neighbour in its type that goes on
    the list (the number before or after it), becomes a paragraph again."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.bold or block.extra.get("outline") or not (item := _ITEM_NUMBER.match(block.text)):
            continue
        number = int(item.group(1))
        for neighbour in (blocks[index - 1] if index else None, blocks[index + 1] if index + 1 < len(blocks) else None):
            # an item's size may be its code's ("2. Chromosome, Start_Position.bp.: …" mostly in typewriter)
            if neighbour is None or neighbour.bold or neighbour.page != block.page or abs(neighbour.size - block.size) > _ITEM_SIZES:
                continue
            other = _ITEM_NUMBER.match(neighbour.text)
            if other and abs(int(other.group(1)) - number) == 1:
                block.kind = "paragraph"
                break


#: this many top-level sections set apart (bold or larger) fix the type of a document's sections
_STYLED_SECTIONS = 2


def _demote_plain_numbered_lines(blocks: list[Block], body_size: float) -> None:
    """A document sets its top-level sections in one type: where two or more numbered "3 Common
    user options" are bold or larger, a line numbered at that level in the body's plain type
    ("3. Choose a gradient descent step size as", an algorithm's step over its display equation,
    its neighbours in the list cut off by the displays) is no section but an item. Only a line all
    in the body's face: "3. AMSMATH Package", its number in bold, is a section whose bold was misread."""
    top = [block for block in blocks if block.kind == "heading" and block.number and block.number.isdigit()]
    if sum(1 for block in top if block.bold or block.size >= body_size + 0.8) < _STYLED_SECTIONS:
        return
    faces = collections.Counter(line.font for block in blocks if block.kind == "paragraph" for line in block.lines)
    body_face = faces.most_common(1)[0][0] if faces else ""
    for block in top:
        first = block.lines[0]
        if block.extra.get("outline") or block.extra.get("run_in") or block.bold or first.italic or first.bold_prefix:
            continue
        if not body_face or any(line.font != body_face for line in block.lines):
            continue
        letters = [ch for ch in block.title if ch.isalpha()]
        if abs(block.size - body_size) <= 0.5 and not (letters and all(ch.isupper() for ch in letters)):
            block.kind = "paragraph"


def mark_sections_on_citing(blocks: list[Block]) -> None:
    """A "References" heading over prose rather than an entry, set in a subsection's style (one that
    other, non-reference headings share and that ranks below another heading style) with a heading
    of a higher rank after it, or numbered with the next section after it: a section on how to cite
    ("2. References" under "Citations and References" in a journal's guide, "§4. References" before
    "§5. Figures"), or a subsection's after the list's own heading (an annex's "References" on how
    to set them, after the paper's "REFERENCES"), not the reference list. It is marked
    (``extra["on_citing"]``), so that it and the headings under it stay sections of the body."""
    content = [block for block in blocks if block.kind not in ("furniture", "aside", "title", "table_part")]
    headings = [block for block in content if block.kind == "heading"]
    levels = _style_levels(headings)
    following = {id(block): content[position + 1] for position, block in enumerate(content[:-1])}
    for position, block in enumerate(headings):
        if block.title.lower().strip() not in REFERENCE_HEADINGS:
            continue
        level = levels.get(heading_style(block))
        shared = any(
            other is not block and heading_style(other) == heading_style(block) and other.title.lower().strip() not in REFERENCE_HEADINGS
            for other in headings
        )
        later = headings[position + 1 :]
        higher = (
            level is not None and level >= 2 and any(levels.get(heading_style(h), level) < level and _body_title(h.title) for h in later)
        )
        # or, in a subsection's style, after the reference list's own heading set otherwise (the
        # last subsection of an annex on how to cite, with no heading after it to outrank it)
        listed_before = any(
            h.title.lower().strip() in REFERENCE_HEADINGS and heading_style(h) != heading_style(block) for h in headings[:position]
        )
        higher = higher or (level is not None and level >= 2 and listed_before)
        # or numbered, the next section after it ("§4. References" on citing, then "§5. Figures")
        following_number = _next_number(block.number) if block.number else None
        succeeded = following_number is not None and any(h.number == following_number for h in later)
        text = following.get(id(block))
        over_prose = (
            text is not None
            and text.kind == "paragraph"
            and prose(text.text)
            and not _ENTRY_START.match(text.text)
            and not _ENTRY_MARKS.search(text.text[:300])
        )
        if ((shared and higher) or succeeded) and over_prose:
            block.extra["on_citing"] = True


def _next_number(number: str) -> str | None:
    """The number of the next section at the same depth: "4" -> "5", "2.3" -> "2.4"."""
    head, _, last = number.rpartition(".")
    return f"{head}.{int(last) + 1}" if head and last.isdigit() else (str(int(last) + 1) if last.isdigit() else None)


#: how a reference list's first entry opens: "[1]", "1.", "1 " before a name
_ENTRY_START = re.compile(r"^\s*(?:\[\d{1,3}\]|\d{1,3}[.)]?\s+[A-Z])")


#: what an entry holds and a paragraph on how to cite seldom does: a year, "et al"
_ENTRY_MARKS = re.compile(r"\b(?:1[89]\d\d|20\d\d)\b|\bet al\b")


def _body_title(title: str) -> bool:
    """A section of the body: not back matter, a reference list or an appendix."""
    plain = title.lower().strip()
    return plain not in blk.BACK_MATTER_HEADINGS and plain not in REFERENCE_HEADINGS and not plain.startswith(("appendix", "acknowledg"))


def _flatten_back_matter(headings: list[Block]) -> None:
    """The back matter holds no subsections: under "Author Contributions" or "Funding", a
    heading that is neither numbered, another part of the back matter, an IMRaD section nor an
    appendix ("Conceptualization", "Methodology", "Writing – review & editing") is a paragraph."""
    in_back = False
    for block in headings:
        plain = block.title.lower().strip()
        if block.extra.get("on_citing"):
            in_back = False
        elif plain in blk.BACK_MATTER_HEADINGS or plain in REFERENCE_HEADINGS:
            in_back = True
        elif block.number or plain in _TOP_LEVEL or plain.startswith("appendix"):
            in_back = False
        elif in_back:
            block.kind = "paragraph"


_TOP_LEVEL = {
    "introduction",
    "background",
    "methods",
    "materials and methods",
    "results",
    "discussion",
    "conclusion",
    "conclusions",
    "results and discussion",
    "related work",
}


def _style_levels(headings: list[Block]) -> dict[tuple[float, bool, bool, bool], int]:
    """Rank heading styles into levels. The style of the IMRaD headings ("Introduction",
    "Methods", ...) is level 1 wherever it ranks; "Abstract" and "References" do not count,
    since journals set them apart."""
    styles = [
        heading_style(block)
        for block in headings
        if block.title.lower() not in ("abstract", "summary") and block.title.lower() not in REFERENCE_HEADINGS
    ]
    ranked = sorted(set(styles), key=lambda s: (-s[0], not s[1], not s[3], s[2]))
    anchor = next((heading_style(block) for block in headings if block.title.lower() in _TOP_LEVEL), None)
    base = ranked.index(anchor) if anchor in ranked else 0
    levels = {style: max(1, min(position - base + 1, 4)) for position, style in enumerate(ranked)}
    if anchor is not None:
        # a style that only ever appears inside the IMRaD sections is nested in them, even when
        # it is set larger than they are (small-caps "METHODS" above bold "Patients")
        first = next(index for index, block in enumerate(headings) if heading_style(block) == anchor)
        for style in levels:
            members = [(index, block) for index, block in enumerate(headings) if heading_style(block) == style]
            inside = all(index > first for index, _ in members)
            generic = all(block.title.lower() in blk.KNOWN_HEADINGS for _, block in members)
            if style != anchor and inside and not generic:
                levels[style] = max(levels[style], 2)
    return levels


def heading_style(block: Block) -> tuple[float, bool, bool, bool]:
    letters = [ch for ch in block.title if ch.isalpha()]
    caps = bool(letters) and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)
    return (round(block.size), block.bold, block.lines[0].italic, caps)
