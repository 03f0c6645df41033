"""Day-one command-line behaviour: --version, the corpus path from PAPERPYRAMID_CORPUS__DB, article ids
that begin with '-' (nanoids can), and a --db that is not a corpus."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid import __version__
from paperpyramid.cli import app
from tests.conftest import SAMPLE
from tests.test_distill import make_corpus, paper


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"paperpyramid {__version__}"


def test_corpus_path_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "elsewhere.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=2)})
    monkeypatch.setenv("PAPERPYRAMID_CORPUS__DB", str(db))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["search", "shark colony", "--json"])
    assert result.exit_code == 0, result.output
    assert "Colonies of alpha" in result.stdout and not (tmp_path / "paperpyramid.sqlite").exists()


def test_show_takes_an_id_that_begins_with_a_dash(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    (article_id,) = make_corpus(db, {"alpha": paper("alpha", pages=2)}).values()
    dashed = "-" + article_id[1:]
    with sqlite3.connect(db) as conn:  # give the article an id as nanoid can draw it: every reference to it follows
        conn.execute("UPDATE articles SET id = ? WHERE id = ?", [dashed, article_id])
        for (table,) in conn.execute(
            "SELECT m.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c WHERE m.type = 'table' AND c.name = 'article_id'"
        ).fetchall():
            conn.execute(f"UPDATE {table} SET article_id = ? WHERE article_id = ?", [dashed, article_id])
    result = CliRunner().invoke(app, ["show", dashed, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Colonies of alpha" in result.stdout


FOREIGN_COMMANDS = [
    ["search", "frogs"], ["status"], ["show", "abc"], ["ingest", "PDFS", "--no-embed", "--workers", "0"], ["embed"], ["distill"],
    ["ask", "what grew"], ["snapshot", "--to", "OUT"], ["eval", "retrieval", "QA"],
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["another SQLite database", "not a database"])
def test_a_db_that_is_not_a_corpus_gets_one_line_and_is_left_untouched(kind: str, tmp_path: Path) -> None:
    """Every command that takes --db, run as a user runs it (the installed command): exit 2, one
    'error:' line naming the file, no traceback, and the file byte for byte as it was (ingest
    once added paperpyramid's 103 tables to another program's database)."""
    db = tmp_path / "theirs.sqlite"
    if kind == "not a database":
        db.write_text("a notebook, not a database\n" * 100)
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE measurements (x REAL)")
            conn.execute("INSERT INTO measurements VALUES (1.5)")
    before = db.read_bytes()
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "one.pdf").write_bytes((SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf").read_bytes())
    qa = tmp_path / "qa.jsonl"
    qa.write_text(json.dumps({"id": "q1", "question": "what grew?", "kind": "fact", "evidence": ["grew"]}) + "\n")
    command = shutil.which("paperpyramid", path=str(Path(sys.executable).parent))
    assert command is not None
    for args in FOREIGN_COMMANDS:
        args = [{"PDFS": str(pdfs), "OUT": str(tmp_path / "out"), "QA": str(qa)}.get(arg, arg) for arg in args]
        run = subprocess.run([command, *args, "--db", str(db)], capture_output=True, text=True, timeout=120, check=False,
                             env={**os.environ, "COLUMNS": "400"})  # fmt: skip
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert run.returncode == 3, (args, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr and len(lines) == 1 and lines[0].startswith("error:") and str(db) in lines[0], (
            args,
            run.stderr,
        )
        assert db.read_bytes() == before, args
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pdfs", "qa.jsonl", "theirs.sqlite"]  # no -wal, -shm or snapshot left


def test_without_aws_endpoint_url_the_bucket_is_aws_s3(monkeypatch: pytest.MonkeyPatch) -> None:
    """As for the AWS tools: no endpoint set means AWS itself, over TLS (it was a MinIO on
    localhost:9000, where a researcher's s3:// URIs do not live)."""
    from paperpyramid.s3 import make_client
    from paperpyramid.settings import S3Settings

    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "PAPERPYRAMID_S3__ENDPOINT_URL", "PAPERPYRAMID_S3_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    client = make_client(S3Settings())
    assert client._base_url.host == "s3.amazonaws.com" and client._base_url.is_https  # noqa: SLF001
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000")
    assert make_client(S3Settings())._base_url.host == "127.0.0.1:9000"  # noqa: SLF001


def _commands(group: object, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, command in getattr(group, "commands", {}).items():
        found.append((*prefix, name))
        found.extend(_commands(command, (*prefix, name)))
    return found


def test_help_shows_flags_as_flags_and_prints_brackets_literally() -> None:
    import typer.main

    commands = _commands(typer.main.get_command(app))
    assert ("search",) in commands and ("eval", "retrieval") in commands
    for command in [(), *commands]:
        result = CliRunner().invoke(app, [*command, "--help"], terminal_width=200)
        assert result.exit_code == 0, (command, result.output)
        assert "--help" in result.stdout and not re.search(r"--[a-z-]+ +<bool>", result.stdout), (command, result.stdout)
    ask = CliRunner().invoke(app, ["ask", "--help"], terminal_width=200).stdout
    assert "[title, p. N]" in " ".join(ask.split())  # rich markup swallowed it


def _listed_corpus(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    from dataclasses import replace

    db = tmp_path / "corpus.sqlite"
    docs = {
        "alpha": replace(paper("alpha", pages=2), title="On primes[i] and [bold]sharks[/bold]", doi="10.1000/alpha", date_published="2014-11-23",
                         journal="Shark Letters"),
        "beta": replace(paper("beta", pages=2), date_published="27 Jan 2019"),
    }  # fmt: skip
    return db, make_corpus(db, docs)


def test_list_prints_every_article_and_filters(tmp_path: Path) -> None:
    db, ids = _listed_corpus(tmp_path)
    listed = CliRunner().invoke(app, ["list", "--db", str(db)], terminal_width=60)
    assert listed.exit_code == 0, listed.output
    assert listed.stdout.splitlines() == [  # one line each, never wrapped, brackets literal
        f"{ids['alpha']}  2014  10.1000/alpha  On primes[i] and [bold]sharks[/bold]",
        f"{ids['beta']}  2019  -  Colonies of beta",
    ]
    rows = [json.loads(line) for line in CliRunner().invoke(app, ["list", "--db", str(db), "--json"]).stdout.splitlines()]
    assert [(row["id"], row["doi"], row["year"], row["journal"], row["pages"]) for row in rows] == [
        (ids["alpha"], "10.1000/alpha", 2014, "Shark Letters", 2),
        (ids["beta"], None, 2019, None, 2),
    ]
    for args, wanted in ((["--year-from", "2015"], ["beta"]), (["--year-to", "2015"], ["alpha"]), (["--journal", "shark letters"], ["alpha"]),
                         (["--title", "PRIMES"], ["alpha"]), (["--title", "whales"], [])):  # fmt: skip
        out = CliRunner().invoke(app, ["list", "--db", str(db), "--json", *args]).stdout
        assert [json.loads(line)["id"] for line in out.splitlines()] == [ids[name] for name in wanted], args


def test_show_and_search_print_text_literally_with_the_doi(tmp_path: Path) -> None:
    db, ids = _listed_corpus(tmp_path)
    shown = CliRunner().invoke(app, ["show", ids["alpha"], "--db", str(db)], terminal_width=200)
    assert shown.exit_code == 0 and "On primes[i] and [bold]sharks[/bold]" in shown.stdout, shown.output
    found = [
        json.loads(line) for line in CliRunner().invoke(app, ["search", "shark colony", "--db", str(db), "--json"]).stdout.splitlines()
    ]
    assert found and {hit["doi"] for hit in found if hit["article_id"] == ids["alpha"]} == {"10.1000/alpha"}
    assert all(hit["doi"] is None for hit in found if hit["article_id"] == ids["beta"]) and all("page" in hit for hit in found)


def test_search_filters_by_year_on_the_command_line_and_in_python(tmp_path: Path) -> None:
    """The dates were given as "2014-11-23" and "27 Jan 2019": both stored as ISO 8601, and both
    read by the year bounds of ``search`` and of ``Corpus.search``/``retrieve``."""
    from paperpyramid.corpus import Corpus
    from paperpyramid.retrieval.filters import Filters

    db, ids = _listed_corpus(tmp_path)
    bounds: list[tuple[dict[str, int], set[str]]] = [
        ({}, {"alpha", "beta"}), ({"year_from": 2015}, {"beta"}), ({"year_to": 2015}, {"alpha"}),
        ({"year_from": 2014, "year_to": 2014}, {"alpha"}), ({"year_from": 2019, "year_to": 2019}, {"beta"}), ({"year_from": 2020}, set()),
    ]  # fmt: skip
    with Corpus.open(db) as corpus:
        assert {article.id: article.date_published for article in corpus.articles()} == {
            ids["alpha"]: "2014-11-23",
            ids["beta"]: "2019-01-27",
        }
        for given, wanted in bounds:
            expected = {ids[name] for name in wanted}
            assert {hit.citation.article_id for hit in corpus.search("shark colony", filters=Filters(**given))} == expected, given
            hits = corpus.retrieve("shark colony", mode="bm25", filters=Filters(**given))
            assert {hit.citation.article_id for hit in hits} == expected, given
    for given, wanted in bounds:
        args = [f"--{name.replace('_', '-')}={value}" for name, value in given.items()]
        result = CliRunner().invoke(app, ["search", "shark colony", "--db", str(db), "--json", *args])
        assert result.exit_code == 0, result.output
        assert {json.loads(line)["article_id"] for line in result.stdout.splitlines()} == {ids[name] for name in wanted}, args


def test_ingest_into_a_folder_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    command = shutil.which("paperpyramid", path=str(Path(sys.executable).parent))
    assert command is not None
    db = tmp_path / "missing" / "corpus.sqlite"
    run = subprocess.run([command, "ingest", str(SAMPLE), "--db", str(db), "--no-embed", "--workers", "0"], capture_output=True, text=True,
                         timeout=120, check=False, env={**os.environ, "COLUMNS": "400"})  # fmt: skip
    assert run.returncode == 3 and "Traceback" not in run.stderr, run.stderr
    assert [line for line in run.stderr.splitlines() if line.strip()] == [
        f"error: no corpus can be made at {db}: the folder {db.parent} does not exist"
    ]
    assert not db.parent.exists()


def test_show_and_status_print_one_json_object(tmp_path: Path) -> None:
    db, ids = _listed_corpus(tmp_path)
    shown = CliRunner().invoke(app, ["show", ids["alpha"], "--db", str(db), "--json", "--text"])
    assert shown.exit_code == 0 and len(shown.stdout.splitlines()) == 1, shown.output
    article = json.loads(shown.stdout)
    assert article["id"] == ids["alpha"] and article["doi"] == "10.1000/alpha" and article["sections"]
    contexts = [context for section in article["sections"] for context in section["contexts"]]
    assert "On primes[i] and [bold]sharks[/bold]" in article["title"]  # literally, as in the plain output
    assert contexts and all(context["text"] and isinstance(context["page"], int) for context in contexts)
    with sqlite3.connect(db) as conn:  # a failure whose reason holds brackets, as a file name can
        conn.execute(
            "INSERT INTO ingest_log (source_uri, status, error, attempts, updated_at) VALUES ('x.pdf', 'failed', 'x[1].pdf: [bold]corrupt[/bold]', 1, '2026-11-24')"
        )
    status = CliRunner().invoke(app, ["status", "--db", str(db), "--json"])
    assert status.exit_code == 0 and len(status.stdout.splitlines()) == 1, status.output
    report = json.loads(status.stdout)
    assert report["ingest"]["failed"] == 1 and report["failures"][0]["error"] == "x[1].pdf: [bold]corrupt[/bold]"
    plain = CliRunner().invoke(app, ["status", "--db", str(db)], terminal_width=200)
    assert "x[1].pdf: [bold]corrupt[/bold]" in plain.stdout, plain.stdout
