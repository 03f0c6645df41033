"""Reading the citation graph: what an article cites, what cites it, and the passages that do.

Rows come from ``citations`` (a passage's marker and the reference entry it names) and
``bib_entries.cited_article_id`` (the entry resolved to an article of the corpus, see
db/references.py). Every passage carries its page, so a citation can be followed to
``[title, p. N]`` on both sides.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from paperpyramid.db.bounded import measures_sizes, text_sql

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


_LINKS = """
SELECT b.id, b.article_id, citing.title, b.raw, b.title, b.cited_article_id, cited.title
FROM bib_entries AS b
JOIN articles AS citing ON citing.id = b.article_id
LEFT JOIN articles AS cited ON cited.id = b.cited_article_id
"""

_PASSAGES = """
SELECT ci.bib_entry_id, c.id, c.page_number, c.section_title, {text}, ci.char_start, ci.char_end
FROM citations AS ci
JOIN contexts AS c ON c.id = ci.context_id
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
WHERE ci.bib_entry_id IN (SELECT value FROM json_each(?))
ORDER BY ars.position, sc.position, ci.char_start
"""


def cites(conn: Any, article_id: str, *, in_corpus: bool = False) -> list[CitationLink]:
    """The entries of ``article_id``'s reference list in printed order, each with the passages
    citing it; only those naming an article of the corpus with ``in_corpus``."""
    where = "WHERE b.article_id = ?" + (" AND b.cited_article_id IS NOT NULL" if in_corpus else "")
    return _links(conn, f"{_LINKS} {where} ORDER BY b.position", [article_id])


def cited_by(conn: Any, article_id: str) -> list[CitationLink]:
    """The entries, in other articles, that name ``article_id``, each with its citing passages."""
    return _links(conn, f"{_LINKS} WHERE b.cited_article_id = ? ORDER BY citing.created_at, b.position", [article_id])


def citing_articles(conn: Any, article_id: str) -> list[str]:
    """The ids of the articles that cite ``article_id``, oldest first."""
    rows = conn.execute(
        "SELECT DISTINCT b.article_id FROM bib_entries AS b JOIN articles AS a ON a.id = b.article_id "
        "WHERE b.cited_article_id = ? ORDER BY a.created_at", [article_id]
    )  # fmt: skip
    return [str(row[0]) for row in rows]


@dataclass(frozen=True, slots=True)
class Followable:
    """A citation in a passage that names an article of the corpus: where following it leads,
    and the citing sentence (what to look for there)."""

    cited_article_id: str
    cited_title: str | None
    sentence: str


def followable(conn: Any, context_ids: list[str]) -> dict[str, list[Followable]]:
    """For each of ``context_ids`` that cites articles of the corpus, those citations in text
    order (one per cited article)."""
    rows = conn.execute(
        """
        SELECT ci.context_id, b.cited_article_id, a.title, {text}, ci.char_start, ci.char_end
        FROM citations AS ci
        JOIN bib_entries AS b ON b.id = ci.bib_entry_id
        JOIN articles AS a ON a.id = b.cited_article_id
        JOIN contexts AS c ON c.id = ci.context_id
        WHERE ci.context_id IN (SELECT value FROM json_each(?))
        ORDER BY ci.context_id, ci.char_start
        """.format(text=text_sql("c.text", measured=measures_sizes(conn))),
        [json.dumps(context_ids)],
    )
    found: dict[str, list[Followable]] = {}
    for context_id, cited, title, text, start, end in rows:
        links = found.setdefault(context_id, [])
        if all(link.cited_article_id != cited for link in links):
            links.append(Followable(cited, title, sentence_around(text, start, end)))
    return found


def _links(conn: Any, sql: str, parameters: list[Any]) -> list[CitationLink]:
    entries = conn.execute(sql, parameters).fetchall()
    passages: dict[str, list[CitingPassage]] = {}
    if entries:
        for entry_id, context_id, page, section, text, start, end in conn.execute(
            _PASSAGES.format(text=text_sql("c.text", measured=measures_sizes(conn))), [json.dumps([row[0] for row in entries])]
        ):
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
