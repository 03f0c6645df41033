"""Parser backends. Each is a function ``(path, *, password, max_pages, time_limit) -> Document``
(the :class:`Parser` protocol), chosen by name in the settings."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Protocol

from paperpyramid.document import Document
from paperpyramid.errors import ConfigurationError


class Parser(Protocol):
    def __call__(self, path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None) -> Document: ...


#: name -> "module:function", imported only when chosen (heavy backends are optional extras)
_REGISTRY = {
    "embedded": "paperpyramid.parsers.embedded:parse_pdf",
}
PARSER_NAMES = tuple(_REGISTRY)


def get_parser(name: str) -> Parser:
    """The parser called ``name``; unknown names fail with the list of known ones."""
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise ConfigurationError(f"unknown parser {name!r}; choose one of: {', '.join(PARSER_NAMES)}") from None
    module_name, function = target.split(":")
    parser: Parser = getattr(importlib.import_module(module_name), function)
    return parser
