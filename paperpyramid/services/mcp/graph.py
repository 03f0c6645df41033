"""The tools that follow links: ``pyramid`` (an article's distilled abstract, concepts and
insights, each insight with the passages it was distilled from) and ``citations`` (what an
article or a passage cites, and what cites the article).

The pyramid is read from its tables as :mod:`paperpyramid.retrieval.levels` reads them
(``insights_contexts`` links an insight to its verbatim contexts, ``concepts_insights`` a
concept to its insights); the citation graph through :mod:`paperpyramid.citation_graph`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from paperpyramid.citation_graph import CitationLink, sentence_around
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
    status = conn.execute("SELECT status FROM distillations WHERE article_id = ?", [article.id]).fetchone()
    distilled = conn.execute("SELECT text FROM abstracts WHERE article_id = ?", [article.id]).fetchone()
    abstract = distilled[0] if distilled else article.abstract
    insights = conn.execute("SELECT id, text, pages, section FROM insights WHERE article_id = ? ORDER BY position", [article.id]).fetchall()
    positions = {row[0]: number for number, row in enumerate(insights, 1)}
    next_offset, total = page_of(insights, offset, limit)
    answer: dict[str, Any] = {
        "article": tools.article_view(article),
        "distillation": status[0] if status else "not distilled",
        "abstract": None if abstract is None else {"text": budget.cut(abstract, ABSTRACT_CAP).text, "distilled": bool(distilled)},
        "concepts": _concepts(tools, article.id, positions),
        "insights": [_insight(tools, row, positions[row[0]]) for row in insights[offset : offset + limit]],
        "total_insights": total, "offset": offset, "next_offset": next_offset,
        "recollections": _recollections(tools, article.id),
    }  # fmt: skip
    if not status:
        answer["note"] = "this article has no distilled pyramid (run `paperpyramid distill`); the abstract is the printed one"
    return answer


def _concepts(tools: CorpusTools, article_id: str, positions: dict[str, int]) -> list[dict[str, Any]]:
    conn = tools.corpus.conn
    concepts = []
    for concept_id, text in conn.execute("SELECT id, text FROM concepts WHERE article_id = ? ORDER BY position", [article_id]):
        linked = [row[0] for row in conn.execute("SELECT insight_id FROM concepts_insights WHERE concept_id = ?", [concept_id])]
        concepts.append({"concept_id": concept_id, "text": tools.budget.cut(text, PASSAGE_CAP).text,
                         "insights": sorted(positions[item] for item in linked if item in positions)})  # fmt: skip
    return concepts


def _insight(tools: CorpusTools, row: tuple[Any, ...], number: int) -> dict[str, Any]:
    insight_id, text, pages, section = row
    linked = tools.corpus.conn.execute(
        "SELECT context_id FROM insights_contexts WHERE insight_id = ? ORDER BY score DESC", [insight_id]).fetchall()  # fmt: skip
    sources: list[dict[str, Any]] = []
    for (context_id,) in linked[:SOURCES_SHOWN]:
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
    rows = tools.corpus.conn.execute(
        "SELECT DISTINCT r.id, r.text FROM recollections AS r JOIN recollections_sources AS rs ON rs.recollection_id = r.id "
        "WHERE rs.article_id = ? ORDER BY r.created_at LIMIT ?", [article_id, RECOLLECTIONS_SHOWN],
    ).fetchall()  # fmt: skip
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
    rows = tools.corpus.conn.execute(
        """
        SELECT ci.bib_entry_id, b.raw, b.cited_article_id, coalesce(a.title, b.title), c.text, ci.char_start, ci.char_end
        FROM citations AS ci JOIN bib_entries AS b ON b.id = ci.bib_entry_id JOIN contexts AS c ON c.id = ci.context_id
        LEFT JOIN articles AS a ON a.id = b.cited_article_id
        WHERE ci.context_id = ? ORDER BY ci.char_start
        """,
        [context_id],
    ).fetchall()
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
