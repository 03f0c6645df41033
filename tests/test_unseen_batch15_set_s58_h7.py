"""The fifteenth unseen batch's set (``benchmarks/unseen_set.py --batch 15``): real papers from Debian
packages no earlier batch drew on, drawn for their tables (many captioned ``table`` floats typed in
each source, the gold of ``benchmarks/unseen_tables.py --latex``), not for their title pages."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.unseen_pdfs import unseen_folder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 15]
SET = unseen_folder(15)
_FLOAT = re.compile(r"\\begin\{table\*?\}(.*?)\\end\{table\*?\}", re.DOTALL)


def test_batch_15_papers_have_their_licences_and_their_sources() -> None:
    assert len(BATCH) == 18
    assert all(paper.licence and paper.gold for paper in BATCH)
    assert {paper.package for paper in BATCH if not paper.package.startswith("r-")} == {"glpk-utils"}
    assert all("table" in paper.note for paper in BATCH)


@pytest.mark.skipif(not (SET / "MANIFEST.tsv").is_file(), reason="the set is built from Debian packages, outside the repository")
def test_batch_15_sources_type_their_tables() -> None:
    """Every paper's source holds a captioned float with a ``tabular`` typed in it (not printed
    by R code), and the batch forty or more of them: enough tables to learn from."""
    typed = {}
    for paper in BATCH:
        source = (SET / f"{paper.name}.tex").read_text(encoding="utf-8")
        floats = [body for body in _FLOAT.findall(source) if "\\caption" in body and "\\begin{tabular" in body]
        typed[paper.name] = len(floats)
    assert all(typed.values()), typed
    assert sum(typed.values()) >= 40, typed
