"""Parsers: one contract, ``parse(source, options) -> Document`` (:mod:`.contract`), and one
registry of them by source kind (:mod:`.registry`): PDF (by the backend the settings name), JATS,
JATS with its PDF, LaTeX, LaTeX with its PDF, a PubMed record, and any kind registered with
:func:`register_kind`."""

from __future__ import annotations

from paperpyramid.parsers.contract import PDF, Parser, PdfParser, Source
from paperpyramid.parsers.registry import (
    PARSERS,
    PDF_BACKENDS,
    SERVICES_OF,
    choose,
    get_parser,
    kind_of,
    register_kind,
    unregister_kind,
)
from paperpyramid.settings import PARSER_NAMES
from paperpyramid.settings import is_parser_name as is_parser_name

# the PDF backends by name, under the name tests/test_vocabulary.py reads
_REGISTRY = PDF_BACKENDS

__all__ = [
    "PARSERS",
    "PARSER_NAMES",
    "PDF",
    "PDF_BACKENDS",
    "SERVICES_OF",
    "Parser",
    "PdfParser",
    "Source",
    "choose",
    "get_parser",
    "is_parser_name",
    "kind_of",
    "register_kind",
    "unregister_kind",
]
