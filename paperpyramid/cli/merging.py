"""``paperpyramid merge``: corpora ingested apart made one (the parallel build)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from paperpyramid.cli.common import DbOption, console
from paperpyramid.db.parts import merge_parts


def merge(
    parts: Annotated[list[Path], typer.Argument(help="Corpus files ingested apart (each by its own process, machine or Dask worker).")],
    db: DbOption = Path("paperpyramid.sqlite"),
) -> None:
    """Add corpora ingested apart to one corpus (made from the first part when --db does not
    exist): every row keeps its id; an article already in the corpus (the same input, DOI, PMID
    or PMCID) is kept once; references between papers of different parts are resolved; the
    full-text, BM25 and vector indexes are brought up to date. The parts must be embedded with
    the same model and are only read. Merging the same parts again adds nothing."""
    console.print(f"merging {len(parts)} part{'s' if len(parts) != 1 else ''} into {db}", highlight=False)

    def on_part(part: Path, added: int, duplicates: int) -> None:
        console.print(
            f"  {part.name}: {added} article{'s' if added != 1 else ''} added, {duplicates} already in the corpus", highlight=False
        )

    report = merge_parts(parts, db, on_part=on_part)
    console.print(
        f"{report.articles} articles added from {report.parts} parts, {report.duplicates} kept once, "
        f"{report.references} references between parts resolved, indexes up to date ({report.seconds:.1f} s) -> {db}",
        highlight=False,
    )
