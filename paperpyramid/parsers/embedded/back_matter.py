"""Back matter that swallowed the body: a heading the parser missed after "Acknowledgements".

Acknowledgements, funding, competing interests and the like are a few sentences each. Where one
runs on for pages, the heading of what follows it was not found (Nature's journals print Methods
after the acknowledgements; a heading set in the body's font reads as text), and the body's text
would be filed under "Acknowledgements". Such a section keeps its first paragraphs up to
:data:`KEEP_WORDS` words; the rest becomes an untitled section of its own, right after it, at the
top level, so that search and the section tree do not call Methods an acknowledgement.
"""

from __future__ import annotations

from paperpyramid.document import Block, Document, Figure, Formula, Section, Table
from paperpyramid.parsers.embedded.blocks import BACK_MATTER_HEADINGS

#: the words a back-matter section holds before what follows is taken for the body
KEEP_WORDS = 250
#: a back-matter section is cut only when it runs on past this many words
LIMIT_WORDS = 600


def split_overgrown_back_matter(document: Document) -> None:
    """Cut each back-matter section of over :data:`LIMIT_WORDS` words after its first
    paragraphs, moving the rest into a new untitled section after it."""
    index = 0
    while index < len(document.sections):
        section = document.sections[index]
        if section.title.lower().strip() in BACK_MATTER_HEADINGS and _words(section) > LIMIT_WORDS:
            kept, moved = _cut(section)
            if moved:
                section.blocks = kept
                pages = [block.page for block in moved]
                _insert_section(document, index + 1, Section(title="", level=1, blocks=moved, page_start=min(pages), page_end=max(pages)))
                section.page_end = max([section.page_start or 0, *(block.page for block in kept)]) or section.page_end
        index += 1


def _words(section: Section) -> int:
    return sum(len(block.text.split()) for block in section.blocks)


def _cut(section: Section) -> tuple[list[Block], list[Block]]:
    count = 0
    for position, block in enumerate(section.blocks):
        count += len(block.text.split())
        if count >= KEEP_WORDS:
            return section.blocks[: position + 1], section.blocks[position + 1 :]
    return section.blocks, []


def _insert_section(document: Document, at: int, section: Section) -> None:
    """Put ``section`` at index ``at``, moving every index that points past it (section parents,
    the sections of tables, formulas and figures)."""
    for other in document.sections:
        if other.parent is not None and other.parent >= at:
            other.parent += 1
    parts: list[Table | Formula | Figure] = [*document.tables, *document.formulas, *document.figures]
    for part in parts:
        if part.section is not None and part.section >= at:
            part.section += 1
    document.sections.insert(at, section)
