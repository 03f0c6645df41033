"""The fourteenth unseen batch's set (``benchmarks/unseen_set.py --batch 14``): real papers from Debian
packages no earlier batch drew on, chosen for the bylines the kept-back biomedical papers print and batches
1-13 lack (names keyed by footnote symbols, six or eight names over several lines, an institution after a
comma, a 'by' line, starred names), given their hand-read truth before anyone parsed them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 14]


def _truth() -> tuple[str, dict[str, dict[str, object]]]:
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    return truth["unseen"]["about"], {paper["file"]: paper for paper in truth["unseen"]["papers"]}


def test_batch_14_leans_to_long_bylines() -> None:
    """Packages, names and a truth for each page are checked for every batch in test_unseen_batches;
    this batch was drawn for bylines: a third of its pages print four names or more."""
    about, papers = _truth()
    assert "Batch 14" in about
    assert all(f"{paper.name}.pdf" in papers for paper in BATCH)
    long_bylines = [paper for paper in BATCH if len(papers[f"{paper.name}.pdf"]["authors"]) >= 4]
    assert len(long_bylines) >= 6


def test_batch_14_truth_reads_what_its_pages_print() -> None:
    _, papers = _truth()
    # footnote symbols after six names keying departments at the foot: no part of the names
    assert len(papers["samr-microarray-significance.pdf"]["authors"]) == 6
    # each name followed by a comma and an institution: eight names, no institution among them
    mutoss = papers["mutoss-multiple-testing.pdf"]["authors"]
    assert len(mutoss) == 8 and not any("University" in name or "Center" in name for name in mutoss)
    # The R Journal's foot gives journal and year; no DOI of the article is printed
    optim = papers["rjournal2019-optimparallel.pdf"]
    assert optim["journal"] == ["The R Journal", "R Journal"] and optim["year"] == 2019 and optim["doi"] is None
    # a title printed with a typo is read as printed
    assert papers["nanostringqcpro-expression-qc.pdf"]["title"] == "NacoStringQCPro"
    # vignette and build dates give no year where no venue is printed
    assert [paper.name for paper in BATCH if papers[f"{paper.name}.pdf"]["year"]] == ["rjournal2019-optimparallel"]


def test_batch_14_papers_have_their_licences_and_gold_where_shipped() -> None:
    assert all(paper.licence for paper in BATCH)
    assert len(BATCH) == 18
    assert {paper.package for paper in BATCH if not paper.package.startswith("r-")} == {"octave-optics"}
