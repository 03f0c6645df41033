"""Reading the citation graph: what an article cites, what cites it, and the passages that do.

Rows come from ``citations`` (a passage's marker and the reference entry it names) and
``bib_entries.cited_article_id`` (the entry resolved to an article of the corpus, see
db/references.py), read by :mod:`paperpyramid.db.queries.graph`. Every passage carries its page, so a citation can be followed to
``[title, p. N]`` on both sides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperpyramid.db.queries import graph
from paperpyramid.db.sqlite import Connection

#: Characters of a citing sentence kept on either side of its marker.
SENTENCE_REACH = 300
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z(\[])")


@dataclass(frozen=True, slots=True)
class CitingPassage:
    """A passage that cites an entry: the context, where it is, its marker and the sentence
    around the marker."""

    context_id: str
    page_number: int | None
    section_title: str | None
    marker: str
    sentence: str


@dataclass(frozen=True, slots=True)
class CitationLink:
    """One reference entry of ``citing_article_id``: what it names (``cited_article_id`` when it
    is an article of this corpus) and the passages citing it, in reading order."""

    citing_article_id: str
    citing_title: str | None
    entry_id: str
    entry: str
    cited_article_id: str | None
    cited_title: str | None
    passages: tuple[CitingPassage, ...]


def cites(conn: Connection, article_id: str, *, in_corpus: bool = False) -> list[CitationLink]:
    """The entries of ``article_id``'s reference list in printed order, each with the passages
    citing it; only those naming an article of the corpus with ``in_corpus``."""
    return _links(conn, graph.entries_of(conn, article_id, in_corpus=in_corpus))


def cited_by(conn: Connection, article_id: str) -> list[CitationLink]:
    """The entries, in other articles, that name ``article_id``, each with its citing passages."""
    return _links(conn, graph.entries_naming(conn, article_id))


def citing_articles(conn: Connection, article_id: str) -> list[str]:
    """The ids of the articles that cite ``article_id``, oldest first."""
    return graph.citing_articles(conn, article_id)


@dataclass(frozen=True, slots=True)
class Followable:
    """A citation in a passage that names an article of the corpus: where following it leads,
    and the citing sentence (what to look for there)."""

    cited_article_id: str
    cited_title: str | None
    sentence: str


def followable(conn: Connection, context_ids: list[str]) -> dict[str, list[Followable]]:
    """For each of ``context_ids`` that cites articles of the corpus, those citations in text
    order (one per cited article)."""
    found: dict[str, list[Followable]] = {}
    for context_id, cited, title, text, start, end in graph.followable(conn, context_ids):
        links = found.setdefault(context_id, [])
        if all(link.cited_article_id != cited for link in links):
            links.append(Followable(cited, title, sentence_around(text, start, end)))
    return found


def _links(conn: Connection, entries: list[graph.EntryRow]) -> list[CitationLink]:
    passages: dict[str, list[CitingPassage]] = {}
    if entries:
        for entry_id, context_id, page, section, text, start, end in graph.citing_passages(conn, [row[0] for row in entries]):
            passages.setdefault(entry_id, []).append(
                CitingPassage(context_id, page, section, text[start:end], sentence_around(text, start, end))
            )
    return [
        CitationLink(article, citing_title, entry_id, raw, cited, cited_title or entry_title, tuple(passages.get(entry_id, ())))
        for entry_id, article, citing_title, raw, entry_title, cited, cited_title in entries
    ]


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` holding ``text[start:end]``, at most :data:`SENTENCE_REACH`
    characters either side of it."""
    low = max(0, start - SENTENCE_REACH)
    before = [match.end() for match in _SENTENCE_END.finditer(text, low, start)]
    begin = before[-1] if before else low
    after = _SENTENCE_END.search(text, end, min(len(text), end + SENTENCE_REACH))
    finish = after.start() + 1 if after else min(len(text), end + SENTENCE_REACH)
    return " ".join(text[begin:finish].split())


__all__ = ["CitationLink", "CitingPassage", "Followable", "followable", "cited_by", "cites", "citing_articles", "sentence_around"]
