"""The eleventh unseen batch's set (``benchmarks/unseen_set.py --batch 11``): real papers from Debian
packages no earlier batch drew on, all from outside r-cran/r-bioc (TeX Live's language, bibtex-extra,
base, luatex, plain-generic, formats-extra and music packages; the TREE-PUZZLE and Velvet manuals),
chosen for pages that print their journal, a DOI or a proceedings' foot, two columns, languages other
than English and fields beyond statistics, given their hand-read truth before anyone parsed them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 11]


def _truth() -> tuple[str, dict[str, dict[str, object]]]:
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    return truth["unseen"]["about"], {paper["file"]: paper for paper in truth["unseen"]["papers"]}


def test_batch_11_draws_only_on_packages_outside_r() -> None:
    """Packages, names and a truth for each page are checked for every batch in test_unseen_batches;
    this batch was drawn for what the R vignettes of batches 1-9 lack."""
    assert not [paper.name for paper in BATCH if paper.package.startswith(("r-cran-", "r-bioc-"))]
    assert all(paper.licence for paper in BATCH)


def test_batch_11_truth_reads_what_its_pages_print() -> None:
    about, papers = _truth()
    assert "Batch 11" in about
    assert all(f"{paper.name}.pdf" in papers for paper in BATCH)
    # a TUGboat running head with volume and year gives the journal and its year, and the DOI at the foot counts
    printed = papers["tugboat-lua-widow-control.pdf"]
    assert printed["journal"] == ["TUGboat"] and printed["year"] == 2022
    assert printed["doi"] == "10.47397/tb/43-1/tb133chernoff-widows"
    # a reprint's 'First published in TUGboat 43:1 (Chernoff, 2022)' is a citation line; the reprinting journal's DOI counts
    reprint = papers["zpravodaj-lua-widow-control.pdf"]
    assert reprint["journal"] == ["TUGboat"] and reprint["year"] == 2022 and reprint["doi"] == "10.5300/2022-1-4/49"
    # a volume-0 masthead is a placeholder: the journal, no year, unless the foot names the proceedings' year
    for name in ("tugboat-draft-multibibliography", "tugboat-draft-babelbib", "tugboat-draft-metatex"):
        assert papers[f"{name}.pdf"]["journal"] == ["TUGboat"] and papers[f"{name}.pdf"]["year"] is None, name
    assert papers["tugboat-proceedings-startex.pdf"]["year"] == 2001
    eurotex = papers["eurotex99-hyperref-navigation.pdf"]
    assert eurotex["journal"] == ["EuroTeX'99 Proceedings"] and eurotex["year"] == 1999
    # a meeting named over the author is no journal; a placeholder DOI is not printed
    assert papers["dante-herbsttagung-fifinddo.pdf"]["journal"] is None
    assert papers["zpravodaj-csbulletin-style.pdf"]["doi"] is None
    # a manual's version line under the title is no part of it, a version inside the title is
    assert papers["tree-puzzle-manual.pdf"]["title"].startswith("TREE-PUZZLE - Maximum likelihood")
    assert papers["velvet-manual.pdf"]["title"] == "Velvet Manual - version 1.1"


def test_batch_11_papers_without_gold_say_why() -> None:
    """METATeX's plain TeX source has no \\title or \\section for the gold reader: no gold."""
    assert [paper.name for paper in BATCH if not paper.gold] == ["tugboat-draft-metatex"]
    assert all("no gold" in paper.note for paper in BATCH if not paper.gold)


def test_every_batch_can_be_built_alone() -> None:
    """``--batch`` offers every batch the list holds, so a new batch needs no second edit to be built."""
    usage = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "unseen_set.py"), "--help"], capture_output=True, text=True, check=True
    ).stdout
    batches = ",".join(str(batch) for batch in sorted({paper.batch for paper in PAPERS}))
    assert f"--batch {{{batches}}}" in usage and batches.endswith(f",{max(paper.batch for paper in PAPERS)}")
