"""In-text citation markers of a PDF-parsed document, linked to its reference entries.

:func:`link_markers` reads the body blocks of a :class:`~paperpyramid.document.Document` whose
blocks carry no citations yet (a JATS or TEI document has them from its XML, and is left
alone), decides how the paper cites, gives each reference entry a key and adds a
:class:`~paperpyramid.document.Cite` for every marker that resolves to entries.

How the paper cites is decided from the whole text, once: bracketed numbers ("[12]"), numbers
glued to words (superscripts, as the embedded parser renders them: "shown12,13", read from what
the parser saw printed raised where it says so, :mod:`paperpyramid.citations.raised`), or author and
year ("(Smith et al., 2019)"), or letter labels a list prints ("[DHK+ 99]"). Each style is counted by the markers that resolve (a number
that is a label of the list, a name and year that is an entry's first author and year), and
the style with most wins; a document with no style clearly present gets no citations.

Precision comes before recall: a marker becomes a citation only if every number or item in it
resolves; numbers in a formula, after "Fig."/"Eq."/"range", inside maths ("[0, 1]", "x[3]")
are never read, nor a table's but bracketed after a word of its cell in a paper cited by brackets
(:func:`_in_cells`); "ref. 12", "refs 3 and 8" are read once a numbered style is chosen
(:func:`_named`); superscripts are only read in a paper cited that way, and there only where
they keep to the order of first citation that numbered-by-citation lists keep.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from paperpyramid.citations.marker_keys import (
    AuthorYearIndex,
    alphabetical,
    assign_keys,
    number_labels,
    numbered_list,
    printed_letter_labels,
)
from paperpyramid.citations.marker_patterns import (
    Marker,
    author_year,
    glued_to_names,
    letter_labels,
    named_references,
    numbered_names,
    numeric_brackets,
    paren_superscripts,
    superscripts,
)
from paperpyramid.citations.raised import raised_markers
from paperpyramid.document import Block, Cite, Document, Reference, Section

__all__ = ["CitationStyle", "MarkerCounts", "link_markers"]

CitationStyle = Literal["numeric", "superscript", "author-year", "label", "none"]

#: a style needs this many resolved markers to be chosen
MIN_MARKERS = 3
#: share of the list's entries superscript markers must name for the style to be chosen
SUPERSCRIPT_COVERAGE = 0.25
#: share of superscript markers that must keep to first-citation order for the order to be enforced
ORDERED_SHARE = 0.7
_REFERENCES_NUMBER = "ref"
_SKIPPED_KINDS = {"formula", "table"}
#: a word of a table's cell just before a bracketed citation ("CET [21]", "et al. [4]")
_WORD_IN_CELL = re.compile(r"[^\W\d_]{2,}\.?,?\s$")
#: a block of this many words at most may be a line of author names
_NAME_WORDS = 12
_NAME_CHARS = 200
_NAME_JOINS = {"and", "van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "dos", "le", "la", "ter", "ten", "y"}
_AFFILIATION = re.compile(r"\b(?:University|Universit[éàä]t?|Department|Institute|Faculty|Laborator|College|Hospital|School of)\b|@")


@dataclass(frozen=True)
class MarkerCounts:
    """What :func:`link_markers` did: the style it chose, the markers found in that style, how
    many became citations and how many named no entry (left out)."""

    style: CitationStyle
    found: int = 0
    linked: int = 0
    unresolved: int = 0
    skipped: str | None = None  # why nothing was done: "has cites", "no references"


@dataclass
class _Found:
    block: Block
    marker: Marker
    entries: list[int] | None  # indices into the reference list; None: it names no entry


def link_markers(document: Document) -> MarkerCounts:
    """Give the document's reference entries keys and add a :class:`Cite` to body blocks for each
    in-text marker that resolves to entries. Returns what was done; a document whose blocks
    already have citations, or that has no reference list, is not changed."""
    if any(block.cites for section in document.sections for block in section.blocks):
        return MarkerCounts("none", skipped="has cites")
    references = document.references
    if not references:
        return MarkerCounts("none", skipped="no references")
    blocks = list(_body_blocks(document.sections))
    labels = number_labels(references)
    names = AuthorYearIndex(references)
    raised_blocks = list(_superscript_blocks(document.sections))
    named = numbered_names([block.text for block in blocks])
    # the parser saw raised type in this paper's body: its blocks are read by what it saw
    seen = any(block.raised for block in raised_blocks)
    letters = printed_letter_labels(references)
    candidates: dict[CitationStyle, list[_Found]] = {
        "label": [_Found(block, m, _by_label(m, letters)) for block in blocks for m in letter_labels(block.text)] if letters else [],
        "numeric": [_Found(block, m, _by_number(m, labels)) for block in blocks for m in numeric_brackets(block.text)],
        "author-year": [_Found(block, m, _by_name(m, names)) for block in blocks for m in author_year(block.text)],
        "superscript": _in_citation_order(
            [_Found(block, m, _by_number(m, labels)) for block in raised_blocks for m in _raised(block, named, seen)], seen
        ),
    }
    resolved = {name: sum(1 for found in items if found.entries) for name, items in candidates.items()}
    style = _choose_style(candidates, dict(resolved), references)
    if resolved[style] < _least_markers(style, references) and not _few_cited(style, candidates[style], references):
        return MarkerCounts("none", found=sum(len(items) for items in candidates.values()))
    if style == "label":  # an entry's key is the label it is cited by
        for label, index in letters.items():
            references[index].key = references[index].key or label
    if style == "numeric":
        candidates[style] += [
            _Found(block, m, _by_number(m, labels)) for block in _table_blocks(document.sections) for m in _in_cells(block.text)
        ]
    if style in ("numeric", "superscript"):
        candidates[style] += _named(blocks if style == "numeric" else raised_blocks, candidates[style], labels)
    assign_keys(references, numbered=style not in ("author-year", "label"))
    linked = 0
    for found in candidates[style]:
        if not found.entries:
            continue
        keys = [key for key in (references[index].key for index in found.entries) if key is not None]
        found.block.cites.append(Cite(found.marker.start, found.marker.end, list(dict.fromkeys(keys))))
        linked += 1
    for block in blocks:
        block.cites.sort(key=lambda cite: cite.start)
    found_count = len(candidates[style])
    return MarkerCounts(style, found=found_count, linked=linked, unresolved=found_count - linked)


def _choose_style(
    candidates: dict[CitationStyle, list[_Found]], resolved: dict[CitationStyle, int], references: list[Reference]
) -> CitationStyle:
    """The style with most resolved markers, read against the list itself.

    - A list that prints no numbers is named by author and year: there numbers in brackets (R's
      "[1] TRUE", code's "x[2]") and numbers glued to words ("lme4", "factor1") name its entries
      only by their place, so author-year wins wherever it resolves.
    - Such a list in alphabetical order, or labelled by letters ("[DHK+ 99]", "[And08a]"), is
      no list of a paper cited by superscripts (those number by first citation): numbers glued
      to words there are footnote marks and names ("Glimmer3", "lme4").
    - Superscripts must name a share of the list (:data:`SUPERSCRIPT_COVERAGE`): a paper cited
      that way cites nearly every entry, where footnote marks, code ("mul3") and names ("sha1")
      name a few low numbers.
    - A paper prints its citations one way: where numbers in brackets name at least as many of
      the list's entries as numbers glued to words do, it is cited by brackets, and the glued
      numbers are names ("chr1, chr2, chr3", "Subclone1") or code ("fit1 <- mppm(...)",
      "str4 = Strauss(4)"), however many of them resolve; a paper cited by superscripts cites
      nearly its whole list that way, where such names repeat a few low numbers.
    - A list labelled by letters ("[DHK+ 99]", "[And08a]") is cited by its labels wherever they
      resolve: each names its entry as printed.

    ``resolved`` (each style's resolved markers) is changed."""
    if resolved["label"] >= _least_markers("label", references):
        return "label"
    if not numbered_list(references):
        if resolved["author-year"] >= _least_markers("author-year", references):
            return "author-year"
        if alphabetical(references) or printed_letter_labels(references):
            resolved["superscript"] = 0
    named = {index for found in candidates["superscript"] for index in found.entries or ()}
    if len(named) < SUPERSCRIPT_COVERAGE * len(references):
        resolved["superscript"] = 0
    bracketed = {index for found in candidates["numeric"] for index in found.entries or ()}
    if resolved["numeric"] >= MIN_MARKERS and len(bracketed) >= len(named):
        resolved["superscript"] = 0
    return max(resolved, key=lambda name: resolved[name])


def _least_markers(style: CitationStyle, references: list[Reference]) -> int:
    """The resolved markers a style needs: :data:`MIN_MARKERS`, or one per entry of a shorter
    list cited by author and year or by letter labels (each such marker names its entry by a name
    and a year, or by the label printed before it, where a number or two could be anything)."""
    return min(MIN_MARKERS, len(references)) if style in ("author-year", "label") else MIN_MARKERS


def _few_cited(style: CitationStyle, found: list[_Found], references: list[Reference]) -> bool:
    """Whether a numbered list is cited by its bracketed numbers in a paper that cites fewer
    times than a style needs (:data:`MIN_MARKERS`): a note that cites its one paper once ("[1]",
    the list's only label), or a short one that cites two of its entries ("In [1] and [2]").
    Every number in brackets must name an entry, and a longer list needs two markers naming two
    entries: one "[2]" or an interval "[1, 2]" beside it could be anything."""
    if style != "numeric" or not numbered_list(references) or any(item.entries is None for item in found):
        return False
    named = {index for item in found for index in item.entries or ()}
    least = min(2, len(references))
    return len(found) >= least and len(named) >= least


def _body_blocks(sections: list[Section]) -> Iterator[Block]:
    for section in sections:
        if section.number == _REFERENCES_NUMBER:
            continue
        for block in section.blocks:
            if block.kind not in _SKIPPED_KINDS:
                yield block


def _table_blocks(sections: list[Section]) -> Iterator[Block]:
    for section in sections:
        if section.number != _REFERENCES_NUMBER:
            yield from (block for block in section.blocks if block.kind == "table")


def _in_cells(text: str) -> list[Marker]:
    """Bracketed numbers in a table's caption and cells that follow a word of their cell ("CET [21]",
    "ramiprilat and others [27]", "PubLayNet [38]"): a table that compares works cites them so. Read
    only once the paper is known to cite by brackets; a cell's own numbers ("12 [8, 15]", an
    interquartile range; "A[0]", code) follow a number or are glued, and are none."""
    return [marker for marker in numeric_brackets(text) if _WORD_IN_CELL.search(text, max(0, marker.start - 40), marker.start)]


def _superscript_blocks(sections: list[Section]) -> Iterator[Block]:
    """Body blocks after the front matter: the untitled sections before the first titled one
    (and the abstract) hold author and affiliation marks ("Leal1,2"), never citations; an
    untitled section after the abstract is the body's introduction (Nature's journals print
    no "Introduction")."""
    started = abstract = False
    for section in sections:
        title = section.title.strip().lower()
        if not started and title in {"abstract", "summary"}:
            abstract = True
            continue
        if not started and not title and not abstract:
            continue
        started = True
        if section.number == _REFERENCES_NUMBER:
            continue
        for block in section.blocks:
            if block.kind not in _SKIPPED_KINDS and not _AFFILIATION.search(block.text) and not _names_only(block.text):
                yield block


def _names_only(text: str) -> bool:
    """A short block of capitalised names and "and" ("Lídia del Rio1", ", Marcus Huber3 and
    Victor V. Albert6"): authors with their affiliation marks, set apart from the title page."""
    if len(text) > _NAME_CHARS:
        return False
    words = re.findall(r"[^\W\d_][^\s\d,;]*", text)
    return 2 <= len(words) <= _NAME_WORDS and all(word[0].isupper() or word in _NAME_JOINS for word in words)


def _raised(block: Block, named: dict[str, int], seen: bool) -> list[Marker]:
    """Superscript markers of every shape, in text order.

    Where the parser saw raised type in the paper (``seen``) and looked at this block, they are
    the numbers it saw printed raised (:func:`~paperpyramid.citations.raised.raised_markers`): a
    number glued to a word but printed on the line ("BL21", "cm3") is none, and one the text's
    shape would refuse ("DEET18") is one. Elsewhere (OCR text, a paper whose superscripts the
    parser could not see) they are read from the text: numbers glued to words ("shown12,13"),
    closed by a parenthesis ("shown.12, 13)") or glued to a name that ends in a digit
    ("AaegOBP131", with ``named`` the paper's such names); where two read one marker ("2" of
    "details,2, 3)") the longer is kept."""
    text = block.text
    if seen and block.raised is not None:
        return raised_markers(text, block.raised, named)
    kept: list[Marker] = []
    shapes = [*superscripts(text), *paren_superscripts(text), *glued_to_names(text, named)]
    for marker in sorted(shapes, key=lambda found: (found.start, found.start - found.end)):
        if not kept or marker.start >= kept[-1].end:
            kept.append(marker)
    return kept


def _named(blocks: list[Block], found: list[_Found], labels: dict[int, int]) -> list[_Found]:
    """The works a sentence names by number ("ref. 12", "refs 3 and 8",
    :func:`~paperpyramid.citations.marker_patterns.named_references`) in a paper cited by numbers,
    where no marker of its style already covers them. Read once the style is chosen, so they
    never choose it: a paper cited by superscripts names a few works this way on the line."""
    taken: dict[int, list[Marker]] = {}
    for item in found:
        taken.setdefault(id(item.block), []).append(item.marker)
    named: list[_Found] = []
    for block in blocks:
        for marker in named_references(block.text):
            if not any(other.start < marker.end and marker.start < other.end for other in taken.get(id(block), [])):
                named.append(_Found(block, marker, _by_number(marker, labels)))
    return named


def _by_number(marker: Marker, labels: dict[int, int]) -> list[int] | None:
    if not marker.numbers or any(number not in labels for number in marker.numbers):
        return None
    return [labels[number] for number in marker.numbers]


def _by_label(marker: Marker, labels: dict[str, int]) -> list[int] | None:
    if not marker.labels or any(label not in labels for label in marker.labels):
        return None
    return list(dict.fromkeys(labels[label] for label in marker.labels))


def _by_name(marker: Marker, names: AuthorYearIndex) -> list[int] | None:
    # each item resolves on its own (a family name and a year of one entry), so a group keeps
    # the items that do: "(Carlson 2003; Poey, 1860)" cites Carlson where Poey is a species' author
    entries = [names.find(list(item.names), item.et_al, item.year, item.letter) for item in marker.items]
    found = list(dict.fromkeys(entry for entry in entries if entry is not None))
    return found or None


def _in_citation_order(found: list[_Found], seen: bool) -> list[_Found]:
    """Superscripts that keep to first-citation order, where most do: a number first cited far
    beyond the highest cited so far ("AaegOBP131" read as 131 after 30) is a glued digit, not a
    citation. Where most do not (a list in alphabetical order), all are kept. A number the parser
    saw printed raised (``seen``, and its block looked at) is a superscript as printed, and is kept
    out of turn too: a paper cites a work early that its list numbers later ("Cx.
    quinquefasciatus³⁷" in an introduction citing up to 33)."""
    resolved = [item for item in found if item.entries]
    kept: list[_Found] = []
    highest = 0
    for item in resolved:
        fresh = [number for number in item.marker.numbers if number > highest]
        if not fresh or min(fresh) <= highest + 2 or (seen and item.block.raised is not None):
            kept.append(item)
            highest = max([highest, *item.marker.numbers])
    if resolved and len(kept) >= ORDERED_SHARE * len(resolved):
        return kept
    return resolved
