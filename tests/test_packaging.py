"""The wheel a user installs: built from this tree, it carries the typing marker, the web page,
the ``paperpyramid`` command (with its one-line errors) and, among its core requirements, what the
code imports outside the optional extras (httpx: the parser services' client, which a wheel with
only ``[grobid]`` once lacked)."""

from __future__ import annotations

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
            if stripped.startswith(("import httpx", "from httpx", "import minio", "from minio", "import sqlite_vec", "import openai", "from openai")):
                imported.add(stripped.split()[1].split(".")[0])
    assert imported == {"httpx", "minio", "sqlite_vec", "openai"}
    assert {name.replace("_", "-") for name in imported} <= core
