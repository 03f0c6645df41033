"""Metadata from every source the PDF has: the printed title page, running heads and footers,
the Info dictionary and the catalog's own XMP packet. Each case here was wrong before (one
author of three, no journal anywhere, the F1000 v1 DOI for the v2 PDF, the accepted date as
the publication date, titles cut at a line break) and is checked on the real PDF."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import author_names as an
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.xmp import read_xmp
from tests.conftest import SAMPLE


def names(path: Path) -> list[str]:
    return [author.name for author in parse_pdf(path).authors]


def test_the_bundled_papers_metadata() -> None:
    plos = parse_pdf(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf")
    assert [a.name for a in plos.authors] == ["Djoko T. Iskandar", "Ben J. Evans", "Jimmy A. McGuire"]
    assert (plos.doi, plos.journal, plos.date_published) == ("10.1371/journal.pone.0115884", "PLOS ONE", "December 31, 2014")

    mdpi = parse_pdf(SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf")
    assert len(mdpi.authors) == 7 and mdpi.authors[1].name == "Laura Del Coco" and mdpi.authors[-1].name == "Antonio F. Logrieco"
    assert (mdpi.journal, mdpi.doi) == ("Metabolites", "10.3390/metabo4040932")

    bmc = parse_pdf(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf")
    assert len(bmc.authors) == 5 and bmc.authors[0].name == "Josephine Nana Afrakoma Agyeman-Duah"
    # printed only in the citation box on the last page
    assert bmc.doi == "10.1186/1472-6963-14-1"
    assert (bmc.journal, bmc.date_published) == ("BMC Health Services Research", "2014")


@pytest.mark.slow
def test_shared_corpus_title_pages(shared_corpus: Path) -> None:
    shark = parse_pdf(shared_corpus / "f1000research-2015-sharpnose-shark-longevity.pdf")
    # the title wraps over four blocks and ends in F1000's version stamp
    assert shark.title is not None and shark.title.endswith("based on tag-recapture data and direct age estimates")
    assert shark.doi == "10.12688/f1000research.4767.2"  # the latest version, not "First published …4767.1"
    assert shark.date_published == "27 Jan 2015"
    assert [a.name for a in shark.authors] == ["Bryan S. Frazier", "William B. Driggers III", "Glenn F. Ulrich"]

    hindawi = parse_pdf(shared_corpus / "hindawi-rehabil-res-pract-2010-heart-failure.pdf")
    assert hindawi.journal == "Rehabilitation Research and Practice"
    assert hindawi.date_published == "2010"  # "Accepted 25 December 2010" is not a publication date
    assert len(hindawi.authors) == 4

    amsart = parse_pdf(shared_corpus / "arxiv-1707.08043-amsart-commutative-algebra-compiled.pdf")
    assert amsart.title is not None and amsart.title.startswith("ON POSITIVE-CHARACTERISTIC SEMI-PARAMETRIC LOCAL REDUCTIONS")
    assert [a.name for a in amsart.authors] == [
        "Edisson Gallego",
        "Danny Arlen de Jesús Gómez-Ramírez",
        "Juan D. Vélez",
    ]  # TeX accents composed

    specter = names(shared_corpus / "acl-2020-specter.pdf")
    assert specter == ["Arman Cohan", "Sergey Feldman", "Iz Beltagy", "Doug Downey", "Daniel S. Weld"]
    # the proceedings' own footer names the venue; a reference's journal is not the paper's
    assert (
        parse_pdf(shared_corpus / "acl-2020-specter.pdf").journal
        == "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics"
    )

    ethno = parse_pdf(shared_corpus / "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.pdf")
    assert ethno.doi == "10.1186/1746-4269-11-3"  # only in the catalog's XMP packet
    assert ethno.journal == "Journal of Ethnobiology and Ethnomedicine"


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("Arman Cohan†∗ Sergey Feldman†∗, Iz Beltagy†", ["Arman Cohan", "Sergey Feldman", "Iz Beltagy"]),
        ("Alina G. Meresescu1,2, Matthieu Kowalski2, Fred´ eric Schmidt1", ["Alina G. Meresescu", "Matthieu Kowalski", "Frederic Schmidt"]),
        ("Ross G. DOUGLAS∗1, Rajni K. SHARMA†1 and Edward D. STURROCK∗", ["Ross G. Douglas", "Rajni K. Sharma", "Edward D. Sturrock"]),
        ("Kyle Loα, Zejiang Shenα", ["Kyle Lo", "Zejiang Shen"]),
        ("Bo Sun, Li‑Zhi Liu", ["Bo Sun", "Li-Zhi Liu"]),
        ("Department of Biology, University of Leeds", []),
    ],
)
def test_names_split_at_marks_commas_and(printed: str, expected: list[str]) -> None:
    assert an.split_names(printed) == expected


def test_doi_versions_and_sources() -> None:
    both = "First published: 12 Aug 2014 (doi: 10.12688/f1000research.4767.1) Latest published: 27 Jan 2015 (doi: 10.12688/f1000research.4767.2)"
    assert fm.find_doi(both, {}) == "10.12688/f1000research.4767.2"
    # a serial that ends in digits is not a version
    assert fm.find_doi("PLOS ONE | DOI:10.1371/journal.pone.0115884", {}) == "10.1371/journal.pone.0115884"
    assert (
        fm.find_doi("no doi here", {"Subject": "Data in Brief, 22 (2018) 451-457. doi:10.1016/j.dib.2018.11.134"})
        == "10.1016/j.dib.2018.11.134"
    )
    assert fm.find_doi("", {}) is None


def test_publication_date_is_never_the_accepted_date() -> None:
    assert fm.find_date("Received 9 November 2010; Accepted 25 December 2010") is None
    assert fm.find_date("Submitted 25 March 2016 Accepted 9 May 2017 Published 5 June 2017") == "5 June 2017"


def test_journal_from_running_heads_outvotes_a_reference() -> None:
    heads = [(page, f"Smith et al. Journal of Field Biology 2015, 11:3 Page {page} of 9") for page in range(1, 6)]
    reference = [(8, "Lett. Appl. Microbiol. 2003, 36, 263–267.")]
    assert fm.find_journal(heads + reference, {}) == ("Journal of Field Biology", 2015, None)
    assert fm.find_journal(reference, {}) == (None, None, None)  # one later page: a reference, not the paper
    assert fm.find_journal([(1, "Chinese Medical Journal ¦ July 20, 2017 ¦ Volume 130")], {}) == (
        "Chinese Medical Journal",
        2017,
        "July 20, 2017",
    )


def _pdf_with_packets(tmp_path: Path, *, compress: bool) -> Path:
    """A PDF whose figure carries another paper's XMP before the document's own packet."""

    def packet(title: str, doi: str) -> bytes:
        return (
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">'
            f"<dc:title><rdf:Alt><rdf:li>{title}</rdf:li></rdf:Alt></dc:title><prism:doi>{doi}</prism:doi>"
            "</rdf:Description></rdf:RDF></x:xmpmeta>"
        ).encode()

    own = packet("The paper itself", "10.1000/own.1")
    body = zlib.compress(own) if compress else own
    flate = b"/Filter /FlateDecode " if compress else b""
    foreign = packet("Another paper", "10.9999/foreign")
    parts = [
        b"%PDF-1.6\n",
        b"4 0 obj\n<< /Type /XObject /Length %d >>\nstream\n" % len(foreign) + foreign + b"\nendstream\nendobj\n",
        b"3 0 obj\n<< /Type /Metadata /Subtype /XML " + flate + b"/Length %d >>\nstream\n" % len(body) + body + b"\nendstream\nendobj\n",
        b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Metadata 3 0 R /OpenAction << /S /GoTo >> >>\nendobj\n%%EOF\n",
    ]
    path = tmp_path / ("compressed.pdf" if compress else "plain.pdf")
    path.write_bytes(b"".join(parts))
    return path


@pytest.mark.parametrize("compress", [False, True])
def test_xmp_is_the_catalogs_packet_not_a_figures(tmp_path: Path, compress: bool) -> None:
    fields = read_xmp(_pdf_with_packets(tmp_path, compress=compress))
    assert fields["title"] == "The paper itself" and fields["doi"] == "10.1000/own.1"


def test_xmp_unreadable_is_empty(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Metadata 9 0 R >> endobj\n")
    assert read_xmp(broken) == {}
    assert read_xmp(tmp_path / "missing.pdf") == {}


def test_an_abstract_continued_on_the_next_page_is_whole() -> None:
    """MDPI's abstract stops at the foot of page 1 ("…overall volatile profile of infected") and runs
    on at the top of page 2: both halves, and the keywords after them, are the abstract."""
    mdpi = parse_pdf(SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf")
    assert mdpi.abstract is not None
    assert "overall volatile profile of infected samples and controls differed" in mdpi.abstract
    assert mdpi.abstract.endswith("Keywords: Fusarium poae; durum wheat; volatile metabolites; SPME-GC/MS; PCA")
    abstract = mdpi.sections[0]
    assert abstract.title == "Abstract" and "\n\n".join(block.text for block in abstract.blocks) == mdpi.abstract


def test_a_numbered_heading_that_begins_like_a_metadata_label_is_a_section(shared_corpus: Path) -> None:
    """ "Citation: …" opens front matter, but SPECTER's "2.3 Citation-Based Pretraining Objective"
    and "3.2 Citation Prediction" are sections (both were folded into the section before)."""
    specter = parse_pdf(shared_corpus / "acl-2020-specter.pdf")
    numbered = {(section.number, section.title) for section in specter.sections}
    assert {("2.3", "Citation-Based Pretraining Objective"), ("3.2", "Citation Prediction")} <= numbered


def test_the_first_pages_other_text_is_kept_after_the_abstract() -> None:
    # affiliations, dates, the editor and the data statement were dropped with the front matter
    plos = parse_pdf(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf")
    assert plos.sections[0].title == "Abstract" and plos.sections[1].title == ""
    front = " ".join(block.text for block in plos.sections[1].blocks)
    assert "Institut Teknologi Bandung" in front and "Institut Teknologi Bandung" not in (plos.abstract or "")
    # the small print of the side box (citation, editor) with the notes, out of the reading flow
    notes = " ".join(block.text for block in plos.sections[-1].blocks)
    assert plos.sections[-1].title == "" and "Editor: Matthias" in notes and "Citation: Iskandar DT" in notes
    assert all(table.section is None or plos.sections[table.section].blocks for table in plos.tables)  # indices moved with it


def test_a_side_box_beside_the_abstract_is_not_read_into_it(shared_corpus: Path) -> None:
    # F1000's referee-status box sits beside the abstract: the page was read across both, the
    # abstract heading joined "Referee Status:" and the abstract itself was lost
    shark = parse_pdf(shared_corpus / "f1000research-2015-sharpnose-shark-longevity.pdf")
    assert (shark.abstract or "").startswith("Longevity of Rhizoprionodon terraenovae and Carcharhinus acronotus in the western")
    assert shark.abstract.endswith("demographic analyses and stock assessments.")
    assert "Referee Status" not in shark.abstract and "Open Peer Review" in " ".join(b.text for s in shark.sections for b in s.blocks)


def test_a_paper_whose_first_heading_comes_late_keeps_its_opening_pages(shared_corpus: Path) -> None:
    # an OCR-layer scan whose only heading is "Acknowledgement": its text was all front matter
    scan = parse_pdf(shared_corpus / "hostile-scanned-ocr-layer-z-naturforsch-1999.pdf", ocr="never")  # its own OCR layer
    opening = next(section for section in scan.sections if not section.title)
    assert scan.sections.index(opening) < [s.title for s in scan.sections].index("Acknowledgement")
    assert sum(len(block.text.split()) for block in opening.blocks) > 600  # of its ~750 words


def test_a_table_and_figures_before_the_first_heading_are_kept(shared_corpus: Path) -> None:
    # a one-page excerpt with no heading: its table and captions were front matter, and dropped
    excerpt = parse_pdf(shared_corpus / "data-in-brief-2019-single-page-figure-table.pdf")
    (table,) = excerpt.tables
    # the header set over two lines is one row (its first cell wrapped): a header and six concentrations
    assert table.label == "1" and len(table.cells) == 7
    assert (
        table.cells[0][:3] == ["Inhibitor concentration (g)", "bc (V/dec)", "ba (V/dec)"] and table.cells[-1][0] == "10"
    )  # no figure read into it
    assert table.cells[-1][-2:] == ["246.080", "0.0919"]
    assert {figure.label for figure in excerpt.figures} == {"4", "5"}
    assert excerpt.sections[table.section].blocks  # its section holds it


def test_affiliations_are_given_to_the_authors_their_marks_point_at() -> None:
    # affiliations were always empty; PLOS numbers them inline, MDPI sets each number apart
    plos = parse_pdf(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf")
    assert [a.affiliation for a in plos.authors] == [
        "School of Life Sciences and Technology, Institut Teknologi Bandung, Bandung, Indonesia",
        "Center for Environmental Genomics, Department of Biology, McMaster University, Hamilton, Ontario, Canada",
        "Museum of Vertebrate Zoology and Department of Integrative Biology, University of California, Berkeley, California, United States of America",
    ]
    mdpi = parse_pdf(SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf")
    places = {a.name: a.affiliation for a in mdpi.authors}
    assert (
        places["Laura Del Coco"]
        == places["Francesco P. Fanizzi"]
        == "Di.S.Te.B.A., University of Salento, Prov.le Lecce-Monteroni, 73100 Lecce, Italy"
    )
    assert places["Antonio F. Logrieco"] == "C.N.R. Institute of Sciences of Food Production (ISPA), Via Amendola 122/O, 70125 Bari, Italy"
    assert not any("@" in (a.affiliation or "") for a in mdpi.authors)  # the e-mails between them left out
    bmc = parse_pdf(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf")
    # BMC prints them at the end, under "Author details", numbered as the byline's marks
    assert {a.name: a.affiliation for a in bmc.authors}["Charles Munthali"] == (
        "Department of Internal Medicine, St. Katharinen Hospital, Seckbacher Landstrasse 65, 60389, Frankfurt, Germany"
    )
    assert {a.name: a.affiliation for a in bmc.authors}["Antje Theurer"] == (
        "Medical Department, Kamuzu Central Hospital, Lilongwe, Malawi; "
        "Department of Internal Medicine, St. Katharinen Hospital, Seckbacher Landstrasse 65, 60389, Frankfurt, Germany"
    )
    assert {a.name: a.affiliation for a in bmc.authors}["Noor Alide"] == "Kamuzu Central Hospital, PMB, Lilongwe, Malawi"


@pytest.mark.slow
def test_symbol_marked_affiliations(shared_corpus: Path) -> None:
    s2orc = parse_pdf(shared_corpus / "acl-2020-s2orc.pdf")
    places = {a.name: a.affiliation for a in s2orc.authors}
    assert places["Kyle Lo"] == "Allen Institute for Artificial Intelligence"
    assert (
        places["Daniel S. Weld"]
        == "Allen Institute for Artificial Intelligence; Paul G. Allen School of Computer Science & Engineering, University of Washington"
    )
    papermage = parse_pdf(shared_corpus / "emnlp-2023-demo-papermage.pdf")  # Greek marks, an author grid read across
    assert {a.affiliation for a in papermage.authors if a.name == "Marti A. Hearst"} == {"University of California Berkeley"}
    assert all("Downey" not in (a.affiliation or "") for a in papermage.authors)


def test_names_set_across_the_page_with_marks_between_are_read_in_order(shared_corpus: Path) -> None:
    # LayoutParser's author line: names, marks set apart and a second line ("Lee") in one row;
    # the row was cut where a name crossed the page's middle: "Benjamin Charles GermainZejiang Shen"
    paper = parse_pdf(shared_corpus / "hostile-encrypted-owner-aes-layoutparser-2pages.pdf")
    assert [a.name for a in paper.authors] == [
        "Zejiang Shen",
        "Ruochen Zhang",
        "Melissa Dell",
        "Benjamin Charles Germain Lee",
        "Jacob Carlson",
        "Weining Li",
    ]
    assert [a.affiliation for a in paper.authors][:3] == ["Allen Institute for AI", "Brown University", "Harvard University"]
