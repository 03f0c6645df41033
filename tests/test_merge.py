"""The merge rule on real parses: GROBID-like structure, tables from another backend, math."""

from __future__ import annotations

import pytest

from paperpyramid.document import Block, Document, Formula, Reference, Section, Table
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.merge import Delivered, merge, section_for_page
from tests.conftest import SAMPLE


@pytest.fixture(scope="module")
def embedded() -> Document:
    return parse_pdf(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf")


def service_doc() -> Document:
    return Document(
        title=None,  # a service that missed the title: the embedded one fills it
        sections=[
            Section("Introduction", 1, "1", None, [Block("Intro text.", 1)], 1, 2),
            Section("Methods", 1, "2", None, [Block("Methods text.", 3), Block("old table", 4, "table")], 3, 5),
            Section("Results", 1, "3", None, [Block("Results text.", 6), Block("x = y", 6, "formula")], 6, 9),
            Section("References", 1, "ref", None, [Block("[1] A. Author 2001", 12, "list_item")], 12, 14),
        ],
        tables=[Table("Table 1. old", [["a"]], 4, section=1)],
        formulas=[Formula("x = y", 6, section=2), Formula("z", 8, section=2)],
        references=[Reference("[1] A. Author 2001", year=2001)],
        provenance={"sections": "grobid 0.8.2", "references": "grobid 0.8.2", "text": "grobid 0.8.2"},
    )


def test_without_services_the_embedded_parse_is_returned_with_the_reasons(embedded):
    merged = merge(embedded, Delivered(warnings=["GROBID unreachable at http://127.0.0.1:1: connection refused"]))
    assert [s.title for s in merged.sections] == [s.title for s in embedded.sections]
    assert merged.parser == "embedded" and merged.warnings[0].startswith("GROBID unreachable")


def test_grobid_structure_with_embedded_metadata_filled(embedded):
    merged = merge(embedded, Delivered(grobid=service_doc()))
    assert [s.title for s in merged.sections] == ["Introduction", "Methods", "Results", "References"]
    assert merged.title == embedded.title and merged.doi == embedded.doi
    assert merged.pages == 14 and len(merged.references) == 1
    assert merged.parser == "grobid+embedded"  # the title came from the embedded parse


def test_tables_replace_the_others_and_land_in_the_section_of_their_page(embedded):
    new = Table("Table 2. Measurements", [["site", "n"], ["A", "12"], ["B", "30"]], page=7, label="2")
    merged = merge(embedded, Delivered(grobid=service_doc(), tables=[new]))
    assert [t.caption for t in merged.tables] == ["Table 2. Measurements"]
    assert merged.tables[0].section == 2  # Results starts on page 6
    blocks = merged.sections[2].blocks
    assert [b.kind for b in blocks] == ["paragraph", "formula", "table"]
    assert "| site | n |" in blocks[2].text
    assert all(b.kind != "table" for b in merged.sections[1].blocks), "GROBID's table block is gone"
    assert merged.provenance["tables"] == "unstructured" and "unstructured" in merged.parser
    assert merged.tables[0].provenance == "unstructured"


def test_math_replaces_formulas_on_the_pages_read(embedded):
    math = [Formula(r"\hat{y} = \sum_i w_i x_i", 6, latex=r"\hat{y} = \sum_i w_i x_i", label="3")]
    merged = merge(embedded, Delivered(grobid=service_doc(), formulas=math, formula_pages={6}))
    assert [f.latex or f.text for f in merged.formulas] == [r"\hat{y} = \sum_i w_i x_i", "z"]  # page 8 was not read: kept
    assert [b.text for b in merged.sections[2].blocks if b.kind == "formula"] == [r"\hat{y} = \sum_i w_i x_i"]
    assert merged.provenance["formulas"] == "nougat"
    assert [(f.page, f.provenance) for f in merged.formulas] == [(6, "nougat"), (8, "grobid 0.8.2")]  # the kept one says where it came from


def test_inputs_are_not_changed(embedded):
    doc = service_doc()
    merge(embedded, Delivered(grobid=doc, tables=[Table("T", [["a"]], 1)]))
    assert doc.tables[0].caption == "Table 1. old" and len(doc.sections[1].blocks) == 2


def test_section_for_page_skips_the_reference_list():
    sections = service_doc().sections
    assert section_for_page(sections, 1) == 0 and section_for_page(sections, 5) == 1
    assert section_for_page(sections, 13) == 2  # a table on a reference page belongs to the last body section
