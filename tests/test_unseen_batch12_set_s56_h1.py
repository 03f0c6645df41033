"""The twelfth unseen batch's set (``benchmarks/unseen_set.py --batch 12``): real papers from Debian
packages no earlier batch drew on, chosen to be closest to the biomedical journal articles the parser
is judged on (journal articles as their journals published them, with the journal, year and DOI on
page 1; proceedings papers; medical, genetics and bioinformatics notes), given their hand-read truth
before anyone parsed them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 12]


def _truth() -> tuple[str, dict[str, dict[str, object]]]:
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    return truth["unseen"]["about"], {paper["file"]: paper for paper in truth["unseen"]["papers"]}


def test_batch_12_leans_to_articles_as_their_journals_published_them() -> None:
    """Packages, names and a truth for each page are checked for every batch in test_unseen_batches;
    this batch was drawn for pages that print their journal, year and DOI, as the kept-back papers do."""
    about, papers = _truth()
    assert "Batch 12" in about
    assert all(f"{paper.name}.pdf" in papers for paper in BATCH)
    printed = [paper for paper in BATCH if papers[f"{paper.name}.pdf"]["doi"]]
    assert len(printed) >= 4 and all(papers[f"{paper.name}.pdf"]["journal"] and papers[f"{paper.name}.pdf"]["year"] for paper in printed)


def test_batch_12_truth_reads_what_its_pages_print() -> None:
    _, papers = _truth()
    # a masthead beside its issue line gives the journal without the article's type, and the year
    note = papers["bioinformatics-pfsearchv3.pdf"]
    assert (note["journal"], note["year"], note["doi"]) == (["Bioinformatics"], 2013, "10.1093/bioinformatics/btt129")
    assert len(note["authors"]) == 6  # the associate editor is no author
    # the running head's abbreviation is the journal's too
    assert papers["est-gold-cyanobacteria.pdf"]["journal"] == ["Environmental Science & Technology", "Environ. Sci. Technol."]
    # a proceedings' head with the meeting's year gives the proceedings as journal and that year; the editors are no authors
    scipy = papers["scipy2009-nitime.pdf"]
    assert scipy["year"] == 2009 and len(scipy["authors"]) == 3
    assert papers["dsc2003-r-oo.pdf"]["year"] == 2003
    # a 'TECHNICAL REPORT' banner names no journal; a version line and a subtitle under a bold name are no part of the title
    assert papers["minimap2-technical-report.pdf"]["journal"] is None
    assert papers["haplo-stats-mayo.pdf"]["title"] == "Haplo Stats"


def test_batch_12_papers_have_their_licences_and_gold_where_shipped() -> None:
    assert all(paper.licence for paper in BATCH)
    assert {paper.name for paper in BATCH if paper.package == "sasview-doc"} == {
        "fibre-diffraction-review-2005-corfunc",
        "fibre-diffraction-review-2004-corfunc",
    }
    assert "CC BY" in next(paper.licence or "" for paper in BATCH if paper.package == "pftools")
