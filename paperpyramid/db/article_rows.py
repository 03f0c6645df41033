"""A document as the rows that store it: the article's row, its sections, contexts, reading order,
bibliography and the citations of it, tables, formulas, figures and MeSH headings.

The writer (:mod:`paperpyramid.db.writer`) builds these before its transaction opens and then
only inserts them; what a row holds is decided here, in one place.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

import fastnanoid

from paperpyramid import arxiv_ids
from paperpyramid.contexts import ContextDraft
from paperpyramid.db import citation_spans, merging, references
from paperpyramid.document import Author, Document, Section
from paperpyramid.tokens import TokenCounter

#: Cuts one section into contexts; :func:`~paperpyramid.contexts.split_section` by default.
Splitter = Callable[[Section, TokenCounter], list[ContextDraft]]

Row = dict[str, Any]


#: nanoid's 64 symbols in byte order, so that ids sort as the times written in them
_SYMBOLS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def new_id() -> str:
    """A fresh 21-character id, the key of every corpus row: the time in milliseconds in 7 symbols
    of nanoid's alphabet, then 14 random ones. Rows written together get neighbouring keys, so
    a batch's inserts fill a few pages at one place of each index on an id instead of one page
    each across the whole index. It never begins with "-", so that an id given on the command
    line (``paperpyramid cite <id>``) is never read as an option."""
    global _PREFIX
    ms = time.time_ns() // 1_000_000
    if _PREFIX[0] != ms:  # a batch takes hundreds of ids a millisecond: its time is spelt once
        value = "".join(_SYMBOLS[(ms >> shift) & 63] for shift in range(36, -1, -6))
        _PREFIX = (ms, "_" + value[1:] if value.startswith("-") else value)
    return _PREFIX[1] + _random_part()


#: the last millisecond an id was made in and its 7 symbols (never beginning with "-")
_PREFIX: tuple[int, str] = (-1, "")

#: random parts of ids not given out yet: nanoid makes many at once for about the cost of one
#: (a fifth of an id's time); ``list.pop`` gives each out once, whichever thread asks
_RANDOM_PARTS: list[str] = []
_RANDOM_BATCH = 4096


def _random_part() -> str:
    try:
        return _RANDOM_PARTS.pop()
    except IndexError:
        symbols = str(fastnanoid.generate(size=14 * _RANDOM_BATCH))
        _RANDOM_PARTS.extend(symbols[start : start + 14] for start in range(0, len(symbols), 14))
        return _RANDOM_PARTS.pop()


if hasattr(os, "register_at_fork"):  # a forked child starts with none of its parent's parts: the two never give out the same
    os.register_at_fork(after_in_child=_RANDOM_PARTS.clear)


@dataclass(slots=True)
class ArticleRows:
    """Every row of one article, ready to insert, in an order the foreign keys allow."""

    article: Row
    sections: list[Row] = field(default_factory=list)
    article_sections: list[Row] = field(default_factory=list)
    contexts: list[Row] = field(default_factory=list)
    sections_contexts: list[Row] = field(default_factory=list)
    bib_entries: list[Row] = field(default_factory=list)
    citations: list[Row] = field(default_factory=list)
    tables: list[Row] = field(default_factory=list)
    formulas: list[Row] = field(default_factory=list)
    figures: list[Row] = field(default_factory=list)
    mesh_terms: list[Row] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.article["id"])

    def take_context_ids(self, ids: Sequence[str]) -> None:
        """Give the contexts these ids (those of a stored version with the same text, in the
        same order), wherever a row names a context."""
        renamed = {row["id"]: old for row, old in zip(self.contexts, ids, strict=True)}
        for row in self.contexts:
            row["id"] = renamed[row["id"]]
        for row in [*self.sections_contexts, *self.citations]:
            row["context_id"] = renamed[row["context_id"]]


def article_rows(
    doc: Document,
    *,
    article_id: str,
    source_uri: str,
    sha256: str,
    counter: TokenCounter,
    splitter: Splitter,
    contexts: Sequence[Sequence[ContextDraft]] | None = None,
) -> ArticleRows:
    """The rows of ``doc`` (normalised, its indices checked) as article ``article_id``; its
    contexts as given (one list per section), else cut by ``splitter``."""
    rows = ArticleRows(article={})
    section_ids = [new_id() for _ in doc.sections]
    entry_ids = [new_id() for _ in doc.references]
    _text_rows(rows, doc, section_ids, entry_ids, counter, splitter, contexts)
    rows.article = _article_row(doc, article_id, source_uri, sha256, counter, sum(row["num_tokens"] for row in rows.contexts))
    rows.article_sections = [
        {"article_id": article_id, "section_id": sid, "position": position} for position, sid in enumerate(section_ids)
    ]
    _part_rows(rows, doc, article_id, section_ids, entry_ids)
    return rows


def _text_rows(
    rows: ArticleRows,
    doc: Document,
    section_ids: list[str],
    entry_ids: list[str],
    counter: TokenCounter,
    splitter: Splitter,
    contexts: Sequence[Sequence[ContextDraft]] | None,
) -> None:
    """Sections, contexts, the order of the contexts in their sections, and the citations in them."""
    entry_by_key = {ref.key: entry_id for ref, entry_id in zip(doc.references, entry_ids, strict=True) if ref.key}
    page = page_of(doc)
    for index, section in enumerate(doc.sections):
        drafts = splitter(section, counter) if contexts is None else contexts[index]
        pages = [block.page for block in section.blocks]
        rows.sections.append(
            {
                "id": section_ids[index],
                "section_number": section.number,
                "section_title": section.title,
                "level": section.level,
                "parent_id": None if section.parent is None else section_ids[section.parent],
                "num_tokens": sum(draft.num_tokens for draft in drafts),
                "page_start": page(section.page_start if section.page_start is not None else min(pages, default=None)),
                "page_end": page(section.page_end if section.page_end is not None else max(pages, default=None)),
            }
        )
        first = len(rows.contexts)
        for position, draft in enumerate(drafts):
            context_id = new_id()
            rows.contexts.append({"id": context_id, "text": draft.text, "section_title": section.title, "section_number": section.number,
                                  "num_tokens": draft.num_tokens, "page_number": page(draft.page_number), "stop_reason": draft.stop_reason,
                                  "kind": draft.kind})  # fmt: skip
            rows.sections_contexts.append({"section_id": section_ids[index], "context_id": context_id, "position": position})
        for span in citation_spans.locate(section, [draft.text for draft in drafts]):
            rows.citations += [
                {"context_id": rows.contexts[first + span.context]["id"], "bib_entry_id": entry_by_key[key], "char_start": span.start,
                 "char_end": span.end}
                for key in dict.fromkeys(span.keys)
                if key in entry_by_key
            ]  # fmt: skip


def _article_row(doc: Document, article_id: str, source_uri: str, sha256: str, counter: TokenCounter, num_tokens: int) -> Row:
    provenance = {**doc.provenance, "contexts": f"{counter.name} window {counter.window}"}
    return {
        "id": article_id,
        "title": doc.title,
        "authors": to_json([{name: getattr(author, name) for name in _AUTHOR_FIELDS} for author in doc.authors]),
        "date_published": doc.date_published,
        "journal": doc.journal,
        "doi": doc.doi,
        "arxiv_id": arxiv_ids.find(doc.arxiv_id),
        "title_key": references.title_key(doc.title),
        "abstract": doc.abstract,
        "num_tokens": num_tokens,
        "pages": doc.pages,
        "source_uri": source_uri,
        "sha256": sha256,
        "parser": doc.parser,
        "provenance": to_json(provenance),
        "warnings": to_json(doc.warnings),
        "coverage": doc.coverage,
        "ocr_pages": to_json(doc.ocr_pages) if doc.ocr_pages else None,
        "pmid": doc.pmid,
        "pmcid": doc.pmcid,
        "licence": doc.licence,
        "language": doc.language,
        "publication_types": to_json(doc.publication_types),
        "keywords": to_json(doc.keywords),
        "created_at": now(),
    }


def _part_rows(rows: ArticleRows, doc: Document, article_id: str, section_ids: list[str], entry_ids: list[str]) -> None:
    """The bibliography, tables, formulas, figures and MeSH headings."""
    page = page_of(doc)

    def section_id(index: int | None) -> str | None:
        return None if index is None else section_ids[index]

    def provenance(part: str, own: str | None) -> str:
        return own or doc.provenance.get(part, doc.parser)

    rows.bib_entries = [
        {"id": entry_ids[position], "article_id": article_id, "position": position, "raw": ref.raw, "title": ref.title,
         "authors": to_json(ref.authors), "year": ref.year, "doi": None if ref.doi is None else normalize_doi(ref.doi), "venue": ref.venue,
         "key": ref.key, "arxiv_id": arxiv_ids.find(ref.arxiv_id) or references.arxiv_id(ref.raw), "title_key": references.title_key(ref.title)}
        for position, ref in enumerate(doc.references)
    ]  # fmt: skip
    rows.tables = [
        {"id": new_id(), "article_id": article_id, "section_id": section_id(table.section), "label": table.label, "caption": table.caption,
         "cells": to_json(table.cells), "markdown": table.markdown, "page": page(table.page), "bbox": bbox_json(table.bbox),
         "provenance": provenance("tables", table.provenance)}
        for table in doc.tables
    ]  # fmt: skip
    rows.formulas = [
        {"id": new_id(), "article_id": article_id, "section_id": section_id(formula.section), "label": formula.label, "text": formula.text,
         "latex": formula.latex, "page": page(formula.page), "bbox": bbox_json(formula.bbox),
         "provenance": provenance("formulas", formula.provenance)}
        for formula in doc.formulas
    ]  # fmt: skip
    rows.figures = [
        {"id": new_id(), "article_id": article_id, "section_id": section_id(figure.section), "label": figure.label,
         "caption": figure.caption, "page": page(figure.page), "bbox": bbox_json(figure.bbox),
         "provenance": provenance("figures", figure.provenance)}
        for figure in doc.figures
    ]  # fmt: skip
    rows.mesh_terms = merging.mesh_rows(article_id, doc.mesh)


def normalize_doi(doi: str) -> str:
    """A DOI without its resolver prefix: ``https://doi.org/10.1/x`` and ``doi:10.1/x`` -> ``10.1/x``."""
    doi = doi.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"):
        if doi.lower().startswith(prefix):
            return doi[len(prefix) :].strip()
    return doi


def page_of(doc: Document) -> Callable[[int | None], int | None]:
    """How a page number is stored: as given, or NULL for a document without pages
    (:attr:`Document.paged` false: JATS read without its PDF, whose parser puts every part on page 1)."""
    if doc.paged:
        return lambda page: page
    return lambda page: None


#: ``json.dumps(value, ensure_ascii=False)`` without making an encoder each call
_ENCODER = json.JSONEncoder(ensure_ascii=False)
#: an author's fields, as ``dataclasses.asdict`` gives them (all plain values: no deep copy needed)
_AUTHOR_FIELDS = tuple(item.name for item in fields(Author))


def to_json(value: object) -> str:
    return _ENCODER.encode(value)


def bbox_json(bbox: tuple[float, float, float, float] | None) -> str | None:
    return None if bbox is None else to_json(list(bbox))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


__all__ = ["ArticleRows", "Splitter", "article_rows", "new_id", "normalize_doi", "now", "page_of", "to_json"]
