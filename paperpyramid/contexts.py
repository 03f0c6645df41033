"""Cutting a section into contexts: the passages that are embedded, searched and cited.

A context gathers a section's blocks in reading order, joined by a blank line, until the
next block would push it past the token limit (the embedding window less its special
tokens). A block longer than the limit on its own is cut between sentences, then between
words; a table between rows, each part opening with its caption and header row. Contexts never cross a section boundary, so every one can be cited as
"section, page".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from paperpyramid.document import BlockKind, Section
from paperpyramid.tokens import TokenCounter

#: Why a context ends: the section ended, or the next block would not fit.
StopReason = Literal["Section", "Token limit"]

_JOIN = "\n\n"


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
    block's kind. A section without text yields no contexts.
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
    """The section's blocks as pieces that each fit, cutting any block that does not."""
    blocks = [block for block in section.blocks if block.text.strip()]
    texts = [block.text.strip() for block in blocks]
    pieces: list[_Piece] = []
    for block, text, tokens in zip(blocks, texts, counter.count_batch(texts), strict=True):
        if tokens <= limit:
            pieces.append(_Piece(text, block.page, block.kind, tokens))
            continue
        parts = (_table_parts(text, counter, limit) if block.kind == "table" else None) or counter.split_to_fit(text, limit)
        pieces.extend(
            _Piece(part, block.page, block.kind, part_tokens) for part, part_tokens in zip(parts, counter.count_batch(parts), strict=True)
        )
    return pieces


def _table_parts(text: str, counter: TokenCounter, limit: int) -> list[str] | None:
    """A table too long for one context, cut between rows: every part opens with the caption
    and the header row, so that a part read alone still says what its numbers are. A caption
    over a quarter of the window is stored whole in parts of its own, and the rows' parts
    open with its first sentences. ``None`` where the text holds no markdown table, or the
    caption and header leave no room for a row."""
    lines = text.split("\n")
    start = next((i for i in range(len(lines) - 1) if lines[i].startswith("|") and lines[i + 1].startswith("|---")), None)
    if start is None:
        return None
    caption = full = "\n".join(lines[:start]).strip()
    if caption and counter.count(caption) > limit // 4:
        caption = counter.split_to_fit(caption, limit // 4)[0]
    head = (caption + _JOIN if caption else "") + "\n".join(lines[start : start + 2])
    rows = [row for row in lines[start + 2 :] if row.strip()]
    room = limit - counter.count(head + "\n")
    if room < 1 or not rows:
        return None
    parts = counter.split_to_fit(full, limit) if caption != full else []  # the long caption whole, first
    for group in _pack(
        [_Piece(row, 0, "table", tokens) for row, tokens in zip(rows, counter.count_batch(rows), strict=True)], room, _rows_tokens(counter)
    ):
        part = head + "\n" + "\n".join(piece.text for piece in group)
        # one row longer than the room (or a tokenizer that merges across lines): cut as text
        parts += [part] if counter.count(part) <= limit else counter.split_to_fit(part, limit)
    return parts


def _rows_tokens(counter: TokenCounter) -> Callable[[list[_Piece]], int]:
    return lambda group: counter.count("\n".join(piece.text for piece in group))
