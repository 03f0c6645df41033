"""An article's pages as distillation reads them: numbered headings, paragraphs, list items,
tables and formulas, in reading order, one text per page, rendered by the export's renderer
(:mod:`paperpyramid.db.markdown_pages`, one code path) without the title block and the reference
list: they hold no findings. Each page keeps the contexts it was built from, so an insight
about a page can be linked back to verbatim text."""

from __future__ import annotations

from paperpyramid.db.markdown_pages import DISTILL, Page, PageContext, render_pages
from paperpyramid.db.sqlite import Connection

__all__ = ["Page", "PageContext", "article_pages"]


def article_pages(conn: Connection, article_id: str) -> list[Page]:
    """The article's pages in order; a context without a page number joins the page before it."""
    return render_pages(conn, article_id, DISTILL)
