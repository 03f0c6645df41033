"""PubMed baseline and update files: the real record read into every field, generated files of
hundreds of records, update files, and hostile input, each refused with its reason while the
records before it are kept. The larger files come from ``benchmarks/pubmed_speed.py``'s generator,
which builds records from the structure of the real record in tests/data/pubmed."""

from __future__ import annotations

import gzip
import io
import random
import re
import sys
import tracemalloc
from pathlib import Path

import pytest

from paperpyramid.document import Author, MeshTerm
from paperpyramid.errors import BadInput
from paperpyramid.normalise import normalise_document
from paperpyramid.parsers.pubmed import (
    PubmedDeletion,
    PubmedItem,
    PubmedRecord,
    PubmedRefusal,
    is_pubmed_name,
    looks_like_pubmed,
    parse_record,
    read_pubmed,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import pubmed_speed  # noqa: E402

REAL = ROOT / "tests" / "data" / "pubmed" / "pubmed-29768149.xml"
AFFILIATION = (
    "From the Firestone Institute for Respiratory Health, St. Joseph's Healthcare and Department of Medicine, Michael G. "
    "DeGroote School of Medicine, McMaster University, Hamilton, ON (P.M.O.), and the Institute for Heart and Lung Health, "
    "University of British Columbia, Vancouver (J.M.F.) - both in Canada; the Division of Pulmonology, Department of Medicine, "
    "University of Cape Town, Cape Town, South Africa (E.D.B.); Airway Disease Section, National Heart and Lung Institute, "
    "Imperial College, London (P.J.B.); State Key Laboratory of Respiratory Diseases, First Affiliated Hospital, Guangzhou "
    "Medical University, Guangzhou, China (N.Z.); AstraZeneca Research and Development, Gothenburg, Sweden (C.K., C.J., S.I.); "
    "AstraZeneca Research and Development, Barcelona (R.L.); and Woolcock Institute of Medical Research, University of Sydney, "
    "Sydney (H.K.R.)."
)
NAMES = ["Paul M O'Byrne", "J Mark FitzGerald", "Eric D Bateman", "Peter J Barnes", "Nanshan Zhong", "Christina Keen",
         "Carin Jorup", "Rosa Lamarca", "Stefan Ivanov", "Helen K Reddel"]  # fmt: skip
MESH = [
    ("Administration, Inhalation", False, "D000280", []), ("Adolescent", False, "D000293", []), ("Adult", False, "D000328", []),
    ("Aged", False, "D000368", []), ("Asthma", True, "D001249", ["drug therapy"]),
    ("Bronchodilator Agents", True, "D001993", ["administration & dosage", "adverse effects"]),
    ("Budesonide", True, "D019819", ["administration & dosage", "adverse effects"]), ("Child", False, "D002648", []),
    ("Double-Blind Method", False, "D004311", []), ("Drug Administration Schedule", False, "D004334", []),
    ("Drug Combinations", False, "D004338", []), ("Female", False, "D005260", []), ("Forced Expiratory Volume", False, "D005541", []),
    ("Formoterol Fumarate", True, "D000068759", ["administration & dosage", "adverse effects"]),
    ("Glucocorticoids", False, "D005938", ["administration & dosage"]), ("Humans", False, "D006801", []),
    ("Maintenance Chemotherapy", False, "D060046", []), ("Male", False, "D008297", []), ("Medication Adherence", False, "D055118", []),
    ("Middle Aged", False, "D008875", []), ("Surveys and Questionnaires", False, "D011795", []),
    ("Terbutaline", True, "D013726", ["administration & dosage", "adverse effects"]), ("Young Adult", False, "D055815", []),
]  # fmt: skip


def _read(data: bytes, name: str = "pubmed26n0001.xml", **options: int) -> list[PubmedItem]:
    return list(read_pubmed(io.BytesIO(data), name=name, **options))


def _records(items: list[PubmedItem]) -> list[PubmedRecord]:
    return [item for item in items if isinstance(item, PubmedRecord)]


def _variant(*replacements: tuple[str, str]) -> PubmedRecord:
    """The real record with parts of its text replaced (each must be there), as read from a file."""
    xml = REAL.read_text(encoding="utf-8")
    for old, new in replacements:
        found = re.search(old, xml, flags=re.S)
        assert found is not None, old
        xml = xml[: found.start()] + new + xml[found.end() :]
    (record,) = _read(xml.encode())
    assert isinstance(record, PubmedRecord)
    return record


def _generated(count: int, seed: int = 1) -> list[bytes]:
    rng = random.Random(seed)
    template = pubmed_speed.Template(REAL)
    return [pubmed_speed.make_record(30_000_001 + index, rng, template) for index in range(count)]


def _file(records: list[bytes]) -> bytes:
    return b"".join(pubmed_speed.framed(records))


@pytest.fixture(scope="module")
def baseline() -> list[bytes]:
    return _generated(300)


# --------------------------------------------------------------------------- the real record


def test_the_real_record_reads_into_every_field() -> None:
    data = REAL.read_bytes()
    (record,) = _read(data, name=REAL.name)
    assert isinstance(record, PubmedRecord)
    assert (record.pmid, record.version) == ("29768149", 1)
    assert record.xml.startswith(b"<PubmedArticle>") and record.xml.endswith(b"</PubmedArticle>") and record.xml in data

    document = parse_record(record)
    assert document.title == "Inhaled Combined Budesonide-Formoterol as Needed in Mild Asthma."
    assert document.authors == [Author(name, AFFILIATION) for name in NAMES]
    assert document.journal == "The New England journal of medicine"
    assert document.date_published == "2018-05-17"
    assert (document.doi, document.pmid, document.pmcid) == ("10.1056/NEJMoa1715274", "29768149", None)
    assert document.language == "eng"
    assert document.publication_types == ["Clinical Trial, Phase III", "Comparative Study", "Journal Article", "Multicenter Study",
                                          "Randomized Controlled Trial", "Research Support, Non-U.S. Gov't"]  # fmt: skip
    assert document.keywords == []
    assert document.mesh == [MeshTerm(term, major, ui, qualifiers) for term, major, ui, qualifiers in MESH]
    assert [section.title for section in document.sections] == ["BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"]
    assert [len(section.blocks) for section in document.sections] == [1, 1, 1, 1]
    # the <sub>2</sub> a pretty-printer put on a line of its own reads as "β2"
    assert document.sections[0].text == (
        "In patients with mild asthma, as-needed use of an inhaled glucocorticoid plus a fast-acting β2-agonist may be an "
        "alternative to conventional treatment strategies."
    )
    assert document.sections[1].text.startswith("We conducted a 52-week, double-blind trial involving patients 12 years of age")
    assert "(200 μg of budesonide and 6 μg of formoterol)" in document.sections[1].text
    assert document.sections[3].text.endswith("(Funded by AstraZeneca; SYGMA 1 ClinicalTrials.gov number, NCT02149199 .).")
    assert document.abstract is not None
    assert document.abstract.startswith("BACKGROUND: In patients with mild asthma")
    assert document.abstract.count("\n\n") == 3 and "\n\nMETHODS: We conducted" in document.abstract
    assert document.abstract.endswith("NCT02149199 .).")
    assert (document.paged, document.pages) == (False, 0)
    assert {block.page for section in document.sections for block in section.blocks} == {1}
    assert document.provenance == {"sections": "pubmed", "text": "pubmed", "metadata": "pubmed", "pages": "none"}
    assert document.parser == "pubmed"
    assert document.warnings == [] and document.tables == [] and document.references == []
    assert normalise_document(document).date_published == "2018-05-17"  # the output boundary keeps it as it is


def test_names_and_sniffing(tmp_path: Path) -> None:
    for name in ("pubmed26n0001.xml.gz", "pubmed26n1450.xml", "s3://bucket/baseline/pubmed25n0007.xml.gz", REAL.name):
        assert is_pubmed_name(name), name
    for name in ("PMC123.nxml", "pubmed26n0001.xml.gz.md5", "pubmed.txt", "paper.xml", "pubmed/readme.xml"):
        assert not is_pubmed_name(name), name

    assert looks_like_pubmed(REAL)
    packed = tmp_path / "records.xml.gz"  # told by its bytes, whatever its name
    packed.write_bytes(gzip.compress(REAL.read_bytes()))
    assert looks_like_pubmed(packed)
    jats = tmp_path / "pubmed-like.xml"
    jats.write_bytes(b'<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS//EN" "JATS.dtd">\n<article><front/></article>')
    assert not looks_like_pubmed(jats)
    (tmp_path / "jats.xml.gz").write_bytes(gzip.compress(jats.read_bytes()))
    assert not looks_like_pubmed(tmp_path / "jats.xml.gz")
    (tmp_path / "broken.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip data at all")
    assert not looks_like_pubmed(tmp_path / "broken.gz")


# --------------------------------------------------------------------------- what varies between records


@pytest.mark.parametrize(
    ("pub_date", "expected"),
    [
        ("<MedlineDate>1998 Dec-1999 Jan</MedlineDate>", "1998-12"),
        ("<MedlineDate>2000 Spring</MedlineDate>", "2000"),
        ("<MedlineDate>2003 Jul-Aug</MedlineDate>", "2003-07"),
        ("<Year>2001</Year><Season>Summer</Season>", "2001"),
        ("<Year>2018</Year><Month>Jan</Month><Day>9</Day>", "2018-01-09"),
        ("<Year>2018</Year><Month>Feb</Month><Day>30</Day>", "2018-02"),
        ("<Year>2018</Year>", "2018"),
        ("<MedlineDate>n.d.</MedlineDate>", "2017-12-24"),  # no year: the electronic ArticleDate
    ],
)
def test_publication_dates(pub_date: str, expected: str) -> None:
    article_date = '<ArticleDate DateType="Electronic"><Year>2017</Year><Month>12</Month><Day>24</Day></ArticleDate>'
    record = _variant(
        (r"<PubDate>.*?</PubDate>", f"<PubDate>{pub_date}</PubDate>"), (r"</PublicationTypeList>", "</PublicationTypeList>" + article_date)
    )
    assert parse_record(record).date_published == expected


def test_a_plain_abstract_is_one_section_and_unlabelled_parts_join_the_one_before() -> None:
    plain = _variant((r"<Abstract>.*?</Abstract>", "<Abstract><AbstractText>One paragraph, <i>in vitro</i>.</AbstractText></Abstract>"))
    document = parse_record(plain)
    assert [(section.title, section.text) for section in document.sections] == [("Abstract", "One paragraph, in vitro.")]
    assert document.abstract == "One paragraph, in vitro."

    mixed = _variant((r"<Abstract>.*?</Abstract>", '<Abstract><AbstractText Label="UNLABELLED">Opening.</AbstractText>'
                      '<AbstractText Label="AIMS">Aims.</AbstractText><AbstractText>More aims.</AbstractText>'
                      "<AbstractText/><CopyrightInformation>© 2018 Someone</CopyrightInformation></Abstract>"))  # fmt: skip
    document = parse_record(mixed)
    assert [(section.title, [block.text for block in section.blocks]) for section in document.sections] == [
        ("Abstract", ["Opening."]),
        ("AIMS", ["Aims.", "More aims."]),
    ]
    assert document.abstract == "Opening.\n\nAIMS: Aims.\n\nMore aims."

    none = parse_record(_variant((r"<Abstract>.*?</Abstract>", "")))
    assert (none.sections, none.abstract) == ([], None)


def test_collective_authors_e_mail_addresses_and_names_without_a_fore_name() -> None:
    record = _variant(
        (r"<LastName>O'Byrne</LastName>.*?</AffiliationInfo>", "<CollectiveName>SYGMA 1 <i>Investigators</i></CollectiveName>"),
        (r"<ForeName>J Mark</ForeName>", ""),
        (r"Sydney \(H.K.R.\).</Affiliation>\s*</AffiliationInfo>\s*</Author>\s*</AuthorList>",
         "Sydney (H.K.R.). Electronic address: helen.reddel@example.org.</Affiliation></AffiliationInfo>"
         '<AffiliationInfo><Affiliation>Woolcock Institute, Sydney.</Affiliation></AffiliationInfo></Author>'
         '<Author ValidYN="N"><LastName>Misspelt</LastName><ForeName>Name</ForeName></Author><Author><Suffix>Jr</Suffix></Author></AuthorList>'),
    )  # fmt: skip
    authors = parse_record(record).authors
    assert authors[0] == Author("SYGMA 1 Investigators")
    assert authors[1] == Author("JM FitzGerald", AFFILIATION)  # the initials stand in for the fore name
    assert authors[-1] == Author("Helen K Reddel", AFFILIATION[:-1] + "; Woolcock Institute, Sydney.", "helen.reddel@example.org")
    assert len(authors) == 10  # the name PubMed marks not valid, and the author with no name, left out


def test_identifiers_keywords_and_fallbacks() -> None:
    record = _variant(
        (r'<ArticleId IdType="doi">[^<]*</ArticleId>', '<ArticleId IdType="pmc">PMC6000001</ArticleId>'),
        (r"</MeshHeadingList>", '</MeshHeadingList><KeywordList Owner="NOTNLM"><Keyword MajorTopicYN="N">asthma</Keyword>'
         '<Keyword MajorTopicYN="N">budesonide\n formoterol</Keyword></KeywordList><KeywordList Owner="NLM">'
         '<Keyword MajorTopicYN="Y">asthma</Keyword></KeywordList>'),
        (r"<Title>[^<]*</Title>", ""),
    )  # fmt: skip
    document = parse_record(record)
    assert document.pmcid == "PMC6000001"
    assert document.doi == "10.1056/NEJMoa1715274"  # from <ELocationID> once the ArticleIdList has none
    assert document.keywords == ["asthma", "budesonide formoterol"]
    assert document.journal == "N Engl J Med"  # <ISOAbbreviation>

    titled = _variant((r"<ArticleTitle>[^<]*</ArticleTitle>", "<ArticleTitle/><VernacularTitle>Asthme léger.</VernacularTitle>"))
    assert parse_record(titled).title == "Asthme léger."


def test_inline_markup_and_mathml_read_as_text() -> None:
    title = ('<ArticleTitle>H<sub>2</sub>O<sup>+</sup> <i>in vivo</i> and <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML">'
             "<mml:msup><mml:mi>x</mml:mi><mml:mn>2</mml:mn></mml:msup></mml:math> &lt; <b>5</b></ArticleTitle>")  # fmt: skip
    assert parse_record(_variant((r"<ArticleTitle>[^<]*</ArticleTitle>", title))).title == "H2O+ in vivo and x2 < 5"
    # the mml prefix declared only by the file's DTD, which is never read
    unbound = "<ArticleTitle>Mass <mml:math><mml:mi>m</mml:mi></mml:math>.</ArticleTitle>"
    assert parse_record(_variant((r"<ArticleTitle>[^<]*</ArticleTitle>", unbound))).title == "Mass m."


def test_a_book_chapter(baseline: list[bytes]) -> None:
    book = pubmed_speed.make_book(40_000_001, random.Random(5), pubmed_speed.Template(REAL))
    (record,) = _read(_file([book]))
    assert isinstance(record, PubmedRecord) and record.pmid == "40000001"
    document = parse_record(record)
    chapter = re.search(rb"\t\t\t<ArticleTitle>([^<]*)</ArticleTitle>", book)
    assert chapter is not None and document.title == chapter.group(1).decode()
    assert document.journal == "GeneReviews®"
    chapter_authors = book[book.index(b"</Book>") :]  # the editors are named on the book, before it
    names = re.findall(rb"<LastName>([^<]*)</LastName>\s*<ForeName>([^<]*)</ForeName>|<CollectiveName>([^<]*)<", chapter_authors)
    expected = [collective.decode() or f"{given.decode()} {last.decode()}".replace("&apos;", "'") for last, given, collective in names]
    assert [author.name for author in document.authors] == expected
    assert document.publication_types == ["Review"] and document.pmid == "40000001" and document.date_published
    assert document.mesh == [] and document.parser == "pubmed"


# --------------------------------------------------------------------------- whole files


def test_a_generated_baseline_file(baseline: list[bytes], tmp_path: Path) -> None:
    path = tmp_path / "pubmed26n0001.xml.gz"
    path.write_bytes(gzip.compress(_file(baseline)))
    with path.open("rb") as stream:
        items = list(read_pubmed(stream, name=path.name))
    assert all(isinstance(item, PubmedRecord) for item in items)
    records = _records(items)
    assert [record.pmid for record in records] == [str(30_000_001 + index) for index in range(300)]
    assert [record.xml for record in records] == [xml.strip() for xml in baseline]
    documents = [parse_record(record) for record in records]
    assert all(document.title and document.date_published and document.journal for document in documents)
    shapes = {tuple(section.title for section in document.sections) for document in documents}
    assert {(), ("Abstract",), ("BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS")} <= shapes
    assert any(author.name in pubmed_speed.COLLECTIVES for document in documents for author in document.authors)
    assert any(record.xml.startswith(b"<PubmedBookArticle>") for record in records)
    assert sum(bool(document.pmcid) for document in documents) > 50


def test_an_update_file_revises_and_deletes(baseline: list[bytes]) -> None:
    items = _read(b"".join(pubmed_speed.framed(pubmed_speed.update(50))), name="pubmed26n1400.xml")
    records = _records(items)
    assert len(records) == 50 and not any(isinstance(item, PubmedRefusal) for item in items)
    assert items[-1] == PubmedDeletion(tuple(str(30_000_001 + index) for index in range(3, 50, 10)))
    known = {str(30_000_001 + index) for index in range(300)}
    revised = [(record.pmid, record.version) for record in records if record.pmid in known]
    assert revised[:4] == [("30000001", 2), ("30000002", 1), ("30000006", 2), ("30000007", 1)]
    latest: dict[str, int] = {}
    for record in records:
        latest[record.pmid] = max(latest.get(record.pmid, 0), record.version)
    assert latest["30000001"] == 2 and parse_record(records[0]).pmid == "30000001"


# --------------------------------------------------------------------------- hostile input


def test_entity_bombs_and_external_entities_are_refused(tmp_path: Path, baseline: list[bytes]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("LEAKED")
    body = b"<PubmedArticleSet>" + b"".join(baseline[:3]) + b"</PubmedArticleSet>"
    for subset in (b'<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">',
                   f'<!ENTITY x SYSTEM "{secret.as_uri()}">'.encode(), b'<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;'):  # fmt: skip
        items = _read(b'<?xml version="1.0"?>\n<!DOCTYPE PubmedArticleSet [' + subset + b"]>\n" + body)
        assert len(items) == 1 and isinstance(items[0], PubmedRefusal), subset
        assert "declares entities" in items[0].reason


def test_a_dtd_named_by_url_or_path_is_never_read(tmp_path: Path, baseline: list[bytes]) -> None:
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY secret "LEAKED">')
    record = baseline[0].replace(b"<ArticleTitle>", b"<ArticleTitle>&secret;", 1)
    data = (
        f'<?xml version="1.0"?>\n<!DOCTYPE PubmedArticleSet SYSTEM "{dtd.as_uri()}">\n<PubmedArticleSet>'.encode()
        + record
        + baseline[1]
        + b"</PubmedArticleSet>"
    )
    first, second = _read(data)
    assert isinstance(first, PubmedRecord) and isinstance(second, PubmedRecord)
    with pytest.raises(BadInput, match="undefined entity"):
        parse_record(first)  # the entity is nowhere declared: the DTD was not read
    assert parse_record(second).pmid == "30000002"

    with_dtd = PubmedRecord(first.pmid, 1, b"<!DOCTYPE PubmedArticle [<!ENTITY secret 'LEAKED'>]>" + first.xml)
    with pytest.raises(BadInput, match="DTD inside a record"):
        parse_record(with_dtd)


def test_a_truncated_gzip_file_keeps_the_records_before_the_cut(baseline: list[bytes]) -> None:
    packed = gzip.compress(_file(baseline))
    items = _read(packed[: len(packed) * 3 // 5], name="pubmed26n0002.xml.gz")
    *records, refusal = items
    assert 100 < len(records) < 250 and all(isinstance(record, PubmedRecord) for record in records)
    assert [record.xml for record in _records(records)] == [xml.strip() for xml in baseline[: len(records)]]
    assert isinstance(refusal, PubmedRefusal)
    assert refusal.where == f"pubmed26n0002.xml.gz, record {len(records) + 1}"
    assert refusal.reason.startswith(f"the gzip stream is truncated at record {len(records) + 1}")
    assert parse_record(_records(records)[-1]).pmid == str(30_000_000 + len(records))

    corrupt = bytearray(packed)
    corrupt[len(corrupt) // 2 : len(corrupt) // 2 + 64] = bytes(64)
    *kept, refusal = _read(bytes(corrupt))
    assert len(kept) < 300 and isinstance(refusal, PubmedRefusal) and "gzip data is corrupt" in refusal.reason

    plain = _file(baseline[:5])
    *kept, refusal = _read(plain[: plain.index(b"<PubmedArticle>", 30_000) + 500])
    assert len(kept) >= 3 and isinstance(refusal, PubmedRefusal) and "ends inside this record: truncated" in refusal.reason


def test_a_record_without_a_pmid_is_refused_and_the_next_ones_come(baseline: list[bytes]) -> None:
    records = [baseline[0], re.sub(rb"\t\t\t<PMID[^>]*>\d+</PMID>\n", b"", baseline[1], count=1), baseline[2],
               baseline[3].replace(b'<PMID Version="1">', b'<PMID Version="x">', 1)]  # fmt: skip
    items = _read(_file(records))
    assert [type(item) for item in items] == [PubmedRecord, PubmedRefusal, PubmedRecord, PubmedRefusal]
    assert items[1] == PubmedRefusal("pubmed26n0001.xml, record 2", "the record has no <PMID>")
    assert items[3] == PubmedRefusal("pubmed26n0001.xml, record 4 (PMID 30000004)", "the PMID's Version 'x' is not a number")


def test_xml_that_is_not_well_formed(baseline: list[bytes]) -> None:
    broken = baseline[1].replace(b"</ArticleTitle>", b"</ArticleTitl>", 1)
    first, second, third = _read(_file([baseline[0], broken, baseline[2]]))
    assert isinstance(second, PubmedRecord) and isinstance(third, PubmedRecord)
    with pytest.raises(BadInput, match=r"PMID 30000002: the record is not well-formed XML \(mismatched tag"):
        parse_record(second)
    assert parse_record(third).pmid == "30000003"

    # between records: the records before are kept, then the rest of the file is refused
    *kept, refusal = _read(_file([baseline[0], baseline[1] + b"stray text", baseline[2]]))
    assert [record.pmid for record in _records(kept)] == ["30000001", "30000002"] and len(kept) == 2
    assert isinstance(refusal, PubmedRefusal) and refusal.reason.startswith("text outside any record")
    data = _file(baseline[:2]).replace(b"</PubmedArticleSet>", b"</PubmedArticleSet><more/>")
    *kept, refusal = _read(data)
    after = data.index(b"<more/>")
    assert len(kept) == 2 and refusal == PubmedRefusal(f"pubmed26n0001.xml, byte {after}", "content after </PubmedArticleSet> was ignored")

    for data, reason in ((b"", "the file is empty"), (b"<html><body>Not found</body></html>", "its root element is <html>"),
                         (b"<PubmedArticleSet><PubmedArticle", "truncated"), (b"\x00\x01binary", "not well-formed XML"),
                         (b'<?xml version="1.0" encoding="ISO-8859-1"?><PubmedArticleSet/>', "only UTF-8 is read")):  # fmt: skip
        (refusal,) = _read(data)
        assert isinstance(refusal, PubmedRefusal) and reason in refusal.reason, (data, refusal)
    assert _read(b'<?xml version="1.0"?><PubmedArticleSet/>') == []

    other = PubmedRecord("1", 1, baseline[0])
    with pytest.raises(BadInput, match="the record's own PMID is '30000001'"):
        parse_record(other)
    with pytest.raises(BadInput, match="is not a PubMed record"):
        parse_record(PubmedRecord("1", 1, b"<DeleteCitation><PMID>1</PMID></DeleteCitation>"))


def test_a_10_mb_abstract_is_refused_in_bounded_memory(baseline: list[bytes]) -> None:
    huge = baseline[1].replace(b"<ArticleTitle>", b"<ArticleTitle>" + b"word " * (2 << 20), 1)  # 10 MiB
    data = gzip.compress(_file([baseline[0], huge, baseline[2]]), 1)
    first, refusal, last = _read(data)
    assert isinstance(first, PubmedRecord) and isinstance(last, PubmedRecord) and last.pmid == "30000003"
    assert refusal == PubmedRefusal(
        "pubmed26n0001.xml, record 2 (PMID 30000002)", "the record is larger than 8 MiB (the reader's bound): skipped"
    )

    tracemalloc.start()
    try:
        items = _read(data, max_record_bytes=1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [type(item) for item in items] == [PubmedRecord, PubmedRefusal, PubmedRecord]
    assert peak < 3 << 20, peak  # the bound, not the record, sets the memory


def test_memory_stays_flat_over_a_long_file(baseline: list[bytes]) -> None:
    records = baseline * 2  # 600 records, about 5 MB of XML
    data = gzip.compress(_file(records), 1)
    tracemalloc.start()
    try:
        count = 0
        for item in read_pubmed(io.BytesIO(data), name="long.xml.gz"):
            assert isinstance(item, PubmedRecord)
            parse_record(item)
            count += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 600
    assert peak < 1 << 20, peak  # one record and a chunk at a time
