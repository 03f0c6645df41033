"""The package's imports go one way (docs/development.md, "Style"): parsers know only the document
model, the database never imports a parser, search never imports the LLM over it, and nothing but
the command line imports the services, nor anything the command line. Read from the source,
imports inside functions included, so a lazy import cannot slip past."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "paperpyramid"

#: (the modules, as "folder/" or "everything but a/ b/", and a package they must never import)
RULES = [
    ("parsers/", "paperpyramid.db"),
    ("db/", "paperpyramid.parsers"),
    ("retrieval/", "paperpyramid.asking"),
    ("everything but cli/ services/", "paperpyramid.services"),
    ("everything but cli/", "paperpyramid.cli"),
]


def _files(modules: str, root: Path) -> list[Path]:
    if modules.startswith("everything but "):
        kept = tuple(modules.removeprefix("everything but ").split())
        return sorted(path for path in root.rglob("*.py") if not path.relative_to(root).as_posix().startswith(kept))
    return sorted((root / modules).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, with ``from a import b`` also as ``a.b`` (b may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            # a relative import could reach anything unseen: the package imports absolutely
            assert node.level == 0, f"{path}:{node.lineno}: a relative import"
            assert node.module is not None
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return names


def _breaches(modules: str, package: str, root: Path = PACKAGE) -> list[str]:
    files = _files(modules, root)
    assert files, f"no {modules} in the package"
    return [
        f"{path.relative_to(root).as_posix()}: {name}"
        for path in files
        for name in sorted(_imports(path))
        if name == package or name.startswith(package + ".")
    ]


@pytest.mark.parametrize(("modules", "package"), RULES, ids=[f"{modules} never imports {package}" for modules, package in RULES])
def test_imports_go_one_way(modules: str, package: str) -> None:
    assert _breaches(modules, package) == []


def test_a_breach_is_seen(tmp_path: Path) -> None:
    """The check reads an import inside a function and a ``from paperpyramid import asking``,
    and refuses a relative import it could not follow."""
    (tmp_path / "retrieval").mkdir()
    (tmp_path / "retrieval" / "late.py").write_text("def f():\n    from paperpyramid import asking\n    return asking\n")
    assert _breaches("retrieval/", "paperpyramid.asking", root=tmp_path) == ["retrieval/late.py: paperpyramid.asking"]
    (tmp_path / "embeddings").mkdir()
    (tmp_path / "embeddings" / "top.py").write_text("import paperpyramid.cli.common\n")
    assert _breaches("everything but cli/", "paperpyramid.cli", root=tmp_path) == ["embeddings/top.py: paperpyramid.cli.common"]
    (tmp_path / "retrieval" / "near.py").write_text("from .. import asking\n")
    with pytest.raises(AssertionError, match="a relative import"):
        _breaches("retrieval/", "paperpyramid.asking", root=tmp_path)
