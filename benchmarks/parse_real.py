#!/usr/bin/env python3
"""The embedded parser on real articles with gold JATS, the kept-back part shown apart.

    python benchmarks/parse_real.py [PAIRS_DIR] [--workers 2] [--json OUT] [--only dev|kept]

PAIRS_DIR (default ../shared/pmc-pairs) holds PDFs beside their JATS XML and a MANIFEST.tsv. The
pairs are split by a fixed rule, decided before any tuning: in MANIFEST order, every fourth PDF
(the 4th, 8th, ...) is *kept back*; the rest are the *development* part. Each part is ingested
into its own corpus (no embedding) with the default settings, then scored with
``paperpyramid eval parse``'s own functions. One line per figure the parser issue asks for:

- sections: soft section-title F1 (micro);
- tables: found (gold tables paired with an extracted one), exact-cell recall, TEDS (the tree
  edit distance similarity of the cells as HTML) and TEDS of the structure alone;
- metadata: title, journal, year, DOI and authors right (share of papers);
- references found: per paper min(parsed, gold) / gold, averaged; papers left with none;
- in-text citations: precision and recall of (sentence, entry) pairs against the JATS xrefs.

Look at the kept-back part's figures only when reporting: tuning on it makes it one more
development set.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from paperpyramid.eval.citations import evaluate_citations
from paperpyramid.eval.metadata import accuracies
from paperpyramid.eval.parse import EvalReport, evaluate, read_manifest
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings

DEFAULT_PAIRS = Path(__file__).resolve().parents[2] / "shared" / "pmc-pairs"
METADATA = ("title", "journal", "year", "doi", "authors")


def split(pairs: Path) -> dict[str, list[str]]:
    """The PDFs of each part, by the fixed rule: every fourth in MANIFEST order is kept back."""
    pdfs = [row.file for row in read_manifest(pairs / "MANIFEST.tsv") if row.kind == "pdf"]
    return {"dev": [pdf for n, pdf in enumerate(pdfs, 1) if n % 4], "kept": [pdf for n, pdf in enumerate(pdfs, 1) if not n % 4]}


def _part_folder(pairs: Path, pdfs: list[str], folder: Path) -> Path:
    """A folder of links to the part's PDFs and gold files, with its own MANIFEST.tsv."""
    folder.mkdir(parents=True)
    lines = (pairs / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    rows = [lines[0]]
    for line in lines[1:]:
        name, _kind, pairs_with = line.split("\t")[:3]
        if name in pdfs or pairs_with in pdfs:
            rows.append(line)
            (folder / name).symlink_to(pairs / name)
    (folder / "MANIFEST.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def figures(report: EvalReport, citations: list[Any], seconds: float, failed: int) -> dict[str, Any]:
    tables = [table for paper in report.tables for table in paper.scores]
    found = [table for table in tables if table.detected]
    metadata = accuracies([score for _pdf, score in report.metadata])
    references = [
        min(paper.score.predicted_references or 0, paper.score.gold_references) / paper.score.gold_references
        for paper in report.papers
        if paper.score.gold_references
    ]
    gold_cites = sum(score.gold for score in citations)
    predicted_cites = sum(score.predicted for score in citations)
    correct_cites = sum(score.correct for score in citations)
    return {
        "papers": report.overall.papers,
        "failed": failed,
        "ingest_seconds": round(seconds, 1),
        "sections_f1": report.overall.micro_f1,
        "tables_gold": len(tables),
        "tables_found": len(found) / len(tables) if tables else None,
        "tables_exact_cell": _mean([table.exact_cell_recall for table in tables]),
        "tables_teds": _mean([getattr(table, "teds", None) for table in tables]),
        "tables_teds_struct": _mean([getattr(table, "teds_structure", None) for table in tables]),
        **{field: metadata[field][0] for field in METADATA},
        "references_found": _mean(references),
        "papers_without_references": sum(
            1 for paper in report.papers if paper.score.gold_references and not paper.score.predicted_references
        ),
        "citations_precision": correct_cites / predicted_cites if predicted_cites else None,
        "citations_recall": correct_cites / gold_cites if gold_cites else None,
    }


def _mean(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return sum(present) / len(present) if present else None


def run_part(pairs: Path, pdfs: list[str], scratch: Path, name: str, workers: int) -> dict[str, Any]:
    folder = _part_folder(pairs, pdfs, scratch / name)
    db = scratch / f"{name}.sqlite"
    started = time.perf_counter()
    summary = ingest(sorted(folder.glob("*.pdf")), db, Settings(ingest=IngestSettings(workers=workers, embed=False, jats=False)))
    seconds = time.perf_counter() - started
    report = evaluate(folder, db)
    citations = evaluate_citations(folder)
    return figures(report, citations, seconds, summary.count("failed"))


def render(results: dict[str, dict[str, Any]]) -> str:
    names = list(results)
    lines = ["| figure | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for key in results[names[0]]:
        cells = []
        for name in names:
            value = results[name][key]
            cells.append("-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value))
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="?", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("dev", "kept"))
    parser.add_argument("--json", type=Path, help="write the figures as JSON here too")
    parser.add_argument("--keep", type=Path, help="keep each part's folder and corpus (NAME.sqlite) in this new folder")
    args = parser.parse_args()
    if not (args.pairs / "MANIFEST.tsv").is_file():
        print(f"no MANIFEST.tsv in {args.pairs}", file=sys.stderr)
        return 2
    parts = split(args.pairs)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="parse-real-") as scratch:
        where = args.keep or Path(scratch)
        where.mkdir(parents=True, exist_ok=True)
        for name, pdfs in parts.items():
            if args.only in (None, name):
                results[name] = run_part(args.pairs, pdfs, where, name, args.workers)
    print(render(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
