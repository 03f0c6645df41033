"""The twenty-first unseen batch's set (``benchmarks/unseen_set.py --batch 21``): real documents from
packages no earlier batch used, all but one outside r-cran/r-bioc (compiler construction,
bioinformatics, medical imaging, number and group theory, optimisation, astronomy, typography),
with a hand-read truth for each title page, held out while batch 20 was tuned on."""

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

BATCH = [paper for paper in PAPERS if paper.batch == 21]
SET = unseen_folder(21)
_TRUTH = ROOT / "benchmarks" / "data" / "metadata_truth.json"


def _truth() -> dict[str, dict]:
    return {paper["file"]: paper for paper in json.loads(_TRUTH.read_text(encoding="utf-8"))["unseen"]["papers"]}


def test_batch_21_draws_only_on_packages_no_earlier_batch_used() -> None:
    assert len(BATCH) == 18
    earlier = {paper.package for paper in PAPERS if paper.batch < 21}
    assert not {paper.package for paper in BATCH} & earlier
    assert len({paper.package for paper in BATCH}) == 18
    assert all(paper.licence for paper in BATCH)
    assert sum(paper.package.startswith(("r-cran-", "r-bioc-")) for paper in BATCH) == 1


def test_batch_21_truth_has_a_title_for_every_page_and_no_venue() -> None:
    """Every page prints a title; none prints a journal, a year or a DOI of its own; FASTA's, GYOTO's
    and CD-HIT's pages name nobody and toulbar2's a developer team, so the four have no author."""
    truth = _truth()
    read = {paper.name: truth[f"{paper.name}.pdf"] for paper in BATCH}
    assert all(entry["title"] and entry["kind"] == "real" for entry in read.values())
    assert all(entry["doi"] is None and entry["journal"] is None and entry["year"] is None for entry in read.values())
    nobody = sorted(name for name, entry in read.items() if not entry["authors"])
    assert nobody == ["cdhit-users-guide", "fasta-program-package-guide", "gyoto-quick-user-guide", "toulbar2-user-documentation"]
    assert all("no author is printed" in read[name]["note"] for name in nobody)
    names = [name for entry in read.values() for name in entry["authors"]]
    assert not [name for name in names if re.search(r"[*∗†‡,\d]", name)]
    assert truth["tipa-vowel-package-manual.pdf"]["authors"] == ["Rei Fukui"]  # printed "FUKUI Rei", the family name first in capitals


def test_batch_21_papers_without_gold_say_why() -> None:
    """PARI's tutorial and Matrix's vignette ship a LaTeX or Sweave source the gold reader takes; AutPGrp's and
    wasy's sources are plain TeX with no \\title or \\section for it."""
    with_source = {"pari-modular-forms-tutorial", "matrix-package-introduction"}
    assert all(("no source" in paper.note or "no gold" in paper.note) == (paper.name not in with_source) for paper in BATCH)
    assert sorted(paper.name for paper in BATCH if not paper.gold) == ["gap-autpgrp-manual", "wasy-symbol-font"]


@pytest.mark.skipif(not (SET / "MANIFEST.tsv").is_file(), reason="the set is built from Debian packages, outside the repository")
def test_built_batch_21_unpacks_gzipped_pdfs_and_keeps_two_sources() -> None:
    rows = [line.split("\t") for line in (SET / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    assert sorted(row[0] for row in rows if row[1] == "gold-latex") == [
        "matrix-package-introduction.tex",
        "pari-modular-forms-tutorial.tex",
    ]
    assert sum(row[1] == "pdf" for row in rows) == 18
    assert any(row[3].endswith(".pdf.gz") for row in rows if row[1] == "pdf")
    assert all((SET / row[0]).read_bytes().startswith(b"%PDF") for row in rows if row[1] == "pdf")
    source = (SET / "matrix-package-introduction.tex").read_text(encoding="utf-8")
    assert "\\begin{verbatim}" in source and not re.search(r"^<<[^\n]*>>=$", source, re.MULTILINE)
