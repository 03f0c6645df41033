#!/usr/bin/env python3
"""The embedded parser's bibliographic fields on real PDFs: title, journal, year, DOI, authors.

    python benchmarks/metadata_real.py [--set corpus|dev|both|unseen] [--shared DIR] [--unseen DIR] [--json OUT]

Three sets, scored with ``paperpyramid eval``'s own metadata rules (:func:`score_metadata`):

- **corpus**: the readable articles of ``../shared/corpus`` and the scholarly PDFs of
  ``../shared/recorded`` (28 papers, 23 publishers and preprint styles), against a truth read by
  hand from their first pages, ``benchmarks/data/metadata_truth.json`` (a field the PDF does not
  print is null there and not scored);
- **dev**: the development part of ``../shared/pmc-pairs`` (:func:`parse_real.split`: every
  fourth PDF in MANIFEST order is kept back and never parsed here), against the JATS beside
  each PDF;
- **unseen** (only when asked, ``--set unseen``): the PDFs of publishers' sample articles and
  journal papers that ``benchmarks/unseen_set.py`` builds from Debian packages into ``--unseen``
  (never committed; batch 1's 41 and batch 3's 17 have truth), against the truth read by hand from
  their first pages (the ``unseen`` part of ``metadata_truth.json``); only the PDFs the folder
  holds are scored, so a folder of one batch scores that batch.

Each PDF is parsed with :func:`parse_pdf` (no ingestion); the fields are read as ``eval parse``
reads them from a corpus (the year from the publication date). The script prints each field's
accuracy per set, every miss (truth, then found), the author-affiliation pairs where the truth
gives them (dev's JATS ``<aff>``, scored as ``eval parse`` scores them), and the seconds per PDF:
the whole parse and the front matter's share (the title, author, affiliation, DOI, journal and
date finders).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from parse_real import split  # noqa: E402  (the one rule for the kept-back part)

from paperpyramid.errors import BadInput  # noqa: E402
from paperpyramid.eval.metadata import (  # noqa: E402
    FIELDS,
    Metadata,
    MetadataScore,
    accuracies,
    family_name,
    load_gold_metadata,
    score_metadata,
)
from paperpyramid.eval.parse import read_manifest  # noqa: E402
from paperpyramid.parsers.embedded import citation_lines, front_matter, parser  # noqa: E402
from paperpyramid.parsers.embedded.parser import parse_pdf  # noqa: E402
from paperpyramid.retrieval.filters import year_of  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
TRUTH = Path(__file__).resolve().parent / "data" / "metadata_truth.json"
# the front matter's steps, as the parser calls them (module attributes, so they can be timed)
_TIMED = {
    citation_lines: ("citation_lines",),
    front_matter: ("find_title", "title_text", "find_authors", "find_doi", "find_journal", "find_date"),
    parser: ("attach_affiliations",),
}


class FrontMatterClock:
    """Seconds spent in the front matter's steps while it is entered."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._saved: list[tuple[Any, str, Callable[..., Any]]] = []

    def __enter__(self) -> FrontMatterClock:
        for module, names in _TIMED.items():
            for name in names:
                original = getattr(module, name)
                self._saved.append((module, name, original))
                setattr(module, name, self._timed(original))
        return self

    def __exit__(self, *_: object) -> None:
        for module, name, original in self._saved:
            setattr(module, name, original)

    def _timed(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        return timed


def predicted(pdf: Path) -> tuple[Metadata, float, float]:
    """The fields the parser finds in ``pdf``, the parse's seconds and the front matter's."""
    started = time.perf_counter()
    with FrontMatterClock() as clock:
        document = parse_pdf(pdf)
    seconds = time.perf_counter() - started
    found = Metadata(
        title=document.title,
        authors=[author.name for author in document.authors],
        doi=document.doi,
        journal=[document.journal] if document.journal else None,
        year=year_of(document.date_published),
        affiliations={family_name(author.name): author.affiliation.split("; ") for author in document.authors if author.affiliation}
        or None,
    )
    return found, seconds, clock.seconds


def corpus_set(shared: Path) -> list[tuple[Path, Metadata]]:
    papers = json.loads(TRUTH.read_text(encoding="utf-8"))["papers"]
    return [
        (
            shared / paper["file"],
            Metadata(title=paper["title"], authors=paper["authors"], doi=paper["doi"], journal=paper["journal"], year=paper["year"]),
        )
        for paper in papers
    ]


def unseen_set(folder: Path) -> list[tuple[Path, Metadata]]:
    """The unseen truth for the PDFs in ``folder``: a folder built with ``unseen_set.py --batch N`` holds only that batch."""
    papers = [paper for paper in json.loads(TRUTH.read_text(encoding="utf-8"))["unseen"]["papers"] if (folder / paper["file"]).is_file()]
    return [
        (
            folder / paper["file"],
            Metadata(title=paper["title"], authors=paper["authors"], doi=paper["doi"], journal=paper["journal"], year=paper["year"]),
        )
        for paper in papers
    ]


def dev_set(pairs: Path) -> list[tuple[Path, Metadata]]:
    gold = {row.pairs_with: row.file for row in read_manifest(pairs / "MANIFEST.tsv") if row.kind.startswith("gold-")}
    return [(pairs / pdf, load_gold_metadata(pairs / gold[pdf])) for pdf in split(pairs)["dev"] if pdf in gold]


def run(papers: list[tuple[Path, Metadata]], *, read_by_hand: bool = False) -> dict[str, Any]:
    """Each field's accuracy where the truth gives it, with the misses; with ``read_by_hand`` (a
    truth read from the page, whose empty field says the page prints none), the fields found
    where the page prints none too: ``invented`` counts them, and the papers they were asked of."""
    scores: list[MetadataScore] = []
    misses: list[str] = []
    invented = {name: [0, 0] for name in FIELDS if name != "title"}
    parse_seconds = front_seconds = 0.0
    for pdf, truth in papers:
        try:
            found, seconds, front = predicted(pdf)
        except BadInput as exc:  # a paper the parser refuses scores a miss on every field its truth gives
            found, seconds, front = Metadata(), 0.0, 0.0
            misses.append(f"{pdf.name} refused: {exc}")
        parse_seconds += seconds
        front_seconds += front
        score = score_metadata(truth, found)
        scores.append(score)
        for name in FIELDS:
            if score.fields.get(name) is False:
                misses.append(f"{pdf.name} {name}: {getattr(truth, name)!r} -> {getattr(found, name)!r}")
            elif read_by_hand and name in invented and not getattr(truth, name):
                invented[name][1] += 1
                if getattr(found, name):
                    invented[name][0] += 1
                    misses.append(f"{pdf.name} {name} where the page prints none: {getattr(found, name)!r}")
    count = max(len(papers), 1)
    return {
        "papers": len(papers),
        "accuracy": {name: value for name, (value, _) in accuracies(scores).items()},
        "scored": {name: n for name, (_, n) in accuracies(scores).items()},
        "seconds_per_pdf": parse_seconds / count,
        "front_matter_seconds_per_pdf": front_seconds / count,
        "misses": misses,
        "invented": invented if read_by_hand else {},
        # author-affiliation pairs where the truth gives them (the JATS ``<aff>`` of dev): gold found, gold, right, predicted
        "affiliations": [
            sum(getattr(score, f"affiliations_{part}") for score in scores) for part in ("found", "gold", "right", "predicted")
        ],
    }


def render(name: str, result: dict[str, Any]) -> str:
    figures = "  ".join(
        f"{field} {'-' if value is None else f'{value:.3f}'} ({result['scored'][field]})" for field, value in result["accuracy"].items()
    )
    lines = [
        f"{name}: {result['papers']} papers; {figures}",
        f"  seconds per PDF {result['seconds_per_pdf']:.2f}, of which front matter {result['front_matter_seconds_per_pdf']:.3f}",
    ]
    found, gold, right, given = result["affiliations"]
    if gold:
        lines.append(
            f"  affiliations (author-affiliation pairs): R {found / gold:.3f} ({found}/{gold})  P {right / max(given, 1):.3f} ({right}/{given})"
        )
    if result.get("invented"):
        counts = "  ".join(f"{field} {found}/{asked}" for field, (found, asked) in result["invented"].items())
        lines.append(f"  found where the page prints none (papers): {counts}")
    return "\n".join(lines + [f"  miss {miss}" for miss in result["misses"]])


def main() -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--set", choices=("corpus", "dev", "both", "unseen"), default="both", help="both: corpus and dev")
    arguments.add_argument("--shared", type=Path, default=SHARED, help="the shared folder: corpus/, recorded/ and pmc-pairs/")
    arguments.add_argument("--unseen", type=Path, default=Path("/tmp/s44/unseen"), help="the folder benchmarks/unseen_set.py built")
    arguments.add_argument("--json", type=Path, help="write the figures and misses as JSON here too")
    args = arguments.parse_args()
    sets = {
        "corpus": lambda: corpus_set(args.shared),
        "dev": lambda: dev_set(args.shared / "pmc-pairs"),
        "unseen": lambda: unseen_set(args.unseen),
    }
    folders = {"corpus": args.shared / "corpus", "dev": args.shared / "pmc-pairs", "unseen": args.unseen}
    results: dict[str, Any] = {}
    for name, papers in sets.items():
        if args.set == name or (args.set == "both" and name != "unseen"):
            folder = folders[name]
            if not folder.is_dir():
                print(f"{name}: {folder} is absent, skipped", file=sys.stderr)
                continue
            results[name] = run(papers(), read_by_hand=name != "dev")  # dev's truth is JATS, whose missing field says nothing
            print(render(name, results[name]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
