"""The tenth unseen batch's set (``benchmarks/unseen_set.py --batch 10``): real papers from Debian
packages no earlier batch drew on, most from outside r-cran/r-bioc (TeX Live's documentation
packages, scientific software's doc folders), chosen for pages that print their journal (TUGboat,
The PracTeX Journal, Cahiers GUTenberg), two columns and fields beyond statistics, given their
hand-read truth before anyone parsed them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 10]


def _truth() -> tuple[str, dict[str, dict[str, object]]]:
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    return truth["unseen"]["about"], {paper["file"]: paper for paper in truth["unseen"]["papers"]}


def test_batch_10_draws_mostly_on_packages_outside_r() -> None:
    """Packages, names and a truth for each page are checked for every batch in test_unseen_batches;
    this batch was drawn for what the R vignettes of batches 1-9 lack."""
    outside = [paper for paper in BATCH if not paper.package.startswith(("r-cran-", "r-bioc-"))]
    assert len(outside) > len(BATCH) / 2
    assert all(paper.licence for paper in BATCH)


def test_batch_10_truth_reads_what_its_pages_print() -> None:
    about, papers = _truth()
    assert "Batch 10" in about
    assert all(f"{paper.name}.pdf" in papers for paper in BATCH)
    # a TUGboat running head with volume and year gives the journal and its year
    for name, year in (("tugboat-mp3d-animations", 1997), ("tugboat-cals-tables", 2011), ("tugboat-octavo", 2002)):
        assert papers[f"{name}.pdf"]["journal"] == ["TUGboat"] and papers[f"{name}.pdf"]["year"] == year, name
    # a placeholder masthead names the journal but its year (9999, 2060) is none
    for name in ("tugboat-draft-fewerfloatpages", "tugboat-draft-lazylist"):
        assert papers[f"{name}.pdf"]["journal"] == ["TUGboat"] and papers[f"{name}.pdf"]["year"] is None, name
    practex = papers["practex-turnstile.pdf"]
    assert practex["journal"] == ["The PracTeX Journal"] and practex["year"] == 2007
    # a draft for a journal names it; the draft's date is no year
    gutenberg = papers["cahiers-gutenberg-mp3d.pdf"]
    assert gutenberg["journal"] == ["Cahiers GUTenberg"] and gutenberg["year"] is None
    # a report number is no journal; a version line under the title is no part of it
    assert papers["nikhef-axodraw2-manual.pdf"]["journal"] is None
    assert papers["glimmer-release-notes.pdf"]["title"] == "Glimmer Release Notes"
    # an author printed only in the running head counts
    assert papers["sdpb-manual.pdf"]["authors"] == ["David Simmons-Duffin"]


def test_batch_10_papers_without_gold_say_why() -> None:
    """fewerfloatpages' source is a shell that inputs a .dtx its package does not ship: no gold."""
    assert [paper.name for paper in BATCH if not paper.gold] == ["tugboat-draft-fewerfloatpages"]
    assert all("no gold" in paper.note for paper in BATCH if not paper.gold)
