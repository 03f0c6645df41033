#!/usr/bin/env python3
"""A stress probe of the embedded parser's author reading: real names in the bylines biomedical journals print.

    python benchmarks/byline_probe.py [--seed 1] [--pages 500] [--one-at-a-time] [--json OUT] [--keep DIR] [--shared DIR]

The names are real: every person named in the ``<contrib>`` and reference lists of the JATS
files of ``../shared/pmc-pairs`` (its development part only, :func:`parse_real.split`) and of the
JATS and TEI files of ``../shared/corpus`` (given names and surname as the file gives them; a
reference's initials ``JR`` printed ``J. R.``). Names the standard fonts cannot draw (outside
cp1252: ``Ł``, ``ş``, CJK) are left out and counted, as are a reference's names split inside the
surname (given ``PA Di``, surname ``Salvo``), which no byline prints.

Each page is a title page drawn as real text (:mod:`benchmarks.synthetic.canvas`, Helvetica):
an optional article-type banner, a bold title, a byline of 2 to 8 names drawn at random (seeded)
from the pool, numbered affiliations, an e-mail and a ``*Correspondence:`` line, an abstract
and body text. The byline's conventions are drawn at random too, one value per dimension:

- marks: superscript digits, letters, symbols (``*†‡§``), digits with an equal-contribution
  ``†``, or none (one affiliation);
- how the marks are drawn: raised in a smaller size, or at the text's size and baseline (as
  some text layers give them); before the comma or after it (``Berg,1``);
- the joiners: commas only, ``and`` with and without the Oxford comma, ``&``, Springer's
  middle dot, JAMA's semicolons;
- the names' case: as written, in capitals, the surname in capitals, the surname first;
- degrees after the names (JAMA's ``, MD, PhD``, the Lancet's ``MD``), or none;
- a narrow or a wide column (the byline wrapped over two or three lines), centred or flush left.

Every page is parsed (:func:`parse_pdf`) and scored as ``eval parse`` scores authors (family
names, accents and case folded, as a multiset: :func:`family_name`), and per name. The report
gives the share of pages that fail for each value of each dimension and for each kind of name
(particles, hyphens, initials, diacritics, ...), and every page, drawn and read, in ``--json``;
``--keep`` keeps the PDFs of the pages read wrong. ``--one-at-a-time`` sets every convention at
its first value (the baseline) but one, to tell a convention's failures from a combination's.

A generated page tests a code path, not generalisation: what fails here names a convention
the reader does not handle; what passes here may still fail on a real paper.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parse_real import split  # noqa: E402

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf  # noqa: E402
from paperpyramid.eval.metadata import family_name  # noqa: E402
from paperpyramid.parsers.embedded import parse_pdf  # noqa: E402

_TEI = "{http://www.tei-c.org/ns/1.0}"
_REGULAR, _BOLD = "Helvetica", "Helvetica-Bold"
_PARTICLES = {
    "van",
    "von",
    "de",
    "del",
    "della",
    "der",
    "den",
    "da",
    "do",
    "das",
    "dos",
    "du",
    "di",
    "la",
    "le",
    "bin",
    "al",
    "el",
    "ten",
    "ter",
}


@dataclass(frozen=True, slots=True)
class Person:
    given: str
    surname: str
    suffix: str = ""

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.given, self.surname, self.suffix) if part)


# ---------------------------------------------------------------- the names


def _given(text: str) -> str:
    """Given names as a byline prints them: a reference's bare initials ``JR`` as ``J. R.``."""
    text = " ".join(text.split())
    if re.fullmatch(r"[A-Z]{1,3}\.?", text):  # "JR", "RJ."
        return " ".join(f"{letter}." for letter in text.rstrip("."))
    return re.sub(r"\b([A-Z])(?=\s|$)", r"\1.", text)  # "Hardik K" -> "Hardik K."


def _jats_people(path: Path) -> list[Person]:
    people = []
    for element in ET.parse(path).getroot().iter():
        if element.tag not in ("name", "string-name"):
            continue
        surname, given = element.findtext("surname") or "", element.findtext("given-names") or ""
        if surname.strip() and given.strip():
            people.append(Person(_given(given), " ".join(surname.split()), " ".join((element.findtext("suffix") or "").split())))
    return people


def _tei_people(path: Path) -> list[Person]:
    people = []
    for person in ET.parse(path).getroot().iter(f"{_TEI}persName"):
        given = " ".join(" ".join((part.text or "").split()) for part in person.findall(f"{_TEI}forename"))
        surname = " ".join((person.findtext(f"{_TEI}surname") or "").split())
        if surname and given.strip():
            people.append(Person(_given(given), surname))
    return people


def collect_people(shared: Path) -> tuple[list[Person], int]:
    """The distinct people of the development pairs' and the corpus's gold files, and how many
    were left out for characters Helvetica in WinAnsi cannot draw."""
    pairs = shared / "pmc-pairs"
    dev = {Path(pdf).stem for pdf in split(pairs)["dev"]}
    files = [pairs / f"{stem}.nxml" for stem in sorted(dev)] + sorted((shared / "corpus").glob("*.nxml"))
    people = [person for path in files if path.exists() for person in _jats_people(path)]
    people += [person for path in sorted((shared / "corpus").glob("*.tei.xml")) for person in _tei_people(path)]
    distinct = list(dict.fromkeys(people))
    kept = [person for person in distinct if drawable(person.name) and len(family_name(person.name)) > 1 and not _missplit(person)]
    return kept, len(distinct) - len(kept)


def _missplit(person: Person) -> bool:
    """Whether a reference's name was split inside its surname: the surname's particle left at the
    given names' end ("Di Salvo PA" as given "PA Di", surname "Salvo"), which no byline prints."""
    return bool(re.search(r"\s(?:Di|De|Da|Del|Van|Von|Le|La|Du|Dos)$", person.given))


def drawable(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def kinds(person: Person) -> list[str]:
    """What makes a name hard, for the per-kind failure rates."""
    words = person.surname.split()
    checks = {
        "particle": any(word.lower() in _PARTICLES for word in words) or bool(re.match(r"(?i)(al|el)-", person.surname)),
        "hyphen": "-" in person.name,
        "apostrophe": "'" in person.name or "’" in person.name,
        "diacritic": any(ord(ch) > 127 for ch in person.name),
        "initials only": bool(re.fullmatch(r"(?:[A-Z]\.\s?)+", person.given.replace(" ", ""))),
        "middle initial": bool(re.search(r"\w+\s[A-Z]\.", person.given)),
        "three+ words": len(person.name.split()) >= 3,
        "Mc/Mac": bool(re.match(r"Ma?c[A-Z]", person.surname)),
        "suffix": bool(person.suffix),
        "short surname": len(person.surname) <= 2,
        "capital surname": person.surname.isupper() and len(person.surname) > 1,
    }
    found = [kind for kind, hit in checks.items() if hit]
    return found or ["plain"]


# ---------------------------------------------------------------- the conventions

#: each dimension's values with a rough weight: how often biomedical journals print each (a
#: judgement, not a count); the first is the baseline of ``--one-at-a-time``
DIMENSIONS: dict[str, dict[str, int]] = {
    "marks": {"digits": 45, "letters": 15, "symbols": 5, "digits+equal": 20, "none": 15},
    "drawn": {"raised": 60, "inline": 20, "raised after a space": 20},
    "mark place": {"before comma": 85, "after comma": 15},
    "joiner": {"commas": 35, "and": 25, "oxford and": 10, "ampersand": 8, "middle dot": 12, "semicolons": 10},
    "given names": {"in full": 85, "initials": 15},
    "case": {"as written": 80, "capitals": 10, "surname capitals": 5, "surname first": 5},
    "degrees": {"none": 80, "comma MD PhD": 12, "bare MD": 8},
    "column": {"wide": 60, "narrow": 40},
    "align": {"left": 60, "centred": 40},
    "line breaks": {"between names": 50, "anywhere": 50},
    "banner": {"none": 50, "RESEARCH ARTICLE": 30, "Open Access": 20},
}
_SYMBOLS = ("*", "†", "‡", "§", "¶")
_DEGREES = ("MD", "PhD", "MD, PhD", "MPH", "MSc", "PhD", "MD", "RN, MSN")
_PLACES = (
    "Department of Medicine, University of Toronto, Toronto, ON, Canada",
    "School of Public Health, Fudan University, Shanghai 200032, China",
    "Division of Infectious Diseases, Karolinska Institutet, Stockholm, Sweden",
    "Institute of Pharmacology, Charité – Universitätsmedizin Berlin, Berlin, Germany",
    "Department of Biotechnology, Anand Agricultural University, Anand 388110, Gujarat, India",
    "Faculty of Health Sciences, Universidade de São Paulo, São Paulo, Brazil",
    "Laboratory of Molecular Genetics, Institut Pasteur, 75015 Paris, France",
    "Department of Surgery, Massachusetts General Hospital, Boston, MA 02114, USA",
    "Centre for Clinical Research, The University of Queensland, Brisbane, QLD 4029, Australia",
    "Department of Gastroenterology, Seoul National University Hospital, Seoul, Korea",
)


@dataclass(slots=True)
class Page:
    seed: int
    conventions: dict[str, str]
    people: list[Person]
    byline: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    ok: bool = False
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


Run = tuple[str, str, float, float]  # text, font, size, rise


def _marks(conventions: dict[str, str], count: int, rng: random.Random) -> tuple[list[str], list[str]]:
    """Each author's marks and the affiliations' keys."""
    kind = conventions["marks"]
    if kind == "none":
        return [("*" if i == 0 else "") for i in range(count)], [""]
    places = rng.randint(2, 4)
    keys = [str(n) for n in range(1, places + 1)] if kind.startswith("digits") else list("abcd")[:places]
    keys = list(_SYMBOLS[1 : places + 1]) if kind == "symbols" else keys
    marks = []
    for index in range(count):
        own = sorted(rng.sample(range(places), rng.choice((1, 1, 1, 2))))
        mark = ",".join(keys[i] for i in own)
        if kind == "digits+equal" and index < 2:
            mark += ",†" if kind == "digits+equal" and rng.random() < 0.5 else "†"
        if index == count - 1 or index == 0 and kind != "symbols" and rng.random() < 0.3:
            mark += "*"
        marks.append(mark)
    return marks, keys


def _initials(given: str) -> str:
    """Given names as initials: "Xiao-Li Mary" -> "X.-L. M."."""
    return " ".join("-".join(f"{part[0]}." for part in word.split("-") if part) for word in given.replace(".", " ").split())


def _printed(person: Person, case: str) -> str:
    if case == "capitals":
        return person.name.upper()
    if case == "surname capitals":
        return " ".join(part for part in (person.given, person.surname.upper(), person.suffix) if part)
    if case == "surname first":  # the suffix still closes the name: "ROACH M. 3rd"
        return " ".join(part for part in (person.surname.upper(), person.given, person.suffix) if part)
    return person.name


def _byline_runs(people: list[Person], marks: list[str], conventions: dict[str, str], rng: random.Random) -> list[list[Run]]:
    """Each author's runs: the name, its degrees, its marks, the joiner after it."""
    size = 10.5
    raised = conventions["drawn"].startswith("raised")
    gap = " " if conventions["drawn"] == "raised after a space" else ""
    pieces = []
    for index, (person, mark) in enumerate(zip(people, marks, strict=True)):
        name = _printed(person, conventions["case"])
        degree = rng.choice(_DEGREES)
        if conventions["degrees"] == "comma MD PhD":
            name += f", {degree}"
        elif conventions["degrees"] == "bare MD":
            name += f" {degree.replace(',', '')}"
        joiner = _joiner(conventions["joiner"], index, len(people))
        runs: list[Run] = [(name, _REGULAR, size, 0.0)]
        mark_run: Run = (gap + mark if mark else "", _REGULAR, size * 0.65 if raised else size, size * 0.35 if raised else 0.0)
        if conventions["mark place"] == "after comma" and joiner.startswith(","):
            runs += [(",", _REGULAR, size, 0.0), mark_run, (joiner[1:], _REGULAR, size, 0.0)]
        else:
            runs += [mark_run, (joiner, _REGULAR, size, 0.0)]
        pieces.append([run for run in runs if run[0]])
    return pieces


def _joiner(kind: str, index: int, count: int) -> str:
    if index == count - 1:
        return ""
    last = index == count - 2
    if kind == "middle dot":
        return " · "
    if kind == "semicolons":
        return "; "
    if kind in ("and", "oxford and", "ampersand") and last:
        word = "&" if kind == "ampersand" else "and"
        return f"{',' if kind == 'oxford and' and count > 2 else ''} {word} "
    return ", "


def _wrap(pieces: list[list[Run]], width: float, anywhere: bool) -> list[list[Run]]:
    """The byline's runs in lines no wider than ``width``, broken at spaces: inside a name too
    where ``anywhere``, else only after a name's joiner."""
    if not anywhere:
        return _lines([[*runs[:-1], (runs[-1][0].rstrip(), *runs[-1][1:])] for runs in pieces], width)
    words: list[list[Run]] = [[]]
    for runs in pieces:
        for text, font, size, rise in runs:
            if rise:  # a raised mark stays with its name, a space before it too (MDPI: "Anna Berg 1")
                words[-1].append((text, font, size, rise))
                continue
            parts = text.split(" ")
            for n, part in enumerate(parts):
                if n:
                    words.append([])
                if part:
                    words[-1].append((part, font, size, rise))
    return _lines(words, width)


def _lines(words: list[list[Run]], width: float) -> list[list[Run]]:
    """Unbreakable pieces set in lines no wider than ``width``, a space between two."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for word in words:
        wide = sum(text_width(t, f, s) for t, f, s, _ in word)
        space = text_width(" ", _REGULAR, 10.5)
        if lines[-1] and used + space + wide > width:
            lines.append([])
            used = 0.0
        if lines[-1]:
            lines[-1].append((" ", _REGULAR, 10.5, 0.0))
            used += space
        lines[-1] += word
        used += wide
    return lines


def draw_line(canvas: Canvas, runs: list[Run], baseline: float, left: float, width: float, centred: bool) -> str:
    """Draw ``runs`` (text, font, size, rise) on one line from ``left``, or centred in ``width``; return its text."""
    total = sum(text_width(t, f, s) for t, f, s, _ in runs)
    x = left + (width - total) / 2 if centred else left
    for text, font, size, rise in runs:
        x += canvas.text(x, baseline - rise, text, font, size)
    return "".join(text for text, *_ in runs)


def _email(person: Person) -> str:
    folded = unicodedata.normalize("NFKD", f"{person.given.split()[0]}.{person.surname}").encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z.]", "", folded.lower()).strip(".") + "@example.org"


def draw_page(page: Page, title: str, rng: random.Random) -> bytes:
    """The title page of ``page``: its lines drawn, the byline's text kept on ``page``."""
    conventions = page.conventions
    canvas = Canvas(612, 792)
    centred = conventions["align"] == "centred"
    left, width = (150.0, 312.0) if conventions["column"] == "narrow" else (72.0, 468.0)
    y = 72.0
    if conventions["banner"] != "none":
        canvas.text(72, y, conventions["banner"], _BOLD, 9)
        y += 28
    for line in _title_lines(title):
        draw_line(canvas, [(line, _BOLD, 15, 0.0)], y, 72, 468, centred)
        y += 19
    y += 12
    marks, keys = _marks(conventions, len(page.people), rng)
    for runs in _wrap(_byline_runs(page.people, marks, conventions, rng), width, conventions["line breaks"] == "anywhere"):
        page.byline.append(draw_line(canvas, runs, y, left, width, centred))
        y += 14
    y += 8
    raised = conventions["drawn"].startswith("raised")
    for key, place in zip(keys, rng.sample(_PLACES, len(keys)), strict=False):
        runs = [(key, _REGULAR, 5.5 if raised else 8, 3.0 if raised else 0.0), (place, _REGULAR, 8, 0.0)]
        draw_line(canvas, [run for run in runs if run[0]], y, 72, 468, centred)
        y += 11
    corresponding = page.people[-1] if conventions["marks"] != "none" else page.people[0]
    notes = [f"*Correspondence: {_email(corresponding)}"]
    if conventions["marks"] == "digits+equal":
        notes.append("†These authors contributed equally to this work.")
    for note in notes:
        draw_line(canvas, [(note, _REGULAR, 8, 0.0)], y, 72, 468, centred)
        y += 11
    _body(canvas, y + 16)
    return write_pdf([canvas], title)


def _title_lines(title: str) -> list[str]:
    lines = [""]
    for word in title.split():
        if lines[-1] and text_width(f"{lines[-1]} {word}", _BOLD, 15) > 468:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


_BODY = (
    "The clutches were counted along four transects every week, and the water level was read at each visit from a "
    "staff gauge fixed to the bank of the stream before the survey began. Each estimate is given with its interval, "
    "and the differences between the sites are discussed below with the methods that produced them."
)


def _body(canvas: Canvas, y: float) -> None:
    for heading in ("Abstract", "Background"):
        canvas.text(72, y, heading, _BOLD, 10)
        y += 14
        line = ""
        for word in _BODY.split():
            if line and text_width(f"{line} {word}", _REGULAR, 9.5) > 468:
                canvas.text(72, y, line, _REGULAR, 9.5)
                y += 12
                line = ""
            line = f"{line} {word}".strip()
        canvas.text(72, y, line, _REGULAR, 9.5)
        y += 22


# ---------------------------------------------------------------- the probe


def score(page: Page) -> None:
    """Score as ``eval parse`` does: the family names as a multiset."""
    gold = Counter(family_name(person.name) for person in page.people)
    found = Counter(family_name(name) for name in page.read)
    page.ok = gold == found
    page.missing = sorted((gold - found).elements())
    page.extra = sorted((found - gold).elements())


def probe(
    people: list[Person], titles: list[str], pages: int, seed: int, folder: Path, *, one_at_a_time: bool = False, keep: Path | None = None
) -> list[Page]:
    """Draw, parse and score ``pages`` title pages; the PDFs of the pages read wrong are moved to ``keep``."""
    rng = random.Random(seed)
    full = [person for person in people if any(len(word) > 1 and not word.isupper() for word in re.split(r"[\s.]+", person.given))]
    done = []
    for number in range(pages):
        conventions = {dimension: rng.choices(list(values), list(values.values()))[0] for dimension, values in DIMENSIONS.items()}
        if one_at_a_time:  # every dimension at its first value but one, at another value (a fifth of the pages: none)
            varied = rng.choice(list(DIMENSIONS))
            conventions = {dimension: next(iter(values)) for dimension, values in DIMENSIONS.items()}
            if rng.random() > 0.2:
                conventions[varied] = rng.choice(list(DIMENSIONS[varied])[1:])
        chosen = rng.sample(full if conventions["given names"] == "in full" else people, rng.randint(2, 8))
        if conventions["given names"] == "initials":
            chosen = [Person(_initials(person.given), person.surname, person.suffix) for person in chosen]
        page = Page(seed=number, conventions=conventions, people=chosen)
        path = folder / f"page{number}.pdf"
        path.write_bytes(draw_page(page, rng.choice(titles), rng))
        page.read = [author.name for author in parse_pdf(path).authors]
        score(page)
        if page.ok or keep is None:
            path.unlink()
        else:
            path.replace(keep / path.name)
        done.append(page)
    return done


def reference_titles(shared: Path) -> list[str]:
    """Titles for the pages: the article titles of the development pairs' references."""
    pairs = shared / "pmc-pairs"
    titles = []
    for pdf in split(pairs)["dev"]:
        root = ET.parse(pairs / f"{Path(pdf).stem}.nxml").getroot()
        titles += [" ".join("".join(e.itertext()).split()) for e in root.iter("article-title")]
    return [title for title in titles if 30 <= len(title) <= 160 and drawable(title)]


def summary(pages: list[Page]) -> dict[str, Any]:
    """Failure shares: per dimension's value, per kind of name (a name missed), overall."""
    by_value: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for page in pages:
        for dimension, value in page.conventions.items():
            by_value[dimension][value][0] += not page.ok
            by_value[dimension][value][1] += 1
        missing = Counter(page.missing)
        for person in page.people:
            missed = missing[family_name(person.name)] > 0
            for kind in kinds(person):
                by_kind[kind][0] += missed
                by_kind[kind][1] += 1
    names = sum(len(page.people) for page in pages)
    return {
        "pages": len(pages),
        "pages_right": sum(page.ok for page in pages),
        "names": names,
        "names_missed": sum(len(page.missing) for page in pages),
        "names_extra": sum(len(page.extra) for page in pages),
        "by_convention": {d: {v: f"{f}/{n}" for v, (f, n) in values.items()} for d, values in by_value.items()},
        "missed_by_kind_of_name": {k: f"{f}/{n}" for k, (f, n) in sorted(by_kind.items())},
    }


def probe_options(description: str, *, one_at_a_time: bool = True) -> argparse.Namespace:
    """The probes' shared command line (``--seed``, ``--pages``, ``--one-at-a-time`` where the probe
    varies one convention at a time, ``--json``, ``--keep``, ``--shared``), parsed, with the
    ``--keep`` folder made."""
    arguments = argparse.ArgumentParser(description=description)
    arguments.add_argument("--seed", type=int, default=1)
    arguments.add_argument("--pages", type=int, default=500)
    if one_at_a_time:
        arguments.add_argument("--one-at-a-time", action="store_true", help="vary one convention per page, the others at their most common")
    arguments.add_argument("--json", type=Path, help="write the summary and every page's result here")
    arguments.add_argument("--keep", type=Path, help="keep the PDFs of the pages read wrong here (pageN.pdf, N as in the report)")
    arguments.add_argument("--shared", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared")
    options = arguments.parse_args()
    if options.keep:
        options.keep.mkdir(parents=True, exist_ok=True)
    return options


def report_pages(options: argparse.Namespace, report: dict[str, Any], pages: list[Any], describe: Callable[[Any], str]) -> None:
    """Print a probe's summary ``report`` and each page read wrong (its seed, then ``describe(page)``),
    and write the summary with every page's result to ``--json`` where asked."""
    print(json.dumps(report, indent=1, ensure_ascii=False))
    for page in pages:
        if not page.ok:
            print(f"\n[{page.seed}] {describe(page)}")
    if options.json:
        options.json.write_text(json.dumps({**report, "results": [asdict(page) for page in pages]}, ensure_ascii=False), encoding="utf-8")


def main() -> int:
    options = probe_options(__doc__.split("\n\n")[0])
    people, left_out = collect_people(options.shared)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        titles = reference_titles(options.shared)
        pages = probe(people, titles, options.pages, options.seed, Path(folder), one_at_a_time=options.one_at_a_time, keep=options.keep)
    report = {"people": len(people), "left_out_undrawable": left_out, **summary(pages), "seconds": round(time.monotonic() - started, 1)}
    report_pages(options, report, pages, lambda page: f"{page.conventions}\n  drawn: {' / '.join(page.byline)}\n  read:  {page.read}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
