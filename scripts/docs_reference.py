"""Write the documentation's reference pages from the code, so that they cannot drift from it.

    docs/reference/cli.md            every command, subcommand, argument and option (walked from click)
    docs/reference/configuration.md  every setting at every depth, with its environment variable
    docs/reference/python-api.md     every name ``paperpyramid`` exports, with signatures and docstrings

Run ``.venv/bin/python scripts/docs_reference.py`` after changing the CLI, the settings or the
public API; ``--check`` writes nothing and exits 1 naming each page that differs from what it
would write (tests/test_docs.py runs the same check).

Everything is read from the live objects (click's command tree, the pydantic models' fields,
``paperpyramid.__all__``), never from a list kept here; the pages hold no machine's values (a
default computed at run time, such as the CPU count, is shown as computed), no addresses and no
dates, so two machines write the same bytes.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import enum
import functools
import importlib
import inspect
import re
import sys
import tempfile
import textwrap
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the package is the checkout's
    sys.path.insert(0, str(ROOT))

REGENERATE = ".venv/bin/python scripts/docs_reference.py"
_NOTICE = f"<!-- Generated from the code by scripts/docs_reference.py: do not edit; run {REGENERATE} -->"

# --------------------------------------------------------------------------------------------
# Markdown text


_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|data|attr|mod|exc|obj|const):`~?([^`]+)`")
# names worth showing as code when prose gives them bare: environment variables and --options
_ENV_NAME = re.compile(r"(?<![\w$`])\$?[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?:_*\*)?(?:=[\w.:/-]+)?(?![\w`*])")
_OPTION_NAME = re.compile(r"(?<![\w`/-])--[a-z][a-z0-9-]*(?:/--[a-z][a-z0-9-]*)?(?![\w`])")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    return f"`{target.rsplit('.', 1)[-1] if '~' in match.group(0) else target}`"


def _escape_prose(text: str, table: bool) -> str:
    text = text.replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for char in "*_[]":
        text = text.replace(char, "\\" + char)
    if table:
        text = text.replace("|", "\\|")
    return text


def md_inline(text: str, *, table: bool = False) -> str:
    """``text`` (a help string or a docstring's paragraph) as Markdown that shows it as written:
    code spans kept, Sphinx roles made code, bare environment variables and --options made code,
    everything else escaped (``<id>`` is not HTML, ``*.pdf`` not emphasis)."""
    text = _SPHINX_ROLE.sub(_role, text)
    pieces: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        pieces.append(_prose(text[last : match.start()], table))
        pieces.append(_code(match.group(2).strip() if match.group(1) == "``" else match.group(2)))
        last = match.end()
    pieces.append(_prose(text[last:], table))
    return "".join(pieces)


def _prose(text: str, table: bool) -> str:
    out: list[str] = []
    last = 0
    for match in sorted([*_ENV_NAME.finditer(text), *_OPTION_NAME.finditer(text)], key=lambda m: m.start()):
        if match.start() < last:
            continue
        out.append(_escape_prose(text[last : match.start()], table))
        out.append(_code(match.group(0)))
        last = match.end()
    out.append(_escape_prose(text[last:], table))
    return "".join(out)


def _code(text: str) -> str:
    """A code span that holds ``text`` whatever backticks it contains."""
    text = " ".join(text.split())
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(text: str | None) -> str:
    """A docstring or a command's help as Markdown paragraphs: prose paragraphs joined and
    escaped, list items kept one a line, indented blocks (and the block after ``::``) as code."""
    if not text:
        return ""
    text = inspect.cleandoc(text)
    paragraphs = re.split(r"\n\s*\n", text)
    out: list[str] = []
    literal_next = False
    for paragraph in paragraphs:
        lines = [line for line in paragraph.splitlines() if line.strip() != "\b"]  # click's no-rewrap marker
        if not lines:
            continue
        if literal_next or all(line.startswith("    ") for line in lines):
            out.append("```text\n" + textwrap.dedent("\n".join(lines)).rstrip() + "\n```")
            literal_next = False
            continue
        joined = "\n".join(lines)
        if joined.rstrip().endswith("::"):
            literal_next = True
            joined = joined.rstrip()[:-1]
        if re.match(r"\s*(?:[-*] |\d+\. )", lines[0]):
            items: list[str] = []
            for line in lines:
                item = re.match(r"\s*([-*]|\d+\.) (.*)", line)
                if item:
                    items.append(f"{'-' if item.group(1) in '-*' else item.group(1)} {md_inline(item.group(2))}")
                elif items:
                    items[-1] += " " + md_inline(line.strip())
            out.append("\n".join(items))
        else:
            out.append(md_inline(" ".join(line.strip() for line in joined.splitlines())))
    return "\n\n".join(out)


def first_paragraph(text: str | None) -> str:
    return re.split(r"\n\s*\n", inspect.cleandoc(text))[0] if text else ""


def first_sentence(text: str | None) -> str:
    """The first sentence of the first paragraph, on one line (a stop after a word of two letters
    or more, before a capital, ends it: "p. N" does not)."""
    paragraph = " ".join(first_paragraph(text).split())
    return re.split(r"(?<=[a-z0-9)\]]{2})\.\s+(?=[A-Z])", paragraph, maxsplit=1)[0].rstrip(".") + "." if paragraph else ""


# --------------------------------------------------------------------------------------------
# The command line


@dataclasses.dataclass
class CommandEntry:
    """One command of the tree: its words after ``paperpyramid`` and the click objects to ask."""

    path: tuple[str, ...]
    command: Any
    context: Any

    @property
    def name(self) -> str:
        return " ".join(("paperpyramid", *self.path))

    @property
    def is_group(self) -> bool:
        return hasattr(self.command, "list_commands")


def cli_root() -> Any:
    """The click command ``paperpyramid`` runs: ``paperpyramid.cli.get_command()`` where the CLI
    defines it (the app as ``main`` runs it), else what typer builds from ``paperpyramid.cli.app``."""
    import typer.main

    from paperpyramid import cli

    build = getattr(cli, "get_command", None)
    return build() if callable(build) else typer.main.get_command(cli.app)


def iter_commands(root: Any | None = None) -> Iterator[CommandEntry]:
    """Every visible command, depth first, in the order ``--help`` lists them."""
    root = cli_root() if root is None else root
    yield from _walk(root, root.context_class(root, info_name="paperpyramid"), ())


def _walk(command: Any, context: Any, path: tuple[str, ...]) -> Iterator[CommandEntry]:
    yield CommandEntry(path, command, context)
    if not hasattr(command, "list_commands"):
        return
    for name in command.list_commands(context):
        sub = command.get_command(context, name)
        if sub is None or getattr(sub, "hidden", False):
            continue
        yield from _walk(sub, type(context)(sub, info_name=name, parent=context), (*path, name))


def visible_params(entry: CommandEntry) -> list[Any]:
    """The command's arguments and options, without ``--help`` (every command has it)."""
    help_names = set(getattr(entry.context, "help_option_names", ["--help"]))
    return [p for p in entry.command.get_params(entry.context) if not getattr(p, "hidden", False) and not (set(p.opts) & help_names)]


def is_argument(param: Any) -> bool:
    return getattr(param, "param_type_name", "") == "argument"


def param_metavar(param: Any, context: Any) -> str:
    """The placeholder ``--help`` shows for the param's value ("" for a flag)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    if is_argument(param):
        if param.metavar:
            return str(param.metavar)
        name = param.name.upper() if param.name else ""
        return name + ("..." if param.nargs != 1 else "")
    if hasattr(param, "display_type_rich"):  # typer's own parameters
        return str(param.display_type_rich(ctx=context) or "")
    return str(param.make_metavar(context))


def param_display(param: Any, context: Any) -> str:
    """How ``--help`` writes the param: ``--db PATH``, ``-k, --k INTEGER``, ``--embed / --no-embed``."""
    record = param.get_help_record(context)
    if record is not None:
        return " ".join(record[0].split())
    metavar = param_metavar(param, context)
    if is_argument(param):
        return metavar
    first = ", ".join(param.opts) + (f" {metavar}" if metavar else "")
    return " / ".join([first, *([", ".join(param.secondary_opts)] if param.secondary_opts else [])])


def param_choices(param: Any, context: Any) -> tuple[list[str], bool]:
    """(the values, whether they are the only ones accepted): a choice type's values, else the
    values shell completion offers (an option that also takes other values, such as a parser's
    import path); ``([], False)`` when there are none."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and getattr(descriptor, "is_choice", False) and descriptor.choices is not None:
        return [_choice_text(choice) for choice in descriptor.choices], True
    choices = getattr(getattr(param, "type", None), "choices", None)
    if choices:
        return [_choice_text(choice) for choice in choices], True
    # in an empty folder: a completer that lists files (or a corpus's ids) must not write this machine's into the page
    with tempfile.TemporaryDirectory() as empty, contextlib.chdir(empty):
        completions = [item for item in param.shell_complete(context, "") if getattr(item, "type", "plain") == "plain"]
    return [str(item.value) for item in completions if str(item.value)], False


def _choice_text(choice: Any) -> str:
    return str(choice.value) if isinstance(choice, enum.Enum) else str(choice)


def param_default(param: Any) -> str | None:
    """The default as ``--help`` would name it, or None where there is none to show."""
    default = param.default
    if callable(default) and not isinstance(default, type):
        return "computed when the command runs"
    if getattr(param, "is_flag", False):
        if param.secondary_opts:
            switch = param.opts if default else param.secondary_opts
            return switch[-1] if default is not None else None
        return None  # a plain flag is off unless given
    if default is None or default == () or default == []:
        return None
    if isinstance(default, (list, tuple)):
        return ", ".join(_choice_text(item) for item in default)
    return _choice_text(default)


def param_envvars(param: Any) -> list[str]:
    envvar = param.envvar
    if not envvar:
        return []
    return [envvar] if isinstance(envvar, str) else list(envvar)


#: what each exit status means, as issue 24 decided; the names come from the code when it defines them
EXIT_MEANINGS = {
    0: "All done.",
    1: "Some inputs failed (for example an ingest in which some PDFs failed); the rest were done and the failures are recorded.",
    2: "Usage error: an unknown command or option, or a value it does not accept.",
    3: "Configuration error or outage: settings that cannot work, a service or endpoint that is down, a corpus that cannot be opened.",
}


def exit_codes() -> tuple[list[tuple[int, str, str]], str | None]:
    """(code, name in the code, meaning) for each exit status, and where they were read from:
    an ``EXIT_CODES`` mapping, an ``IntEnum`` whose name holds "Exit", or ``EXIT_*`` constants in
    ``paperpyramid.cli`` or ``paperpyramid.errors``; with none there, the decided meanings alone."""
    for module_name in ("paperpyramid.cli", "paperpyramid.errors"):
        module = importlib.import_module(module_name)
        mapping = getattr(module, "EXIT_CODES", None)
        if isinstance(mapping, Mapping) and mapping:
            return [(int(code), "", str(text)) for code, text in sorted(mapping.items())], f"{module_name}.EXIT_CODES"
        for name, value in sorted(vars(module).items()):
            if isinstance(value, type) and issubclass(value, enum.IntEnum) and "exit" in name.lower() and value.__module__ == module_name:
                rows = [(int(member), member.name, EXIT_MEANINGS.get(int(member), _humane(member.name))) for member in value]
                return sorted(rows), f"{module_name}.{name}"
        constants = [
            (value, name)
            for name, value in vars(module).items()
            if name.startswith("EXIT_") and isinstance(value, int) and not isinstance(value, bool)
        ]
        if constants:
            rows = [(code, name, EXIT_MEANINGS.get(code, _humane(name.removeprefix("EXIT_")))) for code, name in constants]
            return sorted(rows), f"{module_name}.EXIT_*"
    return [(code, "", text) for code, text in EXIT_MEANINGS.items()], None


def _humane(name: str) -> str:
    return name.replace("_", " ").capitalize() + "."


def cli_page() -> str:
    entries = list(iter_commands())
    lines = [
        "# Command line",
        "",
        _NOTICE,
        "",
        "Every command of `paperpyramid`, with every argument and option, as `paperpyramid COMMAND --help` "
        "prints them. Every command also takes `--help`.",
        "",
    ]
    codes, _ = exit_codes()
    lines += ["## Exit codes", "", "| Status | Meaning |", "|---|---|"]
    lines += [f"| {code} | {md_inline(text, table=True)} |" for code, _name, text in codes]
    lines.append("")
    for entry in entries:
        lines += _command_section(entry)
    return "\n".join(lines).rstrip() + "\n"


def _command_section(entry: CommandEntry) -> list[str]:
    command, context = entry.command, entry.context
    depth = min(2 + max(len(entry.path) - 1, 0), 4)
    lines = [f"{'#' * depth} {entry.name}", ""]
    help_text = command.help or command.short_help or ""
    if help_text:
        lines += [md_block(help_text), ""]
    usage = command.get_usage(context).strip()
    lines += ["```text", usage, "```", ""]
    if entry.is_group:
        subcommands = [sub for sub in iter_commands_of(entry)]
        if subcommands:
            lines += ["**Commands**", ""]
            for sub in subcommands:
                summary = first_sentence(sub.command.short_help or sub.command.help)
                lines.append(f"- [`{sub.path[-1]}`](#{_anchor(sub.name)}): {md_inline(summary)}")
            lines.append("")
    params = visible_params(entry)
    arguments = [p for p in params if is_argument(p)]
    options = [p for p in params if not is_argument(p)]
    for title, group in (("Arguments", arguments), ("Options", options)):
        if group:
            lines += [f"**{title}**", ""]
            lines += [_param_line(param, context) for param in group]
            lines.append("")
    return lines


def iter_commands_of(entry: CommandEntry) -> Iterator[CommandEntry]:
    for sub in _walk(entry.command, entry.context, entry.path):
        if len(sub.path) == len(entry.path) + 1:
            yield sub


def _anchor(heading: str) -> str:
    # MkDocs' toc slug: lower case, punctuation dropped, spaces to hyphens
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower())


def _param_line(param: Any, context: Any) -> str:
    parts = [md_inline(" ".join((param.help or "").split()))] if getattr(param, "help", None) else []
    choices, closed = param_choices(param, context)
    if choices:
        label = "Choices" if closed else "Known values"
        parts.append(f"{label}: {', '.join(_code(choice) for choice in choices)}.")
    default = param_default(param)
    if default is not None:
        parts.append(f"Default: {_code(default)}.")
    envvars = param_envvars(param)
    if envvars:
        parts.append(f"Environment variable: {', '.join(_code(name) for name in envvars)}.")
    if param.required:
        parts.append("Required.")
    if getattr(param, "multiple", False):
        parts.append("May be repeated.")
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None or high is not None:
        parts.append(_range_words(low, high) + ".")
    body = " ".join(part for part in parts if part)
    return f"- {_code(param_display(param, context))}" + (f": {body}" if body else "")


def _range_words(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"From {low} to {high}"
    return f"At least {low}" if low is not None else f"At most {high}"


# --------------------------------------------------------------------------------------------
# Configuration


@dataclasses.dataclass
class SettingEntry:
    """One setting: its place in ``Settings``, its environment variable and the other names read."""

    path: tuple[str, ...]
    field: Any  # pydantic FieldInfo
    model: type
    env: str
    aliases: list[str]
    deprecated: list[str]


def settings_class() -> type:
    from paperpyramid.settings import Settings

    return Settings


def _env_scheme(settings: type) -> tuple[str, str]:
    config = settings.model_config  # type: ignore[attr-defined]
    return str(config.get("env_prefix", "")), str(config.get("env_nested_delimiter") or "__")


def _model_of(annotation: Any) -> type | None:
    """The pydantic model a field holds (also inside ``X | None``), else None."""
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        models = [arg for arg in typing.get_args(annotation) if isinstance(arg, type) and issubclass(arg, BaseModel)]
        return models[0] if len(models) == 1 else None
    return None


def deprecated_env() -> dict[str, str]:
    """old variable -> the variable that replaced it, from any mapping named ``*DEPRECATED*`` in
    ``paperpyramid.settings`` or ``paperpyramid.env`` (either direction, values variables or
    dotted setting paths)."""
    found: dict[str, str] = {}
    prefix, delimiter = _env_scheme(settings_class())
    canonical = {entry.env for entry in _walk_settings(settings_class(), (), prefix, delimiter, {})}
    for module_name in ("paperpyramid.settings", "paperpyramid.env"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        for name, mapping in vars(module).items():
            if "DEPRECATED" not in name.upper() or not isinstance(mapping, Mapping):
                continue
            for key, value in mapping.items():
                olds, new = _deprecation_pair(key, value, canonical, prefix, delimiter)
                if new is None:
                    raise ValueError(f"{module_name}.{name}[{key!r}] = {value!r} names no setting of {sorted(canonical)[:3]}...")
                for old in olds:
                    found[old] = new
    return dict(sorted(found.items()))


def _deprecation_pair(key: Any, value: Any, canonical: set[str], prefix: str, delimiter: str) -> tuple[list[str], str | None]:
    def as_env(item: Any) -> str | None:
        if isinstance(item, (tuple, list)) and all(isinstance(part, str) for part in item):
            item = ".".join(item)
        if not isinstance(item, str):
            return None
        if item.upper() in canonical:
            return item.upper()
        dotted = (prefix + delimiter.join(item.split("."))).upper()
        return dotted if dotted in canonical else None

    if as_env(value) is not None and isinstance(key, str):
        return [key], as_env(value)
    if as_env(key) is not None:
        olds = [value] if isinstance(value, str) else list(value)
        return [str(old) for old in olds], as_env(key)
    return [], None


def iter_settings() -> list[SettingEntry]:
    """Every leaf setting at every depth, in the models' order, with its names."""
    settings = settings_class()
    prefix, delimiter = _env_scheme(settings)
    replaced: dict[str, list[str]] = {}
    for old, new in deprecated_env().items():
        replaced.setdefault(new, []).append(old)
    return list(_walk_settings(settings, (), prefix, delimiter, replaced))


def iter_groups() -> list[tuple[tuple[str, ...], type, Any]]:
    """(path, model, the field holding it) of ``Settings`` and every nested group, in order."""
    settings = settings_class()
    groups: list[tuple[tuple[str, ...], type, Any]] = [((), settings, None)]

    def walk(model: type, path: tuple[str, ...]) -> None:
        for name, field in model.model_fields.items():  # type: ignore[attr-defined]
            sub = _model_of(field.annotation)
            if sub is not None:
                groups.append(((*path, name), sub, field))
                walk(sub, (*path, name))

    walk(settings, ())
    return groups


def _walk_settings(
    model: type, path: tuple[str, ...], prefix: str, delimiter: str, replaced: dict[str, list[str]]
) -> Iterator[SettingEntry]:
    for name, field in model.model_fields.items():  # type: ignore[attr-defined]
        sub = _model_of(field.annotation)
        if sub is not None:
            yield from _walk_settings(sub, (*path, name), prefix, delimiter, replaced)
            continue
        env = (prefix + delimiter.join((*path, name))).upper()
        yield SettingEntry((*path, name), field, model, env, _aliases(field, name, env), sorted(replaced.get(env, [])))


def _aliases(field: Any, name: str, env: str) -> list[str]:
    """Other variables the field is read from: its validation aliases, and the variables its
    computed default reads."""
    from pydantic import AliasChoices

    names: list[str] = []
    alias = field.validation_alias
    choices = alias.choices if isinstance(alias, AliasChoices) else [alias] if alias else []
    for choice in choices:
        if isinstance(choice, str):
            names.append(choice)
    names += _factory_env_names(field.default_factory)
    return [n for n in dict.fromkeys(names) if n.lower() != name.lower() and n.upper() != env]


def _factory_env_names(factory: Callable[..., Any] | None) -> list[str]:
    """Environment variable names a ``default_factory`` reads (the constants in its code)."""
    code = getattr(factory, "__code__", None)
    if code is None:
        return []
    return [const for const in code.co_consts if isinstance(const, str) and re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", const)]


def type_words(annotation: Any, metadata: list[Any] | None = None) -> str:
    """A field's type in plain words: text, integer, number, true/false, one of: a, b, ...;
    with its bounds ("integer, at least 1")."""
    words = _type_words(annotation)
    bounds = []
    for item in metadata or []:
        for attr, word in (("ge", "at least"), ("gt", "more than"), ("le", "at most"), ("lt", "less than")):
            value = getattr(item, attr, None)
            if value is not None:
                bounds.append(f"{word} {value}")
        pattern = getattr(item, "pattern", None)
        if isinstance(pattern, str):
            bounds.append(f"matching {_code(pattern)}")
    return ", ".join([words, *bounds])


def _type_words(annotation: Any) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        rest = [arg for arg in args if arg is not type(None)]
        inner = " or ".join(_type_words(arg) for arg in rest)
        return f"optional {inner}" if len(rest) < len(args) else inner
    if origin is typing.Literal:
        return "one of: " + ", ".join(str(arg) for arg in args)
    if origin is typing.Annotated:
        return _type_words(args[0])
    if origin in (list, tuple, set, frozenset) or annotation in (list, tuple, set):
        element = [arg for arg in args if arg is not Ellipsis]
        return "list of " + (_type_words(element[0]) if element else "values") + " (JSON)"
    if origin is dict or annotation is dict:
        return "mapping (JSON)"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of: " + ", ".join(str(member.value) for member in annotation)
    simple = {str: "text", int: "integer", float: "number", bool: "true/false", Path: "path"}
    if annotation in simple:
        return simple[annotation]
    return getattr(annotation, "__name__", str(annotation)).lower()


def setting_default(field: Any, own_env: str = "") -> str:
    """The default in words; a ``default_factory`` is never called here (it may read this
    machine: its CPU count, its environment)."""
    factory = field.default_factory
    if factory is not None:
        if factory in (list, tuple, set):
            return "[] (empty)"
        if factory is dict:
            return "{} (empty)"
        reads = [name for name in _factory_env_names(factory) if name != own_env]
        doc = inspect.getdoc(factory) if not getattr(factory, "__name__", "").startswith("<") else None
        if reads:
            return "computed: " + ", ".join(_code(name) for name in reads) + " when set (see the description)"
        if doc:
            return "computed: " + md_inline(first_paragraph(doc), table=True)
        return "computed when the settings are read (see the description)"
    default = field.default
    if default is None:
        return "none"
    if isinstance(default, bool):
        return _code("true" if default else "false")
    if isinstance(default, enum.Enum):
        return _code(str(default.value))
    if isinstance(default, (list, tuple)):
        return _code(_json_list(default))
    if default == "":
        return "empty"
    return _code(str(default))


def _json_list(values: Any) -> str:
    import json

    return json.dumps(list(values))


def configuration_page() -> str:
    settings = settings_class()
    prefix, delimiter = _env_scheme(settings)
    entries = iter_settings()
    by_group: dict[tuple[str, ...], list[SettingEntry]] = {}
    for entry in entries:
        by_group.setdefault(entry.path[:-1], []).append(entry)
    lines = [
        "# Configuration",
        "",
        _NOTICE,
        "",
        md_inline(
            f"Every setting, and the environment variable that sets it: `{prefix}<GROUP>{delimiter}<FIELD>`, "
            f"nested groups joined with `{delimiter}`, in any case."
        )
        + " "
        'Values are written as text: true/false also as 1/0, yes/no or on/off; a list as JSON, for example `["a", "b"]`. '
        "The same settings can be passed in Python as `Settings(ingest=IngestSettings(...))`.",
        "",
    ]
    for path, model, field in iter_groups():
        rows = by_group.get(path)
        if not rows:
            continue
        title = ".".join(path) if path else "Settings"
        lines += [f"## {title}", ""]
        # the group's own docstring says most; else the description of the field that holds it
        about = model.__doc__ if "__doc__" in vars(model) and model.__doc__ else field.description if field is not None else None
        if about:
            lines += [md_block(about), ""]
        lines += ["| Variable | Type | Default | Description | Also read |", "|---|---|---|---|---|"]
        for entry in rows:
            also = [_code(name) for name in entry.aliases] + [f"{_code(name)} (deprecated)" for name in entry.deprecated]
            lines.append(
                f"| {_code(entry.env)} | {md_inline(type_words(entry.field.annotation, entry.field.metadata), table=True)} "
                f"| {setting_default(entry.field, entry.env)} | {md_inline(' '.join((entry.field.description or '').split()), table=True)} "
                f"| {', '.join(also)} |"
            )
        lines.append("")
    old = deprecated_env()
    if old:
        lines += [
            "## Deprecated variables",
            "",
            "Still read, with a `DeprecationWarning` naming the variable to set instead; the new name wins when both are set.",
            "",
            "| Old variable | Set instead |",
            "|---|---|",
        ]
        lines += [f"| {_code(name)} | {_code(new)} |" for name, new in old.items()]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------------------------
# The Python API


class _Raw(str):
    """Text that ``inspect.Signature`` prints as is (an annotation string, a cleaned default)."""

    def __repr__(self) -> str:
        return str(self)


def _annotation_text(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    return inspect.formatannotation(annotation)


def _default_text(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if inspect.isfunction(value) or inspect.isclass(value):
        return value.__qualname__
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


def format_signature(name: str, obj: Callable[..., Any], *, drop_first: bool = False) -> str:
    """``name(params) -> return``, annotations as written, one parameter a line when long."""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return f"{name}(...)"
    params = list(signature.parameters.values())[1 if drop_first else 0 :]
    params = [
        p.replace(
            annotation=p.empty if p.annotation is p.empty else _Raw(_annotation_text(p.annotation)),
            default=p.empty if p.default is p.empty else _Raw(_default_text(p.default)),
        )
        for p in params
    ]
    returns = signature.return_annotation
    signature = signature.replace(
        parameters=params, return_annotation=signature.empty if returns is signature.empty else _Raw(_annotation_text(returns))
    )
    text = f"{name}{signature}"
    if len(text) <= 100:
        return text
    # the / and * markers placed as inspect.Signature places them
    pieces: list[str] = []
    positional_only_open, keyword_marker_due = False, True
    for param in params:
        if param.kind is param.POSITIONAL_ONLY:
            positional_only_open = True
        elif positional_only_open:
            pieces.append("/")
            positional_only_open = False
        if param.kind is param.VAR_POSITIONAL:
            keyword_marker_due = False
        elif param.kind is param.KEYWORD_ONLY and keyword_marker_due:
            pieces.append("*")
            keyword_marker_due = False
        pieces.append(str(param))
    if positional_only_open:
        pieces.append("/")
    tail = "" if signature.return_annotation is signature.empty else f" -> {signature.return_annotation}"
    return f"{name}(\n" + "".join(f"    {piece},\n" for piece in pieces) + f"){tail}"


def _own_doc(obj: Any) -> str | None:
    """The docstring written for ``obj`` (not a dataclass's generated one, not one inherited from
    outside the package)."""
    doc = obj.__doc__ if isinstance(obj, type) and "__doc__" in vars(obj) else inspect.getdoc(obj)
    if not doc:
        return None
    if isinstance(obj, type) and dataclasses.is_dataclass(obj) and doc.startswith(f"{obj.__name__}("):
        return None
    return inspect.cleandoc(doc)


def _field_comments(cls: type) -> dict[str, str]:
    """``#:`` comments above the fields of a class, by field name."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    comments: dict[str, str] = {}
    for node in ast.parse(source).body[0].body:  # type: ignore[attr-defined]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found: list[str] = []
            number = node.lineno - 2
            while number >= 0 and lines[number].strip().startswith("#:"):
                found.insert(0, lines[number].strip()[2:].strip())
                number -= 1
            if found:
                comments[node.target.id] = " ".join(found)
    return comments


def _fields_table(cls: type) -> list[str]:
    from pydantic import BaseModel

    rows: list[tuple[str, str, str, str]] = []
    comments = _field_comments(cls)
    if dataclasses.is_dataclass(cls):
        for field in dataclasses.fields(cls):
            if field.default is not dataclasses.MISSING:
                default = _code(_default_text(field.default))
            elif field.default_factory is not dataclasses.MISSING:
                default = "computed"
            else:
                default = "required"
            rows.append((field.name, _annotation_text(field.type), default, comments.get(field.name, "")))
    elif isinstance(cls, type) and issubclass(cls, BaseModel):
        for name, info in cls.model_fields.items():
            if info.default_factory is not None:
                default = "computed"
            elif info.is_required():
                default = "required"
            else:
                default = _code(_default_text(info.default))
            rows.append((name, _annotation_text(info.annotation), default, info.description or comments.get(name, "")))
    elif isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        hints = getattr(cls, "__annotations__", {})
        defaults = getattr(cls, "_field_defaults", {})
        for name in cls._fields:
            default = _code(_default_text(defaults[name])) if name in defaults else "required"
            rows.append((name, _annotation_text(hints.get(name, "")), default, comments.get(name, "")))
    if not rows:
        return []
    if any(about for *_, about in rows):
        lines = ["| Field | Type | Default | About |", "|---|---|---|---|"]
        lines += [
            f"| {_code(name)} | {_code(kind) if kind else ''} | {default} | {md_inline(' '.join(about.split()), table=True)} |"
            for name, kind, default, about in rows
        ]
    else:
        lines = ["| Field | Type | Default |", "|---|---|---|"]
        lines += [f"| {_code(name)} | {_code(kind) if kind else ''} | {default} |" for name, kind, default, _ in rows]
    return [*lines, ""]


def _public_members(cls: type) -> list[tuple[str, Any, type]]:
    """(name, attribute, defining class) of the public methods and properties the package
    defines on ``cls`` and its bases, in source order, the class's own first."""
    seen: set[str] = set()
    members: list[tuple[str, Any, type]] = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("paperpyramid"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(value, (staticmethod, classmethod, property, functools.cached_property, types.FunctionType)):
                seen.add(name)
                members.append((name, value, klass))
    return members


def _is_record(cls: type) -> bool:
    """A dataclass, pydantic model or named tuple: a class described by its fields."""
    from pydantic import BaseModel

    return dataclasses.is_dataclass(cls) or issubclass(cls, BaseModel) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


def _class_section(name: str, cls: type) -> list[str]:
    lines = [f"## {name}", ""]
    if issubclass(cls, enum.Enum):
        lines += ["```python", f"class {name}({cls.__bases__[0].__name__})", "```", ""]
    elif issubclass(cls, BaseException):
        bases = ", ".join(base.__name__ for base in cls.__bases__)
        lines += ["```python", f"class {name}({bases})", "```", ""]
    elif _is_record(cls):  # its fields table says what the constructor takes
        lines += ["```python", f"class {name}", "```", ""]
    else:
        lines += ["```python", "class " + format_signature(name, cls).removesuffix(" -> None"), "```", ""]
    doc = _own_doc(cls)
    if doc:
        lines += [md_block(doc), ""]
    if issubclass(cls, enum.Enum):
        lines += ["| Member | Value |", "|---|---|"]
        lines += [f"| {_code(member.name)} | {_code(repr(member.value))} |" for member in cls]
        lines.append("")
    lines += _fields_table(cls)
    for member_name, value, _owner in _public_members(cls):
        title = f"{name}.{member_name}"
        if isinstance(value, (property, functools.cached_property)):
            getter = value.fget if isinstance(value, property) else value.func
            returns = inspect.signature(getter).return_annotation if getter else inspect.Signature.empty
            kind = "" if returns is inspect.Signature.empty else f": {_annotation_text(returns)}"
            lines += [f"### {title}", "", "```python", f"{title}{kind}  # property", "```", ""]
            doc = inspect.getdoc(getter) if getter else None
        else:
            function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
            marker = "  # classmethod" if isinstance(value, classmethod) else "  # staticmethod" if isinstance(value, staticmethod) else ""
            lines += [
                f"### {title}",
                "",
                "```python",
                format_signature(title, function, drop_first=not isinstance(value, staticmethod)) + marker,
                "```",
                "",
            ]
            doc = inspect.getdoc(function)
        if doc:
            lines += [md_block(doc), ""]
    return lines


def python_api_page() -> str:
    import paperpyramid

    names = list(getattr(paperpyramid, "__all__", []))
    lines = [
        "# Python API",
        "",
        _NOTICE,
        "",
        md_block(first_paragraph(paperpyramid.__doc__)),
        "",
        "Every name below is importable from `paperpyramid` (`paperpyramid.__all__`).",
        "",
    ]
    functions = [n for n in names if inspect.isfunction(getattr(paperpyramid, n))]
    classes = [n for n in names if inspect.isclass(getattr(paperpyramid, n))]
    others = [n for n in names if n not in functions and n not in classes]
    for name in functions:
        function = getattr(paperpyramid, name)
        lines += [f"## {name}", "", "```python", format_signature(name, function), "```", ""]
        doc = inspect.getdoc(function)
        if doc:
            lines += [md_block(doc), ""]
    for name in classes:
        cls = getattr(paperpyramid, name)
        if cls.__name__ != name and cls.__name__ in classes and getattr(paperpyramid, cls.__name__) is cls:
            # a second name for an exported class: said once, described under its own name
            lines += [f"## {name}", "", f"Another name for [`{cls.__name__}`](#{_anchor(cls.__name__)}): the same class.", ""]
            continue
        lines += _class_section(name, cls)
    if others:
        lines += ["## Other names", "", "| Name | Type | Value |", "|---|---|---|"]
        for name in others:
            value = getattr(paperpyramid, name)
            shown = (
                "the installed version"
                if name == "__version__"
                else _code(_default_text(value))
                if isinstance(value, (int, float, str, tuple))
                else ""
            )
            lines.append(f"| {_code(name)} | {_code(type(value).__name__)} | {shown} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------------------------

PAGES: dict[str, Callable[[], str]] = {
    "docs/reference/cli.md": cli_page,
    "docs/reference/configuration.md": configuration_page,
    "docs/reference/python-api.md": python_api_page,
}


def render() -> dict[str, str]:
    """Each page's path (relative to the repository) and the text it should hold."""
    return {path: make() for path, make in PAGES.items()}


def stale_pages(root: Path = ROOT) -> list[str]:
    """The pages whose committed text differs from what ``render`` writes."""
    return [path for path, text in render().items() if not (root / path).is_file() or (root / path).read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each page that is not what the code would write")
    args = parser.parse_args(argv)
    pages = render()
    if args.check:
        stale = [path for path, text in pages.items() if not (ROOT / path).is_file() or (ROOT / path).read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"stale: {path} (run {REGENERATE})", file=sys.stderr)
        return 1 if stale else 0
    for path, text in pages.items():
        target = ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
