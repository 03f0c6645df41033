"""Cutting a section into contexts: the passages that are embedded, searched and cited.

A context gathers a section's blocks in reading order, joined by a blank line, until the
next block would push it past the token limit (the embedding window less its special
tokens). A block longer than the limit on its own is cut between sentences, then between
words; a table between rows, every part under its label, caption and header row (see
:func:`_table_parts`). Contexts never cross a section boundary, so every one can be cited as
"section, page".

No context holds only its section's heading. A parser may leave the heading line in the body
("2. Materials and Methods" as the section's first paragraph): it opens the context of the text
after it, the first part of that text cut smaller where it must to make room. A heading with no
text after it in its section is dropped: the heading is stored with the section, and with each
of its contexts as ``section_title``, which search reads with the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from paperpyramid.document import BlockKind, Section
from paperpyramid.tokens import TokenCounter

#: Why a context ends: the section ended, or the next block would not fit.
StopReason = Literal["Section", "Token limit"]

_JOIN = "\n\n"

# "Table 2", "TABLE II", "Table S1", "Tab. 3", and what ends it before the caption's words (". ", ": ", " – ")
_TABLE_LABEL = re.compile(
    r"(?P<label>(?:Supplementary\s+)?(?:Table|TABLE|Tab\.)\s*(?:[A-Z]?\d+[A-Za-z]?|[IVXLC]+)\b)\s*(?:[.:]\s*)?(?:[–—-]\s+)?"
)
# a caption block that names a figure is not the caption of the table after it
_FIGURE_LABEL = re.compile(r"(?:fig|figs|figure|figures|scheme|chart|plate|algorithm|listing)\b", re.IGNORECASE)
# the numbering a heading line carries before its title: "2. ", "3.10. ", "II. ", "A.1 "
_NUMBERING = re.compile(r"(?:\d+|[IVXLC]+|[A-Z])(?:\.\d+)*\.?\s+")
_WORD = re.compile(r"\S+")
# a markdown row's first cell, its pipes escaped within ("| TA 98 |")
_FIRST_CELL = re.compile(r"\|(?:[^|\\]|\\.)*\|")


@dataclass(slots=True)
class ContextDraft:
    """A context before it has an id: its text, where it starts, and why it ends."""

    text: str
    page_number: int
    num_tokens: int
    stop_reason: StopReason
    kind: BlockKind


@dataclass(slots=True)
class _Piece:
    text: str
    page: int
    kind: BlockKind
    tokens: int


def split_section(section: Section, counter: TokenCounter, max_tokens: int | None = None) -> list[ContextDraft]:
    """Cut a section's blocks into contexts of at most ``max_tokens`` tokens each.

    ``max_tokens`` defaults to ``counter.max_content_tokens``. The last context of the
    section has ``stop_reason == "Section"``, every earlier one ``"Token limit"``. A
    context's ``page_number`` is the page of the block it starts in, its ``kind`` that
    block's kind. A section without text, or whose only text is its heading, yields no contexts.
    """
    limit = counter.max_content_tokens if max_tokens is None else max_tokens
    if limit < 1:
        raise ValueError(f"max_tokens must be at least 1, not {limit}")
    pieces = _pieces(section, counter, limit)

    # Pack by the sum of the pieces' counts (exact for BERT-style tokenizers, which split on
    # whitespace), then count each packed text as it stands. If any does not fit (a
    # tokenizer that counts or merges across the join), pack the section again counting
    # every candidate text.
    groups = _pack(pieces, limit, lambda group: sum(piece.tokens for piece in group))
    texts = [_JOIN.join(piece.text for piece in group) for group in groups]
    counts = counter.count_batch(texts)
    if any(tokens > limit for tokens in counts):
        groups = _pack(pieces, limit, lambda group: counter.count(_JOIN.join(piece.text for piece in group)))
        texts = [_JOIN.join(piece.text for piece in group) for group in groups]
        counts = counter.count_batch(texts)
    packed = list(zip(groups, texts, counts, strict=True))
    return [
        ContextDraft(text, group[0].page, tokens, "Section" if position == len(packed) - 1 else "Token limit", group[0].kind)
        for position, (group, text, tokens) in enumerate(packed)
    ]


def _pack(pieces: list[_Piece], limit: int, count: Callable[[list[_Piece]], int]) -> list[list[_Piece]]:
    """Greedily gather consecutive pieces while ``count`` of the gathering stays within ``limit``."""
    groups: list[list[_Piece]] = []
    current: list[_Piece] = []
    for piece in pieces:
        if current and count([*current, piece]) <= limit:
            current.append(piece)
            continue
        if current:
            groups.append(current)
        current = [piece]
    if current:
        groups.append(current)
    return groups


def _pieces(section: Section, counter: TokenCounter, limit: int) -> list[_Piece]:
    """The section's blocks as pieces that each fit, cutting any block that does not; a block
    that only repeats the section's heading joins the first piece after it, or is dropped."""
    pieces: list[_Piece] = []
    heading: _Piece | None = None
    for block in _blocks(section, counter, limit):
        if heading is None and block.kind == "paragraph" and _is_heading(block.text, section.title):
            heading = block
            continue
        room = limit if heading is None else limit - counter.count(heading.text + _JOIN)
        if room < limit // 2:  # a heading too long to share a context: its words are the section's title
            heading, room = None, limit
        cut = [block]
        if block.tokens > room:
            parts = _cut(block.text, block.kind, counter, room)
            cut = [_Piece(part, block.page, block.kind, tokens) for part, tokens in zip(parts, counter.count_batch(parts), strict=True)]
        if heading is not None:
            opened = heading.text + _JOIN + cut[0].text
            tokens = counter.count(opened)
            if tokens <= limit:
                cut[0] = _Piece(opened, heading.page, block.kind, tokens)
            heading = None
        pieces += cut
    return pieces


def _blocks(section: Section, counter: TokenCounter, limit: int) -> list[_Piece]:
    """The section's blocks with text, stripped and counted. A table too long for one context
    whose text has no caption takes the caption block just before it (GROBID keeps a table's
    caption in a block of its own), so that its parts can repeat the caption."""
    blocks = [block for block in section.blocks if block.text.strip()]
    texts = [block.text.strip() for block in blocks]
    found: list[_Piece] = []
    for block, text, tokens in zip(blocks, texts, counter.count_batch(texts), strict=True):
        if block.kind == "table" and tokens > limit and found and found[-1].kind == "caption" and _captions(found[-1].text, text):
            text = found.pop().text + _JOIN + text
            tokens = counter.count(text)
        found.append(_Piece(text, block.page, block.kind, tokens))
    return found


def _captions(caption: str, table_text: str) -> bool:
    """Whether a caption block is the caption of the table block after it: the table has no
    caption of its own, and the caption names no figure."""
    table = _read_table(table_text)
    return table is not None and not table.caption and not _FIGURE_LABEL.match(caption)


def _is_heading(text: str, title: str) -> bool:
    """Whether a block only repeats the section's heading, with or without its numbering."""
    words = _words(title)
    if not words:
        return False
    numbering = _NUMBERING.match(text)
    return _words(text) == words or (numbering is not None and _words(text[numbering.end() :]) == words)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _cut(text: str, kind: BlockKind, counter: TokenCounter, limit: int) -> list[str]:
    """A block too long for ``limit`` cut into parts that fit: a table between rows, anything else between sentences."""
    return (_table_parts(text, counter, limit) if kind == "table" else None) or counter.split_to_fit(text, limit)


@dataclass(slots=True)
class _Table:
    """A table block's text read back: the caption above the markdown table, its header row
    with the ``|---|`` separator, its rows, and the notes below it (a JATS table foot)."""

    caption: str
    header: str
    rows: list[str]
    notes: str


def _read_table(text: str) -> _Table | None:
    """The parts of a table block's text (a caption, a blank line, then the markdown table, as
    every parser renders one), or ``None`` where it holds no markdown table."""
    lines = text.split("\n")
    start = next((i for i in range(len(lines) - 1) if lines[i].startswith("|") and lines[i + 1].startswith("|---")), None)
    if start is None:
        return None
    end = next((i for i in range(start + 2, len(lines)) if not lines[i].startswith("|")), len(lines))
    return _Table(
        "\n".join(lines[:start]).strip(), "\n".join(lines[start : start + 2]), lines[start + 2 : end], "\n".join(lines[end:]).strip()
    )


def _table_parts(text: str, counter: TokenCounter, limit: int) -> list[str] | None:
    """A table too long for one context, cut between rows, so that a part read alone still says
    what its numbers are. The first part opens as the table is printed (caption, header row and
    its separator); every later part opens with the label and caption marked as a continuation
    ("Table 2 (continued). Morphometrics of ...") and the header row again, within the bounds
    :func:`_openings` sets. A row longer than the room left is cut between words. Notes below
    the table follow the rows, under the label and caption. ``None`` where the text holds no
    markdown table or no rows."""
    table = _read_table(text)
    if table is None or not table.rows:
        return None
    parts, heads, units = _openings(table, counter, limit)
    room = limit - counter.count(heads[1])
    if room < 1:
        return None
    rows = [
        piece for unit, tokens in zip(units, counter.count_batch(units), strict=True) for piece in _row_parts(unit, tokens, counter, room)
    ]
    groups: list[list[str]] = [[]]  # the first may stay empty: a long caption and the header row fill the first part
    for row in rows:
        head = heads[0] if len(groups) == 1 else heads[1]
        if (groups[-1] or len(groups) == 1) and counter.count(head + "\n".join([*groups[-1], row])) > limit:
            groups.append([])
        groups[-1].append(row)
    for index, group in enumerate(groups):
        part = (heads[min(index, 1)] + "\n".join(group)).rstrip()
        parts += _fit(part, counter.count(part), counter, limit)  # a tokenizer that merges across lines: cut as text
    if table.notes:
        repeat = _continued(table.caption, counter, max(1, limit // 4)) if table.caption else ""
        parts += _notes_parts(parts.pop(), table.notes, repeat, counter, limit)
    return parts


def _openings(table: _Table, counter: TokenCounter, limit: int) -> tuple[list[str], list[str], list[str]]:
    """How a cut table's parts open: the caption's parts of its own (only where the caption and
    header row are longer than a context), the openings of the first and of every later part,
    and the lines to cut between. Later parts keep at least a quarter of the window for rows:
    they repeat the header row under the label and as many of the caption's first words as fit
    in a quarter of the window, or in what the header row leaves; where even the label leaves the
    header row too little room, the label and caption are repeated without it, and the header row
    is printed in the first part only."""
    quarter = max(1, limit // 4)
    header = _JOIN + table.header + "\n"
    label = _continued(table.caption, counter, 0) if table.caption else ""
    if counter.count(label + header) <= limit - quarter:
        repeat = _continued(table.caption, counter, min(quarter, limit - quarter - counter.count(header))) if table.caption else ""
        heads, units = [_head(table.caption, table.header), _head(repeat, table.header)], table.rows
    else:
        repeat = _continued(table.caption, counter, quarter) if table.caption else ""
        heads, units = [_head(table.caption, table.header), _head(repeat, "")], table.rows
        if counter.count(heads[0]) > limit:  # a header row near a context long: printed once, cut like a row
            heads, units = [_head(table.caption, ""), heads[1]], [table.header, *table.rows]
    if counter.count(heads[0]) > limit:
        return counter.split_to_fit(table.caption, limit), [heads[1], heads[1]], units
    return [], heads, units


def _notes_parts(last: str, notes: str, repeat: str, counter: TokenCounter, limit: int) -> list[str]:
    """The table's last part with its notes below, or where they do not fit, the notes in parts
    of their own under the label and caption."""
    joined = last + _JOIN + notes
    if counter.count(joined) <= limit:
        return [joined]
    lead = repeat + _JOIN if repeat else ""
    parts = [lead + piece for piece in counter.split_to_fit(notes, limit - counter.count(lead))]
    return [last, *(piece for part in parts for piece in _fit(part, counter.count(part), counter, limit))]


def _row_parts(row: str, tokens: int, counter: TokenCounter, room: int) -> list[str]:
    """A row as parts of at most ``room`` tokens: cut between words where it must, every part
    after the first opening with the row's first cell ("| TA 98 | … 46.00 ± 1.00 |"), which names it."""
    if tokens <= room:
        return [row]
    first = counter.split_to_fit(row, room)[0]
    key = _FIRST_CELL.match(row)
    rest = row[len(first) :].strip()
    lead = key.group() + " … " if key and len(key.group()) < len(first) else ""
    if not lead or counter.count(lead) > room // 2:
        return [first, *counter.split_to_fit(rest, room)]
    return [first, *(lead + part for part in counter.split_to_fit(rest, room - counter.count(lead)))]


def _head(caption: str, header: str) -> str:
    """What opens a part of a table before its rows: the caption, the header row, or both."""
    if caption and header:
        return caption + _JOIN + header + "\n"
    if header:
        return header + "\n"
    return caption + _JOIN if caption else ""


def as_printed(text: str) -> str:
    """A table's context as the table is printed: a later piece without what it repeats for
    search ("Table 2 (continued). Its caption" and the header row), so that a reader of the whole
    article (``export``) sees each table once; any other text as it is."""
    caption, _, rest = text.partition(_JOIN)
    if not _CONTINUED_PIECE.match(caption) or not rest:
        return text
    lines = rest.split("\n")
    if len(lines) > 2 and lines[0].startswith("|") and _HEADER_RULE.match(lines[1]):
        lines = lines[2:]
    return "\n".join(lines)


#: how a later piece of a split table marks its repeated label
_CONTINUED = " (continued)."
_CONTINUED_PIECE = re.compile(rf"^\S+(?: \S+)?{re.escape(_CONTINUED)}")
_HEADER_RULE = re.compile(r"^\|(?:-+\|)+$")


def _continued(caption: str, counter: TokenCounter, budget: int) -> str:
    """The caption as the later parts of its table repeat it, "Table 2 (continued). Its words",
    cut after the words that fit in ``budget`` tokens (then ending "…"); the label alone
    ("Table 2 (continued).") where no word fits beside it, whatever the budget."""
    found = _TABLE_LABEL.match(caption)
    label, words = (f"{found['label']}{_CONTINUED}", caption[found.end() :]) if found else (f"Table{_CONTINUED}", caption)
    marked = f"{label} {words}".strip()
    if not words.strip() or counter.count(marked) <= budget:
        return marked
    ends = [word.end() for word in _WORD.finditer(words)]
    kept, over = 0, len(ends)  # the most words that fit lie in [kept, over]
    while kept < over:
        middle = (kept + over + 1) // 2
        if counter.count(f"{label} {words[: ends[middle - 1]]} …") <= budget:
            kept = middle
        else:
            over = middle - 1
    return f"{label} {words[: ends[kept - 1]]} …" if kept else label


def _fit(text: str, tokens: int, counter: TokenCounter, limit: int) -> list[str]:
    return [text] if tokens <= limit else counter.split_to_fit(text, limit)
