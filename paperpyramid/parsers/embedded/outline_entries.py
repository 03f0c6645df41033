"""Where the page prints each entry of a PDF outline (bookmarks): the block that carries it.

Entries are sought in the outline's order, each after the last one found, on the page its
destination names and then on its neighbours (destinations can be off by one), never on a page
before the last entry found's. An entry is found by its title with or without its numbering,
spelt out where the page prints a symbol (:func:`similar_title`), in a block a few on from one
that only opens with it, or whole where its lines were read as blocks of their own.
:func:`.outline.apply_outline` then names the headings.
"""

from __future__ import annotations

import os
import re
from difflib import SequenceMatcher

from paperpyramid.parsers.embedded.blocks import NUMBERING, Block
from paperpyramid.parsers.embedded.heading_styles import norm


def find_entries(blocks: list[Block], toc: list[tuple[int, str, int | None]]) -> dict[int, tuple[int, str]]:
    """The block that prints each outline entry, in the outline's order: its level and entry."""
    # the title block is never a section: outlines often hang every heading under the title
    # nor is a printed table of contents (:func:`.contents.set_aside_contents`)
    candidates = [
        index for index, block in enumerate(blocks) if len(block.lines) <= 4 and block.kind != "title" and not block.extra.get("contents")
    ]
    matched: dict[int, tuple[int, str]] = {}
    texts: dict[int, tuple[str, set[str]]] = {}  # a candidate's texts, normalised once (an outline may have a thousand entries)
    start = 0
    ancestors: dict[int, str] = {}
    for level, title, page in toc:
        ancestors = {depth: name for depth, name in ancestors.items() if depth < level}
        ancestors[level] = norm(title)
        if any(ancestors.get(depth) in ("abstract", "summary") for depth in range(level)):
            continue  # a structured abstract's labels, not sections
        keys = _entry_keys(title)
        numbered = not keys  # a name of a letter or two ("fn", "R"): only a numbered line that prints it alone ("7. fn")
        keys = keys or [key for key in [norm(title)] if key]
        if not keys:
            continue
        # the page the outline names first, then its neighbours (destinations can be off by one);
        # never a page before the last entry found: a destination that points there is wrong
        # ("2. Besag-York-Mollié model" on page 3 sent to page 1, after "1. Introduction" on page 2)
        if page is not None and matched:
            page = max(page, blocks[max(matched)].page)
        for slack in (0, 1):
            position = _find_heading(blocks, candidates, start, keys, page, slack, texts, numbered=numbered)
            if position is not None:
                matched[candidates[position]] = (level, title)
                start = position + 1
                break
    return matched


def _entry_keys(title: str) -> list[str]:
    """An entry's title without what may be its numbering, and whole: "A surprising
    contradiction" may be printed with the article, "B. New options" with its letter."""
    keys = (norm(re.sub(r"^\s*([\dIVXA-H]+(\.\d+)*\.?)\s+", "", title)), norm(title))
    return [key for key in dict.fromkeys(keys) if len(key) >= 3]


def _find_heading(
    blocks: list[Block],
    candidates: list[int],
    start: int,
    keys: list[str],
    page: int | None,
    slack: int,
    texts: dict[int, tuple[str, set[str]]],
    *,
    numbered: bool = False,
) -> int | None:
    """The position in ``candidates``, from ``start`` on, of the block that prints an entry (one of
    its ``keys``), on ``page`` or ``slack`` pages from it; None where none does before the pages past
    it. ``texts`` keeps each candidate's :func:`_block_keys` once made. A ``numbered`` entry (a
    name too short to tell) is found only on a line of its own that numbers it."""
    for position in range(start, len(candidates)):
        block = blocks[candidates[position]]
        if page is not None and abs(block.page - page) > slack:
            if block.page > page + slack:
                return None
            continue
        if numbered:
            if len(block.lines) == 1 and NUMBERING.match(block.text.strip()) and norm(block.text) in keys:
                return position
            continue
        if position not in texts:
            texts[position] = _block_keys(block)
        text, block_keys = texts[position]
        for text_key in block_keys:
            if any(text_key == key for key in keys):
                return position
            if any(len(key) > 12 and text_key.startswith(key[:40]) for key in keys):
                return _whole_title_after(blocks, candidates, position, keys)
            if block.kind == "heading" and block.page == page and any(entry_names(text_key, key) for key in keys):
                return position
        if _wrapped_heading(blocks, candidates[position], keys, text):
            return position
    return None


def _block_keys(block: Block) -> tuple[str, set[str]]:
    """A block's text normalised, and the texts an outline entry is matched against: its title and
    text, and both without an appendix's label. The printed text counts too, where no heading was
    read from it: an appendix's heading in small type ("APPENDIX A. THE VECTOR PRODUCT", set aside
    as small print) that the outline names."""
    text = block.text  # joined once: the lines' join is the costly part
    printed = {norm(_APPENDIX_LEAD.sub("", block.title)), norm(_APPENDIX_LEAD.sub("", text))}
    return norm(text), {norm(block.title), norm(text), *printed} - {""}


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


def similar_title(printed: str, outlined: str) -> bool:
    """Whether a printed heading and an outline entry are one title written two ways: the
    outline spells out what the page prints as a symbol ("lambda" for "λ")."""
    return printed == outlined or (len(outlined) > 12 and SequenceMatcher(None, printed, outlined).ratio() >= 0.85)


#: how much of an outline entry a heading printed longer opens with, at least (characters, and share of the entry)
_SHORT_FORM_OPENING = 8
_SHORT_FORM_SHARE = 0.8


def short_form(printed: str, outlined: str) -> bool:
    """Whether an outline entry is a short form of the heading printed where it points (LaTeX's
    ``\\section[gsubfn with lists]{gsubfn with list objects}``, the short one for the outline and the
    running heads): the printed heading opens with most of the entry, eight letters at least, and
    goes on past it. The caller asks it only of a heading on the entry's own page."""
    common = len(os.path.commonprefix([printed, outlined]))
    return len(printed) > common >= max(_SHORT_FORM_OPENING, _SHORT_FORM_SHARE * len(outlined))


def entry_names(printed: str, outlined: str) -> bool:
    """Whether an outline entry names a heading printed on its page: one title written two ways
    (:func:`similar_title`) or the heading's short form (:func:`short_form`)."""
    return similar_title(printed, outlined) or short_form(printed, outlined)
