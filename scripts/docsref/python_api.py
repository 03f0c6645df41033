"""The Python API page: every name ``paperpyramid`` exports, with signatures and docstrings."""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import inspect
import re
import textwrap
import types
from collections.abc import Callable
from typing import Any

from docsref.common import NOTICE
from docsref.text import anchor, code, first_paragraph, md_block, md_inline


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
                default = code(_default_text(field.default))
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
                default = code(_default_text(info.default))
            rows.append((name, _annotation_text(info.annotation), default, info.description or comments.get(name, "")))
    elif isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        hints = getattr(cls, "__annotations__", {})
        defaults = getattr(cls, "_field_defaults", {})
        for name in cls._fields:
            default = code(_default_text(defaults[name])) if name in defaults else "required"
            rows.append((name, _annotation_text(hints.get(name, "")), default, comments.get(name, "")))
    if not rows:
        return []
    if any(about for *_, about in rows):
        lines = ["| Field | Type | Default | About |", "|---|---|---|---|"]
        lines += [
            f"| {code(name)} | {code(kind) if kind else ''} | {default} | {md_inline(' '.join(about.split()), table=True)} |"
            for name, kind, default, about in rows
        ]
    else:
        lines = ["| Field | Type | Default |", "|---|---|---|"]
        lines += [f"| {code(name)} | {code(kind) if kind else ''} | {default} |" for name, kind, default, _ in rows]
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
        lines += [f"| {code(member.name)} | {code(repr(member.value))} |" for member in cls]
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
        NOTICE,
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
            lines += [f"## {name}", "", f"Another name for [`{cls.__name__}`](#{anchor(cls.__name__)}): the same class.", ""]
            continue
        lines += _class_section(name, cls)
    if others:
        lines += ["## Other names", "", "| Name | Type | Value |", "|---|---|---|"]
        for name in others:
            value = getattr(paperpyramid, name)
            shown = (
                "the installed version"
                if name == "__version__"
                else code(_default_text(value))
                if isinstance(value, (int, float, str, tuple))
                else ""
            )
            lines.append(f"| {code(name)} | {code(type(value).__name__)} | {shown} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
