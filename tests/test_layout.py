"""The package's imports go one way (docs/development.md, "Style"): parsers know only the document
model, the database never imports a parser, search never imports the LLM over it, and nothing but
the command line imports the services or the command line. Read from the source, imports inside
functions included, so a lazy import cannot slip past."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "paperpyramid"

#: (the folder, a package it must never import)
FORBIDDEN = [
    ("parsers", "paperpyramid.db"),
    ("db", "paperpyramid.parsers"),
    ("retrieval", "paperpyramid.asking"),
    *[(folder, "paperpyramid.services") for folder in ("asking", "corpus.py", "db", "distill", "ingest", "parsers", "retrieval", "api")],
    *[
        (folder, "paperpyramid.cli")
        for folder in ("asking", "corpus.py", "db", "distill", "ingest", "parsers", "retrieval", "api", "services")
    ],
]


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, with ``from a import b`` also as ``a.b`` (b may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}: a relative import; the package imports absolutely"
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return names


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _breaches(folder: str, package: str, root: Path = PACKAGE) -> list[str]:
    files = [root / folder] if folder.endswith(".py") else sorted((root / folder).rglob("*.py"))
    assert files and all(path.is_file() for path in files), f"no {folder} in the package"
    return [f"{path.relative_to(root).as_posix()}: {name}" for path in files for name in sorted(_imports(path)) if _inside(name, package)]


@pytest.mark.parametrize(("folder", "package"), FORBIDDEN, ids=[f"{folder} never imports {package}" for folder, package in FORBIDDEN])
def test_imports_go_one_way(folder: str, package: str) -> None:
    assert _breaches(folder, package) == []


def test_a_breach_is_seen(tmp_path: Path) -> None:
    """The check reads an import inside a function and a ``from paperpyramid import asking``."""
    (tmp_path / "retrieval").mkdir()
    (tmp_path / "retrieval" / "late.py").write_text("def f():\n    from paperpyramid import asking\n    return asking\n")
    assert _breaches("retrieval", "paperpyramid.asking", root=tmp_path) == ["retrieval/late.py: paperpyramid.asking"]
