"""Publisher's notes set apart from the abstract and the references, never dropped.

Licence and copyright lines, correspondence addresses, "Cite this article as" and a publisher's
advertisement for itself land in the abstract or glued to the last reference when they are
printed beside them. They move to one untitled section at the end of the paper, with the small
print the parser sets aside (a first page's side box, a figure's legend), so that the abstract
and the reference list hold what they should and no word of the PDF is lost.
"""

from __future__ import annotations

import re

from paperpyramid.document import Block, Document, Reference, Section

_NOTE = re.compile(
    r"^(©|\(c\)\s|copyright\b|\*\s*correspondence\b|correspondence\b|full list of author information\b|"
    r"this is an open access article\b|open access\b.{0,40}creative commons|received:?\s|accepted:?\s|published:?\s|"
    r"competing interests\b|grant information\b|the funders? had no role\b|author contributions\b|"
    r"e-?mail address(es)?:|preprint submitted to\b)",
    re.IGNORECASE,
)
# the first page's imprint, printed once (so not a running foot) inside the first section:
# "Proceedings of the 58th Annual Meeting of the ACL, pages 2270–2282 ©2020 ..." and its dates
_IMPRINT = re.compile(r"^Proceedings of the\b.{0,200}\bpages \d+\s*[–-]\s*\d+|^[A-Z][a-z]+ \d{1,2}\s*[–-]\s*\d{1,2}, \d{4}\.?$")
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
