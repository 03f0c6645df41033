"""The nineteenth unseen batch's set (``benchmarks/unseen_set.py --batch 19``): real documents from
packages no earlier batch used, drawn for pages that cite a venue (a title footnote naming a book,
'please cite' blocks naming another paper), for bylines with marks, roles and affiliations and for
the life sciences, with a hand-read truth for each title page."""

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

BATCH = [paper for paper in PAPERS if paper.batch == 19]
SET = unseen_folder(19)
_TRUTH = ROOT / "benchmarks" / "data" / "metadata_truth.json"


def _truth() -> dict[str, dict]:
    return {paper["file"]: paper for paper in json.loads(_TRUTH.read_text(encoding="utf-8"))["unseen"]["papers"]}


def test_batch_19_draws_only_on_packages_no_earlier_batch_used() -> None:
    assert len(BATCH) == 18
    earlier = {paper.package for paper in PAPERS if paper.batch < 19}
    assert not {paper.package for paper in BATCH} & earlier
    assert all(paper.licence for paper in BATCH)
    assert len({paper.name for paper in PAPERS}) == len(PAPERS)


def test_batch_19_truth_reads_every_byline_and_only_a_book_footnote_gives_a_venue() -> None:
    """Every page names its authors; only charsets' title footnote cites a venue (the book its revised
    version appeared in, 1995). The 'please cite' blocks name another paper: ExaML's prints that
    paper's DOI, which is no DOI of the manual."""
    truth = _truth()
    read = {paper.name: truth[f"{paper.name}.pdf"] for paper in BATCH}
    assert all(entry["authors"] and entry["title"] and entry["kind"] == "real" for entry in read.values())
    assert all(entry["doi"] is None for entry in read.values())
    assert {name: entry["year"] for name, entry in read.items() if entry["year"]} == {"maxima-charsets-maple": 1995}
    assert {name: entry["journal"] for name, entry in read.items() if entry["journal"]} == {
        "maxima-charsets-maple": ["Automated Practical Reasoning: Algebraic Approaches"]
    }
    assert truth["examl-manual.pdf"]["journal"] is None and "10.1093/bioinformatics/btv184" in truth["examl-manual.pdf"]["note"]


def test_batch_19_names_after_roles_and_marks_count_without_them() -> None:
    """ProbABEL's names after 'Current Programmers:' and 'Former Programmers:' all count; marks and
    the institutions after commas are no part of any name."""
    truth = _truth()
    assert truth["probabel-manual.pdf"]["authors"] == ["Lennart Karssen", "Maarten Kooyman", "Yurii Aulchenko", "Maksim Struchalin"]
    assert truth["lammps-pdlammps-made-easy.pdf"]["authors"] == ["R. Rahman", "J. T. Foster", "S. J. Plimpton"]
    assert truth["lammps-gay-berne-ellipsoids.pdf"]["authors"] == ["Mike Brown"]
    names = [name for paper in BATCH for name in truth[f"{paper.name}.pdf"]["authors"]]
    assert not [name for name in names if any(mark in name for mark in "*∗†‡,0123456789")]


def test_batch_19_papers_without_gold_say_why() -> None:
    """The builder finds a source only beside the PDF; a note says 'no source' where none ships."""
    with_source = {"lammps-gay-berne-ellipsoids", "limma-package-introduction"}
    with_source |= {"gsubfn-strings-function-arguments", "probabel-manual", "hsaur3-meta-analysis-chapter"}
    assert all(("no source" in paper.note or "no gold" in paper.note) == (paper.name not in with_source) for paper in BATCH)
    assert [paper.name for paper in BATCH if not paper.gold] == ["ggbio-genomic-visualization"]


@pytest.mark.skipif(not (SET / "MANIFEST.tsv").is_file(), reason="the set is built from Debian packages, outside the repository")
def test_built_batch_19_unpacks_gzipped_pdfs_and_keeps_five_sources() -> None:
    rows = [line.split("\t") for line in (SET / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    gold = sorted(row[0] for row in rows if row[1] == "gold-latex")
    assert len(gold) == 5
    assert any(row[3].endswith("CG-DNA.pdf.gz") for row in rows if row[1] == "pdf")
    assert (SET / "lammps-cg-dna-oxdna.pdf").read_bytes().startswith(b"%PDF")
    source = (SET / "hsaur3-meta-analysis-chapter.tex").read_text(encoding="utf-8")
    assert "\\begin{verbatim}" in source and not re.search(r"^<<[^\n]*>>=$", source, re.MULTILINE)
