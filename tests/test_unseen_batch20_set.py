"""The twentieth unseen batch's set (``benchmarks/unseen_set.py --batch 20``): real documents from
packages no earlier batch used, most outside r-cran/r-bioc (genomics, neuroscience, medical imaging,
linguistics, algebraic geometry, numerics), with a hand-read truth for each title page, held out
while batch 19 was tuned on."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.unseen_pdfs import unseen_folder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 20]
SET = unseen_folder(20)
_TRUTH = ROOT / "benchmarks" / "data" / "metadata_truth.json"


def _truth() -> dict[str, dict]:
    return {paper["file"]: paper for paper in json.loads(_TRUTH.read_text(encoding="utf-8"))["unseen"]["papers"]}


def test_batch_20_draws_only_on_packages_no_earlier_batch_used() -> None:
    assert len(BATCH) == 18
    earlier = {paper.package for paper in PAPERS if paper.batch < 20}
    assert not {paper.package for paper in BATCH} & earlier
    assert len({paper.package for paper in BATCH}) == 18
    assert all(paper.licence for paper in BATCH)
    assert sum(paper.package.startswith(("r-cran-", "r-bioc-")) for paper in BATCH) == 2


def test_batch_20_truth_has_a_title_for_every_page_and_no_venue() -> None:
    """Every page prints a title; none prints a journal, a year or a DOI of its own; MPFI's author
    slot names research teams and SRF's cover nobody, so both have no author."""
    truth = _truth()
    read = {paper.name: truth[f"{paper.name}.pdf"] for paper in BATCH}
    assert all(entry["title"] and entry["kind"] == "real" for entry in read.values())
    assert all(entry["doi"] is None and entry["journal"] is None and entry["year"] is None for entry in read.values())
    assert sorted(name for name, entry in read.items() if not entry["authors"]) == ["mpfi-interval-library", "srf-generic-sequence-format"]
    names = [name for entry in read.values() for name in entry["authors"]]
    assert not [name for name in names if re.search(r"[*∗†‡,\d]|M\.D\.", name)]
    assert truth["ctsim-user-manual.pdf"]["authors"] == ["Kevin M. Rosenberg"]  # ", M.D." after it is a degree


def test_batch_20_papers_without_gold_say_why() -> None:
    """Two vignettes ship their Sweave source; FreeFEM's source inputs chapter files the builder does not copy."""
    with_source = {"bbmle-maximum-likelihood", "graph-attributes-objects"}
    assert all(("no source" in paper.note or "no gold" in paper.note) == (paper.name not in with_source) for paper in BATCH)
    assert [paper.name for paper in BATCH if not paper.gold] == ["freefem-user-manual"]


@pytest.mark.skipif(not (SET / "MANIFEST.tsv").is_file(), reason="the set is built from Debian packages, outside the repository")
def test_built_batch_20_unpacks_gzipped_pdfs_and_keeps_two_sources() -> None:
    rows = [line.split("\t") for line in (SET / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    assert sorted(row[0] for row in rows if row[1] == "gold-latex") == ["bbmle-maximum-likelihood.tex", "graph-attributes-objects.tex"]
    assert sum(row[1] == "pdf" for row in rows) == 18
    assert any(row[3].endswith(".pdf.gz") for row in rows if row[1] == "pdf")
    assert all((SET / row[0]).read_bytes().startswith(b"%PDF") for row in rows if row[1] == "pdf")
    source = (SET / "bbmle-maximum-likelihood.tex").read_text(encoding="utf-8")
    assert "\\begin{verbatim}" in source and not re.search(r"^<<[^\n]*>>=$", source, re.MULTILINE)
