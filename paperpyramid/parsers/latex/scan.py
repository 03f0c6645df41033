"""Reading LaTeX by hand: brace groups, optional arguments, environments, top-level splits.

Every reader takes the text and an index and returns what it read and the index after it;
none of them raises on unbalanced input (an author's source is often a little broken), they
take the rest of the text instead.
"""

from __future__ import annotations

import re

__all__ = [
    "COMMENT",
    "find_end",
    "read_argument",
    "read_group",
    "read_optional",
    "skip_space",
    "split_top_level",
    "strip_comments",
]

COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%.*(?:\n[ \t]*)?")
_COMMENT_LINE = re.compile(r"^[ \t]*%.*\n", re.MULTILINE)


def strip_comments(text: str) -> str:
    """Drop ``%`` comments (``\\%`` stays) with their line end and the next line's indent, as TeX
    does; a line that is only a comment goes whole, so it does not break a paragraph in two."""
    text = _COMMENT_LINE.sub("", text)
    return COMMENT.sub(r"\1", text)


def skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\n":
        index += 1
    return index


def read_group(text: str, start: int) -> tuple[str, int]:
    """The content of the brace group opening at ``text[start]`` and the index after it."""
    depth = 0
    index = start
    length = len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : index], index + 1
        index += 1
    return text[start + 1 :], length


def read_optional(text: str, index: int) -> tuple[str | None, int]:
    """An optional ``[...]`` argument at ``index`` (after spaces), braces inside respected."""
    at = skip_space(text, index)
    if at >= len(text) or text[at] != "[":
        return None, index
    depth = 0
    cursor = at + 1
    while cursor < len(text):
        char = text[cursor]
        if char == "\\":
            cursor += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "]" and depth <= 0:
            return text[at + 1 : cursor], cursor + 1
        cursor += 1
    return None, index


_CONTROL_WORD = re.compile(r"\\(?:[A-Za-z@]+|.)")


def read_argument(text: str, index: int) -> tuple[str, int]:
    """A mandatory argument: a brace group, else one control sequence or one character."""
    at = skip_space(text, index)
    if at >= len(text):
        return "", at
    if text[at] == "{":
        return read_group(text, at)
    if text[at] == "\\":
        match = _CONTROL_WORD.match(text, at)
        if match:
            return match.group(), match.end()
    return text[at], at + 1


def find_end(text: str, name: str, start: int) -> tuple[int, int]:
    """Where the ``\\end{name}`` closing an environment whose body starts at ``start`` begins and
    ends; nested environments of the same name are counted. Unclosed: the text's end."""
    pattern = re.compile(r"\\(begin|end)\s*\{" + re.escape(name) + r"\}")
    depth = 1
    for match in pattern.finditer(text, start):
        depth += 1 if match.group(1) == "begin" else -1
        if depth == 0:
            return match.start(), match.end()
    return len(text), len(text)


def split_top_level(text: str, separator: str) -> list[str]:
    """Split at ``separator`` (``"\\\\"`` or ``"&"``) where it is outside braces and nested
    environments (a ``cases`` inside an ``align`` row keeps its rows)."""
    parts: list[str] = []
    depth = 0
    last = 0
    index = 0
    length = len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            if text.startswith("\\begin", index):
                depth += 1
                index += 6
                continue
            if text.startswith("\\end", index):
                depth -= 1
                index += 4
                continue
            if separator == "\\\\" and text.startswith("\\\\", index) and depth == 0:
                parts.append(text[last:index])
                index += 2
                # \\[2pt] and \\* are spacing, not text
                if index < length and text[index] == "*":
                    index += 1
                optional, after = read_optional(text, index)
                if optional is not None and re.fullmatch(r"\s*-?[\d.]+\s*\w*\s*", optional):
                    index = after
                last = index
                continue
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[last:index])
            last = index + 1
        index += 1
    parts.append(text[last:])
    return parts
