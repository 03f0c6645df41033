"""The file names an article answers to, from its source URI: a distillation file's ``pdf`` and a
QA question's ``pdf`` name the PDF, while an article read from a JATS or LaTeX source with the PDF
of its name beside it (``x.nxml`` with ``x.pdf``; its pages came from that PDF) keeps the source's
URI."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

#: sources read with the PDF of their name beside it when the article has pages
_PAIRED_SUFFIXES = (".nxml", ".xml", ".tex", ".ltx")


def file_name(uri: str) -> str:
    """The file's name from its source: a path (either slash), ``file://``, ``s3://`` or
    ``https://`` (unquoted, without its query)."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", uri) or uri.startswith("file:"):
        return PurePosixPath(unquote(urlsplit(uri).path)).name
    return PurePosixPath(uri.replace("\\", "/")).name


def names_of(uri: str | None, pages: int | None) -> tuple[str, ...]:
    """The source's file name, and the PDF's beside it when the article was read with one."""
    if not uri:
        return ()
    name = file_name(uri)
    path = PurePosixPath(name)
    if pages and path.suffix.lower() in _PAIRED_SUFFIXES:
        return (name, str(path.with_suffix(".pdf")))
    return (name,)
