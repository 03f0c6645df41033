"""JATS XML as an input of its own: PMC's bulk XML packages, XML files named alone or found in a
folder (read without pages), and XML beside its PDF, in a folder or in one tar (structure from the
XML, pages from the PDF). Hostile XML in any of them is refused with its reason and the run goes on;
beside its PDF, the PDF is read instead, the reason kept in the article's warnings."""

from __future__ import annotations

import http.server
import io
import shutil
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.jats_sources import find_jats, looks_like_jats, pmcid_of
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import GOLD, SAMPLE
from tests.test_jats import BILLION_LAUGHS, XXE

runner = CliRunner()
PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
#: pmc-pairs papers with tables, references and citations, from three publishers
PAIRS = ("grp-2016-gastric-mucinous-cancer", "bmccancer-2019-ki67-colorectal", "3biotech-2014-ocimum-rapd-issr")
BULK = "oa_comm_xml.PMC000xxxxxx.baseline.2024-12-18.tar.gz"


def settings(**options: object) -> Settings:
    return Settings(ingest=IngestSettings(workers=0, embed=False, **options))  # type: ignore[arg-type]


def one(db: Path, sql: str) -> object:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchone()[0]


def counts(db: Path) -> dict[str, int]:
    """What the corpus holds, table by table."""
    tables = ("articles", "sections", "contexts", "tables", "bib_entries", "citations", "figures")
    return {table: int(str(one(db, f"SELECT count(*) FROM {table}"))) for table in tables}


def pack(folder: Path, target: Path, members: dict[str, Path | bytes]) -> Path:
    """A gzipped tar as PMC's bulk packages are: a folder of ``PMC<id>.xml`` files."""
    with tarfile.open(target, "w:gz") as tar:
        for name, content in members.items():
            data = content.read_bytes() if isinstance(content, Path) else content
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return target


def assert_structured(db: Path, articles: int) -> None:
    """Each article has sections, tables, references and in-text citations linked to them."""
    found = counts(db)
    assert found["articles"] == articles
    assert found["sections"] >= 4 * articles and found["tables"] >= articles
    assert found["bib_entries"] >= 10 * articles and found["citations"] >= 10 * articles
    assert one(db, "SELECT count(*) FROM articles a WHERE NOT EXISTS (SELECT 1 FROM tables t WHERE t.article_id = a.id)") == 0
    assert one(db, "SELECT count(*) FROM articles a WHERE NOT EXISTS (SELECT 1 FROM bib_entries b WHERE b.article_id = a.id)") == 0


def assert_without_pages(db: Path) -> None:
    """An XML read alone has no pages: none is made up."""
    assert one(db, "SELECT count(*) FROM contexts WHERE page_number IS NOT NULL") == 0
    assert one(db, "SELECT count(*) FROM tables WHERE page IS NOT NULL") == 0
    assert one(db, "SELECT count(*) FROM sections WHERE page_start IS NOT NULL") == 0
    assert one(db, "SELECT group_concat(DISTINCT parser) FROM articles") == "jats"


# --------------------------------------------------------------------------- the committed PLOS file


def test_a_bulk_xml_package_ingests_each_article_once(tmp_path: Path) -> None:
    package = pack(
        tmp_path,
        tmp_path / BULK,
        {
            "PMC000xxxxxx/PMC4280169.xml": GOLD / f"{PLOS}.nxml",
            "PMC000xxxxxx/PMC4417228.nxml": GOLD / "mdpi-metabolites-2014-durum-wheat-volatiles.nxml",
            "PMC000xxxxxx/filelist.xml": b"<?xml version='1.0'?><files><file>PMC4280169.xml</file></files>",
        },
    )
    db = tmp_path / "c.sqlite"
    result = runner.invoke(app, ["ingest", str(package), "--db", str(db), "--no-embed", "--workers", "0"])
    assert result.exit_code == 0, result.output
    assert_structured(db, 2)
    assert_without_pages(db)
    # a citation reaches its reference list entry, and the contexts are there to search
    assert one(db, "SELECT count(*) FROM articles WHERE title LIKE '%Internal Fertilization%'") == 1
    assert one(db, "SELECT count(*) FROM contexts WHERE text LIKE '%calipers%'") >= 1
    before = counts(db)
    again = runner.invoke(app, ["ingest", str(package), "--db", str(db), "--no-embed", "--workers", "0"])
    assert again.exit_code == 0, again.output
    assert "0 ingested" in again.output and counts(db) == before
    # no scratch file is left of the members
    assert not list(tmp_path.glob("paperpyramid-scratch-*"))


def test_xml_named_alone_and_xml_in_a_folder_are_read_once(tmp_path: Path) -> None:
    folder = tmp_path / "xml"
    folder.mkdir()
    shutil.copy(GOLD / f"{PLOS}.nxml", folder / f"{PLOS}.nxml")
    (folder / "notes.tei.xml").write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"><text/></TEI>')  # XML, not JATS: not an input
    alone = tmp_path / "PMC4417228.xml"
    shutil.copy(GOLD / "mdpi-metabolites-2014-durum-wheat-volatiles.nxml", alone)
    db = tmp_path / "c.sqlite"
    summary = ingest([folder, alone], db, settings())
    assert (summary.count("done"), summary.count("failed"), summary.total) == (2, 0, 2), summary.results
    assert_structured(db, 2)
    assert_without_pages(db)
    rerun = ingest([folder, alone], db, settings())
    assert rerun.count("done") == 0 and rerun.count("skipped") == 2 and counts(db)["articles"] == 2


def test_an_article_without_pages_is_cited_by_its_section(tmp_path: Path) -> None:
    # read from its XML alone, a passage has no page: answers and MCP cite its section instead
    from paperpyramid import Corpus
    from paperpyramid.asking.answer import cite_short
    from paperpyramid.services.mcp.bounds import short_citation

    alone = tmp_path / f"{PLOS}.nxml"
    shutil.copy(GOLD / f"{PLOS}.nxml", alone)
    db = tmp_path / "c.sqlite"
    assert ingest([alone], db, settings()).count("done") == 1
    with Corpus.open(db) as corpus:
        hits = corpus.retrieve("internal fertilization tadpoles", mode="bm25", k=5)
    assert hits and all(hit.citation.page_number is None for hit in hits)
    for hit in hits:
        cited = cite_short(hit)
        assert cited.startswith("[A Novel Reproductive Mode in Frogs:") and ", §" in cited and "p." not in cited, cited
        assert cited.endswith(f"{hit.citation.section_title}]")
    assert short_citation("T", None, "§2 Methods") == "[T, §2 Methods]" and short_citation("T", 4, "§2 Methods") == "[T, p. 4]"


def test_xml_beside_its_pdf_gives_structure_and_the_pdf_pages(tmp_path: Path) -> None:
    folder = tmp_path / "pairs"
    folder.mkdir()
    shutil.copy(GOLD / f"{PLOS}.nxml", folder / f"{PLOS}.nxml")
    shutil.copy(SAMPLE / f"{PLOS}.pdf", folder / f"{PLOS}.pdf")
    # paired by PMCID: the XML names its PMCID, the PDF is named after it
    xml = (GOLD / "mdpi-metabolites-2014-durum-wheat-volatiles.nxml").read_text(encoding="utf-8")
    xml = xml.replace("<article-meta>", '<article-meta><article-id pub-id-type="pmc">4417228</article-id>', 1)
    (folder / "metabolites-04-00427.nxml").write_text(xml, encoding="utf-8")
    shutil.copy(SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf", folder / "PMC4417228.pdf")
    db = tmp_path / "c.sqlite"
    summary = ingest([folder], db, settings())
    assert (summary.count("done"), summary.total) == (2, 2), summary.results  # two articles, not four
    assert_structured(db, 2)
    assert one(db, "SELECT group_concat(DISTINCT parser) FROM articles") == "jats+embedded"
    assert one(db, "SELECT count(*) FROM contexts WHERE page_number IS NULL") == 0
    assert one(db, f"SELECT pages FROM articles WHERE source_uri LIKE '%{PLOS}.nxml'") == 14
    assert one(db, "SELECT page_number FROM contexts WHERE text LIKE '%digital calipers%'") == 2  # where the PDF prints it
    before = counts(db)
    assert ingest([folder], db, settings()).count("done") == 0 and counts(db) == before
    # scored against their own XML, such articles measure nothing: eval parse says so
    (folder / "MANIFEST.tsv").write_text(f"file\tkind\tpairs_with\n{PLOS}.nxml\tgold-jats\t{PLOS}.pdf\n", encoding="utf-8")
    result = runner.invoke(app, ["eval", "parse", str(folder), "--db", str(db), "--no-citations"])
    assert result.exit_code == 0, result.output
    assert "2 article(s)" in result.output and "--no-jats" in result.output


def test_no_jats_reads_a_folders_pdfs_alone(tmp_path: Path) -> None:
    folder = tmp_path / "pairs"
    folder.mkdir()
    shutil.copy(GOLD / f"{PLOS}.nxml", folder / f"{PLOS}.nxml")
    shutil.copy(SAMPLE / f"{PLOS}.pdf", folder / f"{PLOS}.pdf")
    db = tmp_path / "c.sqlite"
    summary = ingest([folder], db, settings(jats=False))
    assert [Path(result.source_uri).name for result in summary.results] == [f"{PLOS}.pdf"]
    assert one(db, "SELECT parser FROM articles") == "embedded"


def test_which_files_are_jats_and_their_pdfs(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS" "x.dtd">\n<article><front/></article>'
    )
    (tmp_path / "b.xml").write_text("<pmc-articleset><article/></pmc-articleset>")
    (tmp_path / "c.xml").write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"/>')
    (tmp_path / "d.nxml").write_text('<article><front><article-meta><article-id pub-id-type="pmcid">PMC42</article-id>')
    (tmp_path / "PMC42.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    assert [looks_like_jats(tmp_path / name) for name in ("a.xml", "b.xml", "c.xml", "d.nxml")] == [True, True, False, True]
    assert pmcid_of(tmp_path / "d.nxml") == "PMC42"
    found = {source.xml.name: source.pdf and source.pdf.name for source in find_jats(sorted(tmp_path.iterdir()))}
    assert found == {"a.xml": "a.pdf", "b.xml": None, "d.nxml": "PMC42.pdf"}
    assert [source.xml.name for source in find_jats([tmp_path / "c.xml"], named=True)] == ["c.xml"]


# --------------------------------------------------------------------------- hostile XML


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        type(self).hits.append(self.path)
        body = b'<!ENTITY nbsp "&#160;">'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture
def dtd_server() -> Iterator[tuple[str, list[str]]]:
    """A server on 127.0.0.1 that would hand out a DTD, and the paths anyone asked it for."""
    _Counting.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Counting.hits
    finally:
        server.shutdown()
        server.server_close()


def hostile_files(url: str) -> dict[str, str]:
    """Each attack on an XML reader, with what the log must say about it (None: read, harmlessly)."""
    body = "<body><sec><title>Methods</title><p>Text{}.</p></sec></body></article>"
    return {
        "laughs.xml": BILLION_LAUGHS,
        "xxe.xml": XXE,
        "remote-entity.xml": f'<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY % dtd SYSTEM "{url}/evil.dtd"> %dtd;]>\n<article>'
        + body.format(""),
        "remote-dtd-entity.xml": f'<?xml version="1.0"?>\n<!DOCTYPE article SYSTEM "{url}/jats.dtd">\n<article>' + body.format("&nbsp;"),
        "remote-dtd.xml": f'<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS" "{url}/jats.dtd">\n<article>'
        + body.format(""),
    }


REASONS = {
    "laughs.xml": "unsafe XML refused",
    "xxe.xml": "unsafe XML refused",
    "remote-entity.xml": "unsafe XML refused",
    "remote-dtd-entity.xml": "undefined entity",  # the DTD that would define it is never fetched
}


def test_hostile_xml_in_a_folder_and_a_package_is_refused_and_the_run_goes_on(tmp_path: Path, dtd_server: tuple[str, list[str]]) -> None:
    url, hits = dtd_server
    folder = tmp_path / "xml"
    folder.mkdir()
    files = hostile_files(url)
    for name, text in files.items():
        (folder / name).write_text(text)
    shutil.copy(GOLD / f"{PLOS}.nxml", folder / "zz-good.nxml")  # after the attacks, in the folder's order
    package = pack(tmp_path, tmp_path / BULK, {f"PMC000xxxxxx/{name}": text.encode() for name, text in files.items()})
    db = tmp_path / "c.sqlite"
    summary = ingest([folder, package], db, settings(time_limit=20))
    in_folder = {Path(result.source_uri).name: result for result in summary.results if "#" not in result.source_uri}
    in_package = {result.source_uri.rsplit("/", 1)[-1]: result for result in summary.results if "#" in result.source_uri}
    assert in_folder["zz-good.nxml"].status == "done"
    for name, reason in REASONS.items():
        for result in (in_folder[name], in_package[name]):
            assert result.status == "failed" and reason in (result.error or ""), (name, result.error)
    assert in_folder["remote-dtd.xml"].status == "done"  # a DOCTYPE's URL is a name, never a fetch
    assert in_package["remote-dtd.xml"].status == "skipped"  # the same bytes as the folder's
    assert summary.count("failed") == 2 * len(REASONS) and summary.count("done") == 2
    assert hits == [], "the XML reader fetched a URL"
    assert summary.seconds < 30
    with sqlite3.connect(db) as connection:
        logged = dict(connection.execute("SELECT source_uri, error FROM ingest_log WHERE status = 'failed'").fetchall())
    assert len(logged) == 2 * len(REASONS) and all(logged.values())


# --------------------------------------------------------------------------- pmc-pairs (real articles, not distributed)


def test_pmc_pairs_xml_alone_in_a_bulk_package(pmc_pairs: Path, tmp_path: Path) -> None:
    package = pack(tmp_path, tmp_path / BULK, {f"PMC000xxxxxx/{stem}.xml": pmc_pairs / f"{stem}.nxml" for stem in PAIRS})
    db = tmp_path / "c.sqlite"
    assert ingest([package], db, settings()).count("done") == len(PAIRS)
    assert_structured(db, len(PAIRS))
    assert_without_pages(db)
    before = counts(db)
    assert ingest([package], db, settings()).count("done") == 0 and counts(db) == before


def test_pmc_pairs_xml_alone_in_a_folder(pmc_pairs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "xml"
    folder.mkdir()
    for stem in PAIRS:
        shutil.copy(pmc_pairs / f"{stem}.nxml", folder)
    db = tmp_path / "c.sqlite"
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-embed", "--workers", "0"])
    assert result.exit_code == 0, result.output
    assert_structured(db, len(PAIRS))
    assert_without_pages(db)
    before = counts(db)
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-embed", "--workers", "0"]).exit_code == 0
    assert counts(db) == before


def test_pmc_pairs_xml_with_pdf(pmc_pairs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pairs"
    folder.mkdir()
    for stem in PAIRS:
        for suffix in (".nxml", ".pdf"):
            shutil.copy(pmc_pairs / f"{stem}{suffix}", folder)
    db = tmp_path / "c.sqlite"
    summary = ingest([folder], db, settings())
    assert (summary.count("done"), summary.total) == (len(PAIRS), len(PAIRS)), summary.results
    assert_structured(db, len(PAIRS))
    assert one(db, "SELECT group_concat(DISTINCT parser) FROM articles") == "jats+embedded"
    assert one(db, "SELECT count(*) FROM contexts WHERE page_number IS NULL") == 0
    assert one(db, "SELECT count(*) FROM articles WHERE pages < 4") == 0
    # the pages spread over the PDF, not piled on page 1
    assert one(db, "SELECT count(DISTINCT page_number) FROM contexts") >= 5
    before = counts(db)
    assert ingest([folder], db, settings()).count("done") == 0 and counts(db) == before


def test_pmc_pairs_xml_with_pdf_in_one_tar(pmc_pairs: Path, tmp_path: Path) -> None:
    members: dict[str, Path | bytes] = {}
    for stem in PAIRS:
        members[f"pairs/{stem}.nxml"] = pmc_pairs / f"{stem}.nxml"
        members[f"pairs/{stem}.pdf"] = pmc_pairs / f"{stem}.pdf"
    package = pack(tmp_path, tmp_path / "pairs.tar.gz", members)
    db = tmp_path / "c.sqlite"
    summary = ingest([package], db, settings())
    assert (summary.count("done"), summary.total) == (len(PAIRS), len(PAIRS)), summary.results  # one article per pair
    assert_structured(db, len(PAIRS))
    assert one(db, "SELECT group_concat(DISTINCT parser) FROM articles") == "jats+embedded"
    assert one(db, "SELECT count(*) FROM contexts WHERE page_number IS NULL") == 0
    assert one(db, "SELECT count(DISTINCT page_number) FROM contexts") >= 5
    before = counts(db)
    assert ingest([package], db, settings()).count("done") == 0 and counts(db) == before


def test_a_refused_xml_beside_its_pdf_is_read_from_the_pdf(tmp_path: Path) -> None:
    folder = tmp_path / "pair"
    folder.mkdir()
    (folder / f"{PLOS}.nxml").write_text(BILLION_LAUGHS)
    shutil.copy(SAMPLE / f"{PLOS}.pdf", folder / f"{PLOS}.pdf")
    db = tmp_path / "c.sqlite"
    (result,) = ingest([folder], db, settings()).results
    assert result.status == "done" and result.source_uri.endswith(f"{PLOS}.nxml")
    (warning,) = [text for text in result.warnings if "source not used" in text]
    assert warning.startswith("JATS source not used: ") and "unsafe XML refused" in warning and warning.endswith("read from the PDF")
    assert one(db, "SELECT parser FROM articles") == "embedded" and one(db, "SELECT pages FROM articles") == 14
