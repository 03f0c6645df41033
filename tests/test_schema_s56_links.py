"""The link tables (reading order, citations, the pyramid's links) as WITHOUT ROWID tables: a corpus
at schema version 9 migrates with every row and every answer kept, and the keys still refuse
what the old ones refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils

from paperpyramid.db import removal
from paperpyramid.db.datasette import QUERIES
from paperpyramid.db.markdown_pages import render_article
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, store_pyramid
from paperpyramid.db.queries import article_pyramid, graph, level_search, parse_eval, passages
from paperpyramid.db.reader import CorpusReader
from paperpyramid.db.row_copy import user_tables
from paperpyramid.db.schema import MIGRATIONS, migrate, schema_version
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Author, Block, Cite, Document, Reference, Section
from paperpyramid.tokens import TokenCounter

LINKS = ("article_sections", "sections_contexts", "citations", "insights_contexts", "concepts_insights")
FILLER = " ".join(f"Sentence {i} tells one more detail of how the frogs were kept and counted." for i in range(30))


def _cited(text: str, marker: str, key: str) -> Block:
    start = text.index(marker)
    return Block(text, 2, cites=[Cite(start, start + len(marker), [key])])


def _paper(n: int) -> Document:
    sections = [
        Section("Introduction", 1, "1", blocks=[_cited(f"Frogs give birth to tadpoles [1]. {FILLER} Paper {n}.", "[1]", "r1")]),
        Section(
            "Methods", 1, "2", blocks=[Block(f"{FILLER} Methods of paper {n}.", 2), _cited(f"Sharks live long [2] in {n}.", "[2]", "r2")]
        ),
        Section("Results", 1, "3", blocks=[Block(f"Results of paper {n}: {FILLER}", 3)]),
    ]
    references = [
        Reference("[1] Iskandar DT. A fanged frog. 2014.", key="r1"),
        Reference("[2] Natanson L. Sharpnose sharks. 2019.", key="r2"),
    ]
    return Document(title=f"Fanged frogs {n}", authors=[Author("Ada Lovelace")], pages=3, sections=sections, references=references)


def _pyramid(conn: Any, article_id: str) -> None:
    contexts = removal.article_context_ids(conn, article_id)
    insights = [
        InsightRow(f"Insight {i} of the frogs.", [1], "Results", 5, [(contexts[-1 - i], 0.5), (contexts[i], 0.25 + i / 10)])
        for i in range(4)
    ]
    concepts = [ConceptRow("Frog birth.", 3, [0, 2, 3]), ConceptRow("Shark age.", 3, [1, 3])]
    store_pyramid(conn, ArticlePyramid(article_id, "test:hand", "v1", insights, concepts, "Frogs and sharks.", 4))


def _current_corpus(path: Path) -> list[str]:
    """A corpus written by today's writer: three articles with citations and pyramids."""
    with CorpusWriter(path, TokenCounter(window=64)) as writer:
        ids = [writer.add_document(_paper(n), source_uri=f"p{n}.pdf", sha256=f"s{n}") for n in range(3)]
        for article_id in ids:
            _pyramid(writer.db.conn, article_id)
    return ids


def _as_version_9(source: Path, target: Path) -> None:
    """``source``'s rows in a new file at schema version 9, each link table's rows stored in an
    order unlike its key's (as articles and pyramids arriving over time leave them)."""
    db = sqlite_utils.Database(target)
    assert migrate(db, MIGRATIONS[:9]) == 9
    conn = db.conn
    conn.execute("ATTACH DATABASE ? AS source", [str(source)])
    with conn:
        for table in user_tables(conn):
            columns = ", ".join(str(row[1]) for row in conn.execute(f"PRAGMA main.table_info({table})"))
            shuffled = " ORDER BY substr(hex(" + columns.split(", ")[1] + "), 5)" if table in LINKS else ""
            conn.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM source.{table}{shuffled}")
    conn.execute("DETACH DATABASE source")
    db.close()


def _answers(conn: Any, article_ids: list[str]) -> dict[str, Any]:
    """What the reading queries say about every article, section, context and pyramid item."""
    reader = CorpusReader(conn)
    section_ids = [row[0] for row in conn.execute("SELECT id FROM sections ORDER BY id")]
    context_ids = [row[0] for row in conn.execute("SELECT id FROM contexts ORDER BY id")]
    insight_ids = [row[0] for row in conn.execute("SELECT id FROM insights ORDER BY id")]
    concept_ids = [row[0] for row in conn.execute("SELECT id FROM concepts ORDER BY id")]
    entry_ids = [row[0] for row in conn.execute("SELECT id FROM bib_entries ORDER BY id")]
    everything: dict[str, Callable[[], Any]] = {
        "articles": lambda: [reader.article(a) for a in article_ids],
        "sections": lambda: [reader.sections(a) for a in article_ids],
        "contexts": lambda: [reader.contexts(s) for s in section_ids],
        "parents": lambda: [reader.parent_contexts(c) for c in context_ids],
        "neighbours": lambda: [(reader.next_section(s), reader.previous_section(s)) for s in section_ids],
        "reading order": lambda: [passages.reading_order(conn, a, True) for a in article_ids],
        "outline": lambda: [passages.outline(conn, a, True) for a in article_ids],
        "hits": lambda: passages.hit_rows(conn, context_ids),
        "section hits": lambda: [passages.section_hit_rows(conn, s, True) for s in section_ids],
        "markdown": lambda: [render_article(conn, a) for a in article_ids],
        "parse eval": lambda: [[parse_eval.section_texts(conn, s[0]) for s in parse_eval.sections(conn, a)] for a in article_ids],
        "removal": lambda: [removal.article_context_texts(conn, a) for a in article_ids],
        "citing": lambda: graph.citing_passages(conn, entry_ids),
        "followable": lambda: graph.followable(conn, context_ids),
        "citations": lambda: [graph.citations_in(conn, c) for c in context_ids],
        "insight contexts": lambda: [article_pyramid.insight_contexts(conn, i) for i in insight_ids],
        "concept insights": lambda: [article_pyramid.concept_insights(conn, c) for c in concept_ids],
        "sources": lambda: [level_search.item_sources(conn, "concepts", c) for c in concept_ids],
        "passing": lambda: level_search.passages_passing(conn, context_ids, ("ars.article_id = ?", [article_ids[1]])),
    }
    return {name: read() for name, read in everything.items()}


def _rows(conn: Any, table: str) -> list[tuple[Any, ...]]:
    """The rows of ``table``, their columns in name order (a rebuilt table may declare them in another)."""
    columns = sorted(str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})"))
    return sorted(conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall(), key=repr)


def test_a_version_9_corpus_migrates_with_every_row_and_answer_kept(tmp_path: Path) -> None:
    article_ids = _current_corpus(tmp_path / "today.sqlite")
    old = tmp_path / "old.sqlite"
    _as_version_9(tmp_path / "today.sqlite", old)
    conn = sqlite3.connect(old)
    tables = user_tables(conn)
    before_rows = {table: _rows(conn, table) for table in tables}
    before = _answers(conn, article_ids)
    conn.close()
    assert all(before_rows[table] for table in LINKS) and any(before["citations"])

    with CorpusWriter(old, TokenCounter(window=64)) as writer:  # opening it migrates
        assert schema_version(writer.db) == len(MIGRATIONS)
        conn = writer.db.conn
        assert {table: _rows(conn, table) for table in tables} == before_rows
        assert _answers(conn, article_ids) == before
        for table in LINKS:
            with pytest.raises(Exception, match="no such column: rowid"):
                conn.execute(f"SELECT rowid FROM {table}")


def test_two_rows_at_one_place_of_the_reading_order_are_numbered_apart(tmp_path: Path) -> None:
    _current_corpus(tmp_path / "today.sqlite")
    old = tmp_path / "old.sqlite"
    _as_version_9(tmp_path / "today.sqlite", old)
    conn = sqlite3.connect(old)
    section_id = conn.execute("SELECT section_id FROM sections_contexts WHERE position = 2").fetchone()[0]
    with conn:  # an older writer's mistake: the section's last context at the place of its second, stored after it or before
        conn.execute("UPDATE sections_contexts SET position = 1 WHERE section_id = ? AND position = "
                     "(SELECT max(position) FROM sections_contexts WHERE section_id = ?)", [section_id, section_id])  # fmt: skip
    placed = conn.execute("SELECT context_id FROM sections_contexts WHERE section_id = ? ORDER BY position, rowid", [section_id]).fetchall()
    conn.close()
    db = sqlite_utils.Database(old)
    assert migrate(db) == len(MIGRATIONS)
    after = db.execute("SELECT context_id, position FROM sections_contexts WHERE section_id = ? ORDER BY position", [section_id]).fetchall()
    assert [row[0] for row in after] == [row[0] for row in placed]
    assert [row[1] for row in after] == list(range(len(placed)))


def test_the_keys_refuse_a_second_link_a_context_in_two_sections_and_two_rows_at_one_place(tmp_path: Path) -> None:
    _current_corpus(tmp_path / "today.sqlite")
    conn = sqlite3.connect(tmp_path / "today.sqlite")
    section, other, context = conn.execute(
        "SELECT a.section_id, b.section_id, a.context_id FROM sections_contexts AS a JOIN sections_contexts AS b ON b.section_id != a.section_id"
    ).fetchone()
    article, position = conn.execute("SELECT article_id, position FROM article_sections WHERE section_id = ?", [other]).fetchone()
    insight, linked = conn.execute("SELECT insight_id, context_id FROM insights_contexts").fetchone()
    concept, member = conn.execute("SELECT concept_id, insight_id FROM concepts_insights").fetchone()
    cite = conn.execute("SELECT context_id, bib_entry_id, char_start FROM citations").fetchone()
    refused = [
        # a context in two sections, two contexts at one place; a section twice, two sections at one place
        ("INSERT INTO sections_contexts (section_id, context_id, position) VALUES (?, ?, 99)", [other, context]),
        ("INSERT INTO sections_contexts (section_id, context_id, position) VALUES (?, ?, 0)", [section, "new"]),
        ("INSERT INTO article_sections (article_id, section_id, position) VALUES (?, ?, 99)", [article, other]),
        ("INSERT INTO article_sections (article_id, section_id, position) VALUES (?, 'new', ?)", [article, position]),
        ("INSERT INTO insights_contexts (insight_id, context_id, score) VALUES (?, ?, 1.0)", [insight, linked]),
        ("INSERT INTO concepts_insights (concept_id, insight_id) VALUES (?, ?)", [concept, member]),
        ("INSERT INTO citations (context_id, bib_entry_id, char_start, char_end) VALUES (?, ?, ?, 0)", list(cite)),
    ]
    for sql, params in refused:
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            conn.execute(sql, params)
        assert conn.execute(sql.replace("INSERT", "INSERT OR IGNORE"), params).rowcount == 0
    conn.close()


def test_the_canned_citation_queries_list_one_pages_citing_passages_in_reading_order(tmp_path: Path) -> None:
    blocks = [_cited(f"Frogs give birth [1], as note {n} says. {FILLER}", "[1]", "r1") for n in range(6)]
    citing = Document(title="Citing frogs", pages=3, sections=[Section("Introduction", 1, "1", blocks=blocks)],
                      references=[Reference("[1] Iskandar DT. A fanged frog. 2014.", key="r1", doi="10.5555/frog")])  # fmt: skip
    with CorpusWriter(tmp_path / "c.sqlite", TokenCounter(window=64)) as writer:
        cited = writer.add_document(dataclasses.replace(_paper(0), doi="10.5555/frog"), source_uri="cited.pdf", sha256="a")
        article = writer.add_document(citing, source_uri="citing.pdf", sha256="b")
        conn = writer.db.conn
        order = removal.article_context_ids(conn, article)
        for name, key in (("cited_by", cited), ("cites_in_corpus", article)):
            rows = conn.execute(QUERIES[name][2], {"article_id": key}).fetchall()
            passages = [row[-2] if name == "cited_by" else row[-1] for row in rows]
            assert len(passages) == 6 and passages == sorted(passages, key=order.index)


def test_a_version_9_corpus_with_an_orphan_link_row_migrates_when_a_writer_opens_it(tmp_path: Path) -> None:
    # a merge copies rows with foreign keys off: a link row may outlive the row it names
    _current_corpus(tmp_path / "today.sqlite")
    old = tmp_path / "old.sqlite"
    _as_version_9(tmp_path / "today.sqlite", old)
    conn = sqlite3.connect(old)
    with conn:
        conn.execute("INSERT INTO citations (context_id, bib_entry_id, char_start, char_end) VALUES ('gone', 'gone too', 0, 3)")
    conn.close()
    with CorpusWriter(old, TokenCounter(window=64)) as writer:
        assert schema_version(writer.db) == len(MIGRATIONS)
        assert writer.db.execute("SELECT count(*) FROM citations WHERE context_id = 'gone'").fetchone()[0] == 1
        assert writer.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert writer.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_corpus_passes_the_integrity_check_of_the_standard_librarys_sqlite(tmp_path: Path) -> None:
    # SQLite 3.40 (Debian 12's, Python's own module here) misreads a WITHOUT ROWID row whose key
    # columns are declared around another column, and reports a NULL value in it
    import sqlite3 as standard

    _current_corpus(tmp_path / "today.sqlite")
    conn = standard.connect(tmp_path / "today.sqlite")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
