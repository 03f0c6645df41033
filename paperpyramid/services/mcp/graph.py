"""The tools that follow links: ``pyramid`` (an article's distilled abstract, concepts and
insights, each insight with the passages it was distilled from) and ``citations`` (what an
article or a passage cites, and what cites the article).

The pyramid is read through :mod:`paperpyramid.db.queries.article_pyramid` (an insight links to
its verbatim contexts, a concept to its insights); the citation graph through
:mod:`paperpyramid.citation_graph`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from paperpyramid.citation_graph import CitationLink, sentence_around
from paperpyramid.db.queries import article_pyramid, graph
from paperpyramid.services.mcp.bounds import ABSTRACT_CAP, PASSAGE_CAP, SNIPPET_CAP, page_of, short_citation

if TYPE_CHECKING:
    from paperpyramid.services.mcp.tools import CorpusTools

#: source passages shown per insight, and citing passages per reference entry
SOURCES_SHOWN = 3
PASSAGES_SHOWN = 3
RECOLLECTIONS_SHOWN = 10


def pyramid(tools: CorpusTools, article_id: str, *, offset: int = 0, limit: int = 20) -> dict[str, Any]:
    """The article's pyramid: its distilled abstract (else the printed one), its concepts, a page
    of its insights with their source passages, and the recollections it takes part in."""
    conn, budget = tools.corpus.conn, tools.budget
    article = tools.corpus.article(article_id)
    status = article_pyramid.distillation_status(conn, article.id)
    distilled = article_pyramid.distilled_abstract(conn, article.id)
    abstract = distilled if distilled is not None else article.abstract
    insights = article_pyramid.insights(conn, article.id)
    positions = {row[0]: number for number, row in enumerate(insights, 1)}
    next_offset, total = page_of(insights, offset, limit)
    answer: dict[str, Any] = {
        "article": tools.article_view(article),
        "distillation": status if status is not None else "not distilled",
        "abstract": None if abstract is None else {"text": budget.cut(abstract, ABSTRACT_CAP).text, "distilled": distilled is not None},
        "concepts": _concepts(tools, article.id, positions),
        "insights": [_insight(tools, row, positions[row[0]]) for row in insights[offset : offset + limit]],
        "total_insights": total, "offset": offset, "next_offset": next_offset,
        "recollections": _recollections(tools, article.id),
    }  # fmt: skip
    if status is None:
        answer["note"] = "this article has no distilled pyramid (run `paperpyramid distill`); the abstract is the printed one"
    return answer


def _concepts(tools: CorpusTools, article_id: str, positions: dict[str, int]) -> list[dict[str, Any]]:
    conn = tools.corpus.conn
    concepts = []
    for concept_id, text in article_pyramid.concepts(conn, article_id):
        linked = article_pyramid.concept_insights(conn, concept_id)
        concepts.append({"concept_id": concept_id, "text": tools.budget.cut(text, PASSAGE_CAP).text,
                         "insights": sorted(positions[item] for item in linked if item in positions)})  # fmt: skip
    return concepts


def _insight(tools: CorpusTools, row: article_pyramid.InsightRow, number: int) -> dict[str, Any]:
    insight_id, text, pages, section = row
    linked = article_pyramid.insight_contexts(tools.corpus.conn, insight_id)
    sources: list[dict[str, Any]] = []
    for context_id in linked[:SOURCES_SHOWN]:
        try:
            context = tools.corpus.context(context_id)
        except KeyError:
            continue  # a link to a context re-ingested since: nothing to show
        # the best source quoted, the others by id and page (context_window reads them)
        view = tools.context_view(context, cap=SNIPPET_CAP)
        if sources:
            view.pop("text")
            view.pop("truncated", None)
            view["tokens"] = 0
        sources.append(view)
    return {"insight_id": insight_id, "number": number, "text": tools.budget.cut(text, PASSAGE_CAP).text, "pages": json.loads(pages or "[]"),
            "section": section, "sources": sources, "more_sources": max(0, len(linked) - SOURCES_SHOWN)}  # fmt: skip


def _recollections(tools: CorpusTools, article_id: str) -> list[dict[str, Any]]:
    rows = article_pyramid.recollections_of(tools.corpus.conn, article_id, RECOLLECTIONS_SHOWN)
    return [{"recollection_id": item, "text": tools.budget.cut(text, PASSAGE_CAP).text} for item, text in rows]


def citations(tools: CorpusTools, id_: str, *, direction: str = "both", offset: int = 0, limit: int = 10) -> dict[str, Any]:
    """For an article: its reference entries (``cites``) and the entries of other articles of
    the corpus naming it (``cited_by``), a page of each, with the passages that cite them. For
    a passage (context id): the citations in it, each with its marker, entry and sentence."""
    if direction not in ("both", "cites", "cited_by"):
        raise ValueError(f"unknown direction {direction!r}; choose one of: both, cites, cited_by")
    try:
        article = tools.corpus.article(id_)
    except KeyError:
        article = None
    if article is None:
        try:
            context = tools.corpus.context(id_)
        except KeyError:
            raise KeyError(f"no article, DOI or passage (context) with id {id_!r}") from None
        return _in_passage(tools, context.id, context.article_id, context.page_number)
    answer: dict[str, Any] = {"article": tools.article_view(article)}
    for name, links in (("cites", tools.corpus.cites), ("cited_by", tools.corpus.cited_by)):
        if direction in ("both", name):
            found = links(article.id)
            next_offset, total = page_of(found, offset, limit)
            answer[name] = {"entries": [_link(tools, link, name) for link in found[offset : offset + limit]], "total": total,
                            "offset": offset, "next_offset": next_offset}  # fmt: skip
    return answer


def _link(tools: CorpusTools, link: CitationLink, direction: str) -> dict[str, Any]:
    cut = tools.budget.cut
    view: dict[str, Any] = {"entry_id": link.entry_id, "entry": cut(link.entry, SNIPPET_CAP).text}
    if direction == "cites":
        view.update(cited_article_id=link.cited_article_id, cited_title=link.cited_title)
    else:
        view.update(citing_article_id=link.citing_article_id, citing_title=link.citing_title)
    view["passages"] = [
        {"context_id": passage.context_id, "page": passage.page_number, "citation": short_citation(link.citing_title, passage.page_number),
         "marker": passage.marker, "sentence": cut(passage.sentence, SNIPPET_CAP).text}
        for passage in link.passages[:PASSAGES_SHOWN]
    ]  # fmt: skip
    view["more_passages"] = max(0, len(link.passages) - PASSAGES_SHOWN)
    return view


def _in_passage(tools: CorpusTools, context_id: str, article_id: str, page: int | None) -> dict[str, Any]:
    rows = graph.citations_in(tools.corpus.conn, context_id)
    cut = tools.budget.cut
    found = [
        {"marker": text[start:end], "entry_id": entry_id, "entry": cut(raw or "", SNIPPET_CAP).text, "cited_article_id": cited,
         "cited_title": title, "sentence": cut(sentence_around(text, start, end), SNIPPET_CAP).text}
        for entry_id, raw, cited, title, text, start, end in rows
    ]  # fmt: skip
    return {
        "context_id": context_id,
        "article_id": article_id,
        "citation": short_citation(tools.title(article_id), page),
        "citations": found,
    }


__all__ = ["citations", "pyramid"]
