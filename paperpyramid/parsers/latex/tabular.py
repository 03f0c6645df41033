"""A ``tabular`` to rows of cells.

Rows split at ``\\\\``, cells at ``&``, both outside braces; rules (``\\hline``, booktabs'
``\\toprule``...) go. A ``\\multicolumn{n}`` cell is its text followed by n-1 empty cells and a
``\\multirow`` cell is its text in its first row, the rows below keeping the empty cells the
source already has, as the JATS parser pads spans, so every row is as wide as the widest.
"""

from __future__ import annotations

import re

from paperpyramid.parsers.latex.scan import find_end, read_group, read_optional, skip_space, split_top_level
from paperpyramid.parsers.latex.text import TextContext, plain

__all__ = ["tabular_cells", "find_tabulars"]

_TABULAR = re.compile(r"\\begin\s*\{(tabular\*?|tabularx|tabulary|longtable|array|supertabular|xtabular|tblr)\}")
# rules and row settings, with their arguments: booktabs' rules take an optional width only, so a
# group after ``\toprule`` is the first cell's text (``\toprule {\small 1:} & ...``), not an argument
_RULES = re.compile(
    r"\\(?:(?:hline|toprule|midrule|bottomrule|endhead|endfirsthead|endfoot|endlastfoot|addlinespace|morecmidrules|hdashline)"
    r"\b\*?(?:\s*\[[^\]]*\])?"
    r"|(?:hhline|specialrule|cmidrule|cline|cdashline|Xhline|rowcolor|arrayrulecolor)\b\*?(?:\([^)]*\))?(?:\s*\[[^\]]*\])?(?:\s*\{[^{}]*\})*)"
)
_MAX_SPAN = 100  # \multicolumn{1000000}{...} must not become a million empty cells


def find_tabulars(text: str) -> list[str]:
    """The bodies (after the column spec) of the tabulars in ``text``, outermost only."""
    bodies: list[str] = []
    index = 0
    while (match := _TABULAR.search(text, index)) is not None:
        name = match.group(1)
        at = match.end()
        if name in ("tabular*", "tabularx", "tabulary"):
            _, at = read_group(text, skip_space(text, at))  # the width
        _, at = read_optional(text, at)
        spec_at = skip_space(text, at)
        if spec_at < len(text) and text[spec_at] == "{":
            _, at = read_group(text, spec_at)
        end, after = find_end(text, name, at)
        bodies.append(text[at:end])
        index = after
    return bodies


def tabular_cells(body: str, context: TextContext | None = None) -> list[list[str]]:
    """Rows of cell text of one tabular's body."""
    context = context or TextContext()
    grid: list[list[str]] = []
    for row in split_top_level(body, "\\\\"):
        row = _RULES.sub(" ", row)
        if not row.strip():
            continue
        cells: list[str] = []
        for cell in split_top_level(row, "&"):
            text, span = _cell(cell.strip(), context)
            cells.append(text)
            cells.extend([""] * (span - 1))
        if any(cells) or len(cells) > 1:
            grid.append(cells)
    width = max((len(row) for row in grid), default=0)
    return [row + [""] * (width - len(row)) for row in grid]


def _cell(cell: str, context: TextContext) -> tuple[str, int]:
    span = 1
    while True:
        match = re.match(r"\\(multicolumn|multirow|makecell|shortstack|thead)\*?\s*", cell)
        if match is None:
            break
        at = match.end()
        if match.group(1) == "multicolumn":
            count, at = read_group(cell, skip_space(cell, at))
            _, at = read_group(cell, skip_space(cell, at))  # the column spec
            span = min(max(int(count.strip()), 1), _MAX_SPAN) if count.strip().isdigit() else 1
        elif match.group(1) == "multirow":
            _, at = read_group(cell, skip_space(cell, at))  # the number of rows
            _, at = read_optional(cell, at)
            _, at = read_group(cell, skip_space(cell, at))  # the width
        else:
            _, at = read_optional(cell, at)
        content_at = skip_space(cell, at)
        if content_at < len(cell) and cell[content_at] == "{":
            content, _ = read_group(cell, content_at)
            cell = content.strip()
        else:
            cell = cell[content_at:]
    return plain(cell.replace("\\\\", " "), context), span
