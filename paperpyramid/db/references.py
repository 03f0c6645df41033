"""Reference entries resolved to the articles of the corpus they name.

An entry names an article by its DOI, else its arXiv id, else its title (folded by
:func:`title_key`, at least :data:`MIN_TITLE_WORDS` words) when the year or the first author's
surname confirms it and neither contradicts it, and no other article of the corpus matches as
well. :func:`resolve_article` runs in the writer's transaction each time an article is stored
(:func:`resolve_batch` for a batch stored table by table), in both directions: the new
article's entries that name earlier articles, and the earlier entries, still dangling, that name
the new one. Nothing is parsed again; the indexes on ``doi``, ``arxiv_id`` and ``title_key``
keep it to a few lookups per entry however large the corpus.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from paperpyramid import arxiv_ids

#: A folded title shorter than this names too little to be matched by title ("Introduction",
#: "Letter to the editor", a journal's name taken for a title)
MIN_TITLE_KEY = 20
MIN_TITLE_WORDS = 4
#: titles many papers share, never matched by title whatever their length
GENERIC_TITLES = ("letter to the editor", "introduction to the special issue", "supplementary", "erratum", "correction to", "corrigendum",
                  "editorial", "reply to", "response to", "in memoriam", "book review", "preface", "foreword", "retraction")  # fmt: skip
#: Years an entry may differ from the article's (a preprint cited before its publication).
YEAR_SLACK = 1


def title_key(title: str | None) -> str | None:
    """``title`` folded for matching: accents off, lower case, letters and digits only, one space
    between words; None when nothing is left."""
    if not title:
        return None
    ascii_text = title if title.isascii() else unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    if ascii_text is not title:
        letters = sum(map(str.isalpha, title))
        if letters and sum(map(str.isalpha, ascii_text)) < 0.8 * letters:
            return None  # a title in another script folds to its Latin bits ("BERT GPT-3"): not a key
    folded = " ".join(re.sub(r"[^a-z0-9]+", " ", ascii_text.lower()).split())
    return folded or None


def arxiv_id(text: str | None) -> str | None:
    """The arXiv id in ``text`` ("arXiv:2004.14974v2", "https://arxiv.org/abs/hep-th/9901001"),
    normalised (:mod:`paperpyramid.arxiv_ids`); None when there is none, or when ``text`` never
    says arXiv (a bare "2004.14974" may be anything)."""
    if not text or "arxiv" not in text.lower():
        return None
    return arxiv_ids.find(text)


def surname(name: str | None) -> str | None:
    """The surname of a printed name, folded: "Smith, J.", "J. Smith" and "Smith JA" (Vancouver)
    give "smith"."""
    if not name:
        return None
    words = name.split()
    if "," in name:
        part = name.split(",")[0]
    elif len(words) > 1 and re.fullmatch(r"[A-Z]{1,3}", words[-1].replace(".", "")):
        part = words[0]  # initials after the surname
    else:
        part = words[-1] if words else ""
    return title_key(part)


@dataclass(frozen=True, slots=True)
class _Article:
    id: str
    doi: str | None
    arxiv_id: str | None
    title_key: str | None
    year: int | None
    surname: str | None


def resolve_article(
    conn: sqlite3.Connection, article_id: str, *, hidden: AbstractSet[str] = frozenset(), entries: AbstractSet[str] | None = None
) -> int:
    """Link the entries that name another article of the corpus, in both directions around
    ``article_id``; the number of entries linked.

    ``hidden``: articles already inserted that are to be taken as not stored yet (those after it
    in a batch, :func:`resolve_batch`): they are neither named nor naming. ``entries``: only these
    of its own entries can name an article (the others name none), by default any."""
    article = _article(conn, article_id)
    if article is None:
        return 0
    linked = 0
    # Its own entries that name an earlier article.
    for entry_id, doi, arxiv, key, year, authors in conn.execute(
        "SELECT id, doi, arxiv_id, title_key, year, authors FROM bib_entries WHERE article_id = ? AND cited_article_id IS NULL",
        [article_id],
    ).fetchall():
        if entries is not None and entry_id not in entries:
            continue
        cited = _named(conn, doi, arxiv, key, year, _first_surname(authors), article_id, hidden)
        if cited is not None:
            conn.execute("UPDATE bib_entries SET cited_article_id = ? WHERE id = ?", [cited, entry_id])
            linked += 1
    # Earlier entries, still dangling, that name it.
    candidates: list[tuple[str, int | None, str, str]] = []
    if article.doi:
        candidates += conn.execute(
            "SELECT id, year, authors, article_id FROM bib_entries WHERE doi = ? AND cited_article_id IS NULL AND article_id != ?",
            [article.doi, article_id],
        ).fetchall()
    if article.arxiv_id:
        candidates += conn.execute(
            "SELECT id, year, authors, article_id FROM bib_entries WHERE arxiv_id = ? AND cited_article_id IS NULL AND article_id != ?",
            [article.arxiv_id, article_id],
        ).fetchall()
    if _matchable(article.title_key) and _unique_title(conn, article.title_key, hidden):
        rows = conn.execute(
            "SELECT id, year, authors, article_id FROM bib_entries WHERE title_key = ? AND cited_article_id IS NULL AND article_id != ?",
            [article.title_key, article_id],
        ).fetchall()
        candidates += [row for row in rows if _agrees(article, row[1], _first_surname(row[2]))]
    for entry_id in dict.fromkeys(entry_id for entry_id, _, _, citing in candidates if citing not in hidden):
        linked += conn.execute(
            "UPDATE bib_entries SET cited_article_id = ? WHERE id = ? AND cited_article_id IS NULL", [article_id, entry_id]
        ).rowcount
    return linked


def resolve_batch(conn: sqlite3.Connection, article_ids: Sequence[str]) -> int:
    """Link the entries around a batch of articles inserted together, as :func:`resolve_article`
    would have linked them had each been inserted and resolved in turn; the number of entries
    linked. Two statements find which of the batch can link anything (an own entry whose DOI,
    arXiv id or title some article has; a dangling entry with its DOI, arXiv id or title), and only
    those are resolved, in order, each with the articles after it hidden."""
    if not article_ids:
        return 0
    given = json.dumps(list(article_ids))
    naming: dict[str, set[str]] = {}
    for article_id, entry_id in conn.execute(_NAMING_ENTRIES, [given]).fetchall():
        naming.setdefault(str(article_id), set()).add(str(entry_id))
    named = {str(row[0]) for row in conn.execute(_NAMED_ARTICLES, [given]).fetchall()}
    linked = 0
    for position, article_id in enumerate(article_ids):
        if article_id in naming or article_id in named:
            later = set(article_ids[position + 1 :])
            linked += resolve_article(conn, article_id, hidden=later, entries=naming.get(article_id, set()))
    return linked


#: the batch's dangling entries that some other article's DOI, arXiv id or title matches; found
#: through the batch's articles (the unary ``+`` keeps SQLite from reading them through the index
#: on ``cited_article_id``, which holds every dangling entry of the file)
_NAMING_ENTRIES = """
SELECT e.article_id, e.id FROM bib_entries e
WHERE e.article_id IN (SELECT value FROM json_each(?)) AND +e.cited_article_id IS NULL AND (
    (e.doi IS NOT NULL AND EXISTS (SELECT 1 FROM articles a WHERE a.doi = e.doi AND a.id != e.article_id))
    OR (e.arxiv_id IS NOT NULL AND EXISTS (SELECT 1 FROM articles a WHERE a.arxiv_id = e.arxiv_id AND a.id != e.article_id))
    OR (e.title_key IS NOT NULL AND EXISTS (SELECT 1 FROM articles a WHERE a.title_key = e.title_key AND a.id != e.article_id)))
"""
#: the batch's articles whose DOI, arXiv id or title a dangling entry of another article has
_NAMED_ARTICLES = """
SELECT a.id FROM articles a
WHERE a.id IN (SELECT value FROM json_each(?)) AND (
    (a.doi IS NOT NULL AND EXISTS (
        SELECT 1 FROM bib_entries e WHERE e.doi = a.doi AND e.cited_article_id IS NULL AND e.article_id != a.id))
    OR (a.arxiv_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM bib_entries e WHERE e.arxiv_id = a.arxiv_id AND e.cited_article_id IS NULL AND e.article_id != a.id))
    OR (a.title_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM bib_entries e WHERE e.title_key = a.title_key AND e.cited_article_id IS NULL AND e.article_id != a.id)))
"""


def _named(
    conn: sqlite3.Connection,
    doi: str | None,
    arxiv: str | None,
    key: str | None,
    year: int | None,
    first: str | None,
    citing: str,
    hidden: AbstractSet[str] = frozenset(),
) -> str | None:
    """The article (not ``citing``, none of ``hidden``) an entry with these fields names, or None."""
    for column, value in (("doi", doi), ("arxiv_id", arxiv)):
        if value:
            found = _first_with(conn, column, value, citing, hidden)
            if found is not None:
                return found
    if not _matchable(key):
        return None
    matches = [article for (found,) in conn.execute("SELECT id FROM articles WHERE title_key = ? AND id != ?", [key, citing]).fetchall()
               if found not in hidden and (article := _article(conn, str(found))) is not None and _agrees(article, year, first)]  # fmt: skip
    return matches[0].id if len(matches) == 1 else None  # two that match as well: say nothing


def _first_with(conn: sqlite3.Connection, column: str, value: str, citing: str, hidden: AbstractSet[str]) -> str | None:
    """The first article stored (not ``citing``, none of ``hidden``) with this DOI or arXiv id."""
    sql = f"SELECT id FROM articles WHERE {column} = ? AND id != ? ORDER BY created_at"
    if not hidden:
        row = conn.execute(f"{sql} LIMIT 1", [value, citing]).fetchone()
        return None if row is None else str(row[0])
    return next((str(found) for (found,) in conn.execute(sql, [value, citing]) if found not in hidden), None)


def _matchable(key: str | None) -> bool:
    return (
        bool(key)
        and len(key or "") >= MIN_TITLE_KEY
        and len((key or "").split()) >= MIN_TITLE_WORDS
        and not (key or "").startswith(GENERIC_TITLES)
    )


def _unique_title(conn: sqlite3.Connection, key: str | None, hidden: AbstractSet[str] = frozenset()) -> bool:
    """Whether one article only (none of ``hidden``) has this title (then entries naming it are its)."""
    if not hidden:
        count: int = conn.execute("SELECT count(*) FROM articles WHERE title_key = ?", [key]).fetchone()[0]
        return count == 1
    return len([found for (found,) in conn.execute("SELECT id FROM articles WHERE title_key = ?", [key]) if found not in hidden]) == 1


def _agrees(article: _Article, year: int | None, first: str | None) -> bool:
    """Whether an entry's year or first author confirms the article's and neither contradicts
    it (a side that does not say neither confirms nor contradicts)."""
    years = year is not None and article.year is not None
    names = bool(first and article.surname)
    if (years and abs(year - article.year) > YEAR_SLACK) or (names and first != article.surname):  # type: ignore[operator]
        return False
    return years or names


def _article(conn: sqlite3.Connection, article_id: str) -> _Article | None:
    row = conn.execute("SELECT id, doi, arxiv_id, title_key, date_published, authors FROM articles WHERE id = ?", [article_id]).fetchone()
    if row is None:
        return None
    year = int(row[4][:4]) if row[4] and row[4][:4].isdigit() else None
    names = [author.get("name") for author in _json_list(row[5]) if isinstance(author, dict)]
    return _Article(str(row[0]), row[1], row[2], row[3], year, surname(names[0]) if names else None)


def _first_surname(authors: str | None) -> str | None:
    names = [name for name in _json_list(authors) if isinstance(name, str)]
    return surname(names[0]) if names else None


def _json_list(text: str | None) -> list[object]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []


__all__ = ["arxiv_id", "resolve_article", "resolve_batch", "surname", "title_key"]
