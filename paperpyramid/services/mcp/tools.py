"""The read-only tools over a :class:`~paperpyramid.corpus.Corpus`, as plain functions of a
:class:`CorpusTools`: search, list_articles, outline, read_section, next/previous_section,
context_window and cite (``pyramid`` and ``citations`` are in :mod:`.graph`).

Each returns a JSON-ready dict, bounded by :mod:`.bounds`, whose passages all carry the ids the
next tool takes (``context_id``, ``section_id``, ``article_id``) and a citation ``[title, p. N]``.
Bad input raises ``KeyError`` (an unknown id) or ``ValueError`` (a bad filter, mode or format),
each with a message for the model; :mod:`.server` turns them into tool errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paperpyramid.errors import ConfigurationError
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters, allowed_articles, year_of
from paperpyramid.services.mcp.bounds import (
    ABSTRACT_CAP,
    PASSAGE_CAP,
    READ_TOKENS,
    SOURCE_CAP,
    Budget,
    page_of,
    short_citation,
)

if TYPE_CHECKING:
    from paperpyramid.corpus import Article, ContextRow, Corpus, SectionRow

SEARCH_MODES = ("hybrid", "bm25", "vector", "parent")
SEARCH_LEVELS = ("contexts", "insights", "concepts", "abstracts", "recollections")
ARTICLE_URI = "paperpyramid://articles/{article_id}"


class CorpusTools:
    """The tools' logic over one open corpus (never used by two threads at once: the server
    holds a lock around each call)."""

    def __init__(self, corpus: Corpus, budget: Budget | None = None) -> None:
        self.corpus = corpus
        self.budget = budget or Budget()
        self._titles: dict[str, str | None] = {}

    # the views every tool shares

    def title(self, article_id: str) -> str | None:
        if article_id not in self._titles:
            self._titles[article_id] = self.corpus.article(article_id).title
        return self._titles[article_id]

    def context_view(self, row: ContextRow, cap: int = PASSAGE_CAP) -> dict[str, Any]:
        cut = self.budget.cut(row.text, cap, where=f"; call context_window({row.id!r}) or read_section({row.section_id!r})")
        view = {
            "context_id": row.id, "section_id": row.section_id,
            "section": _label(row.section_number, row.section_title), "page": row.page_number,
            "citation": short_citation(self.title(row.article_id), row.page_number), "tokens": cut.tokens, "text": cut.text,
        }  # fmt: skip
        if cut.truncated:
            view["truncated"] = True
        return view

    def hit_view(self, hit: SearchHit, cap: int = PASSAGE_CAP) -> dict[str, Any]:
        where = f"; call context_window({hit.context_id!r})" if hit.context_id else ""
        cut = self.budget.cut(hit.text, cap, where=where)
        citation = hit.citation
        view: dict[str, Any] = {}
        if hit.level != "contexts":
            view.update(level=hit.level, item_id=hit.item_id)
        view.update(
            context_id=hit.context_id or None, article_id=citation.article_id or None, section_id=citation.section_id or None,
            section=_label(citation.section_number, citation.section_title), page=citation.page_number,
            citation=short_citation(citation.article_title, citation.page_number, citation.section()), score=round(hit.score, 4), tokens=cut.tokens, text=cut.text,
        )  # fmt: skip
        if cut.truncated:
            view["truncated"] = True
        if hit.sources:
            view["sources"] = [self.hit_view(source, SOURCE_CAP) for source in hit.sources]
        return view

    def section_view(self, row: SectionRow, *, brief: bool = False) -> dict[str, Any]:
        """A section; ``brief`` (in an outline, where the order and ``level`` give the tree) without
        its article and parent ids."""
        view = {
            "section_id": row.id, "article_id": row.article_id, "number": row.number, "title": row.title, "level": row.level,
            "parent_id": row.parent_id, "page_start": row.page_start, "page_end": row.page_end, "tokens": row.num_tokens,
        }  # fmt: skip
        if brief:
            del view["article_id"], view["parent_id"]
        return view

    def article_view(self, article: Article, *, abstract: bool = False) -> dict[str, Any]:
        names = [author.name for author in article.authors]
        view: dict[str, Any] = {
            "article_id": article.id, "title": article.title,
            "authors": names[:3] + (["et al."] if len(names) > 3 else []), "year": year_of(article.date_published),
            "journal": article.journal, "doi": article.doi, "pages": article.pages, "tokens": article.num_tokens,
        }  # fmt: skip
        if abstract:
            view["resource"] = ARTICLE_URI.format(article_id=article.id)
            if article.abstract:
                view["abstract"] = self.budget.cut(article.abstract, ABSTRACT_CAP).text
            indexing = {"pmid": article.pmid, "mesh": [term.term + ("*" if term.major else "") for term in article.mesh],
                        "publication_types": list(article.publication_types)}  # fmt: skip
            view |= {name: value for name, value in indexing.items() if value}
        return view

    # the tools

    def search(
        self,
        query: str,
        *,
        mode: str = "hybrid",
        level: str = "contexts",
        k: int = 10,
        budget_tokens: int = 4000,
        filters: Filters | None = None,
    ) -> dict[str, Any]:
        if mode not in SEARCH_MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of: {', '.join(SEARCH_MODES)}")
        if level not in SEARCH_LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(SEARCH_LEVELS)}")
        if level != "contexts" and mode == "parent":
            raise ValueError("mode 'parent' returns passages; search a distilled level with hybrid, bm25 or vector")
        filters = self.check_filters(filters or Filters())
        used, note = self._mode_for(mode)
        try:
            hits = self.corpus.retrieve(
                query, mode=used, level=level, k=k, budget_tokens=budget_tokens if used == "parent" else None, filters=filters
            )
        except ConfigurationError as exc:  # vectors stored, but the query model's weights are not installed here
            if used == "bm25" or used == "parent":
                raise
            used, note = "bm25", f"the query embedder could not load ({exc}); searched by keywords (bm25) instead"
            hits = self.corpus.retrieve(query, mode="bm25", level=level, k=k, filters=filters)
        results: list[dict[str, Any]] = []
        spent = left_out = 0
        for hit in hits:
            view = self.hit_view(hit)
            tokens = view["tokens"] + sum(source["tokens"] for source in view.get("sources", ()))
            if results and spent + tokens > budget_tokens:
                left_out = len(hits) - len(results)
                break
            results.append(view)
            spent += tokens
        answer: dict[str, Any] = {"query": query, "mode": used, "level": level, "hits": results, "tokens": spent}
        if note:
            answer["note"] = note
        if left_out:
            answer["left_out"] = f"{left_out} more hits did not fit budget_tokens={budget_tokens}"
        if not results:
            answer["note"] = (
                answer.get("note", "") + " " if note else ""
            ) + "no passage matched; try other words, mode='bm25', or fewer filters"
        return answer

    def _mode_for(self, mode: str) -> tuple[str, str | None]:
        """The mode a search runs in, and why when it is not the one asked for."""
        if mode in ("hybrid", "vector") and not self.corpus.has_vectors():
            return "bm25", f"this corpus has no vectors from the query embedder, so {mode!r} is not available: searched by keywords (bm25)"
        if mode == "parent" and not self.corpus.has_vectors():
            return "parent", "this corpus has no vectors: parent widened the best keyword (bm25) hits"
        return mode, None

    def check_filters(self, filters: Filters) -> Filters:
        """The filters with their articles named by id (a DOI is looked up), refused when they
        name an unknown article or an empty year range."""
        if filters.article_ids is not None:
            if not filters.article_ids:
                raise ValueError("article_ids is empty: leave it out to search every article")
            filters = replace(filters, article_ids=tuple(self.corpus.article(given).id for given in filters.article_ids))
        if filters.year_from is not None and filters.year_to is not None and filters.year_from > filters.year_to:
            raise ValueError(f"year_from {filters.year_from} is after year_to {filters.year_to}")
        return filters

    def list_articles(self, *, filters: Filters | None = None, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        filters = self.check_filters(filters or Filters())
        allowed = allowed_articles(self.corpus.conn, filters)
        articles = [article for article in self.corpus.articles() if allowed is None or article.id in allowed]
        next_offset, total = page_of(articles, offset, limit)
        return {"articles": [self.article_view(article) for article in articles[offset : offset + limit]], "total": total,
                "offset": offset, "next_offset": next_offset}  # fmt: skip

    def outline(self, article_id: str, *, offset: int = 0, limit: int = 200) -> dict[str, Any]:
        article = self.corpus.article(article_id)
        sections = self.corpus.sections(article.id)
        next_offset, total = page_of(sections, offset, limit)
        return {"article": self.article_view(article, abstract=True), "sections": [self.section_view(row, brief=True) for row in sections[offset : offset + limit]],
                "total_sections": total, "offset": offset, "next_offset": next_offset}  # fmt: skip

    def read_section(self, section_id: str, *, offset: int = 0, max_tokens: int = READ_TOKENS) -> dict[str, Any]:
        section = self.corpus.section(section_id)
        contexts = self.corpus.contexts(section_id)
        if offset > len(contexts):
            raise ValueError(f"offset {offset} is past the section's last passage ({len(contexts)} passages)")
        passages: list[dict[str, Any]] = []
        spent, position = 0, offset
        while position < len(contexts):
            row = contexts[position]
            room = max_tokens - spent
            if passages and row.num_tokens > room:
                break
            view = self.context_view(row, cap=max(1, room))
            passages.append(view)
            spent += view["tokens"]
            position += 1
            if view.get("truncated"):
                break  # a passage longer than the whole page: its rest is read with context_window
        after = self.corpus.next_section(section_id)
        before = self.corpus.previous_section(section_id)
        return {
            "section": self.section_view(section), "citation": short_citation(self.title(section.article_id), section.page_start),
            "passages": passages, "offset": offset, "next_offset": position if position < len(contexts) else None,
            "total_passages": len(contexts), "tokens": spent,
            "next_section_id": after.id if after else None, "previous_section_id": before.id if before else None,
        }  # fmt: skip

    def neighbour(self, section_id: str, *, forward: bool, max_tokens: int = READ_TOKENS) -> dict[str, Any]:
        row = self.corpus.next_section(section_id) if forward else self.corpus.previous_section(section_id)
        if row is None:
            return {"section": None, "note": f"section {section_id!r} is the paper's {'last' if forward else 'first'} section"}
        if max_tokens == 0:
            return {"section": self.section_view(row), "next_offset": 0}
        return self.read_section(row.id, max_tokens=max_tokens)

    def context_window(self, context_id: str, *, before: int = 2, after: int = 2) -> dict[str, Any]:
        rows = self.corpus.parent_contexts(context_id, before=before, after=after)
        passages = []
        for row in rows:
            view = self.context_view(row)
            if row.id == context_id:
                view["asked"] = True
            passages.append(view)
        return {"context_id": context_id, "article_id": rows[0].article_id if rows else None, "passages": passages,
                "tokens": sum(view["tokens"] for view in passages)}  # fmt: skip

    def cite(self, ids: Sequence[str], *, format: str = "text") -> dict[str, Any]:  # noqa: A002  (the tool's argument name)
        from paperpyramid.export.cite import format_citations, works

        if not ids:
            raise ValueError("give at least one id: an article id, a DOI or a context_id")
        text = format_citations(self.corpus, list(ids), format)
        return {"format": format, "works": len(works(self.corpus, list(ids))), "citations": text}


def _label(number: str | None, title: str | None) -> str | None:
    if number == "ref":
        return title or "References"
    return " ".join(part for part in (number, title) if part) or None


__all__ = ["ARTICLE_URI", "SEARCH_LEVELS", "SEARCH_MODES", "CorpusTools"]
