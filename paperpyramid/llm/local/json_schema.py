"""A pydantic model's JSON schema as a small tree of :data:`Node` values, for constrained decoding.

:func:`compile_schema` reads ``model_json_schema()`` output: ``$defs``/``$ref``, objects (every
property, in schema order), arrays (``minItems``/``maxItems``), strings (``minLength``/
``maxLength``), integers and numbers (a ``minimum`` of 0 or 1 rules out the minus sign or a
leading 0), booleans, ``null``, ``enum``/``const`` and ``anyOf`` whose branches start with
different characters (``X | None``). Where the schema sets no bound, a string holds at most
:data:`DEFAULT_MAX_STRING` characters and an array :data:`DEFAULT_MAX_ITEMS` items: a small
model, left alone, counts on forever. :func:`minimal` is a node's shortest JSON text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Union

DEFAULT_MAX_STRING = 400  # characters, where the schema sets no maxLength
DEFAULT_MAX_ITEMS = 32  # array items, where the schema sets no maxItems
_MAX_DEPTH = 32
DIGITS = "0123456789"


@dataclass(frozen=True, eq=False)
class Obj:
    keys: tuple[str, ...]  # JSON-encoded, quotes included
    values: tuple[Node, ...]


@dataclass(frozen=True, eq=False)
class Arr:
    item: Node
    min_items: int
    max_items: int


@dataclass(frozen=True, eq=False)
class Str:
    min_len: int
    max_len: int


@dataclass(frozen=True, eq=False)
class Num:
    integer: bool
    negative: bool  # a leading minus is allowed
    positive: bool  # the first digit may not be 0 (minimum >= 1)


@dataclass(frozen=True, eq=False)
class Lit:
    options: tuple[str, ...]  # JSON texts: true/false, null, enum members


@dataclass(frozen=True, eq=False)
class Alt:
    branches: tuple[Node, ...]  # told apart by their first character


Node = Union[Obj, Arr, Str, Num, Lit, Alt]  # noqa: UP007 (a runtime alias)


class SchemaNotSupported(ValueError):
    """A JSON schema uses something the constrained decoder cannot produce."""


def compile_schema(schema: dict[str, Any]) -> Node:
    definitions = schema.get("$defs", {})

    def build(part: dict[str, Any], depth: int) -> Node:
        if depth > _MAX_DEPTH:
            raise SchemaNotSupported("schema nests too deeply (a recursive model?)")
        if "$ref" in part:
            name = part["$ref"].rsplit("/", 1)[-1]
            if name not in definitions:
                raise SchemaNotSupported(f"unresolved $ref {part['$ref']!r}")
            return build(definitions[name], depth + 1)
        if "const" in part:
            return Lit((json.dumps(part["const"]),))
        if "enum" in part:
            return Lit(tuple(json.dumps(value) for value in part["enum"]))
        for key in ("anyOf", "oneOf", "allOf"):
            if key in part:
                branches = [build(branch, depth + 1) for branch in part[key]]
                return branches[0] if key == "allOf" or len(branches) == 1 else _alternatives(branches)
        kind = part.get("type")
        if isinstance(kind, list):
            return _alternatives([build({**part, "type": one}, depth + 1) for one in kind])
        if kind == "object" or "properties" in part:
            properties = part.get("properties", {})
            return Obj(tuple(json.dumps(key) for key in properties), tuple(build(value, depth + 1) for value in properties.values()))
        if kind == "array":
            if "prefixItems" in part:
                raise SchemaNotSupported("tuples (prefixItems) are not supported")
            item = build(part["items"], depth + 1) if "items" in part else Lit(("null",))
            return Arr(item, int(part.get("minItems", 0)), int(part.get("maxItems", DEFAULT_MAX_ITEMS)))
        if kind == "string":
            return Str(int(part.get("minLength", 0)), int(part.get("maxLength", DEFAULT_MAX_STRING)))
        if kind in ("integer", "number"):
            low = part.get("minimum", part.get("exclusiveMinimum"))
            return Num(
                kind == "integer", low is None or low < 0, low is not None and (low >= 1 or ("exclusiveMinimum" in part and low >= 0))
            )
        if kind == "boolean":
            return Lit(("true", "false"))
        if kind == "null" or not part:
            return Lit(("null",))
        raise SchemaNotSupported(f"schema part not supported: {json.dumps(part)[:200]}")

    return build(schema, 0)


def _alternatives(branches: list[Node]) -> Node:
    """Branches told apart by their first character; one that clashes with an earlier one is dropped."""
    kept: list[Node] = []
    seen: set[str] = set()
    for branch in branches:
        first = first_chars(branch)
        if not first & seen:
            kept.append(branch)
            seen |= first
    return kept[0] if len(kept) == 1 else Alt(tuple(kept))


def first_chars(node: Node) -> set[str]:
    """The characters a JSON text of ``node`` may start with."""
    if isinstance(node, Obj):
        return {"{"}
    if isinstance(node, Arr):
        return {"["}
    if isinstance(node, Str):
        return {'"'}
    if isinstance(node, Num):
        return set(DIGITS[1:] if node.positive else DIGITS) | ({"-"} if node.negative else set())
    if isinstance(node, Lit):
        return {option[0] for option in node.options}
    return set().union(*(first_chars(branch) for branch in node.branches))


def minimal(node: Node) -> str:
    """The shortest JSON text of ``node``."""
    if isinstance(node, Obj):
        return "{" + ", ".join(f"{key}: {minimal(value)}" for key, value in zip(node.keys, node.values, strict=True)) + "}"
    if isinstance(node, Arr):
        return "[" + ", ".join([minimal(node.item)] * node.min_items) + "]"
    if isinstance(node, Str):
        return '"' + " " * node.min_len + '"'
    if isinstance(node, Num):
        return "1" if node.positive else "0"
    if isinstance(node, Lit):
        return min(node.options, key=len)
    return min((minimal(branch) for branch in node.branches), key=len)
