"""The eighth unseen batch's set (``benchmarks/unseen_set.py --batch 8``): real papers from Debian
packages no earlier batch drew on, chosen for what batches 1-7 lack (published versions that cite
themselves, technical reports, fields beyond statistics, papers from packages outside r-cran/r-bioc),
given their hand-read truth before anyone parsed them. dynare-doc ships its paper gzipped, as Debian does
with large files under ``/usr/share/doc``, so the builder unpacks it. qtl's report is no gold: its source has no
``\\title`` and no ``\\section`` (every heading is a bold paragraph), so the gold reader reads nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from paperpyramid.eval.gold import load_gold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from unseen_set import PAPERS, Paper, build_set  # noqa: E402

BATCH = [paper for paper in PAPERS if paper.batch == 8]


def test_batch_8_reaches_beyond_the_r_archives() -> None:
    """Packages, names and truth are checked for every batch in test_unseen_batches."""
    # what the batch was drawn for: at least one paper from outside the R archives
    assert any(not paper.package.startswith(("r-cran-", "r-bioc-")) for paper in BATCH)


def test_batch_8_truth_reads_what_its_pages_print() -> None:
    truth = json.loads((ROOT / "benchmarks" / "data" / "metadata_truth.json").read_text(encoding="utf-8"))
    papers = {paper["file"]: paper for paper in truth["unseen"]["papers"]}
    assert "Batch 8" in truth["unseen"]["about"]
    # the R Journal's footer and a JSS masthead print journal and year; MNP's title footnote cites its JSS
    # version with volume and year; the arXiv stamp gives a year and no venue
    assert papers["rjournal-ctmcd.pdf"]["journal"] == ["The R Journal"] and papers["rjournal-ctmcd.pdf"]["year"] == 2017
    assert papers["jss-powerlaw.pdf"]["year"] == 2015 and papers["jss-powerlaw.pdf"]["doi"] is None  # jss.v000.i00 is a placeholder
    assert papers["mnp-multinomial-probit.pdf"]["journal"] and papers["mnp-multinomial-probit.pdf"]["year"] == 2005
    assert papers["arxiv-bridgesampling-tutorial.pdf"]["year"] == 2017 and papers["arxiv-bridgesampling-tutorial.pdf"]["journal"] is None


def _blank_pdf(path: Path) -> None:
    import pypdfium2

    document = pypdfium2.PdfDocument.new()
    document.new_page(200, 200)
    document.save(str(path))
    document.close()


def test_a_doc_package_paper_keeps_its_licence_and_a_source_without_headings_is_no_gold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paper outside the R library (abinit-doc's path) is copied with the licence its entry names;
    a source whose headings are bold paragraphs, marked ``gold=False``, gets no gold row."""
    import unseen_set

    unpacked = tmp_path / "x"
    (unpacked / "usr" / "share" / "doc" / "abinit").mkdir(parents=True)
    _blank_pdf(unpacked / "usr" / "share" / "doc" / "abinit" / "note.pdf")
    (unpacked / "doc").mkdir()
    _blank_pdf(unpacked / "doc" / "report.pdf")
    (unpacked / "doc" / "report.Rnw").write_text(
        "\\begin{document}\n\\textbf{\\Large A report}\n\n\\textbf{\\sffamily Introduction}\n\nText.\n\\end{document}\n", encoding="utf-8"
    )
    note = Paper("abinit-doc", "usr/share/doc/abinit/note", "note", "batch 8: test", 8, licence="GPL-3+")
    report = Paper("r-cran-x", "doc/report", "report", "batch 8: test", 8, licence="GPL-3+", gold=False)
    monkeypatch.setattr(unseen_set, "PAPERS", (note, report))
    monkeypatch.setattr(unseen_set, "fetch_packages", lambda packages, work: unpacked)
    rows = build_set(tmp_path / "out", tmp_path, 8)
    assert [row[0] for row in rows] == ["note.pdf", "report.pdf"]
    assert rows[0][3] == "debian:abinit-doc:/usr/share/doc/abinit/note.pdf" and rows[0][4] == "GPL-3+"
    # why qtl's report is marked so: the gold reader finds neither title nor sections in such a source
    as_tex = tmp_path / "report.tex"
    as_tex.write_text((unpacked / "doc" / "report.Rnw").read_text(encoding="utf-8"), encoding="utf-8")
    gold = load_gold(as_tex)
    assert gold.title is None and not gold.section_titles


def test_a_pdf_shipped_gzipped_is_unpacked_and_named_as_shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    import pypdfium2
    import unseen_set

    unpacked = tmp_path / "x"
    folder = unpacked / "usr" / "share" / "doc" / "dynare"
    folder.mkdir(parents=True)
    _blank_pdf(tmp_path / "dr.pdf")
    (folder / "dr.pdf.gz").write_bytes(gzip.compress((tmp_path / "dr.pdf").read_bytes()))
    paper = Paper("dynare-doc", "usr/share/doc/dynare/dr", "dr", "batch 8: test", 8, licence="GPL-3+")
    monkeypatch.setattr(unseen_set, "PAPERS", (paper,))
    monkeypatch.setattr(unseen_set, "fetch_packages", lambda packages, work: unpacked)
    rows = build_set(tmp_path / "out", tmp_path, 8)
    assert rows == [["dr.pdf", "pdf", "", "debian:dynare-doc:/usr/share/doc/dynare/dr.pdf.gz", "GPL-3+", "1", "batch 8: test"]]
    document = pypdfium2.PdfDocument(str(tmp_path / "out" / "dr.pdf"))
    assert len(document) == 1
    document.close()
