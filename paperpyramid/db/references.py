"""Reference entries resolved to the articles of the corpus they name.

An entry names an article by its DOI, else its arXiv id, else its title (folded by
:func:`title_key`, at least :data:`MIN_TITLE_WORDS` words) when the year or the first author's
surname confirms it and neither contradicts it, and no other article of the corpus matches as well. :func:`resolve_article` runs in the writer's transaction each time an article is stored, in
both directions: the new article's entries that name earlier articles, and the earlier entries,
still dangling, that name the new one. Nothing is parsed again; the indexes on ``doi``,
``arxiv_id`` and ``title_key`` keep it to a few lookups per entry however large the corpus.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
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


def resolve_article(conn: sqlite3.Connection, article_id: str) -> int:
    """Link the entries that name another article of the corpus, in both directions around
    ``article_id``; the number of entries linked."""
    article = _article(conn, article_id)
    if article is None:
        return 0
    linked = 0
    # Its own entries that name an earlier article.
    for entry_id, doi, arxiv, key, year, authors in conn.execute(
        "SELECT id, doi, arxiv_id, title_key, year, authors FROM bib_entries WHERE article_id = ? AND cited_article_id IS NULL",
        [article_id],
    ).fetchall():
        cited = _named(conn, doi, arxiv, key, year, _first_surname(authors), article_id)
        if cited is not None:
            conn.execute("UPDATE bib_entries SET cited_article_id = ? WHERE id = ?", [cited, entry_id])
            linked += 1
    # Earlier entries, still dangling, that name it.
    candidates: list[tuple[str, int | None, str]] = []
    if article.doi:
        candidates += conn.execute(
            "SELECT id, year, authors FROM bib_entries WHERE doi = ? AND cited_article_id IS NULL AND article_id != ?",
            [article.doi, article_id],
        ).fetchall()
    if article.arxiv_id:
        candidates += conn.execute(
            "SELECT id, year, authors FROM bib_entries WHERE arxiv_id = ? AND cited_article_id IS NULL AND article_id != ?",
            [article.arxiv_id, article_id],
        ).fetchall()
    if _matchable(article.title_key) and _unique_title(conn, article.title_key):
        rows = conn.execute(
            "SELECT id, year, authors FROM bib_entries WHERE title_key = ? AND cited_article_id IS NULL AND article_id != ?",
            [article.title_key, article_id],
        ).fetchall()
        candidates += [(entry_id, year, authors) for entry_id, year, authors in rows if _agrees(article, year, _first_surname(authors))]
    for entry_id in dict.fromkeys(entry_id for entry_id, _, _ in candidates):
        linked += conn.execute(
            "UPDATE bib_entries SET cited_article_id = ? WHERE id = ? AND cited_article_id IS NULL", [article_id, entry_id]
        ).rowcount
    return linked


def _named(
    conn: sqlite3.Connection, doi: str | None, arxiv: str | None, key: str | None, year: int | None, first: str | None, citing: str
) -> str | None:
    """The article (not ``citing``) an entry with these fields names, or None."""
    if doi:
        row = conn.execute("SELECT id FROM articles WHERE doi = ? AND id != ? ORDER BY created_at LIMIT 1", [doi, citing]).fetchone()
        if row:
            return str(row[0])
    if arxiv:
        row = conn.execute("SELECT id FROM articles WHERE arxiv_id = ? AND id != ? ORDER BY created_at LIMIT 1", [arxiv, citing]).fetchone()
        if row:
            return str(row[0])
    if not _matchable(key):
        return None
    matches = [article for (found,) in conn.execute("SELECT id FROM articles WHERE title_key = ? AND id != ?", [key, citing]).fetchall()
               if (article := _article(conn, str(found))) is not None and _agrees(article, year, first)]  # fmt: skip
    return matches[0].id if len(matches) == 1 else None  # two that match as well: say nothing


def _matchable(key: str | None) -> bool:
    return (
        bool(key)
        and len(key or "") >= MIN_TITLE_KEY
        and len((key or "").split()) >= MIN_TITLE_WORDS
        and not (key or "").startswith(GENERIC_TITLES)
    )


def _unique_title(conn: sqlite3.Connection, key: str | None) -> bool:
    """Whether one article only has this title (then entries naming it are its)."""
    count: int = conn.execute("SELECT count(*) FROM articles WHERE title_key = ?", [key]).fetchone()[0]
    return count == 1


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


__all__ = ["arxiv_id", "resolve_article", "surname", "title_key"]
