"""The embedded parser's display equations on generated pages, against their gold.

A stored formula is paired with the gold display whose box it overlaps most (on the same
page and in the same column, by height: displays are stacked, so vertical overlap is what
tells them apart). The
measures, over the gold displays:

- **found**: a formula overlaps the display;
- **one**: exactly one formula overlaps it, and that formula overlaps no other display (not
  split into pieces, not run into its neighbour);
- **label**: the formula's printed number is the gold's (an unnumbered display: no number);
- **glyphs**: the share of the display's printed characters, as a multiset, in the paired
  formula's text (spaces and the ``^{…}`` / ``_{…}`` / ``(…)/(…)`` notation aside).

Formulas that overlap no display are false: prose, a heading, a plot's labels.
"""

from __future__ import annotations

import statistics
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.synthetic.display_papers import DisplayGold, generate_displays
from benchmarks.synthetic.splits import SPLITS, SplitName
from paperpyramid.document import Document, Formula

__all__ = ["DisplayResult", "render_displays", "run_displays", "score_displays"]

Parser = Callable[[Path], Document]


@dataclass(frozen=True)
class DisplayResult:
    """One paper's figures: per gold display (found, one, label right, glyph recall), and the false formulas."""

    seed: int
    displays: tuple[tuple[bool, bool, bool, float], ...]
    false_formulas: tuple[str, ...]
    error: str | None = None


def _vertical(formula: Formula, gold: DisplayGold) -> float:
    if formula.page != gold.page or formula.bbox is None:
        return 0.0
    x0, top, x1, bottom = formula.bbox
    if min(x1, gold.x1) <= max(x0, gold.x0):
        return 0.0  # the other column
    shared = min(bottom, gold.bottom) - max(top, gold.top)
    return max(0.0, shared) / max(min(bottom - top, gold.bottom - gold.top), 1.0)


def _glyph_recall(gold: str, text: str) -> float:
    want = Counter(gold)
    have = Counter(ch for ch in text if not ch.isspace())
    return sum(min(count, have[ch]) for ch, count in want.items()) / max(sum(want.values()), 1)


def score_displays(seed: int, gold: Iterable[DisplayGold], formulas: list[Formula]) -> DisplayResult:
    golds = list(gold)
    touches = {index: [g for g, display in enumerate(golds) if _vertical(formula, display) > 0.3] for index, formula in enumerate(formulas)}
    rows: list[tuple[bool, bool, bool, float]] = []
    for g, display in enumerate(golds):
        mine = [index for index, touched in touches.items() if g in touched]
        if not mine:
            rows.append((False, False, False, 0.0))
            continue
        best = max(mine, key=lambda index: _vertical(formulas[index], display))
        one = len(mine) == 1 and touches[best] == [g]
        label = (formulas[best].label or None) == display.label
        rows.append((True, one, label, _glyph_recall(display.glyphs, formulas[best].text)))
    false = tuple(formulas[index].text[:80] for index, touched in touches.items() if not touched)
    return DisplayResult(seed, tuple(rows), false)


def _parse(path: Path) -> Document:
    from paperpyramid.parsers.embedded.parser import parse_pdf

    return parse_pdf(path)


def run_displays(split: SplitName, count: int, *, parse: Parser | None = None, keep: Path | None = None) -> list[DisplayResult]:
    """Generate, parse and score the first ``count`` papers of ``split``; a parse that raises is the paper's error."""
    parse = parse or _parse
    results = []
    with tempfile.TemporaryDirectory(prefix="paperpyramid-displays-") as scratch:
        folder = keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for seed in SPLITS[split].seeds[:count]:
            pdf, gold = generate_displays(seed)
            path = folder / f"{split}-{seed}-displays.pdf"
            path.write_bytes(pdf)
            try:
                document = parse(path)
            except Exception as exc:  # a paper's failure is its result; the run goes on
                results.append(
                    DisplayResult(seed, tuple((False, False, False, 0.0) for _ in gold.displays), (), f"{type(exc).__name__}: {exc}")
                )
                continue
            results.append(score_displays(seed, gold.displays, document.formulas))
    return results


def render_displays(split: str, results: list[DisplayResult]) -> list[str]:
    rows = [row for result in results for row in result.displays]
    if not rows:
        return [f"{split}: no displays"]

    def share(index: int) -> float:
        return sum(1 for row in rows if row[index]) / len(rows)

    found = [row[3] for row in rows if row[0]]
    false = sum(len(result.false_formulas) for result in results)
    errors = sum(1 for result in results if result.error)
    return [
        f"unseen displays ({split}, generated): {len(rows)} displays in {len(results)} papers",
        f"  found {share(0):.2f}, one formula each {share(1):.2f}, number right {share(2):.2f}, "
        f"glyph recall {statistics.fmean(found) if found else 0.0:.2f} (of those found); false formulas {false}; parse errors {errors}",
    ]
