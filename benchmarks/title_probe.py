#!/usr/bin/env python3
"""A stress probe of the embedded parser's title reading: real titles in the layouts publishers print.

    python benchmarks/title_probe.py [--seed 1] [--pages 500] [--one-at-a-time] [--json OUT] [--keep DIR] [--shared DIR]

The titles are real: the ``<article-title>`` of the JATS files of ``../shared/pmc-pairs`` (its
development part only, :func:`parse_real.split`), the gold titles of ``../shared/corpus``, and
the titles of the development pairs' references (:func:`byline_probe.reference_titles`:
thousands, of every field). Titles the standard fonts cannot draw (outside cp1252: Greek,
``≥``) are left out.

Each page is an article's first page drawn as real text (:mod:`benchmarks.synthetic.canvas`),
with a second page of body text; the PDF's Info names no title, so the page alone tells it.
Its conventions are drawn at random (seeded), one value per dimension:

- a banner over the title: none, an article's type ("RESEARCH ARTICLE", "Original Article",
  "Open Access", "Case Report", "Review") in small bold capitals, in a regular face the size of
  the text, large (Hindawi sets it over the title, larger than it), or on a shaded band;
- what stands at the top: nothing, a journal's masthead (its name in large type over its
  volume line), a head line with the volume and pages, the "Received … Accepted …" dates, or
  the DOI's line, right over the title;
- the title's face: bold or regular, Helvetica or Times, 14 to 24 points, flush left or centred,
  as written or in capitals, in a narrow or a wide measure (wrapped over one to four lines);
- a subtitle after a colon, on its own line in a smaller face (the title then one with a colon);
- a note's mark after the title (``*``, ``†``, a raised ``1``) with its note at the foot;
- a run of italic inside it (a species' name);
- the byline under it in a smaller size, or in the title's own size in a regular face;
- one column or two, the title across both;
- the opening: the title in display type, or as a journal sets it at the head of a column
  (TUGboat): in bold at the text's size, flush left in the column's measure, over the author's
  name alone on its line, indented by a paragraph's indent, and the abstract's head (the title's
  size, weight, alignment, measure, subtitle and byline then follow from it).

Every page is parsed (:func:`parse_pdf`) and scored as ``eval parse`` scores the title
(:func:`paperpyramid.eval.metadata.score_metadata`: case, spaces and punctuation folded). The
report gives the share of pages that fail for each value of each dimension and for each kind of
title (long, with a colon, with digits, with capitals, a question), and every page, drawn and
read, in ``--json``; ``--keep`` keeps the PDFs of the pages read wrong. ``--one-at-a-time`` sets
every convention at its first value (the baseline) but one.

A generated page tests a code path, not generalisation: what fails here names a layout the
reader does not handle; what passes here may still fail on a real paper.
"""

from __future__ import annotations

import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from byline_probe import draw_line, drawable, probe_options, reference_titles, report_pages  # noqa: E402
from parse_real import split  # noqa: E402

from benchmarks.synthetic.canvas import FONTS, Canvas, text_width, write_pdf  # noqa: E402
from paperpyramid.eval.metadata import Metadata, load_gold_metadata, score_metadata  # noqa: E402
from paperpyramid.parsers.embedded import parse_pdf  # noqa: E402

_REGULAR, _BOLD = "Helvetica", "Helvetica-Bold"


# ---------------------------------------------------------------- the titles


def collect_titles(shared: Path) -> tuple[list[str], int]:
    """The distinct titles of the development pairs, the corpus's gold files and the pairs'
    references, and how many were left out (undrawable, or shorter than three words)."""
    pairs = shared / "pmc-pairs"
    dev = [pairs / f"{Path(pdf).stem}.nxml" for pdf in split(pairs)["dev"]]
    corpus = sorted((shared / "corpus").glob("*.nxml")) + sorted((shared / "corpus").glob("*.tei.xml"))
    gold = [load_gold_metadata(path).title for path in [*dev, *corpus] if path.exists()]
    titles = [" ".join(title.split()).rstrip(".") for title in [*gold, *reference_titles(shared)] if title]
    distinct = list(dict.fromkeys(titles))
    kept = [title for title in distinct if drawable(title) and len(title.split()) >= 3 and len(title) <= 250]
    return kept, len(distinct) - len(kept)


def kinds(title: str) -> list[str]:
    """What makes a title hard, for the per-kind failure rates."""
    checks = {
        "long (over 120)": len(title) > 120,
        "colon": ":" in title,
        "digits": bool(re.search(r"\d", title)),
        "micro or degree": bool(re.search(r"[µ°±×]", title)),
        "word in capitals": bool(re.search(r"\b[A-Z]{2,}\b", title)),
        "question": title.endswith("?"),
        "brackets": "(" in title,
        "hyphen or dash": bool(re.search(r"[-–—]", title)),
        "species": bool(re.search(r"\b[A-Z][a-z]+ [a-z]{4,}\b", title[1:])),
    }
    found = [kind for kind, hit in checks.items() if hit]
    return found or ["plain"]


# ---------------------------------------------------------------- the conventions

#: each dimension's values with a rough weight (a judgement of how often journals print each,
#: not a count); the first is the baseline of ``--one-at-a-time``
DIMENSIONS: dict[str, dict[str, int]] = {
    "banner": {"none": 40, "small capitals": 25, "text size": 15, "large": 8, "shaded band": 12},
    "over": {"nothing": 35, "masthead": 20, "head line": 20, "dates": 12, "doi line": 13},
    "weight": {"bold": 75, "regular": 25},
    "family": {"helvetica": 60, "times": 40},
    "size": {"18": 30, "14": 20, "16": 25, "21": 15, "24": 10},
    "align": {"left": 65, "centred": 35},
    "case": {"as written": 88, "capitals": 12},
    "measure": {"wide": 65, "narrow": 35},
    "subtitle": {"none": 80, "own line": 20},
    "note mark": {"none": 80, "star": 8, "dagger": 6, "raised digit": 6},
    "italic run": {"none": 75, "species": 25},
    "byline": {"smaller": 85, "same size": 15},
    "columns": {"one": 60, "two": 40},
    "opening": {"display": 92, "journal column": 8},
}
#: what a title opening a journal's column sets (TUGboat): bold at the text's size, flush left, no subtitle, one indented name
_JOURNAL_COLUMN = {
    "banner": "none",
    "size": "9.5",
    "weight": "bold",
    "align": "left",
    "measure": "narrow",
    "subtitle": "none",
    "byline": "indented",
}
_TYPES = ("RESEARCH ARTICLE", "Original Article", "Open Access", "Case Report", "Review", "ORIGINAL RESEARCH", "Brief Report")
_MARKS = {"star": ("*", "*Corresponding author. Tel.: +1 416 555 0101."), "dagger": ("†", "†This work was supported by a grant.")}
_MARKS["raised digit"] = ("1", "1This article is part of a special issue on field methods.")
_NAMES = ("Anna Berg", "Carl Dahl", "Marta Oliveira", "Kenji Sato", "Priya Nair", "Lucas Moreau")


@dataclass(slots=True)
class TitlePage:
    seed: int
    conventions: dict[str, str]
    title: str
    drawn: list[str] = field(default_factory=list)
    read: str | None = None
    ok: bool = False


Run = tuple[str, str, float, float]  # text, font, size, rise


_BOLD_ITALIC = {"helvetica": "Helvetica-BoldOblique", "times": "Times-BoldItalic"}


def _faces(conventions: dict[str, str]) -> tuple[str, str, str]:
    """The title's face, its italic (bold in a bold title, as a species' name is set there) and the body's regular face."""
    regular, bold, italic = FONTS[conventions["family"]]
    if conventions["weight"] == "bold":
        return bold, _BOLD_ITALIC[conventions["family"]], regular
    return regular, italic, regular


def _title_words(title: str, conventions: dict[str, str], rng: random.Random) -> list[Run]:
    """The title's words as runs, a species' name in italic where the page sets one."""
    font, italic, _ = _faces(conventions)
    size = float(conventions["size"])
    words = title.split()
    if conventions["case"] == "capitals":
        words = [word.upper() for word in words]
    slanted: set[int] = set()
    if conventions["italic run"] == "species" and len(words) > 3:
        start = rng.randrange(1, len(words) - 1)
        slanted = {start, start + 1}
    return [(word, italic if n in slanted else font, size, 0.0) for n, word in enumerate(words)]


def _set_lines(words: list[Run], width: float) -> list[list[Run]]:
    """Words set in lines no wider than ``width``, a space between two (none before a raised mark)."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for word in words:
        wide = text_width(word[0], word[1], word[2])
        space = text_width(" ", word[1], word[2])
        if word[3]:  # a raised mark stays on its word's line, unspaced
            lines[-1].append(word)
            used += wide
            continue
        if lines[-1] and used + space + wide > width:
            lines.append([])
            used = 0.0
        if lines[-1]:
            lines[-1].append((" ", word[1], word[2], 0.0))
            used += space
        lines[-1].append(word)
        used += wide
    return lines


def _title_lines(page: TitlePage, rng: random.Random, width: float) -> list[list[Run]]:
    """The title's lines: a subtitle after the colon on lines of its own in a smaller face, the note's mark raised after the last word."""
    conventions = page.conventions
    size = float(conventions["size"])
    if conventions["subtitle"] == "own line":
        head, tail = page.title.split(": ", 1)
        lines = _set_lines(_title_words(head + ":", conventions, rng), width)
        smaller = {**conventions, "size": str(round(max(0.8 * size, 12.0), 1))}
        lines += _set_lines(_title_words(tail, smaller, rng), width)
    else:
        lines = _set_lines(_title_words(page.title, conventions, rng), width)
    if conventions["note mark"] != "none":
        mark = _MARKS[conventions["note mark"]][0]
        lines[-1].append((mark, _faces(conventions)[0], size * 0.6, size * 0.4))
    return lines


def _over_title(canvas: Canvas, page: TitlePage, y: float, rng: random.Random) -> float:
    """The journal's lines and the banner over the title; the next baseline."""
    over, banner = page.conventions["over"], page.conventions["banner"]
    year, volume = rng.randint(2005, 2023), rng.randint(1, 90)
    if over == "masthead":
        canvas.text(72, y, rng.choice(("Journal of Applied Ecology", "BMC Plant Biology", "Clinical Endocrinology")), _BOLD, 18)
        canvas.text(72, y + 14, f"Volume {volume}, Issue {rng.randint(1, 12)}, {year}, pp. 101–112", _REGULAR, 8.5)
        canvas.rule(72, y + 20, 540, y + 20, 0.5)
        y += 44
    elif over == "head line":
        canvas.text(72, y, f"Phytomedicine {volume} ({year}) {rng.randint(100, 900)}–{rng.randint(901, 999)}", _REGULAR, 8.5)
        y += 30
    if banner != "none":
        kind = rng.choice(_TYPES)
        if banner == "small capitals":
            canvas.text(72, y, kind.upper(), _BOLD, 9)
            y += 24
        elif banner == "text size":
            canvas.text(72, y, kind, _REGULAR, 10)
            y += 24
        elif banner == "large":
            canvas.text(72, y, kind, _BOLD, float(page.conventions["size"]) + 4)
            y += 34
        else:
            canvas.fill(72, y - 11, 540, y + 4, 0.8)
            canvas.text(78, y, kind, _BOLD, 10)
            y += 28
    if over == "dates":
        canvas.text(72, y, f"Received: 12 March {year}; Accepted: 2 June {year}; Published: 20 June {year}", _REGULAR, 8)
        y += 24
    elif over == "doi line":
        canvas.text(
            72,
            y,
            f"https://doi.org/10.1186/s{rng.randint(10000, 99999)}-0{year % 100}-{rng.randint(100, 999)}-{rng.randint(1, 9)}",
            _REGULAR,
            8,
        )
        y += 24
    return y


def draw_page(page: TitlePage, rng: random.Random) -> bytes:
    """The first page (and a second of body text) of ``page``; the title's lines kept on ``page``."""
    conventions = page.conventions
    first, second = Canvas(612, 792), Canvas(612, 792)
    centred = conventions["align"] == "centred"
    column = conventions["opening"] == "journal column"
    width = 468.0 if conventions["measure"] == "wide" else 228.0 if column else rng.choice((300.0, 340.0))
    left = 72.0 + ((468.0 - width) / 2 if centred else 0.0)
    y = _over_title(first, page, 60.0, rng) + float(conventions["size"]) * 0.4
    for runs in _title_lines(page, rng, width):
        size = max(size for _, _, size, rise in runs if not rise)
        page.drawn.append(draw_line(first, runs, y, left, width, centred))
        y += size * 1.2
    _, _, regular = _faces(conventions)
    if column:  # the author's name alone, a paragraph's indent in, then the abstract
        first.text(92, y + 2, rng.choice(_NAMES), regular, 9.5)
        return _finish(first, second, conventions, y + 24, regular)
    byline_size = float(conventions["size"]) if conventions["byline"] == "same size" else 11.0
    names = rng.sample(_NAMES, rng.randint(2, 4))
    y += 0.6 * byline_size
    for runs in _set_lines(_byline(names, regular, byline_size), 468.0):
        draw_line(first, runs, y, 72.0, 468.0, centred)
        y += byline_size * 1.25
    y += 8
    for n in range(len(names)):
        draw_line(first, [(f"{n + 1} Department of Biology, University of Lund, Lund, Sweden", regular, 8, 0.0)], y, 72.0, 468.0, centred)
        y += 10
    return _finish(first, second, conventions, y + 18, regular)


def _finish(first: Canvas, second: Canvas, conventions: dict[str, str], y: float, regular: str) -> bytes:
    """The PDF of the two pages: the title's note at the foot, the text from ``y`` on the first page."""
    if conventions["note mark"] != "none":
        first.text(72, 740, _MARKS[conventions["note mark"]][1], regular, 7.5)
    _body(first, y, 720, conventions["columns"] == "two", regular)
    _body(second, 72, 740, conventions["columns"] == "two", regular)
    return write_pdf([first, second], "")


def _byline(names: list[str], font: str, size: float) -> list[Run]:
    """The byline's words, each name's affiliation number raised after it, "and" before the last."""
    words: list[Run] = []
    for n, name in enumerate(names):
        if n == len(names) - 1:
            words.append(("and", font, size, 0.0))
        *given, surname = name.split()
        words += [(part, font, size, 0.0) for part in given]
        words.append((surname, font, size, 0.0))
        words.append((f"{n + 1}{',' if n < len(names) - 2 else ''}", font, size * 0.6, size * 0.35))
    return words


_BODY = (
    "The clutches were counted along four transects every week, and the water level was read at each visit from a "
    "staff gauge fixed to the bank of the stream before the survey began. Each estimate is given with its interval, "
    "and the differences between the sites are discussed below with the methods that produced them."
)


def _body(canvas: Canvas, y: float, bottom: float, two_columns: bool, font: str) -> None:
    """Headed paragraphs of text down to ``bottom``: in one column, or in two side by side."""
    columns = ((72.0, 228.0), (312.0, 228.0)) if two_columns else ((72.0, 468.0),)
    top = y
    for left, width in columns:
        y = top
        for heading in ("Abstract", "Background", "Methods", "Results"):
            if y > bottom - 60:
                break
            canvas.text(left, y, heading, _BOLD, 10)
            y += 14
            for runs in _set_lines([(word, font, 9.5, 0.0) for word in _BODY.split()], width):
                if y > bottom:
                    break
                draw_line(canvas, runs, y, left, width, False)
                y += 12
            y += 10


# ---------------------------------------------------------------- the probe


def score(page: TitlePage) -> None:
    """Score as ``eval parse`` does (:func:`score_metadata`)."""
    found = score_metadata(Metadata(title=page.title), Metadata(title=page.read))
    page.ok = bool(found.fields.get("title"))


def _conventions(rng: random.Random, one_at_a_time: bool) -> dict[str, str]:
    conventions = {dimension: rng.choices(list(values), list(values.values()))[0] for dimension, values in DIMENSIONS.items()}
    if one_at_a_time:  # every dimension at its first value but one, at another value (a fifth of the pages: none)
        varied = rng.choice(list(DIMENSIONS))
        conventions = {dimension: next(iter(values)) for dimension, values in DIMENSIONS.items()}
        if rng.random() > 0.2:
            conventions[varied] = rng.choice(list(DIMENSIONS[varied])[1:])
    if conventions["opening"] == "journal column":
        conventions.update(_JOURNAL_COLUMN)
    return conventions


def probe(
    titles: list[str], pages: int, seed: int, folder: Path, *, one_at_a_time: bool = False, keep: Path | None = None
) -> list[TitlePage]:
    """Draw, parse and score ``pages`` first pages; the PDFs of the pages read wrong are moved to ``keep``."""
    rng = random.Random(seed)
    with_colon = [title for title in titles if re.search(r"\w: \w", title)]
    done = []
    for number in range(pages):
        conventions = _conventions(rng, one_at_a_time)
        pool = with_colon if conventions["subtitle"] == "own line" else titles
        page = TitlePage(seed=number, conventions=conventions, title=rng.choice(pool))
        path = folder / f"page{number}.pdf"
        path.write_bytes(draw_page(page, rng))
        page.read = parse_pdf(path).title
        score(page)
        if page.ok or keep is None:
            path.unlink()
        else:
            path.replace(keep / path.name)
        done.append(page)
    return done


def summary(pages: list[TitlePage]) -> dict[str, Any]:
    """Failure shares: per dimension's value, per kind of title, overall."""
    by_value: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for page in pages:
        for dimension, value in page.conventions.items():
            by_value[dimension][value][0] += not page.ok
            by_value[dimension][value][1] += 1
        for kind in kinds(page.title):
            by_kind[kind][0] += not page.ok
            by_kind[kind][1] += 1
    return {
        "pages": len(pages),
        "pages_right": sum(page.ok for page in pages),
        "failed_by_convention": {d: {v: f"{f}/{n}" for v, (f, n) in values.items()} for d, values in by_value.items()},
        "failed_by_kind_of_title": {k: f"{f}/{n}" for k, (f, n) in sorted(by_kind.items())},
    }


def main() -> int:
    options = probe_options(__doc__.split("\n\n")[0])
    titles, left_out = collect_titles(options.shared)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        pages = probe(titles, options.pages, options.seed, Path(folder), one_at_a_time=options.one_at_a_time, keep=options.keep)
    report = {"titles": len(titles), "left_out": left_out, **summary(pages), "seconds": round(time.monotonic() - started, 1)}
    report_pages(options, report, pages, lambda page: f"{page.conventions}\n  drawn: {' / '.join(page.drawn)}\n  read:  {page.read!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
