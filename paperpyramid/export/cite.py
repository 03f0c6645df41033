"""Citations out: the works a passage, an answer or a list of articles rests on, as BibTeX,
CSL-JSON (what Zotero, Mendeley and pandoc read) or text, from the stored metadata.

The works are read through a :class:`~paperpyramid.db.reader.CorpusReader` (a
:class:`~paperpyramid.Corpus` is one). Ids are article ids, DOIs or context ids; a context stands for its article at its page. Each
work is cited once, with the pages its passages were on. Keys are stable: the first author's
surname, the year and the title's first word ("natanson2019longevity"); where two articles of
the corpus would share one, the later stored gets "b", "c", ... (the earlier keeps its key as the
corpus grows).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paperpyramid.db.corpus_rows import Article
from paperpyramid.db.reader import CorpusReader, articles_dated

#: what :func:`format_citations` writes
FORMATS = ("bibtex", "csl-json", "text")

_SMALL_WORDS = frozenset(
    {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "from", "by", "at", "is", "are", "how", "what", "why"}
)
_BIBTEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                   "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Work:
    """An article cited, its stable key, and the pages its cited passages are on (in order)."""

    article: Article
    key: str
    pages: tuple[int, ...] = ()

    @property
    def year(self) -> str | None:
        return _year(self.article.date_published)

    def short(self) -> str:
        """``[title, p. N]``, as answers cite."""
        pages = f", p. {', '.join(map(str, self.pages))}" if self.pages else ""
        return f"[{self.article.title or 'Untitled'}{pages}]"


def works(reader: CorpusReader, ids: Sequence[str]) -> list[Work]:
    """The works ``ids`` name (article ids, DOIs or context ids), each once, in the order first
    named. Raises ``KeyError`` naming an id that is none of these."""
    order: list[str] = []
    pages: dict[str, list[int]] = {}
    articles: dict[str, Article] = {}
    for given in ids:
        article, page = _resolve(reader, given)
        if article.id not in articles:
            articles[article.id] = article
            order.append(article.id)
            pages[article.id] = []
        if page is not None and page not in pages[article.id]:
            pages[article.id].append(page)
    return [Work(articles[article_id], cite_key(reader, articles[article_id]), tuple(sorted(pages[article_id]))) for article_id in order]


def format_citations(reader: CorpusReader, ids: Sequence[str], format: str = "bibtex") -> str:
    """The works ``ids`` name, in ``format`` (one of :data:`FORMATS`)."""
    if format not in FORMATS:
        raise ValueError(f"unknown citation format {format!r}; choose one of {', '.join(FORMATS)}")
    cited = works(reader, ids)
    if format == "bibtex":
        return "\n\n".join(bibtex(work) for work in cited)
    if format == "csl-json":
        return json.dumps([csl(work) for work in cited], ensure_ascii=False, indent=2)
    return "\n".join(text(work) for work in cited)


def cite_key(reader: CorpusReader, article: Article) -> str:
    """The article's stable key (see the module docstring)."""
    base = _base_key(article)
    year = _year(article.date_published)
    rows = articles_dated(reader.conn, year)
    twins = [row[0] for row in rows if _base_key_of(row[1], row[2], row[3]) == base]
    place = twins.index(article.id) if article.id in twins else 0
    return base + ("" if place == 0 else _suffix(place))


def bibtex(work: Work) -> str:
    article = work.article
    fields: list[tuple[str, str | None]] = [
        ("author", " and ".join(_bibtex_escape(author.name) for author in article.authors) or None),
        ("title", "{" + _bibtex_escape(article.title or "Untitled") + "}"),  # braced: the title's capitals kept
        ("journal" if article.journal else "howpublished", _bibtex_escape(article.journal) if article.journal else None),
        ("year", work.year),
        ("doi", article.doi),
        ("eprint", article.arxiv_id),
        ("archiveprefix", "arXiv" if article.arxiv_id else None),
        ("note", f"cited pages: {', '.join(map(str, work.pages))}" if work.pages else None),
    ]
    kind = "article" if article.journal else "misc"
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@{kind}{{{work.key},\n{body}\n}}"


def csl(work: Work) -> dict[str, Any]:
    article = work.article
    item: dict[str, Any] = {
        "id": work.key,
        "type": "article-journal" if article.journal else "article",
        "title": article.title or "Untitled",
        "author": [_csl_name(author.name) for author in article.authors],
    }
    if work.year:
        item["issued"] = {"date-parts": [[int(work.year)]]}
    if article.journal:
        item["container-title"] = article.journal
    if article.doi:
        item["DOI"] = article.doi
    if article.arxiv_id:
        item["URL"] = f"https://arxiv.org/abs/{article.arxiv_id}"
    if work.pages:
        item["note"] = f"cited pages: {', '.join(map(str, work.pages))}"
    return item


def text(work: Work) -> str:
    article = work.article
    names = [author.name for author in article.authors]
    who = names[0] + (" et al." if len(names) > 2 else f" and {names[1]}" if len(names) == 2 else "") if names else "Anonymous"
    parts = [f"{who} ({work.year or 'n.d.'}). {article.title or 'Untitled'}."]
    if article.journal:
        parts.append(f"{article.journal}.")
    if article.doi:
        parts.append(f"https://doi.org/{article.doi}")
    elif article.arxiv_id:
        parts.append(f"arXiv:{article.arxiv_id}")
    return f"{work.short()} {' '.join(parts)}"


def _resolve(reader: CorpusReader, given: str) -> tuple[Article, int | None]:
    try:
        return reader.article(given), None
    except KeyError:
        pass
    try:
        context = reader.context(given)
    except KeyError:
        raise KeyError(f"no article, DOI or passage with id {given!r}") from None
    return reader.article(context.article_id), context.page_number


def _base_key(article: Article) -> str:
    return _base_key_of(article.title, json.dumps([{"name": author.name} for author in article.authors]), article.date_published)


def _base_key_of(title: str | None, authors_json: str | None, date_published: str | None) -> str:
    try:
        names = [author.get("name", "") for author in json.loads(authors_json or "[]") if isinstance(author, dict)]
    except ValueError:
        names = []
    surname = _ascii(names[0].split(",")[0] if names and "," in names[0] else (names[0].split() or [""])[-1] if names else "") or "anon"
    words = [word for word in (_ascii(word) for word in (title or "").split()) if word and word not in _SMALL_WORDS]
    return f"{surname}{_year(date_published) or ''}{words[0] if words else 'untitled'}"


def _year(date_published: str | None) -> str | None:
    """The year of a date as stored ("2014-12-31", "31 December 2014", "2014")."""
    found = re.search(r"(?<!\d)(1[6-9]|20)\d{2}(?!\d)", date_published or "")
    return found.group() if found else None


def _ascii(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())


def _suffix(place: int) -> str:
    """b, c, ..., z, then ba, bb, ...: the first of a key keeps it bare."""
    letters = ""
    while place > 0:
        place, digit = divmod(place, 26)
        letters = "abcdefghijklmnopqrstuvwxyz"[digit] + letters
    return letters


def _bibtex_escape(value: str) -> str:
    return "".join(_BIBTEX_SPECIAL.get(character, character) for character in value)


def _csl_name(name: str) -> dict[str, str]:
    if "," in name:
        family, given = (part.strip() for part in name.split(",", 1))
    else:
        parts = name.split()
        family, given = (parts[-1], " ".join(parts[:-1])) if parts else (name, "")
    return {"family": family, "given": given} if given else {"literal": name}


__all__ = ["FORMATS", "Work", "bibtex", "cite_key", "csl", "format_citations", "text", "works"]
