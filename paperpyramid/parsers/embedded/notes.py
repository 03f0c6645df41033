"""Publisher's notes set apart from the abstract and the references, never dropped.

Licence and copyright lines, correspondence addresses, "Cite this article as" and a publisher's
advertisement for itself land in the abstract or glued to the last reference when they are
printed beside them. They move to one untitled section at the end of the paper, with the small
print the parser sets aside (a first page's side box, a figure's legend), so that the abstract
and the reference list hold what they should and no word of the PDF is lost.

PLOS prints each figure's and table's own DOI under it (the article's DOI and ".g001", ".t002";
PeerJ's "/fig-1", "/table-2"). Read after the page's body, such a line lands inside the paragraph
the float cut ("prevent various https://doi.org/10.1371/journal.pone.0193451.g001 diseases"): it
goes to the caption of the float it names (:func:`_component_dois`), or to the notes.
"""

from __future__ import annotations

import dataclasses
import re

from paperpyramid.document import Block, Document, Figure, Reference, Section, Table
from paperpyramid.parsers.embedded.table_reader import table_block_text

_NOTE = re.compile(
    r"^(©|\(c\)\s|copyright\b|\*\s*correspondence\b|correspondence\b|full list of author information\b|"
    r"this is an open access article\b|open access\b.{0,40}creative commons|received:?\s|accepted:?\s|published:?\s|"
    r"competing interests\b|grant information\b|the funders? had no role\b|author contributions\b|"
    r"e-?mail address(es)?:|preprint submitted to\b)",
    re.IGNORECASE,
)
# the first page's imprint, printed once (so not a running foot) inside the first section:
# "Proceedings of the 58th Annual Meeting of the ACL, pages 2270–2282 ©2020 ..." and its dates; a
# preprint's one line naming its venue ("To appear in 16th Workshop on Hot Topics in Operating
# Systems."; Elsevier's "Preprint submitted to Computational Statistics …")
_IMPRINT = re.compile(
    r"^Proceedings of the\b.{0,200}\bpages \d+\s*[–-]\s*\d+|^[A-Z][a-z]+ \d{1,2}\s*[–-]\s*\d{1,2}, \d{4}\.?$|"
    r"^(?:To appear in|Preprint submitted to) [A-Z\d][^\n]{0,150}$"
)
# after an abstract's paragraphs, the first page's box beside it: a short line that is not a
# sentence, not keywords and not a paragraph's continuation ("This article is included in the …")
_BOX = re.compile(
    r"^(?!(?i:key ?words|index terms|background|methods?|results?|conclusions?|objectives?|aims?|purpose|findings|"
    r"interpretation|introduction|design|setting|participants|context|main outcome))[A-Z][^\n]{0,58}(?<![.!?:;)\]])$"
)
# a licence inside an abstract's paragraph, wherever it starts
_LICENCE = re.compile(r"licensee\b|distributed under the terms of the creative commons", re.IGNORECASE)
# printed right after the last reference and read with it: BioMed Central's citation box and
# advertisement, a copyright line, Portland Press's footer (its C is a © in a font without a map)
_TAIL = re.compile(
    r"\s*(Cite this article as\b|Submit your next manuscript\b|Convenient online submission\b|©\s*\d{4}\b|"
    r"Copyright\b\s*(?:©\s*)?\d{4}|\x05?C? ?The Authors Journal compilation\b)"
)


def set_apart_notes(document: Document, asides: list[Block] | None = None) -> None:
    """Move notes out of the abstract section and the references into an untitled last section,
    after ``asides``: small print the parser kept out of the reading flow."""
    notes: list[Block] = list(asides or [])
    notes += _component_dois(document)
    for section in document.sections:
        if section.title.lower() in ("abstract", "summary"):
            kept: list[Block] = []
            for index, block in enumerate(section.blocks):
                if index and _BOX.match(block.text.strip()):
                    notes += section.blocks[index:]  # the first page's side box and what follows it
                    break
                note = _NOTE.search(block.text.strip()) or _LICENCE.search(block.text)
                (notes if block.kind == "paragraph" and note else kept).append(block)
            if len(kept) < len(section.blocks):
                section.blocks = kept
                document.abstract = "\n\n".join(block.text for block in kept if block.kind == "paragraph") or None
        elif section.number != "ref":
            kept = [
                block
                for block in section.blocks
                if not (block.kind == "paragraph" and len(block.text) < 300 and _IMPRINT.search(block.text))
            ]
            if len(kept) < len(section.blocks):
                notes += [block for block in section.blocks if not any(block is k for k in kept)]
                section.blocks = kept
    references: list[Reference] = []
    page = next((s.page_start for s in document.sections if s.number == "ref"), None) or document.pages or 1
    for reference in document.references:
        tail = _TAIL.search(reference.raw)
        if _NOTE.search(reference.raw.strip()) or (tail and tail.start() == 0):
            notes.append(Block(text=reference.raw, page=page))
            continue
        if tail:
            notes.append(Block(text=reference.raw[tail.start() :].strip(), page=page))
            reference.raw = reference.raw[: tail.start()].rstrip()
        references.append(reference)
    if len(references) < len(document.references) or notes:
        document.references = references
        for section in document.sections:
            if section.number == "ref":
                section.blocks = [Block(text=ref.raw, page=section.page_start or page, kind="list_item") for ref in references]
    if notes:
        holder = Section(title="", level=1, page_start=min(b.page for b in notes), page_end=max(b.page for b in notes))
        holder.blocks = notes
        document.sections.append(holder)


#: a component's DOI: the article's DOI (filled in) and the component's suffix, PLOS's ".g001"
#: (figure), ".t001" (table), or PeerJ's "/fig-1", "/table-1"; a line of its own, so between
#: spaces or at the text's ends
_COMPONENT = r"(?<!\S)(?:https?://(?:dx\.)?doi\.org/|doi:\s?)?{doi}(?:\.(?P<plos>[gt])(?P<plos_n>\d{{3}})|/(?P<peerj>fig|table)-(?P<peerj_n>\d+))(?!\S)"


def _component_dois(document: Document) -> list[Block]:
    """Take the article's figure and table DOIs out of the body's paragraphs and out of a table's
    notes (where PLOS prints the DOI, with the notes: see :func:`~.assembly._table_note`): each is
    added to the caption of the figure or table it names; those that name none are returned, as
    notes. A paragraph that held only such DOIs is dropped, so that the halves of the paragraph
    the float cut meet again (``merge_continuations``)."""
    if not document.doi:
        return []
    pattern = re.compile(_COMPONENT.format(doi=re.escape(document.doi)), re.IGNORECASE)
    floats = {("t", table.label): table for table in document.tables} | {("g", figure.label): figure for figure in document.figures}
    held = _tables_with_notes(document)
    notes: list[Block] = []
    for section in document.sections:
        if section.number == "ref" or not any(_dois_in(block, pattern, held) for block in section.blocks):
            continue
        kept: list[Block] = []
        for block in section.blocks:
            found = _dois_in(block, pattern, held)
            if found and id(block) in held:
                held[id(block)].notes = [text for note in held[id(block)].notes if (text := _without(note, pattern))]
            for match in reversed(found):  # cut first: a table's caption is added to at its block's start
                _cut(block, match.start(), match.end())
            for match in found:
                kind = "g" if (match["plos"] or match["peerj"][:1]) in ("g", "f") else "t"
                target = floats.get((kind, str(int(match["plos_n"] or match["peerj_n"]))))
                if target is not None:
                    _add_to_caption(document, target, match.group(0))
                else:
                    notes.append(Block(text=match.group(0), page=block.page))
            if block.text.strip():
                kept.append(block)
        section.blocks = kept
    return notes


def _tables_with_notes(document: Document) -> dict[int, Table]:
    """The tables with notes, by the id of the block that renders each in its section
    (:func:`~.table_reader.table_block_text`)."""
    rendered = {table_block_text(table): table for table in document.tables if table.notes}
    return {
        id(block): rendered[block.text]
        for section in document.sections
        for block in section.blocks
        if block.kind == "table" and block.text in rendered
    }


def _dois_in(block: Block, pattern: re.Pattern[str], held: dict[int, Table]) -> list[re.Match[str]]:
    """The component DOIs a paragraph holds, or the notes of the table a block renders (``held``:
    :func:`_tables_with_notes`; its caption above may hold one already)."""
    if block.kind == "paragraph":
        return list(pattern.finditer(block.text))
    table = held.get(id(block))
    if table is None:
        return []
    return list(pattern.finditer(block.text, len(block.text) - len("\n\n".join(table.notes))))


def _without(note: str, pattern: re.Pattern[str]) -> str:
    """``note`` without the DOIs ``pattern`` finds in it, cut as :func:`_cut` cuts them."""
    for match in reversed(list(pattern.finditer(note))):
        start, end = _span(note, match.start(), match.end())
        note = note[:start] + note[end:]
    return note


def _add_to_caption(document: Document, target: Table | Figure, doi: str) -> None:
    """Add ``doi`` to the caption of ``target``, and to the caption its block in the body
    repeats (a table's block opens with it), so that both read alike."""
    caption = f"{target.caption}\n{doi}" if target.caption else doi
    for section in document.sections:
        for block in section.blocks:
            if target.caption and block.kind in ("table", "caption") and block.text.startswith(target.caption):
                block.text = caption + block.text[len(target.caption) :]
                target.caption = caption
                return
    target.caption = caption


def _cut(block: Block, start: int, end: int) -> None:
    """Take ``block.text[start:end]`` out with the spaces before it, moving the citations after it."""
    start, end = _span(block.text, start, end)
    block.text = block.text[:start] + block.text[end:]
    gone = end - start
    block.cites = [
        cite if cite.end <= start else dataclasses.replace(cite, start=cite.start - gone, end=cite.end - gone)
        for cite in block.cites
        if cite.end <= start or cite.start >= end
    ]


def _span(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` with the spaces before it, or after it where it opens the text, or
    opens a line that goes on after it (a table's note "https://doi.org/….t002 Values are
    means.": the line break before it stays, and the note is not glued to the row above)."""
    if start and text[start - 1] == "\n":
        after = end
        while after < len(text) and text[after] in " \t":
            after += 1
        if after < len(text) and text[after] != "\n":
            return start, after
    while start and text[start - 1].isspace():
        start -= 1
    if start == 0:
        while end < len(text) and text[end].isspace():
            end += 1
    return start, end
