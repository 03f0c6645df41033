"""Bring-your-own distillation: load a pyramid from a JSON file, or write one out, in the
format of ``../shared/recorded/distill/*.json``::

    {"pdf": "paper.pdf", "sha256": "...", "pages": 14, "producer": "...",
     "insights": [{"id": 1, "text": "...", "pages": [1], "section": "Abstract"}, ...],
     "concepts": [{"id": 1, "text": "...", "insight_ids": [1, 2]}, ...],
     "abstract": "..."}

A file is matched to its article by ``sha256`` when it has one, else by the PDF's file name
(the last part of the article's source URI; for an article read from a JATS or LaTeX source with
the PDF of its name beside it, that PDF's name). Its insights are linked to contexts by page and
words as distilled ones are, embedded, and stored through the same writer in one transaction.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from paperpyramid.db import pyramid as db_pyramid
from paperpyramid.db.queries import distill_exchange
from paperpyramid.db.sqlite import Connection
from paperpyramid.distill.article import embed_pyramid
from paperpyramid.distill.insights import clean
from paperpyramid.distill.links import Linker
from paperpyramid.distill.page_texts import article_pages
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import BadInput
from paperpyramid.source_names import file_name, names_of
from paperpyramid.tokens import TokenCounter

IMPORT_PROMPT_VERSION = "imported"


class _Insight(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int
    text: str
    pages: list[int] = []
    section: str | None = None


class _Concept(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int
    text: str
    insight_ids: list[int] = []


class Distillation(BaseModel):
    """A distillation file; unknown fields are ignored."""

    model_config = ConfigDict(extra="ignore")
    pdf: str | None = None
    sha256: str | None = None
    pages: int | None = None
    producer: str | None = None
    insights: list[_Insight]
    concepts: list[_Concept] = []
    abstract: str | None = None


class UnmatchedDistillation(BadInput):
    """No article (or more than one) matches the file's sha256 or PDF name."""


def match_article(conn: Connection, data: Distillation) -> str:
    """The id of the one article the file names, by sha256 first, then by PDF file name."""
    if data.sha256:
        found_by_sha = distill_exchange.article_with_sha256(conn, data.sha256.lower())
        if found_by_sha is not None:
            return found_by_sha
    if data.pdf:
        name = file_name(data.pdf)
        named = [(article_id, names_of(uri, pages)) for article_id, uri, pages in distill_exchange.article_sources(conn)]
        found = [article_id for article_id, names in named if names[:1] == (name,)]
        found = found or [article_id for article_id, names in named if name in names]
        if len(found) == 1:
            return str(found[0])
        if len(found) > 1:
            raise UnmatchedDistillation(f"{len(found)} articles come from a file named {name}; give the distillation a sha256")
    raise UnmatchedDistillation(f"no article matches sha256 {data.sha256 or '(none)'} or PDF name {data.pdf or '(none)'}")


def load_distillation(path: Path) -> Distillation:
    try:
        return Distillation.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as exc:
        raise BadInput(f"{path}: not a distillation file ({str(exc).splitlines()[0]})") from exc


def pyramid_from_file(
    conn: Connection, path: Path, *, counter: TokenCounter, embedder: Embedder | None = None
) -> db_pyramid.ArticlePyramid:
    """The pyramid a file describes, matched and linked to its article, ready to store."""
    data = load_distillation(path)
    article_id = match_article(conn, data)
    pages = article_pages(conn, article_id)
    linker = Linker(pages)
    warnings: list[str] = []
    insights: list[db_pyramid.InsightRow] = []
    index_of: dict[int, int] = {}
    for item in data.insights:
        text = clean(item.text)
        if text is None:
            warnings.append(f"insight {item.id} is empty; skipped")
            continue
        index_of[item.id] = len(insights)
        insights.append(
            db_pyramid.InsightRow(text, sorted(set(item.pages)), item.section, counter.count(text), linker.link(text, item.pages))
        )
    concepts = []
    for concept in data.concepts:
        linked = sorted({index_of[number] for number in concept.insight_ids if number in index_of})
        if len(linked) < len(set(concept.insight_ids)):
            warnings.append(f"concept {concept.id} names insights that are not in the file; those links dropped")
        text = " ".join(concept.text.split())
        if text:
            concepts.append(db_pyramid.ConceptRow(text, counter.count(text), linked))
    unlinked = sum(1 for row in insights if not row.contexts)
    if unlinked:
        warnings.append(f"{unlinked} of {len(insights)} insights match no context on their pages and have no drill-down")
    abstract = " ".join((data.abstract or "").split()) or None
    pyramid = db_pyramid.ArticlePyramid(
        article_id,
        f"import:{data.producer or path.name}"[:200],
        IMPORT_PROMPT_VERSION,
        insights,
        concepts,
        abstract,
        counter.count(abstract) if abstract else 0,
        [],
        warnings,
    )
    if embedder is not None:
        pyramid.vectors = embed_pyramid(pyramid, embedder)
    return pyramid


def export_distillation(conn: Connection, article_id: str) -> dict[str, Any]:
    """The article's stored pyramid in the exchange format."""
    article = distill_exchange.article_file(conn, article_id)
    if article is None:
        raise KeyError(f"no article {article_id!r}")
    pyramid = distill_exchange.stored_pyramid(conn, article_id)
    if pyramid is None:
        raise KeyError(f"article {article_id!r} is not distilled")
    return {
        "pdf": PurePosixPath(str(article.source_uri or "")).name or None,
        "sha256": article.sha256,
        "pages": article.pages,
        "producer": f"paperpyramid {pyramid.model} prompts {pyramid.prompt_version}",
        "insights": [{"id": item.position, "text": item.text, "pages": item.pages, "section": item.section} for item in pyramid.insights],
        "concepts": [{"id": item.position, "text": item.text, "insight_ids": item.insight_positions} for item in pyramid.concepts],
        "abstract": pyramid.abstract,
    }


#: distillation files stored in one transaction by :func:`import_distillations`
IMPORT_BATCH = 64


def import_distillations(
    db_path: str | Path, paths: list[Path], *, counter: TokenCounter | None = None, embedder: Embedder | None = None
) -> list[tuple[Path, str | None, str | None]]:
    """Load each file into the corpus (replacing the article's earlier pyramid); return (file,
    article id or None, error or None) per file, in order.

    Files are stored ``IMPORT_BATCH`` to a transaction (:func:`~paperpyramid.db.pyramid.store_pyramids`:
    the insights' full-text rows in one statement, ~1.4x less of the writer's time than one at a
    time). A file that cannot be read fails alone; a batch whose storing fails is rolled back
    and stored again one file at a time, so that only the file at fault fails."""
    from paperpyramid.db.writer import connect

    counter = counter or TokenCounter()
    results: dict[int, tuple[Path, str | None, str | None]] = {}
    db = connect(db_path)
    try:
        for start in range(0, len(paths), IMPORT_BATCH):
            read: list[tuple[int, db_pyramid.ArticlePyramid]] = []
            for index in range(start, min(start + IMPORT_BATCH, len(paths))):
                try:
                    read.append((index, pyramid_from_file(db.conn, paths[index], counter=counter, embedder=embedder)))
                except BadInput as exc:
                    results[index] = (paths[index], None, str(exc))
            for index, article_id, error in _store_read(db.conn, read):
                results[index] = (paths[index], article_id, error)
    finally:
        db.close()
    return [results[index] for index in range(len(paths))]


def _store_read(conn: Any, read: list[tuple[int, db_pyramid.ArticlePyramid]]) -> list[tuple[int, str | None, str | None]]:
    """Store the pyramids read from a batch of files, together, or one by one where that fails."""
    try:
        db_pyramid.store_pyramids(conn, [pyramid for _, pyramid in read])
        return [(index, pyramid.article_id, None) for index, pyramid in read]
    except Exception:  # a clash of vector sizes, say: find the file at fault
        db_pyramid.roll_back(conn)
    stored: list[tuple[int, str | None, str | None]] = []
    for index, pyramid in read:
        try:
            db_pyramid.store_pyramid(conn, pyramid)
        except Exception as exc:
            db_pyramid.roll_back(conn)
            stored.append((index, None, f"could not store its pyramid: {type(exc).__name__}: {exc}"))
            continue
        stored.append((index, pyramid.article_id, None))
    return stored
