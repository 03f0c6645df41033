"""In-text citations from the XML sources: JATS ``<xref ref-type="bibr">`` and GROBID TEI
``<ref type="bibr">`` become :class:`~paperpyramid.document.Cite` spans that read their marker
in the finished block text and name the reference entries by key; they survive the merge."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import defusedxml.ElementTree as SafeET
import pytest

from paperpyramid.document import Block, Document, Section, Table
from paperpyramid.parsers.grobid_tei import _text, tei_to_document
from paperpyramid.parsers.jats import parse_jats
from paperpyramid.parsers.jats_xml import _inline_text, _local, _main_article, _read_xml
from paperpyramid.parsers.merge import Delivered, merge
from tests.conftest import GOLD, SHARED

_TEI = "{http://www.tei-c.org/ns/1.0}"
_DASHES = "–-—"


def all_cites(document: Document) -> list[tuple[Block, str, list[str]]]:
    """(block, the text the cite's span reads, its keys) for every cite."""
    return [
        (block, block.text[cite.start : cite.end], cite.keys)
        for section in document.sections
        for block in section.blocks
        for cite in block.cites
    ]


def assert_spans_are_markers(document: Document) -> None:
    for block, span, keys in all_cites(document):
        assert span and span == span.strip(), (span, block.text)
        assert keys, span
    for section in document.sections:
        for block in section.blocks:
            starts = [cite.start for cite in block.cites]
            assert starts == sorted(starts) and all(0 <= c.start < c.end <= len(block.text) for c in block.cites)


def jats_share(path: Path) -> tuple[float, list[tuple[tuple[str, ...], str]]]:
    """The share of the main article's citation xrefs found as a cite naming its entry whose span
    reads its marker (a range's ends: each side of the dash), and those lost."""
    document = parse_jats(path)
    assert_spans_are_markers(document)
    have: Counter[tuple[tuple[str, ...], str]] = Counter()
    for _, span, keys in all_cites(document):
        have[(tuple(keys), span)] += 1
        if len(keys) > 1:  # a range "3–5": its ends were two xrefs
            for at, char in enumerate(span):
                if char in _DASHES:
                    have[((keys[0],), span[:at].strip())] += 1
                    have[((keys[-1],), span[at + 1 :].strip())] += 1

    def xrefs(node: SafeET.Element) -> list[SafeET.Element]:
        found = []
        for child in node:
            if _local(child.tag) == "sub-article":  # referee reports are not the paper
                continue
            if _local(child.tag) == "xref" and child.get("ref-type") == "bibr":
                found.append(child)
            found += xrefs(child)
        return found

    lost = []
    wanted = xrefs(_main_article(_read_xml(path), path.name))
    for xref in wanted:
        key = (tuple((xref.get("rid") or "").split()), _inline_text(xref))
        if have[key]:
            have[key] -= 1
        else:
            lost.append(key)
    return (len(wanted) - len(lost)) / len(wanted), lost


# --------------------------------------------------------------------------- JATS, real files


@pytest.mark.parametrize(
    "name", ["plos-one-2014-fanged-frog-internal-fertilization.nxml", "mdpi-metabolites-2014-durum-wheat-volatiles.nxml"]
)
def test_committed_gold_jats_citations_read_their_markers(name):
    share, lost = jats_share(GOLD / name)
    assert share >= 0.95, lost


def test_shared_jats_citations_read_their_markers(shared_corpus):
    for path in sorted(shared_corpus.glob("*.nxml")):
        share, lost = jats_share(path)
        assert share >= 0.95, (path.name, lost)


def test_plos_cites_name_reference_keys_in_bracketed_markers():
    document = parse_jats(GOLD / "plos-one-2014-fanged-frog-internal-fertilization.nxml")
    keys = [reference.key for reference in document.references]
    assert keys[0] == "pone.0115884-Emerson1" and len(set(keys)) == len(keys) and None not in keys
    cites = all_cites(document)
    first = next((span, cite_keys) for block, span, cite_keys in cites if block.kind == "paragraph")
    assert first == ("[1]", ["pone.0115884-Emerson1"])
    # pretty-printed XML puts the xref on a line of its own: the cleaned text reads "island [1], [2], [3]."
    block = next(block for block, span, _ in cites if span == "[2]")
    assert "[1], [2], [3]." in block.text
    assert {key for _, _, cite_keys in cites for key in cite_keys} <= set(keys)


def test_ranges_in_real_bmc_jats_cite_every_entry_between(shared_corpus):
    document = parse_jats(shared_corpus / "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.nxml")
    ranges = [(block.text, span, keys) for block, span, keys in all_cites(document) if len(keys) > 1]
    assert ("1 – 3", ["CR1", "CR2", "CR3"]) in [(span, keys) for _, span, keys in ranges]
    assert ("5 – 8", ["CR5", "CR6", "CR7", "CR8"]) in [(span, keys) for _, span, keys in ranges]


def test_citations_in_table_cells_of_real_jats(shared_corpus):
    document = parse_jats(shared_corpus / "f1000research-2015-sharpnose-shark-longevity.nxml")
    in_tables = [(span, keys) for block, span, keys in all_cites(document) if block.kind == "table"]
    assert ("Loefer & Sedberry, 2003", ["ref-14"]) in in_tables
    assert ("Driggers et al., 2004", ["ref-6"]) in in_tables


# --------------------------------------------------------------------------- JATS, the cases one by one

_JATS = """<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink">
 <front><article-meta>
  <article-id pub-id-type="arxiv">arXiv:2101.00042v3</article-id>
  <title-group><article-title>Citations</article-title></title-group>
  <abstract><p>As shown before <xref ref-type="bibr" rid="B2">[2]</xref>.</p></abstract>
 </article-meta></front>
 <body><sec><title>Intro</title>
  <p>Ranges (
      <xref ref-type="bibr" rid="B1">1</xref>&#x02013;<xref ref-type="bibr" rid="B3">3</xref> ) and
      <xref ref-type="bibr" rid="B4">[4]</xref> &#x02013; <xref ref-type="bibr" rid="B5">[5]</xref>; both at once
      <xref ref-type="bibr" rid="B1 B5">[1,5]</xref>; an author
      <xref ref-type="bibr" rid="B2">Smith
         <italic>et al.</italic>, 2019</xref> ; a dangling one <xref ref-type="bibr" rid="nowhere">[9]</xref>
      and a figure <xref ref-type="fig" rid="F1">Figure 1</xref>.
   <table-wrap id="T1"><label>Table 1</label><caption><p>Data from <xref ref-type="bibr" rid="B3">[3]</xref>.</p></caption>
    <table><tr><th>Source</th><th>a|b</th></tr><tr><td>Z</td><td>x|y <xref ref-type="bibr" rid="B4">[4]</xref></td></tr></table>
    <table-wrap-foot><p>After <xref ref-type="bibr" rid="B5">[5]</xref>.</p></table-wrap-foot>
   </table-wrap>
  Then the paragraph goes on <xref ref-type="bibr" rid="B2">[2]</xref>.</p>
  <list><list-item><label>1.</label><p>An item citing <xref ref-type="bibr" rid="B1">[1]</xref>.</p></list-item></list>
  <fig id="F1"><label>Figure 1</label><caption><title>A figure</title><p>Redrawn from
   <xref ref-type="bibr" rid="B4">[4]</xref>.</p></caption></fig>
 </sec></body>
 <back><ref-list>
  <ref id="B1"><mixed-citation>Alpha A. First. 2001.</mixed-citation></ref>
  <ref id="B2"><mixed-citation>Smith B, et al. Second. 2019. arXiv:1905.12345v2</mixed-citation></ref>
  <ref id="B3"><element-citation><person-group><name><surname>Gamma</surname></name></person-group>
   <article-title>Third</article-title><year>2003</year><pub-id pub-id-type="arxiv">hep-th/9901001</pub-id></element-citation></ref>
  <ref id="B4"><mixed-citation>Delta D. Fourth. 2004.
   <ext-link ext-link-type="uri" xlink:href="https://arxiv.org/abs/2002.00002v1">link</ext-link></mixed-citation></ref>
  <ref id="B5"><mixed-citation>Epsilon E. Fifth. 2005. doi:10.1000/fifth</mixed-citation></ref>
 </ref-list></back>
</article>
"""


@pytest.fixture(scope="module")
def jats_doc(tmp_path_factory) -> Document:
    path = tmp_path_factory.mktemp("jats") / "cites.nxml"
    path.write_text(_JATS, encoding="utf-8")
    return parse_jats(path)


def test_jats_references_carry_keys_and_identifiers(jats_doc):
    assert jats_doc.arxiv_id == "2101.00042"
    refs = {reference.key: reference for reference in jats_doc.references}
    assert list(refs) == ["B1", "B2", "B3", "B4", "B5"]
    assert refs["B2"].arxiv_id == "1905.12345"  # in the raw text
    assert refs["B3"].arxiv_id == "hep-th/9901001"  # a pub-id
    assert refs["B4"].arxiv_id == "2002.00002"  # an ext-link
    assert refs["B1"].arxiv_id is None and refs["B5"].doi == "10.1000/fifth"


def test_jats_paragraph_cites_ranges_and_cleaned_spacing(jats_doc):
    assert_spans_are_markers(jats_doc)
    paragraph = jats_doc.sections[1].blocks[0]
    assert paragraph.text.startswith("Ranges (1–3) and [4] – [5]; both at once [1,5]; an author Smith et al., 2019; a dangling one [9]")
    spans = [(paragraph.text[c.start : c.end], c.keys) for c in paragraph.cites]
    assert spans == [
        ("1–3", ["B1", "B2", "B3"]),
        ("[4] – [5]", ["B4", "B5"]),
        ("[1,5]", ["B1", "B5"]),
        ("Smith et al., 2019", ["B2"]),
    ]  # "[9]" names no entry of the list, and a figure reference is no citation


def test_jats_cites_in_abstract_table_caption_cells_foot_list_and_figure(jats_doc):
    by_kind = {(block.kind, span, tuple(keys)) for block, span, keys in all_cites(jats_doc)}
    assert ("paragraph", "[2]", ("B2",)) in by_kind  # the abstract, and the paragraph's tail after the table
    assert ("table", "[3]", ("B3",)) in by_kind  # caption
    assert ("table", "[4]", ("B4",)) in by_kind  # a cell whose "|" markdown escapes
    assert ("table", "[5]", ("B5",)) in by_kind  # the table foot
    assert ("list_item", "[1]", ("B1",)) in by_kind  # after the item's label
    assert ("caption", "[4]", ("B4",)) in by_kind
    table = next(block for block, _, _ in all_cites(jats_doc) if block.kind == "table")
    assert "x\\|y [4]" in table.text


# --------------------------------------------------------------------------- GROBID TEI

_TEI_DOC = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xmlns:xlink="http://www.w3.org/1999/xlink">
 <teiHeader><fileDesc><titleStmt><title level="a" type="main">T</title></titleStmt>
  <sourceDesc><biblStruct><analytic/><monogr><imprint/></monogr><idno type="arXiv">arXiv:2304.01234v2</idno></biblStruct></sourceDesc>
 </fileDesc></teiHeader>
 <text><body><div><head n="1">Intro</head>
  <p>As  <ref type="bibr" target="#b0">Adams et al.
     (2013)</ref> showed <ref type="bibr" target="#b1">[2,</ref> <ref type="bibr" target="#b2">3]</ref>, unlike
     <ref type="bibr">(Nobody, 2020)</ref> and <ref type="figure" target="#fig_0">Fig. 1</ref>.</p>
  <figure xml:id="fig_0"><head>Figure 1</head><label>1</label><figDesc>Redrawn from <ref type="bibr" target="#b1">[2]</ref>.</figDesc></figure>
 </div></body>
 <back><div type="references"><listBibl>
  <biblStruct xml:id="b0"><analytic><title>A</title></analytic><monogr><imprint><date when="2013"/></imprint></monogr></biblStruct>
  <biblStruct xml:id="b1"><analytic><title>B</title></analytic><monogr><imprint/></monogr><idno type="arXiv">arXiv:1901.00002</idno></biblStruct>
  <biblStruct xml:id="b2"><analytic><title>C</title></analytic><monogr><imprint/></monogr></biblStruct>
 </listBibl></div></back></text>
</TEI>
"""


def test_tei_refs_with_targets_become_cites():
    document = tei_to_document(_TEI_DOC)
    assert_spans_are_markers(document)
    assert document.arxiv_id == "2304.01234"
    assert [(r.key, r.arxiv_id) for r in document.references] == [("b0", None), ("b1", "1901.00002"), ("b2", None)]
    paragraph = document.sections[0].blocks[0]
    assert [(paragraph.text[c.start : c.end], c.keys) for c in paragraph.cites] == [
        ("Adams et al. (2013)", ["b0"]),
        ("[2,", ["b1"]),
        ("3]", ["b2"]),
    ]  # the unresolved "(Nobody, 2020)" has no target, so no cite
    caption = next(block for block in document.sections[0].blocks if block.kind == "caption")
    assert [(caption.text[c.start : c.end], c.keys) for c in caption.cites] == [("[2]", ["b1"])]


def tei_files() -> list[Path]:
    return sorted([*(SHARED / "corpus").glob("*.tei.xml"), *(SHARED / "recorded" / "grobid").glob("*.tei.xml")])


def test_recorded_grobid_keeps_every_targeted_citation():
    files = tei_files()
    if not files:
        pytest.skip(f"no recorded GROBID TEI under {SHARED}: these run only beside the project's shared material")
    for path in files:
        data = path.read_bytes()
        document = tei_to_document(data)
        assert_spans_are_markers(document)
        root = SafeET.fromstring(data)
        refs = [ref for ref in root.find(f"{_TEI}text").iter(f"{_TEI}ref") if ref.get("type") == "bibr"]
        wanted = Counter((tuple(t[1:] for t in (ref.get("target") or "").split()), _text(ref)) for ref in refs if ref.get("target"))
        have = Counter((tuple(keys), span) for _, span, keys in all_cites(document))
        kept = sum((wanted & have).values())
        assert kept / sum(wanted.values()) >= 0.95, (path.name, wanted - have)
        assert sum(have.values()) == kept  # a ref without a target gave no cite
        assert all(reference.key for reference in document.references)


# --------------------------------------------------------------------------- the merge


def test_cites_and_reference_keys_survive_the_merge():
    grobid = tei_to_document(_TEI_DOC)
    embedded = Document(
        title="T",
        arxiv_id="2304.01234",
        sections=[Section("Intro", 1, "1", None, [Block("As Adams et al. (2013) showed [2, 3].", 1)], 1, 1)],
        pages=1,
        provenance={"structure": "embedded 0.1"},
    )
    grobid.arxiv_id = None  # the embedded parse's id fills what GROBID left empty
    merged = merge(embedded, Delivered(grobid=grobid, tables=[Table("Table 1. New", [["a", "b"]], 1)]))
    assert merged.arxiv_id == "2304.01234"
    assert [r.key for r in merged.references] == ["b0", "b1", "b2"]
    assert_spans_are_markers(merged)
    assert [(span, keys) for block, span, keys in all_cites(merged)] == [(span, keys) for block, span, keys in all_cites(grobid)]
    assert len(all_cites(merged)) == 4
