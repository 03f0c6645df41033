"""The GROBID backend: recorded TEI of GROBID 0.6 to 0.8 read into the document model, and the
client against a stand-in server on 127.0.0.1 that answers as GROBID does (503 back-pressure,
a slow answer, a 500 for a bad PDF)."""

from __future__ import annotations

import socket
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from paperpyramid.errors import BadInput, MissingExtra, PdfCorrupt, ServiceUnavailable
from paperpyramid.eval.gold import load_tei
from paperpyramid.parsers.grobid import fetch_tei, is_alive, parse_pdf
from paperpyramid.parsers.grobid_tei import NO_COORDINATES_WARNING, parse_coords, tei_to_document
from tests.grobid_server import Scenario, grobid_server

SHARED = Path(__file__).resolve().parents[2] / "shared"
RECORDED = SHARED / "recorded" / "grobid"
CORPUS = SHARED / "corpus"
TEI_NS = "{http://www.tei-c.org/ns/1.0}"
COORDS_FILE = "jneuroeng-rehabil-2016-multi-contact-fes.grobid-0.8.1-coords.tei.xml"


def _tei_files() -> list[Path]:
    return sorted(RECORDED.glob("*.tei.xml")) + sorted(CORPUS.glob("*.tei.xml"))


def _need_shared() -> None:
    if not RECORDED.is_dir():
        pytest.skip(f"../shared/recorded/grobid not present ({RECORDED}): recorded GROBID output lives beside the project")


TEI_FILES = _tei_files() or [Path("missing.tei.xml")]

SMALL_TEI = b"""<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><encodingDesc><appInfo>
<application version="0.8.1" ident="GROBID"/></appInfo></encodingDesc>
<fileDesc><titleStmt><title level="a" type="main">A small paper</title></titleStmt></fileDesc></teiHeader>
<text><body><div><head n="1">Introduction</head><p coords="2,10,20,100,30">Hello <s coords="2,10,20,5,5">world</s>.</p></div>
<div><head n="1.1">Detail</head><p>More.</p></div></body>
<back><div type="references"><listBibl><biblStruct><analytic><title level="a">Cited</title>
<author><persName><forename>A</forename><surname>Author</surname></persName></author></analytic>
<monogr><title level="j">Journal</title><imprint><date type="published" when="2019"/></imprint></monogr>
</biblStruct></listBibl></div></back></text></TEI>"""


def _back_titles(path: Path) -> list[str]:
    back = ET.parse(path).getroot().find(f"./{TEI_NS}text/{TEI_NS}back")
    titles: list[str] = []
    for div in back.iter(f"{TEI_NS}div") if back is not None else ():
        head = div.find(f"{TEI_NS}head")
        text = " ".join("".join(head.itertext()).split()) if head is not None else ""
        if text and div.get("type") != "references":
            titles.append(text)
    return titles


# --------------------------------------------------------------------------- TEI -> Document


@pytest.mark.parametrize("path", TEI_FILES, ids=lambda p: p.name)
def test_recorded_tei_sections_and_references(path: Path) -> None:
    _need_shared()
    doc = tei_to_document(path.read_bytes())
    gold = load_tei(path)
    titles = [s.title for s in doc.sections if s.title and s.number != "ref"]
    # the body's headings exactly as the eval reads them, then acknowledgement/annex headings
    assert titles == gold.section_titles + _back_titles(path)
    listed = ET.parse(path).getroot().findall(f".//{TEI_NS}back//{TEI_NS}listBibl/{TEI_NS}biblStruct")
    assert len(doc.references) == len(listed) > 0
    ref_sections = [s for s in doc.sections if s.number == "ref"]
    assert len(ref_sections) == 1 and len(ref_sections[0].blocks) == len(listed)
    assert all(block.kind == "list_item" and block.text for block in ref_sections[0].blocks)
    for index, section in enumerate(doc.sections):
        if section.level > 1:  # a numbered subsection hangs under an earlier, shallower section
            assert section.parent is not None and section.parent < index
            assert doc.sections[section.parent].level < section.level
        assert all(block.page >= 1 for block in section.blocks)
    version = ET.parse(path).getroot().find(f".//{TEI_NS}application").get("version")
    assert doc.provenance["sections"] == f"grobid {version}"
    assert doc.title == gold.title


def test_recorded_versions_cover_0_6_to_0_8() -> None:
    _need_shared()
    versions = {tei_to_document(p.read_bytes()).provenance["sections"] for p in _tei_files()}
    assert {"grobid 0.6.1", "grobid 0.7.2", "grobid 0.8.0", "grobid 0.8.1", "grobid 0.8.2"} <= versions


def test_numbered_subsections_get_levels_and_parents() -> None:
    _need_shared()
    doc = tei_to_document((CORPUS / "acl-2020-specter.tei.xml").read_bytes())
    by_number = {s.number: i for i, s in enumerate(doc.sections) if s.number}
    sub = doc.sections[by_number["3.1"]]
    assert sub.level == 2 and sub.parent == by_number["3"]


def test_coordinates_give_pages_and_boxes() -> None:
    _need_shared()
    doc = tei_to_document((RECORDED / COORDS_FILE).read_bytes())
    assert NO_COORDINATES_WARNING not in doc.warnings
    assert doc.pages == 9
    back = len(_back_titles(RECORDED / COORDS_FILE))
    body = [s for s in doc.sections if s.number != "ref"][: len(doc.sections) - 1 - back]
    starts = [s.page_start for s in body]
    assert all(p is not None and 1 <= p <= 9 for p in starts)
    assert starts == sorted(starts) and starts[0] == 1 and starts[-1] >= 7
    assert [f.page for f in doc.formulas] == [4, 4] and [f.label for f in doc.formulas] == ["ð1Þ", "ð2Þ"]
    assert doc.formulas[0].bbox == pytest.approx((319.75, 324.34, 319.75 + 218.81, 324.34 + 23.08))
    assert len(doc.figures) == 5 and doc.figures[0].page == 3 and doc.figures[0].caption.startswith("Fig. 1 Multi-contact")
    assert doc.references[0].year is not None and doc.references[0].title
    assert next(s for s in doc.sections if s.number == "ref").page_start == 8
    assert doc.doi == "10.1186/s12984-016-0129-6"
    assert doc.journal == "Journal of NeuroEngineering and Rehabilitation"
    assert doc.authors[0].name == "Cristiano De Marchis" and doc.authors[0].affiliation
    assert doc.abstract and "electrode" in doc.abstract.lower()


def test_without_coordinates_pages_are_a_stated_guess() -> None:
    _need_shared()
    doc = tei_to_document((RECORDED / "jit-2022-wagner-ai-literature-reviews.grobid-0.7.2.tei.xml").read_bytes())
    assert NO_COORDINATES_WARNING in doc.warnings
    assert all(block.page == 1 for s in doc.sections for block in s.blocks if block.kind == "paragraph")
    assert doc.figures[0].page == 7  # figures keep the coordinates GROBID always gives them


def test_formulas_tables_and_cells() -> None:
    _need_shared()
    am_nat = tei_to_document((RECORDED / "am-nat-2003-roisin-split-sex-ratios.grobid-0.8.0.tei.xml").read_bytes())
    assert (len(am_nat.formulas), len(am_nat.tables), len(am_nat.figures)) == (26, 2, 7)
    assert sum(b.kind == "formula" for s in am_nat.sections for b in s.blocks) == 26
    lafia = tei_to_document((RECORDED / "lafia-jems-2017-agricultural-export-nigeria.grobid-0.8.0.tei.xml").read_bytes())
    assert len(lafia.tables) == 6 and len(lafia.formulas) == 3
    cells = lafia.tables[1].cells
    assert cells[3][:4] == ["Variables", "", "Levels", ""]  # cols="2" keeps the columns aligned
    assert "| LOGPCI |" in lafia.tables[1].markdown


def test_small_tei_without_shared() -> None:
    doc = tei_to_document(SMALL_TEI)
    assert [(s.title, s.number, s.level, s.parent) for s in doc.sections] == [
        ("Introduction", "1", 1, None),
        ("Detail", "1.1", 2, 0),
        ("References", "ref", 1, None),
    ]
    assert doc.sections[0].blocks[0].text == "Hello world."
    assert doc.sections[0].blocks[0].bbox == (10.0, 20.0, 110.0, 50.0)
    assert doc.sections[1].blocks[0].page == 2  # no coordinates of its own: the last known page
    assert doc.references[0].authors == ["A Author"] and doc.references[0].year == 2019
    assert doc.references[0].venue == "Journal" and doc.warnings == []


def test_coords_parsing() -> None:
    assert parse_coords("3,1.5,2,10,4;4,0,0,1,1") == (3, (1.5, 2.0, 11.5, 6.0))
    assert parse_coords("") is None and parse_coords("garbage") is None


def test_malformed_and_hostile_tei_are_bad_input() -> None:
    with pytest.raises(BadInput):
        tei_to_document(b"<TEI><text>unclosed")
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><TEI>&b;</TEI>'
    with pytest.raises(BadInput):
        tei_to_document(bomb)
    with pytest.raises(BadInput, match="not TEI"):
        tei_to_document(b"<html/>")


# --------------------------------------------------------------------------- client and server


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "paper.pdf"
    path.write_bytes(b"%PDF-1.4\n% stand-in bytes; the server does not read them\n%%EOF\n")
    return path


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_parse_pdf_against_server_returns_the_tei_structure() -> None:
    _need_shared()
    tei = (RECORDED / COORDS_FILE).read_bytes()
    scenario = Scenario(tei=tei)
    with grobid_server(scenario) as url:
        assert is_alive(url, timeout=2)
        doc = parse_pdf(RECORDED / "jneuroeng-rehabil-2016-multi-contact-fes.pdf", url=url, time_limit=10)
    expected = tei_to_document(tei)
    assert [s.title for s in doc.sections] == [s.title for s in expected.sections]
    assert len(doc.references) == 49 and len(doc.formulas) == 2
    (form,) = scenario.requests
    assert form["input"] == ["<file>"]
    assert {"p", "s", "head", "formula", "figure", "ref", "biblStruct", "persName"} <= set(form["teiCoordinates"])
    assert form["segmentSentences"] == ["1"]
    assert form["consolidateHeader"] == ["0"]
    assert form["end"] == ["500"]  # max_pages


def test_busy_server_is_retried_with_backoff(pdf: Path) -> None:
    scenario = Scenario(tei=SMALL_TEI, busy_first=2)
    started = time.monotonic()
    with grobid_server(scenario) as url:
        tei = fetch_tei(pdf, url=url, timeout=5, backoff=0.05)
    elapsed = time.monotonic() - started
    assert tei == SMALL_TEI
    assert len(scenario.requests) == 3
    assert 0.15 <= elapsed < 2  # waited 0.05 + 0.1 s: our backoff, not the library's fixed 5 s sleep


def test_server_busy_for_ever_gives_up_within_bounds(pdf: Path) -> None:
    scenario = Scenario(tei=SMALL_TEI, busy_first=1000)
    started = time.monotonic()
    with grobid_server(scenario) as url, pytest.raises(ServiceUnavailable, match="503"):
        fetch_tei(pdf, url=url, timeout=5, retries=3, backoff=0.05)
    assert len(scenario.requests) == 4
    assert time.monotonic() - started < 3


def test_server_down_is_service_unavailable_quickly(pdf: Path) -> None:
    url = _closed_port_url()
    assert not is_alive(url, timeout=1)
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable, match="could not be reached") as info:
        parse_pdf(pdf, url=url, time_limit=5)
    assert url in str(info.value)
    assert time.monotonic() - started < 3


def test_slow_server_times_out_as_service_unavailable(pdf: Path) -> None:
    scenario = Scenario(tei=SMALL_TEI, delay=3)
    started = time.monotonic()
    with grobid_server(scenario) as url, pytest.raises(ServiceUnavailable, match="timed out"):
        parse_pdf(pdf, url=url, time_limit=0.5)
    assert time.monotonic() - started < 2.5


def test_grobid_500_is_bad_input(pdf: Path) -> None:
    scenario = Scenario(error_status=500)
    with grobid_server(scenario) as url, pytest.raises(PdfCorrupt, match="HTTP 500.*PDF parsing failed"):
        parse_pdf(pdf, url=url, time_limit=5)
    assert len(scenario.requests) == 1  # a bad document is not retried


def test_missing_extra_names_the_install_command(pdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "grobid_client.grobid_client", None)  # import now fails
    with pytest.raises(MissingExtra, match=r"paperpyramid\[grobid\]"):
        fetch_tei(pdf, url=_closed_port_url())
