"""A kind of source of one's own, plugged in through the registry with no change to the pipeline:
a plain-text parser (``tests/text_parser.py``) registered for ``.txt`` files. Ingest finds them in
a folder by their suffix, parses them with that parser beside the PDFs, in this process and in
worker processes, logs a refusal with its reason, and a re-run adds nothing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.document import Block, Document, Section
from paperpyramid.ingestion import ingest
from paperpyramid.parsers import register_kind, unregister_kind
from paperpyramid.parsers.contract import Source
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE

PLOS = "plos-one-2014-fanged-frog-internal-fertilization"


def settings(**options: object) -> Settings:
    return Settings(ingest=IngestSettings(embed=False, **options))  # type: ignore[arg-type]


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql).fetchall())


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    (folder / "deeper").mkdir(parents=True)
    (folder / "frogs.txt").write_text("Frogs of Sulawesi\n\nStriped frogs hum by moonlit streams.\n\nThey sleep by day.\n")
    (folder / "deeper" / "TOADS.TXT").write_text("Toads\n\nToads have dry skin.\n")
    (folder / "empty.txt").write_text("\n")
    shutil.copy(SAMPLE / f"{PLOS}.pdf", folder / f"{PLOS}.pdf")
    return folder


@pytest.fixture
def txt_kind() -> Iterator[None]:
    register_kind("txt", "tests.text_parser:parse", suffixes=(".txt",), label="plain text")
    try:
        yield
    finally:
        unregister_kind("txt")


def check_ingested(db: Path, folder: Path, summary_results: list[object]) -> None:
    by_name = {Path(result.source_uri).name: result for result in summary_results}  # type: ignore[attr-defined]
    assert {name: result.status for name, result in by_name.items()} == {
        "frogs.txt": "done",
        "TOADS.TXT": "done",
        "empty.txt": "failed",
        f"{PLOS}.pdf": "done",
    }
    assert by_name["empty.txt"].error == "empty.txt: no title and text"
    parsers = dict(rows(db, "SELECT title, parser FROM articles WHERE parser = 'plain-text'"))
    assert parsers == {"Frogs of Sulawesi": "plain-text", "Toads": "plain-text"}
    assert rows(db, "SELECT count(*) FROM contexts WHERE text LIKE '%hum by moonlit streams%'") == [(1,)]
    assert rows(db, "SELECT count(*) FROM articles WHERE parser = 'embedded'") == [(1,)]


def test_a_kind_of_ones_own_is_found_by_suffix_and_parsed_in_this_process(notes: Path, tmp_path: Path, txt_kind: None) -> None:
    db = tmp_path / "c.sqlite"
    summary = ingest([notes], db, settings(workers=0))
    check_ingested(db, notes, summary.results)
    again = ingest([notes], db, settings(workers=0))
    assert (again.count("done"), again.count("skipped")) == (0, 3) and again.count("failed") == 1
    assert rows(db, "SELECT count(*) FROM articles") == [(3,)]


def test_a_kind_registered_by_import_path_reaches_the_worker_processes(notes: Path, tmp_path: Path, txt_kind: None) -> None:
    db = tmp_path / "c.sqlite"
    summary = ingest([notes], db, settings(workers=2))
    check_ingested(db, notes, summary.results)


def test_a_kind_declared_in_the_settings(notes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERPYRAMID_INGEST__KINDS", '[{"name": "txt", "parser": "tests.text_parser:parse", "suffixes": [".txt"]}]')
    db = tmp_path / "c.sqlite"
    try:
        summary = ingest([notes], db, Settings(ingest=IngestSettings(**{**Settings().ingest.model_dump(), "workers": 1, "embed": False})))
        check_ingested(db, notes, summary.results)
    finally:
        unregister_kind("txt")


def test_a_kind_registered_with_a_function_parses_in_this_process(tmp_path: Path) -> None:
    def parse_memo(source: Source, options: IngestSettings) -> Document:
        text = source.content().decode()
        return Document(
            title=source.name, pages=1, paged=False, sections=[Section("Memo", blocks=[Block(text, 1)])], provenance={"sections": "memo"}
        )

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.memo").write_text("Remember the frogs.")
    (tmp_path / "in" / "b.unknown").write_text("not an input")
    register_kind("memo", parse_memo, suffixes=(".memo",))
    try:
        summary = ingest([tmp_path / "in"], tmp_path / "c.sqlite", settings(workers=0))
    finally:
        unregister_kind("memo")
    assert [(Path(result.source_uri).name, result.status) for result in summary.results] == [("a.memo", "done")]
