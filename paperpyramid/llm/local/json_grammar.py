"""The JSON texts of a schema (:mod:`.json_schema`), as a character-level pushdown machine.

A :data:`Stack` of frames (a plain tuple, so it can be hashed and cached) says what may come
next; :func:`advance` consumes one character or refuses it. The layout is fixed
(``{"key": value, "key": value}``, ``[a, b]``), so keys, colons and commas leave no choice and
:func:`forced_run` emits them without asking the model; :func:`complete` is the shortest text that
closes a stack, which the decoder keeps room for so that every answer ends as valid JSON.
Strings hold no escapes, control characters or backslashes.
"""

from __future__ import annotations

from typing import Any

from paperpyramid.llm.local.json_schema import DIGITS, Arr, Lit, Node, Num, Obj, Str, first_chars, minimal

MAX_DIGITS = 6  # integer digits: page numbers and counts, not cryptography
MAX_FRACTION = 4

# frames: (LIT, text, pos) (VAL, node) (STR, node, chars) (NUM, node, phase, digits) (ARR, node, items) (OPT, options, pos)
LIT, VAL, STR, NUM, ARR, OPT = range(6)
# number phases
_START, _SIGN, _ZERO, _INT, _DOT, _FRAC = range(6)
Frame = tuple[Any, ...]
Stack = tuple[Frame, ...]


def start(node: Node) -> Stack:
    return ((VAL, node),)


def is_body_char(char: str) -> bool:
    return char not in '"\\' and " " <= char != "\x7f"


def advance(stack: Stack | None, char: str) -> Stack | None:
    """The stack after ``char``, or None where the schema does not allow it."""
    while stack:
        frame, rest = stack[-1], stack[:-1]
        kind = frame[0]
        if kind == LIT:
            text, pos = frame[1], frame[2]
            if text[pos] != char:
                return None
            return rest if pos + 1 == len(text) else (*rest, (LIT, text, pos + 1))
        if kind == STR:
            node, chars = frame[1], frame[2]
            if char == '"':
                return rest if chars >= node.min_len else None
            return (*rest, (STR, node, chars + 1)) if chars < node.max_len and is_body_char(char) else None
        if kind == NUM:
            moved = _number_step(frame, char)
            if moved is not None:
                return (*rest, moved)
            if not _number_complete(frame):
                return None
            stack = rest
            continue
        if kind == ARR:
            node, items = frame[1], frame[2]
            if char == "]" and items >= node.min_items:
                return rest
            if items == 0 and node.max_items != 0:
                stack = (*rest, (ARR, node, 1), (VAL, node.item))
                continue
            if char == "," and items > 0 and items < node.max_items:
                return (*rest, (ARR, node, items + 1), (VAL, node.item), (LIT, " ", 0))
            return None
        if kind == OPT:
            options, pos = frame[1], frame[2]
            matching = tuple(option for option in options if option[pos] == char)
            if not matching:
                return None
            if any(len(option) == pos + 1 for option in matching):
                return rest
            return (*rest, (OPT, matching, pos + 1))
        stack = _expand(frame[1], rest, char)
    return None


def _expand(node: Node, rest: Stack, char: str) -> Stack | None:
    if isinstance(node, Obj):
        if not node.keys:
            return (*rest, (LIT, "{}", 0))
        frames: list[Frame] = [(LIT, "}", 0)]
        for index in range(len(node.keys) - 1, -1, -1):
            frames.append((VAL, node.values[index]))
            frames.append((LIT, ("{" if index == 0 else ", ") + node.keys[index] + ": ", 0))
        return (*rest, *frames)
    if isinstance(node, Arr):
        return (*rest, (ARR, node, 0), (LIT, "[", 0))
    if isinstance(node, Str):
        return (*rest, (STR, node, 0), (LIT, '"', 0))
    if isinstance(node, Num):
        return (*rest, (NUM, node, _START, 0))
    if isinstance(node, Lit):
        return (*rest, (OPT, node.options, 0))
    for branch in node.branches:
        if char in first_chars(branch):
            return (*rest, (VAL, branch))
    return None


def _number_step(frame: Frame, char: str) -> Frame | None:
    node, phase, digits = frame[1], frame[2], frame[3]
    digit = char in DIGITS
    if phase in (_START, _SIGN):
        if char == "-" and phase == _START and node.negative:
            return (NUM, node, _SIGN, 0)
        if digit and char != "0":
            return (NUM, node, _INT, 1)
        return (NUM, node, _ZERO, 1) if char == "0" and not node.positive else None
    if phase in (_ZERO, _INT):
        if digit and phase == _INT and digits < MAX_DIGITS:
            return (NUM, node, _INT, digits + 1)
        return (NUM, node, _DOT, 0) if char == "." and not node.integer else None
    if digit and digits < MAX_FRACTION:
        return (NUM, node, _FRAC, digits + 1)
    return None


def _number_complete(frame: Frame) -> bool:
    return bool(frame[2] in (_ZERO, _INT, _FRAC))


def advance_text(stack: Stack | None, text: str) -> Stack | None:
    for char in text:
        stack = advance(stack, char)
        if stack is None:
            return None
    return stack


def next_chars(stack: Stack) -> frozenset[str] | None:
    """The characters that may come next; None inside a string (any body character or the quote)."""
    if not stack:
        return frozenset()
    frame = stack[-1]
    kind = frame[0]
    if kind == LIT:
        return frozenset(frame[1][frame[2]])
    if kind == STR:
        return frozenset('"') if frame[2] >= frame[1].max_len else None
    if kind == VAL:
        return frozenset(first_chars(frame[1]))
    if kind == OPT:
        return frozenset(option[frame[2]] for option in frame[1])
    if kind == ARR:
        node, items = frame[1], frame[2]
        chars = {"]"} if items >= node.min_items else set()
        if items == 0 and node.max_items != 0:
            chars |= first_chars(node.item)
        elif items > 0 and items < node.max_items:
            chars.add(",")
        return frozenset(chars)
    chars = {char for char in "-.0123456789" if _number_step(frame, char) is not None}
    if _number_complete(frame):
        chars |= next_chars(stack[:-1]) or set()
    return frozenset(chars)


def forced_run(stack: Stack) -> tuple[str, Stack]:
    """The text that must come next whatever the model prefers, and the stack after it."""
    text: list[str] = []
    while stack:
        chars = next_chars(stack)
        if chars is None or len(chars) != 1:
            break
        (char,) = chars
        moved = advance(stack, char)
        if moved is None:  # a number that must end, at the end of the document
            break
        text.append(char)
        stack = moved
    return "".join(text), stack


def complete(stack: Stack) -> str:
    """The shortest text that closes every open value on the stack."""
    parts: list[str] = []
    for frame in reversed(stack):
        kind = frame[0]
        if kind == LIT:
            parts.append(frame[1][frame[2] :])
        elif kind == VAL:
            parts.append(minimal(frame[1]))
        elif kind == STR:
            parts.append(" " * max(0, frame[1].min_len - frame[2]) + '"')
        elif kind == OPT:
            parts.append(min((option[frame[2] :] for option in frame[1]), key=len))
        elif kind == ARR:
            node, items = frame[1], frame[2]
            missing = max(0, node.min_items - items)
            parts.append(("" if items == 0 else ", ") * bool(missing) + ", ".join([minimal(node.item)] * missing) + "]")
        else:
            phase = frame[2]
            parts.append("1" if phase in (_START, _SIGN) and frame[1].positive else "0" if phase in (_START, _SIGN, _DOT) else "")
    return "".join(parts)
