"""LaTeX sources through ingest (issue 21, items 1-2): the four shared papers from their source
with their PDFs (latex+pdf, every passage with a page), and an arXiv-style source dump, made
here, streamed with its hostile members refused one by one and the good ones stored."""

from __future__ import annotations

import gzip
import io
import re
import sqlite3
import tarfile
from pathlib import Path

import pytest

from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.test_latex_source import ARTICLE, BBL, METHOD, _sparse_bundle, _targz

SHARED_SOURCES = ("acl-2020-s2orc", "arxiv-1707.08043-amsart-commutative-algebra-compiled",
                  "arxiv-1803.07574-elsarticle-water-residence-time-compiled", "emnlp-2020-scifact-arxiv-2004.14974-compiled")  # fmt: skip


def settings(**options: object) -> Settings:
    return Settings(ingest=IngestSettings(workers=0, embed=False, **options))


def rows(db: Path, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


@pytest.mark.slow
def test_shared_papers_from_source_with_their_pdfs(shared_corpus: Path, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for stem in SHARED_SOURCES:
        for path in shared_corpus.glob(f"{stem}.*"):
            (folder / path.name).write_bytes(path.read_bytes())
    (folder / "acl-2020-specter.pdf").write_bytes((shared_corpus / "acl-2020-specter.pdf").read_bytes())  # a PDF with no source
    db = tmp_path / "c.sqlite"
    summary = ingest([folder], db, settings(latex=True))
    assert summary.count("done") == 5 and summary.count("failed") == 0
    parsers = dict(rows(db, "SELECT source_uri, parser FROM articles"))
    assert {Path(uri).name: parser for uri, parser in parsers.items()} == {
        **{f"{stem}.tex": "latex+pdf" for stem in SHARED_SOURCES},
        "acl-2020-specter.pdf": "embedded",
    }
    assert rows(db, "SELECT count(*) FROM contexts WHERE page_number IS NULL OR page_number < 1") == [(0,)]
    for stem in SHARED_SOURCES:
        bbl = shared_corpus / f"{stem}.bbl"
        tex = (shared_corpus / f"{stem}.tex").read_text(errors="replace")
        items = len(re.findall(r"\\bibitem\b", bbl.read_text(errors="replace") if bbl.is_file() else tex))
        (stored,) = rows(db, "SELECT count(*) FROM bib_entries AS b JOIN articles AS a ON a.id = b.article_id WHERE a.source_uri LIKE ?",
                         f"%{stem}.tex")  # fmt: skip
        assert stored == (items,), stem
    labels = [label for (label,) in rows(db, "SELECT f.label FROM formulas AS f JOIN articles AS a ON a.id = f.article_id "
                                               "WHERE a.source_uri LIKE '%elsarticle%' AND f.label IS NOT NULL ORDER BY f.rowid")]  # fmt: skip
    assert labels == [str(number) for number in range(1, 12)] + ["A.1"]
    # cited in the text: every \cite became a stored citation at its passage
    assert rows(db, "SELECT count(DISTINCT a.id) FROM citations AS ci JOIN bib_entries AS b ON b.id = ci.bib_entry_id "
                    "JOIN articles AS a ON a.id = b.article_id WHERE a.parser = 'latex+pdf'") == [(4,)]  # fmt: skip
    assert dict(rows(db, "SELECT source_uri, arxiv_id FROM articles WHERE arxiv_id IS NOT NULL")) == {
        str((folder / f"{stem}.tex").resolve()): stem.split("-")[1] for stem in SHARED_SOURCES if stem.startswith("arxiv-")
    }


def _dump(tmp_path: Path) -> Path:
    """An arXiv-style source dump: good bundles (a gzipped .tex, a gzipped tar), hostile ones,
    a paper submitted as a PDF, and last a member whose header declares 10 GiB."""
    good_tex = b"\\documentclass{article}\\begin{document}\\section{Fine}Good text about lemon sharks.\\end{document}"
    members: dict[str, bytes] = {
        "2101.00001.gz": gzip.compress(good_tex),
        "2101.00002.gz": _targz({"main.tex": ARTICLE, "method.tex": METHOD, "main.bbl": BBL}),
        "2101.00003.gz": _targz({"main.tex": "\\documentclass{article}\\begin{document}\\input{/etc/passwd}\\end{document}"}),
        "2101.00004.gz": _targz({"main.tex": "\\documentclass{article}\\begin{document}\\input{../secret}\\end{document}"}),
        "2101.00005.gz": _targz(
            {"main.tex": "\\documentclass{article}\\begin{document}\\input{a}\\end{document}", "a.tex": "\\input{b}", "b.tex": "\\input{a}"}
        ),  # fmt: skip
        "2101.00006.gz": _sparse_bundle(tmp_path),
        "2101.00007.gz": gzip.compress(b"\\documentclass{article}\\def\\a{\\a\\a}\\begin{document}\\a\\end{document}"),
    }
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(f"2101/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        pdf = (Path(__file__).parent / "data" / "sample").glob("*.pdf").__next__().read_bytes()
        info = tarfile.TarInfo("2101/2101.00008.pdf")
        info.size = len(pdf)
        tar.addfile(info, io.BytesIO(pdf))
        huge = tarfile.TarInfo("2101/2101.00009.gz")
        huge.size = 10 << 30  # declared, its data never written: refused from its header
        header = huge.tobuf(format=tarfile.GNU_FORMAT)
        tar.fileobj.write(header)
        tar.offset += len(header)
    path = tmp_path / "arXiv_src_2101_001.tar"
    path.write_bytes(buffer.getvalue())
    return path


def test_an_arxiv_source_dump_streams_with_its_hostile_members_refused(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    dump = _dump(tmp_path)
    summary = ingest([dump], db, settings())  # an arXiv_src_ tar: sources whatever --latex says
    log = {uri.rsplit("#", 1)[-1]: (status, error) for uri, status, error in rows(db, "SELECT source_uri, status, error FROM ingest_log")}
    assert {name: status for name, (status, _) in log.items() if status == "done"} == {
        "2101/2101.00001.gz": "done",
        "2101/2101.00002.gz": "done",
        "2101/2101.00008.pdf": "done",
    }
    reasons = {
        "2101/2101.00003.gz": "absolute path '/etc/passwd'",
        "2101/2101.00004.gz": "climbs out of the bundle with '..'",
        "2101/2101.00005.gz": "\\input loop: main.tex -> a.tex -> b.tex -> a.tex",
        "2101/2101.00006.gz": "declares 10.0 GiB, over the limit",
        "2101/2101.00007.gz": "macro \\a expands without end",
    }
    for name, reason in reasons.items():
        status, error = log[name]
        assert status == "failed" and reason in (error or "") and "\n" not in error, (name, error)
    status, error = log["2101/2101.00009.gz"]
    assert status == "failed" and "10737418240 bytes is over the limit" in error, error
    assert summary.count("done") == 3
    stored = dict(rows(db, "SELECT arxiv_id, parser FROM articles"))
    assert stored == {"2101.00001": "latex", "2101.00002": "latex", None: "embedded"}
    # 2101.00002's bibliography names arXiv:2101.00001, stored in the same dump: resolved by arXiv id
    assert rows(db, "SELECT c.arxiv_id FROM bib_entries AS b JOIN articles AS a ON a.id = b.article_id JOIN articles AS c "
                    "ON c.id = b.cited_article_id WHERE a.arxiv_id = '2101.00002'") == [("2101.00001",)]  # fmt: skip
    assert not list((tmp_path).glob("**/archive-*/*.gz")), "extracted members are deleted once stored"
    again = ingest([dump], db, settings())
    assert again.count("done") == 0 and rows(db, "SELECT count(*) FROM articles") == [(3,)]  # a re-run stores nothing twice


def test_a_refused_source_falls_back_to_its_pdf_with_the_reason(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    sample = next((Path(__file__).parent / "data" / "sample").glob("*.pdf"))
    (folder / "paper.pdf").write_bytes(sample.read_bytes())
    (folder / "paper.tex").write_text("\\documentclass{article}\\begin{document}\\input{/etc/passwd}\\end{document}")
    db = tmp_path / "c.sqlite"
    summary = ingest([folder], db, settings(latex=True))
    assert summary.count("done") == 1 and summary.count("failed") == 0
    ((parser, warnings),) = rows(db, "SELECT parser, warnings FROM articles")
    assert parser == "embedded" and "LaTeX source not used: " in warnings and "/etc/passwd" in warnings and "read from the PDF" in warnings


def test_a_project_folder_is_read_with_its_input_parts(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "main.tex").write_text("\\documentclass{article}\\begin{document}\\section{Intro}\\input{intro}\\end{document}")
    (folder / "intro.tex").write_text("The lemon sharks of the lagoon grew to three hundred.")
    db = tmp_path / "c.sqlite"
    assert ingest([folder], db, settings(latex=True)).count("done") == 1
    assert rows(db, "SELECT count(*) FROM contexts WHERE text LIKE '%lemon sharks of the lagoon%'") == [(1,)]
