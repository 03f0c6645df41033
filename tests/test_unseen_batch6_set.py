"""The sixth unseen batch's set (``benchmarks/unseen_set.py --batch 6``): papers from Debian packages
that no earlier batch drew on, so that a batch measured before anyone tuned on it says how the parser
does on layouts nobody looked at. BiasedUrn ships its plain LaTeX source as ``.Rtex`` (R's name for
it), so the entry names it and it is read as it is; every paper of the batch has its hand-read truth."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS, _read_source, _source_of  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 6]


def test_batch_6_holds_few_jss_papers() -> None:
    """Packages, names and truth are checked for every batch in test_unseen_batches."""
    assert sum("jss.cls" in paper.note for paper in BATCH) <= 3


def test_an_rtex_source_named_in_its_entry_is_read_as_plain_latex(tmp_path: Path) -> None:
    urn = next(paper for paper in BATCH if paper.name == "biasedurn-urn-theory")
    assert urn.source is not None and urn.source.endswith(".Rtex")
    source = tmp_path / "UrnTheory.Rtex"
    source.write_text("\\title{Biased Urn Theory}\n\\section{Introduction}\n", encoding="utf-8")
    found = _source_of(tmp_path / "UrnTheory.pdf", source)
    assert found == (source, ".Rtex")
    assert _read_source(*found) == "\\title{Biased Urn Theory}\n\\section{Introduction}\n"
    assert _source_of(tmp_path / "UrnTheory.pdf") is None  # not found by the PDF's name alone
