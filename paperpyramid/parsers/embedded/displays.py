"""Display equations found from where and how they are set, not from their fonts.

A display is set apart from the running text of its column: indented from the column's left
edge and short of its right edge (or numbered at that edge), a few words at most, with a
relation or an operator in it, and running text a few lines above or below. pdfium cuts it
into pieces wherever the baseline moves: sub- and superscripts, the numerator and the
denominator of a fraction, each a line of its own. The pieces of one display row fill each
other's holes (a superscript sits after its base, a fraction between the signs around it),
while the rows of an aligned system, or the lines of a paragraph, lie over each other; that
is how the pieces are gathered (:func:`_clusters`).

A display row found so becomes one :class:`Line` tagged ``display``, its text read in
printed order with scripts as ``^{…}`` / ``_{…}`` and fractions as ``(…)/(…)``, its number
(``(3)``, ``(2.1)``, ``(A4)``) in the tag ``label:…``. LaTeX is not guessed here: only a
source that has it (Nougat, JATS, LaTeX) gives a formula its LaTeX.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, partial
from statistics import median

from paperpyramid.parsers.embedded.layout import Line, LineGroup

__all__ = ["DISPLAY", "display_label", "set_displays"]

Box = tuple[float, float, float, float]

#: the tag of a display row's line
DISPLAY = "display"
_LABEL_TAG = "label:"

_LABEL = re.compile(r"\(\s*([A-Z]?\d{1,3}[a-z]?(?:\.\d{1,3})?)\s*\)")
_RELATIONS = set("=<>≤≥≈∼≃≅≡∝≠≪≫→⇒⇔↦∈∉⊂⊆⊃⊇≺≻")
_OPERATORS = set("+−–×·/±∓∑∏∫∂∇√^")
_LONG_WORD = re.compile(r"[^\W\d_]{4,}")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_FUNCTIONS = {
    "exp",
    "log",
    "sin",
    "cos",
    "tan",
    "max",
    "min",
    "sup",
    "inf",
    "lim",
    "arg",
    "argmax",
    "argmin",
    "softmax",
    "sign",
    "tanh",
    "sinh",
    "cosh",
    "diag",
    "trace",
}
_PROSE_WORDS = re.compile(
    r"\b(?:the|that|then|this|these|which|where|since|we|is|are|be|of|to|and|with|it|if|for|in|on|by|as|an|or)\b", re.I
)


#: glyphs without a Unicode meaning: math extension fonts' delimiter pieces (private use) and control codes
_UNMAPPED = re.compile("[\x00-\x08\x0b-\x1f\ue000-\uf8ff]")


class _Band(LineGroup):
    """Lines of one column that share a baseline band."""


def display_label(line: Line) -> str | None:
    """The printed number of a display row's line, if it has one."""
    return next((tag[len(_LABEL_TAG) :] for tag in line.tags if tag.startswith(_LABEL_TAG)), None)


def set_displays(lines: list[Line], body_size: float, graphics: Callable[[], Sequence[Box]] = tuple) -> list[Line]:
    """The page's reading-ordered ``lines`` with each display row found from layout merged into
    one line tagged :data:`DISPLAY` (see the module's doc); other lines are kept as they are.
    ``graphics`` gives the page's drawings and images (:func:`layout.page_graphics`), asked
    only where a display candidate is found: text inside one that holds no running text is a
    figure's (a legend "SNR = 8.3 dB"), not a display."""
    merged: dict[int, Line] = {}  # id of a display's first line in reading order -> its merged line
    dropped: set[int] = set()
    position = {id(line): index for index, line in enumerate(lines)}
    drawn = cache(graphics)  # read once for the page, and only if a column asks
    by_column: dict[int, list[Line]] = {}
    for line in lines:
        if not line.vertical and "aside" not in line.tags:
            by_column.setdefault(line.column, []).append(line)
    for column in by_column.values():
        edges = _edges(column)
        if edges is None:
            continue
        clusters = _clusters(_bands(column), body_size)
        figures_of = partial(_figures, drawn, column, edges)
        for cluster in _in_running_text(clusters, edges, body_size, figures_of):
            members = [line for band in cluster for line in band.lines]
            first = min(members, key=lambda line: position[id(line)])
            merged[id(first)] = _merge(members, edges[1], body_size)
            dropped.update(id(line) for line in members if line is not first)
    return [merged.get(id(line), line) for line in lines if id(line) not in dropped]


def _edges(column: list[Line]) -> tuple[float, float] | None:
    """The left and right edges of a column's running text: None where it has too little."""
    widest = max(line.width for line in column)
    full = [line for line in column if line.width >= 0.7 * widest and len(line.text) >= 30]
    if len(full) < 3:
        return None
    return median(line.x0 for line in full), median(line.x1 for line in full)


def _bands(column: list[Line]) -> list[_Band]:
    bands: list[_Band] = []
    anchor: Line | None = None  # the band's tallest line (the first of them)
    for line in sorted(column, key=lambda item: (item.top, item.x0)):
        if anchor is not None and abs(line.mid_y - anchor.mid_y) < max(anchor.height, line.height, 1.0) * 0.4:
            bands[-1].lines.append(line)
            anchor = line if line.height > anchor.height else anchor
        else:
            bands.append(_Band([line]))
            anchor = line
    return bands


def _overlap(a: list[Line], b: list[Line]) -> float:
    """How much of the narrower side's width the lines of ``a`` and ``b`` print over each other."""
    shared = sum(max(0.0, min(x.x1, y.x1) - max(x.x0, y.x0)) for x in a for y in b)
    return shared / max(min(sum(x.width for x in a), sum(y.width for y in b)), 1.0)


def _clusters(bands: list[_Band], body_size: float) -> list[list[_Band]]:
    """Bands gathered into display-row candidates: a band joins the cluster above it when it
    touches one of its bands (overlapping it in height, or less than a sixth of the type size
    below it) and fills that band's holes rather than prints over it: a script beside its
    base, a fraction's numerator or denominator beside the signs around it."""
    clusters: list[list[_Band]] = []
    for band in bands:
        if clusters and any(_beside(other, band, body_size) for other in clusters[-1]):
            clusters[-1].append(band)
        else:
            clusters.append([band])
    return clusters


def _beside(above: _Band, band: _Band, body_size: float) -> bool:
    touching = band.top - above.bottom <= body_size / 6 and above.top - band.bottom <= body_size / 6
    if not touching:
        return False
    # the pieces of a tall bracket are stacked over each other: they take no part in the test
    mine, theirs = [line for line in band.lines if not _filler(line)], [line for line in above.lines if not _filler(line)]
    return not mine or not theirs or _overlap(theirs, mine) <= 0.2


def _filler(line: Line) -> bool:
    """A piece of a bracket or a bar: only delimiters, or glyphs without a Unicode meaning."""
    return not _DELIMITERS.sub("", _UNMAPPED.sub("", line.text)).strip()


_DELIMITERS = re.compile(r"[()\[\]{}|‖⟨⟩⌈⌉⌊⌋⎛-⎿∣∥√∑∏∫]")


def _content(cluster: list[_Band], right: float, body_size: float) -> tuple[list[Line], Line | None]:
    """The cluster's lines without its number, and the number's line (at the right edge)."""
    lines = [line for band in cluster for line in band.lines]
    labels = [line for line in lines if _LABEL.fullmatch(line.text.strip()) and line.x1 >= right - 1.5 * body_size]
    label = max(labels, key=lambda line: line.x1) if labels else None
    rest = [line for line in lines if line is not label]
    if label is not None and rest and label.x0 - max(line.x1 for line in rest) < body_size:
        return lines, None  # "(3)" set close after the text: a citation or a list mark, not a number
    return rest, label


def _looks_displayed(cluster: list[_Band], edges: tuple[float, float], body_size: float) -> bool:
    left, right = edges
    content, label = _content(cluster, right, body_size)
    if not content:
        return False
    text = " ".join(line.text for line in sorted(content, key=lambda line: line.x0))
    main = max(content, key=lambda line: (line.size, len(line.text)))
    if main.size > 1.25 * body_size or all(line.bold for line in content) or len(text) > 200:
        return False
    x0, x1 = min(line.x0 for line in content), max(line.x1 for line in content)
    set_apart = x0 - left >= 1.5 * body_size and (right - x1 >= 1.5 * body_size or label is not None)
    if not set_apart:
        return False
    words = [word for word in _LONG_WORD.findall(text) if word.lower() not in _FUNCTIONS]
    if len(words) > 3 or len(words) + len(_PROSE_WORDS.findall(text)) >= 3 or len(_PROSE_WORDS.findall(text)) > 1:
        return False  # a sentence with mathematics in it
    full_size = " ".join(line.text for line in content if line.size >= 0.85 * main.size)  # not the exponents
    if len(_NUMBER.findall(full_size)) >= 5 or sum(text.count(ch) for ch in "#$%@?;!&'\"") >= 2:
        return False  # a plot's tick labels; glyphs read through a font without a Unicode map
    if _table_row(content, body_size):
        return False
    relation = any(ch in _RELATIONS for ch in text)
    operator = any(ch in _OPERATORS for ch in text)
    return relation or (label is not None and (operator or len(cluster) > 1))


def _table_row(content: list[Line], body_size: float) -> bool:
    """Cells of a table row: pieces two and a half ems apart with nothing between them, a
    number after the gap or words before it ("Page width > height    0.28M")."""
    segments: list[list[Line]] = []
    for line in sorted(content, key=lambda item: item.x0):
        if segments and line.x0 - max(item.x1 for item in segments[-1]) < 2.5 * body_size:
            segments[-1].append(line)
        else:
            segments.append([line])
    if len(segments) < 2:
        return False
    first = " ".join(line.text for line in segments[0])
    later = [" ".join(line.text for line in segment) for segment in segments[1:]]
    return len(_LONG_WORD.findall(first)) >= 2 or any(_CELL_NUMBER.fullmatch(text.strip()) for text in later)


_CELL_NUMBER = re.compile(r"[-–−+]?\d[\d.,]*\s*(%|[kKMGB]|±\s*[\d.,]+)?")


def _figures(graphics: Callable[[], Sequence[Box]], column: list[Line], edges: tuple[float, float]) -> list[Box]:
    """The graphics that hold none of the column's running text (a frame round a theorem does)."""
    wide = [line for line in column if line.width >= 0.6 * (edges[1] - edges[0])]
    return [box for box in graphics() if not any(_inside((line.x0, line.top, line.x1, line.bottom), box) for line in wide)]


def _inside(box: Box, outer: Box) -> bool:
    return box[0] >= outer[0] - 2 and box[1] >= outer[1] - 2 and box[2] <= outer[2] + 2 and box[3] <= outer[3] + 2


def _in_running_text(
    clusters: list[list[_Band]], edges: tuple[float, float], body_size: float, figures_of: Callable[[], Sequence[Box]] = tuple
) -> list[list[_Band]]:
    """The display candidates set in running text: a run of them (the rows of a system) with
    running text within six lines above or below it, and nothing but running text, a heading
    or empty space next to it on either side. A plot's legend has tick labels beside it, a
    table row other rows."""
    candidate = [_looks_displayed(cluster, edges, body_size) for cluster in clusters]
    figures = figures_of() if any(candidate) else ()  # the page's drawings are read only when needed
    candidate = [
        found
        and not any(
            _inside((min(b.x0 for b in cluster), cluster[0].top, max(b.x1 for b in cluster), max(b.bottom for b in cluster)), box)
            for box in figures
        )
        for found, cluster in zip(candidate, clusters, strict=True)
    ]
    reach = 6 * body_size
    kept: list[list[_Band]] = []
    index = 0
    while index < len(clusters):
        if not candidate[index]:
            index += 1
            continue
        end = index
        while end + 1 < len(clusters) and candidate[end + 1]:
            end += 1
        top, bottom = clusters[index][0].top, max(band.bottom for band in clusters[end])
        above = clusters[index - 1] if index > 0 else None
        below = clusters[end + 1] if end + 1 < len(clusters) else None
        near_above = above is not None and top - max(band.bottom for band in above) <= reach
        near_below = below is not None and below[0].top - bottom <= reach
        sides = [(near_above, above), (near_below, below)]
        if all(not near or _text_or_heading(neighbour, edges, body_size) for near, neighbour in sides) and any(
            near and _running_text(neighbour, edges) for near, neighbour in sides
        ):
            kept += clusters[index : end + 1]
        index = end + 1
    return kept


def _running_text(cluster: list[_Band] | None, edges: tuple[float, float]) -> bool:
    if cluster is None:
        return False
    text = " ".join(line.text for band in cluster for line in band.lines)
    wide = any(band.x1 - band.x0 >= 0.6 * (edges[1] - edges[0]) for band in cluster)
    # a paragraph's short last line ("difference of 0.50.") starts at the column's edge
    at_edge = abs(min(band.x0 for band in cluster) - edges[0]) < 3.0 and bool(_LONG_WORD.search(text))
    return wide or at_edge or len(_LONG_WORD.findall(text)) >= 3


def _text_or_heading(cluster: list[_Band] | None, edges: tuple[float, float], body_size: float) -> bool:
    lines = [line for band in cluster or [] for line in band.lines]
    return _running_text(cluster, edges) or all(line.bold for line in lines) or max(line.size for line in lines) > 1.1 * body_size


# --------------------------------------------------------------------------- one row's text


def _merge(members: list[Line], right: float, body_size: float) -> Line:
    """One line for a display row: its text in printed order, its box, its number as a tag."""
    content, label = _content([_Band(members)], right, body_size)
    base_size = max(line.size for line in content)
    levels = _levels([line for line in content if line.size >= 0.85 * base_size or any(ch in _RELATIONS for ch in line.text)])
    main = max(
        levels, key=lambda level: (any(ch in _RELATIONS for line in level for ch in line.text), sum(len(line.text) for line in level))
    )
    home = {id(line): _home(line, levels) for line in content}
    upper = [line for line in content if _home_level(home[id(line)], levels) < levels.index(main)]
    lower = [line for line in content if _home_level(home[id(line)], levels) > levels.index(main)]
    parts = _pieces([line for line in content if home[id(line)] is main])
    for top_group in _runs(upper):
        bottom_group = [line for line in lower if any(_overlap([other], [line]) > 0 for other in top_group)]
        lower = [line for line in lower if not any(line is item for item in bottom_group)]
        text = f"({_read(top_group)})/({_read(bottom_group)})" if bottom_group else _read(top_group)
        parts.append((min(line.x0 for line in top_group + bottom_group), text, False))
    parts += [(min(line.x0 for line in group), _read(group), False) for group in _runs(lower)]
    text = _UNMAPPED.sub("", _joined(parts))
    anchor = max((line for line in content if home[id(line)] is main), key=lambda line: len(line.text))
    line = Line(
        text=re.sub(r"\s+", " ", text).strip(), page=anchor.page, x0=min(item.x0 for item in members), top=min(item.top for item in members),
        x1=max(item.x1 for item in members), bottom=max(item.bottom for item in members), size=anchor.size, bold=False,
        italic=anchor.italic, font=anchor.font, column=anchor.column, tags={DISPLAY} | ({f"{_LABEL_TAG}{_label_text(label)}"} if label else set()),
    )  # fmt: skip
    return line


def _label_text(label: Line) -> str:
    match = _LABEL.fullmatch(label.text.strip())
    return match.group(1) if match else label.text.strip("() ")


def _levels(lines: list[Line]) -> list[list[Line]]:
    """Full-size lines in vertical levels (a numerator, the main row, a denominator): lines
    whose middles lie within two fifths of a line's height, top to bottom."""
    levels: list[list[Line]] = []
    for line in sorted(lines, key=lambda item: item.mid_y):
        level = levels[-1] if levels else None
        if level is not None and line.mid_y - median(item.mid_y for item in level) < 0.4 * max(line.height, 1.0):
            level.append(line)
        else:
            levels.append([line])
    return levels


def _home(line: Line, levels: list[list[Line]]) -> list[Line]:
    """The level a line belongs to: the one whose middle is nearest (a script, its base's)."""
    return min(levels, key=lambda level: abs(median(item.mid_y for item in level) - line.mid_y))


def _home_level(level: list[Line], levels: list[list[Line]]) -> int:
    return next(index for index, item in enumerate(levels) if item is level)


def _runs(lines: list[Line]) -> list[list[Line]]:
    """Lines of one level in runs left to right, cut where a gap of an em parts them (the
    numerators of two fractions side by side)."""
    runs: list[list[Line]] = []
    for line in sorted(lines, key=lambda item: item.x0):
        if runs and line.x0 - max(item.x1 for item in runs[-1]) < max(item.size for item in runs[-1]):
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _pieces(lines: list[Line]) -> list[tuple[float, str, bool]]:
    """(left edge, text, glued to what comes before) of each line of one level: a script
    (smaller, off the middle of the level's largest line, no relation in it) as ^{…} or _{…}."""
    if not lines:
        return []
    base = max(lines, key=lambda line: (line.size, len(line.text)))
    out = []
    for line in lines:
        if line.size < 0.85 * base.size and not any(ch in _RELATIONS for ch in line.text):  # "Stitle =" is no script
            out.append((line.x0, ("^{" if line.mid_y < base.mid_y else "_{") + line.text + "}", True))
        else:
            out.append((line.x0, line.text, False))
    return out


def _joined(parts: list[tuple[float, str, bool]]) -> str:
    text = ""
    for _x, piece, glued in sorted(parts, key=lambda part: part[0]):
        text += piece if glued or not text else " " + piece
    return text


def _read(lines: list[Line]) -> str:
    """A run's text left to right, its scripts marked (:func:`_pieces`)."""
    return _joined(_pieces(lines))
