"""The command line page: every command, argument and option, walked from click."""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import importlib
import tempfile
from collections.abc import Iterator, Mapping
from typing import Any

from docsref.common import NOTICE
from docsref.text import anchor, code, first_sentence, md_block, md_inline


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
        NOTICE,
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
                lines.append(f"- [`{sub.path[-1]}`](#{anchor(sub.name)}): {md_inline(summary)}")
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


def _param_line(param: Any, context: Any) -> str:
    parts = [md_inline(" ".join((param.help or "").split()))] if getattr(param, "help", None) else []
    choices, closed = param_choices(param, context)
    if choices:
        label = "Choices" if closed else "Known values"
        parts.append(f"{label}: {', '.join(code(choice) for choice in choices)}.")
    default = param_default(param)
    if default is not None:
        parts.append(f"Default: {code(default)}.")
    envvars = param_envvars(param)
    if envvars:
        parts.append(f"Environment variable: {', '.join(code(name) for name in envvars)}.")
    if param.required:
        parts.append("Required.")
    if getattr(param, "multiple", False):
        parts.append("May be repeated.")
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None or high is not None:
        parts.append(_range_words(low, high) + ".")
    body = " ".join(part for part in parts if part)
    return f"- {code(param_display(param, context))}" + (f": {body}" if body else "")


def _range_words(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"From {low} to {high}"
    return f"At least {low}" if low is not None else f"At most {high}"
