"""The fifth unseen batch's set (``benchmarks/unseen_set.py --batch 5``): Bioconductor vignettes
(``r-bioc-*``) and a few more R papers. Epi ships its Sweave sources as ``.rnw``, so the source is
named in the entry and read as Sweave whatever the suffix's case (or its chunks would stay
``<<>>=`` lines in the LaTeX gold); every paper of the batch has its hand-read truth."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS, _read_source  # noqa: E402


def test_a_lower_case_rnw_source_is_read_as_sweave(tmp_path: Path) -> None:
    source = tmp_path / "yll.rnw"
    source.write_text("<<a>>=\nlibrary(Epi)\n@\n\\section{Years of life lost}\n", encoding="utf-8")
    assert _read_source(source, ".rnw") == "\\begin{verbatim}\nlibrary(Epi)\n\\end{verbatim}\n\\section{Years of life lost}\n"


def test_batch_5_names_are_new_and_each_has_its_truth() -> None:
    batch = [paper for paper in PAPERS if paper.batch == 5]
    assert 12 <= len(batch) <= 18
    names = [paper.name for paper in PAPERS]
    assert len(names) == len(set(names))
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    files = {paper["file"] for paper in truth["unseen"]["papers"]}
    assert {f"{paper.name}.pdf" for paper in batch} <= files
    assert all(paper.note.startswith("batch 5:") for paper in batch)


def test_a_package_shipped_beside_the_source_is_copied_once(tmp_path: Path) -> None:
    from unseen_set import _copy_own_packages

    folder, out = tmp_path / "doc", tmp_path / "set"
    folder.mkdir()
    out.mkdir()
    (folder / "ape.sty").write_text("\\newcommand{\\ape}{\\textsf{ape}}\n", encoding="utf-8")
    (folder / "other.sty").write_text("% not used\n", encoding="utf-8")
    (out / "shared.sty").write_text("% another paper's\n", encoding="utf-8")
    (folder / "shared.sty").write_text("% this paper's\n", encoding="utf-8")
    _copy_own_packages("\\usepackage[round]{natbib, ape}\n\\RequirePackage{shared}\n", folder, out)
    assert (out / "ape.sty").read_text(encoding="utf-8").startswith("\\newcommand")
    assert not (out / "other.sty").exists()
    assert (out / "shared.sty").read_text(encoding="utf-8") == "% another paper's\n"
