"""One article per paper, whichever of its versions and sources arrive, in whatever order.

A document is matched to a stored article by its PMID, its PMCID or its DOI (:func:`find_stored`):

- a newer version of a PubMed record (the same PMID) replaces the older one;
- a PubMed record and the paper's full text (JATS or PDF) are one article, joined by whichever
  identifier both have: the full text takes the record's place under its id, keeping what only
  the record knows (MeSH headings, publication types, keywords, identifiers: :func:`fill_from`);
  a record that arrives after its full text only adds that to it (:func:`record_terms`);
- a full text with the PMID or PMCID of a stored full text is its newer version.

Two records are one only by their PMID, and a DOI joins only a record and a full text (two
PDFs that give the same DOI stay two articles, as before). Identifiers that disagree (both have
a PMID, and they differ) never join. The writer (:mod:`paperpyramid.db.writer`) does the storing.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paperpyramid.document import Author, Document, MeshTerm

#: the provenance a PubMed record's document gives its sections: ``{"sections": "pubmed", ...}``
RECORD_SOURCE = "pubmed"
_PMCID = re.compile(r"^(?:pmc)?\s*(\d+)$", re.IGNORECASE)

#: the fields a full text takes from the article it replaces where it has none itself
_FILLED = ("pmid", "pmcid", "doi", "licence", "language", "title", "abstract", "date_published", "journal")
#: ``json.dumps(value, ensure_ascii=False)`` without making an encoder each call
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_COLUMNS = ("id, sha256, source_uri, provenance, pmid, pmcid, doi, licence, language, title, abstract, date_published, journal, "
            "authors, publication_types, keywords")  # fmt: skip


def is_record(provenance: Mapping[str, str]) -> bool:
    """Whether a document (or a stored article, by its provenance) is a PubMed record: its
    abstract and indexing, no full text."""
    return (provenance.get("sections") or "").split()[:1] == [RECORD_SOURCE]


def normalize_pmid(pmid: str | None) -> str | None:
    """A PMID as digits ("PMID: 123" -> "123"); None when it holds none."""
    found = re.search(r"\d+", pmid or "")
    return found.group(0) if found else None


def normalize_pmcid(pmcid: str | None) -> str | None:
    """A PMCID with its prefix, upper case ("pmc123", "123" -> "PMC123"); None when it is none."""
    found = _PMCID.match((pmcid or "").strip())
    return f"PMC{found.group(1)}" if found else None


@dataclass(frozen=True, slots=True)
class StoredArticle:
    """What matching and merging read of a stored article."""

    id: str
    sha256: str
    source_uri: str | None
    record: bool
    pmid: str | None
    pmcid: str | None
    doi: str | None
    licence: str | None
    language: str | None
    title: str | None
    abstract: str | None
    date_published: str | None
    journal: str | None
    authors: list[Author]
    publication_types: list[str]
    keywords: list[str]
    mesh: list[MeshTerm]


def find_stored(conn: Any, doc: Document) -> StoredArticle | None:
    """The stored article ``doc`` is a version or another source of (see the module's
    docstring), looked for by PMID, then PMCID, then DOI; None when it is a new article. The
    document's identifiers must be normalised (the writer does it)."""
    record = is_record(doc.provenance)
    for column, value in (("pmid", doc.pmid), ("pmcid", doc.pmcid), ("doi", doc.doi)):
        if not value:
            continue
        for row in conn.execute(f"SELECT {_COLUMNS} FROM articles WHERE {column} = ? ORDER BY created_at, rowid", [value]).fetchall():
            stored = _stored(conn, row)
            if _joins(doc, record, stored, column):
                return stored
    return None


def _joins(doc: Document, record: bool, stored: StoredArticle, column: str) -> bool:
    if record and stored.record and column != "pmid":
        return False  # two records are one only by their PMID
    if column == "doi" and record == stored.record:
        return False  # a DOI joins a record and a full text only
    if doc.pmid and stored.pmid and doc.pmid != stored.pmid:
        return False
    return not (doc.pmcid and stored.pmcid and doc.pmcid.upper() != stored.pmcid.upper())


def fill_from(doc: Document, stored: StoredArticle) -> Document:
    """The full text ``doc`` taking the place of ``stored`` (a PubMed record, or an older
    version): the identifiers, licence, language and bibliographic fields it lacks come from the
    stored article, its publication types and keywords are joined to the stored ones, and the
    stored MeSH headings stay unless it has its own."""
    changes: dict[str, Any] = {name: getattr(stored, name) for name in _FILLED if not getattr(doc, name) and getattr(stored, name)}
    if not doc.authors and stored.authors:
        changes["authors"] = list(stored.authors)
    changes["publication_types"] = union(stored.publication_types, doc.publication_types)
    changes["keywords"] = union(stored.keywords, doc.keywords)
    if not doc.mesh:
        changes["mesh"] = list(stored.mesh)
    return dataclasses.replace(doc, **changes)


def record_terms(doc: Document, stored: StoredArticle) -> dict[str, Any]:
    """What the PubMed record ``doc`` adds to the full-text article ``stored``, as new column
    values (``mesh``: the headings): its MeSH headings (the record's replace the stored ones),
    publication types and keywords (joined to the stored ones), and the PMID, PMCID, DOI and
    language the article lacks. Empty when the record adds nothing (a re-run)."""
    changes: dict[str, Any] = {
        name: getattr(doc, name) for name in ("pmid", "pmcid", "doi", "language") if not getattr(stored, name) and getattr(doc, name)
    }
    for name in ("publication_types", "keywords"):
        joined = union(getattr(stored, name), getattr(doc, name))
        if joined != getattr(stored, name):
            changes[name] = json.dumps(joined, ensure_ascii=False)
    if doc.mesh and doc.mesh != stored.mesh:
        changes["mesh"] = doc.mesh
    return changes


def union(first: Sequence[str], second: Sequence[str]) -> list[str]:
    """``first`` then what ``second`` adds to it, each once (compared in any case)."""
    seen = {item.casefold() for item in first}
    joined = list(first)
    for item in second:
        if item.casefold() not in seen:
            seen.add(item.casefold())
            joined.append(item)
    return joined


def mesh_rows(article_id: str, mesh: Sequence[MeshTerm]) -> list[dict[str, Any]]:
    """The ``mesh_terms`` rows of an article's headings, in their order."""
    return [
        {"article_id": article_id, "position": position, "term": term.term, "major": int(term.major), "ui": term.ui,
         "qualifiers": _ENCODER.encode(list(term.qualifiers))}
        for position, term in enumerate(mesh)
    ]  # fmt: skip


def read_mesh(conn: Any, article_id: str) -> list[MeshTerm]:
    """An article's MeSH headings, in the record's order."""
    rows = conn.execute("SELECT term, major, ui, qualifiers FROM mesh_terms WHERE article_id = ? ORDER BY position", [article_id])
    return [MeshTerm(str(term), bool(major), ui, json_strings(qualifiers)) for term, major, ui, qualifiers in rows]


def articles_with_mesh(conn: Any, term: str) -> set[str]:
    """The ids of the articles indexed with this MeSH heading (its descriptor's name, any case)."""
    rows = conn.execute("SELECT DISTINCT article_id FROM mesh_terms WHERE term = ?", [term.strip()])
    return {str(row[0]) for row in rows}


def json_strings(text: str | None) -> list[str]:
    """A stored JSON list of strings; an empty list for anything else (a reader trusts no file)."""
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _stored(conn: Any, row: Sequence[Any]) -> StoredArticle:
    (id_, sha256, source_uri, provenance, pmid, pmcid, doi, licence, language, title, abstract, date_published, journal,
     authors, publication_types, keywords) = row  # fmt: skip
    return StoredArticle(
        id=str(id_), sha256=str(sha256), source_uri=source_uri, record=is_record(_json_object(provenance)), pmid=pmid, pmcid=pmcid,
        doi=doi, licence=licence, language=language, title=title, abstract=abstract, date_published=date_published, journal=journal,
        authors=[Author(**author) for author in json.loads(authors or "[]")], publication_types=json_strings(publication_types),
        keywords=json_strings(keywords), mesh=read_mesh(conn, str(id_)),
    )  # fmt: skip


def _json_object(text: str | None) -> dict[str, str]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return {str(key): str(item) for key, item in value.items()} if isinstance(value, dict) else {}


__all__ = [
    "RECORD_SOURCE",
    "StoredArticle",
    "articles_with_mesh",
    "fill_from",
    "find_stored",
    "is_record",
    "json_strings",
    "mesh_rows",
    "normalize_pmcid",
    "normalize_pmid",
    "read_mesh",
    "record_terms",
    "union",
]
