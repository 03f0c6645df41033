"""Every parser backend keeps the one contract: called as
``parser(path, *, password=None, max_pages=500, time_limit=None)``, it returns a Document whose
section tree, pages and provenance are well formed."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers import PARSER_NAMES, get_parser
from paperpyramid.settings import IngestSettings, ServiceSettings
from tests.conftest import SAMPLE
from tests.grobid_server import Scenario, grobid_server

RECORDED = Path(__file__).resolve().parents[2] / "shared" / "recorded" / "grobid"


def assert_well_formed(document: Document) -> None:
    assert document.pages >= 1 and document.sections and document.provenance
    for index, section in enumerate(document.sections):
        assert section.parent is None or 0 <= section.parent < index, "a parent comes before its children"
        if section.parent is not None:
            assert section.level > document.sections[section.parent].level
        for block in section.blocks:
            assert 1 <= block.page <= document.pages and block.text.strip()
    for thing in (*document.tables, *document.formulas, *document.figures):
        assert 1 <= thing.page <= document.pages
        assert thing.section is None or 0 <= thing.section < len(document.sections)
    assert sum(1 for section in document.sections if section.number == "ref") <= 1


@pytest.mark.parametrize("name", PARSER_NAMES)
def test_every_registered_parser_takes_the_same_call(name):
    parameters = inspect.signature(get_parser(name)).parameters
    for keyword in ("password", "max_pages", "time_limit"):
        assert parameters[keyword].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("pdf", sorted(SAMPLE.glob("*.pdf")), ids=lambda path: path.stem[:30])
def test_embedded_and_auto_without_services(pdf):
    assert_well_formed(get_parser("embedded")(pdf))
    options = IngestSettings(parser="auto", services=ServiceSettings(grobid_url=None, tables_url=None, nougat_url=None))
    assert_well_formed(get_parser("auto")(pdf, options=options))  # type: ignore[call-arg]


def test_grobid_backend_against_its_recorded_answer():
    tei = RECORDED / "jneuroeng-rehabil-2016-multi-contact-fes.grobid-0.8.1-coords.tei.xml"
    if not tei.is_file():
        pytest.skip(f"../shared/recorded/grobid not present ({RECORDED})")
    from paperpyramid.parsers import grobid

    with grobid_server(Scenario(tei=tei.read_bytes())) as url:
        document = grobid.parse_pdf(RECORDED / "jneuroeng-rehabil-2016-multi-contact-fes.pdf", url=url, time_limit=20)
    assert_well_formed(document)
