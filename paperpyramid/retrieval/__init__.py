"""Finding contexts: the hit and citation every retriever returns, and the retrievers.

``bm25`` searches the FTS5 index over contexts. Vector and hybrid search return the same
:class:`SearchHit`, so callers never care which one answered.
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
        if self.section_number == "ref":
            section = self.section_title or "References"
        elif self.section_number:
            section = f"§{self.section_number} {self.section_title or ''}".rstrip()
        else:
            section = self.section_title or ""
        parts = [part for part in (section, _page(self.page_number)) if part]
        return f"{title} — {', '.join(parts)}" if parts else title


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One retrieved context; a higher ``score`` is a better match."""

    context_id: str
    text: str
    score: float
    citation: Citation

    def cite(self) -> str:
        """One line a person can follow to the source, e.g. ``Title — §2.1 Methods, p. 4``."""
        return str(self.citation)


def _page(page_number: int | None) -> str:
    return "" if page_number is None else f"p. {page_number}"


__all__ = ["Citation", "SearchHit"]
