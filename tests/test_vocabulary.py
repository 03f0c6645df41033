"""One vocabulary: settings are the single source of names, one environment scheme
(``PAPERPYRAMID_<GROUP>__<FIELD>``) with the ecosystem's names as aliases and the older names
still read with a warning, and a command line whose exit status says what happened."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid import settings as names
from paperpyramid.cli import EXIT_CODES, app, get_command
from paperpyramid.env import DEPRECATED_ENV
from paperpyramid.settings import EmbeddingSettings, S3Settings, Settings
from tests.conftest import HOSTILE, SAMPLE

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for old, new in DEPRECATED_ENV.items():
        monkeypatch.delenv(old, raising=False)
        monkeypatch.delenv(new, raising=False)
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)


def test_the_settings_module_imports_no_registry() -> None:
    """Settings are the single source of names: the module imports nothing of paperpyramid but the
    environment's names (the registries import their names from it, never the other way)."""
    tree = ast.parse((ROOT / "paperpyramid" / "settings.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert {name for name in imported if name.startswith("paperpyramid")} == {"paperpyramid.env"}


def test_the_registries_name_what_the_settings_name() -> None:
    from paperpyramid import embeddings, llm, parsers
    from paperpyramid.asking import strategies
    from paperpyramid.retrieval import api, levels

    assert set(parsers._REGISTRY) == set(names.PARSER_NAMES)  # noqa: SLF001
    assert embeddings.EMBEDDER_NAMES == names.EMBEDDER_NAMES and llm.LLM_BACKENDS == names.LLM_BACKENDS
    assert api.MODES == names.SEARCH_MODES and strategies.STRATEGIES == names.LLM_STRATEGIES and levels.LEVELS == names.LEVELS


def test_an_unknown_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError) as refused:
        EmbeddingSettings(model="minlm")  # type: ignore[arg-type]
    assert all(name in str(refused.value) for name in names.EMBEDDER_NAMES)


def test_the_new_names_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERPYRAMID_INGEST__SERVICES__GROBID_URL", "http://grobid:8070")
    monkeypatch.setenv("PAPERPYRAMID_SERVE__API_TOKEN", "secret")
    monkeypatch.setenv("PAPERPYRAMID_CORPUS__DB", "/data/corpus.sqlite")
    monkeypatch.setenv("PAPERPYRAMID_S3__RETRIES", "9")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new names warn about nothing
        settings = Settings()
    assert settings.ingest.services.grobid_url == "http://grobid:8070" and settings.serve.api_token == "secret"
    assert settings.corpus.db == Path("/data/corpus.sqlite") and settings.s3.retries == 9


def test_the_older_names_still_work_with_a_deprecation_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERPYRAMID_GROBID_URL", "http://old-grobid:8070")
    monkeypatch.setenv("PAPERPYRAMID_API_TOKEN", "old-secret")
    monkeypatch.setenv("PAPERPYRAMID_S3_RETRIES", "7")
    with pytest.warns(DeprecationWarning) as caught:
        settings = Settings()
    said = " ".join(str(warning.message) for warning in caught)
    assert "PAPERPYRAMID_GROBID_URL is deprecated: set PAPERPYRAMID_INGEST__SERVICES__GROBID_URL instead" in said
    assert "PAPERPYRAMID_S3__RETRIES" in said
    # each older name is read, and warned about, once per Settings (the S3 group reads its own)
    assert [str(warning.message).split()[0] for warning in caught].count("PAPERPYRAMID_S3_RETRIES") == 1
    assert settings.ingest.services.grobid_url == "http://old-grobid:8070" and settings.serve.api_token == "old-secret"
    assert settings.s3.retries == 7
    # the new name wins where both are set
    monkeypatch.setenv("PAPERPYRAMID_INGEST__SERVICES__GROBID_URL", "http://new-grobid:8070")
    with pytest.warns(DeprecationWarning):  # the other two older names are still set
        assert Settings().ingest.services.grobid_url == "http://new-grobid:8070"


def test_s3_reads_its_own_name_before_the_aws_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://aws-alias:9000")
    assert S3Settings().endpoint_url == "http://aws-alias:9000"
    monkeypatch.setenv("PAPERPYRAMID_S3__ENDPOINT_URL", "http://own:9000")
    assert S3Settings().endpoint_url == "http://own:9000" and Settings().s3.endpoint_url == "http://own:9000"


def test_the_tesseract_setting_reaches_the_ocr(monkeypatch: pytest.MonkeyPatch) -> None:
    from paperpyramid.parsers.embedded import ocr

    if shutil.which("tesseract") is None:
        pytest.skip("Tesseract is not installed (apt-get install tesseract-ocr)")
    assert ocr.tesseract() is not None
    with ocr.using(""):  # IngestSettings(tesseract="") turns OCR off for the parse
        assert ocr.tesseract() is None
    monkeypatch.setenv("PAPERPYRAMID_INGEST__TESSERACT", "no-such-program")
    assert ocr.tesseract() is None


def test_an_older_variable_on_the_command_line_warns_and_is_read(tmp_path: Path) -> None:
    db = tmp_path / "named.sqlite"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PAPERPYRAMID_DB": str(db)}
    run = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "status"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert "PAPERPYRAMID_DB is deprecated: set PAPERPYRAMID_CORPUS__DB instead" in run.stderr
    assert str(db) in " ".join(run.stderr.split()) and run.returncode == 3  # no corpus there: it read the old name


def test_exit_status_says_what_happened(tmp_path: Path) -> None:
    assert set(EXIT_CODES) == {0, 1, 2, 3}
    db = tmp_path / "corpus.sqlite"
    folder = tmp_path / "inputs"
    folder.mkdir()
    shutil.copy(SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf", folder)
    shutil.copy(HOSTILE / "hostile-fuzzed-no-trailer.pdf", folder)
    some_failed = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--workers", "0", "--no-embed"])
    assert some_failed.exit_code == 1 and "1 ingested, 1 failed" in " ".join(some_failed.output.split())
    usage = runner.invoke(app, ["search", "frogs", "--db", str(db), "--mode", "magic"])
    assert usage.exit_code == 2 and "bm25" in usage.output
    missing = runner.invoke(app, ["search", "frogs", "--db", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 3 and "no corpus at" in missing.output
    done = runner.invoke(app, ["search", "frogs", "--db", str(db), "--mode", "bm25", "--json"])
    assert done.exit_code == 0 and done.stdout.count("\n") >= 1


def test_help_shows_choices_and_no_python_type_names() -> None:
    command = get_command()
    for path in (["search"], ["ask"], ["embed"], ["distill"], ["ingest"], ["eval", "retrieval"]):
        target = command
        for part in path:
            target = target.commands[part]
        text = target.get_help(target.context_class(target, info_name=" ".join(path)))
        assert "<str>" not in text and "list[" not in text and "<int" not in text and "<float" not in text, (path, text)
    search = command.commands["search"]
    text = search.get_help(search.context_class(search, info_name="search"))
    assert "bm25|vector|hybrid|parent|cross" in text and "contexts|insights|concepts|abstracts|recollections" in text


@pytest.mark.parametrize("command", [["ask"], ["distill"], ["eval", "retrieval"], ["eval", "answers"]])
def test_the_llm_is_named_the_same_way_everywhere(command: list[str]) -> None:
    target = get_command()
    for part in command:
        target = target.commands[part]
    options = {option for param in target.params for option in getattr(param, "opts", [])}
    assert {"--llm-backend", "--llm-model"} <= options and "--model" not in options and "--backend" not in options
