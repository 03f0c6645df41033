"""A parser for a kind of source of one's own, as a user would plug one in: a plain-text file, its
first line the title, the rest paragraphs separated by blank lines, in one section, without pages.
It keeps the one contract, ``parse(source, options) -> Document``, and refuses an empty file."""

from __future__ import annotations

from paperpyramid.document import Block, Document, Section
from paperpyramid.errors import BadInput
from paperpyramid.parsers.contract import Source
from paperpyramid.settings import IngestSettings


def parse(source: Source, options: IngestSettings) -> Document:
    text = source.content().decode("utf-8")
    title, _, body = text.strip().partition("\n")
    paragraphs = [" ".join(part.split()) for part in body.split("\n\n") if part.strip()]
    if not title.strip() or not paragraphs:
        raise BadInput(f"{source.label}: no title and text")
    section = Section("Text", blocks=[Block(paragraph, 1) for paragraph in paragraphs])
    return Document(title=title.strip(), pages=1, paged=False, sections=[section], provenance={"sections": "plain-text 1"})
