"""Scanned pages read by OCR into the same lines a text layer gives.

A page is read by OCR (:mod:`.ocr`, Tesseract) when it has no text layer but an image (a
scan), or when its text layer is a scan's invisible OCR layer whose words fail
:func:`layer_quality` and OCR reads it better; ``--ocr always`` reads every page so. The words
OCR returns become :class:`~.layout.Line` runs with a size from their height and weight from
their strokes, and go through the same reading order, blocks, tables and sections as any page.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from PIL import Image

from paperpyramid.parsers.embedded.layout import Line, Page, normalize_text, number_groups
from paperpyramid.parsers.embedded.ocr import Word

#: when a page is read by OCR: where a scan has no usable text (auto), every page, or never
OcrMode = Literal["auto", "always", "never"]
OCR_MODES: tuple[OcrMode, ...] = ("auto", "always", "never")

#: fewer printed characters than this, with an image on the page: a scan without a text layer
IMAGE_ONLY_CHARS = 40
#: an OCR text layer whose share of plausible words is below this is read again by OCR
LAYER_QUALITY_MIN = 0.8
#: words on a page needed before its quality can be judged
_QUALITY_SAMPLE = 20

# the share of the em a word's ink spans (Times and Helvetica: ascender 0.68-0.72, descender
# 0.21, x-height 0.45-0.52), by whether it has tall letters and letters below the baseline
_ASCENDERS = frozenset("bdfhklt()[]{}/|")
_DESCENDERS = frozenset("gjpqy()[]{}|,;")
_EM_SHARE = {(True, True): 0.92, (True, False): 0.70, (False, True): 0.68, (False, False): 0.48}
# pdfium's loose box of a text layer's glyph spans the font's ascent to descent, about 1.1 em
# (measured on the bundled papers: PLOS, BMC, MDPI body and headings)
_SIZE_PER_HEIGHT = 0.92
# bold type's strokes are thicker for its size than the page's usual line's (measured on dev
# pages: bold headings and titles 1.4-1.75 times the median line's, body lines 0.9-1.25)
_BOLD_STROKE = 1.22
# Tesseract's confidence of words it made out of a figure's lines or specks, and of a line
# (weighted by its words' lengths) read out of a logo or a drawing
_NOISE_CONFIDENCE = 40.0
_NOISE_LINE_CONFIDENCE = 40.0

_TOKEN = re.compile(r"\S+")
_LETTERS = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-zÀ-ɏ]")
_VOWEL = re.compile(r"[aeiouyAEIOUYÀ-ÆÈ-ÏÒ-ÖØ-Ýà-æè-ïò-öø-ýÿ]")
_CASE = re.compile(r"[^\W\d_][^\W\d_A-Z]*|[A-Z]+s?")  # word, Word, WORD, WORDs; camel case is a name or an error
_EDGE_PUNCT = "\"'“”‘’«»()[]{}<>.,;:!?*†‡§%"


def is_image_only(page: Page) -> bool:
    """A scan without a text layer: next to no printed characters, an image drawn."""
    return page.n_chars < IMAGE_ONLY_CHARS and page.n_images > 0


def layer_quality(texts: Sequence[str]) -> float | None:
    """The share of tokens that read as words: letters of one case pattern (Latin words with a
    vowel), numbers, punctuation around them; None below a sample's worth of tokens.

    OCR errors make tokens of mixed letters, digits and symbols ("t1le", "fi~ld", "pCOMe"); a
    clean text layer of any script scores above 0.9, a garbled OCR layer below 0.7.
    """
    good = total = 0
    for text in texts:
        for token in _TOKEN.findall(text):
            core = token.strip(_EDGE_PUNCT)
            if not core or not any(ch.isalnum() for ch in core):
                continue
            total += 1
            good += _plausible(core)
    return None if total < _QUALITY_SAMPLE else good / total


def _plausible(token: str) -> bool:
    if token.replace(".", "").replace(",", "").replace("-", "").replace("−", "").isdigit():
        return True
    parts = token.replace("’", "'").replace("–", "-").split("-")
    return all(_plausible_word(part) for part in parts if part)


def _plausible_word(word: str) -> bool:
    if "'" in word:  # don't, authors'
        word = word.split("'", 1)[0] or word.split("'", 1)[1]
    if not _LETTERS.fullmatch(word) or len(word) > 30:
        return False  # letters mixed with digits or symbols
    if not _CASE.fullmatch(word):
        return False
    return not (_LATIN.match(word) and len(word) > 3 and not _VOWEL.search(word))  # a Latin word has a vowel


@dataclass(frozen=True, slots=True)
class OcrPage:
    """A page as OCR read it: its lines (as :func:`~.layout.extract_page` gives them, with
    words and number parts for the table engine) and the text they hold."""

    page: Page
    text: str


def page_from_words(number: int, width: float, height: float, words: list[Word], image: Image.Image | None = None) -> OcrPage:
    """Lines of OCR'd ``words`` on page ``number`` (``width`` × ``height`` points), split at wide
    gaps as a text layer is; ``image`` (the page as read) tells bold type by its strokes."""
    kept = [word for word in words if word.confidence >= _NOISE_CONFIDENCE or _plausible(word.text.strip(_EDGE_PUNCT) or "x")]
    by_line: dict[tuple[int, int, int], list[Word]] = {}
    for word in kept:
        by_line.setdefault(word.line, []).append(word)
    for key, line_words in by_line.items():
        by_line[key] = _marks(line_words)
    runs: list[list[Word]] = []
    for line_words in by_line.values():
        line_words.sort(key=lambda word: word.x0)
        gaps = [after.x0 - before.x1 for before, after in zip(line_words, line_words[1:], strict=False)]
        usual_gap = statistics.median(gaps) if len(gaps) >= 3 else None
        run = [line_words[0]]
        for word, gap in zip(line_words[1:], gaps, strict=True):
            size = max(_size(run), 4.0)
            # a gutter or a table cell border; or, in a line of several words, a gap three times
            # the line's own (names set apart: OCR puts an author list on one line)
            if gap > size * 1.4 or (usual_gap is not None and gap > size * 0.9 and gap > 3 * usual_gap):
                runs.append(run)
                run = []
            run.append(word)
        runs.append(run)
    runs = [run for run in runs if _confidence(run) >= _NOISE_LINE_CONFIDENCE]
    strokes = _strokes(runs, image, width) if image is not None else [0.0] * len(runs)
    usual = statistics.median([stroke for stroke in strokes if stroke > 0] or [0.0])
    lines = [_line(run, number, usual > 0 and stroke > _BOLD_STROKE * usual) for run, stroke in zip(runs, strokes, strict=True)]
    _snap_sizes(lines)
    lines.sort(key=lambda line: (line.top, line.x0))
    text = "\n".join(line.text for line in lines)
    return OcrPage(Page(number, width, height, lines, len(text), 1), text)


def _marks(words: list[Word]) -> list[Word]:
    """Superscript marks set apart from their word (affiliations, footnotes) read as "*": OCR
    makes "|", "'" or "°" of a small raised dagger or asterisk. Digits stay digits."""
    if len(words) < 3:
        return words
    height = statistics.median(word.bottom - word.top for word in words)
    baseline = statistics.median(word.bottom for word in words)
    marked = []
    for word in words:
        small = word.bottom - word.top < 0.65 * height and word.bottom < baseline - 0.25 * height
        if small and not any(ch.isalnum() for ch in word.text):
            word = Word("*", word.x0, word.top, word.x1, word.bottom, word.confidence, word.line)
        marked.append(word)
    return marked


def _confidence(run: list[Word]) -> float:
    return sum(word.confidence * len(word.text) for word in run) / max(1, sum(len(word.text) for word in run))


def _size(run: list[Word]) -> float:
    """The font size of a run of words, scaled to a text layer's box: each word's height over
    the share of the em its letters span (ascenders, descenders, or x-height only), the median
    of the words. Plain heights make a line of "Hospital, Malawi" a size bigger than "in a new"."""
    ems = [(word.bottom - word.top) / _em_share(word.text) for word in run if any(ch.isalnum() for ch in word.text)]
    return round(statistics.median(ems or [run[0].bottom - run[0].top]) * _SIZE_PER_HEIGHT, 1)


def _em_share(text: str) -> float:
    tall = any(ch.isupper() or ch.isdigit() or ch in _ASCENDERS for ch in text)
    deep = any(ch in _DESCENDERS for ch in text)
    return _EM_SHARE[tall, deep]


def _snap_sizes(lines: list[Line]) -> None:
    """One size for the lines of one type size: sizes measured from OCR boxes scatter by a few
    per cent around the true one (a title's lines read 15.4, 15.8, 15.5), which a text layer's
    never do; sizes within 7 % of a group's smallest take the group's median."""
    if not lines:  # every run was noise: a figure's page
        return
    ordered = sorted(lines, key=lambda line: line.size)
    group: list[Line] = []
    for line in [*ordered, None]:
        if line is not None and (not group or line.size <= group[0].size * 1.07):
            group.append(line)
            continue
        size = statistics.median_low(member.size for member in group)
        for member in group:
            member.size = size
            for part in member.parts or ():
                part.size = size
        group = [line] if line is not None else []


def _line(run: list[Word], number: int, bold: bool) -> Line:
    text = normalize_text(" ".join(word.text for word in run))
    top, bottom = min(word.top for word in run), max(word.bottom for word in run)
    line = Line(
        text=text, page=number, x0=run[0].x0, top=top, x1=max(word.x1 for word in run), bottom=bottom,
        size=_size(run), bold=bold, italic=False, font="ocr", bold_prefix=len(text) if bold else 0,
    )  # fmt: skip
    line.words = [(word.text, word.x0, word.x1) for word in run]
    groups = number_groups(line.words)
    if len(groups) > 1:  # numeric columns set a space apart, cut as the table engine expects
        line.parts = []
        for group in groups:
            part = Line(" ".join(t for t, _, _ in group), number, group[0][1], top, group[-1][2], bottom, line.size, bold, False, "ocr")
            part.words = group
            line.parts.append(part)
    return line


def _strokes(runs: list[list[Word]], image: Image.Image, width: float) -> list[float]:
    """Each run's stroke width over its font size: the mean length of the dark runs across its
    words' boxes, in ems. Bold type has thicker strokes at any size and in any face; a share of
    dark pixels tells faces apart more than weights."""
    pixels = np.asarray(image) < 128
    scale = pixels.shape[1] / width
    strokes = []
    for run in runs:
        dark = starts = 0
        for word in run:
            box = pixels[int(word.top * scale) : int(word.bottom * scale) + 1, int(word.x0 * scale) : int(word.x1 * scale) + 1]
            if box.size == 0:
                continue
            dark += int(box.sum())
            starts += int((box[:, 1:] & ~box[:, :-1]).sum() + box[:, 0].sum())
        strokes.append(dark / starts / (_size(run) * scale) if starts else 0.0)
    return strokes


def pages_to_read(pages: Sequence[Page], mode: OcrMode) -> list[int]:
    """The numbers of the pages OCR should read under ``mode``: in auto, scans without a text
    layer and scans whose OCR layer fails :func:`layer_quality` (OCR's reading is then kept only
    where it scores better)."""
    if mode == "never":
        return []
    if mode == "always":
        return [page.number for page in pages]
    chosen = []
    for page in pages:
        if is_image_only(page):
            chosen.append(page.number)
        elif page.invisible_text:
            quality = layer_quality([line.text for line in page.lines])
            if quality is not None and quality < LAYER_QUALITY_MIN:
                chosen.append(page.number)
    return chosen


__all__ = ["OCR_MODES", "OcrMode", "OcrPage", "is_image_only", "layer_quality", "page_from_words", "pages_to_read"]
