"""The citation linker on generated citing papers (:mod:`.citing_papers`), against their gold markers.

Each paper is parsed with the embedded parser (or a given ``parse``), its markers linked
(:func:`paperpyramid.citations.markers.link_markers`), and every gold marker looked for on its
page with its printed text: it counts as right when it cites the gold's entries.
"""

from __future__ import annotations

import re
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.synthetic.citing_papers import CITING_STYLES, CitingPaper, generate_citing
from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Document

__all__ = ["SyntheticScore", "render_synthetic", "run_synthetic", "score_synthetic", "synthetic_seeds"]

_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True)
class SyntheticScore:
    """One generated paper: gold markers, predicted citations, and those right (same page, same
    printed text, same entries)."""

    seed: int
    split: str
    style: str
    gold: int
    predicted: int
    correct: int


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def score_synthetic(document: Document, paper: CitingPaper) -> SyntheticScore:
    """Compare a linked parse of a generated paper with its gold markers."""
    titles = [" ".join(_words(entry)) for entry in paper.references]
    entry_of: dict[str, int] = {}
    for reference in document.references:
        raw = " ".join(_words(reference.raw))
        hits = sorted((len(title), index) for index, title in enumerate(titles) if title and title in raw)
        # one title may hold another ("... with X-ray diffraction" and "... with X-ray"): the longest is the entry's
        if reference.key is not None and hits and (len(hits) == 1 or hits[-1][0] > hits[-2][0]):
            entry_of[reference.key] = hits[-1][1]
    predicted = [
        (block.page, _squeeze(block.text[cite.start : cite.end]), tuple(entry_of.get(key, -1) for key in cite.keys))
        for section in document.sections
        for block in section.blocks
        for cite in block.cites
    ]
    unused = list(predicted)
    correct = 0
    for marker in paper.markers:
        for candidate in unused:
            if candidate[0] == marker.page and candidate[1] == _squeeze(marker.text):
                unused.remove(candidate)
                correct += candidate[2] == marker.entries
                break
    return SyntheticScore(paper.seed, paper.split, paper.style, len(paper.markers), len(predicted), correct)


def synthetic_seeds(split: str, per_style: int) -> list[int]:
    """The first ``per_style`` seeds of a split (the same seeds for every style)."""
    start = 0 if split == "dev" else 100_000
    return list(range(start, start + per_style))


def run_synthetic(split: str, per_style: int, *, parse: Callable[[Path], Document] | None = None) -> list[SyntheticScore]:
    """Generate ``per_style`` papers of each citing style in ``split``, parse them with the
    embedded parser (or ``parse``), link their markers and score them."""
    parse = parse or _parse_embedded
    scores: list[SyntheticScore] = []
    with tempfile.TemporaryDirectory(prefix="paperpyramid-citing-") as folder:
        for style in CITING_STYLES:
            for seed in synthetic_seeds(split, per_style):
                pdf, paper = generate_citing(seed, style)
                path = Path(folder) / f"citing-{style}-{seed}.pdf"
                path.write_bytes(pdf)
                document = parse(path)
                link_markers(document)
                scores.append(score_synthetic(document, paper))
    return scores


def render_synthetic(scores: list[SyntheticScore]) -> list[str]:
    """Micro precision and recall of generated papers' markers, by split and style."""
    lines = ["", "in-text citations on generated papers (markers: same page, text and entries):"]
    for split in dict.fromkeys(s.split for s in scores):
        for style in [*dict.fromkeys(s.style for s in scores), "all"]:
            chosen = [s for s in scores if s.split == split and (style == "all" or s.style == style)]
            gold, predicted, correct = (sum(getattr(s, name) for s in chosen) for name in ("gold", "predicted", "correct"))
            lines.append(f"  {split:8} {style:12} papers={len(chosen):3d} markers={gold:5d} cites={predicted:5d} "
                         f"P={_ratio(correct, predicted)} R={_ratio(correct, gold)}")  # fmt: skip
    return lines


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def _parse_embedded(path: Path) -> Document:
    from paperpyramid.parsers import get_parser

    return get_parser("embedded")(path)
