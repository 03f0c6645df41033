"""What every unseen batch from the fourth on promises (``benchmarks/unseen_set.py``): papers from
packages no earlier batch drew on, each a real paper with its licence, and a hand-read truth for each
title page under a name no other batch uses. Each batch's own test file checks what that batch was
drawn for."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

_TRUTH = ROOT / "benchmarks" / "data" / "metadata_truth.json"


# from batch 16 on, a batch may take PDFs no batch used from a TeX Live documentation package an earlier one drew on
FRESH_PDFS_FROM = 16


@pytest.mark.parametrize("batch", range(4, max(paper.batch for paper in PAPERS) + 1))
def test_a_batch_draws_on_packages_no_earlier_batch_used(batch: int) -> None:
    papers = [paper for paper in PAPERS if paper.batch == batch]
    assert 12 <= len(papers) <= 18
    earlier = [paper for paper in PAPERS if paper.batch < batch]
    assert not {(paper.package, paper.path) for paper in papers} & {(paper.package, paper.path) for paper in earlier}
    reused = {paper.package for paper in papers} & {paper.package for paper in earlier}
    assert not reused or (batch >= FRESH_PDFS_FROM and all(package.startswith("texlive-") for package in reused)), reused
    assert all(paper.note.startswith(f"batch {batch}:") and "real" in paper.note for paper in papers)
    assert all(paper.licence for paper in papers)


# batch 15 was drawn for its tables (their LaTeX sources are the gold); its title pages were not read
TABLES_ONLY = {15}


@pytest.mark.parametrize("batch", [batch for batch in range(5, max(paper.batch for paper in PAPERS) + 1) if batch not in TABLES_ONLY])
def test_a_batch_has_new_names_and_a_truth_for_each_title_page(batch: int) -> None:
    names = [paper.name for paper in PAPERS]
    assert len(names) == len(set(names))
    truth = {paper["file"]: paper for paper in json.loads(_TRUTH.read_text(encoding="utf-8"))["unseen"]["papers"]}
    for paper in (paper for paper in PAPERS if paper.batch == batch):
        read = truth[f"{paper.name}.pdf"]
        assert read["title"] and (read["authors"] or "no author is printed" in read["note"]), paper.name
        assert set(read) >= {"title", "authors", "doi", "journal", "year"}
