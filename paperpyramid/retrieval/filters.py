"""Which contexts a search may return: by article, year, journal, MeSH heading, publication type,
and whether the references section counts. Questions rarely want a reference list, so it is left
out unless asked for."""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperpyramid.db.merging import articles_with_mesh, json_strings
from paperpyramid.db.queries import search as queries
from paperpyramid.db.queries.passages import Condition
from paperpyramid.db.sqlite import Connection

_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


@dataclass(frozen=True, slots=True)
class Filters:
    """Restrictions on a search; the default restricts nothing but the references section.

    ``article_ids``: only these articles. ``year_from`` / ``year_to``: publication year within
    these bounds (inclusive; articles with no known year are left out when either is set).
    ``journal``: the journal's name, any case. ``include_references``: search the references
    section too. ``mesh``: articles indexed with this MeSH heading (the descriptor's name, such
    as "Neoplasms", any case; PubMed records give them). ``publication_type``: articles of this
    PubMed publication type ("Review", "Randomized Controlled Trial"; any case).
    """

    article_ids: tuple[str, ...] | None = None
    year_from: int | None = None
    year_to: int | None = None
    journal: str | None = None
    include_references: bool = False
    mesh: str | None = None
    publication_type: str | None = None

    @property
    def restricts_articles(self) -> bool:
        """Whether the filters leave out some articles (by id, year, journal, MeSH heading or
        publication type)."""
        return any(
            value is not None for value in (self.article_ids, self.year_from, self.year_to, self.journal, self.mesh, self.publication_type)
        )


def year_of(date_published: str | None) -> int | None:
    """The year of a stored publication date: the first four characters of the ISO 8601 date the
    writer stores ("2014-11-23", "2014-11", "2014"); in the free text of a corpus read without
    migrating ("27 Jan 2015"), the first year written in it; None when there is none."""
    if not date_published:
        return None
    if date_published[:4].isdigit() and date_published[4:5] in ("", "-"):
        return int(date_published[:4])
    match = _YEAR.search(date_published)
    return int(match.group(1)) if match else None


def allowed_articles(conn: Connection, filters: Filters) -> list[str] | None:
    """The ids of the articles the filters allow, or None when they allow every article."""
    if not filters.restricts_articles:
        return None
    wanted = None if filters.article_ids is None else set(filters.article_ids)
    if filters.mesh is not None:
        indexed = articles_with_mesh(conn, filters.mesh)
        wanted = indexed if wanted is None else wanted & indexed
    journal = None if filters.journal is None else filters.journal.strip().casefold()
    kind = None if filters.publication_type is None else filters.publication_type.strip().casefold()
    allowed: list[str] = []
    for article_id, date_published, article_journal, types in queries.article_facets(conn):
        if wanted is not None and article_id not in wanted:
            continue
        if journal is not None and (article_journal or "").strip().casefold() != journal:
            continue
        if kind is not None and kind not in {given.strip().casefold() for given in json_strings(types)}:
            continue
        if filters.year_from is not None or filters.year_to is not None:
            year = year_of(date_published)
            if (
                year is None
                or (filters.year_from is not None and year < filters.year_from)
                or (filters.year_to is not None and year > filters.year_to)
            ):
                continue
        allowed.append(str(article_id))
    return allowed


def sql_condition(conn: Connection, filters: Filters, article: str = "a.id", section_number: str = "s.section_number") -> Condition:
    """A SQL condition (and its parameters) over a row joined to its article and section, written
    by :func:`paperpyramid.db.queries.search.filter_condition`."""
    return queries.filter_condition(filters.include_references, allowed_articles(conn, filters), article, section_number)


__all__ = ["Filters", "allowed_articles", "sql_condition", "year_of"]
