"""Greedy decoding constrained to a JSON schema (:mod:`.json_grammar`).

Each step either appends the text the schema forces (keys, colons, commas, brackets: tokenised
and fed to the model without asking it) or lets the model choose, by its logits, among the
vocabulary tokens whose text the grammar accepts. Inside a string, the bulk of the vocabulary
qualifies; those tokens are classified once (:class:`TokenTable`: plain string content, or content
then a closing quote then a little syntax) so that the step's allowed set is a numpy mask.
Elsewhere the few tokens starting with an allowed character are checked one by one, cached per
grammar state.

``max_tokens`` is kept: a token is taken only while the shortest text closing the document still
fits after it; when nothing else fits, that closing text is appended and decoding ends, so every
answer is complete JSON. A string may not be closed before it has one character. A repetition
loop (:class:`~.repetition.LoopGuard`: one n-gram over and over) ends decoding the same way, as
stopped for length: the text decoded so far, closed the shortest way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from paperpyramid.llm.local import json_grammar as g
from paperpyramid.llm.local.json_schema import Node
from paperpyramid.llm.local.repetition import LoopGuard

Ids = npt.NDArray[np.int64]
#: the model: feed tokens (appending them to its state), get the next token's logits
Step = Callable[[Sequence[int]], npt.NDArray[np.float32]]
Encode = Callable[[str], list[int]]
#: tokens tried, best first, when the best one would leave too little room to close the document
_RUNNERS_UP = 64
#: grammar states remembered per schema before the caches start afresh
_MAX_CACHED = 200_000


class TokenTable:
    """The vocabulary as text, classified once for the string masks."""

    def __init__(self, pieces: Sequence[bytes | None]) -> None:
        self.texts: list[str | None] = []
        for piece in pieces:
            try:
                self.texts.append(piece.decode("utf-8") if piece else None)
            except UnicodeDecodeError:
                self.texts.append(None)  # part of a character: never allowed
        size = len(self.texts)
        self.body = np.zeros(size, dtype=bool)
        self.length = np.zeros(size, dtype=np.int64)
        by_first: dict[str, list[int]] = {}
        closing: dict[str, tuple[list[int], list[int]]] = {}
        for index, text in enumerate(self.texts):
            if text is None:
                continue
            self.length[index] = len(text)
            by_first.setdefault(text[0], []).append(index)
            quote = text.find('"')
            head = text if quote < 0 else text[:quote]
            if not all(map(g.is_body_char, head)):
                continue
            if quote < 0:
                self.body[index] = True
            else:
                ids, heads = closing.setdefault(text[quote:], ([], []))
                ids.append(index)
                heads.append(quote)
        self.by_first = {char: np.asarray(ids, dtype=np.int64) for char, ids in by_first.items()}
        #: tokens "content" + '"' + tail, grouped by '"' + tail: (ids, content lengths)
        self.closing = {
            tail: (np.asarray(ids, dtype=np.int64), np.asarray(heads, dtype=np.int64)) for tail, (ids, heads) in closing.items()
        }


@dataclass
class _Caches:
    allowed: dict[g.Stack, Ids] = field(default_factory=dict)
    tails: dict[g.Stack, list[str]] = field(default_factory=dict)
    need: dict[g.Stack, int] = field(default_factory=dict)

    def size(self) -> int:
        return len(self.allowed) + len(self.tails) + len(self.need)


class ConstrainedDecoder:
    """Decodes one schema's documents; reusable across calls (its caches are per grammar state)."""

    def __init__(self, root: Node, table: TokenTable, encode: Encode) -> None:
        self.root, self.table, self.encode = root, table, encode
        self._caches = _Caches()

    def minimum_tokens(self) -> int:
        """Tokens of the shortest valid document."""
        return self._need(g.start(self.root))

    def decode(self, step: Step, prompt: Sequence[int], max_tokens: int) -> tuple[str, int]:
        """The document's text and how many tokens it took (``<= max_tokens``); cut short, and
        closed, where the tokens run out or run into a repetition loop."""
        if self._caches.size() > _MAX_CACHED:
            self._caches = _Caches()
        stack = g.start(self.root)
        if self._need(stack) > max_tokens:
            raise ValueError(f"max_tokens={max_tokens} cannot hold the shortest valid answer ({self._need(stack)} tokens)")
        pending, parts, used = list(prompt), [], 0
        guard = LoopGuard()
        while stack:
            forced, after = g.forced_run(stack)
            if forced:
                ids = self.encode(forced)
                if used + len(ids) + self._need(after) > max_tokens:
                    break
                pending += ids
                guard.extend(ids)
                parts.append(forced)
                used += len(ids)
                stack = after
                if not stack:
                    return "".join(parts), used
            logits = step(pending)
            choice = self._choose(stack, logits, max_tokens - used - 1)
            if choice is None:
                break
            token, stack = choice
            pending = [token]
            parts.append(self.table.texts[token] or "")
            used += 1
            if guard.add(token):
                break
        if stack:  # out of room, or looping: close everything the shortest way
            closing = g.complete(stack)
            parts.append(closing)
            used += len(self.encode(closing))
        return "".join(parts), used

    def _choose(self, stack: g.Stack, logits: npt.NDArray[np.float32], room: int) -> tuple[int, g.Stack] | None:
        """The best allowed token whose resulting stack can still be closed in ``room`` tokens."""
        candidates = self._allowed(stack)
        if len(candidates) == 0:
            return None
        scores = logits[candidates]

        def ranked() -> Iterator[int]:  # the best almost always fits: rank the rest only when it does not
            yield int(np.argmax(scores))
            yield from (int(position) for position in np.argsort(-scores, kind="stable")[:_RUNNERS_UP])

        for position in ranked():
            token = int(candidates[position])
            after = g.advance_text(stack, self.table.texts[token] or "")
            if after is not None and self._need(after) <= room:
                return token, after
        return None

    def _allowed(self, stack: g.Stack) -> Ids:
        frame = stack[-1]
        if frame[0] == g.STR and frame[2] < frame[1].max_len:
            return self._string_tokens(stack)
        cached = self._caches.allowed.get(stack)
        if cached is None:
            chars = g.next_chars(stack) or frozenset()
            pool = [self.table.by_first[char] for char in sorted(chars) if char in self.table.by_first]
            ids = np.concatenate(pool) if pool else np.zeros(0, dtype=np.int64)
            cached = np.asarray(
                [token for token in ids if g.advance_text(stack, self.table.texts[token] or "") is not None], dtype=np.int64
            )
            self._caches.allowed[stack] = cached
        return cached

    def _string_tokens(self, stack: g.Stack) -> Ids:
        """Inside a string: content that fits, or content closed by a quote and valid syntax."""
        node, chars = stack[-1][1], stack[-1][2]
        room = node.max_len - chars
        parts = [np.flatnonzero(self.table.body & (self.table.length <= room))]
        for tail in self._valid_tails(stack):
            ids, heads = self.table.closing[tail]
            fits = (heads <= room) & (heads + chars >= max(node.min_len, 1))
            parts.append(ids[fits])
        return np.concatenate(parts)

    def _valid_tails(self, stack: g.Stack) -> list[str]:
        """The closing-token tails ('"' and what follows) that the grammar accepts here."""
        key = stack[:-1]
        tails = self._caches.tails.get(key)
        if tails is None:
            tails = [tail for tail in self.table.closing if g.advance_text(key, tail[1:]) is not None]
            self._caches.tails[key] = tails
        return tails

    def _need(self, stack: g.Stack) -> int:
        need = self._caches.need.get(stack)
        if need is None:
            text = g.complete(stack)
            need = len(self.encode(text)) if text else 0
            self._caches.need[stack] = need
        return need
