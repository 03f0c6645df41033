"""The sixteenth unseen batch's set (``benchmarks/unseen_set.py --batch 16``): real papers whose PDFs no
earlier batch used, drawn for their sections, reference lists and in-text citations, half of them with
the reference list typed in the source (the gold of references found and of citations)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.unseen_pdfs import unseen_folder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 16]
SET = unseen_folder(16)
_BIBITEM = re.compile(r"\\bibitem\b")
_CITE = re.compile(r"\\cite[a-z]*\*?\s*(?:\[[^\]]*\]\s*)*\{")


def test_batch_16_papers_have_their_licences_and_their_sources() -> None:
    assert len(BATCH) == 16
    assert all(paper.licence and paper.gold for paper in BATCH)
    typed = [paper for paper in BATCH if "typed in thebibliography" in paper.note]
    assert len(typed) == 8
    assert {paper.package for paper in BATCH if not paper.package.startswith("r-")} <= {
        "texlive-latex-base-doc",
        "texlive-pictures-doc",
        "texlive-lang-english",
    }


@pytest.mark.skipif(not (SET / "MANIFEST.tsv").is_file(), reason="the set is built from Debian packages, outside the repository")
def test_batch_16_sources_type_their_reference_lists_and_cite_them() -> None:
    """The papers whose note says so type their reference list in the source, five or more
    entries each and a hundred or more in-text citations in all: enough gold to score on."""
    entries, cites = {}, {}
    for paper in BATCH:
        source = (SET / f"{paper.name}.tex").read_text(encoding="utf-8")
        if "typed in thebibliography" in paper.note:
            entries[paper.name] = len(_BIBITEM.findall(source.split("\\begin{thebibliography}", 1)[-1]))
            cites[paper.name] = len(_CITE.findall(source))
        else:
            assert "\\begin{thebibliography}" not in source, paper.name
    assert all(count >= 5 for count in entries.values()), entries
    assert sum(cites.values()) >= 100, cites
