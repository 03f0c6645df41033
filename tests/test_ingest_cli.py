"""Ingest end to end through the CLI and the pipeline: real PDFs, real SQLite, worker processes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid import Corpus
from paperpyramid.cli import app
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import GOLD, HOSTILE, SAMPLE

runner = CliRunner()


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchall()


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """The sample papers, every committed hostile file, an HTML page and a duplicate."""
    folder = tmp_path_factory.mktemp("inputs")
    for path in [*SAMPLE.glob("*.pdf"), *HOSTILE.glob("*.pdf")]:
        shutil.copy(path, folder / path.name)
    (folder / "landing-page.pdf").write_text("<html><body>Please sign in</body></html>")
    shutil.copy(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf", folder / "copy-of-plos.pdf")
    return folder


@pytest.fixture(scope="module")
def ingested(mixed, tmp_path_factory) -> tuple[Path, object]:
    db = tmp_path_factory.mktemp("db") / "corpus.sqlite"
    # OCR off: the image-only scan is one of the bad files here (tests/test_scans.py reads scans)
    result = runner.invoke(app, ["ingest", str(mixed), "--db", str(db), "--workers", "2", "--ocr", "never"])
    return db, result


@pytest.mark.slow
def test_good_files_ingested_bad_files_failed_with_reasons(ingested):
    db, result = ingested
    assert result.exit_code == 1, result.output  # some inputs failed
    log = dict(
        rows(
            db,
            "SELECT replace(source_uri, rtrim(source_uri, replace(source_uri, '/', '')), ''), status || ': ' || coalesce(error, '') FROM ingest_log",
        )
    )
    # identical bytes under two names: one article, the other name logged as its duplicate
    pair = sorted([log["plos-one-2014-fanged-frog-internal-fertilization.pdf"], log["copy-of-plos.pdf"]])
    assert pair[0].startswith("done") and pair[1].startswith("skipped: same bytes as ")
    assert log["mdpi-metabolites-2014-durum-wheat-volatiles.pdf"].startswith("done")
    assert log["bmc-health-serv-res-2014-barriers.pdf"].startswith("done")
    assert log["hostile-encrypted-user-password.pdf"].startswith("failed") and "password" in log["hostile-encrypted-user-password.pdf"]
    assert "corrupt" in log["hostile-header-then-eof-no-objects.pdf"]
    assert "corrupt" in log["hostile-fuzzed-no-trailer.pdf"]
    assert "OCR" in log["hostile-scanned-image-only-two-column.pdf"]
    assert "no %PDF header" in log["landing-page.pdf"]
    assert "3 ingested, 5 failed, 1 skipped of 9 inputs" in " ".join(result.output.split())


@pytest.mark.slow
def test_rerun_skips_everything_and_duplicates_nothing(ingested, mixed):
    db, _ = ingested
    before = {
        table: rows(db, f"SELECT count(*) FROM {table}")[0][0]
        for table in ("articles", "sections", "contexts", "article_sections", "sections_contexts", "bib_entries")
    }
    result = runner.invoke(app, ["ingest", str(mixed), "--db", str(db), "--workers", "0", "--ocr", "never"])
    assert result.exit_code == 1  # the bad files are still failed
    after = {table: rows(db, f"SELECT count(*) FROM {table}")[0][0] for table in before}
    assert after == before and before["articles"] == 3
    assert "0 ingested, 5 failed, 4 skipped" in " ".join(result.output.split())


def test_password_option_opens_the_encrypted_file(tmp_path):
    db = tmp_path / "c.sqlite"
    result = runner.invoke(
        app,
        ["ingest", str(HOSTILE / "hostile-encrypted-user-password.pdf"), "--db", str(db), "--password", "openpassword", "--workers", "0"],
    )
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        (article,) = list(corpus.articles())
        assert any("password" in warning for warning in article.warnings)
        assert corpus.search("lorem ipsum")


def test_exit_status_1_when_inputs_failed_2_when_the_sources_are_wrong(tmp_path):
    # every committed hostile file fails with OCR off (with it, Tesseract reads the image-only scan)
    result = runner.invoke(app, ["ingest", str(HOSTILE), "--db", str(tmp_path / "c.sqlite"), "--workers", "0", "--ocr", "never"])
    assert result.exit_code == 1
    result = runner.invoke(app, ["ingest", str(tmp_path / "missing"), "--db", str(tmp_path / "c.sqlite")])
    assert result.exit_code == 2 and "no such file" in result.output


def test_sources_without_inputs_say_so_whatever_the_kind(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.docx").write_bytes(b"PK")
    (tmp_path / "empty" / "other.tei.xml").write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"/>')
    result = runner.invoke(app, ["ingest", str(tmp_path / "empty"), "--db", str(tmp_path / "c.sqlite"), "--workers", "0"])
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())
    assert "0 ingested, 0 failed, 0 skipped of 0 inputs" in output and "no inputs found in the sources given (PDFs, JATS XML" in output


def test_unknown_parser_lists_the_known_ones(tmp_path):
    result = runner.invoke(app, ["ingest", str(SAMPLE), "--db", str(tmp_path / "c.sqlite"), "--parser", "grobidd"])
    assert result.exit_code == 2 and "embedded" in result.output


@pytest.mark.slow
def test_progress_total_counts_the_local_pdfs(tmp_path):
    totals: list[int | None] = []
    ingest([SAMPLE], tmp_path / "c.sqlite", Settings(ingest=IngestSettings(workers=0)), on_total=totals.append)
    assert totals == [3]
    # which XML is JATS, or pairs with a PDF, is known only as it is read
    ingest([GOLD], tmp_path / "d.sqlite", Settings(ingest=IngestSettings(workers=0, embed=False)), on_total=totals.append)
    assert totals == [3, None]


def test_page_limit_and_time_limit_are_recorded(tmp_path):
    settings = Settings(ingest=IngestSettings(workers=0, max_pages=10))
    summary = ingest([SAMPLE], tmp_path / "c.sqlite", settings)
    failed = {Path(r.source_uri).name: r.error for r in summary.results if r.status == "failed"}
    assert "over the limit of 10" in failed["plos-one-2014-fanged-frog-internal-fertilization.pdf"]
    assert summary.count("done") == 1  # the 10-page BMC paper
    settings = Settings(ingest=IngestSettings(workers=1, time_limit=0.001))
    summary = ingest([SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf"], tmp_path / "d.sqlite", settings)
    assert summary.results[0].status == "failed" and "longer than" in summary.results[0].error


def test_search_show_status_and_eval_commands(ingested):
    db, _ = ingested
    result = runner.invoke(app, ["search", "internal fertilization tadpoles", "--db", str(db), "-k", "3"])
    assert result.exit_code == 0 and "A Novel Reproductive Mode in Frogs" in result.output and "p. " in result.output
    with Corpus.open(db) as corpus:
        article = corpus.article("10.1371/journal.pone.0115884")
    result = runner.invoke(app, ["show", article.id, "--db", str(db)])
    assert result.exit_code == 0 and "Materials and Methods" in result.output and "Discussion" in result.output
    result = runner.invoke(app, ["status", "--db", str(db)])
    assert "done: 3" in result.output and "failed: 5" in result.output
    result = runner.invoke(app, ["eval", "parse", str(GOLD), "--db", str(db)])
    assert result.exit_code == 0 and "papers scored: 2" in result.output
    # the gold folder it is given, nothing else: generated tables are a benchmark (benchmarks/unseen_tables.py)
    assert "unseen tables" not in result.output


def test_stored_contexts_fit_the_window_and_carry_pages(ingested):
    db, _ = ingested
    assert rows(db, "SELECT max(num_tokens) FROM contexts")[0][0] <= 254
    reasons = dict(rows(db, "SELECT stop_reason, count(*) FROM contexts GROUP BY 1"))
    assert reasons["Section"] > 20 and reasons["Token limit"] > 20
    assert rows(db, "SELECT count(*) FROM contexts WHERE page_number IS NULL OR page_number < 1")[0][0] == 0
    # every section's last context closes it, the others hit the token limit
    bad = rows(
        db,
        """
        SELECT count(*) FROM sections_contexts sc JOIN contexts c ON c.id = sc.context_id
        WHERE (c.stop_reason = 'Section') != (sc.position = (SELECT max(position) FROM sections_contexts WHERE section_id = sc.section_id))""",
    )
    assert bad[0][0] == 0


@pytest.mark.slow
def test_max_attempts_option_charges_a_document_that_kills_its_worker(tmp_path):
    """``--max-attempts 2``: a document whose parser kills its process is tried twice, then failed
    with how often it died; the paper beside it is stored."""
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf", folder / "good.pdf")
    shutil.copy(SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf", folder / "crash.pdf")
    db = tmp_path / "c.sqlite"
    command = [
        "ingest",
        str(folder),
        "--db",
        str(db),
        "--workers",
        "1",
        "--no-embed",
        "--parser",
        "tests.crashing_parser:parse",
        "--max-attempts",
        "2",
    ]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 1, result.output  # one input failed
    connection = sqlite3.connect(db)
    rows = dict(connection.execute("SELECT source_uri, status || ': ' || coalesce(error, '') FROM ingest_log").fetchall())
    connection.close()
    by_name = {Path(uri).name: row for uri, row in rows.items()}
    assert by_name["good.pdf"].startswith("done")
    assert by_name["crash.pdf"].startswith("failed") and "died 2 times" in by_name["crash.pdf"], by_name
