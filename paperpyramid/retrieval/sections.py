"""A paper's sections as a reader walks them: its outline in reading order, a section's
passages, the section before or after, and the paper's passages in reading order.

Read through :mod:`paperpyramid.db.queries.passages`. The references section is left out unless ``include_references`` is set, as it
is in search: the outline, the neighbours and the reading order skip it, and its passages are
not handed out.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperpyramid.db.queries import passages
from paperpyramid.db.sqlite import Connection
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.passages import hit_from_row


@dataclass(frozen=True, slots=True)
class Heading:
    """A section as an outline shows it: ``position`` is its place in the paper's reading
    order (subsections follow their parent), ``level`` its depth (1 for a top section), ``page``
    its first page."""

    id: str
    article_id: str
    position: int
    number: str | None
    title: str | None
    level: int
    page: int | None

    @property
    def label(self) -> str:
        """How a reader names it: ``§3.2 Methods``, or the title alone when it has no number."""
        title = self.title or "(untitled)"
        return f"§{self.number} {title}" if self.number and self.number != "ref" else title


def outline(conn: Connection, article_id: str, *, include_references: bool = False) -> list[Heading]:
    """The paper's sections in reading order; empty for an unknown paper."""
    return [_heading(row) for row in passages.outline(conn, article_id, include_references)]


def heading(conn: Connection, section_id: str) -> Heading | None:
    """One section by id, or None."""
    row = passages.heading(conn, section_id)
    return None if row is None else _heading(row)


def section_passages(conn: Connection, section_id: str, *, include_references: bool = False) -> list[SearchHit]:
    """The section's passages in reading order, cited (score 0); none for the references
    section unless ``include_references``. A section's subsections are sections of their own:
    a heading with only subsections has no passages."""
    return [hit_from_row(row, 0.0) for row in passages.section_hit_rows(conn, section_id, include_references)]


def next_section(conn: Connection, section_id: str, *, include_references: bool = False) -> Heading | None:
    """The section after this one in its paper, or None at the paper's end."""
    return _neighbour(conn, section_id, True, include_references)


def previous_section(conn: Connection, section_id: str, *, include_references: bool = False) -> Heading | None:
    """The section before this one in its paper, or None at the paper's start."""
    return _neighbour(conn, section_id, False, include_references)


def reading_order(conn: Connection, article_id: str, *, include_references: bool = False) -> list[str]:
    """The ids of the paper's passages (contexts) in reading order."""
    return passages.reading_order(conn, article_id, include_references)


def _neighbour(conn: Connection, section_id: str, after: bool, include_references: bool) -> Heading | None:
    here = heading(conn, section_id)
    if here is None:
        return None
    row = passages.neighbour(conn, here.article_id, here.position, after=after, include_references=include_references)
    return None if row is None else _heading(row)


def _heading(row: passages.HeadingRow) -> Heading:
    section_id, article_id, position, number, title, level, page = row
    return Heading(str(section_id), str(article_id), int(position), number, title, int(level or 1), page)


__all__ = ["Heading", "heading", "next_section", "outline", "previous_section", "reading_order", "section_passages"]
