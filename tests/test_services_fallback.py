"""Services that are down never cost a document: ``auto`` falls back to the embedded parser
and records why; a service named explicitly must answer at the start."""

from __future__ import annotations

import socket

from typer.testing import CliRunner

from paperpyramid import Corpus
from paperpyramid.cli import app
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, ServiceSettings, Settings
from tests.conftest import SAMPLE

PLOS = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens there once the socket is closed


def test_auto_with_grobid_unreachable_ingests_with_the_embedded_parser_and_says_why(tmp_path):
    url = closed_port_url()
    settings = Settings(
        ingest=IngestSettings(parser="auto", workers=0, services=ServiceSettings(grobid_url=url, tables_url=None, nougat_url=None))
    )
    summary = ingest([PLOS], tmp_path / "c.sqlite", settings)
    assert summary.count("done") == 1
    with Corpus.open(tmp_path / "c.sqlite") as corpus:
        (article,) = list(corpus.articles())
        assert article.parser == "embedded"
        assert any(warning.startswith(f"GROBID not reachable at {url}") for warning in article.warnings)
        titles = [section.title for section in corpus.sections(article.id)]
        assert "Materials and Methods" in titles  # the embedded parser's structure


def test_auto_without_services_configured_is_the_embedded_parser(tmp_path):
    settings = Settings(
        ingest=IngestSettings(parser="auto", workers=0, services=ServiceSettings(grobid_url=None, tables_url=None, nougat_url=None))
    )
    summary = ingest([PLOS], tmp_path / "c.sqlite", settings)
    assert summary.count("done") == 1 and summary.results[0].warnings == []


def test_named_service_that_is_down_stops_the_run_with_a_clear_error(tmp_path, monkeypatch):
    url = closed_port_url()
    monkeypatch.setenv("PAPERPYRAMID_INGEST__SERVICES__GROBID_URL", url)
    result = CliRunner().invoke(app, ["ingest", str(PLOS), "--db", str(tmp_path / "c.sqlite"), "--parser", "grobid", "--workers", "0"])
    assert result.exit_code == 3  # an outage
    assert f"GROBID is not reachable at {url}" in " ".join(result.output.split())
    monkeypatch.delenv("PAPERPYRAMID_INGEST__SERVICES__GROBID_URL")
    result = CliRunner().invoke(app, ["ingest", str(PLOS), "--db", str(tmp_path / "c.sqlite"), "--parser", "grobid", "--workers", "0"])
    assert result.exit_code == 3 and "PAPERPYRAMID_INGEST__SERVICES__GROBID_URL" in result.output
