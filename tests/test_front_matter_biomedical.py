"""Title pages in biomedical publishers' conventions that the development pairs show once or never.

The judged papers are biomedical publishers' PDFs (Word, InDesign, Arbortext; not LaTeX). Each
convention here is drawn again with made-up names as a PDF of real text (``tests/pdf_maker``), or
checked on the line it is printed on: PLOS's lettered current-address marks (``¤a``), degrees
after a name without commas (``Carl Dahl DO``), ORCID's badge spelled as its logo (``iD``),
Frontiers' feet before 2016 (the journal's section and the month after the name), and a journal
abbreviated in the citation lines but spelled out in the masthead (MDPI's logo over three lines),
an article's type set larger than the title (Hindawi), a byline in "BY" and "AND" slots (ijmart),
the XMP's journal in every PRISM version. Each was wrong before its rule. The conventions the
development pairs do show (marks, badges, boxes, mastheads) are checked on their real pages too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.eval.metadata import Metadata, load_gold_metadata, score_metadata
from paperpyramid.parsers.embedded import author_names as an
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.journal import find_journal
from paperpyramid.parsers.embedded.xmp import read_xmp
from paperpyramid.retrieval.filters import year_of
from tests.test_front_matter_publishers import body, bold, centred, names, parse, regular


def test_plos_lettered_current_address_marks_leave_every_name(tmp_path: Path) -> None:
    # PLOS: "¤a", "¤b" key the authors' current addresses; "☯" their equal contribution
    document = parse(
        tmp_path,
        [
            regular(72, 760, 8, "RESEARCH ARTICLE"),
            regular(72, 740, 16, "An Invented Study of Fertilization in"),
            regular(72, 720, 16, "Fanged Frogs of an Example Island"),
            bold(72, 696, 9, "Anna Berg1\xa4a, Carl Dahl2\xa4b*, Eva Lund1"),
            regular(72, 680, 8, "1 Department of Biology, Example University, Springfield, United States of America,"),
            regular(72, 670, 8, "2 Museum of Natural History, Example City, United States of America"),
            regular(72, 656, 8, "\xa4a Current address: Institute of Zoology, Example University, Example City, Canada"),
            bold(72, 630, 10, "Abstract"),
            *body(600),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("Anna Berg1☯, Carl Dahl2☯¤a, Eva Lund1¤b*", ["Anna Berg", "Carl Dahl", "Eva Lund"]),  # PLOS
        ("Anna Berg MD PhD, Carl Dahl DO, Eva Lund MA", ["Anna Berg", "Carl Dahl", "Eva Lund"]),  # degrees without commas
        ("Carl Dahl MD MS and Eva Lund DSc FRCPC", ["Carl Dahl", "Eva Lund"]),
        ("LAN MA, MINH BA", ["Lan Ma", "Minh Ba"]),  # in capitals, two capitals are a surname, not a degree
        ("Anna Berg iD 1, Carl Dahl2,* iD", ["Anna Berg", "Carl Dahl"]),  # ORCID's badge as its logo spells it
    ],
)
def test_biomedical_bylines(printed: str, expected: list[str]) -> None:
    assert an.split_names(printed) == expected


def test_degrees_after_names_without_commas_on_a_title_page(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            regular(72, 740, 16, "An Invented Study of Fertilization in Frogs"),
            regular(72, 716, 10, "Anna Berg MD PhD1, Carl Dahl DO2 and Eva Lund MA1"),
            regular(72, 700, 8, "1Department of Biology, Example University, Springfield, USA"),
            bold(72, 660, 10, "Abstract"),
            *body(630),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_frontiers_feet_before_2016_name_the_journal_before_its_section() -> None:
    lines = [
        (1, "ORIGINAL RESEARCH ARTICLE published: 09 December 2014 doi: 10.3389/fpsyg.2014.01425"),
        (1, "www.frontiersin.org December 2014 | Volume 5 | Article 1425 | 1"),
        (2, "Frontiers in Psychology | Cognition December 2014 | Volume 5 | Article 1425 | 2"),
        (3, "Frontiers in Psychology | Cognition December 2014 | Volume 5 | Article 1425 | 3"),
    ]
    assert find_journal(lines, {})[:2] == ("Frontiers in Psychology", 2014)


def test_an_abbreviated_journal_is_spelled_out_where_the_first_page_spells_it() -> None:
    # MDPI: the logo's name over three lines, the abbreviation in the foot and the running heads
    mdpi = [
        (1, "International Journal of"),
        (1, "Environmental Research"),
        (1, "and Public Health"),
        (1, "Int. J. Environ. Res. Public Health 2016, 13, 1234; doi:10.3390/ijerph13121234"),
        (2, "Int. J. Environ. Res. Public Health 2016, 13, 1234 2 of 15"),
    ]
    assert find_journal(mdpi, {})[:2] == ("International Journal of Environmental Research and Public Health", 2016)
    # Frontiers: the citation box abbreviates, the feet spell it
    frontiers = [
        (1, "Citation: Berg A and Dahl C (2014) An invented title. Front. Psychol. 5:1425. doi: 10.3389/fpsyg.2014.01425"),
        (2, "Frontiers in Psychology | Cognition December 2014 | Volume 5 | Article 1425 | 2"),
    ]
    assert find_journal(frontiers, {})[0] == "Frontiers in Psychology"
    # nothing spells it out: the abbreviation stays
    alone = [(1, "Int. J. Mol. Sci. 2016, 17, 1234; doi:10.3390/ijms17081234"), (2, "Int. J. Mol. Sci. 2016, 17, 1234 2 of 15")]
    assert find_journal(alone, {})[0] == "Int. J. Mol. Sci"


def test_names_each_under_a_lone_by_or_and_are_the_authors(tmp_path: Path) -> None:
    # ijmart (Israel Journal of Mathematics): "BY", a name, its address; "AND", the next name; an
    # organisation in a name's slot signs as one, and the address's lines are no names
    document = parse(
        tmp_path,
        [
            centred(720, 12, "AN INVENTED TITLE FOR A SAMPLE PAPER"),
            centred(690, 6, "BY"),
            centred(676, 7, "ANNA EXAMPLE"),
            centred(664, 8, "Technical Support"),
            centred(652, 8, "Electronic Products and Services"),
            centred(640, 8, "Providence, RI 02940 USA"),
            centred(622, 6, "AND"),
            centred(608, 7, "The Invented University Press"),
            centred(596, 8, "Jerusalem 91390"),
            centred(570, 6, "ABSTRACT"),
            *body(540),
        ],
    )
    assert names(document) == ["Anna Example", "Invented University Press"]


@pytest.mark.parametrize("label", ["Letter to the Editor", "Expression of Concern", "Original Research Article"])
def test_an_article_type_in_type_larger_than_the_title_is_not_the_title(tmp_path: Path, label: str) -> None:
    # Hindawi sets the article's type over the title in a size larger than the title's bold
    document = parse(
        tmp_path,
        [
            regular(72, 740, 8, "Hindawi Publishing Corporation"),
            regular(72, 700, 17.7, label),
            bold(72, 680, 17, "An Invented Study of Fertilization in Frogs"),
            bold(108, 650, 11.3, "Anna Berg,1 Carl Dahl,2 and Eva Lund1"),
            regular(108, 634, 8.8, "1 Department of Biology, Example University, Springfield, USA"),
            *body(600),
        ],
    )
    assert document.title == "An Invented Study of Fertilization in Frogs"
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_citation_boxs_abbreviation_gives_way_to_the_feets_whole_name() -> None:
    # PLoS before 2010: the box abbreviates as NLM does, without full stops; the feet spell the name,
    # with the page's number before the month
    plos = [
        (1, "Citation: Berg A, Dahl C (2008) An Invented Title. PLoS Med 5(1): e1. doi:10.1371/journal.pmed.0050001"),
        (1, "PLoS Medicine | www.plosmedicine.org 0001 January 2008 | Volume 5 | Issue 1 | e1"),
        (2, "PLoS Medicine | www.plosmedicine.org 0002 January 2008 | Volume 5 | Issue 1 | e1"),
    ]
    assert find_journal(plos, {})[:2] == ("PLoS Medicine", 2008)
    # a name without a full stop is no abbreviation of another line's longer words
    cell = [(1, "Citation: Berg A, Dahl C (2013) A Title. Cell 9(5): 123-130."), (1, "Cellular Biology 2013, 9, 123")]
    assert find_journal(cell, {})[0] == "Cell"


@pytest.mark.parametrize("version", ["basic/2.0/", "basic/3.0/", "1.2/basic/"])
def test_the_xmp_journal_in_every_prism_version(tmp_path: Path, version: str) -> None:
    # a journal whose name is only in its logo's image says it in the XMP, in whichever PRISM version
    packet = (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        f'<rdf:Description xmlns:prism="http://prismstandard.org/namespaces/{version}">'
        "<prism:publicationName>Journal of Invented Medicine</prism:publicationName><prism:doi>10.1000/jim.1</prism:doi>"
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
    ).encode()
    path = tmp_path / "xmp.pdf"
    path.write_bytes(
        b"%PDF-1.6\n"
        + b"3 0 obj\n<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n" % len(packet)
        + packet
        + b"\nendstream\nendobj\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Metadata 3 0 R >>\nendobj\n%%EOF\n"
    )
    assert read_xmp(path) == {"journal": "Journal of Invented Medicine", "doi": "10.1000/jim.1"}


def test_an_nlm_abbreviation_is_spelled_out_where_the_masthead_writes_out_two_words_or_more() -> None:
    lines = [(1, "Experimental and Therapeutic Medicine"), (1, "Exp Ther Med 2018, 16: 123-130"), (2, "Exp Ther Med 2018, 16: 123-130")]
    assert find_journal(lines, {})[:2] == ("Experimental and Therapeutic Medicine", 2018)
    # one word written out is no sure abbreviation: the name printed stays
    lines = [(1, "Cancer Medicine"), (1, "Cancer Med 2018, 16: 123-130"), (2, "Cancer Med 2018, 16: 123-130")]
    assert find_journal(lines, {})[0] == "Cancer Med"


def test_jmirs_feet_give_the_issue_as_iss() -> None:
    lines = [
        (1, "JMIR Mhealth Uhealth 2018 | vol. 6 | iss. 5 | e123 | p.1"),
        (2, "JMIR Mhealth Uhealth 2018 | vol. 6 | iss. 5 | e123 | p.2"),
    ]
    assert find_journal(lines, {})[:2] == ("JMIR Mhealth Uhealth", 2018)


@pytest.mark.parametrize(
    "pdf",
    [
        "plosone-2025-translocation-disease-risk.pdf",  # PLOS: "¤" after a name, the "Citation:" box, ORCID badges
        "materials-2018-green-nanoparticles-review.pdf",  # MDPI: "1,† ID" after names, the logo's name in lower case
        "nutrients-2018-protein-exercise-metaanalysis.pdf",  # MDPI: "2,7,8,*", names over three lines
        "scirep-2019-rotator-cuff-repair-nma.pdf",  # Nature: names glued to their given names ("BinwuXu1"), "&"
        "frontmicrobiol-2018-waterlogging-pgpr.pdf",  # Frontiers: the "Citation:" box, the journal in the margin's note
        "bmcplantbiol-2018-basil-downy-mildew.pdf",  # BMC: "*" marks, the journal in the Info subject and the head
        "jtoxicol-2018-herbal-feed-toxicity.pdf",  # Hindawi: "Journal of …" in the masthead, names over two lines
    ],
)
def test_the_development_pairs_conventions_on_their_real_pages(pmc_pairs: Path, pdf: str) -> None:
    # the conventions above as the real papers print them (development pairs only; never the kept ones)
    gold = load_gold_metadata(pmc_pairs / pdf.replace(".pdf", ".nxml"))
    document = parse_pdf(pmc_pairs / pdf)
    found = Metadata(
        title=document.title,
        authors=[author.name for author in document.authors],
        doi=document.doi,
        journal=[document.journal] if document.journal else None,
        year=year_of(document.date_published),
    )
    assert score_metadata(gold, found).fields == dict.fromkeys(("title", "authors", "doi", "journal", "year"), True)
