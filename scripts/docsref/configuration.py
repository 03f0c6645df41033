"""The configuration page: every setting at every depth, with its environment variable."""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from docsref.common import NOTICE
from docsref.text import code, first_paragraph, md_block, md_inline


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
            bounds.append(f"matching {code(pattern)}")
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
            return "computed: " + ", ".join(code(name) for name in reads) + " when set (see the description)"
        if doc:
            return "computed: " + md_inline(first_paragraph(doc), table=True)
        return "computed when the settings are read (see the description)"
    default = field.default
    if default is None:
        return "none"
    if isinstance(default, bool):
        return code("true" if default else "false")
    if isinstance(default, enum.Enum):
        return code(str(default.value))
    if isinstance(default, (list, tuple)):
        return code(_json_list(default))
    if default == "":
        return "empty"
    return code(str(default))


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
        NOTICE,
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
            also = [code(name) for name in entry.aliases] + [f"{code(name)} (deprecated)" for name in entry.deprecated]
            lines.append(
                f"| {code(entry.env)} | {md_inline(type_words(entry.field.annotation, entry.field.metadata), table=True)} "
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
        lines += [f"| {code(name)} | {code(new)} |" for name, new in old.items()]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
