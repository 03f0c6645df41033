"""A shard made by copying its articles' rows into a fresh corpus (``copy_shard``) holds exactly
what removing every other article from a copy of the whole leaves (``drop_articles``, then the
references across shards named again): the same rows in every table, the same vectors (int8,
typed), the pyramid and only the recollections its own articles support, its full-text, BM25 and
approximate vector indexes current and sound; and no byte of another shard's text."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paperpyramid.db import CorpusWriter, lexical_index, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, LevelVectors, LLMCallRecord, save_recollection, store_pyramid
from paperpyramid.db.row_copy import user_tables
from paperpyramid.db.snapshot.licences import drop_articles
from paperpyramid.db.snapshot.shard_copy import copy_shard, copy_shards
from paperpyramid.db.sqlite import connect, load_vec
from paperpyramid.document import Block, Document, Reference, Section
from paperpyramid.tokens import TokenCounter

YEARS = (2019, 2020, 2021)
DIMENSION = 8
MODEL = "test-embedder"
#: the BM25 index's tables: built for the shard's contexts, compared by what they answer
BM25_TABLES = {lexical_index.POSTINGS, lexical_index.SEGMENTS, lexical_index.META}


def paper(year: int, number: int) -> Document:
    """A paper whose passages carry a word of its own (``wombat2019n1``); papers of 2021 cite the
    first of 2019 (another shard), the second of each year cites the first (the same shard)."""
    word = f"wombat{year}n{number}"
    cites = [f"10.1000/wombat.{year}.1"] if number == 2 else []
    cites += ["10.1000/wombat.2019.1"] if year == 2021 else []
    return Document(
        title=f"Burrows of {year}, paper {number}",
        date_published=f"{year}-05-01",
        doi=f"10.1000/wombat.{year}.{number}",
        pages=2,
        sections=[
            Section(
                title,
                1,
                str(position + 1),
                blocks=[Block(f"The {word} {title.lower()} passage on burrowing marsupials {n}.", 1) for n in range(3)],
            )
            for position, title in enumerate(("Introduction", "Methods", "Results"))
        ],  # fmt: skip
        references=[Reference(f"Earlier burrows ({doi}).", doi=doi) for doi in cites],
    )


def vectors(count: int, seed: int) -> Any:
    found = np.random.default_rng(seed).normal(size=(count, DIMENSION)).astype(np.float32)
    return found / np.linalg.norm(found, axis=1, keepdims=True)


def context_ids(conn: Any, article_id: str) -> list[str]:
    return [str(row[0]) for row in conn.execute(
        "SELECT sc.context_id FROM article_sections AS a JOIN sections_contexts AS sc ON sc.section_id = a.section_id "
        "WHERE a.article_id = ? ORDER BY a.position, sc.position", [article_id])]  # fmt: skip


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two papers a year, embedded (int8), each with a pyramid (insights, concepts, abstract, their
    vectors, model calls); a recollection within 2019 and one across 2019 and 2021; a failed
    input; the BM25 index and the approximate vector index built."""
    path = tmp_path_factory.mktemp("shard-copy") / "whole.sqlite"
    with CorpusWriter(path, TokenCounter()) as writer:
        for year in YEARS:
            for number in (1, 2):
                writer.add_document(paper(year, number), source_uri=f"papers/{year}-{number}.pdf", sha256=f"sha-{year}-{number}")
                writer.record(f"papers/{year}-{number}.pdf", f"sha-{year}-{number}", "done")
        writer.record("papers/broken.pdf", None, "failed", error="corrupt PDF: no xref table")
    conn = connect(path)
    try:
        load_vec(conn)
        embedder = db_vectors.ensure_embedder(conn, MODEL, DIMENSION, None)
        contexts = [str(row[0]) for row in conn.execute("SELECT id FROM contexts ORDER BY id")]
        db_vectors.insert_vectors(conn, embedder, contexts, vectors(len(contexts), 1))
        articles = dict(conn.execute("SELECT doi, id FROM articles").fetchall())
        insights: dict[str, list[str]] = {}
        for seed, (doi, article_id) in enumerate(sorted(articles.items())):
            ids = context_ids(conn, article_id)
            rows = [
                InsightRow(
                    f"Insight {n} of {doi} on wombat burrows.",
                    [1],
                    None,
                    6,
                    [(ids[n % len(ids)], 0.8), (ids[-1], 0.4)][: 1 if n % len(ids) == len(ids) - 1 else 2],
                )
                for n in range(3)
            ]
            level = LevelVectors(
                MODEL,
                DIMENSION,
                None,
                {"insights": vectors(3, 10 + seed), "concepts": vectors(1, 50 + seed), "abstracts": vectors(1, 90 + seed)},
            )
            store_pyramid(conn, ArticlePyramid(article_id, "test:hand", "v1", rows, [ConceptRow(f"Concept of {doi}.", 3, [0, 2])],
                                               f"Abstract of {doi}.", 3, calls=[LLMCallRecord("insights", "test:hand", 100, 20)], vectors=level))  # fmt: skip
            insights[doi] = [
                str(row[0]) for row in conn.execute("SELECT id FROM insights WHERE article_id = ? ORDER BY position", [article_id])
            ]
        within = [(articles["10.1000/wombat.2019.1"], insights["10.1000/wombat.2019.1"][0]), (articles["10.1000/wombat.2019.2"], None)]
        across = [(articles["10.1000/wombat.2019.1"], None), (articles["10.1000/wombat.2021.2"], insights["10.1000/wombat.2021.2"][1])]
        made = [save_recollection(conn, None, text, 5, sources[-1][0], sources, "test:hand", "v1", "2026-01-01T00:00:00Z")
                for text, sources in (("Both 2019 papers dig.", within), ("Burrows span 2019 to 2021.", across))]  # fmt: skip
        db_vectors.insert_level_vectors(conn, embedder, "recollections", made, vectors(2, 200))
        lexical_index.update(conn, lexical_index.WEIGHTS)
        vector_index.build_index(conn, embedder)
        conn.commit()
    finally:
        conn.close()
    return path


def by_drop(whole: Path, keep: set[str], target: Path) -> None:
    """The shard as removing every other article from a copy of ``whole`` leaves it, the
    references to articles of other shards named again."""
    shutil.copyfile(whole, target)
    conn = sqlite3.connect(whole)
    others = [str(row[0]) for row in conn.execute("SELECT id FROM articles") if str(row[0]) not in keep]
    cited = conn.execute("SELECT id, cited_article_id FROM bib_entries WHERE cited_article_id IS NOT NULL").fetchall()
    conn.close()
    drop_articles(target, others)
    conn = sqlite3.connect(target)
    with conn:
        conn.executemany("UPDATE bib_entries SET cited_article_id = ? WHERE id = ?", [(to, entry) for entry, to in cited])
    conn.close()


def contents(path: Path) -> dict[str, Any]:
    """Every ordinary table's rows (as a sorted list, rowids aside), every vector by its key,
    and what each full-text index finds for each paper's word."""
    conn = connect(path, read_only=True)
    load_vec(conn)
    found: dict[str, Any] = {}
    for table in user_tables(conn):
        if table not in BM25_TABLES:
            found[table] = sorted(map(repr, conn.execute(f'SELECT * FROM "{table}"')))
    for (table,) in conn.execute(r"SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE vec\_%' ESCAPE '\'").fetchall():
        key = conn.execute(f"SELECT name FROM pragma_table_info('{table}') ORDER BY cid LIMIT 1").fetchone()[0]
        found[table] = sorted(conn.execute(f'SELECT "{key}", vec_to_json(embedding) FROM "{table}"').fetchall())
    for year in YEARS:
        for level in ("contexts", "insights"):
            query = f"SELECT t.id FROM {level}_fts AS f JOIN {level} AS t ON t.rowid = f.rowid WHERE {level}_fts MATCH ?"
            found[f"{level}_fts {year}"] = sorted(row[0] for row in conn.execute(query, [f"wombat{year}n1 OR wombat{year}n2 OR {year}"]))
    conn.close()
    return found


def test_copied_shards_hold_what_dropping_the_other_articles_leaves(whole: Path, tmp_path: Path) -> None:
    conn = sqlite3.connect(whole)
    keep = {year: [str(row[0]) for row in conn.execute("SELECT id FROM articles WHERE date_published LIKE ? ORDER BY rowid", [f"{year}%"])]
            for year in YEARS}  # fmt: skip
    conn.close()
    copy_shards(whole, [(keep[year], tmp_path / f"copied-{year}.sqlite") for year in YEARS])  # the vectors of all in one pass

    for year in YEARS:
        by_drop(whole, set(keep[year]), tmp_path / f"dropped-{year}.sqlite")
        copied, dropped = contents(tmp_path / f"copied-{year}.sqlite"), contents(tmp_path / f"dropped-{year}.sqlite")
        assert copied.keys() == dropped.keys()
        for name in copied:
            assert copied[name] == dropped[name], (year, name)
        assert (
            len(copied["articles"]) == 2 and len(copied["vec_contexts_1"]) == len(copied["contexts"]) > 0 and len(copied["insights"]) == 6
        )
        assert len(copied["recollections"]) == (1 if year == 2019 else 0)  # the one across 2019 and 2021 is in neither
        assert len(copied["llm_calls"]) == 2 and any("corrupt PDF" in row for row in copied["ingest_log"])
        assert len(copied["vec_recollections_1"]) == len(copied["recollections"])


@pytest.mark.parametrize("year", YEARS)
def test_a_copied_shard_has_sound_current_indexes_and_no_other_shards_text(whole: Path, tmp_path: Path, year: int) -> None:
    conn = sqlite3.connect(whole)
    keep = [str(row[0]) for row in conn.execute("SELECT id FROM articles WHERE date_published LIKE ?", [f"{year}%"])]
    conn.close()
    shard = tmp_path / "copied.sqlite"
    copy_shard(whole, keep, shard)

    conn = connect(shard)  # FTS5's integrity-check is a write statement
    load_vec(conn)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        for table in ("contexts", "insights", "concepts", "abstracts", "recollections"):
            conn.execute(f"INSERT INTO {table}_fts ({table}_fts, rank) VALUES ('integrity-check', 1)")
        assert lexical_index.is_current(conn, lexical_index.WEIGHTS)
        embedder = db_vectors.find_embedder(conn, MODEL)
        assert embedder is not None
        status = vector_index.index_status(conn, embedder)
        assert status.exists and status.current and status.indexed == conn.execute("SELECT count(*) FROM contexts").fetchone()[0] > 0
        # the triggers came along: a context added later is in its full-text index
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone()[0] > 0
    finally:
        conn.close()
    data = shard.read_bytes()
    assert f"wombat{year}n1".encode() in data
    for other in set(YEARS) - {year}:
        assert f"wombat{other}n1".encode() not in data and f"wombat{other}n2".encode() not in data
