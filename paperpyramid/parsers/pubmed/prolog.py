"""What a PubMed file holds before its first record: the XML declaration, the DOCTYPE and the
root element's start tag, read by expat.

Real files name NLM's DTD by URL (``<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle,
1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">``); expat
never fetches a DTD, and parameter entities are not parsed. Any entity declaration in the DOCTYPE
refuses the file: an entity-expansion bomb or an external entity (a local file, a URL) would start
there, and PubMed's files declare none.
"""

from __future__ import annotations

import pyexpat

from paperpyramid.parsers.pubmed.stream import Window

_MAX_PROLOG = 1 << 20
_ROOTS = frozenset({"PubmedArticleSet", "PubmedBookArticleSet"})
_UTF8 = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})


class Broken(Exception):
    """The file is broken here (or ends): where its next record starts cannot be known. ``where``
    names the record it broke in, when it did."""

    def __init__(self, reason: str, where: str | None = None) -> None:
        super().__init__(reason)
        self.where = where


class _RootFound(Exception):
    def __init__(self, name: str, at: int) -> None:
        super().__init__(name)
        self.name = name
        self.at = at


def read_prolog(window: Window) -> tuple[str, int]:
    """The root element's name and where its start tag begins in ``window.data`` (the window is
    at the start of the stream). Raises :class:`Broken` for a file that is empty, not XML, not
    UTF-8, declares entities, or whose root is not ``<PubmedArticleSet>``."""
    parser = pyexpat.ParserCreate()
    parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.XmlDeclHandler = _check_encoding
    parser.EntityDeclHandler = _refuse_entity
    parser.UnparsedEntityDeclHandler = _refuse_entity

    def found(tag: str, attributes: object) -> None:
        raise _RootFound(tag, parser.CurrentByteIndex)

    parser.StartElementHandler = found
    fed = 0
    try:
        while True:
            if fed < len(window.data):
                parser.Parse(bytes(window.data[fed:]), False)
                fed = len(window.data)
            if fed > _MAX_PROLOG:
                raise Broken(f"no root element in the first {_MAX_PROLOG >> 20} MiB: not a PubMed file")
            if not window.more():
                if not fed:
                    raise Broken("the file is empty")
                parser.Parse(b"", True)  # raises: a document needs an element
                raise Broken("no root element: not a PubMed file")
    except _RootFound as root:
        if root.name not in _ROOTS:
            raise Broken(f"not a PubMed file: its root element is <{root.name}>, not <PubmedArticleSet>") from None
        return root.name, root.at
    except pyexpat.ExpatError as exc:
        raise Broken(f"not well-formed XML before the first record: {exc}") from None


def _check_encoding(version: str, encoding: str | None, standalone: int) -> None:
    if encoding and encoding.lower() not in _UTF8:
        raise Broken(f"the file's encoding is {encoding}; PubMed files are UTF-8, and only UTF-8 is read")


def _refuse_entity(*args: object) -> None:
    raise Broken("the file's DTD declares entities, refused: an entity-expansion bomb or an external entity could hide there")
