"""The eighteenth unseen batch's set (``benchmarks/unseen_set.py --batch 18``): real documents from
packages no earlier batch used, drawn for their title pages and bylines (an arXiv stamp, R News'
layout, names over institutions, in grids, with footnote marks, after a role, past the page's edge),
with a hand-read truth for each title page."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.unseen_pdfs import unseen_folder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 18]
SET = unseen_folder(18)
_TRUTH = ROOT / "benchmarks" / "data" / "metadata_truth.json"


def _truth() -> dict[str, dict]:
    return {paper["file"]: paper for paper in json.loads(_TRUTH.read_text(encoding="utf-8"))["unseen"]["papers"]}


def test_batch_18_draws_only_on_packages_no_earlier_batch_used() -> None:
    assert len(BATCH) == 18
    earlier = {paper.package for paper in PAPERS if paper.batch < 18}
    assert not {paper.package for paper in BATCH} & earlier
    assert all(paper.licence for paper in BATCH)


def test_batch_18_truth_reads_every_byline_and_prints_no_journal() -> None:
    """Every page names its authors; none prints a journal or a DOI and only the arXiv stamp gives
    a year, so the batch scores titles and bylines. The byline that runs past the page's edge keeps
    all seven names, those after 'based on earlier versions written by' included."""
    truth = _truth()
    read = {paper.name: truth[f"{paper.name}.pdf"] for paper in BATCH}
    assert all(entry["authors"] and entry["kind"] == "real" for entry in read.values())
    assert all(entry["journal"] is None and entry["doi"] is None for entry in read.values())
    assert {name: entry["year"] for name, entry in read.items() if entry["year"]} == {"jsonlite-json-mapping-arxiv": 2014}
    assert len(truth["mi-missing-data-example.pdf"]["authors"]) == 7
    assert len(truth["ethiop-ethiopian-babel.pdf"]["authors"]) == 4


def test_a_lowercase_sweave_source_is_named_so_the_set_keeps_its_gold() -> None:
    """plot3D ships its Sweave source as ``plot3D.rnw``, which the builder finds only when named."""
    plot3d = next(paper for paper in BATCH if paper.name == "plot3d-plotting-tools")
    assert plot3d.source is not None and plot3d.source.endswith("plot3D.rnw")


@pytest.mark.skipif(not (SET / "MANIFEST.tsv").is_file(), reason="the set is built from Debian packages, outside the repository")
def test_built_batch_18_has_ten_sources_with_their_code_chunks_as_verbatim() -> None:
    rows = [line.split("\t") for line in (SET / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    gold = [row[0] for row in rows if row[1] == "gold-latex"]
    assert len(gold) == 10
    source = (SET / "plot3d-plotting-tools.tex").read_text(encoding="utf-8")
    assert "\\begin{verbatim}" in source and "<<" not in source.split("\\begin{document}", 1)[-1][:2000]
