"""The ninth unseen batch's set (``benchmarks/unseen_set.py --batch 9``): real papers from Debian
packages no earlier batch drew on, chosen for fields beyond statistics (genetics, phylogenetics,
metagenomics, motif genomics, text mining, psychometrics, political science, economics) and for a
published version the page names, given their hand-read truth before anyone parsed them.
BradleyTerry2's source sets a version line under its title with a size switch typed before the
line break (``\\small \\\\[12pt]For ... version``), which the gold reader once read into the title."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from paperpyramid.eval.gold import load_gold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 9]


def test_batch_9_truth_reads_what_its_pages_print() -> None:
    """Packages, names and a truth for each page are checked for every batch in test_unseen_batches."""
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    papers = {paper["file"]: paper for paper in truth["unseen"]["papers"]}
    assert "Batch 9" in truth["unseen"]["about"]
    # e1071's title footnote cites its smaller R-News version with volume and date, as MNP's did
    svm = papers["rnews-e1071-svm.pdf"]
    assert svm["journal"] and svm["year"] == 2001 and svm["title"] == "Support Vector Machines"
    # Mergeomics' 'please cite' paragraph names another article's journal, not this document's
    assert papers["bioc-mergeomics.pdf"]["journal"] is None and papers["bioc-mergeomics.pdf"]["year"] is None
    # the R News reprint prints no journal: its foot holds only the page number
    assert papers["rnews-genetics.pdf"]["journal"] is None
    # ei's source includes files the package does not ship; it stays a paper without gold
    assert [paper.name for paper in BATCH if not paper.gold] == ["ei-ecological-inference"]


def write(tmp_path: Path, preamble: str) -> Path:
    path = tmp_path / "paper.tex"
    path.write_text(
        "\\documentclass{article}\n" + preamble + "\n\\begin{document}\n\\maketitle\n\\section{Introduction}\nText.\n\\end{document}\n",
        encoding="utf-8",
    )
    return path


def test_a_size_switch_before_the_break_sets_a_line_under_the_title_apart(tmp_path: Path) -> None:
    """BradleyTerry2's ``\\pkginfo``: the smaller lines under the title are a version line, not the title."""
    preamble = (
        "\\newcommand{\\pkginfo}{\\small \\\\[12pt]For version 1.1-2, 2020-02-02\\\\\\url{https://example.org/x}\\\\[-12pt]}\n"
        "\\title{Bradley-Terry Models in R: The Package\n\\pkginfo}\n\\author{A. Author}"
    )
    assert load_gold(write(tmp_path, preamble)).title == "Bradley-Terry Models in R: The Package"
    # a size switch inside the line, not before a break, keeps the title whole
    inline = "\\title{A Title in {\\small Small} Letters}\n\\author{A. Author}"
    assert load_gold(write(tmp_path, inline)).title == "A Title in Small Letters"
