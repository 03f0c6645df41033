"""Small readers the body walk uses: captions of a float, items of a list, the end of inline
math, appendix letters."""

from __future__ import annotations

import re

from paperpyramid.parsers.latex.scan import read_group, read_optional, skip_space

__all__ = ["captions", "inline_math_end", "letter", "rest_label", "split_items"]


def rest_label(body: str) -> str:
    label = re.match(r"\s*(?:\[[^\]]*\])?\s*\\label\s*\{[^{}]*\}", body)
    return label.group() if label else ""


def letter(number: int) -> str:
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def inline_math_end(text: str, index: int) -> int:
    while True:
        end = text.find("$", index)
        if end < 0:
            return len(text)
        if text[end - 1] == "\\" and text[end - 2 : end] != "\\\\":
            index = end + 1
            continue
        return end + 1


def captions(body: str) -> list[str]:
    found: list[str] = []
    for match in re.finditer(r"\\(?:sub)?caption(?:of)?(?![A-Za-z])\*?", body):
        if match.group().startswith("\\sub"):
            continue
        _, index = read_optional(body, match.end())
        at = skip_space(body, index)
        if at < len(body) and body[at] == "{":
            content, _ = read_group(body, at)
            found.append(content)
    return found


def split_items(body: str) -> list[tuple[str | None, str]]:
    """The ``\\item``s of a list at its own level (a nested list stays in its item)."""
    items: list[tuple[str | None, str]] = []
    depth = 0
    starts: list[int] = []
    for match in re.finditer(r"\\begin\s*\{|\\end\s*\{|\\item(?![A-Za-z])", body):
        token = match.group()
        if token.startswith("\\begin"):
            depth += 1
        elif token.startswith("\\end"):
            depth -= 1
        elif depth == 0:
            starts.append(match.start())
    for number, start in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else len(body)
        label, at = read_optional(body, start + len("\\item"))
        items.append((label, body[at:stop]))
    return items
