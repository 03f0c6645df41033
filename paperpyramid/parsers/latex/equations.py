"""Display mathematics and its numbers, as LaTeX prints them.

One :class:`Display` per printed number: an ``equation`` is one; in an ``align``, ``gather`` or
``eqnarray`` every numbered row is one, and unnumbered rows (``\\nonumber``, ``\\notag``) join the
next numbered row (a derivation whose number sits on its last line), or the last one when they
trail it. A starred or unnumbered environment (``\\[ \\]``, ``$$``) is one display without a
number. ``\\tag{}`` wins over the counter; ``\\numberwithin{equation}{section}`` (or a
``\\theequation`` that prints ``\\thesection``) numbers "2.3"; ``subequations`` numbers "3a", "3b".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperpyramid.parsers.latex.scan import read_group, skip_space, split_top_level

__all__ = ["DISPLAY_ENVIRONMENTS", "Display", "EquationCounter", "displays"]

#: display environments; ``True``: rows are numbered one by one
DISPLAY_ENVIRONMENTS = {
    "equation": False, "align": True, "eqnarray": True, "gather": True, "multline": False, "flalign": True,
    "alignat": True, "dmath": False, "dgroup": True, "displaymath": False, "IEEEeqnarray": True, "math": False,
}  # fmt: skip
_UNNUMBERED = frozenset({"displaymath", "math", "\\[", "$$"})
_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
_NO_NUMBER = re.compile(r"\\(?:nonumber|notag)(?![A-Za-z])")
_TAG = re.compile(r"\\tag\*?\s*\{")


@dataclass
class Display:
    latex: str
    number: str | None
    labels: list[str] = field(default_factory=list)


@dataclass
class EquationCounter:
    """The equation counter: per document, or per section with ``within_section``."""

    within_section: bool = False
    count: int = 0
    section: str = ""
    sub_parent: str | None = None  # inside subequations: the number its rows share
    sub_count: int = 0
    separator: str = "."  # "2.3"; revtex's appendix prints "A3"

    def new_section(self, number: str | None) -> None:
        if self.within_section and number is not None:
            self.section = number
            self.count = 0

    def begin_subequations(self) -> None:
        self.sub_parent = self.next()
        self.sub_count = 0

    def end_subequations(self) -> None:
        self.sub_parent = None

    def next(self) -> str:
        if self.sub_parent is not None:
            self.sub_count += 1
            return f"{self.sub_parent}{chr(ord('a') + (self.sub_count - 1) % 26)}"
        self.count += 1
        return f"{self.section}{self.separator}{self.count}" if self.within_section and self.section else str(self.count)


def displays(environment: str, body: str, counter: EquationCounter) -> list[Display]:
    """The displays of one environment (``environment`` without its star; ``\\[`` or ``$$``)."""
    starred = environment.endswith("*")
    name = environment.rstrip("*")
    numbered = not starred and name not in _UNNUMBERED
    if name == "alignat" or name == "IEEEeqnarray":
        at = skip_space(body, 0)
        if at < len(body) and body[at] == "{":
            _, at = read_group(body, at)  # alignat's column count, IEEEeqnarray's spec
            body = body[at:]
    rows = split_top_level(body, "\\\\") if DISPLAY_ENVIRONMENTS.get(name) else [body]
    rows = [row for row in rows if row.strip() and _clean(row).strip()]
    if not rows:
        return []
    groups: list[tuple[list[str], str | None, list[str]]] = []
    waiting: list[str] = []
    waiting_labels: list[str] = []
    for row in rows:
        tag = _tag(row)
        waiting.append(_clean(row))
        waiting_labels.extend(_LABEL.findall(row))
        if tag is None and not (numbered and not _NO_NUMBER.search(row)):
            continue
        groups.append((waiting, tag if tag is not None else counter.next(), waiting_labels))
        waiting, waiting_labels = [], []
    if waiting and groups:  # rows after the last number belong to it
        groups[-1][0].extend(waiting)
        groups[-1][2].extend(waiting_labels)
    elif waiting:
        groups.append((waiting, None, waiting_labels))
    return [Display(_join(group_rows), number, labels) for group_rows, number, labels in groups]


def _tag(row: str) -> str | None:
    match = _TAG.search(row)
    if match is None:
        return None
    content, _ = read_group(row, match.end() - 1)
    return content.strip()


def _clean(row: str) -> str:
    row = _LABEL.sub("", row)
    row = _NO_NUMBER.sub("", row)
    while (match := _TAG.search(row)) is not None:
        _, end = read_group(row, match.end() - 1)
        row = row[: match.start()] + row[end:]
    return " ".join(row.split())


def _join(rows: list[str]) -> str:
    rows = [row.strip() for row in rows if row.strip()]
    if len(rows) == 1 and len(split_top_level(rows[0], "&")) == 1:
        return rows[0]
    return "\\begin{aligned} " + " \\\\ ".join(rows) + " \\end{aligned}"
