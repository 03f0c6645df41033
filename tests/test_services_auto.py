"""``--parser auto`` end to end through the pipeline against a GROBID that answers as the real
one does (recorded TEI served on 127.0.0.1): GROBID's structure when it answers, the embedded
parser's (with the reason recorded) when it is slow or refuses the document."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperpyramid import Corpus
from paperpyramid.ingest import ingest
from paperpyramid.parsers.grobid_tei import tei_to_document
from paperpyramid.settings import IngestSettings, ServiceSettings, Settings
from tests.grobid_server import Scenario, grobid_server

RECORDED = Path(__file__).resolve().parents[2] / "shared" / "recorded" / "grobid"
PDF = "jneuroeng-rehabil-2016-multi-contact-fes.pdf"
TEI = "jneuroeng-rehabil-2016-multi-contact-fes.grobid-0.8.1-coords.tei.xml"


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, bytes]:
    if not (RECORDED / TEI).is_file():
        pytest.skip(f"../shared/recorded/grobid not present ({RECORDED})")
    pdf = tmp_path / PDF
    shutil.copy(RECORDED / PDF, pdf)
    return pdf, (RECORDED / TEI).read_bytes()


def run(pdf: Path, db: Path, url: str, timeout: float = 20) -> Corpus:
    services = ServiceSettings(grobid_url=url, tables_url=None, nougat_url=None, timeout=timeout)
    summary = ingest([pdf], db, Settings(ingest=IngestSettings(parser="auto", workers=0, services=services)))
    assert summary.count("done") == 1, summary.results
    return Corpus.open(db)


def test_auto_takes_sections_and_references_from_grobid(recorded, tmp_path):
    pdf, tei = recorded
    with grobid_server(Scenario(tei=tei, busy_first=1)) as url, run(pdf, tmp_path / "c.sqlite", url) as corpus:
        (article,) = list(corpus.articles())
        expected = tei_to_document(tei)
        assert [s.title for s in corpus.sections(article.id)] == [s.title for s in expected.sections]
        assert article.parser.startswith("grobid")
        assert corpus.conn.execute("SELECT count(*) FROM bib_entries").fetchone()[0] == 49
        pages = [s.page_start for s in corpus.sections(article.id) if s.page_start]
        assert max(pages) >= 8  # page numbers from GROBID's coordinates, not all page 1


def test_auto_falls_back_when_grobid_is_too_slow_and_records_why(recorded, tmp_path):
    pdf, tei = recorded
    with grobid_server(Scenario(tei=tei, delay=5)) as url, run(pdf, tmp_path / "c.sqlite", url, timeout=1) as corpus:
        (article,) = list(corpus.articles())
        assert article.parser == "embedded"
        assert any(w.startswith("GROBID unavailable") for w in article.warnings), article.warnings


def test_auto_falls_back_when_grobid_refuses_the_document(recorded, tmp_path):
    pdf, tei = recorded
    with grobid_server(Scenario(tei=tei, error_status=500)) as url, run(pdf, tmp_path / "c.sqlite", url) as corpus:
        (article,) = list(corpus.articles())
        assert article.parser == "embedded"
        assert any(w.startswith("GROBID could not read the document") for w in article.warnings), article.warnings
        assert len(corpus.sections(article.id)) > 5
