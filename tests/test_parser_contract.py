"""Every parser keeps the one contract, ``parse(source, options) -> Document``, and is found in the
one registry by source kind: PDF (by the backend the settings name), JATS, JATS with its PDF,
LaTeX, LaTeX with its PDF, a PubMed record, and a PDF parser of one's own named by
``package.module:function``. Each returns a Document whose section tree, pages and provenance are
well formed; the registry refuses duplicates and names the known backends when asked for another."""

from __future__ import annotations

import ast
import inspect
import shutil
from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.errors import BadInput, ConfigurationError
from paperpyramid.parsers import PARSER_NAMES, PARSERS, PDF_BACKENDS, Source, choose, get_parser
from paperpyramid.parsers.contract import JATS, JATS_PDF, LATEX, LATEX_PDF, PDF, PUBMED_RECORD
from paperpyramid.parsers.registry import kind_of, register_kind, unregister_kind
from paperpyramid.registry import Registry
from paperpyramid.settings import IngestSettings, ServiceSettings
from tests.conftest import GOLD, SAMPLE
from tests.grobid_server import Scenario, grobid_server

RECORDED = Path(__file__).resolve().parents[2] / "shared" / "recorded" / "grobid"
ROOT = Path(__file__).resolve().parents[1]
PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
OPTIONS = IngestSettings(workers=0, embed=False, time_limit=60)


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


# --------------------------------------------------------------------------- the registry


def test_the_settings_name_the_pdf_backends_the_registry_holds() -> None:
    assert set(PDF_BACKENDS) == set(PARSER_NAMES)
    assert set(PARSER_NAMES) | {PDF, JATS, JATS_PDF, LATEX, LATEX_PDF, PUBMED_RECORD} <= set(PARSERS.names())


@pytest.mark.parametrize("name", PARSERS.names())
def test_every_registered_parser_takes_the_same_call(name: str) -> None:
    """Two positional parameters, the source and the run's settings; nothing else required."""
    parameters = list(inspect.signature(PARSERS.get(name)).parameters.values())
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert len(positional) == 2, parameters
    assert all(p.default is not p.empty for p in parameters if p not in positional)


def test_unknown_and_duplicate_names_are_refused_with_the_known_ones() -> None:
    with pytest.raises(ConfigurationError) as unknown:
        choose("docx")
    assert "unknown parser 'docx'" in str(unknown.value) and all(
        name in str(unknown.value) for name in ("embedded", "jats", "pubmed-record")
    )
    with pytest.raises(ValueError, match="already registered"):
        PARSERS.register("embedded", "paperpyramid.parsers.backends:parse_embedded")
    with pytest.raises(ValueError, match="already read as another kind"):
        register_kind("mydocs", "tests.text_parser:parse", suffixes=(".PDF",))
    with pytest.raises(ConfigurationError, match="cannot be imported"):
        PARSERS.get("tests.no_such_module:parse")


def test_a_generic_registry_loads_lazily_and_checks_its_names() -> None:
    registry: Registry[int] = Registry("number", {"one": 1, "e": "math:e"})
    assert registry.get("one") == 1 and round(registry.get("e"), 3) == 2.718
    assert "math" not in registry.names() and not registry.accepts("math:pi")  # no import paths unless asked
    with pytest.raises(ConfigurationError, match=r"unknown number 'two'; choose one of: one, e$"):
        registry.get("two")
    with pytest.raises(ValueError, match="not package.module:attribute"):
        registry.register("pi", "math.pi")
    registry.register("e", 3, replace=True)
    assert registry.get("e") == 3
    paths: Registry[str] = Registry("constant", import_paths=str)
    assert paths.get("math:pi").startswith("3.14")


def test_kinds_are_found_by_suffix_and_a_kind_of_ones_own_joins_them() -> None:
    assert [kind_of(name) for name in ("a.PDF", "b.nxml", "c.xml", "d.docx")] == [PDF, JATS, JATS, None]
    register_kind("txt", "tests.text_parser:parse", suffixes=(".txt",))
    try:
        assert kind_of("notes.TXT") == "txt"
        with pytest.raises(ValueError, match="already registered"):
            register_kind("txt", "tests.text_parser:parse")
    finally:
        unregister_kind("txt")
    assert kind_of("notes.txt") is None and "txt" not in PARSERS


def test_the_parse_path_names_no_parser_and_no_kind() -> None:
    """The pipeline chooses a parser by the source's kind alone: its parse path compares no parser
    name and no kind (a PDF backend's name, "jats", "latex", ...)."""
    names = {*PARSER_NAMES, JATS, JATS_PDF, LATEX, LATEX_PDF, PUBMED_RECORD}
    names |= {"SERVICES_OF", "JATS", "JATS_PDF", "LATEX", "LATEX_PDF", "PUBMED_RECORD", "parse_jats", "parse_record", "read_jats"}
    for module in ("parsing.py", "running.py", "pipeline.py"):
        tree = ast.parse((ROOT / "paperpyramid" / "ingestion" / module).read_text(encoding="utf-8"))
        found = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        found |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert not found & names, (module, found & names)


# --------------------------------------------------------------------------- each kind through the contract


@pytest.mark.parametrize("pdf", sorted(SAMPLE.glob("*.pdf"))[:3], ids=lambda path: path.stem[:30])
def test_pdf_embedded_and_auto_without_services(pdf: Path) -> None:
    document = choose(PDF)(Source(PDF, pdf), OPTIONS)
    assert_well_formed(document)
    assert document.coverage is not None  # a document read from a PDF is measured against its text layer
    options = OPTIONS.model_copy(update={"parser": "auto", "services": ServiceSettings(grobid_url=None, tables_url=None, nougat_url=None)})
    assert_well_formed(choose(PDF)(Source(PDF, pdf), options))
    assert_well_formed(get_parser("embedded")(pdf))  # one PDF outside a run, by its path


def test_a_pdf_parser_of_ones_own_by_import_path() -> None:
    pdf = SAMPLE / f"{PLOS}.pdf"
    options = OPTIONS.model_copy(update={"parser": "tests.crashing_parser:parse"})
    document = choose(PDF)(Source(PDF, pdf), options)
    assert_well_formed(document)
    assert document.parser == "embedded" and document.coverage is not None


def test_jats_alone_and_with_its_pdf(tmp_path: Path) -> None:
    xml = GOLD / f"{PLOS}.nxml"
    alone = choose(JATS)(Source(JATS, xml, name=xml.name), OPTIONS)
    assert not alone.paged and alone.parser == "jats" and alone.references
    paired = choose(JATS_PDF)(Source(JATS_PDF, xml, SAMPLE / f"{PLOS}.pdf", name=xml.name), OPTIONS)
    assert_well_formed(paired)
    assert paired.pages == 14 and paired.parser == "jats+embedded" and paired.coverage is not None
    with pytest.raises(BadInput):
        bad = tmp_path / "bad.xml"
        bad.write_text("<TEI/>")
        choose(JATS)(Source(JATS, bad, name=bad.name), OPTIONS)


def test_latex_alone_keeps_the_arxiv_id_of_its_name(tmp_path: Path) -> None:
    tex = tmp_path / "2101.00001.tex"
    tex.write_text(
        "\\documentclass{article}\\title{A Small Paper}\\begin{document}\\maketitle\\section{Intro}Some text about frogs.\\end{document}"
    )
    document = choose(LATEX)(Source(LATEX, tex, name=tex.name), OPTIONS)
    assert document.title == "A Small Paper" and document.arxiv_id == "2101.00001" and document.sections


def test_a_pubmed_record(tmp_path: Path) -> None:
    from paperpyramid.parsers.pubmed import PubmedRecord, read_pubmed

    with (ROOT / "tests" / "data" / "pubmed" / "pubmed-29768149.xml").open("rb") as handle:
        (record,) = [item for item in read_pubmed(handle, name="pubmed-29768149.xml") if isinstance(item, PubmedRecord)]
    document = choose(PUBMED_RECORD)(Source(PUBMED_RECORD, name=f"{record.pmid}.{record.version}", data=record.xml), OPTIONS)
    assert document.pmid == "29768149" and document.title and document.title.startswith("Inhaled Combined Budesonide")
    file = tmp_path / "29768149.1"
    file.write_bytes(record.xml)
    assert choose(PUBMED_RECORD)(Source(PUBMED_RECORD, file, name=file.name), OPTIONS).pmid == "29768149"  # or from a file


def test_a_source_without_a_file_is_refused_with_its_name() -> None:
    with pytest.raises(BadInput, match="a.pdf: a pdf source needs a file"):
        choose(PDF)(Source(PDF, name="a.pdf"), OPTIONS)


def test_grobid_backend_against_its_recorded_answer(tmp_path: Path) -> None:
    tei = RECORDED / "jneuroeng-rehabil-2016-multi-contact-fes.grobid-0.8.1-coords.tei.xml"
    if not tei.is_file():
        pytest.skip(f"../shared/recorded/grobid not present ({RECORDED})")
    from paperpyramid.parsers.services import resolve_services

    pdf = tmp_path / "paper.pdf"
    shutil.copy(RECORDED / "jneuroeng-rehabil-2016-multi-contact-fes.pdf", pdf)
    with grobid_server(Scenario(tei=tei.read_bytes())) as url:
        options = OPTIONS.model_copy(update={"parser": "grobid", "services": ServiceSettings(grobid_url=url, timeout=20)})
        options, _ = resolve_services(options)
        document = choose(PDF)(Source(PDF, pdf), options)
    assert_well_formed(document)
    assert "grobid" in document.parser
