"""Articles written out of the corpus: markdown (the whole article, or one file per PDF page)
or JSON (the article with its section tree, contexts, tables, formulas, figures and
references), from a :class:`~paperpyramid.db.reader.CorpusReader` (a :class:`~paperpyramid.Corpus`
is one). The markdown comes from :mod:`paperpyramid.db.markdown_pages`, the renderer that also
gives distillation its pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from paperpyramid.db.reader import CorpusReader
from paperpyramid.export.json_export import article_json, write_json
from paperpyramid.export.markdown import write_markdown, write_markdown_pages

#: what ``export_articles`` writes
FORMATS = ("markdown", "json")


def export_articles(
    reader: CorpusReader,
    out_dir: str | Path,
    *,
    format: str = "markdown",
    by_page: bool = False,
    article_ids: Sequence[str] | None = None,
    on_article: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write articles into ``out_dir`` (created if missing) and return the paths written.

    ``format`` is ``markdown`` (``<article id>.md``: ``# Title``, the authors, the headings, the
    text in reading order, tables as markdown, formulas as ``$$ … $$ (3)``, figure captions in
    italics, the reference list) or ``json`` (``<article id>.json``: see :func:`article_json`).
    ``by_page`` writes markdown as ``<article id>/page-<N>.md``, one file per PDF page.
    ``article_ids`` (ids or DOIs) picks articles, every article when None; an unknown one
    raises ``KeyError`` before anything is written. ``on_article(done, total)`` is called after
    each article.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown export format {format!r}; the formats are {', '.join(FORMATS)}")
    if by_page and format != "markdown":
        raise ValueError("by-page export writes markdown pages; it does not apply to json")
    if article_ids is not None:
        ids = list(dict.fromkeys(reader.article(article_id).id for article_id in article_ids))
    else:
        ids = [article.id for article in reader.articles()]
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"{out} is a file, not a folder to export into")
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for done, article_id in enumerate(ids, start=1):
        if format == "json":
            paths.append(write_json(reader, article_id, out))
        elif by_page:
            paths += write_markdown_pages(reader, article_id, out)
        else:
            paths.append(write_markdown(reader, article_id, out))
        if on_article is not None:
            on_article(done, len(ids))
    return paths


__all__ = ["FORMATS", "article_json", "export_articles"]
