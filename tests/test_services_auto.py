"""``--parser auto`` end to end through the pipeline against a GROBID that answers as the real
one does (recorded TEI served on 127.0.0.1): GROBID's structure when it answers, the embedded
parser's (with the reason recorded) when it is slow or refuses the document."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paperpyramid import Corpus
from paperpyramid.ingestion import ingest
from paperpyramid.parsers.grobid_tei import tei_to_document
from paperpyramid.settings import IngestSettings, ServiceSettings, Settings
from tests.grobid_server import Scenario, grobid_server
from tests.test_nougat import behaviour, recording, served  # noqa: F401 - fixtures
from tests.test_unstructured import service_url as tables_service  # noqa: F401 - a fixture

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


LAFIA_PDF = "lafia-jems-2017-agricultural-export-nigeria.pdf"
LAFIA_TEI = "lafia-jems-2017-agricultural-export-nigeria.grobid-0.8.0.tei.xml"


def test_auto_merges_service_tables_in_place_of_grobids(tmp_path, tables_service):  # noqa: F811 - the fixture
    """GROBID (0.8.0 recording: 6 tables) and the table service (recorded Unstructured 0.22
    answer: 2 tables) both answer: the article has the table service's tables, with their cells,
    on the pages sent, and GROBID's sections and references."""
    if not (RECORDED / LAFIA_TEI).is_file():
        pytest.skip(f"../shared/recorded/grobid not present ({RECORDED})")
    url_tables, partition = tables_service
    tei = (RECORDED / LAFIA_TEI).read_bytes()
    pdf = tmp_path / LAFIA_PDF
    shutil.copy(RECORDED / LAFIA_PDF, pdf)
    services = ServiceSettings(grobid_url=None, tables_url=url_tables, nougat_url=None, timeout=30)
    with grobid_server(Scenario(tei=tei)) as url_grobid:
        services = services.model_copy(update={"grobid_url": url_grobid})
        summary = ingest([pdf], tmp_path / "c.sqlite", Settings(ingest=IngestSettings(parser="auto", workers=0, services=services)))
    assert summary.count("done") == 1, summary.results
    assert partition.calls == [(3, None)]  # a PDF of only the three pages with a "Table N" line (9-11) was sent
    grobid_doc = tei_to_document(tei)
    assert len(grobid_doc.tables) == 6
    with Corpus.open(tmp_path / "c.sqlite") as corpus:
        (article,) = list(corpus.articles())
        # GROBID's header has no journal or date for this paper: the embedded parse's (from the
        # citation line in the PDF's title field) fill them, so it is named too
        assert article.parser == "grobid+unstructured+embedded"
        assert not grobid_doc.journal and article.journal
        rows = corpus.conn.execute("SELECT page, cells, markdown, provenance FROM tables ORDER BY page").fetchall()
        assert [row[0] for row in rows] == [9, 10]
        shapes = [(len(json.loads(cells)), max(len(r) for r in json.loads(cells))) for _, cells, _, _ in rows]
        assert shapes == [(6, 4), (9, 4)]  # rows x columns of the recorded text_as_html
        assert all(markdown.count("\n") == len(json.loads(cells)) for _, cells, markdown, _ in rows)
        assert {row[3] for row in rows} == {"unstructured"}
        assert [s.title for s in corpus.sections(article.id)] == [s.title for s in grobid_doc.sections]
        assert corpus.conn.execute("SELECT count(*) FROM bib_entries").fetchone()[0] == len(grobid_doc.references)


def test_auto_stores_nougat_equations_as_latex_on_their_pages(tmp_path, recording, served, behaviour):  # noqa: F811 - fixtures
    """The Nougat service (recorded 0.1.17 output behind our app) is the only one configured:
    its display equations are stored as LaTeX on the pages that print them, replacing the
    embedded parser's formulas there, and are searchable as contexts."""
    from paperpyramid.parsers import nougat

    pdf_path, mmd = recording
    pdf = tmp_path / pdf_path.name
    shutil.copy(pdf_path, pdf)
    services = ServiceSettings(grobid_url=None, tables_url=None, nougat_url=served[0], timeout=30)
    summary = ingest([pdf], tmp_path / "c.sqlite", Settings(ingest=IngestSettings(parser="auto", workers=0, services=services)))
    assert summary.count("done") == 1, summary.results
    expected = [latex for latex, _ in nougat.display_equations(mmd)]
    with Corpus.open(tmp_path / "c.sqlite") as corpus:
        (article,) = list(corpus.articles())
        assert article.parser == "embedded+nougat"
        rows = corpus.conn.execute(
            "SELECT page, latex, label, provenance FROM formulas WHERE provenance = 'nougat' ORDER BY page, label"
        ).fetchall()
        assert [(page, label) for page, _, label, _ in rows] == [(3, "1"), (3, "2"), (4, "3"), (5, "4"), (5, "5")]
        assert [latex for _, latex, _, _ in rows] == expected
        on_read_pages = corpus.conn.execute("SELECT count(*) FROM formulas WHERE page BETWEEN 3 AND 5").fetchone()[0]
        assert on_read_pages == 5, "the embedded parser's formulas on the pages Nougat read (14 of them) are replaced"
        kept = corpus.conn.execute("SELECT DISTINCT provenance FROM formulas WHERE page NOT BETWEEN 3 AND 5").fetchall()
        assert all(row[0].startswith("embedded") for row in kept), kept
        stored = " ".join(row[0] for row in corpus.conn.execute("SELECT text FROM contexts"))
        assert all(latex in stored for latex in expected)
