#!/usr/bin/env python3
"""A stress probe of the embedded parser's journal reading: real journal names where publishers print them.

    python benchmarks/journal_probe.py [--seed 1] [--pages 500] [--json OUT] [--keep DIR] [--shared DIR]

The names are real: the ``<journal-title>`` and ``<abbrev-journal-title>`` of the JATS files of
``../shared/pmc-pairs`` (its development part only, :func:`parse_real.split`) and of
``../shared/corpus``, the ``<source>`` of their journal references, and the journal titles
(``<title level="j">``) of the corpus's TEI files; most of the references' names are NLM's
abbreviations ("J Biol Chem", "Proc Natl Acad Sci U S A"). Names the standard fonts cannot
draw (outside cp1252) are left out and counted.

Each page is an article's first page drawn as real text (:mod:`benchmarks.synthetic.canvas`,
Helvetica), with a second page of body text: a title, a byline, an abstract, and the journal's
name in one of the placements real publishers use, drawn at random (seeded):

- a head line with the volume, issue and pages: Elsevier's ``Name 560 (2018) 1–12``, NLM's
  ``Name 2019;312:45–52``, BMC's ``Berg et al. Name (2016) 13:22``, Oxford's ``Name, 36(5), 2020,
  1234–1240``, Taylor & Francis's ``NAME, 2019, VOL. 46, NO. 3, 345–360``;
- a foot line: PLOS's ``Name | https://doi.org/… March 20, 2018``, Frontiers' ``Name |
  www.frontiersin.org 1 March 2018 | Volume 9 | Article 123``, Nature's ``Name | (2021) 12:3456 |
  https://doi.org/…``, MDPI's ``Name 2021, 13, 1234``;
- a citation box: PLOS's ``Citation: Berg A, Dahl C (2016) Title. Name 11(3): e0151234.``,
  BMC's ``Cite this article as: Berg et al.: Title. Name 2016, 12:34``, MDPI's ``Citation: Berg,
  A.; Dahl, C. Title. Name 2021, 13, 1234.``;
- a masthead: the name in large type over its copyright line (``© The Author(s) 2019. Published
  by Oxford University Press``), over its volume (``Volume 12, Issue 3, 2016, pp. 45–52``), over
  Hindawi's ``Volume 2016, Article ID 1234567, 7 pages``, or over its ISSN (``ISSN 1234-5678
  (Print)``), or centred in a narrow column between a logo and a cover's picture (Elsevier),
  where a long name wraps over two or three lines; an abbreviated name after its ISSN with its
  volume (``ISSN: 0975-1491 Name, Vol 6, Issue 2, 2014, 12-15``).

The heads and feet are printed on both pages where publishers repeat them (``running``), else
on the first only. Every page is parsed (:func:`parse_pdf`) and scored as ``eval parse`` scores
the journal (:func:`paperpyramid.eval.metadata.score_metadata`: the name as drawn, case, spaces
and punctuation folded, a leading "The" dropped). The report gives the share of pages that fail
for each placement and each kind of name, and every page, drawn and read, in ``--json``;
``--keep`` keeps the PDFs of the pages read wrong.

A generated page tests a code path, not generalisation: what fails here names a placement or
a kind of name the reader does not handle; what passes here may still fail on a real paper.
"""

from __future__ import annotations

import random
import re
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from byline_probe import drawable, probe_options, reference_titles, report_pages  # noqa: E402
from parse_real import split  # noqa: E402

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf  # noqa: E402
from paperpyramid.eval.metadata import Metadata, score_metadata  # noqa: E402
from paperpyramid.parsers.embedded import parse_pdf  # noqa: E402

_TEI = "{http://www.tei-c.org/ns/1.0}"
_REGULAR, _BOLD = "Helvetica", "Helvetica-Bold"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")


# ---------------------------------------------------------------- the names


def _jats_journals(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    names = [element.text or "" for element in root.iter() if element.tag in ("journal-title", "abbrev-journal-title")]
    for citation in root.iter():
        if citation.tag in ("element-citation", "mixed-citation", "nlm-citation") and citation.get("publication-type") == "journal":
            names += ["".join(source.itertext()) for source in citation.findall("source")]
    return names


def _tei_journals(path: Path) -> list[str]:
    return ["".join(title.itertext()) for title in ET.parse(path).getroot().iter(f"{_TEI}title") if title.get("level") == "j"]


def collect_journals(shared: Path) -> tuple[list[str], int]:
    """The distinct journal names of the development pairs' and the corpus's gold files, and how
    many were left out (characters Helvetica in WinAnsi cannot draw, a name too short or long)."""
    pairs = shared / "pmc-pairs"
    dev = {Path(pdf).stem for pdf in split(pairs)["dev"]}
    jats = [pairs / f"{stem}.nxml" for stem in sorted(dev)] + sorted((shared / "corpus").glob("*.nxml"))
    names = [name for path in jats if path.exists() for name in _jats_journals(path)]
    names += [name for path in sorted((shared / "corpus").glob("*.tei.xml")) for name in _tei_journals(path)]
    distinct = list(dict.fromkeys(_printed(name) for name in names))
    kept = [name for name in distinct if drawable(name) and 3 <= len(name) <= 90 and _as_printed(name)]
    return kept, len(distinct) - len(kept)


def _printed(name: str) -> str:
    """A gold file's name as a page prints it: without NLM's qualifier in brackets ("Cytologia (Tokyo)"),
    its acronym after a spaced colon ("World Journal of Emergency Surgery : WJES") or a reference's
    medium ("Mastozool Neotrop [Internet]", its bracket left open too), which only catalogues add."""
    name = re.sub(r"\s*\[Internet\]?$", "", " ".join(name.split()))
    name = re.sub(r"\s+:\s+[A-Z][A-Za-z&-]*$", "", name)
    return re.sub(r"\s*\([^()]*\)$", "", name).strip(" .,")


# the small words a journal's name keeps in lower case, in the languages the gold files' names are in
_SMALL = {"of", "and", "in", "for", "the", "on", "&", "de", "des", "du", "la", "für", "zur", "und", "et", "y", "e", "di", "del", "an", "a"}


def _as_printed(name: str) -> bool:
    """Whether a publisher prints ``name`` as it stands: a journal's name, not a reference's
    lower-cased one ("Journal of clinical epidemiology") nor a title GROBID took for it
    ("RoBERTa: A Robustly Optimized BERT Pretraining Approach. ArXiv")."""
    words = name.split()
    if any(word[:1].islower() and word.lower() not in _SMALL for word in words[1:]):
        return False
    return bool(re.search(r"[A-Za-z]{2}", name)) and not re.search(r"(?i)\barxiv\b|\bcorr\b", name) and not (":" in name and ". " in name)


def kinds(name: str) -> list[str]:
    """What makes a journal's name hard, for the per-kind failure rates."""
    words = name.split()
    checks = {
        "one word": len(words) == 1,
        "abbreviated": any(word.endswith(".") for word in words) or (len(words) >= 2 and all(len(word) <= 6 for word in words)),
        "full stops": "." in name,
        "long (7+ words)": len(words) >= 7,
        "ampersand": "&" in name,
        "colon or dash": bool(re.search(r"[:–—]|\s-\s", name)),
        "brackets": "(" in name,
        "capitals": name.isupper() and len(name) > 3,
        "lower-case start": name[:1].islower(),
        "leading The": name.lower().startswith("the "),
        "digits": any(ch.isdigit() for ch in name),
    }
    found = [kind for kind, hit in checks.items() if hit]
    return found or ["plain"]


# ---------------------------------------------------------------- the placements

#: each placement with a rough weight: how often biomedical journals print the name so (a judgement, not a count)
PLACEMENTS: dict[str, int] = {
    "elsevier head": 10,
    "nlm head": 10,
    "bmc head": 8,
    "oxford head": 5,
    "tandf head": 5,
    "plos foot": 8,
    "frontiers foot": 6,
    "nature foot": 5,
    "mdpi foot": 6,
    "plos citation": 8,
    "bmc citation": 6,
    "mdpi citation": 6,
    "masthead copyright": 5,
    "masthead volume": 5,
    "hindawi masthead": 5,
    "masthead issn": 4,
    "issn abbreviated": 4,
    "masthead narrow": 4,
}
#: the placements publishers repeat on the later pages' heads or feet (where ``running``)
_RUNNING = {"elsevier head", "nlm head", "bmc head", "oxford head", "tandf head", "plos foot", "frontiers foot", "nature foot", "mdpi foot"}
_SURNAMES = ("Berg", "Dahl", "Lund", "Okafor", "Tanaka", "Moreau", "Silva", "Novak", "Hughes", "Reyes")


@dataclass(slots=True)
class Page:
    seed: int
    placement: str
    running: bool
    journal: str
    lines: list[str]
    read: str | None = None
    ok: bool = False


def _numbers(rng: random.Random) -> dict[str, Any]:
    year = rng.randint(1998, 2024)
    first = rng.randint(1, 2400)
    return {
        "year": year,
        "vol": rng.randint(1, 400),
        "iss": rng.randint(1, 12),
        "first": first,
        "last": first + rng.randint(4, 18),
        "article": rng.randint(100, 99999),
        "month": rng.choice(_MONTHS),
        "day": rng.randint(1, 28),
        "issn": f"{rng.randint(1000, 9999)}-{rng.randint(100, 999)}{rng.choice('0123456789X')}",
        "authors": rng.sample(_SURNAMES, 2),
    }


def placement_lines(placement: str, journal: str, title: str, n: dict[str, Any]) -> tuple[list[str], list[str], str]:
    """(lines over the title, lines at the page's foot, the line on the later pages) for ``placement``."""
    a, b = n["authors"]
    doi = f"https://doi.org/10.{1000 + n['vol']}/j.{n['article']}"
    heads = {
        "elsevier head": f"{journal} {n['vol']} ({n['year']}) {n['first']}–{n['last']}",
        "nlm head": f"{journal} {n['year']};{n['vol']}:{n['first']}–{n['last']}",
        "bmc head": f"{a} et al. {journal} ({n['year']}) {n['vol']}:{n['iss']}",
        "oxford head": f"{journal}, {n['vol']}({n['iss']}), {n['year']}, {n['first']}–{n['last']}",
        "tandf head": f"{journal.upper()}, {n['year']}, VOL. {n['vol']}, NO. {n['iss']}, {n['first']}–{n['last']}",
    }
    feet = {
        "plos foot": f"{journal} | {doi} {n['month']} {n['day']}, {n['year']}",
        "frontiers foot": f"{journal} | www.frontiersin.org {n['day']} {n['month']} {n['year']} | Volume {n['vol']} | Article {n['article']}",
        "nature foot": f"{journal} | ({n['year']}) {n['vol']}:{n['article']} | {doi}",
        "mdpi foot": f"{journal} {n['year']}, {n['vol']}, {n['article']}",
    }
    boxes = {
        "plos citation": f"Citation: {a} A, {b} C ({n['year']}) {title}. {journal} {n['vol']}({n['iss']}): e{n['article']}. {doi}",
        "bmc citation": f"Cite this article as: {a} et al.: {title}. {journal} {n['year']}, {n['vol']}:{n['iss']}",
        "mdpi citation": f"Citation: {a}, A.; {b}, C. {title}. {journal} {n['year']}, {n['vol']}, {n['article']}.",
    }
    mastheads = {
        "masthead copyright": [journal, f"© The Author(s) {n['year']}. Published by Oxford University Press."],
        "masthead volume": [journal, f"Volume {n['vol']}, Issue {n['iss']}, {n['year']}, pp. {n['first']}–{n['last']}"],
        "hindawi masthead": [journal, f"Volume {n['year']}, Article ID {n['article']}, {n['iss'] + 3} pages", doi],
        "masthead issn": [journal, f"ISSN {n['issn']} (Print)"],
        "issn abbreviated": [f"ISSN: {n['issn']} {journal}, Vol {n['vol']}, Issue {n['iss']}, {n['year']}, {n['first']}-{n['last']}"],
        "masthead narrow": [journal, f"Volume {n['vol']}, Issue {n['iss']}, {n['year']}, pp. {n['first']}–{n['last']}"],
    }
    if placement in heads:
        return [heads[placement]], [], heads[placement]
    if placement in feet:
        return [], [feet[placement]], feet[placement]
    if placement in boxes:
        return [], [boxes[placement]], ""
    return mastheads[placement], [], ""


def draw_page(page: Page, title: str, rng: random.Random) -> bytes:
    """The first page (and a second of body text) of ``page``; the journal's lines kept on ``page``."""
    numbers = _numbers(rng)
    over, foot, running = placement_lines(page.placement, page.journal, title, numbers)
    page.lines = over + foot
    first, second = Canvas(612, 792), Canvas(612, 792)
    y = 50.0
    masthead = page.placement.startswith(("masthead", "hindawi"))
    # Elsevier's masthead: the name centred in a middle column between the publisher's logo and the
    # cover's picture, so that a long name wraps, the issue line centred under it
    column = (192.0, 228.0) if page.placement == "masthead narrow" else (72.0, 468.0)
    for index, line in enumerate(over):
        size = 18.0 if masthead and index == 0 else 8.5
        font = _BOLD if size > 10 else _REGULAR
        y = _wrapped(first, line, font, size, y, column, centred=column[0] > 72) + (10 if size > 10 else 4)
    y += 24
    y = _wrapped(first, title, _BOLD, 16, y) + 10
    names = " ".join(
        f"{given} {surname}{n}" for n, (given, surname) in enumerate(zip(("Anna", "Carl"), numbers["authors"], strict=True), 1)
    )
    first.text(72, y, names.replace("1 ", "1, ", 1), _REGULAR, 10.5)
    y += 14
    first.text(72, y, "1 Department of Medicine, University of Toronto, Toronto, ON, Canada", _REGULAR, 8)
    first.text(72, y + 11, "2 School of Public Health, Fudan University, Shanghai 200032, China", _REGULAR, 8)
    _body(first, y + 40, 680)
    for index, line in enumerate(foot):
        _wrapped(first, line, _REGULAR, 7.5, 735 + 10 * index)
    if page.running and running:
        at_top = page.placement.endswith("head")
        _wrapped(second, running, _REGULAR, 7.5, 40 if at_top else 760)
    _body(second, 72, 700)
    return write_pdf([first, second], title)


def _wrapped(
    canvas: Canvas, text: str, font: str, size: float, y: float, column: tuple[float, float] = (72.0, 468.0), *, centred: bool = False
) -> float:
    """``text`` set in lines no wider than ``column`` (its left edge and width), from its left edge
    or centred in it; the baseline under the last line."""
    left, width = column
    lines = [""]
    for word in text.split():
        if lines[-1] and text_width(f"{lines[-1]} {word}", font, size) > width:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    for line in lines:
        indent = (width - text_width(line, font, size)) / 2 if centred else 0.0
        canvas.text(left + indent, y, line, font, size)
        y += size * 1.25
    return y


_BODY = (
    "The clutches were counted along four transects every week, and the water level was read at each visit from a "
    "staff gauge fixed to the bank of the stream before the survey began. Each estimate is given with its interval, "
    "and the differences between the sites are discussed below with the methods that produced them."
)


def _body(canvas: Canvas, y: float, bottom: float) -> None:
    for heading in ("Abstract", "Background", "Methods"):
        if y > bottom - 60:
            return
        canvas.text(72, y, heading, _BOLD, 10)
        y = _wrapped(canvas, _BODY, _REGULAR, 9.5, y + 14) + 10


# ---------------------------------------------------------------- the probe


def score(page: Page) -> None:
    """Score as ``eval parse`` does (:func:`score_metadata`)."""
    found = score_metadata(Metadata(journal=[page.journal]), Metadata(journal=[page.read] if page.read else None))
    page.ok = bool(found.fields.get("journal"))


def probe(journals: list[str], titles: list[str], pages: int, seed: int, folder: Path, keep: Path | None = None) -> list[Page]:
    """Draw, parse and score ``pages`` first pages; the PDFs of the pages read wrong are moved to ``keep``."""
    rng = random.Random(seed)
    done = []
    for number in range(pages):
        placement = rng.choices(list(PLACEMENTS), list(PLACEMENTS.values()))[0]
        page = Page(seed=number, placement=placement, running=rng.random() < 0.7, journal=rng.choice(journals), lines=[])
        path = folder / f"page{number}.pdf"
        path.write_bytes(draw_page(page, rng.choice(titles), rng))
        page.read = parse_pdf(path).journal
        score(page)
        if page.ok or keep is None:
            path.unlink()
        else:
            path.replace(keep / path.name)
        done.append(page)
    return done


def _titles(shared: Path) -> list[str]:
    """Titles for the pages: the byline probe's (the development pairs' references), those of one sentence and up to 140 characters."""
    return [title.rstrip(".") for title in reference_titles(shared) if len(title) <= 140 and ". " not in title.rstrip(".")]


def summary(pages: list[Page]) -> dict[str, Any]:
    """Failure shares: per placement, per kind of name, overall."""
    by_placement: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for page in pages:
        key = f"{page.placement}{' (running)' if page.running and page.placement in _RUNNING else ''}"
        by_placement[key][0] += not page.ok
        by_placement[key][1] += 1
        for kind in kinds(page.journal):
            by_kind[kind][0] += not page.ok
            by_kind[kind][1] += 1
    return {
        "pages": len(pages),
        "pages_right": sum(page.ok for page in pages),
        "failed_by_placement": {k: f"{f}/{n}" for k, (f, n) in sorted(by_placement.items())},
        "failed_by_kind_of_name": {k: f"{f}/{n}" for k, (f, n) in sorted(by_kind.items())},
    }


def main() -> int:
    options = probe_options(__doc__.split("\n\n")[0], one_at_a_time=False)
    journals, left_out = collect_journals(options.shared)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        pages = probe(journals, _titles(options.shared), options.pages, options.seed, Path(folder), options.keep)
    report = {"journals": len(journals), "left_out": left_out, **summary(pages), "seconds": round(time.monotonic() - started, 1)}
    report_pages(
        options,
        report,
        pages,
        lambda page: (
            f"{page.placement}{' running' if page.running else ''}: {page.journal!r}\n  drawn: {' / '.join(page.lines)}\n  read:  {page.read!r}"
        ),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
