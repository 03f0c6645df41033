#!/usr/bin/env python3
"""Display equations the parser was not developed on: generated pages with known gold.

    .venv/bin/python benchmarks/unseen_displays.py --split dev --n 30
    .venv/bin/python benchmarks/unseen_displays.py --split heldout --n 30

Each paper (:func:`benchmarks.synthetic.display_papers.generate_displays`) is two pages
of running text with display equations drawn in the text fonts (no math font), parsed with
the embedded parser and scored by :mod:`benchmarks.synthetic.display_scoring`.
``--baseline REV`` also scores the parser of a git revision on the same papers, side by side
(checked out into a temporary worktree, run in a subprocess per paper). The held-out split is for reporting only: ``--failures`` is
refused for it.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: benchmarks.synthetic

from benchmarks.synthetic.display_scoring import render_displays, run_displays  # noqa: E402
from paperpyramid.document import Document, Formula  # noqa: E402

_DUMP = """
import json, sys
from dataclasses import asdict
from pathlib import Path
from paperpyramid.parsers.embedded.parser import parse_pdf
print(json.dumps([asdict(formula) for formula in parse_pdf(Path(sys.argv[1])).formulas]))
"""


def _revision_parser(revision: str) -> Callable[[Path], Document]:
    """A parser that runs the embedded parser of git ``revision`` (a worktree made once) in a subprocess."""
    tree = Path(tempfile.mkdtemp(prefix="paperpyramid-baseline-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(tree / "src"), revision], check=True, capture_output=True)
    atexit.register(lambda: subprocess.run(["git", "worktree", "remove", "--force", str(tree / "src")], check=False, capture_output=True))

    def parse(path: Path) -> Document:
        out = subprocess.run([sys.executable, "-c", _DUMP, str(path)], check=True, capture_output=True, text=True, cwd=tree / "src",
                             env={**os.environ, "PYTHONPATH": str(tree / "src")})  # fmt: skip
        formulas = [Formula(**{**item, "bbox": tuple(item["bbox"]) if item["bbox"] else None}) for item in json.loads(out.stdout)]
        return Document(formulas=formulas)

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--split", choices=("dev", "heldout"), default="dev")
    parser.add_argument("--n", type=int, default=30, help="papers (default 30)")
    parser.add_argument("--failures", type=int, default=0, help="print the false formulas and missed displays of N papers (dev only)")
    parser.add_argument("--baseline", help="a git revision whose parser is scored in the same run")
    parser.add_argument("--keep", type=Path, help="keep the generated PDFs in this folder")
    args = parser.parse_args(argv)
    if args.failures and args.split == "heldout":
        parser.error("--failures is for the dev split: the held-out split is reported, never studied")
    if args.baseline:
        print(
            "\n".join(
                render_displays(f"{args.split} @ {args.baseline}", run_displays(args.split, args.n, parse=_revision_parser(args.baseline)))
            )
        )
    started = time.perf_counter()
    results = run_displays(args.split, args.n, keep=args.keep)
    print("\n".join(render_displays(args.split, results)))
    print(f"({len(results)} papers in {time.perf_counter() - started:.0f} s)")
    for result in results[: args.failures]:
        missed = [index for index, row in enumerate(result.displays) if not row[1] or not row[2]]
        print(f"  seed {result.seed}: not one-to-one or number wrong: displays {missed}; false: {json.dumps(result.false_formulas)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
