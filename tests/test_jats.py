"""The JATS parser on real publisher files (PLOS, MDPI; the shared corpus adds F1000 and BMC)
and on small hand-made files for the constructs and the attacks the real ones lack."""

from __future__ import annotations

import csv
import random
import re
import string
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.errors import BadInput, ParseTimeout, TooManyPages
from paperpyramid.eval.gold import load_gold
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.jats import parse_jats
from tests.pdf_maker import text_pdf

DATA = Path(__file__).parent / "data"
GOLD = DATA / "gold"
SAMPLE = DATA / "sample"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
MDPI = "mdpi-metabolites-2014-durum-wheat-volatiles"
EXTRA_TITLES = {"Abstract", "Acknowledgements"}


def parse_gold(stem: str, *, with_pdf: bool = True) -> Document:
    return parse_jats(GOLD / f"{stem}.nxml", pdf_path=SAMPLE / f"{stem}.pdf" if with_pdf else None)


def body_titles(document: Document) -> list[str]:
    """Section titles as the eval scores them: no Abstract, Acknowledgements, untitled or references section."""
    return [s.title for s in document.sections if s.title and s.title not in EXTRA_TITLES and s.number != "ref"]


def corpus_pairs() -> dict[str, Path]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        pytest.skip(f"../shared/corpus not present ({CORPUS}): the full-corpus JATS checks run only beside the shared material")
    with manifest.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {row["file"]: CORPUS / row["pairs_with"] for row in rows if row["file"].endswith(".nxml")}


# --------------------------------------------------------------------------- the committed gold files


@pytest.mark.parametrize("stem", [PLOS, MDPI])
def test_section_titles_are_the_gold_titles(stem: str) -> None:
    document = parse_gold(stem)
    assert body_titles(document) == load_gold(GOLD / f"{stem}.nxml").section_titles
    assert document.sections[0].title == "Abstract"
    assert document.sections[-1].number == "ref"
    assert all(block.kind == "list_item" for block in document.sections[-1].blocks)


def test_mdpi_numbered_tree() -> None:
    document = parse_gold(MDPI)
    titles = [section.title for section in document.sections]
    parent = titles.index("3. Experimental Section")
    assert document.sections[parent].number == "3"
    assert document.sections[parent].level == 1
    children = [(s.number, s.level, s.parent) for s in document.sections if s.title.startswith("3.") and s is not document.sections[parent]]
    assert children == [(f"3.{n}", 2, parent) for n in (1, 2, 3, 4)]
    # the parent holds no text of its own, yet spans its subsections' pages
    assert document.sections[parent].page_start == 9
    assert document.sections[parent].page_end == 10


@pytest.mark.parametrize(("stem", "count"), [(PLOS, 25), (MDPI, 44)])
def test_reference_counts(stem: str, count: int) -> None:
    document = parse_gold(stem, with_pdf=False)
    assert len(document.references) == count
    assert len(document.sections[-1].blocks) == count


def test_reference_fields() -> None:
    plos = parse_gold(PLOS, with_pdf=False).references[0]
    assert plos.authors == ["Emerson SB", "Inger RF", "Iskandar DT"]
    assert plos.year == 2000
    assert plos.title == "Molecular phylogenetics and Evolution of fanged Frogs"
    assert plos.venue == "Mol Phylogenet Evol"
    assert plos.raw.startswith("Emerson SB, Inger RF, Iskandar DT (2000) Molecular")
    # MDPI's citations hold bare fields, so the reference string is composed from them
    mdpi = parse_gold(MDPI, with_pdf=False).references[0]
    assert mdpi.doi == "10.1023/A:1007016820879"
    assert mdpi.raw.startswith("Langseth W, Bernhost A, Rundberget T, Kosiak B, Manfred G. Mycotoxin production")
    assert "Mycopathologia" in mdpi.raw and "1999" in mdpi.raw


def test_plos_metadata() -> None:
    document = parse_gold(PLOS, with_pdf=False)
    assert document.title is not None and document.title.startswith("A Novel Reproductive Mode in Frogs")
    assert document.doi == "10.1371/journal.pone.0115884"
    assert document.journal == "PLoS ONE"
    assert document.date_published == "2014-12-31"
    assert [author.name for author in document.authors] == ["Djoko T. Iskandar", "Ben J. Evans", "Jimmy A. McGuire"]
    assert document.authors[0].affiliation == "School of Life Sciences and Technology, Institut Teknologi Bandung, Bandung, Indonesia"
    assert document.authors[2].email == "mcguirej@berkeley.edu"  # through the correspondence note
    assert document.abstract is not None and document.abstract.startswith(
        "We describe a new species of fanged frog (Limnonectes larvaepartus)"
    )


def test_plos_table_has_cells_and_a_searchable_block() -> None:
    document = parse_gold(PLOS)
    assert len(document.tables) == 1
    table = document.tables[0]
    assert table.label == "Table 1"
    assert table.caption.startswith("Summary of univariate morphological variation")
    assert len(table.cells) > 15
    assert {len(row) for row in table.cells} == {4}  # the colspan=3 header cell is padded
    assert table.cells[1][1:] == ["Males (31)", "Females (30)", "Holotype"]
    assert table.cells[2][:2] == ["Snout-Vent Length (SVL)", "39.8+4.7"]
    assert table.section is not None
    section = document.sections[table.section]
    assert section.title == "Description of the holotype"
    blocks = [block for block in section.blocks if block.kind == "table"]
    assert len(blocks) == 1
    assert blocks[0].text.startswith("Table 1. Summary of univariate")
    assert "| Snout-Vent Length (SVL) | 39.8+4.7 |" in blocks[0].text
    assert table.page == blocks[0].page == 9  # where the PDF prints it, not where it is cited
    # figures: caption objects and caption blocks; Figure 3 is printed on page 7, cited on page 6
    assert [(figure.label, figure.page) for figure in document.figures] == [("Figure 1", 4), ("Figure 2", 4), ("Figure 3", 7)]


def test_pages_follow_the_pdf() -> None:
    document = parse_gold(PLOS)
    assert document.pages == 14
    assert document.provenance["pages"] == "embedded pdf text"
    assert not document.warnings
    reading = [block for section in document.sections for block in section.blocks if block.kind in ("paragraph", "list_item")]
    pages = [block.page for block in reading]
    assert pages == sorted(pages), "paragraphs must get non-decreasing pages"
    assert pages[0] == 1 and pages[-1] == 14

    def page_of(start: str) -> int:
        return next(block.page for block in reading if block.text.startswith(start))

    # checked against the PDF's text: Materials and Methods' "Nomenclatural acts" is on page 3;
    # the paratypes paragraph is on page 4, though the PDF misprints its "n = 30" as "n530"
    assert page_of("The electronic edition of this article conforms") == 3
    assert page_of("Paratypes (n = 30) are from Sulawesi Utara") == 4
    assert page_of("We thank K. N. Tjan") == 12
    for section in document.sections:
        assert section.page_start is not None and section.page_end is not None
        assert 1 <= section.page_start <= section.page_end <= 14


def test_mdpi_pages_are_monotonic() -> None:
    document = parse_gold(MDPI)
    assert document.pages == 14
    pages = [block.page for section in document.sections for block in section.blocks if block.kind in ("paragraph", "list_item")]
    assert pages == sorted(pages)
    assert pages[-1] >= 11  # the references are at the end, not piled on page 1


def test_without_pdf_every_page_is_one() -> None:
    document = parse_gold(PLOS, with_pdf=False)
    assert document.warnings == ["no PDF: page numbers unknown"]
    assert document.pages == 0
    assert document.provenance == {"sections": "jats", "text": "jats", "references": "jats", "tables": "jats", "pages": "none"}
    assert {block.page for section in document.sections for block in section.blocks} == {1}
    assert {table.page for table in document.tables} == {1}


def test_an_unusable_pdf_costs_the_pages_not_the_parse(tmp_path: Path) -> None:
    fake = tmp_path / "landing.pdf"
    fake.write_text("<html><body>Subscribe to read</body></html>")
    document = parse_jats(GOLD / f"{PLOS}.nxml", pdf_path=fake)
    assert body_titles(document) == load_gold(GOLD / f"{PLOS}.nxml").section_titles
    assert any("PDF not used for page numbers" in warning and "no %PDF header" in warning for warning in document.warnings)
    assert document.provenance["pages"] == "none"


# --------------------------------------------------------------------------- constructs, on a hand-made file

CONSTRUCTS = r"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.2 20190208//EN" "JATS-journalpublishing1.dtd">
<article xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink">
<front>
<journal-meta><journal-title-group><journal-title>Test Journal</journal-title></journal-title-group></journal-meta>
<article-meta>
<article-id pub-id-type="doi">10.1234/test.1</article-id>
<title-group><article-title>A <italic>test</italic> article</article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><surname>Doe</surname><given-names>Jane Q.</given-names></name><xref ref-type="aff" rid="a1"/></contrib></contrib-group>
<aff id="a1"><label>1</label><institution>Uni X</institution><country>Ruritania</country></aff>
<pub-date pub-type="ppub"><month>Mar</month><year>2020</year></pub-date>
<pub-date pub-type="epub"><day>5</day><month>2</month><year>2020</year></pub-date>
<abstract><sec><title>Background</title><p>Why.</p></sec><sec><title>Results</title><p>What.</p></sec></abstract>
</article-meta>
</front>
<body>
<p>Preamble before any heading.</p>
<sec><label>1</label><title>Methods</title>
<p>We used the model <disp-formula id="e1"><label>(1)</label><tex-math>\documentclass{minimal}\begin{document}$$E = mc^2$$\end{document}</tex-math></disp-formula> where E is energy, see <xref ref-type="table" rid="t1">Table 1</xref> and <xref ref-type="table" rid="t2">Table 2</xref>.</p>
<sec><label>1.1</label><title>Data</title><p>Data came as <list><list-item><p>first item</p></list-item><list-item><label>(b)</label><p>second item</p></list-item></list></p></sec>
</sec>
<sec><title>Results</title><p>Spans <disp-formula><mml:math><mml:mi>x</mml:mi><mml:mo>+</mml:mo><mml:mn>1</mml:mn></mml:math></disp-formula></p>
<fig id="f1"><label>Figure 1</label><caption><title>A plot.</title><p>Of things.</p></caption><graphic xlink:href="f1.jpg"/></fig></sec>
</body>
<back>
<ack><p>Thanks.</p></ack>
<app-group><app><title>Appendix A</title><p>Extra.</p></app></app-group>
<ref-list><title>Literature cited</title>
<ref id="r1"><element-citation publication-type="journal"><person-group person-group-type="author"><name><surname>Smith</surname><given-names>John A</given-names></name></person-group><article-title>On tests.</article-title><source>J Test</source><year>2001</year><volume>3</volume><fpage>1</fpage><lpage>9</lpage><pub-id pub-id-type="doi">10.1/abc</pub-id></element-citation></ref>
</ref-list>
</back>
<floats-group>
<table-wrap id="t1"><label>Table 1</label><caption><p>Spanned cells.</p></caption><table><thead><tr><th colspan="2">AB</th><th>C</th></tr></thead>
<tbody><tr><td rowspan="2">r</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></tbody></table></table-wrap>
<table-wrap id="t2"><label>Table 2</label><caption><p>Only a picture.</p></caption><graphic xlink:href="t2.jpg"/></table-wrap>
</floats-group>
<sub-article article-type="ref-report"><body><sec><title>Referee report</title><p>Reviewer text.</p></sec></body></sub-article>
</article>
"""


def test_constructs(tmp_path: Path) -> None:
    path = tmp_path / "constructs.nxml"
    path.write_text(CONSTRUCTS, encoding="utf-8")
    document = parse_jats(path)
    assert document.title == "A test article"
    assert document.doi == "10.1234/test.1"
    assert document.journal == "Test Journal"
    assert document.date_published == "2020-02-05"  # epub before ppub
    assert [(a.name, a.affiliation) for a in document.authors] == [("Jane Q. Doe", "Uni X, Ruritania")]
    assert document.abstract == "Background: Why.\n\nResults: What."

    outline = [(s.title, s.level, s.number, s.parent) for s in document.sections]
    assert outline == [
        ("Abstract", 1, None, None),
        ("", 1, None, None),  # text before the first heading
        ("Methods", 1, "1", None),
        ("Data", 2, "1.1", 2),
        ("Results", 1, None, None),
        ("Acknowledgements", 1, None, None),
        ("Appendix A", 1, None, None),
        ("Literature cited", 1, "ref", None),
    ]
    methods = document.sections[2]
    assert [(b.kind, b.text.split("\n")[0]) for b in methods.blocks] == [
        ("paragraph", "We used the model"),
        ("formula", "E = mc^2 (1)"),
        ("paragraph", "where E is energy, see Table 1 and Table 2."),
        # from <floats-group>, placed after their first citation, in their own order
        ("table", "Table 1. Spanned cells."),
        ("table", "Table 2. Only a picture."),
    ]
    assert [(b.kind, b.text) for b in document.sections[3].blocks] == [
        ("paragraph", "Data came as"),
        ("list_item", "first item"),
        ("list_item", "(b) second item"),
    ]
    assert document.tables[0].cells == [["AB", "", "C"], ["r", "1", "2"], ["", "3", "4"]]
    assert document.tables[0].section == 2
    assert document.tables[1].cells == []
    assert "1 of 2 tables have no cells in the XML (only an image of the table)" in document.warnings
    tex, mathml = document.formulas
    assert (tex.latex, tex.label, tex.section) == ("E = mc^2", "(1)", 2)
    assert (mathml.text, mathml.latex, mathml.section) == ("x + 1", None, 4)
    assert [(f.label, f.caption, f.section) for f in document.figures] == [("Figure 1", "A plot. Of things.", 4)]
    assert document.sections[4].blocks[-1].text == "Figure 1. A plot. Of things."
    reference = document.references[0]
    assert reference.raw == "Smith JA. On tests. J Test. 2001;3:1-9. doi:10.1/abc."
    assert (reference.title, reference.year, reference.venue, reference.doi) == ("On tests", 2001, "J Test", "10.1/abc")
    everything = " ".join(block.text for section in document.sections for block in section.blocks)
    assert "Reviewer text" not in everything and "Referee report" not in everything


# --------------------------------------------------------------------------- hostile XML

XXE = """<?xml version="1.0"?>
<!DOCTYPE article [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<article><front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front>
<body><sec><title>Intro</title><p>Leak: &xxe;</p></sec></body></article>
"""

BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE article [\n <!ENTITY lol0 "lol">\n'
    + "".join(f' <!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">\n' for n in range(1, 10))
    + "]>\n<article><body><p>&lol9;</p></body></article>\n"
)


def test_external_entities_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "xxe.nxml"
    path.write_text(XXE)
    with pytest.raises(BadInput, match="unsafe XML refused") as caught:
        parse_jats(path)
    passwd = Path("/etc/passwd")
    if passwd.is_file():
        first_line = passwd.read_text(errors="replace").splitlines()[0]
        assert first_line not in str(caught.value)


def test_entity_bombs_are_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "lol.nxml"
    path.write_text(BILLION_LAUGHS)
    started = time.monotonic()
    with pytest.raises(BadInput, match="unsafe XML refused"):
        parse_jats(path)
    assert time.monotonic() - started < 2


def test_an_entity_declared_after_a_long_prolog_is_refused(tmp_path: Path) -> None:
    """The declarations are checked up to the root element, however far into the file it starts."""
    path = tmp_path / "late.nxml"
    path.write_text(f"<?xml version='1.0'?>\n<!-- {'padding ' * 5000} -->\n" + BILLION_LAUGHS.split("\n", 1)[1])
    with pytest.raises(BadInput, match="unsafe XML refused: it declares the entity 'lol0'"):
        parse_jats(path)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("<article><body><p>unclosed</body></article>", "not well formed"),
        ("<html><body><p>a web page</p></body></html>", "not a JATS article"),
        # an external DTD is never fetched, so entities it would define stay undefined
        ('<!DOCTYPE article SYSTEM "file:///etc/passwd"><article><body><p>a&nbsp;b</p></body></article>', "undefined entity"),
    ],
)
def test_bad_xml_is_bad_input(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "bad.nxml"
    path.write_text(text)
    with pytest.raises(BadInput, match=reason):
        parse_jats(path)


# --------------------------------------------------------------------------- nesting, and the run's limits on the PDF


def nested(opening: str, inner: str, closing: str, levels: int, around: tuple[str, str] = ("", "")) -> str:
    body = f"{around[0]}{opening * levels}{inner}{closing * levels}{around[1]}"
    return f"<article><body><sec><title>T</title>{body}</sec></body></article>"


def depth(path: Path) -> int:
    deepest, stack = 0, [(ET.parse(path).getroot(), 1)]
    while stack:
        element, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in element)
    return deepest


def test_200000_nested_sections_are_one_line_of_bad_input(tmp_path: Path) -> None:
    """They were a RecursionError: a 1,700-line traceback in the log and no reason a person reads."""
    path = tmp_path / "deep.nxml"
    path.write_text(nested("<sec><title>x</title>", "<p>deep</p>", "</sec>", 200_000))
    started = time.monotonic()
    with pytest.raises(BadInput) as caught:
        parse_jats(path, pdf_path=SAMPLE / f"{PLOS}.pdf")
    assert time.monotonic() - started < 2
    assert str(caught.value) == "deep.nxml: XML refused: elements nested too deeply (over 100 levels)"


MATH = ('<p><disp-formula><mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML">', "</mml:math></disp-formula></p>")
# the constructs the readers recurse into, each a few frames of stack a level: (opening, inner, closing, around)
DEEP_CONSTRUCTS = {
    "sec": ("<sec><title>x</title>", "<p>deep enough</p>", "</sec>", ("", "")),
    "list": ("<list><list-item><p>item", " deep enough", "</p></list-item></list>", ("", "")),
    "boxed-text": ("<boxed-text>", "<p>deep enough</p>", "</boxed-text>", ("", "")),
    "bold": ("<p>a <bold>", "deep enough", "</bold></p>", ("", "")),
    "mathml": ("<mml:mrow>", "<mml:mi>deep</mml:mi><mml:mi>enough</mml:mi>", "</mml:mrow>", MATH),
}


@pytest.mark.parametrize("construct", list(DEEP_CONSTRUCTS))
def test_the_deepest_tree_allowed_parses_and_one_level_more_is_refused(tmp_path: Path, construct: str) -> None:
    """The limit must sit below the depth at which any reader runs out of stack, for every construct."""
    opening, inner, closing, around = DEEP_CONSTRUCTS[construct]
    path = tmp_path / "deep.nxml"
    levels = 0
    while levels < 100:  # the most levels whose tree is at most 100 elements deep
        path.write_text(nested(opening, inner, closing, levels + 1, around))
        if depth(path) > 100:
            break
        levels += 1
    path.write_text(nested(opening, inner, closing, levels, around))
    assert 97 <= depth(path) <= 100
    document = parse_jats(path)
    texts = [block.text for section in document.sections for block in section.blocks] + [formula.text for formula in document.formulas]
    assert any("deep" in text and "enough" in text for text in texts)
    path.write_text(nested(opening, inner, closing, levels + 1, around))
    with pytest.raises(BadInput, match=r"nested too deeply \(over 100 levels\)"):
        parse_jats(path)


def test_an_article_over_a_megabyte_reads_as_a_small_one(tmp_path: Path) -> None:
    """A large file is measured for depth as it is read, not once built; its tree, namespaced
    MathML included, reads the same as the same article in a small file."""
    formula = '<disp-formula><mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:mi>x</mml:mi><mml:mo>+</mml:mo><mml:mn>1</mml:mn></mml:math></disp-formula>'
    paragraph = '<p>Growth of <italic>E. coli</italic> was measured [<xref ref-type="bibr" rid="r1">1</xref>].</p>'
    refs = '<back><ref-list><ref id="r1"><mixed-citation>Smith J. On growth. 2001.</mixed-citation></ref></ref-list></back>'

    def write(name: str, paragraphs: int) -> Path:
        path = tmp_path / name
        path.write_text(f"<article><body><sec><title>T</title>{formula}{paragraph * paragraphs}</sec></body>{refs}</article>")
        return path

    small, large = write("small.nxml", 10), write("large.nxml", 12_000)
    assert large.stat().st_size > 2**20 > small.stat().st_size
    read = {path.name: parse_jats(path) for path in (small, large)}
    for document in read.values():
        assert document.formulas[0].text == "x + 1"
        first = document.sections[0].blocks[1]
        assert first.text == "Growth of E. coli was measured [1]."
        assert [(first.text[cite.start : cite.end], cite.keys) for cite in first.cites] == [("1", ["r1"])]
    assert len(read["large.nxml"].sections[0].blocks) == 1 + 12_000


def test_a_pdf_over_max_pages_fails_the_article_as_the_pdf_alone_would() -> None:
    """A PMC package's PDF is read for page numbers; --max-pages must stop a 50,000-page one."""
    pdf = SAMPLE / f"{PLOS}.pdf"  # 14 pages
    with pytest.raises(TooManyPages) as from_jats:
        parse_jats(GOLD / f"{PLOS}.nxml", pdf_path=pdf, max_pages=13)
    with pytest.raises(TooManyPages) as from_embedded:
        parse_pdf(pdf, max_pages=13)
    assert (
        str(from_jats.value) == str(from_embedded.value) == f"{PLOS}.pdf: 14 pages is over the limit of 13 (raise --max-pages to parse it)"
    )
    assert parse_jats(GOLD / f"{PLOS}.nxml", pdf_path=pdf, max_pages=14).pages == 14


def random_sentence(rng: random.Random) -> str:
    return " ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(7)) for _ in range(9))


def test_the_time_limit_stops_reading_the_pdfs_pages(tmp_path: Path) -> None:
    rng = random.Random(7)
    pages = [[(random_sentence(rng), 10) for _ in range(40)] for _ in range(1000)]
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(text_pdf(pages))
    xml = tmp_path / "long.nxml"
    xml.write_text(nested("", f"<p>{pages[0][0][0]}</p>", "", 0))
    started = time.monotonic()
    with pytest.raises(ParseTimeout, match=r"^long\.pdf: parsing took longer than 0\.2 s \(stopped at page (\d+) of 1000\)$") as caught:
        parse_jats(xml, pdf_path=pdf, time_limit=0.2)
    assert time.monotonic() - started < 2
    stopped_at = re.search(r"page (\d+) of", str(caught.value))
    assert stopped_at is not None and int(stopped_at[1]) < 1000


@pytest.mark.slow
def test_the_time_limit_stops_placing_blocks_on_the_pages(tmp_path: Path) -> None:
    """20,000 paragraphs the PDF does not print, each looked for in 500 pages of text: about 30 s
    unchecked, and a 64 MB XML holds far more of them. The limit is set from how long this machine
    takes to read the pages alone (0.9 s here), so a slow runner still reaches the placing step."""
    rng = random.Random(11)
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(text_pdf([[(random_sentence(rng), 10) for _ in range(40)] for _ in range(500)]))
    one = tmp_path / "one.nxml"
    one.write_text(nested("", "<p>a paragraph the PDF does not print</p>", "", 0))
    started = time.monotonic()
    parse_jats(one, pdf_path=pdf)
    limit = round(max(2.0, 4 * (time.monotonic() - started)), 1)
    xml = tmp_path / "many.nxml"
    xml.write_text(nested("", "".join(f"<p>{random_sentence(rng)}</p>" for _ in range(20_000)), "", 0))
    started = time.monotonic()
    seconds = re.escape(f"{limit:g}")
    with pytest.raises(
        ParseTimeout, match=rf"^long\.pdf: parsing took longer than {seconds} s \(stopped placing block \d+ of 20000 on the PDF's pages\)$"
    ):
        parse_jats(xml, pdf_path=pdf, time_limit=limit)
    assert time.monotonic() - started < limit + 2


# --------------------------------------------------------------------------- the shared corpus


def test_every_corpus_file_matches_its_gold_titles() -> None:
    pairs = corpus_pairs()
    assert len(pairs) >= 5
    for name, pdf in pairs.items():
        document = parse_jats(CORPUS / name, pdf_path=pdf)
        gold = load_gold(CORPUS / name)
        assert body_titles(document) == gold.section_titles, name
        assert len(document.references) == gold.n_references, name
        assert document.pages > 0 and not document.warnings, (name, document.warnings)


def test_f1000_referee_reports_are_left_out() -> None:
    corpus_pairs()
    document = parse_jats(CORPUS / "f1000research-2015-sharpnose-shark-longevity.nxml")
    text = " ".join(block.text for section in document.sections for block in section.blocks)
    raw = (CORPUS / "f1000research-2015-sharpnose-shark-longevity.nxml").read_text(encoding="utf-8")
    report = "I have no major comments"  # a referee's words, in a <sub-article>
    assert report in raw.split("<sub-article", 1)[1]
    assert report not in text
    assert len(document.tables) == 2
    assert len(document.formulas) == 1
    assert document.formulas[0].text.startswith("Age=")


def test_bmc_tables() -> None:
    corpus_pairs()
    document = parse_jats(CORPUS / "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.nxml")
    assert len(document.tables) == 10
    assert all(table.cells and len({len(row) for row in table.cells}) == 1 for table in document.tables)
    assert len(document.references) == 68


TABLE_GROUP = """<?xml version="1.0"?>
<article><front><article-meta><title-group><article-title>Grouped</article-title></title-group></article-meta></front>
<body><sec><title>Results</title><p>See Table 2.</p>
<table-wrap-group id="tab2"><label>Table 2</label><caption><p>Prior cases [<xref ref-type="bibr" rid="r1">1</xref>].</p></caption>
<table-wrap id="tab2a"><label>(a)</label><table><tr><td>Author</td><td>Age</td></tr><tr><td>Ortiz</td><td>15</td></tr></table></table-wrap>
<table-wrap id="tab2b"><label>(b)</label><caption><p>Outcomes.</p></caption>
<table><tr><td>Imaging</td><td>Outcome</td></tr><tr><td>MRI</td><td>None</td></tr></table></table-wrap>
</table-wrap-group></sec></body>
<back><ref-list><ref id="r1"><mixed-citation>Smith J. A case. 2001.</mixed-citation></ref></ref-list></back></article>
"""


def test_the_parts_of_a_table_group_carry_its_label_and_caption(tmp_path: Path) -> None:
    """A ``<table-wrap-group>`` ("Table 2" over parts "(a)" and "(b)", as Hindawi writes a table
    printed in two pieces): each part is labelled and captioned with the group's words before its
    own, and the group caption's citation is linked in each part's block."""
    path = tmp_path / "group.nxml"
    path.write_text(TABLE_GROUP, encoding="utf-8")
    document = parse_jats(path)
    assert [(table.label, table.caption, table.cells[1]) for table in document.tables] == [
        ("Table 2 (a)", "Prior cases [1].", ["Ortiz", "15"]),
        ("Table 2 (b)", "Prior cases [1]. Outcomes.", ["MRI", "None"]),
    ]
    blocks = [block for section in document.sections for block in section.blocks if block.kind == "table"]
    assert [block.text.split("\n")[0] for block in blocks] == ["Table 2 (a). Prior cases [1].", "Table 2 (b). Prior cases [1]. Outcomes."]
    for block in blocks:
        assert [(block.text[cite.start : cite.end], cite.keys) for cite in block.cites] == [("1", ["r1"])]


def test_a_rule_drawn_as_a_row_is_no_row(tmp_path: Path) -> None:
    """Some journals draw a table's rules as rows holding only ``<hr/>``: the table has its printed
    rows, not an empty row for each rule (the gold of `eval parse` had 34 rows for 18)."""
    path = tmp_path / "rules.nxml"
    path.write_text(
        "<article><front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front><body>"
        '<sec><title>Results</title><table-wrap id="t1"><label>Table 1</label><caption><p>Rules.</p></caption><table><tbody>'
        '<tr><td>Age</td><td>Sex</td></tr><tr><td colspan="2"><hr/></td></tr><tr><td>54</td><td>F</td></tr>'
        '<tr><td colspan="2"><hr/></td></tr><tr><td></td><td>M</td></tr><tr><td></td><td></td></tr></tbody></table></table-wrap></sec>'
        "</body></article>",
        encoding="utf-8",
    )
    (table,) = parse_jats(path).tables
    assert table.cells == [["Age", "Sex"], ["54", "F"], ["", "M"], ["", ""]]  # an empty row without a rule is kept as printed
