#!/usr/bin/env python3
"""Tables the engine was not developed on: generated papers with known gold, scored by style.

    .venv/bin/python benchmarks/unseen_tables.py --split dev --n 10
    .venv/bin/python benchmarks/unseen_tables.py --split heldout --n 10 --json /tmp/heldout.json

Each paper is written by :func:`benchmarks.synthetic.generate` (one or two pages of
prose in one or two columns, one table in the given style or none) and parsed with the
embedded parser (``parse_pdf``); its tables are paired with the gold and scored with the
measures of ``paperpyramid eval parse`` (see :mod:`benchmarks.synthetic.scoring`).
``--n`` is the number of papers per style (nine styles, one of them without a table), so
``--n 10`` is 90 papers, 80 tables; on one core that takes about a minute.

The held-out split is for reporting only: never tune the engine on it, and never read its
failures to choose a rule (the rule in :mod:`benchmarks.synthetic`). ``--failures``
prints the worst tables with their gold and extracted grids, and is refused for the
held-out split; reproduce a problem on a dev seed instead.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: benchmarks.synthetic

from benchmarks.synthetic import STYLES, SplitName  # noqa: E402
from benchmarks.synthetic.scoring import PaperResult, papers_of, render_results, results_to_json, run_split  # noqa: E402


def _grid(rows: list[list[str]] | tuple[tuple[str, ...], ...], limit: int = 8) -> list[str]:
    shown = [" | ".join(cell[:24] for cell in row) for row in rows[:limit]]
    return [f"      {line}" for line in shown] + ([f"      ... {len(rows) - limit} more rows"] if len(rows) > limit else [])


def _failures(results: list[PaperResult], count: int) -> list[str]:
    """The ``count`` worst tables (lowest exact-cell recall), with what was drawn and what was read."""
    worst = sorted(
        ((table.exact_cell_recall, result, index) for result in results for index, table in enumerate(result.tables)),
        key=lambda item: item[0],
    )
    lines = []
    for recall, result, index in worst[:count]:
        gold, table = result.gold[index], result.tables[index]
        lines.append(f"  seed {result.seed} {result.style}: exact {recall:.2f}, gold {table.gold_shape}, extracted {table.extracted_shape}, "
                     f"paired by {table.paired_by}; {' '.join(f'{k}={v}' for k, v in result.look.items())}")  # fmt: skip
        lines.append(f"    gold ({gold.grid.label or 'no caption'}, pages {list(gold.pages)}):")
        lines += _grid(gold.grid.rows)
        for extracted in result.extracted:
            lines.append(f"    extracted (label {extracted.grid.label}, page {extracted.page}, caption {extracted.grid.caption[:50]!r}):")
            lines += _grid(extracted.grid.rows)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--split", choices=("dev", "heldout"), default="dev")
    parser.add_argument("--n", type=int, default=10, help="papers per style (default 10: 90 papers, 80 tables)")
    parser.add_argument("--styles", default=",".join(STYLES), help="comma-separated styles (default: all)")
    parser.add_argument("--json", type=Path, help="write every figure, grid and paper there")
    parser.add_argument("--keep", type=Path, help="keep the generated PDFs in this folder")
    parser.add_argument("--failures", type=int, default=0, help="print the N worst tables (dev split only)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    split: SplitName = args.split
    if args.failures and split == "heldout":
        parser.error("--failures is for the dev split: the held-out split is reported, never studied")
    styles = [style for style in STYLES if style in args.styles.split(",")]
    logging.basicConfig(level=logging.ERROR)

    def progress(result: PaperResult) -> None:
        if not args.quiet:
            found = ", ".join(f"exact {table.exact_cell_recall:.2f}" for table in result.tables) or "no table"
            print(f"  {result.seed} {result.style}: {found}; {len(result.false_tables)} false; {result.seconds:.2f} s" + (f"  {result.error}" if result.error else ""),
                  file=sys.stderr)  # fmt: skip

    started = time.perf_counter()
    results = run_split(papers_of(split, args.n, styles), keep=args.keep, progress=progress)
    print("\n".join(render_results(split, results)))
    print(f"({len(results)} papers in {time.perf_counter() - started:.0f} s)")
    if args.failures:
        print("\nworst tables (dev):")
        print("\n".join(_failures(results, args.failures)))
    if args.json:
        args.json.write_text(json.dumps(results_to_json(split, results), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
