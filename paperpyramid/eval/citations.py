"""In-text citations of PDF parses scored against JATS gold, or against the author's LaTeX.

Each PDF with a ``.nxml`` beside it (``MANIFEST.tsv`` ``pairs_with``) is parsed with the embedded
parser and its markers linked (:func:`paperpyramid.citations.markers.link_markers`); the gold's
``<xref ref-type="bibr" rid="...">`` give the citations it should have found. A PDF with its
LaTeX source instead has the source's ``\\cite`` commands and ``\\bibitem`` list as its gold
(:mod:`paperpyramid.eval.latex_cites`), and is shown apart (split ``latex``).

What is compared is the set of (citing sentence, cited entry) pairs. Both sides are cut into
sentences the same way, with the citation markers' own text left out (a marker after the full
stop closes its sentence), and without floats (tables, figures, their captions); a PDF sentence is the
gold sentence it shares most word trigrams with (at least half of the shorter one's), and a
PDF reference entry is the gold ``<ref>`` of the same work, one to one: same DOI, else same first
author, year and title, else a word overlap; the same number where both lists are numbered alike
(:mod:`paperpyramid.eval.reference_pairs`). A gold range "1–3" written as two xrefs cites 2 as well.

Two figures per paper:

- end to end: precision and recall of the pairs, every pair counted, so what the parse lost
  (a sentence, a reference entry) counts as a miss;
- linkable: only pairs whose sentence and entry are found on both sides, which measures
  the linking itself rather than the parse beneath it.
"""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from paperpyramid.citations.marker_keys import fold
from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Document
from paperpyramid.eval.parse import read_manifest
from paperpyramid.eval.reference_pairs import GoldEntry, gold_entries, pair_references

__all__ = [
    "DEV_PAPERS",
    "HELDOUT_PAPERS",
    "CitationScore",
    "LabelledScore",
    "GoldCitations",
    "citations_to_json",
    "evaluate_citations",
    "load_jats_citations",
    "load_labels",
    "render_citations",
    "score_citations",
    "score_labelled",
    "sentences",
]

#: JATS-gold papers looked at while the linker was tuned; the others were scored once, at the end
DEV_PAPERS = ("plos-one-2014-fanged-frog-internal-fertilization.pdf", "f1000research-2015-mosquito-odorant-binding-garbled-fonts.pdf")
HELDOUT_PAPERS = (
    "mdpi-metabolites-2014-durum-wheat-volatiles.pdf",
    "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.pdf",
    "f1000research-2015-sharpnose-shark-longevity.pdf",
)

# a sentence ends at a stop, and at a footnote's mark glued to the stop after a word ("identifiers.17 CiteSeerX")
_SENTENCE_END = re.compile(r"(?<=[.!?])(?:(?<=[^\W\d_][.!?])\d{1,3})?\s+(?=[A-Z\[(“\"])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:al|fig|figs|eq|eqs|e\.g|i\.e|cf|vs|no|nos|ref|refs|approx|ca|sp|spp|resp|st|dr|vol|pp|p)|\b[A-Z])\.$", re.I
)
_WORD = re.compile(r"[^\W\d_]{2,}")
_DASHES = "-–—‑‐"
#: what follows markers that close a sentence: the next one, as :data:`_SENTENCE_END` sees it, or nothing
_NEXT_SENTENCE = re.compile(r"\s*$|\s+[A-Z\[(“\"]")
#: what may stand between the markers of one run: "[1, 2]", "1–3", "(Smith 2001; Jones 2002)"
_BETWEEN_MARKERS = " ,;" + _DASHES + "\u2009\u00a0"


@dataclass
class GoldCitations:
    """A gold paper's citing sentences: each sentence's text (markers left out) with the ids of
    the entries it cites, and every entry's text by id, in list order."""

    sentences: list[tuple[str, list[str]]]
    references: dict[str, str]
    #: each entry's fields for pairing it with a parsed one; read from ``references`` when empty
    entries: dict[str, GoldEntry] = field(default_factory=dict)


@dataclass(frozen=True)
class CitationScore:
    """One paper's pairs: gold, predicted, right; and the same over linkable pairs only."""

    pdf: str
    split: str
    style: str
    gold: int
    predicted: int
    correct: int
    linkable_gold: int
    linkable_predicted: int
    linkable_correct: int
    gold_references: int
    paired_references: int

    @property
    def precision(self) -> float | None:
        return self.correct / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        return self.correct / self.gold if self.gold else None

    @property
    def linkable_precision(self) -> float | None:
        return self.linkable_correct / self.linkable_predicted if self.linkable_predicted else None

    @property
    def linkable_recall(self) -> float | None:
        return self.linkable_correct / self.linkable_gold if self.linkable_gold else None


# --------------------------------------------------------------------------- text


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``; "et al.", "Fig." and initials end none."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if _ABBREVIATION.search(text[max(start, match.start() - 8) : match.start()]):
            continue
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if b > a]


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def _trigrams(text: str) -> set[tuple[str, ...]]:
    words = _words(text)
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)} or ({tuple(words)} if words else set())


def _cited_sentences(text: str, spans: list[tuple[int, int, list[str]]]) -> list[tuple[str, list[str]]]:
    """Every sentence of ``text`` with the ids its markers cite, the markers' text taken out.

    A marker set after a full stop and before the next sentence ("distribution.¹ Please",
    "this sentence.[3] The", a ``\\cite`` after the stop) cites from the sentence it closes,
    and the sentence ends there as it would with nothing after the stop: the cut is made with
    such markers blanked, else a stop glued to a superscript would join two sentences."""
    bounds = sentences(_closing_markers_blanked(text, spans))
    out = []
    for number, (start, end) in enumerate(bounds):
        ids: list[str] = []
        pieces, cursor = [], start
        following = bounds[number + 1][0] if number + 1 < len(bounds) else len(text)
        for s, e, keys in spans:
            if start <= s < following:  # a marker between two sentences closes the first
                ids += keys
                if s < end:
                    pieces.append(text[cursor:s])
                    cursor = max(cursor, min(e, end))
        pieces.append(text[cursor:end])
        out.append((" ".join(pieces), list(dict.fromkeys(ids))))
    return out


def _closing_markers_blanked(text: str, spans: list[tuple[int, int, list[str]]]) -> str:
    """``text`` with each run of markers that follows a full stop and comes before the next
    sentence (not before a small letter that carries the sentence on, "[12] showed") written as
    spaces, with the brackets and commas around and between them (a JATS xref holds the number
    only, a parsed marker its brackets too: both sides must cut alike)."""
    blanked = list(text)
    runs: list[list[int]] = []
    for s, e, _ in sorted(spans):
        if runs and not text[runs[-1][1] : s].strip(_BETWEEN_MARKERS):
            runs[-1][1] = max(runs[-1][1], e)
        else:
            runs.append([s, e])
    for s, e in runs:
        while s > 0 and e < len(text) and text[s - 1] in "[(" and text[e] in "])":
            s, e = s - 1, e + 1
        if "".join(blanked[max(0, s - 80) : s]).rstrip().endswith((".", "!", "?")) and _NEXT_SENTENCE.match(text, e):
            blanked[s:e] = " " * (e - s)
    return "".join(blanked)


# --------------------------------------------------------------------------- gold


def load_jats_citations(path: Path) -> GoldCitations:
    """The citing sentences and reference entries of a JATS file's main article."""
    root = ET.parse(path).getroot()
    entries = gold_entries(root)
    references = {ref_id: entry.text for ref_id, entry in entries.items()}
    order = {ref_id: index for index, ref_id in enumerate(references)}
    body = root.find("body")
    found: list[tuple[str, list[str]]] = []
    for paragraph in _outer_paragraphs(body) if body is not None else []:
        text, spans = _paragraph_text(paragraph)
        found += _cited_sentences(text, _expand_ranges(text, spans, order, list(references)))
    return GoldCitations(found, references, entries)


#: floats JATS may nest in a paragraph; their cells and captions are scored with the tables, not as running text
_FLOATS = frozenset({"table-wrap", "table-wrap-group", "fig", "fig-group"})


def _outer_paragraphs(element: ET.Element) -> Iterator[ET.Element]:
    """The running text's paragraphs: not a float's caption or cells (a LaTeX gold leaves its
    floats out too, and the parsed side its captions and tables)."""
    for child in element:
        if child.tag == "p":
            yield child
        elif child.tag not in {"table", "sub-article", *_FLOATS}:
            yield from _outer_paragraphs(child)


def _paragraph_text(paragraph: ET.Element) -> tuple[str, list[tuple[int, int, list[str]]]]:
    parts: list[str] = []
    spans: list[tuple[int, int, list[str]]] = []

    def emit(element: ET.Element) -> None:
        parts.append(element.text or "")
        for child in element:
            start = sum(map(len, parts))
            if child.tag in _FLOATS:  # a table or figure set inside the paragraph: not its running text
                parts.append(child.tail or "")
                continue
            emit(child)
            if child.tag == "xref" and child.get("ref-type") == "bibr" and child.get("rid"):
                spans.append((start, sum(map(len, parts)), child.get("rid", "").split()))
            parts.append(child.tail or "")

    emit(paragraph)
    return "".join(parts), spans


def _expand_ranges(
    text: str, spans: list[tuple[int, int, list[str]]], order: dict[str, int], ids: list[str]
) -> list[tuple[int, int, list[str]]]:
    """Two xrefs with only a dash between them ("1–3") cite the entries between them too."""
    keys = [list(span[2]) for span in spans]
    for number in range(len(spans) - 1):
        between = text[spans[number][1] : spans[number + 1][0]].strip()
        if between and all(char in _DASHES for char in between):
            first, last = order.get(spans[number][2][-1]), order.get(spans[number + 1][2][0])
            if first is not None and last is not None and first < last:
                keys[number] += ids[first + 1 : last]
    return [(start, end, listed) for (start, end, _), listed in zip(spans, keys, strict=True)]


# --------------------------------------------------------------------------- scoring


#: parsed blocks that are no running text: the gold leaves out formulas and floats, captions with them
_NOT_RUNNING_TEXT = frozenset({"formula", "table", "caption"})


def _pdf_sentences(document: Document) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for section in document.sections:
        if section.number == "ref":
            continue
        for block in section.blocks:
            if block.kind in _NOT_RUNNING_TEXT:
                continue
            found += _cited_sentences(block.text, [(cite.start, cite.end, cite.keys) for cite in block.cites])
    return found


def _align_sentences(pdf: list[tuple[str, list[str]]], gold: list[tuple[str, list[str]]]) -> list[int | None]:
    """The gold sentence each PDF sentence is, or None."""
    index: dict[tuple[str, ...], list[int]] = {}
    gold_grams = [_trigrams(text) for text, _ in gold]
    for number, grams in enumerate(gold_grams):
        for gram in grams:
            index.setdefault(gram, []).append(number)
    aligned: list[int | None] = []
    for text, _ in pdf:
        grams = _trigrams(text)
        votes = Counter(number for gram in grams for number in index.get(gram, ()))
        best = None
        for number, shared in votes.most_common(3):
            if shared >= max(2, 0.5 * min(len(grams), len(gold_grams[number]))):
                best = number
                break
        aligned.append(best)
    return aligned


def score_citations(document: Document, gold: GoldCitations, *, pdf: str = "", split: str = "", style: str = "") -> CitationScore:
    """Compare a linked document's citations with the gold's, as (sentence, entry) pairs."""
    pdf_sentences = _pdf_sentences(document)
    aligned = _align_sentences(pdf_sentences, gold.sentences)
    entries = gold.entries or {ref_id: GoldEntry(text) for ref_id, text in gold.references.items()}
    references = pair_references(document.references, entries)
    gold_pairs = {(number, ref_id) for number, (_, ids) in enumerate(gold.sentences) for ref_id in ids}
    predicted: set[tuple[Any, Any]] = set()
    for number, ((_, keys), sentence) in enumerate(zip(pdf_sentences, aligned, strict=True)):
        for key in keys:
            predicted.add((sentence if sentence is not None else ("pdf", number), references.get(key, ("key", key))))
    found_sentences = {number for number in aligned if number is not None}
    found_references = set(references.values())
    linkable_gold = {pair for pair in gold_pairs if pair[0] in found_sentences and pair[1] in found_references}
    linkable_predicted = {pair for pair in predicted if isinstance(pair[0], int) and isinstance(pair[1], str)}
    return CitationScore(
        pdf=pdf,
        split=split,
        style=style,
        gold=len(gold_pairs),
        predicted=len(predicted),
        correct=len(gold_pairs & predicted),
        linkable_gold=len(linkable_gold),
        linkable_predicted=len(linkable_predicted),
        linkable_correct=len(linkable_gold & linkable_predicted),
        gold_references=len(gold.references),
        paired_references=len(references),
    )


def _parse_embedded(path: Path) -> Document:
    from paperpyramid.parsers import get_parser

    return get_parser("embedded")(path)


def evaluate_citations(
    gold_dir: Path, *, papers: Iterable[str] | None = None, parse: Callable[[Path], Document] | None = None
) -> list[CitationScore]:
    """Parse every PDF of ``gold_dir`` with JATS gold (or only ``papers``), link its markers and
    score them; ``parse`` is the embedded parser unless given."""
    parse = parse or _parse_embedded
    wanted = set(papers) if papers is not None else None
    scores: list[CitationScore] = []
    for row in read_manifest(gold_dir / "MANIFEST.tsv"):
        if wanted is not None and row.pairs_with not in wanted:
            continue
        if not (gold_dir / row.pairs_with).is_file() or not (gold := _load_gold(row.kind, gold_dir / row.file)):
            continue
        document = parse(gold_dir / row.pairs_with)
        counts = link_markers(document)
        split = "dev" if row.pairs_with in DEV_PAPERS else "heldout" if row.pairs_with in HELDOUT_PAPERS else "other"
        if row.kind == "gold-latex":
            split = "latex"  # a gold of its own making: shown apart from the JATS papers
        scores.append(score_citations(document, gold, pdf=row.pairs_with, split=split, style=counts.style))
    return scores


def _load_gold(kind: str, path: Path) -> GoldCitations | None:
    """The citations of a JATS gold file, or of a LaTeX source with its reference list; None for
    any other gold, and for a source whose entries are not known (see :mod:`.latex_cites`)."""
    if kind == "gold-jats":
        return load_jats_citations(path)
    if kind == "gold-latex" and path.suffix.lower() == ".tex":
        from paperpyramid.eval.latex_cites import load_latex_citations  # it reads this module's sentences

        return load_latex_citations(path)
    return None


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def render_citations(scores: list[CitationScore]) -> list[str]:
    """The scores as report lines: one paper a row, then each split summed (micro)."""
    if not scores:
        return []
    lines = ["", "in-text citations against the gold (JATS xrefs, LaTeX \\cite): (sentence, entry) pairs; linkable: sentence and entry found in both:",
             f"  {'split':8} {'style':12} {'gold':>5} {'pred':>5} {'P':>5} {'R':>5} {'linkP':>6} {'linkR':>6} {'refs':>7}  pdf"]  # fmt: skip
    for s in scores:
        lines.append(
            f"  {s.split:8} {s.style:12} {s.gold:5d} {s.predicted:5d} {_ratio(s.correct, s.predicted):>5} {_ratio(s.correct, s.gold):>5} "
            f"{_ratio(s.linkable_correct, s.linkable_predicted):>6} {_ratio(s.linkable_correct, s.linkable_gold):>6} "
            f"{s.paired_references:3d}/{s.gold_references:<3d}  {s.pdf}"
        )
    for split in dict.fromkeys(s.split for s in scores):
        chosen = [s for s in scores if s.split == split]
        total = {name: sum(getattr(s, name) for s in chosen) for name in asdict(chosen[0]) if isinstance(getattr(chosen[0], name), int)}
        lines.append(
            f"  {split} ({len(chosen)} papers): P={_ratio(total['correct'], total['predicted'])} R={_ratio(total['correct'], total['gold'])}; "
            f"linkable P={_ratio(total['linkable_correct'], total['linkable_predicted'])} R={_ratio(total['linkable_correct'], total['linkable_gold'])}"
        )
    return lines


def citations_to_json(scores: list[CitationScore]) -> list[dict[str, Any]]:
    """The scores as JSON-ready rows, with precision and recall."""
    return [
        {
            **asdict(s),
            "precision": s.precision,
            "recall": s.recall,
            "linkable_precision": s.linkable_precision,
            "linkable_recall": s.linkable_recall,
        }
        for s in scores
    ]


# --------------------------------------------------------------------------- hand-labelled pages


@dataclass(frozen=True)
class LabelledScore:
    """One hand-labelled page: its markers, the citations found on it, and those right."""

    pdf: str
    split: str
    page: int
    gold: int
    predicted: int
    correct: int


def load_labels(path: Path) -> list[dict[str, Any]]:
    """The papers of a labels file (``tests/data/citations/labelled_markers.json``)."""
    papers: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["papers"]
    return papers


def _alnum(text: str) -> str:
    return re.sub(r"[\W_]+", "", fold(text))


def score_labelled(document: Document, paper: dict[str, Any]) -> LabelledScore:
    """Compare a linked document's citations on one labelled page with the labels: a label is
    found by a citation with its text (letters and digits only), and right when the citation's
    entries are the labelled ones (each entry's raw text names the labelled author, and year)."""
    page = int(paper["page"])
    by_key = {reference.key: reference for reference in document.references if reference.key is not None}
    predicted = [(block.text[cite.start : cite.end], cite.keys) for section in document.sections for block in section.blocks
                 if block.page == page for cite in block.cites]  # fmt: skip
    unused = list(predicted)
    correct = 0
    for label in paper["markers"]:
        wanted = _alnum(label["marker"])
        match = next((item for item in unused if _alnum(item[0]) == wanted), None)
        if match is None:
            continue
        unused.remove(match)
        references = [by_key.get(key) for key in match[1]]
        correct += len(references) == len(label["refs"]) and all(
            reference is not None and _names_entry(reference.raw, ref) for reference, ref in zip(references, label["refs"], strict=True)
        )
    return LabelledScore(paper["pdf"], paper["split"], page, len(paper["markers"]), len(predicted), correct)


def _names_entry(raw: str, label: dict[str, Any]) -> bool:
    head = fold(raw)[:200]
    return fold(str(label["author"])) in head and ("year" not in label or str(label["year"]) in raw)
