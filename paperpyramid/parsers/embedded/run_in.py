"""Run-in headings: a section title set at the start of its first paragraph.

Many journals set their lower headings on the paragraph's first line: "2.1. Test Substances.
EGMAX, FEED-X, …" (numbered, in the body font), "**Data sources and searches.** The PUBMED …"
(bold, unnumbered), "**3.2. Mutagenicity Test.** PFS were …". Such a paragraph is cut in two: a
heading block with the number and title, and the paragraph without them.

A lead-in is a heading when it is bold (the line's bold prefix) or numbered with two levels or
more ("2.1", "3.2.1"), ends with a full stop (or a colon, when bold) on the first line, and reads
as a title: a capital first, at most twenty words, not a caption, a label of the front matter,
a sentence cut at an abbreviation ("Fig.", "et al.") nor one that negates ("**DO NOT include any
page numbers.**": emphasis), nor, unnumbered, sentences (a reference set in bold); a title an em
from its text (LaTeX's ``\\paragraph``) may negate, read as a clause or be a statement's word
("**Example**"). A list's item, its label hanging out in the margin of its text, is no heading.
Nor is a glossary's term, its entries one line each in a row (:func:`_glossary_entries`).
A numbered one out of its section's numbering is the paragraph's text
(:func:`demote_stray_run_ins`, run once the headings are settled). A bold heading may begin on the bold line above ("… for biogenic
syn-" over "thesis of nano-MgO. The …"). Only paragraphs after the body's first heading and
before the reference list are read: a structured abstract's "Background:" and a reference
entry's bold authors are no sections.
"""

from __future__ import annotations

import re
from dataclasses import replace

from paperpyramid.parsers.embedded.blocks import (
    KNOWN_HEADINGS,
    NUMBERED_RUN_IN,
    Block,
    caption_start,
    is_reference_heading,
    join_lines,
)
from paperpyramid.parsers.embedded.labels import METADATA_LABEL, THEOREM_LIKE
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.lead_ins import em_lead, styled_lead

_ABBREVIATION_END = re.compile(r"\b(?:fig|figs|tab|eq|eqs|ref|refs|al|e\.g|i\.e|vs|cf|no|vol|approx|ca|resp|sp|spp|st|dr|mr|ms)$", re.I)
_FRONT_HEADINGS = {"abstract", "summary", "keywords", "key words"}
#: the lead-ins of a table's or a figure's notes ("Note. Values are means …"), no sections
_NOTE_LABELS = {"note", "notes", "source", "sources"}
_MAX_WORDS = 20
#: an unnumbered lead-in longer than this with a verb a heading does without (below) is a sentence;
#: long titles in sentence case are headings ("Fed-batch cultivation using exponential pulses …")
_SENTENCE_WORDS = 8
_AUXILIARY = re.compile(r"\b(?:is|are|was|were|must|should|shall|will|can|cannot|may|might|would|could)\b")
#: a negated verb: an unnumbered lead-in with one is an instruction or a claim set in bold for emphasis
#: ("**DO NOT include any page numbers.** They will be added …"), however short
_NEGATION = re.compile(r"\b(?:not|never)\b|n't\b", re.I)
#: a sentence ended inside a lead-in: a word of small letters, a full stop, a capital
_INNER_SENTENCE = re.compile(r"[a-z]{3}\.\s+[A-Z]")
_FILLED = 0.2  # a line that stops within this share of the column's width of its edge fills it
#: a run-in heading's number: "2.1", "A.1", "a." and REVTeX's whole chain "I.A.1.a." before the
#: fourth level's title (the title without it, as its lower levels are read)
_RUN_IN_NUMBER = re.compile(
    r"^(\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){1,3}|[IVX]{1,5}\.(?:[A-Z]|\d{1,2})(?:\.(?:[A-Z]|\d{1,2}|[a-z])){0,2}|[a-z](?=\.))\.?\s+(?=\S)"
)


def split_run_in_headings(blocks: list[Block]) -> list[Block]:
    """``blocks`` with each body paragraph that opens with a run-in heading cut into a heading
    block (``extra["run_in"]`` set) and the paragraph that follows it."""
    result: list[Block] = []
    in_body = in_references = False
    glossary = _glossary_entries(blocks)
    for position, block in enumerate(blocks):
        if position in glossary:
            result.append(block)
            continue
        if block.kind == "heading":
            title = block.title.lower().strip()
            # an entry of the list set in another face ("In Proceedings of …" in italics) ends nothing
            ends_list = bool(block.number) or block.bold or title in KNOWN_HEADINGS
            listed = is_reference_heading(title) and not block.extra.get("on_citing")  # not a section on how to cite
            in_references = listed or (in_references and not ends_list)
            in_body = in_body or title not in _FRONT_HEADINGS
        parts = _split(block, result[-1] if result else None) if block.kind == "paragraph" and in_body and not in_references else None
        if parts is None:
            result.append(block)
            continue
        if result and parts[0].lines[0] is result[-1].lines[0]:  # the heading began on the line above
            result.pop()
        result += parts
    return result


#: a glossary's entries run this many in a row at least; a gloss is this many words at most
_GLOSSARY_RUN = 3
_GLOSS_WORDS = 5


def _glossary_entries(blocks: list[Block]) -> set[int]:
    """The positions of a glossary's entries: paragraphs of one line, a term in bold (or italics)
    and a gloss of a few words that ends no sentence, :data:`_GLOSSARY_RUN` or more in a row ("**Beh.**
    Behauptung", "**Def.** Definition", "**o. B. d. A.** ohne Beschränkung der Allgemeinheit": a list
    of abbreviations). A run-in heading opens a paragraph of sentences; a list of terms and their
    glosses, each on its own line, is no series of sections."""
    entries = [_gloss_like(block) for block in blocks]
    found: set[int] = set()
    start = 0
    for end in range(len(blocks) + 1):
        if end < len(blocks) and entries[end]:
            continue
        if end - start >= _GLOSSARY_RUN:
            found.update(range(start, end))
        start = end + 1
    return found


def _gloss_like(block: Block) -> bool:
    """Whether a block is one line, a styled term and a short gloss after it, no sentence."""
    if block.kind != "paragraph" or len(block.lines) != 1:
        return False
    line = block.lines[0]
    prefix = line.bold_prefix or line.italic_prefix
    gloss = line.text[prefix:].strip()
    return prefix > 0 and 0 < len(gloss.split()) <= _GLOSS_WORDS and not gloss.endswith((".", "!", "?", ":"))


def _split(block: Block, before: Block | None) -> list[Block] | None:
    """``block`` cut into its run-in heading and its text; ``before`` is the block above it, a
    bold line that may hold the heading's start ("Screening of the selected … for biogenic syn-"
    over "thesis of nano-MgO. The …")."""
    head_lines: list[Line] = []
    lines = block.lines
    if _wrapped_lead(block):  # the heading fills the first line and ends on the second
        head_lines, lines = [lines[0]], lines[1:]
    first = lines[0]
    text = first.text
    lead = styled_lead(first)
    match = NUMBERED_RUN_IN.match(text)
    if lead is None and match is None:
        return None
    if _hanging(lines):
        # a list's item, its label out in the margin of its text: a description list's bold label,
        # set half an em (``\\labelsep``) or a box's width from its text ("**VCFs:**  When …"), or
        # a numbered one ("**5.1** The manual is now distributed as a PDF file. Quartet …", a
        # manual's version history)
        return None
    if lead is not None and lead.endswith(":") and len(lines) < 2:
        return None  # a label ended by a colon, on one line: a list's item too, for all it shows
    if lead is None:
        assert match is not None
        lead = text[: match.end()]
        if len(match.group("num")) + 2 < first.bold_prefix < match.end() - 1:
            lead = text[: first.bold_prefix]  # "**4.1 Figures** Care should be taken …": the bold ends the title
    if not head_lines and before is not None and _starts_heading(before, first) and not match:
        head_lines = list(before.lines)
    heading_text = join_lines([line.text for line in head_lines] + [lead.strip()])
    number_match = _RUN_IN_NUMBER.match(heading_text)
    number = number_match.group(1) if number_match else None
    title = (heading_text[number_match.end() :] if number_match else heading_text).strip().rstrip(".:").strip()
    rest = text[len(lead) :].lstrip()
    spaced = not lead.rstrip().endswith(".") and em_lead(first)
    if not rest or not _title_like(title, number, spaced=spaced):
        return None
    heading = Block(lines=[*head_lines, replace(first, text=lead.strip())])
    heading.kind, heading.number, heading.title = "heading", number, title
    heading.extra["run_in"] = True
    # the text after the lead-in is in the body's face, though the line was bold by most of its letters
    paragraph = Block(lines=[replace(first, text=rest, bold=False, bold_prefix=0, italic_prefix=0), *lines[1:]])
    paragraph.kind, paragraph.extra = block.kind, dict(block.extra)
    return [heading, paragraph]


def _starts_heading(before: Block, first: Line) -> bool:
    """A block of one or two bold lines, not ending a sentence, just above a line with a bold
    lead-in; or a heading in the lead-in's style (bold or italic) that fills its line, the lead-in
    its last words ("3.2.1. Survival Comparison between Gastric MC and WMDC" over "Patients. The …")."""
    last = before.lines[-1]
    if before.kind == "heading" and not before.extra.get("run_in"):
        same_style = (before.bold and first.bold_prefix > 0) or (all(line.italic for line in before.lines) and first.italic_prefix > 0)
        fills = last.x1 >= first.x1 - _FILLED * (first.x1 - first.x0)
        if not (same_style and fills):
            return False
    elif not (before.kind == "paragraph" and before.bold and first.bold_prefix > 0):
        return False
    return (
        len(before.lines) <= 2
        and before.lines[-1].column == first.column
        and before.page == first.page
        and not before.lines[-1].text.rstrip().endswith((".", ":"))
        and -first.height / 2 <= first.top - before.lines[-1].bottom < first.height
    )


def _hanging(lines: list[Line]) -> bool:
    """Whether the lines after the first stand an em or more right of it: an item of a
    description list, its label out in the margin of its text, not a paragraph."""
    return len(lines) > 1 and lines[1].column == lines[0].column and lines[1].x0 - lines[0].x0 >= lines[0].size


def _wrapped_lead(block: Block) -> bool:
    """Whether the paragraph opens with a heading over two lines: a first line all in bold or all
    in italics, no sentence ended, that fills the column, over a line whose lead-in is in the
    same style ("3.1. Clinicopathological Parameters Comparison between MC" over "and WGMDC and
    PDC Patients. The …")."""
    if len(block.lines) < 3:
        return False
    first, second = block.lines[:2]
    text = first.text.rstrip()
    if not text or text.endswith((".", ":", ";")) or second.column != first.column:
        return False
    bold = first.bold_prefix >= len(text) - 1 and second.bold_prefix > 0
    italic = first.italic_prefix >= len(text) - 1 and second.italic_prefix > 0
    width = max(line.x1 for line in block.lines) - min(line.x0 for line in block.lines)
    return (bold or italic) and first.x1 >= second.x1 - _FILLED * width and styled_lead(second) is not None


def _title_like(title: str, number: str | None, *, spaced: bool = False) -> bool:
    """Whether a lead-in reads as a title. ``spaced``: closed by an em of white space, not a full
    stop (LaTeX's ``\\paragraph``: :func:`~.lead_ins.em_lead`): a title as set, whatever its words,
    where emphasis typed by hand ends its sentence with a full stop ("**DO NOT include any page
    numbers.**", "**Example.**") and a statement's head has half an em after it ("**Example 1**",
    "*Proof*  Let λ be …", jmlr's). So a spaced one may be a clause ('**LaTeX says that pict2e.sty
    “will not be written soon”**'), negate ("**Some very short lines are not drawn**") or be a
    statement's word ("**Example**  Consider a case …", "**Step 1:**  The data …")."""
    words = title.split()
    opening = title.lstrip('"“‘')  # a title in quotes: '"Poor man's bold"'
    if not words or len(words) > _MAX_WORDS or not opening or not (opening[0].isupper() or opening[0].isdigit()):
        return False
    letters = [ch for ch in title if ch.isalpha()]
    if len(letters) < 3 or len(letters) < 0.5 * len(title.replace(" ", "")):
        return False
    plain = title.lower()
    if caption_start(title) or METADATA_LABEL.match(title) or plain in _FRONT_HEADINGS or plain in _NOTE_LABELS:
        return False
    if number is None and len(words) > _SENTENCE_WORDS and _AUXILIARY.search(title) and not spaced:
        return False  # a sentence set in bold for emphasis ("The final version … must be submitted by August 31, 2019 …")
    if number is None and _NEGATION.search(title) and not spaced:
        return False
    if number is None and _INNER_SENTENCE.search(title):
        return False  # a reference set in bold ("J. D. Storey. False discovery rates. In …"): sentences, not a title
    # "Definition 1.1.", "Proof.": a statement's label; "2.2.1 Step 1." is a section
    if number is None and THEOREM_LIKE.match(title) and not spaced:
        return False
    return not (_ABBREVIATION_END.search(title) or re.search(r"\b(et al|doi|http|www\.)", title, re.I))


def demote_stray_run_ins(blocks: list[Block]) -> None:
    """A numbered run-in heading continues the numbering of the section it stands in: "4.2 Data."
    under "4" or "4.1", or the next section's ("5.1" where "5" was not read). One whose number
    belongs to a section long past ("2.5 GHz Intel Core i7 processor, …", a paragraph's line after
    a table in section 4 that opens with a number) is the paragraph's text again. Judged only
    under a numbered heading set on a line of its own."""
    current: str | None = None  # the number of the last heading on a line of its own
    for block in blocks:
        if block.kind != "heading":
            continue
        if not block.extra.get("run_in"):
            current = block.number if block.number and block.number[0].isdigit() else None
            continue
        number = block.number or ""
        parent = number.rpartition(".")[0]
        if current is None or not parent or not number[0].isdigit() or block.extra.get("outline"):
            continue  # a run-in heading the outline names is one wherever it stands
        if current == parent or current.startswith(parent + "."):
            continue
        section, top = (int(re.sub(r"\D.*", "", text)) for text in (current, parent))  # "4.2": 4
        if top not in (section, section + 1):
            block.kind, block.number = "paragraph", None
            del block.extra["run_in"]
