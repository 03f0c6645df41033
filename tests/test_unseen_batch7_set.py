"""The seventh unseen batch's set (``benchmarks/unseen_set.py --batch 7``): real papers from Debian
packages no earlier batch drew on, chosen for what batches 1-6 lack (pages that print their journal,
year and DOI, two columns, fields beyond statistics), given their hand-read truth before anyone parsed
them. gmm ships its Sweave source with a lower-case ``.rnw``, so the entry names it; scatterplot3d's
``s3d.Rnw`` is a shell that ``\\input``s six files the package does not ship, so it is no gold; pls's
``\\pkg`` selects its font with ``\\fontseries{b}``, whose argument the gold must not print."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from paperpyramid.eval.gold import load_gold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS, Paper, _read_source, _source_of, build_set  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 7]


def test_batch_7_prints_journals_with_their_years() -> None:
    """Packages, names and truth are checked for every batch in test_unseen_batches."""
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    papers = {paper["file"]: paper for paper in truth["unseen"]["papers"]}
    # what the batch was drawn for: pages that print a journal with its year, one with a real DOI
    printed = [papers[f"{paper.name}.pdf"] for paper in BATCH]
    assert sum(bool(read["journal"]) and bool(read["year"]) for read in printed) >= 4
    assert any(read["doi"] for read in printed)


def test_a_lower_case_rnw_named_in_its_entry_is_read_as_sweave(tmp_path: Path) -> None:
    gmm = next(paper for paper in BATCH if paper.name == "gmm-moments")
    assert gmm.source is not None and gmm.source.endswith(".rnw")
    source = tmp_path / "gmm_with_R.rnw"
    source.write_text("\\section{Intro}\n<<a>>=\nx <- 1\n@\n", encoding="utf-8")
    assert (
        _read_source(*_source_of(tmp_path / "gmm_with_R.pdf", source)) == "\\section{Intro}\n\\begin{verbatim}\nx <- 1\n\\end{verbatim}\n"
    )


def test_a_paper_marked_without_gold_gets_no_gold_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A source beside the PDF that only inputs files its package does not ship is left out."""
    import pypdfium2
    import unseen_set

    unpacked = tmp_path / "x"
    (unpacked / "doc").mkdir(parents=True)
    document = pypdfium2.PdfDocument.new()
    document.new_page(200, 200)
    document.save(str(unpacked / "doc" / "s3d.pdf"))
    document.close()
    (unpacked / "doc" / "s3d.Rnw").write_text("\\begin{document}\n\\input{SFBs3d_Intro}\n\\end{document}\n", encoding="utf-8")
    shell = Paper("r-cran-x", "doc/s3d", "shell", "batch 7: test", 7, gold=False)
    whole = Paper("r-cran-x", "doc/s3d", "whole", "batch 7: test", 7)
    monkeypatch.setattr(unseen_set, "PAPERS", (shell, whole))
    monkeypatch.setattr(unseen_set, "fetch_packages", lambda packages, work: unpacked)
    rows = build_set(tmp_path / "out", tmp_path, 7)
    assert [row[0] for row in rows if row[1] == "gold-latex"] == ["whole.tex"]
    assert not (tmp_path / "out" / "shell.tex").exists()


def test_a_font_series_in_a_package_macro_prints_nothing(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_text(
        "\\documentclass{article}\n\\newcommand{\\pkg}[1]{{\\normalfont\\fontseries{b}\\selectfont #1}}\n"
        "\\title{Introduction to the \\pkg{pls} Package}\n\\begin{document}\n\\maketitle\n"
        "\\section{Intro}\nThe {\\fontsize{9}{11}\\usefont{T1}{cmr}{m}{n}\\selectfont small} text.\n\\end{document}\n",
        encoding="utf-8",
    )
    gold = load_gold(path)
    assert gold.title == "Introduction to the pls Package"
    assert "cmr" not in gold.body_text and "small" in gold.body_text
