"""An article's pages as markdown, rebuilt from the stored structure: numbered headings,
paragraphs, list items, tables and formulas, in reading order, one text per page. The
reference list is left out: it holds no findings. Each page keeps the contexts it was built
from, so an insight about a page can be linked back to verbatim text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_SELECT = """
SELECT c.id, c.text, c.kind, c.page_number, s.id, s.section_number, s.section_title, s.level
FROM article_sections AS ars
JOIN sections AS s ON s.id = ars.section_id
JOIN sections_contexts AS sc ON sc.section_id = s.id
JOIN contexts AS c ON c.id = sc.context_id
WHERE ars.article_id = ?
ORDER BY ars.position, sc.position
"""


@dataclass(frozen=True, slots=True)
class PageContext:
    """A context as it appears on a page."""

    context_id: str
    text: str
    section: str | None  # "2.1 Methods"


@dataclass(slots=True)
class Page:
    number: int
    markdown: str
    contexts: list[PageContext] = field(default_factory=list)


def article_pages(conn: Any, article_id: str) -> list[Page]:
    """The article's pages in order; a context without a page number joins the page before it."""
    pages: dict[int, list[str]] = {}
    contexts: dict[int, list[PageContext]] = {}
    page = 1
    last_heading: dict[int, str] = {}
    for context_id, text, kind, page_number, section_id, number, title, level in conn.execute(_SELECT, [article_id]):
        if number == "ref":
            continue
        page = int(page_number) if page_number is not None else page
        section = section_label(number, title)
        lines = pages.setdefault(page, [])
        if section and last_heading.get(page) != section_id:
            continued = any(section_id == heading for heading in last_heading.values())
            lines.append(f"{'#' * min(max(int(level or 1), 1) + 1, 6)} {section}{' (continued)' if continued and not lines else ''}")
            last_heading[page] = section_id
        lines.append(_block(text, kind))
        contexts.setdefault(page, []).append(PageContext(context_id, text, section))
    return [Page(number, "\n\n".join(pages[number]), contexts[number]) for number in sorted(pages)]


def section_label(number: str | None, title: str | None) -> str | None:
    """"2.1 Methods", "Methods" or None."""
    parts = [part for part in (number if number and number != "ref" else None, title) if part]
    return " ".join(parts) if parts else None


def _block(text: str, kind: str) -> str:
    if kind == "list_item":
        return f"- {text}"
    if kind == "formula":
        return f"$$ {text} $$"
    if kind == "caption":
        return f"*{text}*"
    return text  # paragraphs, and tables (their contexts are the table's markdown or text)
