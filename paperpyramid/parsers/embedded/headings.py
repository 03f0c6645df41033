"""Which blocks are a paper's section headings, and at what level, where no outline names them.

The parser settles the headings after the blocks are classified, calling in order:

- :func:`.contents.set_aside_contents`: a printed table of contents is page furniture, never
  headings;
- :func:`.back_headings.mark_sections_on_citing`: a "References" heading over prose, set as a
  subsection or numbered with the next section after it, is a section on how to cite, not the
  reference list;
- :func:`.outline.apply_outline` where the PDF has an outline that names the sections;
- otherwise :func:`filter_headings` (here), once a numbered title wrapped onto a bold line read
  apart is whole again (:func:`.heading_wraps.join_wrapped_titles`): levels come from numbering ("2.1" is level 2; a small
  letter, "a. Syntax", the lowest there is) and from the heading styles ranked by size and weight
  (:func:`.heading_styles.heading_style`); a line in the face and size of the paper's headings is
  one though it opens with a small letter ("network attributes") or runs long, and so
  is a numbered line in the type of a numbered heading of its own section
  (:func:`numbered_like_siblings`); a numbered run-in heading out of its section's numbering is
  text (:func:`.run_in.demote_stray_run_ins`); a paragraph's or a caption's last line wrapped
  alone in bold or italics is text (:func:`demote_paragraph_ends`, with or without an outline),
  and so are a paragraph's bold opening words wrapped alone onto its first line
  (:func:`demote_wrapped_leads`), a label ended by a colon (:func:`demote_colon_labels`), a line
  set flush right under the text, a signature (:func:`demote_flush_right_lines`), and a label in
  capitals under a table's caption over its notes in smaller type (:func:`demote_note_labels`);
  a chapter's label, a plot's labels (:mod:`.figure_labels`), a list's items (:mod:`.list_items`),
  a label over a two-column list's entries (:func:`demote_list_labels`) and labels after the
  reference list (:mod:`.back_headings`) are none; back matter is flattened to the top level;
- :func:`.back_headings.demote_sample_lists`, with the headings settled either way: a reference
  heading inside a section that goes on after it is a sample list printed in the text.
"""

from __future__ import annotations

import collections
import re

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.author_names import mostly_names, split_names
from paperpyramid.parsers.embedded.back_headings import demote_back_labels, flatten_back_matter
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.contents import set_aside_chapter_labels
from paperpyramid.parsers.embedded.figure_labels import demote_axis_titles, demote_figure_labels
from paperpyramid.parsers.embedded.heading_styles import heading_style, over_list_column, style_levels
from paperpyramid.parsers.embedded.heading_wraps import join_wrapped_titles
from paperpyramid.parsers.embedded.institutions import affiliation_like
from paperpyramid.parsers.embedded.journal import date_line
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.lead_ins import em_lead
from paperpyramid.parsers.embedded.list_items import demote_list_items, demote_plain_numbered_lines
from paperpyramid.parsers.embedded.run_in import demote_stray_run_ins

#: a line that stops within this share of the column's width of its right edge is justified to it
_JUSTIFIED = 0.015
#: the paragraphs above a line that give its column's edges, and how far in from the left edge,
#: as a share of the column's width, a flush-right line starts
_TEXT_ABOVE = 3
_INSET = 0.25
#: the most words of a table's notes' label, and the most size its notes' type has, as a share
#: of the label's (footnote size under body size is 0.8 of it; the body's own is 1.0)
_NOTE_LABEL_WORDS = 3
_NOTE_SIZE = 0.9
#: a line that stops within this share of its paragraph's width of the right edge fills it
_FILLED = 0.05
#: the least a heading's size differs from the body's to set it apart without bold (points):
#: a bitmap face's measured glyphs ("5.2.2 Using mappability …" at 9.0 where the body is 9.4)
_APART = 0.3


def filter_headings(blocks: list[Block], body_size: float) -> None:
    """Keep heading styles that behave like headings; give each a level."""
    join_wrapped_titles(blocks, body_size)
    set_aside_chapter_labels(blocks)
    demote_title_page_lines(blocks)
    demote_list_items(blocks)
    demote_list_labels(blocks)
    demote_plain_numbered_lines(blocks, body_size)
    demote_figure_labels(blocks)
    demote_axis_titles(blocks)
    _lowercase_headings(blocks)
    _long_headings(blocks)
    numbered_like_siblings(blocks, body_size)
    demote_back_labels(blocks, body_size)
    demote_paragraph_ends(blocks)
    demote_lone_glyphs(blocks)
    demote_list_terms(blocks)
    demote_wrapped_leads(blocks)
    demote_colon_labels(blocks, body_size)
    demote_flush_right_lines(blocks, body_size)
    demote_note_labels(blocks, body_size)
    for block in blocks:
        # "2 Paolo Pelosi, University of Pisa, Italy": a numbered affiliation, not a section
        if (
            block.kind == "heading"
            and block.number
            and not block.extra.get("outline")
            and not block.extra.get("run_in")
            and affiliation_like(block.title)
        ):
            block.kind = "paragraph"
    demote_stray_run_ins(blocks)
    styles: dict[tuple[float, bool, bool, bool], list[int]] = {}
    for index, block in enumerate(blocks):
        if block.kind == "heading" and not block.extra.get("run_in"):
            styles.setdefault(heading_style(block), []).append(index)
    paragraphs = sum(1 for block in blocks if block.kind == "paragraph")
    for members in styles.values():
        numbered = sum(1 for index in members if blocks[index].number)
        known = sum(1 for index in members if blocks[index].title.lower() in blk.KNOWN_HEADINGS)
        # a style used as often as the body paragraphs is emphasis, not a heading
        if len(members) > max(8, paragraphs * 0.6) and numbered + known < len(members) * 0.5:
            for index in members:
                blocks[index].kind = "paragraph"
    headings = [block for block in blocks if block.kind == "heading"]
    level_of = style_levels(headings)
    numbered_levels = any(block.number for block in headings)
    above = 0  # the level of the last heading set on a line of its own
    for block in headings:
        if block.number and block.number.islower() and len(block.number) == 1:
            block.level = min(above + 1, 4)  # "a. Syntax": a small letter numbers the lowest level there is
            continue
        if block.number and numbered_levels:
            block.level = block.number.count(".") + 1 if block.number[0].isdigit() or "." in block.number else 1
        elif block.extra.get("run_in"):
            block.level = min(above + 1, 4)  # a run-in heading is the lowest there is: under the heading above it
            continue
        else:
            block.level = level_of.get(heading_style(block), 1)
        if not block.extra.get("run_in"):  # a numbered run-in heading is levelled by its number, and nests nothing
            above = block.level
    flatten_back_matter(headings)


def demote_list_labels(blocks: list[Block]) -> None:
    """A label over the first entry of a two-column list groups the list's entries, it heads no
    section: a reference card's bold "Coercion" over "as.proto  If x is …", the entry's text
    hanging in a column far right of the label (:func:`.heading_styles.over_list_column`).
    Numbered and known headings stay ("Nomenclature" over a list of symbols)."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.number or block.extra.get("run_in") or block.extra.get("outline"):
            continue
        plain = block.title.lower()
        if plain in blk.KNOWN_HEADINGS or blk.is_reference_heading(plain):
            continue
        if over_list_column(blocks, index):
            block.kind = "paragraph"


#: the most a paragraph's next line stands below its last, as a share of that line's height: the
#: leading alone, no space above a heading; and the most the boxes of two lines set tight may overlap
_TIGHT = 0.5
_OVERLAP = 0.25


def demote_paragraph_ends(blocks: list[Block]) -> None:
    """A lone line in bold or italics right under a paragraph or a caption that runs on to it is
    that text's last line, not a heading: "… for the C++ classes defined in" over "**Eigen**." (a
    package's name set in bold, JSS's ``\\pkg``, wrapped alone onto the last line), "… with the
    following" over "*C++ type:*". The text above fills its line and ends no sentence, the line
    starts at its left edge, and no space stands between them beyond the leading (a heading has
    space above it). Headings the outline names, numbered ones and known ones ("Abstract" under
    the authors' line) stay."""
    for index in range(1, len(blocks)):
        above, block = blocks[index - 1], blocks[index]
        if block.kind != "heading" or len(block.lines) != 1 or block.number or block.extra.get("outline") or block.extra.get("run_in"):
            continue
        if above.kind not in ("paragraph", "caption") or block.title.lower() in blk.KNOWN_HEADINGS:
            continue
        line, last = block.lines[0], above.lines[-1]
        if line.page != last.page or line.column != last.column or last.text.rstrip().endswith((".", "!", "?", ":", ";")):
            continue
        # the column's edges: the text above and the text below (a one-line caption fills nothing alone)
        around = (
            [*above.lines, *(other for other in blocks[index + 1].lines[:3] if other.page == line.page)]
            if index + 1 < len(blocks)
            else above.lines
        )
        left, right = min(other.x0 for other in around), max(other.x1 for other in around)
        fills = last.x1 >= right - _FILLED * (right - left)
        at_edge = abs(line.x0 - left) <= 2 or _ends_item(above, block)
        if fills and at_edge and 0 <= line.top - last.bottom <= _TIGHT * last.height:
            block.kind, block.number = "paragraph", None


#: a list item's label: a number, a letter or a bullet before its text
_ITEM_LABEL = re.compile(r"^\s*(?:\(?\w{1,2}[.)]|[•◦▪∙·*–-])\s")
#: the widest hang of a list item's text right of its label, in the line's size (enumerate's 2.5 em)
_ITEM_HANG = 2.5


def _ends_item(above: Block, block: Block) -> bool:
    """Whether a line that ends a sentence with a full stop stands where the list item above it
    sets its text: at the left edge of the item's lines, or hung right of its label ("4. Define the
    hypotheses … using the" over "**Hypotheses button.**", the button's name in bold wrapped onto the
    item's last line, its text indented past the number)."""
    line = block.lines[0]
    if not block.text.rstrip().endswith(".") or block.text.rstrip().endswith(".."):
        return False
    if abs(line.x0 - min(other.x0 for other in above.lines)) <= 2:
        return True
    first = above.lines[0]
    return bool(_ITEM_LABEL.match(first.text)) and 0 < line.x0 - first.x0 <= _ITEM_HANG * line.size


def demote_lone_glyphs(blocks: list[Block]) -> None:
    """A heading of one letter or sign, or set in a face of mathematics, is a piece of a display
    or a plot, not a section: the big sum sign of "γw = Σ wr γr" read from its math-extension
    face as a bold "P". Headings the outline names stay."""
    for block in blocks:
        if block.kind != "heading" or block.number or block.extra.get("outline"):
            continue
        if sum(ch.isalnum() for ch in block.title) <= 1 or blk.math_face(block.lines[0].font):
            block.kind = "paragraph"


#: the most blocks between two terms of one description list
_TERM_REACH = 3
#: the most two terms' gaps after them differ (points): a list sets one ``\labelsep``
_TERM_GAP = 0.5


def demote_list_terms(blocks: list[Block]) -> None:
    r"""A bold run-in title closed by no full stop, on one line, beside items of a description
    list set as it is, is that list's term too: a glossary's "**Error-Rate** The allowed rate …",
    whose short line keeps word spaces narrower than the ``\labelsep`` after the term, among
    "**Error-Type** The type of error …" and its lines hung under it. One line shows no hang; its
    neighbours do. A bold title in a loose line beside (TUGboat's run-in subsection) stays."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or not block.extra.get("run_in") or block.number or block.extra.get("outline"):
            continue
        line = block.lines[-1]
        if not line.bold_prefix or block.text.rstrip().endswith(".") or em_lead(line):
            continue
        near = blocks[max(0, index - _TERM_REACH) : index] + blocks[index + 2 : index + 2 + _TERM_REACH]
        if any(_same_term(line, other) for other in near):
            block.kind = "paragraph"


def _same_term(line: Line, other: Block) -> bool:
    """Whether a paragraph is a description list's item whose bold term is set as ``line``'s: at
    its left edge, on its page, the same gap after it, the item's next line hung an em or more in."""
    first = other.lines[0]
    return (
        other.kind == "paragraph"
        and len(other.lines) > 1
        and other.lines[1].x0 - first.x0 >= first.size
        and first.page == line.page
        and first.bold_prefix >= 3
        and abs(first.x0 - line.x0) <= 2
        and abs(first.lead_gap - line.lead_gap) <= _TERM_GAP
    )


def demote_title_page_lines(blocks: list[Block]) -> None:
    """Lines set large between the title and the text are the title page's, not sections: a
    line of names ("Yunshun Chen, Davis McCarthy, Aaron Lun, …", the authors under a one-page
    note's title) and a line of dates. Read from the title on, up to the first paragraph or
    heading of another kind."""
    titled = max((index for index, block in enumerate(blocks) if block.kind == "title"), default=None)
    if titled is None:
        return
    for block in blocks[titled + 1 :]:
        if block.kind in ("furniture", "aside"):
            continue
        if block.kind != "heading" or block.extra.get("outline") or not _title_page_line(block.text.strip(), block.number):
            return
        block.kind, block.number = "paragraph", None


def _title_page_line(text: str, number: str | None = None) -> bool:
    """Whether a line is names only, two or more, or dates and the words that label them."""
    return (not number and len(split_names(text)) >= 2 and mostly_names(text)) or date_line(text)


def demote_wrapped_leads(blocks: list[Block]) -> None:
    """A line all in bold that fills its column right over its paragraph (:func:`_wrapped_lead`) is
    read as the other bold openings of its section are. Its words ran on into the paragraph and the
    line broke after them, so the line alone does not tell a run-in title from words set in bold at
    the paragraph's start: beside the section's run-in titles ("**Ablation Study**  We …", LaTeX's
    ``\\paragraph``) it is one too ("**Comparison with Task Specific Fine-Tuning**"); beside bold
    words that open a paragraph before a word space ("**Related scientific NLP tasks** The SciFact
    task is …", ``{\\bf …}`` typed by hand) it is the paragraph's opening words ("**Fact checking
    and rationalized NLP models**" over "Fact-checking datasets include …"). With neither in its
    section it stays a heading."""
    for index in range(len(blocks) - 1):
        if _wrapped_lead(blocks[index], blocks[index + 1]) and _section_opens_with_bold_words(blocks, index):
            blocks[index].kind = "paragraph"


def _wrapped_lead(block: Block, below: Block) -> bool:
    """Whether an unnumbered heading is one line all in bold that ends at the right edge of the
    paragraph right under it (a heading's line stops where its words do), at that paragraph's
    left edge, no space between beyond the leading."""
    if block.kind != "heading" or len(block.lines) != 1 or not block.bold or block.number:
        return False
    if block.extra.get("outline") or block.extra.get("run_in") or block.title.lower() in blk.KNOWN_HEADINGS:
        return False
    line, first = block.lines[0], below.lines[0]
    if below.kind != "paragraph" or len(below.lines) < 2 or first.page != line.page or first.column != line.column or first.bold_prefix:
        return False
    left, right = min(other.x0 for other in below.lines), max(other.x1 for other in below.lines)
    tight = -_OVERLAP * line.height <= first.top - line.bottom <= _TIGHT * line.height
    return tight and abs(first.x0 - line.x0) <= 2 and line.x1 >= right - _JUSTIFIED * (right - left)


def _section_opens_with_bold_words(blocks: list[Block], index: int) -> bool:
    """Whether the section around ``blocks[index]`` (between the headings on lines of their own)
    has a paragraph that opens with bold words before a word space and no run-in heading."""
    start = next((at for at in range(index - 1, -1, -1) if _own_heading(blocks[at])), -1)
    end = next((at for at in range(index + 1, len(blocks)) if _own_heading(blocks[at])), len(blocks))
    section = blocks[start + 1 : index] + blocks[index + 1 : end]
    if any(block.kind == "heading" for block in section):
        return False
    return any(block.kind == "paragraph" and _bold_opening(block.lines[0]) for block in section)


def _own_heading(block: Block) -> bool:
    return block.kind == "heading" and not block.extra.get("run_in")


def _bold_opening(line: Line) -> bool:
    """Whether a line opens with a few words in bold and goes on in another face after a word
    space, not the em of a run-in title (:func:`~.lead_ins.em_lead`)."""
    return 3 <= line.bold_prefix < len(line.text) - 3 and not em_lead(line)


def demote_colon_labels(blocks: list[Block], body_size: float) -> None:
    """A line that ends with a colon, at the body's size or smaller, names what follows it (a
    proof's step, a list, a display), not a section: "**Second step:**" alone on its line in a
    proof, over "(⇒) Let us take a presentation …". A section's title ends without a stop; a
    known heading ("Abstract:"), a numbered one and one the outline names stay, and so do labels
    where two or more in one face and size end so: that is the paper's style of subheading
    ("**Study population:**", "**Statistical analysis:**")."""
    labels = [block for block in blocks if _colon_label(block, body_size)]
    styles = collections.Counter(_face(block) for block in labels)
    for block in labels:
        if styles[_face(block)] == 1:
            block.kind = "paragraph"


def _colon_label(block: Block, body_size: float) -> bool:
    """Whether ``block`` is a one-line unnumbered heading at the body's size or smaller that ends
    with a colon, neither a known heading nor one the outline names."""
    if block.kind != "heading" or len(block.lines) != 1 or block.number or block.size > body_size + 0.5:
        return False
    if block.extra.get("outline") or block.extra.get("run_in") or block.title.lower() in blk.KNOWN_HEADINGS:
        return False
    return block.text.rstrip().endswith(":")


def _face(block: Block) -> tuple[str, float]:
    """The font and size of a one-line block."""
    return block.lines[0].font, round(block.lines[0].size, 1)


def demote_flush_right_lines(blocks: list[Block], body_size: float) -> None:
    """A line in the body's type or smaller, not bold, set flush right under the text, its left
    edge far in from the text's, is a signature, a date or a place, not a heading: headings
    stand at the left edge or centred ("*Zdeněk Wagner, Vít Novotný*" at the right edge, closing
    a CSTUG Bulletin article over its address). The text's edges are those of the paragraphs
    above it on its page and in its column."""
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.number or block.bold or block.size > body_size + 0.5 or block.extra.get("outline"):
            continue
        line = block.lines[0]
        above = [
            other
            for before in blocks[max(0, index - _TEXT_ABOVE) : index]
            if before.kind == "paragraph"
            for other in before.lines
            if other.page == line.page and other.column == line.column
        ]
        if not above:
            continue
        left, right = min(other.x0 for other in above), max(other.x1 for other in above)
        width = right - left
        flush = all(abs(other.x1 - right) <= _FILLED * width for other in block.lines)
        inset = min(other.x0 for other in block.lines) - left >= _INSET * width
        centred = abs((line.x0 + line.x1) / 2 - (left + right) / 2) <= _FILLED * width
        if flush and inset and not centred:
            block.kind, block.number = "paragraph", None


def demote_note_labels(blocks: list[Block], body_size: float) -> None:
    """A short line in capitals at the body's size or below, not bold and unnumbered, right under
    a table's caption or cells and right over text in smaller type is the label of that table's
    notes, not a section heading: teubner's manual prints "REMARKS" under "Table 4: Accent
    macros", over the table's notes in footnote size. A section's heading stands over text in the
    body's type, or is set larger or bold; known headings ("REFERENCES" over a reference list in
    small type after a table) stay."""
    for index in range(1, len(blocks) - 1):
        block = blocks[index]
        if block.kind != "heading" or len(block.lines) != 1 or block.number or block.bold or block.size > body_size + 0.5:
            continue
        if block.extra.get("outline") or block.extra.get("run_in") or not heading_style(block)[3]:
            continue
        plain = block.title.lower()
        if len(plain.split()) > _NOTE_LABEL_WORDS or plain in blk.KNOWN_HEADINGS or blk.is_reference_heading(plain):
            continue
        above = next((other for other in reversed(blocks[:index]) if other.kind not in ("furniture", "aside")), None)
        below = next((other for other in blocks[index + 1 :] if other.kind not in ("furniture", "aside")), None)
        if above is None or below is None or above.kind not in ("caption", "table", "table_part"):
            continue
        if below.kind == "paragraph" and below.size <= _NOTE_SIZE * block.size and below.page == block.page:
            block.kind, block.number = "paragraph", None


#: the most words of a heading found by its face alone (:func:`_lowercase_headings`)
_LOWERCASE_WORDS = 8
#: this many headings at least set in one face and size make it a heading style
_STYLE_MEMBERS = 2


def _lowercase_headings(blocks: list[Block]) -> None:
    """A heading that opens with a small letter, set in the face and size of two headings or
    more: "network attributes" (the package's name first, in typewriter) among the italic
    "Edge structure" and "Vertex attributes", "mRNA expression" among bold headings. A heading's
    style is its face, size and place, not its first letter's case; :func:`~.blocks.heading_parts`
    wants a capital only because it judges a block alone. The block is one short line, ending no
    sentence, at the left edge of a heading of that style, with text in another face right under it;
    never in the body's face (numbered lines of a listing, table cells read as headings set it)."""
    edges_of, body_face = _heading_faces(blocks)
    for index, block in enumerate(blocks[:-1]):
        if block.kind != "paragraph" or len(block.lines) != 1:
            continue
        line, text = block.lines[0], block.text.strip()
        edges = edges_of.get((line.font, round(line.size, 1)), [])
        if line.font == body_face or len(edges) < _STYLE_MEMBERS or not any(abs(line.x0 - x0) <= 2 for x0 in edges):
            continue
        number = blk.NUMBERING.match(text)
        title = number.group("title") if number else text
        if not title[:1].islower() or len(title.split()) > _LOWERCASE_WORDS or re.search(r"[.,;:]$", title):
            continue
        letters = sum(ch.isalpha() for ch in title)
        if letters < 3 or letters < 0.6 * len(title.replace(" ", "")):
            continue
        if _over_text(block, blocks[index + 1]):
            block.kind, block.title = "heading", title.strip()
            block.number = number.group("num").rstrip(".") if number else None


def _heading_faces(blocks: list[Block]) -> tuple[dict[tuple[str, float], list[float]], str]:
    """The left edges of the headings on a line of their own, by face and size, and the face most
    of the paragraphs' lines are set in."""
    edges: dict[tuple[str, float], list[float]] = {}
    faces: collections.Counter[str] = collections.Counter()
    for block in blocks:
        if block.kind == "heading" and not block.extra.get("run_in") and len(block.lines) == 1:
            line = block.lines[0]
            edges.setdefault((line.font, round(line.size, 1)), []).append(line.x0)
        elif block.kind == "paragraph":
            faces.update(line.font for line in block.lines)
    return edges, faces.most_common(1)[0][0] if faces else ""


def _over_text(block: Block, below: Block, *, overlap: float = 0.0) -> bool:
    """Whether a paragraph in another face than ``block``'s starts right under it, in its column;
    ``overlap``: how far, as a share of the line's height, the boxes of the two lines may overlap."""
    line, first = block.lines[-1], below.lines[0]
    if below.kind != "paragraph" or first.page != line.page or first.column != line.column or first.font == line.font:
        return False
    return -overlap * line.height <= first.top - line.bottom <= 3 * line.height


#: the most words and lines of a heading found by its face alone when it runs long (:func:`_long_headings`)
_LONG_WORDS = 30
_LONG_LINES = 5
#: a sentence ended inside a block: a word, its stop, the next one's capital
_INNER_SENTENCE = re.compile(r"\w[.!?]\s+[A-Z]")


def _long_headings(blocks: list[Block]) -> None:
    """A heading too long to be told by its words, all its lines in the bold face and size of
    two headings or more: "Relationships among intraepidermal nerve fiber density, visual analog
    scale, small fiber neuropathy and symptom inventory questionnaire, and nerve conduction
    studies", four lines in the condensed bold of the paper's "Patients" and "Statistical
    analysis" (a medical journal's subheadings), which :func:`~.blocks.heading_parts` leaves as
    text for its many words and lines. A title: it opens with a capital (after its number) and
    ends no sentence, in it or at its end; it stands after the body's first heading, at the left
    edge of a heading of its style, never in the body's face, with text in another face right
    under it (:func:`_over_text`), the boxes of the lines as close as the lines of a paragraph."""
    edges_of, body_face = _heading_faces(blocks)
    seen_heading = False
    for index, block in enumerate(blocks[:-1]):
        seen_heading = seen_heading or block.kind == "heading"
        if not seen_heading or block.kind != "paragraph" or not 2 <= len(block.lines) <= _LONG_LINES or not block.bold:
            continue
        first, text = block.lines[0], block.text.strip()
        edges = edges_of.get((first.font, round(first.size, 1)), [])
        if first.font == body_face or len(edges) < _STYLE_MEMBERS or not any(abs(first.x0 - x0) <= 2 for x0 in edges):
            continue
        if any(line.font != first.font or abs(line.size - first.size) > 0.2 for line in block.lines):
            continue
        number = blk.NUMBERING.match(text)
        title = (number.group("title") if number else text).strip()
        if not title[:1].isupper() or len(title.split()) > _LONG_WORDS or re.search(r"[.!?,;:]$", title) or _INNER_SENTENCE.search(title):
            continue
        if _over_text(block, blocks[index + 1], overlap=_OVERLAP):
            block.kind, block.title = "heading", title
            block.number = number.group("num").rstrip(".") if number else None


#: the most words of a numbered heading found by its siblings' type (:func:`numbered_like_siblings`)
_SIBLING_WORDS = 18
#: a title that opens with a figure fused to its unit, a capital's stand-in: "4.1.3 3D barplot", "2.2 2D plots"
_MEASURE = re.compile(r"\d+[A-Za-z]\b")
#: a section's number: "4.1.2", or an appendix's section "A.3" (a letter alone may be a list's)
_SECTION_NUMBER = re.compile(r"^(?:\d|[A-Z]\.\d)")
#: what may stand before a title's capital: a quote mark or a bracket
_OPENERS = "(['\"“‘’"


def numbered_like_siblings(blocks: list[Block], body_size: float) -> list[int]:
    """A numbered line set in the type of a numbered heading of its own section, one level
    down from the same parent, is a heading too: "7.1 Example 1" beside "7.6 Conclusion" (a
    subsection's title that reads like a statement's label alone), "8.3 Estimating the number of
    items of a particular kind from experimental sampling" beside "8.1 Calculating probabilities"
    (too long to be told by its number alone in a type barely apart from the body's). The type is
    the face, size, weight and slant of the line, set apart from the body (bold, or a size of its
    own); it stands in its parent's section (:func:`within`: not "3.1 Measuring Teff", a heading
    printed as an example in a guide's appendix B); the title opens with a capital (or a figure
    fused to its unit: "4.1.3 3D barplot") and ends no clause. Returns the blocks made headings.

    An appendix numbers its sections as the body does ("A.3" beside "A.1" and "A.2"), and a title
    may open with a quote or a bracket before its capital ("A.3 'Bayesian Regression' with …",
    "2.4 (Treed) sequential D-optimal design"). Where no sibling of a line has been read as a
    heading yet (every subsection of "7 Examples" is titled "Example n: …", a statement's label to
    the blocks), the numbered headings of its depth in the other sections show the type: its
    cousins ("3.1 dna_seg", "4.1 DNA segments")."""
    numbered: dict[str, list[Block]] = {}  # each parent number: its numbered headings
    depths: dict[int, list[Block]] = {}  # each depth ("7.1": 1): its numbered headings
    for block in blocks:
        if block.kind == "heading" and block.number and _SECTION_NUMBER.match(block.number) and not block.extra.get("run_in"):
            numbered.setdefault(block.number.rpartition(".")[0], []).append(block)
            depths.setdefault(block.number.count("."), []).append(block)
    found: list[int] = []
    last: str | None = None  # the number of the last heading on a line of its own
    last_size = 0.0  # its size: an unnumbered heading set smaller stands inside its section
    for index, block in enumerate(blocks):
        if block.kind == "heading" and not block.extra.get("run_in"):
            if block.number or block.size >= last_size:  # "Fixed g" under "A.2" leaves A.3 next
                last, last_size = block.number, block.size
            continue
        if block.kind != "paragraph" or len(block.lines) > 2 or not (block.bold or abs(block.size - body_size) >= _APART):
            continue
        parts = blk.NUMBERING.match(block.text.strip())
        number = parts.group("num").rstrip(".") if parts else ""
        if not parts or not _SECTION_NUMBER.match(number) or not within(number, last):
            continue
        title = parts.group("title").strip()
        opening = title.lstrip(_OPENERS)
        if not (opening[:1].isupper() or _MEASURE.match(title)) or len(title.split()) > _SIBLING_WORDS or title.endswith((",", ";", ":")):
            continue
        siblings = numbered.get(number.rpartition(".")[0]) or depths.get(number.count("."), [])
        if any(_same_type(block, sibling) for sibling in siblings):
            block.kind, block.number, block.title = "heading", number, title.rstrip(" .")
            found.append(index)
            last, last_size = number, block.size
    return found


def within(number: str, section: str | None) -> bool:
    """Whether a heading numbered ``number`` ("4.1.2") may stand where the last numbered heading
    is ``section``: its parent ("4.1") or inside its parent ("4.1.1"). Numbering runs in order, so
    a number out of place is a line of the body or an example of a heading, not a section."""
    parent = number.rpartition(".")[0]
    return bool(parent) and section is not None and (section == parent or section.startswith(parent + "."))


def _same_type(block: Block, other: Block) -> bool:
    """Whether every line of ``block`` is set in the face, size, weight and slant of ``other``'s
    first: a heading's two lines, not a heading and the first line of its paragraph. A named face
    is its weight too: a title with a name in typewriter has fewer bold letters ("7.7 Example 7:
    Using user-defined gene_type and seg_plot" in CMBX12) but is set in the same face."""
    seen = other.lines[0]
    return (block.bold == other.bold or bool(seen.font)) and all(
        line.font == seen.font and abs(line.size - seen.size) <= 0.2 and line.italic == seen.italic for line in block.lines
    )
