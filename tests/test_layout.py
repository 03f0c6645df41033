"""The package's imports go one way (docs/development.md, "Style"): every top-level room of the
package (a subpackage, or a module directly under it) has a layer, and a room imports only rooms of
its own layer or below; no two rooms import each other, however far round; ``Corpus`` sits on top
of the stages, so only the layers above it import it; and a few rules say more than the layers
can (parsers never touch the database, search never imports the LLM over it). Read from the source,
imports inside functions and under ``TYPE_CHECKING`` included, so a lazy import cannot slip past."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "paperpyramid"
#: the package's own ``__init__.py``: the facade that re-exports ``Corpus`` and what it returns
ROOT = "__init__"

#: Bottom to top. A room imports rooms of its own layer or below, never above.
LAYERS = [
    (
        "foundations",
        "_version errors env settings registry document dates text_clean normalise tokens contexts arxiv_ids licences "
        "citations cancel http_deadline openai_compat s3 source_names",
    ),
    ("parsers and the database", "parsers db"),
    ("the model clients, the citation graph", "embeddings llm citation_graph"),
    ("the stages", "ingestion distill retrieval export"),
    ("the LLM over search", "asking"),
    ("evaluation (it takes a corpus as an argument)", "eval"),
    ("the write side's entry and reports", "api"),
    ("the corpus", "corpus"),
    ("the package's facade", ROOT),
    ("on top: services, the command line", "services cli"),
]
LAYER = {room: number for number, (_, rooms) in enumerate(LAYERS) for room in rooms.split()}

#: (the modules, as "folder/" or "everything but a/ b.py", and a package they must never import)
RULES = [
    ("parsers/", "paperpyramid.db"),
    ("db/", "paperpyramid.parsers"),
    ("retrieval/", "paperpyramid.asking"),
    ("everything but cli/ services/", "paperpyramid.services"),
    ("everything but cli/", "paperpyramid.cli"),
    ("everything but cli/ services/ __init__.py", "paperpyramid.corpus"),
    ("everything but cli/ services/ __init__.py corpus.py api/", "paperpyramid.api"),
]


def _files(modules: str, root: Path) -> list[Path]:
    if modules.startswith("everything but "):
        kept = tuple(modules.removeprefix("everything but ").split())
        return sorted(path for path in root.rglob("*.py") if not path.relative_to(root).as_posix().startswith(kept))
    return sorted((root / modules).rglob("*.py"))


@functools.cache
def _imports(path: Path) -> frozenset[str]:
    """Every module ``path`` imports, with ``from a import b`` also as ``a.b`` (b may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            # a relative import could reach anything unseen: the package imports absolutely
            assert node.level == 0, f"{path}:{node.lineno}: a relative import"
            assert node.module is not None
            # "from paperpyramid import x" is "paperpyramid.x"; a bare "paperpyramid" is "import paperpyramid"
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)} - {"paperpyramid"}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return frozenset(names)


def _breaches(modules: str, package: str, root: Path = PACKAGE) -> list[str]:
    files = _files(modules, root)
    assert files, f"no {modules} in the package"
    return [
        f"{path.relative_to(root).as_posix()}: {name}"
        for path in files
        for name in sorted(_imports(path))
        if name == package or name.startswith(package + ".")
    ]


def _room(path: Path, root: Path) -> str:
    """The top-level room a file belongs to: its folder under the package, or its module's name."""
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def _rooms_imported(path: Path, root: Path) -> dict[str, str]:
    """The rooms ``path`` imports, each with the first import that reaches it. ``from paperpyramid
    import x`` reaches room x where x is a room, else the package root (x is a name it defines)."""
    reached: dict[str, str] = {}
    for name in sorted(_imports(path)):
        parts = name.split(".")
        if parts[0] != "paperpyramid":
            continue
        room = parts[1] if len(parts) > 1 else ROOT
        if not ((root / room).is_dir() or (root / f"{room}.py").is_file()):
            room = ROOT
        reached.setdefault(room, name)
    return reached


def _graph(root: Path = PACKAGE) -> dict[tuple[str, str], str]:
    """(importing room, imported room) -> one file and import that makes the edge."""
    edges: dict[tuple[str, str], str] = {}
    for path in sorted(root.rglob("*.py")):
        here = _room(path, root)
        for room, name in _rooms_imported(path, root).items():
            if room != here:
                edges.setdefault((here, room), f"{path.relative_to(root).as_posix()}: {name}")
    return edges


def _cycles(edges: dict[tuple[str, str], str]) -> list[list[str]]:
    """The groups of rooms that reach one another (Tarjan's strongly connected components of
    more than one room), each sorted."""
    following: dict[str, list[str]] = {}
    for here, there in edges:
        following.setdefault(here, []).append(there)
        following.setdefault(there, [])
    order: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(room: str) -> None:
        order[room] = lowest[room] = len(order)
        stack.append(room)
        for next_room in following[room]:
            if next_room not in order:
                visit(next_room)
                lowest[room] = min(lowest[room], lowest[next_room])
            elif next_room in stack:
                lowest[room] = min(lowest[room], order[next_room])
        if lowest[room] == order[room]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == room:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for room in sorted(following):
        if room not in order:
            visit(room)
    return sorted(groups)


def _upward(edges: dict[tuple[str, str], str]) -> list[str]:
    return sorted(
        f"{where} ({LAYERS[LAYER[here]][0]} imports {LAYERS[LAYER[there]][0]})"
        for (here, there), where in edges.items()
        if LAYER[here] < LAYER[there]
    )


@pytest.mark.parametrize(("modules", "package"), RULES, ids=[f"{modules} never imports {package}" for modules, package in RULES])
def test_imports_go_one_way(modules: str, package: str) -> None:
    assert _breaches(modules, package) == []


def test_every_room_has_a_layer() -> None:
    rooms = {_room(path, PACKAGE) for path in PACKAGE.rglob("*.py")}
    assert sorted(rooms - set(LAYER)) == [], "place each new room in LAYERS"
    assert sorted(set(LAYER) - rooms) == [], "LAYERS names a room the package no longer has"


def test_no_room_imports_a_layer_above_it() -> None:
    assert _upward(_graph()) == []


def test_no_two_rooms_import_each_other() -> None:
    assert _cycles(_graph()) == []


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


def test_an_upward_import_and_a_cycle_are_seen(tmp_path: Path) -> None:
    """A stage that reaches the corpus through a lazy import is both an upward import and, with
    the corpus importing the stage, a cycle; a name read from the package root is an import of
    the root, which imports the corpus."""
    (tmp_path / "export").mkdir()
    (tmp_path / "export" / "__init__.py").write_text("def f():\n    from paperpyramid.corpus import Corpus\n    return Corpus\n")
    (tmp_path / "corpus.py").write_text("from paperpyramid.export import f\n")
    (tmp_path / "__init__.py").write_text("from paperpyramid.corpus import Corpus\n")
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "stamp.py").write_text("from paperpyramid import __version__, corpus\n")
    (tmp_path / "llm").mkdir()
    (tmp_path / "llm" / "late.py").write_text("def f():\n    import paperpyramid\n    return paperpyramid\n")
    edges = _graph(tmp_path)
    assert _upward(edges) == [
        "db/stamp.py: paperpyramid.__version__ (parsers and the database imports the package's facade)",
        "db/stamp.py: paperpyramid.corpus (parsers and the database imports the corpus)",
        "export/__init__.py: paperpyramid.corpus (the stages imports the corpus)",
        "llm/late.py: paperpyramid (the model clients, the citation graph imports the package's facade)",
    ]
    assert _cycles(edges) == [["corpus", "export"]]
