"""Writing an article as markdown: one file, or one file per PDF page."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.db.markdown_pages import render_article, render_pages
from paperpyramid.db.reader import CorpusReader


def write_markdown(reader: CorpusReader, article_id: str, out_dir: Path) -> Path:
    """``OUT/<article id>.md``: the title block, the body in reading order, the reference list."""
    path = out_dir / f"{article_id}.md"
    path.write_text(render_article(reader.conn, article_id), encoding="utf-8")
    return path


def write_markdown_pages(reader: CorpusReader, article_id: str, out_dir: Path) -> list[Path]:
    """``OUT/<article id>/page-<N>.md`` for every page of the PDF; a page that holds nothing the
    parser kept (a full-page figure) is an empty file, so that page N is always page-N.md."""
    pages = {page.number: page.markdown for page in render_pages(reader.conn, article_id)}
    folder = out_dir / article_id
    folder.mkdir(exist_ok=True)
    paths = []
    for number in range(1, max([reader.article(article_id).pages or 0, *pages]) + 1):
        path = folder / f"page-{number}.md"
        path.write_text(pages[number] + "\n" if number in pages else "", encoding="utf-8")
        paths.append(path)
    return paths
