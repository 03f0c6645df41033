"""The documentation tells the truth: the generated reference is the code's, every command, option
and setting is described, the names the pages write exist, their Python examples run, and the
site builds with warnings as errors.

The reference pages come from scripts/docs_reference.py; the prose pages are README.md and
docs/**/*.md. A ```python block runs unless the line before it is ``<!-- no-test -->``.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import typing
import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from paperpyramid.settings import EMBEDDER_NAMES, LLM_BACKENDS
from tests.conftest import SAMPLE

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = ".venv/bin/python scripts/docs_reference.py"


def _load_reference() -> Any:
    spec = importlib.util.spec_from_file_location("docs_reference", ROOT / "scripts" / "docs_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


reference = _load_reference()


def prose_pages() -> list[Path]:
    """README.md and every page of docs/ but the generated reference."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [page for page in pages if page.is_file() and "reference" not in page.relative_to(ROOT).parts]


def all_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# --------------------------------------------------------------------------------------------
# the generated reference


def test_reference_pages_are_what_the_code_writes():
    rendered = reference.render()
    stale = []
    for path, text in rendered.items():
        committed = (ROOT / path).read_text(encoding="utf-8") if (ROOT / path).is_file() else ""
        if committed != text:
            diff = "".join(list(difflib.unified_diff(committed.splitlines(True), text.splitlines(True), path, "from the code"))[:40])
            stale.append(f"{path} is stale:\n{diff}")
    assert not stale, f"run {REGENERATE}\n\n" + "\n".join(stale)


def test_reference_is_the_same_on_every_machine(monkeypatch):
    """No page depends on this machine: its environment, its CPU count, the order of a set."""
    first = reference.render()
    for name in [entry.env for entry in reference.iter_settings()][:5]:
        monkeypatch.setenv(name, "1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://elsewhere.invalid/v1")
    monkeypatch.setattr(os, "cpu_count", lambda: 977)
    second = reference.render()
    for path in first:
        assert first[path] == second[path], f"{path} changes with the machine it is written on"
        assert not re.search(r" at 0x[0-9a-f]{6,}", first[path]), f"{path} shows a memory address"
        assert "977" not in first[path]


def test_reference_check_names_the_stale_page(tmp_path):
    """``docs_reference.py --check`` fails, naming the page, when a page differs from the code."""
    pages = reference.render()
    for path, text in pages.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    assert reference.stale_pages(tmp_path) == []
    (tmp_path / "docs/reference/cli.md").write_text("# out of date\n", encoding="utf-8")
    assert reference.stale_pages(tmp_path) == ["docs/reference/cli.md"]


# --------------------------------------------------------------------------------------------
# the command line's own help


@functools.cache
def commands() -> tuple[Any, ...]:
    """The command tree, built once: typer builds it anew on every call."""
    return tuple(reference.iter_commands())


def test_every_command_and_option_has_help():
    missing = []
    for entry in commands():
        if not (entry.command.help or entry.command.short_help or "").strip():
            missing.append(f"{entry.name}: no help text")
        for param in reference.visible_params(entry):
            if not (getattr(param, "help", None) or "").strip():
                missing.append(f"{entry.name} {reference.param_display(param, entry.context)}: no help text")
    assert not missing, "\n".join(missing)


# how Python writes types, which a user should never have to read in --help
PYTHON_TYPE_NAMES = re.compile(
    r"<class |typing\.|NoneType|Optional\[|Union\[|pathlib\.|PosixPath|\b(?:list|dict|tuple|set|frozenset)\["
    r"|<(?:str|int|float|bool|bytes|path|file|dir|datetime|uuid|(?:int|float) range)>"
)
# a metavar: a plain word (PATH, TEXT, INTEGER, NAME, ...) or the list of choices
PLAIN_METAVAR = re.compile(r"[A-Z][A-Z0-9_-]*(?:\.\.\.)?|[<\[{][\w.:+-]+(?:\|[\w.:+-]+)+[>\]}](?:\.\.\.)?")


def test_help_shows_no_python_type_names():
    problems = []
    for entry in commands():
        text = entry.command.get_help(entry.context)
        for line in text.splitlines():
            found = PYTHON_TYPE_NAMES.search(line)
            if found:
                problems.append(f"{entry.name} --help shows {found.group(0)!r}: {line.strip()}")
        for param in reference.visible_params(entry):
            if reference.is_argument(param):
                name = param.metavar or param.name or ""
                if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
                    problems.append(f"{entry.name}: argument shown as {name!r}, not a plain word such as PATH or QUESTION")
                continue
            metavar = reference.param_metavar(param, entry.context)
            if metavar and not PLAIN_METAVAR.fullmatch(metavar):
                problems.append(
                    f"{entry.name} {'/'.join(param.opts)}: value shown as {metavar!r}, not a plain word (TEXT, INTEGER, PATH, NAME) or its choices"
                )
    assert not problems, "\n".join(problems)


#: options whose value is a name from a fixed set (issue 24: they show their choices and complete them)
NAMED_VALUE_OPTIONS = (
    "--mode",
    "--modes",
    "--strategy",
    "--level",
    "--parser",
    "--embedding-model",
    "--llm-backend",
    "--judge-backend",
    "--ocr",
    "--format",
)


def test_options_naming_a_fixed_set_show_and_complete_their_choices():
    problems = []
    seen = 0
    for entry in commands():
        for param in reference.visible_params(entry):
            if reference.is_argument(param) or not set(param.opts) & set(NAMED_VALUE_OPTIONS):
                continue
            seen += 1
            label = f"{entry.name} {'/'.join(param.opts)}"
            choices, _closed = reference.param_choices(param, entry.context)
            if not choices:
                problems.append(f"{label}: neither a choice nor completed (its names appear nowhere a shell or --help can list them)")
                continue
            shown = " ".join(param.get_help_record(entry.context))
            hidden = [choice for choice in choices if not re.search(rf"(?<![\w-]){re.escape(choice)}(?![\w-])", shown)]
            if hidden:
                problems.append(f"{label}: --help does not show {', '.join(hidden)}")
    assert seen >= 5, "the CLI should have --mode, --strategy, --level, --parser, --embedding-model, ..."
    assert not problems, "\n".join(problems)


#: option -> the setting that holds the same names (settings are the one source of names)
OPTION_SETTING = {
    "--embedding-model": ("embedding", "model"),
    "--llm-backend": ("llm", "backend"),
    "--judge-backend": ("llm", "backend"),
    "--ocr": ("ingest", "ocr"),
}


#: settings that take a built-in name or the import path of one's own: their built-in names
BUILT_IN_NAMES = {("embedding", "model"): EMBEDDER_NAMES, ("llm", "backend"): LLM_BACKENDS}


def _literal_names(path: tuple[str, ...]) -> tuple[str, ...] | None:
    if path in BUILT_IN_NAMES:
        return BUILT_IN_NAMES[path]
    model: Any = reference.settings_class()
    for part in path[:-1]:
        model = reference.configuration._model_of(model.model_fields[part].annotation)
    annotation = model.model_fields[path[-1]].annotation
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(str(arg) for arg in typing.get_args(annotation))
    return None


def test_cli_choices_are_the_settings_names():
    problems = []
    for entry in commands():
        for param in reference.visible_params(entry):
            for option in set(param.opts) & set(OPTION_SETTING):
                names = _literal_names(OPTION_SETTING[option])
                label = f"{entry.name} {option}"
                if names is None:
                    problems.append(f"{label}: the setting {'.'.join(OPTION_SETTING[option])} is no Literal to take the names from")
                    continue
                choices, _ = reference.param_choices(param, entry.context)
                if sorted(choices) != sorted(names):
                    problems.append(f"{label} offers {choices}, the setting {'.'.join(OPTION_SETTING[option])} accepts {list(names)}")
    assert not problems, "\n".join(problems)


def test_every_exported_name_and_its_public_methods_have_a_docstring():
    """The Python API page shows a docstring under every name and method, never a bare signature."""
    import inspect

    import paperpyramid

    missing = []
    for name in paperpyramid.__all__:
        value = getattr(paperpyramid, name)
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        if not reference.python_api._own_doc(value):
            missing.append(name)
        if inspect.isclass(value):
            for member, attribute, _owner in reference.python_api._public_members(value):
                function = getattr(attribute, "fget", None) or getattr(attribute, "func", None) or getattr(attribute, "__func__", attribute)
                if not inspect.getdoc(function):
                    missing.append(f"{name}.{member}")
    assert not missing, "no docstring: " + ", ".join(missing)


# --------------------------------------------------------------------------------------------
# settings


def test_every_setting_and_group_has_a_description():
    missing = [
        f"{'.'.join(entry.path)} ({entry.env})" for entry in reference.iter_settings() if not (entry.field.description or "").strip()
    ]
    missing += [f"group {'.'.join(path)}" for path, model, field in reference.iter_groups()
                if field is not None and not (field.description or "").strip() and not (model.__doc__ or "").strip()]  # fmt: skip
    assert not missing, "settings without a description:\n" + "\n".join(missing)


def _sample(field: Any) -> tuple[str, Any]:
    """A value for the field's variable, other than its default, and what the setting should then
    hold (call it with the environment cleared: a computed default may read it)."""
    default = field.get_default(call_default_factory=True)
    annotation = field.annotation
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, type(int | None)) and len(args) == 1:
        annotation = args[0]
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        options = [arg for arg in typing.get_args(annotation) if arg != default] or list(typing.get_args(annotation))
        return str(options[0]), options[0]
    if origin in (list, tuple):
        return '["docs-check"]', ["docs-check"] if origin is list else ("docs-check",)
    if annotation is bool:
        return ("false", False) if default is True else ("true", True)
    if annotation in (int, float):
        low = 0
        for item in field.metadata:
            low = max(low, getattr(item, "ge", None) or 0, (getattr(item, "gt", None) or -1) + 1)
        value = annotation(low + 3)
        while value == default:
            value += 1
        return str(value), value
    if annotation is Path:
        return "docs-check", Path("docs-check")
    return "docs-check", "docs-check"


def _read_setting(path: tuple[str, ...]) -> Any:
    from paperpyramid.settings import Settings

    node: Any = Settings()
    for part in path:
        node = getattr(node, part)
    return node


def _every_name() -> set[str]:
    names = set()
    for entry in reference.iter_settings():
        names |= {entry.env, *entry.aliases, *entry.deprecated}
    return names


def _check_variable(monkeypatch: pytest.MonkeyPatch, entry: Any, name: str) -> str | None:
    """None when setting ``name`` alone sets the entry's field; else what went wrong."""
    for other in _every_name():
        monkeypatch.delenv(other, raising=False)
    text, expected = _sample(entry.field)
    monkeypatch.setenv(name, text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            value = _read_setting(entry.path)
    except ValidationError as exc:
        # refused by the field's own check: then the variable was read, and reached that field
        if any(tuple(str(part) for part in error["loc"])[-1:] == (entry.path[-1],) for error in exc.errors()):
            return None
        return f"{name}={text}: {exc.errors()[0]['msg']}"
    finally:
        monkeypatch.delenv(name, raising=False)
    if value != expected:
        return f"{name}={text} left {'.'.join(entry.path)} = {value!r}"
    return None


def test_every_documented_variable_sets_its_setting(monkeypatch):
    """What the configuration page names works: each setting's variable, and each alias, sets it."""
    problems = []
    for entry in reference.iter_settings():
        for name in [entry.env, *entry.aliases]:
            problem = _check_variable(monkeypatch, entry, name)
            if problem:
                problems.append(problem)
    assert not problems, "\n".join(problems)


def test_deprecated_variables_still_work_and_say_what_replaced_them(monkeypatch):
    checked = 0
    problems = []
    for entry in reference.iter_settings():
        for old in entry.deprecated:
            checked += 1
            for other in _every_name():
                monkeypatch.delenv(other, raising=False)
            text, expected = _sample(entry.field)
            monkeypatch.setenv(old, text)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    value = _read_setting(entry.path)
                except ValidationError as exc:
                    value = f"refused: {exc.errors()[0]['msg']}"
            monkeypatch.delenv(old)
            if value != expected:
                problems.append(f"{old}={text} left {'.'.join(entry.path)} = {value!r}")
            if not any(issubclass(w.category, DeprecationWarning) and entry.env in str(w.message) for w in caught):
                problems.append(f"{old}: no DeprecationWarning naming {entry.env}")
    if not checked:
        pytest.skip("the settings declare no deprecated variable names")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------------------------
# the names the pages write


_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S
)
SHELL_LANGS = {"", "bash", "sh", "shell", "console", "zsh", "text"}


def code_blocks(page: Path) -> list[tuple[str, str, int, str]]:
    """(language, code, line of the code's first line, the line before the fence) per fenced block."""
    text = page.read_text(encoding="utf-8")
    blocks = []
    for match in _FENCE.finditer(text):
        indent = len(match.group("indent"))
        body = "\n".join(line[indent:] for line in match.group("body").splitlines())
        before = [line.strip() for line in text[: match.start()].splitlines() if line.strip()]
        blocks.append((match.group("lang").lower(), body, text.count("\n", 0, match.start()) + 2, before[-1] if before else ""))
    return blocks


def inline_code(page: Path) -> list[tuple[str, int]]:
    """Inline code spans outside fenced blocks, with their line numbers."""
    text = page.read_text(encoding="utf-8")
    outside = _FENCE.sub(lambda match: "\n" * match.group(0).count("\n"), text)
    return [
        (match.group(2), outside.count("\n", 0, match.start()) + 1)
        for match in re.finditer(r"(`+)(?!`)((?:(?!\n\s*\n).)+?)(?<!`)\1(?!`)", outside, re.S)
    ]


def command_lines(page: Path) -> list[tuple[str, int]]:
    """Every ``paperpyramid ...`` command line of the page's shell blocks and inline code."""
    found: list[tuple[str, int]] = []
    for lang, code, first, _ in code_blocks(page):
        if lang not in SHELL_LANGS:
            continue
        joined = re.sub(r"\\\n", " ", code)
        for offset, line in enumerate(joined.splitlines()):
            line = re.sub(r"^\s*\$\s+", "", line)
            if "paperpyramid " in line:
                found.append((line, first + offset))
    for span, line_number in inline_code(page):
        if re.match(r"\s*(?:\S*/)?paperpyramid\s", span):
            found.append((" ".join(span.replace("\\|", "|").split()), line_number))
    return found


def _tokens(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=True)
    except ValueError:  # an apostrophe in prose
        return line.split("#")[0].split()


def _invocations(line: str) -> list[list[str]]:
    """The words after ``paperpyramid`` of each command on a shell line."""
    out: list[list[str]] = []
    current: list[str] | None = None
    expecting_program = True
    for word in _tokens(line):
        if word in ("&&", "||", ";", "|", "&"):
            current, expecting_program = None, True
        elif expecting_program:
            if re.fullmatch(r"\w+=\S*", word) or word in ("sudo", "exec", "time", "uvx", "uv", "run", "pipx"):
                continue  # VAR=value and wrappers before the program
            expecting_program = False
            current = [] if word.rsplit("/", 1)[-1] == "paperpyramid" else None
            if current is not None:
                out.append(current)
        elif current is not None:
            current.append(word)
    return out


def _option_names(word: str) -> list[str]:
    """The option names a written word holds: ``--db``, ``[--embed/--no-embed]``, ``-k``."""
    word = word.strip("[](),.").removesuffix("...")
    names = []
    for piece in re.split(r"[|/]", word.split("=", 1)[0]):
        piece = piece.strip("[](),")
        if re.fullmatch(r"--?[a-zA-Z][\w-]*", piece):
            names.append(piece)
    return names


def check_invocation(words: list[str]) -> str | None:
    """None when ``paperpyramid WORDS`` names an existing command and only its options."""
    entries = {entry.path: entry for entry in commands()}
    path: tuple[str, ...] = ()
    options: list[tuple[tuple[str, ...], str]] = []
    for word in words:
        if word.startswith("-"):
            if word == "--":
                break
            options += [(path, name) for name in _option_names(word)]
            continue
        entry = entries[path]
        if entry.is_group and not options:
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                return None  # a placeholder such as COMMAND or <command>
            if (*path, word) not in entries:
                known = ", ".join(sub.path[-1] for sub in reference.iter_commands_of(entry))
                return f"no command {' '.join(('paperpyramid', *path, word))!r} (known: {known})"
            path = (*path, word)
    for where, name in options:
        entry = entries[where]
        known = {"--help"}
        for param in entry.command.get_params(entry.context):
            known |= {*param.opts, *param.secondary_opts}
        if name not in known:
            return f"{entry.name} has no option {name}"
    return None


def test_commands_and_options_in_the_docs_exist():
    problems = []
    checked = 0
    for page in all_pages():
        for line, number in command_lines(page):
            for words in _invocations(line):
                checked += 1
                problem = check_invocation(words)
                if problem:
                    problems.append(f"{rel(page)}:{number}: {problem}\n    {line.strip()}")
    assert checked, "the README should show commands"
    assert not problems, "\n".join(problems)


def test_every_command_is_shown_in_the_readme_or_a_guide():
    written: set[tuple[str, ...]] = set()
    for page in prose_pages():
        for line, _ in command_lines(page):
            for words in _invocations(line):
                path: tuple[str, ...] = ()
                for word in words:
                    if word.startswith("-"):
                        break
                    path = (*path, word)
                    written.add(path)
    missing = [entry.name for entry in commands() if entry.path and entry.path not in written]
    assert not missing, "commands no page shows at work: " + ", ".join(missing)


# a variable, or the start of a family of them: PAPERPYRAMID_SERVE__*, PAPERPYRAMID_S3__<FIELD>
_ENV_IN_TEXT = re.compile(r"PAPERPYRAMID_[A-Z0-9_]*[A-Z0-9](?:_*[*<])?|PAPERPYRAMID_+[*<]")


def test_environment_variables_in_the_docs_exist():
    names = _every_name()
    problems = []
    for page in all_pages():
        text = page.read_text(encoding="utf-8").replace("\\_", "_").replace("\\*", "*")
        for match in _ENV_IN_TEXT.finditer(text):
            written = match.group(0)
            family = written.endswith(("*", "<"))
            ok = any(name.startswith(written[:-1]) for name in names) if family else written in names
            if not ok:
                problems.append(f"{rel(page)}:{text.count(chr(10), 0, match.start()) + 1}: {written} is no setting's variable")
    assert not problems, "\n".join(problems)


def test_the_docs_write_no_deprecated_variable_alone():
    """An old variable name (still read, with a warning) appears only beside the name that
    replaced it, as in the configuration page's table of deprecated variables."""
    replaced = reference.deprecated_env()
    problems = []
    for page in all_pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").replace("\\_", "_").splitlines(), 1):
            for old, new in replaced.items():
                if re.search(rf"(?<![A-Z0-9_]){old}(?![A-Z0-9_])", line) and new not in line:
                    problems.append(f"{rel(page)}:{number}: {old} (set {new} instead)")
    assert not problems, "\n".join(problems)


def test_the_docs_send_no_one_to_the_development_folder():
    """``../shared`` holds the project's development material, which users do not have."""
    problems = [
        f"{rel(page)}:{number}: {line.strip()[:160]}"
        for page in all_pages()
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if "../shared" in line
    ]
    assert not problems, "\n".join(problems)


def test_exit_codes_are_documented():
    codes = {code for code, _name, _meaning in reference.exit_codes()[0]}
    assert {0, 1, 2, 3} <= codes
    page = (ROOT / "docs/reference/cli.md").read_text(encoding="utf-8")
    for code in sorted(codes):
        assert re.search(rf"^\| {code} \|", page, re.M), f"exit status {code} is missing from docs/reference/cli.md"


# --------------------------------------------------------------------------------------------
# the examples run


NO_TEST = "<!-- no-test -->"


def python_examples() -> list[tuple[Path, list[tuple[int, str]]]]:
    pages = []
    for page in prose_pages():
        blocks = [(line, code) for lang, code, line, before in code_blocks(page) if lang in ("python", "py") and before != NO_TEST]
        if blocks:
            pages.append((page, blocks))
    return pages


@pytest.fixture(scope="module")
def sample_corpus(tmp_path_factory) -> Path:
    """A folder holding ./sample (the three sample papers) and ./sample.sqlite, ingested from it
    with embedding on, as the docs' examples expect to find them."""
    folder = tmp_path_factory.mktemp("docs-sample")
    shutil.copytree(SAMPLE, folder / "sample")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PAPERPYRAMID_INGEST__EMBED": "true"}
    result = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "ingest", "sample", "--db", "sample.sqlite"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0 and (folder / "sample.sqlite").is_file(), result.stderr[-3000:]
    return folder


_RUNNER = """
import json, sys
blocks = json.load(open(sys.argv[1]))
namespace = {"__name__": "__main__"}
for page, line, code in blocks:
    exec(compile(code, f"{page}, the python block at line {line}", "exec"), namespace)
"""


@pytest.mark.llm
@pytest.mark.slow
@pytest.mark.parametrize("page, blocks", python_examples(), ids=[rel(page) for page, _ in python_examples()])
def test_python_examples_run(page, blocks, sample_corpus, tmp_path):
    """Each page's Python blocks, in order and sharing one namespace, in a folder holding
    ./sample and ./sample.sqlite (a fresh copy per page, so a page that writes changes no other)."""
    workdir = tmp_path / "work"
    shutil.copytree(sample_corpus, workdir)
    program = tmp_path / "blocks.json"
    program.write_text(json.dumps([(rel(page), line, code) for line, code in blocks]))
    # a fresh response cache: the examples' model calls are made, not read back from an earlier run
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(program)], cwd=workdir, env=env, capture_output=True, text=True, timeout=1200
    )
    assert result.returncode == 0, f"{rel(page)}: an example failed\n{result.stderr[-4000:]}"


def test_the_readme_shows_python():
    pages = dict(python_examples())
    assert ROOT / "README.md" in pages, "the README should show the Python API in a ```python block that runs"


# --------------------------------------------------------------------------------------------
# the site


@pytest.mark.slow
def test_site_builds_with_warnings_as_errors(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs and mkdocs-material are not installed (pip install 'paperpyramid[docs]')")
    assert (ROOT / "mkdocs.yml").is_file(), "mkdocs.yml is missing: the docs site has no configuration"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "site" / "reference" / "cli" / "index.html").is_file() or (tmp_path / "site" / "reference" / "cli.html").is_file()
