"""Finding contexts: the passage and citation every retriever returns, and the retrievers.

``bm25`` searches the FTS5 index over contexts, ``vector`` the sqlite-vec table of the active
embedding model, ``hybrid`` fuses the two and ``parent`` widens the best hybrid hits with their
neighbours; :func:`paperpyramid.retrieval.api.retrieve` is the one entry point. Every mode
returns :class:`SearchHit` passages, so callers never care which one answered.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a context comes from: article, section and page."""

    article_id: str
    article_title: str | None
    section_id: str
    section_number: str | None
    section_title: str | None
    page_number: int | None

    def __str__(self) -> str:
        title = self.article_title or "Untitled"
        parts = [part for part in (self.section(), _page(self.page_number)) if part]
        return f"{title} — {', '.join(parts)}" if parts else title

    def section(self) -> str:
        """The section as printed, ``§2.1 Methods`` (its title alone where it has no number)."""
        if self.section_number == "ref":
            return self.section_title or "References"
        if self.section_number:
            return f"§{self.section_number} {self.section_title or ''}".rstrip()
        return self.section_title or ""

    def place(self) -> str:
        """Where in the article an answer cites: ``p. 4``, or, for an article without pages (read
        from its XML alone), its section, ``§2.1 Methods`` (``§ Methods`` where it has no number);
        "" where neither is known."""
        if self.page_number is not None:
            return _page(self.page_number)
        section = self.section()
        return section if not section or section.startswith("§") else f"§ {section}"


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One retrieved passage (a context); a higher ``score`` is a better match within one
    mode's results. ``num_tokens`` counts the text with the contexts' tokenizer.

    A hit on a distilled level (``level`` "insights", "concepts", "abstracts" or
    "recollections") carries the item's own text and id, and ``sources``: the verbatim
    contexts it was distilled from, so the answer can be cited to pages; its ``context_id``
    and ``citation`` are those of its first source (a citation to the article when it has none).
    """

    context_id: str
    text: str
    score: float
    citation: Citation
    num_tokens: int = 0
    level: str = "contexts"
    item_id: str | None = None
    sources: tuple[SearchHit, ...] = ()

    @property
    def key(self) -> str:
        """What identifies the hit within one level: the item's id, or the context's."""
        return self.item_id or self.context_id

    def cite(self) -> str:
        """One line a person can follow to the source, e.g. ``Title — §2.1 Methods, p. 4``."""
        return str(self.citation)


#: A retrieved passage; the name the retrieval API uses.
Passage = SearchHit


def _page(page_number: int | None) -> str:
    return "" if page_number is None else f"p. {page_number}"


__all__ = ["Citation", "Passage", "SearchHit"]
