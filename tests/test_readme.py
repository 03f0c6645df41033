"""The README's Python examples run as written (from the repository root)."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_examples_run(tmp_path, capsys):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README should show the Python API"
    for source in blocks:
        source = source.replace('"tests/data/sample"', repr(str(ROOT / "tests/data/sample")))
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            exec(compile(source, "README.md", "exec"), {"__name__": "readme"})
        finally:
            os.chdir(cwd)
    printed = capsys.readouterr().out
    assert "3 ingested, 0 failed" in printed
    assert "A Novel Reproductive Mode in Frogs" in printed


def test_readme_first_lines_are_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    commands = [line for line in lines[:6] if line.startswith("bash scripts/setup.sh")]
    assert len(commands) == 2 and "pytest" in commands[1] and "ingest tests/data/sample" in commands[0]
    assert "pytest" in (ROOT / ".ci/run").read_text()
