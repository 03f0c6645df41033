"""SQL has one home: ``db/``. Outside it, no module runs a statement or holds SQL; they call the
named queries of ``paperpyramid.db`` (``db/queries/`` and its other modules).

Read with ``ast``, not with a regular expression over the text: comments and docstrings may talk
about SQL, code may not. A module outside ``db/`` that must run user SQL (a read-only query
service) goes in :data:`ALLOWED` with the reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "paperpyramid"

#: The rooms checked, relative to the package: every folder of Python modules (all modules under
#: it) and every module at the top, but ``db/`` itself.
ROOMS: tuple[str, ...] = tuple(
    sorted(
        entry.name
        for entry in PACKAGE.iterdir()
        if entry.name != "db" and ((entry.is_dir() and any(entry.rglob("*.py"))) or entry.suffix == ".py")
    )
)

#: Modules (relative to the package) allowed to run SQL outside db/, with the reason. None today:
#: no service takes SQL from its users.
ALLOWED: dict[str, str] = {}

_RUNS_SQL = frozenset({"execute", "executemany", "executescript"})
#: SQL as this code base writes it: upper-case keywords in the shape of a statement
_SQL = re.compile(
    r"\bSELECT\b|\bINSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE\s+FROM\b|\bPRAGMA\s+\w+"
    r"|\b(?:CREATE|DROP)\s+(?:VIRTUAL\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\b|\bALTER\s+TABLE\b|\bWHERE\b.+\bIN\s*\(|\bJOIN\b.+\bON\b",
    re.DOTALL,
)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the nodes that are docstrings (of the module, a class or a function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _literal(node: ast.AST) -> str | None:
    """The text of a string literal; an f-string's with ``{}`` where it substitutes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values)
    return None


def offenders_in(path: Path, relative: str) -> list[str]:
    """``relative:line what`` for every statement run and every SQL literal in the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = _docstrings(tree)
    inside_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RUNS_SQL:
            found.append((node.lineno, f"calls .{node.func.attr}()"))
        text = None if id(node) in docstrings or id(node) in inside_fstrings else _literal(node)
        if text is not None and _SQL.search(text):
            found.append((getattr(node, "lineno", 0), f"SQL in a string: {' '.join(text.split())[:60]!r}"))
    return [f"{relative}:{line} {what}" for line, what in sorted(found, key=lambda item: item[0])]


def offenders(package: Path = PACKAGE, rooms: tuple[str, ...] = ROOMS) -> list[str]:
    """Every offence in ``rooms`` of the package at ``package``, but those :data:`ALLOWED`."""
    found = []
    for room in rooms:
        where = package / room
        modules = [where] if where.suffix == ".py" else sorted(where.rglob("*.py"))
        for module in modules:
            relative = module.relative_to(package).as_posix()
            if relative not in ALLOWED:
                found.extend(offenders_in(module, relative))
    return found


def test_the_rooms_exist() -> None:
    """A room renamed or moved must be renamed here too, or the check below would pass on nothing."""
    missing = [room for room in ROOMS if not (PACKAGE / room).exists()]
    assert not missing, f"rooms checked for SQL that do not exist: {missing}"
    assert all((PACKAGE / module).is_file() for module in ALLOWED)


def test_no_sql_outside_db() -> None:
    found = offenders()
    assert not found, "SQL outside db/ (move it into a named query of paperpyramid.db.queries):\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('rows = conn.execute("SELECT id FROM articles")\n', ["calls .execute()", "SQL in a string"]),
        ("conn.executemany(sql, rows)\n", ["calls .executemany()"]),
        ('sql = f"SELECT t.id FROM {level} AS t WHERE t.id = ?"\n', ["SQL in a string"]),
        ('where = "c.id IN (SELECT value FROM json_each(?))"\n', ["SQL in a string"]),
        ('"""Only SELECTs: a docstring may name SQL."""\n# a comment may too: SELECT * FROM articles\nx = "select a paper"\n', []),
    ],
)
def test_the_check_sees_sql(tmp_path: Path, source: str, expected: list[str]) -> None:
    """The check finds a statement run and SQL in plain and f-strings, and leaves docstrings,
    comments and prose alone."""
    module = tmp_path / "module.py"
    module.write_text(source, encoding="utf-8")
    found = offenders_in(module, "module.py")
    assert len(found) == len(expected)
    for offence, what in zip(found, expected, strict=True):
        assert what in offence
