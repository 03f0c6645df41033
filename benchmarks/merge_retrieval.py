#!/usr/bin/env python3
"""A real corpus cut into parts and merged again answers the QA set as the whole does.

    python benchmarks/merge_retrieval.py --db REAL.sqlite [--qa QA.jsonl] [--shard-by year] [--out OUT]

``parallel_build.py`` checks the merge on synthetic copies, whose passages the QA gold does not
match. This script checks it on a real corpus (an ingest of the shared corpus, embedded, with
pyramids imported or distilled): ``snapshot --shard-by`` cuts it into one corpus file per value of
a column, :func:`paperpyramid.db.parts.merge_parts` (``paperpyramid merge``) adds the parts to one
corpus in the reverse order (so every rowid differs from the whole's), and then

- the two files are compared as ``parallel_build.py`` compares its builds: row counts, and counts
  and digests of resolved references, the pyramid's links and its texts;
- ``eval retrieval`` scores every retrieval mode and pyramid level that needs no LLM on both, with
  the same questions, and the report puts their figures side by side with the largest difference.

Everything goes to ``OUT/merge_retrieval.json``. It needs the QA set's corpus: without ``--qa`` it
looks for the project's shared QA file beside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from parallel_build import fingerprints  # noqa: E402  (benchmarks/parallel_build.py, beside this script)

#: scored on both files: every search mode and pyramid level that needs no LLM
MODES = ("bm25", "vector", "hybrid", "parent", "insights", "concepts", "abstracts")
#: the figures of ``eval retrieval``'s report compared
FIGURES = ("mrr@10", "r@5", "r@20", "within_2k", "within_4k", "within_8k", "all_evidence@20")


def split(db: Path, shard_by: str, folder: Path) -> list[Path]:
    """The corpus at ``db`` as one plain corpus file per value of ``shard_by`` (a sharded snapshot
    to ``folder``, each shard decompressed beside it)."""
    import zstandard

    from paperpyramid.db.snapshot.publish import take_snapshot

    snapshot = take_snapshot(db, folder / "snapshot", shard_by=shard_by)
    parts = []
    for shard in snapshot.shards:
        assert shard.path is not None  # a local snapshot
        packed = shard.path
        part = folder / packed.name.removesuffix(".zst")
        with packed.open("rb") as source, part.open("wb") as target:
            zstandard.ZstdDecompressor().copy_stream(source, target)
        parts.append(part)
    return parts


def scores(db: Path, qa: Path) -> dict[str, Any]:
    """``eval retrieval``'s figures for :data:`MODES` on the corpus at ``db``."""
    from paperpyramid import Corpus
    from paperpyramid.eval import retrieval

    corpus = Corpus.open(db)
    try:
        modes = [mode for mode in MODES if mode in ("bm25", "vector", "hybrid", "parent") or _has_level(corpus, mode)]
        reports = retrieval.evaluate(retrieval.load_questions(qa), retrieval.retrievers(corpus, modes))
        return retrieval.report_to_json(reports)
    finally:
        corpus.close()


def _has_level(corpus: Any, level: str) -> bool:
    return bool(corpus.conn.execute(f"SELECT 1 FROM {level} LIMIT 1").fetchone())


def compare(whole: dict[str, Any], merged: dict[str, Any]) -> dict[str, float]:
    """The largest absolute difference of each mode's overall figures (0.0: the same)."""
    out = {}
    for mode, figures in whole.items():
        if mode not in merged or not isinstance(figures, dict) or "overall" not in figures:
            continue
        a, b = figures["overall"], merged[mode]["overall"]
        out[mode] = max(abs(float(a[name]) - float(b[name])) for name in FIGURES if a.get(name) is not None)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="a real corpus, embedded (pyramids optional)")
    parser.add_argument("--qa", type=Path, default=ROOT.parent.parent / "shared" / "qa" / "corpus-qa.jsonl")
    parser.add_argument("--shard-by", default="year", help="the article column the parts are cut by")
    parser.add_argument("--out", type=Path, default=Path("/tmp/merge_retrieval"))
    args = parser.parse_args()
    if not args.qa.exists():
        parser.error(f"no QA set at {args.qa} (give --qa)")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from paperpyramid.db.parts import merge_parts

    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    whole = args.out / "whole.sqlite"
    shutil.copyfile(args.db, whole)
    started = time.perf_counter()
    parts = split(whole, args.shard_by, args.out)
    split_s = time.perf_counter() - started
    merged = args.out / "merged.sqlite"
    started = time.perf_counter()
    report = merge_parts(list(reversed(parts)), merged)
    merge_s = time.perf_counter() - started
    counts = {"whole": fingerprints(whole), "merged": fingerprints(merged)}
    differ = [name for name in counts["whole"] if counts["whole"][name] != counts["merged"][name]]
    figures = {"whole": scores(whole, args.qa), "merged": scores(merged, args.qa)}
    results = {
        "parts": len(parts),
        "shard_by": args.shard_by,
        "split_s": round(split_s, 1),
        "merge_s": round(merge_s, 1),
        "articles_added": report.articles,
        "counts": counts,
        "differ": differ,
        "retrieval": figures,
        "largest_difference": compare(figures["whole"], figures["merged"]),
    }
    (args.out / "merge_retrieval.json").write_text(json.dumps(results, indent=1, default=str))
    print(render(results))


def render(results: dict[str, Any]) -> str:
    lines = [
        f"{results['parts']} parts by {results['shard_by']} ({results['split_s']} s), merged in reverse order "
        f"({results['merge_s']} s, {results['articles_added']} articles added)",
        "rows, links and texts: " + ("all the same" if not results["differ"] else "DIFFER: " + ", ".join(results["differ"])),
        f"{'mode':<10} {'MRR@10':>15} {'R@5':>15} {'<=4k':>15}   largest difference",
    ]
    whole, merged = results["retrieval"]["whole"], results["retrieval"]["merged"]
    for mode, gap in results["largest_difference"].items():
        a, b = whole[mode]["overall"], merged[mode]["overall"]
        cells = [f"{a[name]:.3f} / {b[name]:.3f}" for name in ("mrr@10", "r@5", "within_4k")]
        lines.append(f"{mode:<10} {cells[0]:>15} {cells[1]:>15} {cells[2]:>15}   {gap:.4f}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
