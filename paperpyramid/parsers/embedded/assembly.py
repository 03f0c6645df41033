"""The section tree from the classified blocks: the embedded parser's last pass.

:func:`assemble` walks the blocks in reading order. A heading opens a section under the nearest
open one of a lower level; a table caption takes the blocks its table claimed (its note in small
type goes under its cells, as do the notes under a caption printed below its table, and a line
saying only "(Continued)" is dropped as the page's furniture); figure captions (with the
figure's small print under them) and display formulas are kept apart as well as in the text;
the reference list's lines are gathered (also where the list resumes after other sections) and
split into entries; the front matter before the first heading gives the abstract, and the rest
of it a section of its own.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field
from typing import cast

from paperpyramid.document import Block as DocBlock
from paperpyramid.document import Document, Figure, Formula, Section, Table
from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block, is_reference_heading
from paperpyramid.parsers.embedded.figure_labels import mark_figure_small_print
from paperpyramid.parsers.embedded.footnotes import opens_with_table_mark
from paperpyramid.parsers.embedded.heading_styles import prose
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.link_joins import link_continues
from paperpyramid.parsers.embedded.raised import block_raised, joined_raised
from paperpyramid.parsers.embedded.references import (
    LINKS_ONLY,
    address_ends_list,
    body_text_ends_list,
    headless_list_start,
    split_list,
)
from paperpyramid.parsers.embedded.table_reader import continuation_mark, table_block_text, table_cells
from paperpyramid.parsers.reference_headings import AFTER_LIST_HEADINGS

_ABSTRACT_LEAD = re.compile(r"^\s*(abstract|summary)\s*[.:—–-]?\s*", re.I)


@dataclass
class _Assembly:
    """What :func:`_assemble` carries from one block to the next."""

    document: Document
    blocks: list[Block]
    current: Section | None = None
    front_section: Section | None = None  # an untitled first section for a figure or table before the first heading
    front: list[Block] = field(default_factory=list)
    references_lines: list[Line] = field(default_factory=list)
    in_references: bool = False
    last_entry: int = 0  # the highest entry number of a numbered reference list read so far
    resumed: bool = False  # the reference list resumed after other sections (see _resumes_references)
    ended: bool = False  # the authors' addresses or an index after the list ended it: it resumes no more
    # where an unnumbered list resumed in references_lines: each part is split into entries on its own
    resumed_at: list[int] = field(default_factory=list)
    skip: set[int] = field(default_factory=set)
    asides: list[DocBlock] = field(default_factory=list)
    stack: list[int] = field(default_factory=list)  # indices of open sections by level
    body_size: float = 10.0
    # a figure's small print by its caption's index (see :func:`.figure_labels.mark_figure_small_print`)
    figure_labels: dict[int, list[str]] = field(default_factory=dict)


def assemble(document: Document, blocks: list[Block], body_size: float) -> list[DocBlock]:
    """Walk the classified blocks, building the section tree and pulling out the rest; return
    the small print set aside (see :func:`_drop_small_print`)."""
    state = _Assembly(document, blocks, body_size=body_size)
    mark_figure_small_print(blocks)
    headless = None if any(block.kind == "heading" and _opens_references(block) for block in blocks) else headless_list_start(blocks)
    for index, block in enumerate(blocks):
        if index == headless:
            _open_headless_references(state, block)
        if block.kind in ("aside", "furniture") and _between_list_lines(state, blocks, index):
            block.kind = "paragraph"  # a piece of an entry, set apart by its wide spaces
        if block.kind == "aside" and ((headless is not None and index >= headless) or _small_entry(state, block)):
            block.kind = "paragraph"  # the list is set in small print
        if block.kind == "aside" and isinstance(at := block.extra.get("figure_label"), int):
            state.figure_labels.setdefault(at, []).append(block.text)  # the figure's, under its caption
            continue
        if block.kind == "aside":
            state.asides.append(DocBlock(text=block.text, page=block.page, kind="paragraph", bbox=block_bbox(block, [])))
            continue
        if index in state.skip or block.kind in ("furniture", "title", "table_part") or _continuation_line(block):
            continue
        if _after_list_heading(state, block):
            block.kind, block.title, block.level, state.ended = "heading", block.text.strip(), 1, True
        if block.kind == "heading" and state.in_references and _reference_like(block) and not _section_after_list(block, state.body_size):
            block.kind = "paragraph"
        if block.kind == "heading":
            _open_section(state, block)
            continue
        if state.in_references and block.kind == "paragraph" and state.references_lines:
            if address_ends_list(blocks, index):
                _end_references(state, block)
                state.ended = True  # the list ends with the authors' addresses: nothing after them is an entry
            elif body_text_ends_list(block, state.references_lines, state.body_size, numbered=state.last_entry >= 3):
                _end_references(state, block)  # F1000 sets back matter between the list's halves: it may resume
        target = _target_section(state, block)
        if target is None:
            continue
        target.page_end = max(target.page_end or block.page, block.page)
        if _take_reference_lines(state, block):
            continue
        state.resumed = False
        section_index = document.sections.index(target)
        if block.kind == "caption" and block.extra.get("caption_kind") == "table":
            _add_table(state, index, target, section_index)
        elif block.kind == "caption":
            document.figures.append(
                Figure(caption=block.text, page=block.page, label=block.label, section=section_index, bbox=block_bbox(block, []))
            )
            # the figure's labels under its caption, as a table's notes go under its cells
            labels = "\n".join(state.figure_labels.get(index, ()))
            text = f"{block.text}\n\n{labels}" if labels else block.text
            target.blocks.append(
                DocBlock(text=text, page=block.page, kind="caption", bbox=block_bbox(block, []), raised=block_raised(block.lines))
            )
        elif block.kind == "formula":
            document.formulas.append(
                Formula(text=block.text, page=block.page, label=block.label, section=section_index, bbox=block_bbox(block, []))
            )
            target.blocks.append(DocBlock(text=block.text, page=block.page, kind="formula", bbox=block_bbox(block, [])))
        elif text := str(block.extra.get("text", block.text)):
            target.blocks.append(
                DocBlock(text=text, page=block.page, kind="paragraph", bbox=block_bbox(block, []), raised=block_raised(block.lines))
            )
    _set_references(state)
    _place_front_matter(state)
    return state.asides


def _open_section(state: _Assembly, block: Block) -> None:
    """A heading opens a section under the nearest open one of a lower level."""
    sections = state.document.sections
    title = re.sub(r"\s+", " ", block.title).strip()
    is_references = _opens_references(block)
    level = 1 if is_references else max(block.level, 1)
    while state.stack and sections[state.stack[-1]].level >= level:
        state.stack.pop()
    section = Section(
        title=title,
        level=level,
        number="ref" if is_references else block.number,
        parent=state.stack[-1] if state.stack else None,
        page_start=block.page,
        page_end=block.page,
    )
    sections.append(section)
    # the abstract and the reference list never hold subsections
    state.stack = [] if is_references or title.lower() in ("abstract", "summary") else state.stack + [len(sections) - 1]
    state.current = section
    state.in_references = is_references
    state.resumed = False


def _continuation_line(block: Block) -> bool:
    """A line alone that says a table goes on over the page ("(Continued)", "Continued on next
    page"): the layout's furniture, no paragraph."""
    return block.kind == "paragraph" and len(block.lines) == 1 and continuation_mark(block.text)


def _opens_references(block: Block) -> bool:
    """Whether a heading opens the reference list: "2.8 References", a subsection on how to
    cite, does not, nor one in a subsection's style over prose ("2. References" in a guide: see
    :func:`.back_headings.mark_sections_on_citing`)."""
    title = re.sub(r"\s+", " ", block.title).strip().lower()
    return is_reference_heading(title) and "." not in (block.number or "") and not block.extra.get("on_citing")


def _after_list_heading(state: _Assembly, block: Block) -> bool:
    """Whether a line of text inside the reference list is the heading of what follows it, which
    the layout did not mark: ltxdoc's "Change History" and "Index" after a class's list, whose
    lines of commands and page numbers would be read as entries. One line, alone, in the body's
    type or larger, saying only such a title (:data:`.reference_headings.AFTER_LIST_HEADINGS`),
    inside the list or after what ended it (the index after the change history)."""
    return (
        (state.in_references or state.ended)
        and bool(state.references_lines)
        and block.kind == "paragraph"
        and len(block.lines) == 1
        and block.size >= state.body_size - 0.3
        and re.sub(r"\s+", " ", block.text).strip().lower() in AFTER_LIST_HEADINGS
    )


#: a piece of an entry lies within this many line heights of the list's lines above and below it
_PIECE_GAP = 1.5
#: … and in their type, give or take this many points (a figure's labels under the list are smaller)
_PIECE_SIZE = 1.0
#: the list's last lines looked through for its left edge in a column
_LEFT_SAMPLE = 16


def _between_list_lines(state: _Assembly, blocks: list[Block], index: int) -> bool:
    """Whether small print or furniture inside the reference list is a piece of an entry: pinp
    justifies its entries with spaces so wide that a title ("“Extending R with C++ …”") or a
    journal ("The American Statistician, 72(1).") is read as a block apart, then as a box beside
    the text or a running head, and lost. Such a piece holds words and lies in the column and on
    the page of the list's last line, in its type, at most :data:`_PIECE_GAP` line heights below
    it (or on it), with the next block (the list's next line, or another piece) as close under it; a
    running head or a page's foot lies on another page or column than one of them, or farther
    away, and a note in the margin left of the list's lines."""
    block = blocks[index]
    if not (state.in_references and state.references_lines) or not _WORDS.search(block.text):
        return False
    above, first, last = state.references_lines[-1], block.lines[0], block.lines[-1]
    gap = _PIECE_GAP * above.height
    if (
        (above.page, above.column) != (first.page, first.column)
        or first.top - above.bottom > gap
        or abs(block.size - above.size) > _PIECE_SIZE
    ):
        return False
    left = min(line.x0 for line in state.references_lines[-_LEFT_SAMPLE:] if (line.page, line.column) == (first.page, first.column))
    if first.x0 < left - 2:  # a running head or a note set out in the margin
        return False
    below = blocks[index + 1] if index + 1 < len(blocks) and blocks[index + 1].kind in ("paragraph", "aside", "furniture") else None
    return below is not None and (below.page, below.lines[0].column) == (last.page, last.column) and below.lines[0].top - last.bottom <= gap


def _small_entry(state: _Assembly, block: Block) -> bool:
    """Whether small print under the reference list's heading is one of its entries: a short entry
    ("[1] JACoW, http://www.jacow.org") set in the list's smaller type, or in a link's face, was
    taken for small print beside the text (it holds no year or pages to say otherwise)."""
    return state.in_references and bool(_ENTRY_NUMBER.match(block.text))


def _open_headless_references(state: _Assembly, block: Block) -> None:
    """A reference list printed without a heading (REVTeX's; see
    :func:`~.references.headless_list_start`): its section opens where its first entry is, and
    its lines, small print included, are the list's. A heading right above entry 1 with nothing
    under it yet is the list's own, one no list of reference headings knows ("Literature and
    sources"): its section becomes the list's."""
    section = state.current
    if section is None or section.blocks or section.page_start not in (block.page, block.page - 1) or section is state.front_section:
        section = Section(title="References", level=1, number="ref", page_start=block.page, page_end=block.page)
        state.document.sections.append(section)
    else:
        section.number, section.level, section.parent = "ref", 1, None
    state.stack = []
    state.current = section
    state.in_references = True
    state.resumed = False


def _end_references(state: _Assembly, block: Block) -> None:
    """The reference list ends before ``block`` (an address, the body's text again: see
    :func:`~.references.address_ends_list`): what follows, up to the next heading, is an untitled
    section of its own, kept as text and out of the list."""
    section = Section(title="", level=1, page_start=block.page, page_end=block.page)
    state.document.sections.append(section)
    state.current, state.stack = section, []
    state.in_references = state.resumed = False


def _target_section(state: _Assembly, block: Block) -> Section | None:
    """The section a block belongs to; None for the front matter's text, kept for later."""
    if state.current is not None:
        return state.current
    if block.kind not in ("caption", "formula"):
        state.front.append(block)
        return None
    if state.front_section is None:  # a figure or table before the first heading: an untitled first section holds it
        state.front_section = Section(title="", level=1, page_start=block.page, page_end=block.page)
        state.document.sections.append(state.front_section)
    return state.front_section


def _take_reference_lines(state: _Assembly, block: Block) -> bool:
    """Whether the block is the reference list's (its lines are kept for splitting)."""
    if state.in_references and block.kind in ("paragraph", "formula"):
        resumed = state.resumed
    elif state.ended:
        return False  # the authors' address after the list ("Carter T. Butts, Department of …") carries nothing on
    elif (
        state.last_entry
        and block.kind == "paragraph"
        and _resumes_references(block, state.last_entry, state.resumed, state.references_lines[-1].page)
    ):
        resumed = True
    elif (
        not state.last_entry
        and state.references_lines
        and block.kind == "paragraph"
        and _resumes_author_year(block, state.references_lines, state.resumed)
    ):
        if not state.resumed:
            state.resumed_at.append(len(state.references_lines))
        resumed = True
    else:
        return False
    state.references_lines += block.lines
    state.last_entry = max([state.last_entry, *_entry_numbers(block.lines)])
    state.resumed = resumed
    return True


def _add_table(state: _Assembly, index: int, target: Section, section_index: int) -> None:
    """A table caption with the blocks it claimed: a :class:`Table`, its notes found, and its
    rendering as a block (:func:`~.table_reader.table_block_text`)."""
    document, blocks, block = state.document, state.blocks, state.blocks[index]
    caption = block.text
    # a block the PDF's outline names as a heading stays one, whatever the table claimed; a page's
    # footnote it claimed is set aside with the page's notes (:mod:`.footnotes`)
    members = [m for m in block.extra.get("members", ()) if blocks[m].kind not in ("heading", "aside")]  # type: ignore[attr-defined]
    state.skip.update(members)
    lines = [line for member in members for line in blocks[member].lines]
    found = cast("list[list[str]] | None", block.extra.get("found"))
    cells = found or table_cells(lines)
    bbox = block_bbox(block, [blocks[m] for m in members])
    table = Table(caption=caption, cells=cells, page=block.page, label=block.label, section=section_index, bbox=bbox)
    document.tables.append(table)
    rendering = DocBlock(text="", page=block.page, kind="table", bbox=table.bbox)  # its text once the notes are found
    target.blocks.append(rendering)
    if found:  # what the caption claimed that the engine's cells do not hold stays text
        claimed = [blocks[m] for m in members]
        outside = _outside_cells(claimed, found)
        held = _held_extent(claimed, outside)
        for member in outside:
            if continuation_mark(member.text):
                continue  # "(Continued)" under the rows: the page's furniture
            if _table_note(member, held, state.body_size):
                table.notes.append(member.text)
                continue
            if _claimed_heading(member, state.body_size):
                member.level = target.level  # a heading of the section's own rank: its style was never ranked
                _open_section(state, member)
                target = state.current or target
                continue
            target.blocks.append(
                DocBlock(
                    text=member.text, page=member.page, kind="paragraph", bbox=block_bbox(member, []), raised=block_raised(member.lines)
                )
            )
    if members and max(members) < index:  # the table over its caption: its notes are set under the caption
        pieces = [caption, *(cell for row in cells for cell in row)]
        notes = _notes_under_caption(blocks, index, (bbox[0], bbox[2]), pieces, state.body_size)
        state.skip.update(notes)
        table.notes += [blocks[note].text for note in notes]
    rendering.text = table_block_text(table)
    if not cells:
        document.warnings.append(f"table {block.label} on page {block.page}: caption found, cells not recognised")


def _set_references(state: _Assembly) -> None:
    """The reference list's lines split into entries, which are also its section's blocks; a
    page's footnote the reading order set among them joins the small print set aside."""
    document = state.document
    lines, bounds = state.references_lines, [0, *state.resumed_at, len(state.references_lines)]
    document.references = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        entries, footnotes = split_list(lines[start:end])
        document.references += entries
        # a page's footnote read among the entries is set aside with the small print, not lost
        state.asides += [
            DocBlock(text=blk.join_lines([line.text for line in note]), page=note[0].page, kind="paragraph") for note in footnotes
        ]
    ref_section = next((s for s in document.sections if s.number == "ref"), None)
    if ref_section is not None:
        ref_section.blocks = [DocBlock(text=ref.raw, page=ref_section.page_start or 1, kind="list_item") for ref in document.references]


def _place_front_matter(state: _Assembly) -> None:
    """The abstract from the front matter, and the front matter's other paragraphs where they belong."""
    document, sections, front_section = state.document, state.document.sections, state.front_section
    headed = any(section is not front_section for section in sections)
    leftover = [
        DocBlock(text=str(b.extra.get("text", b.text)), page=b.page, kind="paragraph", bbox=block_bbox(b, []), raised=block_raised(b.lines))
        for b in _abstract(document, state.front, state.body_size)
    ]
    if not leftover:
        return
    if front_section is not None:
        front_section.blocks = leftover + front_section.blocks
        front_section.page_start = min(front_section.page_start or leftover[0].page, leftover[0].page)
    elif not headed:
        # no headings at all: one section holds the text (the abstract found in it aside)
        body = Section(title=document.title or "Body", level=1, page_start=leftover[0].page, page_end=leftover[-1].page)
        body.blocks = leftover
        sections.append(body)
    else:
        # the front matter that is neither title, authors nor abstract (affiliations, dates; on
        # a paper whose first heading comes late, its opening pages): an untitled section where
        # it was printed, after the abstract
        front_matter = Section(title="", level=1, page_start=leftover[0].page, page_end=leftover[-1].page)
        front_matter.blocks = leftover
        _insert_section(document, front_matter, 1 if sections and sections[0].title.lower() in ("abstract", "summary") else 0)


_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)[a-z]?\b")
_ENTRY_NUMBER = re.compile(r"^\s*\[?(\d{1,3})[.\]]\s+\S")
_LINKS_LEAD = re.compile(
    r"^(?:PubMed(?: Abstract| Central)?|Publisher (?:Full Text|Site)|(?:Free )?Full Text|Reference Source|CrossRef|Google Scholar|View Article)[\s|·•]+(?=[A-Z])"
)
_LINK_LINE = re.compile(r"\b(PubMed|Full Text|CrossRef|Google Scholar|Publisher Site|doi)\b", re.I)


def _entry_numbers(lines: list[Line]) -> list[int]:
    return [int(match.group(1)) for line in lines if (match := _ENTRY_NUMBER.match(line.text))]


def _resumes_references(block: Block, last_entry: int, resumed: bool, last_page: int) -> bool:
    """Whether a block after the reference list's section ended carries the list on: the entry
    numbered next ("7. Ishida Y, …" where the list stopped at 6: F1000 sets its back matter
    between the two halves of its list), or, once resumed, the entries' other lines: anything on
    the page the list reached, reference-like text on a later page (a heading ends it)."""
    numbers = _entry_numbers(block.lines)
    if numbers and not resumed:
        # on the list's last page or the next, as the back matter set between the halves takes
        # no more: an annex's numbered examples pages later ("[4] A. Alpha, …") are no entries
        return numbers[0] == last_entry + 1 and block.page <= last_page + 1 and _reference_like(block)
    if not resumed:
        return False
    return block.page == last_page or _reference_like(block) or bool(_LINK_LINE.search(block.text))


#: an author-year entry's first words: a surname and initials ("Francis MP, …", "Driggers WB
#: III, …", "Smith, J. A., …", "van der Berg AB: …")
_ENTRY_START = re.compile(
    r"^(?:(?:van|von|de|der|den|di|da|la|le|du|del|dos)\s+)*[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+)?,?\s(?:[A-Z]\.?\s?-?){1,3}(?:\s?(?:Jr|Sr|II|III|IV)\.?)?[,.:;]"
)


def _resumes_author_year(block: Block, references: list[Line], resumed: bool) -> bool:
    """Whether a block after an unnumbered reference list's section ended carries the list on: an
    entry set after back matter that was placed between the list's two halves (acknowledgements
    at the top of the next column). An entry opens with a surname and initials and holds a year
    or runs on to the next line, on the page the list reached or the next, where a fifth or more
    of the list's lines open the same way; once resumed, the next entries and the lines of an
    entry that ran on, below the list's last line or in another column (a heading ends it)."""
    last_page = references[-1].page
    # a line of links under the entry above ("Publisher Full Text"), alone or on the block's first line
    top = next((line for line in block.lines if not LINKS_ONLY.match(line.text.strip())), block.lines[0])
    first = _LINKS_LEAD.sub("", top.text.rstrip())
    if block.page not in (last_page, last_page + 1):
        return False
    if resumed:
        last = references[-1]
        below = top.page != last.page or top.column != last.column or top.top > last.top
        running_on = not last.text.rstrip().endswith(".") or bool(_LINK_LINE.match(first))
        return below and (bool(_ENTRY_START.match(first)) or running_on)
    if not (_ENTRY_START.match(first) and (_YEAR.search(block.text) or not first.endswith("."))):
        return False
    starts = sum(1 for line in references if _ENTRY_START.match(line.text))
    return starts >= 3 and starts >= 0.2 * len(references)


def _reference_like(block: Block) -> bool:
    """Inside a reference list, a styled line is usually an entry, not a new section."""
    text = block.text
    title = block.title.lower().strip()
    if title in blk.KNOWN_HEADINGS or title.startswith(("appendix", "supplementary")) or block.extra.get("appendix"):
        return False
    return (
        bool(_YEAR.search(text))
        or " et al" in text
        or text.count(",") >= 2
        or (block.number is not None and not block.bold and block.size <= 12)
    )


def _section_after_list(block: Block, body_size: float) -> bool:
    """Whether a numbered line inside the reference list is a section of the paper's own set after
    the list ("4.8 Changes", a vignette's last subsection, in a heading face with no bold flag),
    not an entry: its number has levels, which an entry's ("12", "[12]") never has, and it is set
    larger than the body."""
    number = (block.number or "").strip(".")
    return "." in number and block.size >= body_size + _LARGER_THAN_BODY


#: how much larger than the body a section's heading after the reference list is set at least (points)
_LARGER_THAN_BODY = 1.0


def _abstract(document: Document, front: list[Block], body_size: float) -> list[Block]:
    """Set the abstract (from its section, or from the front matter); return the front matter's
    paragraphs it did not take (affiliations, dates, an editor's name), which are kept as notes."""
    candidates = [block for block in front if block.kind == "paragraph"]
    for section in document.sections:
        if section.title.lower() in ("abstract", "summary") and section.blocks:
            document.abstract = "\n\n".join(block.text for block in section.blocks if block.kind == "paragraph")
            return candidates
    chosen = next((i for i, block in enumerate(candidates) if _ABSTRACT_LEAD.match(block.text) and len(block.text) > 200), None)
    if chosen is None:
        chosen = next((i for i, block in enumerate(candidates) if len(block.text) > 400), None)
        if chosen is not None and _text_above(candidates[:chosen], candidates[chosen], body_size):
            return candidates  # the first long paragraph is mid-text: the text opens above it
    if chosen is None:
        return candidates
    block = candidates[chosen]
    parts = [_ABSTRACT_LEAD.sub("", block.text, count=1)]
    taken = 1
    # the abstract's continuation on the next page or column (it starts mid-sentence) and its keywords
    for following in candidates[chosen + 1 : chosen + 4]:
        if following.text[:1].islower() and not blk.ends_sentence(parts[-1]):
            parts[-1] = blk.join_lines([parts[-1], following.text])
        elif re.match(r"(key ?words|index terms)\b", following.text, re.IGNORECASE):
            parts.append(following.text)
        else:
            break
        taken += 1
    document.abstract = "\n\n".join(parts)
    _add_abstract_section(document, block)
    return candidates[:chosen] + candidates[chosen + taken :]


def _text_above(above: list[Block], block: Block, body_size: float) -> bool:
    """Whether an unlabelled long paragraph taken for the abstract, set in the body's type, has
    prose in that type above it: then it is a later paragraph of a text that opened higher up (a
    talk's one-page abstract whose first paragraphs the quotes cut into short pieces; a vignette
    that opens with its text under the title), not the abstract. An abstract set smaller than the
    body keeps its notes above it (Hindawi's correspondence and copyright lines, in its size)."""
    if abs(block.size - body_size) > _SAME_SIZE:
        return False
    return any(abs(other.size - block.size) <= _SAME_SIZE and prose(other.text) for other in above)


#: how far apart two sizes may be and still be one type (points)
_SAME_SIZE = 0.3


def _add_abstract_section(document: Document, block: Block) -> None:
    section = Section(title="Abstract", level=1, page_start=block.page, page_end=block.page)
    section.blocks = [DocBlock(text=part, page=block.page) for part in (document.abstract or "").split("\n\n")]
    _insert_section(document, section, 0)


def _insert_section(document: Document, section: Section, at: int) -> None:
    """Insert a top-level section at ``at``, moving every index that points past it."""
    document.sections.insert(at, section)
    for item in document.sections[at + 1 :]:
        if item.parent is not None and item.parent >= at:
            item.parent += 1
    for collection in (document.tables, document.formulas, document.figures):
        for thing in collection:
            if thing.section is not None and thing.section >= at:
                thing.section += 1


def merge_continuations(document: Document) -> None:
    """Rejoin paragraphs cut by a column or page break: no sentence end, lowercase start; or
    the first half ends inside a URL or DOI that the second goes on with (:func:`.link_continues`),
    joined whole, without a space.

    A float set where the paragraph was cut (a table, or a figure's caption, at the top of the
    next column or page) sits between the halves: the halves are joined across it and the float
    stays after them. Not when the caption just before the second half ends mid-sentence itself:
    the lowercase text may be that caption's own second part."""
    for section in document.sections:
        merged: list[DocBlock] = []
        last = -1  # the index in ``merged`` of the last block that is not a float
        for block in section.blocks:
            prev = merged[last] if last >= 0 else None
            if (
                prev is not None
                and prev.kind == "paragraph"
                and block.kind == "paragraph"
                and (not blk.ends_sentence(prev.text) and block.text[:1].islower() or link_continues(prev.text, block.text))
                and _flows_around(merged[last + 1 :])
            ):
                prev.text = blk.join_lines([prev.text, block.text])
                prev.raised = joined_raised(prev.raised, block.raised)
                continue
            merged.append(block)
            if block.kind not in _FLOATS:
                last = len(merged) - 1
        section.blocks = merged


_FLOATS = frozenset({"table", "caption"})


def _flows_around(between: list[DocBlock]) -> bool:
    """Whether the blocks between a paragraph's halves are floats the text flows around: none, or
    tables and captions whose last is a table or a caption that ends a sentence (a caption cut
    mid-sentence may go on in the lowercase text)."""
    if not between:
        return True
    last = between[-1]
    caption = last.text.split("\n\n", 1)[0]  # a figure's labels set under its caption (see assemble)
    return all(block.kind in _FLOATS for block in between) and (last.kind == "table" or blk.ends_sentence(caption))


#: a note's first line lies at most this many line heights under the caption or the note above it
_NOTE_GAP = 2.0
#: the most words of the label over a table's notes ("REMARKS", "Notes:")
_LABEL_WORDS = 3
_NOTE_LEAD = re.compile(r"^(?:notes?|sources?|abbreviations?|legend)\b\s*[:.—–-]", re.IGNORECASE)


def _notes_under_caption(blocks: list[Block], index: int, across: tuple[float, float], pieces: list[str], body_size: float) -> list[int]:
    """The indices of the table's notes under a caption printed below its table: blocks in
    smaller type than the body, right under the caption and one another, each opening with a mark
    the table's caption or cells (``pieces``) carry, or with "Note:", "Source:", …, or going on
    from the note above it mid-sentence; with the short label over them, where one is set
    ("REMARKS" over teubner's notes to its Table 4); ``across`` is the table's left and right
    edges. The table claimed what lay over the caption only, and the notes were read as the body's
    paragraphs."""
    caption = blocks[index]
    label: list[int] = []
    notes: list[int] = []
    above = caption
    for at in range(index + 1, len(blocks)):
        block = blocks[at]
        if block.kind in ("furniture", "aside"):
            continue
        if block.page != caption.page or block.kind != "paragraph" or not _right_under(above, block, across):
            break
        if not (label or notes) and _notes_label(block, body_size):
            label.append(at)
        elif block.size <= body_size - _NOTE_SMALLER and (_refers_to_table(block, pieces) or (notes and _carries_on_note(above, block))):
            notes.append(at)
        else:
            break
        above = block
    return label + notes if notes else []


def _right_under(above: Block, block: Block, across: tuple[float, float]) -> bool:
    """``block`` starts under ``above`` within :data:`_NOTE_GAP` of its line heights, and across
    the table's width."""
    gap = block.top - above.bottom
    return -1 <= gap <= _NOTE_GAP * above.lines[-1].height and block.x0 < across[1] and across[0] < block.x1


def _notes_label(block: Block, body_size: float) -> bool:
    """A label over a table's notes (:func:`_label_line`) alone, not larger than the body's type nor bold."""
    return len(block.lines) == 1 and _label_line(block.text) and block.size <= body_size + 0.5 and not block.bold


def _label_line(text: str) -> bool:
    """A line of at most :data:`_LABEL_WORDS` words in capitals or closed by a colon ("REMARKS", "Notes:")."""
    text = text.strip()
    return len(text.split()) <= _LABEL_WORDS and (text.isupper() or (text.endswith(":") and text[:1].isupper()))


def _refers_to_table(block: Block, pieces: list[str]) -> bool:
    """The block opens with "Note:", "Source:", … or with a mark the table carries, under the
    notes' label where the label is the block's first line (teubner's "REMARKS" over its Table 8's
    notes, set in their type)."""
    if len(block.lines) > 1 and _label_line(block.lines[0].text):
        block = Block(block.lines[1:])
    return bool(_NOTE_LEAD.match(block.text)) or opens_with_table_mark(block, pieces)


def _carries_on_note(above: Block, block: Block) -> bool:
    """``block`` carries on the note above it, cut mid-sentence."""
    return not blk.ends_sentence(above.text.rstrip()) and block.size <= above.size + 0.3


def _claimed_heading(member: Block, body_size: float) -> bool:
    """Whether lines a table claimed and its cells do not hold are a section heading set just
    under the table's notes or beside it (bold, at the body's size or larger, no full stop)."""
    if not member.bold or member.size < body_size - 0.3:
        return False
    blk.classify(member, body_size)
    return member.kind == "heading"


#: a table's note is set this many points smaller than the body at least
_NOTE_SMALLER = 0.5


def _held_extent(claimed: list[Block], outside: list[Block]) -> dict[int, tuple[float, float, float]]:
    """The left and right edges of the lines the table's cells hold, by page, and the bottom of
    those with words: a note's own line of no words ("*p<0.05" under PLOS's Table 2) reads as held
    (:func:`_outside_cells` judges lines by their words), and would set the note above the cells."""
    left = {id(line) for member in outside for line in member.lines}
    extent: dict[int, tuple[float, float, float]] = {}
    bottoms: dict[int, float] = {}
    for line in (line for member in claimed for line in member.lines if id(line) not in left):
        x0, x1, bottom = extent.get(line.page, (line.x0, line.x1, line.bottom))
        extent[line.page] = (min(x0, line.x0), max(x1, line.x1), max(bottom, line.bottom))
        if _WORDS.search(line.text):
            bottoms[line.page] = max(bottoms.get(line.page, line.bottom), line.bottom)
    return {page: (x0, x1, bottoms.get(page, bottom)) for page, (x0, x1, bottom) in extent.items()}


#: how far a table's note may reach out past its cells' left and right edges, in body sizes (AAS's
#: "Note—" sets out half a character; a page's footnote under a narrow table, inches)
_NOTE_REACH = 1.0


def _table_note(member: Block, held: dict[int, tuple[float, float, float]], body_size: float) -> bool:
    """Whether lines a table claimed and its cells do not hold are its note: set in smaller type
    than the body, under the cells' last line on their page and within their width ("a TSX
    launched with “Haswell” in 2013 but was later disabled …" under hotos17's Table 1). Kept as
    a paragraph, such a note joined the body text the table cut ("could, for the most a TSX
    launched …"); it goes under the table, as a JATS table's foot does. Prose of the next column
    is in the body's type; a page's footnote under a narrow table runs out past its edges (SPIE's
    "Further author information: …")."""
    first = member.lines[0]
    if member.size > body_size - _NOTE_SMALLER or first.page not in held:
        return False
    x0, x1, bottom = held[first.page]
    reach = _NOTE_REACH * body_size
    return first.top >= bottom - 1 and member.x0 >= x0 - reach and member.x1 <= x1 + reach


def _outside_cells(members: list[Block], cells: list[list[str]]) -> list[Block]:
    """The lines under a caption that the table read there does not hold (most of their
    words in no cell): the next column's prose, a caption's second line, a note; grouped into
    blocks of consecutive lines and kept as text, so that nothing the caption claimed is lost."""
    held = collections.Counter(word.lower() for row in cells for cell in row for word in _WORDS.findall(cell))
    outside: list[Block] = []
    run: list[Line] = []
    for line in (line for member in members for line in member.lines):
        words = [word.lower() for word in _WORDS.findall(line.text)]
        found = sum(1 for word in words if held[word] > 0)
        if words and found < 0.8 * len(words):
            if run and (line.bold != run[-1].bold or abs(line.size - run[-1].size) > 0.6):
                outside.append(Block(run))  # a change of type: a heading under a table's notes
                run = []
            run.append(line)
            continue
        for word in words:
            held[word] -= 1
        if run:
            outside.append(Block(run))
            run = []
    if run:
        outside.append(Block(run))
    return outside


_WORDS = re.compile(r"[^\W\d_]{3,}")


def block_bbox(block: Block, members: list[Block]) -> tuple[float, float, float, float]:
    lines = block.lines + [line for member in members for line in member.lines]
    return (min(l.x0 for l in lines), min(l.top for l in lines), max(l.x1 for l in lines), max(l.bottom for l in lines))
