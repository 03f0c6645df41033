"""Numbered display equations scored against a LaTeX gold: how many the source numbers, and
whether the stored formulas carry those numbers in order.

The gold count is read from the source on its own terms, without the parser's code: every
unstarred ``equation``, ``multline`` (one number each), and each row of an unstarred ``align``,
``eqnarray``, ``gather``, ``alignat`` or ``flalign`` that holds no ``\\nonumber``/``\\notag``. A
``\\tag`` counts (it is printed in place of a number). ``subequations`` and numbering within
sections change the numbers, not their count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db.queries import parse_eval
from paperpyramid.db.sqlite import Connection

_ROWS = ("align", "eqnarray", "gather", "alignat", "flalign")
_SINGLE = ("equation", "multline")
_ENVIRONMENT = re.compile(r"\\begin\{(" + "|".join(_ROWS + _SINGLE) + r")\}(.*?)\\end\{\1\}", re.S)
_COMMENT = re.compile(r"(?<!\\)%.*$", re.M)
_ROW_BREAK = re.compile(r"\\\\(?:\[[^\]]*\])?")


@dataclass(frozen=True, slots=True)
class FormulaScore:
    """One paper: the displays its source numbers, the stored formulas with a number, and
    whether the stored numbers read 1, 2, 3, ... as far as they are plain counts."""

    pdf: str
    gold_numbered: int
    stored_numbered: int
    labels: tuple[str, ...]


def gold_numbered_displays(tex: str) -> int:
    """The displays ``tex`` numbers (see the module docstring)."""
    text = _COMMENT.sub("", tex)
    count = 0
    for environment, body in _ENVIRONMENT.findall(text):
        if environment in _SINGLE:
            count += 0 if re.search(r"\\(?:nonumber|notag)\b", body) and not re.search(r"\\tag\b", body) else 1
            continue
        rows = [row for row in _ROW_BREAK.split(body) if row.strip()]
        count += sum(1 for row in rows if not re.search(r"\\(?:nonumber|notag)\b", row) or re.search(r"\\tag\b", row))
    return count


def stored_labels(conn: Connection, article_id: str) -> tuple[str, ...]:
    """The printed numbers of an article's stored formulas, in stored order."""
    return parse_eval.formula_labels(conn, article_id)


def score(pdf: str, tex_path: Path, conn: Connection, article_id: str) -> FormulaScore:
    labels = stored_labels(conn, article_id)
    raw = tex_path.read_bytes().decode("utf-8", errors="replace")
    return FormulaScore(pdf, gold_numbered_displays(raw), len(labels), labels)


def render(scores: list[FormulaScore]) -> list[str]:
    if not scores:
        return []
    lines = ["", "numbered display equations against the LaTeX gold (gold: numbered rows in the source; stored: formulas with a number):"]
    for item in scores:
        shown = ", ".join(item.labels[:14]) + (" …" if len(item.labels) > 14 else "")
        lines.append(f"  {item.pdf}: gold {item.gold_numbered}, stored {item.stored_numbered}  [{shown}]")
    return lines


__all__ = ["FormulaScore", "gold_numbered_displays", "render", "score", "stored_labels"]
