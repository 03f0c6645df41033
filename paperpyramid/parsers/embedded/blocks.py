"""Blocks and what each is: a paragraph, a heading, a caption, a formula or a table's row.

A block is lines taken together (:mod:`.block_breaks` says where one ends); :func:`classify`
reads its kind from its text and type, :func:`heading_parts` a heading's number and title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field

from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.displays import DISPLAY, display_label
from paperpyramid.parsers.embedded.labels import METADATA_LABEL, THEOREM_LIKE
from paperpyramid.parsers.embedded.layout import Line, LineGroup
from paperpyramid.parsers.embedded.link_joins import link_goes_on
from paperpyramid.parsers.embedded.scripts import unspaced
from paperpyramid.parsers.reference_headings import (
    is_reference_heading as is_reference_heading,  # re-exported: its one place is that module
)

KNOWN_HEADINGS = {
    "abstract",
    "introduction",
    "background",
    "methods",
    "method",
    "methodology",
    "materials and methods",
    "material and methods",
    "methods and materials",
    "results",
    "discussion",
    "results and discussion",
    "conclusion",
    "conclusions",
    "discussion and conclusions",
    "conclusions and future work",
    "conclusion and future work",
    "summary",
    "related work",
    "acknowledgments",
    "acknowledgements",
    "acknowledgment",
    "acknowledgement",
    "references",
    "bibliography",
    "literature cited",
    "references and notes",
    "appendix",
    "appendices",
    "funding",
    "competing interests",
    "conflict of interest",
    "conflicts of interest",
    "author contributions",
    "authors' contributions",
    "supporting information",
    "supplementary material",
    "supplementary materials",
    "data availability",
    "limitations",
    "ethics statement",
    "abbreviations",
    "experimental section",
    "experimental",
    "future work",
    "evaluation",
    "experiments",
    "availability of data and materials",
    "declarations",
    "consent for publication",
    "ethics approval and consent to participate",
    "keywords",
    "declaration of competing interest",
    "acknowledgments and disclosures",
    "notes",
    "nomenclature",  # engineering papers' list of symbols, a section of its own before or after the text
}
#: the back matter's headings: sections of their own, which hold no subsections
BACK_MATTER_HEADINGS = {
    "acknowledgments", "acknowledgements", "acknowledgment", "acknowledgement", "funding", "competing interests",
    "conflict of interest", "conflicts of interest", "conflict of interests", "author contributions",
    "authors' contributions", "authors’ contributions", "author contribution", "authors’ contribution",
    "authors' contribution", "availability of data and materials", "data availability", "declarations",
    "consent for publication", "ethics approval and consent to participate", "declaration of competing interest",
    "publisher’s note", "publisher's note", "abbreviations", "author details", "authors’ information",
    "additional information", "disclosure", "supporting information", "supplementary information",
}  # fmt: skip

# "2.1", "IV.", "B.2", "I.A." and "II.A.1." (REVTeX's levels), "II.1." and "V.7.1." (roman sections
# with arabic subsections, as REVTeX's guides number them), "§1." (a section sign before the number)
NUMBERING = re.compile(
    r"^(?:§\s*)?(?P<num>(\d{1,2}(\.\d{1,2}){0,3}\.?)|([IVX]{1,5}\.(?:(?:[A-H]|\d{1,2})\.(?:\d{1,2}\.){0,2})?)|([A-H](\.\d{1,2}){0,3}\.?))\s+(?P<title>\S.*)$"
)
_CAPTION = re.compile(
    r"^(?P<kind>fig(ure)?s?\.?|table|tab\.|scheme|chart|plate)\s*(?P<label>[A-Z]?\d+[a-z]?|[IVX]+|S\d+)\b\s*[.:|\-—–]?", re.I
)
_SENTENCE_END = re.compile(r"[.!?:;)\]\"”。！？：；）」』؟؛]$")
# "Table 1 presents the results", "Table 5, we show": a sentence that mentions a table
_MENTION = re.compile(r"\s*,|\s+[a-z]{2,}\b")
#: the rest of a chapter-style number after its first point: the "2" of "Table 8.2"
_DOTTED_REST = re.compile(r"\d+(?:\.\d+)*")
_WORD = re.compile(r"[^\W\d_]+")
_COMPOUND = re.compile(r"[^\W\d_]+-[^\W\d_]+")
#: words that make a sentence of a line and that displays do without (English, German)
_FUNCTION_WORDS = re.compile(
    r"\b(?:the|that|then|this|these|which|where|since|we|is|are|be|of|to|and|with|it|if|"
    r"der|die|das|und|ist|sind|mit|dann|sei|wir|ein|eine|für|auf|von)\b",
    re.I,
)
#: a word of four letters or more, in any script: Greek prose is no formula for its letters
_LONG_WORD = re.compile(r"[^\W\d_]{4,}")


def ends_sentence(text: str) -> bool:
    """Whether a line or a block ends as a sentence or a clause does: a full stop, a colon, a
    closing bracket or quote."""
    return _SENTENCE_END.search(text) is not None


def caption_start(text: str) -> re.Match[str] | None:
    """The "Table 2:" / "Figure 1." that opens a caption; ``None`` for a sentence that only
    begins by naming one ("Table 1 presents …", "Figure 3, the …")."""
    match = _CAPTION.match(text)
    if match is None:
        return None
    label = match.group(0).rstrip()
    # "Table 8.2 was generated": the point is inside a chapter-style number, not after the label,
    # so the sentence goes on past the whole number and is tested as a mention from there
    dotted = _DOTTED_REST.match(text, len(label)) if label.endswith(".") else None
    end = dotted.end() if dotted else len(label)
    if (dotted or label[-1:] not in ".:|-—–") and _MENTION.match(text, end):
        return None
    return match


_EQUATION_NUMBER = re.compile(r"\(\s*([A-Z]?\d+[a-z]?(\.\d+)?)\s*\)$")
_MATH_FONT = re.compile(
    r"^(cmmi|cmsy|cmex|msbm|msam|cmr\d*$|eufm|rsfs|mt(mi|sy|ex)|symbol|stix.*math|cambria.*math|txmi|txsy|pxmi|pxsy|esint|lmmath|lmmi|lmsy|euex)",
    re.I,
)
#: TeX's roman text face, which :data:`_MATH_FONT` counts for the digits of displays; headings are set in it
_ROMAN_FONT = re.compile(r"^cmr\d*$", re.I)
#: a lowest heading numbered by a small letter, on a line of its own in bold or italics: "a. A subsubsection in an appendix"
_LETTERED_HEADING = re.compile(r"^(?P<num>[a-z])\.\s+(?P<title>[A-Z].*)$")
#: "Appendix A: Appendixes", "APPENDIX B. A LITTLE MORE": an appendix's label and its title
APPENDIX_LABEL = re.compile(r"^(?:appendix|annex)\s+(?P<num>[A-Z]|\d{1,2})\s*[.:—–-]?\s+(?P<title>\S.{2,})$", re.I)
#: an appendix's label on a line of its own, its title on the next: "Appendix A" over "How to Make an Appendix"
_APPENDIX_ALONE = re.compile(r"^(?:appendix|annex)\s+(?P<num>[A-Z]|\d{1,2})\s*[.:]?$", re.I)
#: a small-capitals face by its name: "CMCSC10", "LMRomanCaps10", "MinionPro-SC", "…SmallCaps"
_SMALL_CAPS_FONT = re.compile(r"csc\d|small-?caps|caps\d*$|[-_+]sc(?:$|[-_\d])|smcp", re.I)
_MATH_CHARS = set("=+−×·∑∏∫∂∇≤≥≈≠∈∉⊂⊆∪∩→←↔∞±√αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ^_{}|")


@dataclass(slots=True)
class Block(LineGroup):
    kind: str = "paragraph"  # paragraph | heading | caption | formula | table | furniture | aside
    level: int = 0
    number: str | None = None
    title: str = ""
    label: str | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def page(self) -> int:
        return self.lines[0].page

    @property
    def size(self) -> float:
        return self.lines[0].size

    @property
    def bold(self) -> bool:
        return all(line.bold for line in self.lines)

    @property
    def text(self) -> str:
        return join_lines([line.text for line in self.lines])


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What one document prints within its lines: the words, and the compounds with a hyphen
    ("free-living"), so that a word broken at a line end can be joined as the paper writes it."""

    words: frozenset[str] = frozenset()
    compounds: frozenset[str] = frozenset()

    @classmethod
    def of(cls, lines: Sequence[str]) -> Vocabulary:
        """From printed lines in order; the two halves of a word broken at a line end are not words."""
        words: set[str] = set()
        compounds: set[str] = set()
        broken = False
        for text in lines:
            text = text.strip()
            found = [word.lower() for word in _WORD.findall(text)]
            if broken and found:
                found = found[1:]  # the second half of the previous line's broken word
            broken = text.endswith("-")
            if broken and found:
                found = found[:-1]
            words.update(found)
            if "-" in text:  # most lines hold no compound
                compounds.update(compound.lower() for compound in _COMPOUND.findall(text))
        return cls(frozenset(words), frozenset(compounds))

    def keeps_hyphen(self, before: str, after: str) -> bool:
        """Whether "before-" at a line end and "after" on the next line are a hyphenated compound.

        The joined word printed elsewhere in the paper: join ("pro-" "tein"). The compound printed
        elsewhere: keep ("free-living"). Neither: keep when both halves are words the paper prints
        ("Citation-" "informed", "resource-" "limited"), join when one is a syllable ("sig-" "nificant").
        """
        head = (_WORD.findall(before) or [""])[-1].lower()
        tail = (_WORD.findall(after) or [""])[0].lower()
        if not head or not tail or (head + tail) in self.words:
            return False
        if f"{head}-{tail}" in self.compounds:
            return True
        return len(head) >= 3 and len(tail) >= 3 and head in self.words and tail in self.words


#: the vocabulary of the document being parsed (set by the parser for one document at a time)
VOCABULARY: ContextVar[Vocabulary | None] = ContextVar("VOCABULARY", default=None)
_NO_VOCABULARY = Vocabulary()


def join_lines(texts: list[str]) -> str:
    """Join printed lines into running text, undoing end-of-line hyphenation except in a
    compound hyphenated in its own right (see :meth:`Vocabulary.keeps_hyphen`)."""
    vocabulary = VOCABULARY.get() or _NO_VOCABULARY
    out = ""
    for text in texts:
        text = text.strip()
        if not text:
            continue
        if not out:
            out = text
        elif link_goes_on(out, text):
            out += text  # a URL or DOI broken where url.sty breaks it: "https://doi.org/10.1111/j.1467-" "9868.2005"
        elif out.endswith("\u00ad"):
            out = out[:-1] + text
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha() and text[:1].islower():
            out = out + text if vocabulary.keeps_hyphen(out[:-1], text) else out[:-1] + text
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha():
            out += text  # compound broken at its hyphen: "co-" + "Occurring"
        elif unspaced(out[-1]) and unspaced(text[0]):
            out += text  # Chinese and Japanese put no space between words
        else:
            out += " " + text
    return out.replace("\u00ad", "")


#: "2.1. Test Substances. EGMAX …": a number of two levels or more (an appendix's "A.1" too), a
#: title (in quotes or not: '9.2. "Poor man's bold". If …'), a full stop, text
NUMBERED_RUN_IN = re.compile(r"^(?P<num>(?:\d{1,2}|[A-Z])(?:\.\d{1,2}){1,3})\.?\s+(?P<title>[\"“‘]?[A-Z].{1,118}?)\.\s+(?=\S)")


def looks_like_formula(block: Block, body_size: float) -> bool:
    if len(block.lines) > 4:
        return False
    text = block.text
    words = len(_LONG_WORD.findall(text))
    if len(text) > 300 or words > 4:
        return False  # a paragraph's words: no test below passes it (counted first, as most blocks fail here)
    math_font = sum(1 for line in block.lines if _MATH_FONT.match(line.font))
    symbols = sum(1 for ch in text if ch in _MATH_CHARS)
    letters = sum(1 for ch in text if ch.isalpha())
    numbered = bool(_EQUATION_NUMBER.search(text))
    if len(_FUNCTION_WORDS.findall(text)) >= 3:
        return False  # a sentence with inline mathematics ("W, then we say that aW belongs to |Φ|k if …")
    if math_font >= max(1, len(block.lines) // 2) and (symbols or numbered):
        return True
    return numbered and symbols >= 1 and words <= 3 and letters < 60


_LABEL_ONLY = re.compile(r"\(\s*([A-Z]?\d+[a-z]?(?:\.\d+)?)\s*\)")
# a display's lines: few long words, some mathematics
_DISPLAY_WORDS = 3


def number_equations(blocks: list[Block]) -> list[Block]:
    """A display equation set on its own lines with its number apart ("y = x ∗ k + n ," then
    "(1)"): the number's block and the mathematical blocks just before it on the page (up to
    eight, with the sub- and superscripts set apart; a line's height apart at most) become one
    formula with that label. Returns the blocks without those merged into another."""
    merged: set[int] = set()
    for index, block in enumerate(blocks):
        number = _LABEL_ONLY.fullmatch(block.text.strip())
        if number is None or block.kind not in ("paragraph", "formula"):
            continue
        display: list[Block] = []
        for previous in reversed(blocks[max(0, index - 8) : index]):
            below = display[-1] if display else block
            fragment = len(previous.text.strip()) <= 3  # a sub- or superscript set apart ("2", "K")
            if (
                previous.page != block.page
                or previous.kind not in ("paragraph", "formula")
                or not (fragment or _mathematical(previous.text))
            ):
                break
            if below.lines[0].top - previous.lines[-1].bottom > 1.5 * previous.lines[-1].height:
                break
            display.append(previous)
        if not display:
            continue
        first = display[-1]
        first.lines = [line for part in reversed(display) for line in part.lines]
        first.kind, first.label = "formula", number.group(1)
        merged.update(id(part) for part in display[:-1])
        merged.add(id(block))
    return [block for block in blocks if id(block) not in merged]


#: the most lines one display may gather (an aligned system of equations)
_DISPLAY_LINES = 16


def join_displays(blocks: list[Block]) -> list[Block]:
    """A display set over several blocks (an aligned system, a fraction or a sum with its limits
    on lines of their own): consecutive formula blocks of one page and column, a line's height
    apart at most, become one formula, the label of its last part its own; a fragment of three
    characters or fewer between them (a sub- or superscript set apart) joins it. A labelled
    formula ends its display. Returns the blocks without those merged into another."""
    out: list[Block] = []
    for block in blocks:
        display = out[-1] if out else None
        if display is not None and display.kind == "formula" and display.label is None and _continues_display(display, block):
            display.lines = display.lines + block.lines
            display.label = block.label if block.kind == "formula" else None
            continue
        out.append(block)
    return out


def _continues_display(display: Block, block: Block) -> bool:
    fragment = block.kind == "paragraph" and len(block.text.strip()) <= 3
    if not (block.kind == "formula" or fragment) or block.page != display.page or len(display.lines) + len(block.lines) > _DISPLAY_LINES:
        return False
    last, first = display.lines[-1], block.lines[0]
    return first.column == last.column and first.top - last.bottom <= 1.5 * max(last.height, 1.0)


def _mathematical(text: str) -> bool:
    words = len(_LONG_WORD.findall(text))
    return words <= _DISPLAY_WORDS and any(ch in _MATH_CHARS or ch in "∥∗∼" for ch in text) and len(text) < 200


def classify(block: Block, body_size: float, body_font: str = "") -> None:
    """Set ``block.kind`` (and heading number/title) from its text and style."""
    text = block.text.strip()
    first = block.lines[0]
    caption = caption_start(text)
    if caption and (first.bold_prefix > 0 or first.bold or len(text) > 20 or block.size <= body_size):
        block.kind = "caption"
        block.label = caption.group("label")
        block.extra["caption_kind"] = "table" if caption.group("kind").lower().startswith("tab") else "figure"
        return
    if DISPLAY in first.tags:
        block.kind, block.label = "formula", display_label(first)
        return
    if looks_like_formula(block, body_size):
        block.kind = "formula"
        number = _EQUATION_NUMBER.search(text)
        block.label = number.group(1) if number else None
        return
    heading = heading_parts(block, body_size, body_font)
    if heading is not None:
        block.kind = "heading"
        block.number, block.title = heading


#: the least a bold line's box may measure of the body's and still be a heading's (see heading_parts)
_BOLD_BOX_SHARE = 0.78


def font_family(font: str) -> str:
    """A font's family, its name without the face: "LMRoman10" of "LMRoman10-Bold", "Arial" of
    TrueType's "Arial,Bold" (:attr:`.layout.Line.font` carries no subset tag)."""
    return re.split(r"[-,]", font, maxsplit=1)[0]


#: a relation between words, spaced as a display sets it: an unnumbered line with one is an equation
_RELATION = re.compile(r"\s[=≠≤≥]\s")


#: the most words of a heading's title
HEADING_WORDS = 18


def heading_parts(block: Block, body_size: float, body_font: str = "") -> tuple[str | None, str] | None:
    """Return (number, title) when the block reads as a section heading: a few lines of their own
    (:func:`_own_lines`), mostly letters, its number read apart from its title
    (:func:`_number_and_title`), a title that reads as one (:func:`_not_a_title`), set in a
    heading's type (:func:`_in_heading_type`)."""
    text = block.text.strip()
    first = block.lines[0]
    # a line set larger than the body is all heading, whatever its bold stops at ('3.4. The classes
    # "yearmon" and "yearqtr": Roll your own index', the quoted names in another face)
    heading_size = len(block.lines) == 1 and first.size > body_size + 0.5
    if not _own_lines(block, text, heading_size):
        return None
    match = NUMBERING.match(text)
    # mostly letters, not numbers or symbols; a bold numbered title's by its words ("**10.1.
    # default**": the number's digits outweigh a short title's letters), where a plot's or a
    # table's "2.5 mg" stays numbers
    chars = [ch for ch in (match.group("title") if match and block.bold else text) if not ch.isspace()]
    if sum(1 for ch in chars if ch.isalpha()) < 0.6 * len(chars):
        return None
    if match is None and len(block.lines) == 1 and max(first.bold_prefix, first.italic_prefix) >= len(first.text.rstrip()) - 1:
        match = _LETTERED_HEADING.match(text)  # "a. A subsubsection in an appendix" (REVTeX's fourth level), all bold or italic
    if match is None and _formula_or_code(first, text):
        return None
    numbered, number, title = _number_and_title(block, text, match)
    title = title.rstrip(" .:")
    plain = re.sub(r"\s+", " ", title.lower()).strip()
    if not title or not any(ch.isalpha() for ch in title):
        return None
    if plain in KNOWN_HEADINGS and _plain_label(block, text, body_size, body_font) and not numbered:
        return None
    if plain in KNOWN_HEADINGS or is_reference_heading(plain):
        return number, title
    if _not_a_title(block, text, title, numbered, heading_size):
        return None
    return (number, title) if _in_heading_type(block, text, title, number, numbered, body_size, body_font) else None


def _own_lines(block: Block, text: str, heading_size: bool) -> bool:
    """Whether the block is a few short lines of their own: not a table's cell or a figure's label
    (on a baseline shared with other text) nor a run-in heading's lead-in followed by its
    paragraph's text (see :mod:`.run_in`)."""
    if len(block.lines) > 3 or len(text) > 160 or len(text) < 2:
        return False
    if any("row" in line.tags for line in block.lines):
        return False
    first = block.lines[0]
    lead_in = 3 <= first.bold_prefix < len(first.text) - 3 and not _numbered_line(block, text) and not heading_size
    return not (lead_in or NUMBERED_RUN_IN.match(text))


def math_face(font: str) -> bool:
    """Whether a face is one of mathematics' own (math italic, symbols, extension), not TeX's
    roman text face that :data:`_MATH_FONT` counts for the digits of displays."""
    return bool(_MATH_FONT.match(font)) and not _ROMAN_FONT.match(font)


def _formula_or_code(first: Line, text: str) -> bool:
    """Whether an unnumbered block's first line is code or mathematics set in a face of its own,
    which its style would pass for a heading's."""
    if MONOSPACE_FONT.search(first.font):
        return True  # a line of code ("R> plot(z)"), whatever its style
    if math_face(first.font):
        return True  # a symbol set in a display's math italic ("Due", D sub u, e over it), not an italic heading
    return bool(_RELATION.search(text))  # a display's equation of words in italics ("Head xs = xs First Error"), no title


def _number_and_title(block: Block, text: str, match: re.Match[str] | None) -> tuple[bool, str | None, str]:
    """(whether a number opens the block, the number, the title). An appendix's label numbers its
    title too ("Appendix A: Appendixes"), and marks the block as an appendix's."""
    if match and re.fullmatch(r"[A-H]", match.group("num")) and match.group("title")[:1].islower():
        match = None  # "A subsection": the article, not a letter that numbers it
    if match:
        return True, match.group("num").rstrip("."), match.group("title").strip()
    if appendix := APPENDIX_LABEL.match(text):
        block.extra["appendix"] = True
        return False, appendix.group("num"), appendix.group("title").strip()
    return False, None, text


def _not_a_title(block: Block, text: str, title: str, numbered: bool, heading_size: bool) -> bool:
    """Whether the words say the block is no section's title whatever its type: too many, in lower
    case, a sentence, a statement's label, a label of the front matter, a citation or a link."""
    words = title.split()
    # a numbered title may open with a name in lower case ("3.1. strucchange: Empirical fluctuation processes")
    lower_name = numbered and len(block.lines) == 1 and (block.bold or heading_size) and title[0].islower()
    if len(words) > HEADING_WORDS or not (_capitalised(title[0]) or lower_name) or text.endswith((",", ";", "-")):
        return True
    # "Citation: Iskandar DT…" is front matter; "3.2 Citation Prediction" is a section
    # an appendix's label numbers its title: "APPENDIX I. NOTATION" is no statement's label
    # a statement's label is in the body's type; "2 Notation" in a larger one, its number first, is a section's
    statement = THEOREM_LIKE.match(title) and not block.extra.get("appendix") and not (numbered and heading_size)
    if statement or (not numbered and METADATA_LABEL.match(title)):
        return True
    if text.endswith(".") and not numbered and len(words) > 6:
        return True
    if re.search(r"\b(et al|doi|http|www\.|@)\b", text, re.I):
        return True
    letters = [ch for ch in title if ch.isalpha()]
    return not numbered and len(letters) < 3 and not block.bold  # "Ct" beside a display: a variable set in italics (or larger), not a title


def _in_heading_type(block: Block, text: str, title: str, number: str | None, numbered: bool, body_size: float, body_font: str) -> bool:
    """Whether the block is set as a heading is: larger than the body, bold, in capitals, in a
    face of its own or in italics, and not in small print; a numbered title on a line of its own
    may be in the body's type."""
    first = block.lines[0]
    words = title.split()
    letters = [ch for ch in title if ch.isalpha()]
    caps = len(letters) >= 4 and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)
    larger = block.size >= body_size + max(0.8, body_size * 0.1)
    # a small-capitals face may give its letters' reduced size; its line is nearly as tall as the body's
    # (a EuroTeX paper's centred CMCSC10 headings: lines 0.8 of the body's size)
    small_caps = bool(_SMALL_CAPS_FONT.search(first.font)) and first.height >= 0.75 * body_size
    smaller = block.size < body_size - max(0.8, body_size * 0.12) and not small_caps and not _bold_face(block, body_size, body_font)
    if smaller and not (block.bold and numbered):
        return False
    distinct_font = (
        bool(body_font)
        and first.font != body_font
        and not _MATH_FONT.match(first.font)
        and not MONOSPACE_FONT.search(first.font)  # a line of code ("R> summary(z)"), not a heading
        and len(block.lines) == 1
        and len(words) <= 10
        and not text.endswith(".")
    )
    styled = larger or block.bold or caps or distinct_font or (first.italic and len(words) <= 8)
    if first.italic and not (larger or block.bold or caps) and text.endswith(":"):
        return False  # an italic label that ends in a colon is a description list's ("Equaliser, and a 3-Category:")
    if numbered and (styled or (len(words) <= 10 and len(block.lines) == 1)):
        return not (number and number.isdigit() and int(number) > 30)
    if not styled or len(block.lines) > 2:
        return False
    if first.italic and not (larger or block.bold or caps) and len(block.lines) > 1:
        return False
    # a heading in sentence case ("Data extraction and assessment of study quality") is set
    # bold, at the body's size or larger, on lines of its own, without a full stop (it may end
    # in "(OLE-NLCs)"), or with a question mark on one line ("Why is it very plausible to take
    # a0 := log 2 as approximately optimal cutoff?", a \paragraph asked); a bold sentence in
    # small print is not (``smaller`` above: a bold face's glyph boxes may measure a point
    # under the regular face's at one size, Latin Modern's 9.8 to 10.9)
    heading_type = (
        block.bold
        and not re.search(r"[.!;:]$" if len(block.lines) == 1 else r"[.!?;:]$", text)
        and (larger or not re.search(r"[.!?]\s+[A-Z]", text))  # "… of nano-MgO. The": a run-in heading's line
    )
    return not _looks_like_sentence(title) or heading_type


def _bold_face(block: Block, body_size: float, body_font: str) -> bool:
    """A bold heading of a line or two in the body's family, not small print for its boxes: a bold
    face's boxes may measure a fifth under the regular face's at one size (LMRoman10-Bold's 9.8 to
    LMRoman10-Regular's 12.2 at 10.9 pt); a table's title in a sans face of its own is."""
    return (
        block.bold
        and len(block.lines) <= 2
        and block.size >= _BOLD_BOX_SHARE * body_size
        and bool(body_font)
        and font_family(block.lines[0].font) == font_family(body_font)
    )


def join_appendix_labels(blocks: list[Block]) -> None:
    """A heading that is only an appendix's label ("Appendix A") over a heading on the same page
    (its title): one heading, numbered by the label; the title's block is left out."""
    for label, title in zip(blocks, blocks[1:], strict=False):
        alone = _APPENDIX_ALONE.match(label.text.strip()) if label.kind == "heading" else None
        if alone and title.kind == "heading" and title.page == label.page and not title.number:
            label.lines = label.lines + title.lines
            label.number, label.title = alone.group("num"), title.title
            label.extra["appendix"] = True
            title.kind = "furniture"


#: known headings that label the front matter, whatever their type
_FRONT_MATTER_LABELS = {"abstract", "summary", "keywords", "key words"}


def _plain_label(block: Block, text: str, body_size: float, body_font: str) -> bool:
    """A known heading's word with a colon, alone on its line in the body's own type ("Notes:"
    over a bulleted list): a label that introduces what follows, not a section, which a document
    sets apart in bold, a larger size or capitals. Front-matter labels are left to the front matter."""
    first = block.lines[0]
    return (
        len(block.lines) == 1
        and text.endswith(":")
        and bool(body_font)
        and first.font == body_font
        and not (block.bold or first.italic or text.isupper())
        and abs(block.size - body_size) <= 0.5
        and text.rstrip(" :").lower() not in _FRONT_MATTER_LABELS
    )


def _numbered_line(block: Block, text: str) -> bool:
    """A numbered heading on one line whose bold stops before its end, with no sentence after
    the bold part: a word set in another face ('2.1. Creation of "zoo" objects', the code in
    typewriter), not a run-in heading's lead-in."""
    rest = text[block.lines[0].bold_prefix :]
    return len(block.lines) == 1 and bool(NUMBERING.match(text)) and not re.search(r"[.:;]\s", rest)


def _capitalised(ch: str) -> bool:
    """How a heading may begin: a capital, a digit, or a letter of a script without case (Arabic, Hebrew, Chinese)."""
    return ch.isupper() or ch.isdigit() or (ch.isalpha() and not ch.islower())


def _looks_like_sentence(title: str) -> bool:
    words = title.split()
    if len(words) < 7:
        return False
    # a word of a script without case reads as a lowercase one
    small = sum(1 for word in words if word.islower() or (word.isalpha() and not any(ch.isupper() or ch.islower() for ch in word)))
    return small > 0.6 * len(words)
