"""What is printed in the type of headings but is the document's furniture, not its sections.

A printed table of contents (:func:`set_aside_contents`) repeats the section titles with their
page numbers, and a chapter's label ("Chapter 2") stands over its title
(:func:`set_aside_chapter_labels`): read as headings, the one would give every section twice
(and let an outline's "Introduction" be found in the contents), the other an empty section. Both
become page furniture before the headings are settled by :mod:`.outline` or :mod:`.headings`.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.heading_styles import norm, prose

#: the label over a printed table of contents, in the languages babel names it in (``\\contentsname``):
#: "Contents", Italian "Indice", German "Inhaltsverzeichnis", French "Table des matières", …
_CONTENTS_LABEL = re.compile(
    r"^(?:(?:table of )?contents|indice|índice(?: general)?|índex|inhaltsverzeichnis|table des matières|sommaire|inhoudsopgave"
    r"|spis treści|obsah|innehåll|indhold|innhold|sisällys|sisältö|tartalomjegyzék|sadržaj|içindekiler|cuprins|conteúdo|sumário"
    r"|содержание|оглавление|περιεχόμενα)$",
    re.I,
)
_LEADERS = re.compile(r"(?:\.\s?){4,}")
_PAGE_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$")


def set_aside_contents(blocks: list[Block]) -> None:
    """A printed table of contents near the front (``\\tableofcontents`` under the abstract, or a
    manual's after its overview: :data:`_FRONT_PAGES`), or on the last page (nwejm's class prints
    it at the end), is no section and names none: its label and entries become page furniture, so
    an outline's "Introduction" is not found in it and its lines are not read as headings. The
    entries are the blocks right after a "Contents" label (in the document's language: Italian
    "Indice", :data:`_CONTENTS_LABEL`) that are set on a row with their page numbers, carry dot
    leaders or are a page number alone, read over the page's footnote and running head where the
    table runs on to the next page; two page numbers at least, or it is no table.
    A section's entry read apart from its page number (set in the sections' bold without
    leaders, it reads as a heading: "2 Setting") is one too (:func:`_contents_entry`), and so is
    a second column of entries read after the first section's heading (:func:`_second_column`)."""
    last = blocks[-1].page if blocks else 0
    for start, label in enumerate(blocks):
        front = label.page <= max(_FRONT_PAGES, last * _FRONT_SHARE)
        if not (front or label.page == last) or len(label.lines) > 1 or not _CONTENTS_LABEL.match(label.lines[0].text.strip()):
            continue
        entries, numbers = _entries(blocks, start + 1)
        if numbers >= 2:
            stop = entries[-1] + 1 if entries else start + 1
            for index in [start, *entries, *_second_column(blocks, stop)]:
                blocks[index].kind = "furniture"
                blocks[index].extra["contents"] = True
        return


def _entries(blocks: list[Block], first: int) -> tuple[list[int], int]:
    """The blocks from ``first`` on that are a printed table's entries, and how many page numbers
    they print: each set on a row with its page number, with dot leaders or a page number alone."""
    entries: list[int] = []
    listed: set[str] = set()
    numbers = 0
    for index in range(first, len(blocks)):
        block, text = blocks[index], blocks[index].text.strip()
        if block.kind in ("aside", "furniture"):
            continue  # a footnote or a running head where the table runs on over a page
        leaders = bool(_LEADERS.search(text))
        alone = bool(_PAGE_NUMBER.match(text))
        row = bool(text) and all("row" in line.tags for line in block.lines)
        if not (leaders or alone or not text or row or _contents_entry(blocks, index, listed) or _wrapped_entry(blocks, index)):
            break
        # a page number a line: the entries may be read as one block
        numbers += sum(1 for line in block.lines if _LEADERS.search(line.text)) if leaders else alone
        entries.append(index)
        listed.add(norm(_LEADERS.split(text)[0]))
    return entries, numbers


def _second_column(blocks: list[Block], stop: int) -> list[int]:
    """The entries of a table of contents set in two columns whose second column is read after the
    first section's heading (printed under both columns, read where the first column ends, as
    doRNG's multitoc contents are): right after that heading, entries again, with two page numbers
    or more before the prose. None where the heading heads its prose."""
    if stop >= len(blocks) or blocks[stop].kind != "heading" or _LEADERS.search(blocks[stop].text):
        return []
    entries, numbers = _entries(blocks, stop + 1)
    return entries if numbers >= 2 else []


#: the pages a front table of contents may stand on: the first three, or a manual's first fifth
#: (TREE-PUZZLE's, on page 4 after its title page and two pages of overview)
_FRONT_PAGES = 3
_FRONT_SHARE = 0.2


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
    if block.kind != "heading" or norm(block.text) in listed:
        return False
    after = blocks[index + 1] if index + 1 < len(blocks) else None
    return after is not None and not (after.kind == "paragraph" and prose(after.text) and not _LEADERS.search(after.text))


#: a chapter's label on a line of its own over its title (``\\chapter``, ``\\part``)
_CHAPTER_LABEL = re.compile(r"^(?:chapter|part|kapitel|chapitre)\s+(?:\d{1,2}|[IVXLC]{1,6}|[A-Z])$", re.I)


def set_aside_chapter_labels(blocks: list[Block]) -> None:
    """A chapter's label over its title ("Chapter 2" over "Analyses for DM in Denmark") is one
    heading with it, not a heading of its own with nothing under it: the label, read as a heading
    in the title's type, right before the title on its page, becomes page furniture. A title of
    three lines is read as a paragraph (headings run to two unless numbered): under the label, in
    its type, it is the heading ("Chapter 4" over "Generalization of the kinetic / energy density
    to the tensorial / form", report.cls)."""
    for index, block in enumerate(blocks[:-1]):
        after = blocks[index + 1]
        if block.kind != "heading" or after.page != block.page or not _CHAPTER_LABEL.match(block.text.strip()):
            continue
        if after.kind == "paragraph" and _chapter_title(block, after):
            after.kind, after.number, after.title = "heading", None, after.text.strip()
        if after.kind == "heading":
            block.kind = "furniture"


_CHAPTER_TITLE_WORDS = 18


def _chapter_title(label: Block, block: Block) -> bool:
    """Whether a paragraph under a chapter's label is its title: in the label's type (its size and
    weight), three lines at most, a few words, no sentence ended."""
    text = block.text.strip()
    return (
        len(block.lines) <= 3
        and block.bold == label.bold
        and block.size >= label.size - 0.5
        and len(text.split()) <= _CHAPTER_TITLE_WORDS
        and not text.endswith((".", ":", ";", ","))
    )
