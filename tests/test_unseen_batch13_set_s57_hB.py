"""The thirteenth unseen batch's set (``benchmarks/unseen_set.py --batch 13``): real papers from Debian
packages no earlier batch drew on, chosen for what the kept-back biomedical papers print and batches 1-12
lack (a publisher's cover page, citation and 'to appear' footnotes naming the venue, proceedings' feet,
superscript affiliation marks, names in capitals), given their hand-read truth before anyone parsed them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 13]


def _truth() -> tuple[str, dict[str, dict[str, object]]]:
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    return truth["unseen"]["about"], {paper["file"]: paper for paper in truth["unseen"]["papers"]}


def test_batch_13_leans_to_papers_that_name_their_venue() -> None:
    """Packages, names and a truth for each page are checked for every batch in test_unseen_batches;
    this batch was drawn for pages that name their proceedings or journal in a cover, a foot or a footnote."""
    about, papers = _truth()
    assert "Batch 13" in about
    assert all(f"{paper.name}.pdf" in papers for paper in BATCH)
    venues = [paper for paper in BATCH if papers[f"{paper.name}.pdf"]["journal"]]
    assert len(venues) >= 5 and all(papers[f"{paper.name}.pdf"]["year"] for paper in venues)


def test_batch_13_truth_reads_what_its_pages_print() -> None:
    _, papers = _truth()
    # a cover page's byline: each affiliation after a comma is no part of the name
    fuse = papers["usenix-fast17-fuse-performance.pdf"]
    assert fuse["authors"] == ["Bharath Kumar Reddy Vangoor", "Vasily Tarasov", "Erez Zadok"] and fuse["year"] == 2017
    # a 'Published as' line at the foot is a citation line; the document's placeholder metadata title is no title
    tlsh = papers["ctc2013-tlsh-hash.pdf"]
    assert tlsh["title"] == "TLSH - A Locality Sensitive Hash" and tlsh["year"] == 2013
    # a 'To appear in the Proceedings of the 1992 Winter Usenix' footnote names the proceedings and their year
    assert papers["usenix1992-libtp-transactions.pdf"]["year"] == 1992
    # TUGboat's foot gives journal and year whatever the proceedings
    assert all(
        papers[name]["journal"] == ["TUGboat"] for name in ("tugboat-eurotex2006-hyphenation.pdf", "tugboat-2006-alqalam-arabic.pdf")
    )
    assert len(papers["metastudent-go-term-report.pdf"]["authors"]) == 6


def test_batch_13_papers_have_their_licences_and_gold_where_shipped() -> None:
    assert all(paper.licence for paper in BATCH)
    assert len(BATCH) == 16
    assert {paper.package for paper in BATCH if paper.package.startswith("r-")} == {
        "r-bioc-monocle",
        "r-cran-rpart",
        "r-cran-filehash",
        "r-cran-hypergeo",
        "r-cran-proto",
    }
