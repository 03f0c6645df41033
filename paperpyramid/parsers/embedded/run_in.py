"""Run-in headings: a section title set at the start of its first paragraph.

Many journals set their lower headings on the paragraph's first line: "2.1. Test Substances.
EGMAX, FEED-X, …" (numbered, in the body font), "**Data sources and searches.** The PUBMED …"
(bold, unnumbered), "**3.2. Mutagenicity Test.** PFS were …". Such a paragraph is cut in two: a
heading block with the number and title, and the paragraph without them.

A lead-in is a heading when it is bold (the line's bold prefix) or numbered with two levels or
more ("2.1", "3.2.1"), ends with a full stop (or a colon, when bold) on the first line, and reads
as a title: a capital first, at most twenty words, not a caption, a label of the front matter or
a sentence cut at an abbreviation ("Fig.", "et al."). A bold heading may begin on the bold line
above ("… for biogenic syn-" over "thesis of nano-MgO. The …"). Only paragraphs after the body's first
heading and before the reference list are read: a structured abstract's "Background:" and a
reference entry's bold authors are no sections.
"""

from __future__ import annotations

import re
from dataclasses import replace

from paperpyramid.parsers.embedded.blocks import (
    METADATA_LABEL,
    NUMBERED_RUN_IN,
    REFERENCE_HEADINGS,
    THEOREM_LIKE,
    Block,
    caption_start,
    join_lines,
    styled_lead,
)
from paperpyramid.parsers.embedded.layout import Line

_ABBREVIATION_END = re.compile(r"\b(?:fig|figs|tab|eq|eqs|ref|refs|al|e\.g|i\.e|vs|cf|no|vol|approx|ca|resp|sp|spp|st|dr|mr|ms)$", re.I)
_FRONT_HEADINGS = {"abstract", "summary", "keywords", "key words"}
_MAX_WORDS = 20


def split_run_in_headings(blocks: list[Block]) -> list[Block]:
    """``blocks`` with each body paragraph that opens with a run-in heading cut into a heading
    block (``extra["run_in"]`` set) and the paragraph that follows it."""
    result: list[Block] = []
    in_body = in_references = False
    for block in blocks:
        if block.kind == "heading":
            title = block.title.lower().strip()
            in_references = title in REFERENCE_HEADINGS
            in_body = in_body or title not in _FRONT_HEADINGS
        parts = _split(block, result[-1] if result else None) if block.kind == "paragraph" and in_body and not in_references else None
        if parts is None:
            result.append(block)
            continue
        if len(parts[0].lines) > 1:  # the heading began on the bold line above
            result.pop()
        result += parts
    return result


def _split(block: Block, before: Block | None) -> list[Block] | None:
    """``block`` cut into its run-in heading and its text; ``before`` is the block above it, a
    bold line that may hold the heading's start ("Screening of the selected … for biogenic syn-"
    over "thesis of nano-MgO. The …")."""
    first = block.lines[0]
    text = first.text
    lead = styled_lead(first)
    match = NUMBERED_RUN_IN.match(text)
    if lead is None and match is None:
        return None
    if lead is None:
        assert match is not None
        lead = text[: match.end()]
    head_lines: list[Line] = []
    if before is not None and _starts_heading(before, first) and not match:
        head_lines = list(before.lines)
    heading_text = join_lines([line.text for line in head_lines] + [lead.strip()])
    number_match = re.match(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(?=\S)", heading_text)
    number = number_match.group(1) if number_match else None
    title = (heading_text[number_match.end() :] if number_match else heading_text).strip().rstrip(".:").strip()
    rest = text[len(lead) :].lstrip()
    if not rest or not _title_like(title, number):
        return None
    heading = Block(lines=[*head_lines, replace(first, text=lead.strip())])
    heading.kind, heading.number, heading.title = "heading", number, title
    heading.extra["run_in"] = True
    paragraph = Block(lines=[replace(first, text=rest, bold_prefix=0, italic_prefix=0), *block.lines[1:]])
    paragraph.kind, paragraph.extra = block.kind, dict(block.extra)
    return [heading, paragraph]


def _starts_heading(before: Block, first: Line) -> bool:
    """A block of one or two bold lines, not ending a sentence, just above a line with a bold lead-in."""
    return (
        before.kind == "paragraph"
        and len(before.lines) <= 2
        and before.bold
        and first.bold_prefix > 0
        and before.lines[-1].column == first.column
        and before.page == first.page
        and not before.lines[-1].text.rstrip().endswith((".", ":"))
        and -first.height / 2 <= first.top - before.lines[-1].bottom < first.height
    )


def _title_like(title: str, number: str | None) -> bool:
    words = title.split()
    if not words or len(words) > _MAX_WORDS or not (title[0].isupper() or title[0].isdigit()):
        return False
    letters = [ch for ch in title if ch.isalpha()]
    if len(letters) < 3 or len(letters) < 0.5 * len(title.replace(" ", "")):
        return False
    plain = title.lower()
    if caption_start(title) or METADATA_LABEL.match(title) or plain in _FRONT_HEADINGS:
        return False
    if number is None and THEOREM_LIKE.match(title):  # "Definition 1.1.", "Proof.": a statement's label; "2.2.1 Step 1." is a section
        return False
    return not (_ABBREVIATION_END.search(title) or re.search(r"\b(et al|doi|http|www\.)", title, re.I))
