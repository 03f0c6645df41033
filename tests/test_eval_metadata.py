"""`paperpyramid eval parse` scores title, authors, DOI, journal and year against the gold files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperpyramid.eval.metadata import Metadata, accuracies, family_name, load_gold_metadata, score_metadata
from paperpyramid.eval.parse import evaluate, render_report, report_to_json
from paperpyramid.ingestion import ingest
from paperpyramid.parsers.jats import parse_jats
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import GOLD, SAMPLE


def test_jats_gold_metadata() -> None:
    plos = load_gold_metadata(GOLD / "plos-one-2014-fanged-frog-internal-fertilization.nxml")
    assert plos.authors == ["Djoko T. Iskandar", "Ben J. Evans", "Jimmy A. McGuire"]
    assert (plos.doi, plos.journal, plos.year) == ("10.1371/journal.pone.0115884", ["PLoS ONE"], 2014)
    mdpi = load_gold_metadata(GOLD / "mdpi-metabolites-2014-durum-wheat-volatiles.nxml")
    assert mdpi.authors is not None and len(mdpi.authors) == 7 and mdpi.year == 2014  # the epub year, not the collection's


def test_latex_and_tei_gold_metadata(tmp_path: Path) -> None:
    amsart = tmp_path / "a.tex"
    amsart.write_text(
        r"\title[Short]{Local reductions} \author[E. G.]{Edisson Gallego} \author{Juan D. V\'elez\thanks{Funded.}} \begin{document}\end{document}"
    )
    assert load_gold_metadata(amsart) == Metadata(title="Local reductions", authors=["Edisson Gallego", "Juan D. Vélez"])
    acl = tmp_path / "b.tex"
    acl.write_text(
        "\\title{S2ORC}\n\\author{Kyle Lo$^{\\dagger}$\\Thanks{equal} \\quad Lucy Lu Wang$^{\\dagger}$\\footnotemark[1] \\\\\n"
        "{\\bf Daniel S. Weld}$^{\\ddag}$ \\\\\n$^\\dagger$Allen Institute for AI \\\\\n\\texttt{kylel@allenai.org}}\n"
    )
    assert load_gold_metadata(acl).authors == ["Kyle Lo", "Lucy Lu Wang", "Daniel S. Weld"]
    tei = tmp_path / "c.tei.xml"
    tei.write_text(
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title type="main">SPECTER</title></titleStmt>'
        "<sourceDesc><biblStruct><analytic><author><persName><forename>Arman</forename><surname>Cohan</surname></persName></author>"
        '<idno type="DOI">10.18653/v1/2020.acl-main.207</idno></analytic><monogr><title/><imprint><date type="published" when="2020-07"/></imprint></monogr>'
        "</biblStruct></sourceDesc></fileDesc></teiHeader></TEI>"
    )
    assert load_gold_metadata(tei) == Metadata(title="SPECTER", authors=["Arman Cohan"], doi="10.18653/v1/2020.acl-main.207", year=2020)


def test_scoring_rules() -> None:
    gold = Metadata(
        title="A Title",
        authors=["Danny A. Gómez-Ramírez", "Ben J. Evans", "William B. Driggers III"],
        doi="10.1/X",
        journal=["PLoS ONE", "PLoS One"],
        year=2014,
    )
    right = Metadata(
        title="A title.",
        authors=["Ben Evans", "William Driggers III", "D. GOMEZ-RAMIREZ"],
        doi="https://doi.org/10.1/x",
        journal=["PLOS ONE"],
        year=2014,
    )
    assert score_metadata(gold, right).fields == dict.fromkeys(("title", "authors", "doi", "journal", "year"), True)
    short = Metadata(title="A", authors=["Ben J. Evans"], doi=None, journal=["Lett. Appl. Microbiol."], year=2013)
    score = score_metadata(gold, short)
    assert score.fields == dict.fromkeys(("title", "authors", "doi", "journal", "year"), False)
    assert (score.authors_matched, score.authors_gold, score.authors_predicted) == (1, 3, 1)
    # what the gold file does not say is not scored
    assert score_metadata(Metadata(title="A Title"), short).fields == {"title": False}
    assert accuracies([score_metadata(gold, right), score])["doi"] == (0.5, 2)
    assert family_name("Danny Arlen de Jesús Gómez-Ramírez") == "gomezramirez"


def test_the_year_of_any_publication_date_counts(tmp_path: Path) -> None:
    """Online in one year and in an issue of the next: the pages print the issue's year, and
    either is right; a year of no publication date is not."""
    jats = tmp_path / "a.nxml"
    jats.write_text(
        "<article><front><article-meta><title-group><article-title>T</article-title></title-group>"
        '<pub-date pub-type="epub"><day>30</day><month>12</month><year>2015</year></pub-date>'
        '<pub-date pub-type="ppub"><year>2016</year></pub-date><history><date date-type="received"><year>2014</year></date></history>'
        "</article-meta></front></article>"
    )
    gold = load_gold_metadata(jats)
    assert (gold.year, gold.other_years) == (2015, (2016,))
    assert [score_metadata(gold, Metadata(year=year)).fields["year"] for year in (2015, 2016, 2014)] == [True, True, False]


def test_a_group_that_signs_is_a_gold_author(tmp_path: Path) -> None:
    """A ``<collab>`` contributor is an author of the gold, as the JATS parser and the PDF parser
    take a group joined to the names ("… and the ABC Study Group"); its members, listed inside
    it, are not its name."""
    jats = tmp_path / "a.nxml"
    jats.write_text(
        "<article><front><article-meta><title-group><article-title>T</article-title></title-group><contrib-group>"
        '<contrib contrib-type="author"><name><surname>Berg</surname><given-names>Anna</given-names></name></contrib>'
        '<contrib contrib-type="author"><collab>the ABC Study Group<contrib-group><contrib contrib-type="author">'
        "<name><surname>Dahl</surname><given-names>Carl</given-names></name></contrib></contrib-group></collab></contrib>"
        "</contrib-group></article-meta></front></article>"
    )
    gold = load_gold_metadata(jats)
    assert gold.authors == ["Anna Berg", "the ABC Study Group"]
    assert score_metadata(gold, Metadata(authors=["Anna Berg", "ABC Study Group"])).fields["authors"]
    assert not score_metadata(gold, Metadata(authors=["Anna Berg", "Carl Dahl"])).fields["authors"]
    document = parse_jats(jats)  # the JATS parser reads the same authors
    assert [author.name for author in document.authors] == ["Anna Berg", "the ABC Study Group"]


@pytest.mark.slow
def test_eval_parse_reports_metadata_of_the_bundled_papers(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    assert ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    report = evaluate(GOLD, db)
    scored = dict(report.metadata)
    assert set(scored) == {"plos-one-2014-fanged-frog-internal-fertilization.pdf", "mdpi-metabolites-2014-durum-wheat-volatiles.pdf"}
    for score in scored.values():  # before: one author of three (PLOS) and of seven (MDPI), no journal
        assert score.fields == dict.fromkeys(("title", "authors", "doi", "journal", "year"), True)
    text = render_report(report)
    assert "metadata accuracy: title 1.00 (of 2), authors 1.00 (of 2), doi 1.00 (of 2), journal 1.00 (of 2), year 1.00 (of 2)" in text
    data = report_to_json(report)
    assert json.loads(json.dumps(data))["metadata"]["accuracy"]["authors"] == 1.0


def test_affiliations_are_scored_by_their_words_per_author() -> None:
    from paperpyramid.eval.metadata import Metadata, score_metadata

    gold = Metadata(
        authors=["Ann Lee", "Bo Chen"],
        affiliations={
            "lee": ["Department of Biology, University of Leeds, UK"],
            "chen": ["Allen Institute for AI, Seattle", "University of Washington"],
        },
    )
    predicted = Metadata(
        authors=["Ann Lee", "Bo Chen"],
        affiliations={"lee": ["University of Leeds"], "chen": ["Allen Institute for Artificial Intelligence", "MIT"]},
    )
    score = score_metadata(gold, predicted)
    assert (score.affiliations_found, score.affiliations_gold) == (2, 3)  # Leeds, Allen Institute; not Washington
    assert (score.affiliations_right, score.affiliations_predicted) == (2, 3)  # MIT is no gold place of his


def test_jats_affiliations_follow_the_authors_xrefs() -> None:
    from tests.conftest import GOLD

    gold = load_gold_metadata(GOLD / "plos-one-2014-fanged-frog-internal-fertilization.nxml")
    assert gold.affiliations is not None and set(gold.affiliations) == {"iskandar", "evans", "mcguire"}
    assert any("McMaster University" in place for place in gold.affiliations["evans"])
    assert not any(place.startswith(("1", "2", "3")) for places in gold.affiliations.values() for place in places)  # labels left out
