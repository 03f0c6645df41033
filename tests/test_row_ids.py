"""Row ids begin with the time they were drawn: the rows of a batch written later sort after the
rows written before it in every index on an id, so a batch fills a few pages at one place of each
index instead of one page each across the whole of it (the writer's cost then stops growing with
the file). They stay 21 characters of nanoid's alphabet, never beginning with "-"."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

from paperpyramid.contexts import split_section
from paperpyramid.db.article_rows import new_id
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import ArticleInput, CorpusWriter
from paperpyramid.normalise import normalise_document
from paperpyramid.parsers.jats import parse_jats
from paperpyramid.tokens import TokenCounter

GOLD = Path(__file__).resolve().parent / "data" / "gold"
ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{20}")
#: the tables of an article's rows keyed by an id of their own
KEYED = ("articles", "sections", "contexts", "bib_entries", "tables", "figures", "formulas")


def test_ids_are_nanoid_shaped_unique_and_never_an_option() -> None:
    ids = [new_id() for _ in range(20_000)]
    assert all(ID.fullmatch(value) for value in ids)
    assert len(set(ids)) == len(ids)


def test_rows_of_a_later_batch_sort_after_those_of_an_earlier_one(tmp_path: Path) -> None:
    counter = TokenCounter()
    path = sorted(GOLD.glob("*.nxml"))[0]
    doc = normalise_document(parse_jats(path))
    contexts = [split_section(section, counter) for section in doc.sections]
    with CorpusWriter(tmp_path / "c.sqlite", counter) as writer:
        stored = []
        for number in range(3):
            copy = ArticleInput(dataclasses.replace(doc, doi=f"{doc.doi}.{number}"), f"file:///{number}.nxml", f"{number:064x}",
                                contexts=contexts, normalised=True)  # fmt: skip
            (article_id,) = writer.store_many([copy])
            stored.append(str(article_id))
            time.sleep(0.003)
    conn = sqlite3.connect(tmp_path / "c.sqlite")
    try:
        for table in KEYED:
            column = "id" if table == "articles" else "article_id"
            if table in ("sections", "contexts"):
                owner = (
                    "SELECT x.article_id, s.id FROM article_sections x JOIN sections s ON s.id = x.section_id"
                    if table == "sections"
                    else "SELECT x.article_id, c.id FROM article_sections x JOIN sections_contexts y ON y.section_id = x.section_id "
                    "JOIN contexts c ON c.id = y.context_id"
                )
            else:
                owner = f"SELECT {column}, id FROM {table}"
            by_article: dict[str, list[str]] = {}
            for article_id, row_id in conn.execute(owner):
                by_article.setdefault(article_id, []).append(row_id)
            if table in ("articles", "sections", "contexts", "bib_entries"):
                assert all(by_article.get(a) for a in stored), table
            if not all(by_article.get(a) for a in stored):
                continue
            for earlier, later in zip(stored, stored[1:], strict=False):
                assert max(by_article[earlier]) < min(by_article[later]), table
    finally:
        conn.close()
