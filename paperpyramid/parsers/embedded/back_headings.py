"""Headings at and after the reference list: which open sections and which do not.

After the body the type of headings means less: a "References" heading over prose may be a
section on how to cite rather than the list (:func:`mark_sections_on_citing`), labels after the
list in a style no heading of the body uses are a table's or a list's (:func:`demote_back_labels`),
and the back matter ("Author Contributions", "Funding") holds no subsections
(:func:`flatten_back_matter`). Kept apart from :mod:`.headings` because these rules read a
heading by its place relative to the reference list, not by its type alone.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block, is_reference_heading
from paperpyramid.parsers.embedded.heading_styles import TOP_LEVEL, heading_style, prose, style_levels


def demote_back_labels(blocks: list[Block], body_size: float | None = None) -> None:
    """After the reference list, an appendix's sections are set as the body's are; an unnumbered
    heading there in a style no heading before the list uses (a reference card's bold group
    labels, "Creation", "Coercion", in a smaller bold over its two-column rows) labels a part of
    a table or a list, not a section. Known headings ("Acknowledgments") and appendices stay, and
    so does an appendix's lower level (:func:`_appendix_level`)."""
    headings = [(index, block) for index, block in enumerate(blocks) if block.kind == "heading" and not block.extra.get("run_in")]
    listed = next(
        (
            position
            for position, (_, block) in enumerate(headings)
            if is_reference_heading(block.title.lower().strip()) and not block.extra.get("on_citing")
        ),
        None,
    )
    if listed is None:
        return
    body_styles = {heading_style(block) for _, block in headings[:listed]}
    numbered: Block | None = None  # the last numbered heading after the list
    for index, block in headings[listed + 1 :]:
        plain = block.title.lower().strip()
        if block.number:
            numbered = block
        if block.number or plain in blk.KNOWN_HEADINGS or plain.startswith(("appendix", "annex")) or heading_style(block) in body_styles:
            continue
        if numbered is not None and _appendix_level(block, numbered, body_size):
            continue
        blocks[index].kind = "paragraph"


def _appendix_level(block: Block, numbered: Block, body_size: float | None) -> bool:
    """Whether an unnumbered heading after the list is the level below the appendix's numbered
    section above it ("Uniform Model Prior", a ``\\subsubsection*`` under "A.1 Available Model
    Priors"): set in that section's own face at a smaller size, and larger than the body. A
    reference card's group labels are set at the card's size, in a face of their own."""
    line, above = block.lines[0], numbered.lines[0]
    return (
        body_size is not None
        and bool(line.font)
        and line.font == above.font
        and block.size < numbered.size
        and block.size >= body_size + _LARGER
    )


#: how much larger than the body a heading of an appendix's lower level is set at least (points)
_LARGER = 0.5


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
    levels = style_levels(headings)
    following = {id(block): content[position + 1] for position, block in enumerate(content[:-1])}
    for position, block in enumerate(headings):
        if not is_reference_heading(block.title.lower().strip()):
            continue
        level = levels.get(heading_style(block))
        shared = any(
            other is not block and heading_style(other) == heading_style(block) and not is_reference_heading(other.title.lower().strip())
            for other in headings
        )
        later = headings[position + 1 :]
        higher = (
            level is not None and level >= 2 and any(levels.get(heading_style(h), level) < level and _body_title(h.title) for h in later)
        )
        # or, in a subsection's style, after the reference list's own heading set otherwise (the
        # last subsection of an annex on how to cite, with no heading after it to outrank it)
        listed_before = any(
            is_reference_heading(h.title.lower().strip()) and heading_style(h) != heading_style(block) for h in headings[:position]
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
    return plain not in blk.BACK_MATTER_HEADINGS and not is_reference_heading(plain) and not plain.startswith(("appendix", "acknowledg"))


def flatten_back_matter(headings: list[Block]) -> None:
    """The back matter holds no subsections: under "Author Contributions" or "Funding", a
    heading that is neither numbered, another part of the back matter, an IMRaD section nor an
    appendix ("Conceptualization", "Methodology", "Writing – review & editing") is a paragraph."""
    in_back = False
    for block in headings:
        plain = block.title.lower().strip()
        if block.extra.get("on_citing"):
            in_back = False
        elif plain in blk.BACK_MATTER_HEADINGS or is_reference_heading(plain):
            in_back = True
        elif block.number or plain in TOP_LEVEL or plain.startswith("appendix"):
            in_back = False
        elif in_back:
            block.kind = "paragraph"


def demote_sample_lists(blocks: list[Block]) -> None:
    """A reference heading inside a section that goes on after it is a sample list printed in the
    text (a package's guide shows what its bibliography style sets: "References" and its entries,
    between "2.1" and "2.3"), not the paper's: the next numbered heading after it is a subsection
    of the top-level section the last numbered heading before it belongs to, and a reference
    heading follows later (the paper's own list). The heading is text, and so are its entries.
    A list that ends a chapter is followed by the next chapter ("2", not "1.3"), and a journal's
    second list after its Methods by unnumbered headings: both stay lists."""
    headings = [(index, block) for index, block in enumerate(blocks) if block.kind == "heading"]
    listed = [
        position
        for position, (_, block) in enumerate(headings)
        if is_reference_heading(block.title.lower().strip()) and not block.number and not block.extra.get("on_citing")
    ]
    for position in listed[:-1]:
        before = next((block.number for _, block in reversed(headings[:position]) if _DECIMAL.match(block.number or "")), None)
        after = next((block.number for _, block in headings[position + 1 :] if block.number), None)
        if before and after and "." in after.rstrip(".") and _DECIMAL.match(after) and _top(after) == _top(before):
            blocks[headings[position][0]].kind = "paragraph"


#: a section number in arabic figures: "2", "2.1", "3.2.1."
_DECIMAL = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?$")


def _top(number: str) -> str:
    return number.split(".", 1)[0]
