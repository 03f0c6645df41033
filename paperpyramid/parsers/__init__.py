"""Parser backends. Each is a function ``(path, *, password, max_pages, time_limit) -> Document``
(the :class:`Parser` protocol), chosen by name in the settings."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Protocol

from paperpyramid.document import Document
from paperpyramid.errors import ConfigurationError
from paperpyramid.settings import PARSER_NAMES, unknown_parser
from paperpyramid.settings import is_parser_name as is_parser_name


class Parser(Protocol):
    def __call__(self, path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None) -> Document: ...


# The service-backed parsers also take ``options=IngestSettings`` (which services to use).


#: name -> "module:function", imported only when chosen (heavy backends are optional extras)
_REGISTRY = {
    "embedded": "paperpyramid.parsers.embedded:parse_pdf",
    # the service-backed parsers: the embedded parse merged with what the services deliver
    "auto": "paperpyramid.parsers.services:parse_pdf",
    "grobid": "paperpyramid.parsers.services:parse_pdf",
    "unstructured": "paperpyramid.parsers.services:parse_pdf",
    "nougat": "paperpyramid.parsers.services:parse_pdf",
}
#: what each service-backed parser name asks for
SERVICES_OF = {"auto": ("grobid", "tables", "nougat"), "grobid": ("grobid",), "unstructured": ("tables",), "nougat": ("nougat",)}
assert set(_REGISTRY) == set(PARSER_NAMES), "paperpyramid.settings.ParserName and the registry name the same parsers"


def get_parser(name: str) -> Parser:
    """The parser called ``name`` (or at the import path ``name``); unknown names fail with
    the list of known ones."""
    target = _REGISTRY.get(name, name if is_parser_name(name) else None)
    if target is None:
        raise ConfigurationError(unknown_parser(name))
    module_name, function = target.split(":")
    try:
        parser: Parser = getattr(importlib.import_module(module_name), function)
    except (ImportError, AttributeError) as exc:
        raise ConfigurationError(f"parser {name!r} cannot be imported: {exc}") from exc
    return parser
