"""A batch stored table by table (``CorpusWriter.store_many``) leaves the file that storing its
documents one at a time (``CorpusWriter.store``) leaves: the same outcomes, and every table the
same row for row, ids aside. The batch mixes what must be decided per document: a twin (the same
bytes twice), a newer version of a PMID stored earlier in the same batch, a record joining a full
text stored earlier in the batch, a bad document, references between articles of the batch in
both directions (one by a title two later articles share), and new records with their vectors."""

from __future__ import annotations

import dataclasses
import logging
import os
import pickle
import signal
import subprocess
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paperpyramid.contexts import split_section
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.writer import ArticleInput, CorpusWriter, DuplicateArticle
from paperpyramid.document import Author, Block, Document, MeshTerm, Reference, Section, Table
from paperpyramid.normalise import normalise_document
from paperpyramid.tokens import TokenCounter

#: the tables an article's rows go to, the log, the sources merged, the models
TABLES = ("articles", "sections", "article_sections", "contexts", "sections_contexts", "bib_entries", "citations", "tables",
          "formulas", "figures", "mesh_terms", "merged_sources", "ingest_log", "embedders")  # fmt: skip
SHARED_TITLE = "Viviparity in fanged frogs of the Sulawesi rainforest"


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


def record(pmid: str, text: str, **changes: Any) -> Document:
    """A document as the PubMed reader makes one: an abstract, MeSH headings, no pages."""
    doc = Document(
        title=f"Record {pmid}: internal fertilization in frogs",
        authors=[Author("Iskandar DT"), Author("Evans BJ")],
        abstract=text,
        date_published="2014-12-31",
        journal="PLoS One",
        pmid=pmid,
        language="eng",
        publication_types=["Journal Article"],
        keywords=["Anura"],
        mesh=[MeshTerm("Anura", True, "D000822", ["physiology"]), MeshTerm("Animals", False, "D000818")],
        paged=False,
        sections=[Section("Abstract", blocks=[Block(text, 1)])],
        provenance={"sections": "pubmed", "metadata": "pubmed"},
    )
    return dataclasses.replace(doc, **changes)


def paper(name: str, *, doi: str | None, title: str, references: Sequence[Reference] = (), **changes: Any) -> Document:
    """A full text with a table, citing ``references`` (keys r0, r1, ...) from its text."""
    keys = " ".join(f"[{n}]" for n in range(len(references)))
    doc = Document(
        title=title,
        authors=[Author("Evans BJ"), Author("Iskandar DT")],
        abstract=f"The {name} paper's abstract.",
        date_published="2015-03-01",
        doi=doi,
        sections=[
            Section("Introduction", 1, "1", blocks=[Block(f"Frogs of Sulawesi give birth to tadpoles, as shown {keys}.", 1)]),
            Section("Results", 1, "2", blocks=[Block(f"The {name} results: fertilization is internal in every sample.", 2)]),
        ],
        references=[dataclasses.replace(ref, key=f"r{n}") for n, ref in enumerate(references)],
        tables=[Table("Table 1. Samples.", [["site", "count"], ["Sulawesi", "12"]], 2, section=1, label="1")],
        provenance={"sections": "test"},
    )
    return dataclasses.replace(doc, **changes)


def article(doc: Document, name: str, counter: TokenCounter, *, sha: str | None = None, vectors: bool = True) -> ArticleInput:
    """``doc`` as ingest's workers hand it over: normalised, its contexts cut, their vectors (seeded)."""
    doc = normalise_document(doc)
    contexts = [split_section(section, counter) for section in doc.sections]
    count = sum(len(drafts) for drafts in contexts)
    matrix = np.random.default_rng(zlib.crc32(name.encode())).standard_normal((count, 8)).astype(np.float32)
    given = db_vectors.ContextVectors("test-model", 8, 256, matrix, "float32") if vectors else None
    return ArticleInput(doc, f"file:///{name}", sha or name.ljust(64, "0"), seconds=0.5, contexts=contexts, vectors=given,
                        normalised=True)  # fmt: skip


def the_batch(counter: TokenCounter) -> list[ArticleInput]:
    cites = [
        Reference("Later D. 2015.", title="Paper D", authors=["Evans BJ"], year=2015, doi="10.5555/d"),  # named by a later article's DOI
        Reference("Shared. 2015.", title=SHARED_TITLE, authors=["Evans BJ"], year=2015),  # two later articles bear this title
        Reference("Record B. 2014.", doi="10.5555/b"),  # named by an earlier article's DOI
    ]
    bad = paper("bad", doi="10.5555/bad", title="A bad document")
    bad = dataclasses.replace(bad, tables=[dataclasses.replace(bad.tables[0], section=7)])  # points at no section
    first = article(record("1001", "Limnonectes larvaepartus gives birth to tadpoles.", doi="10.5555/a"), "a-v1", counter)
    anonymous = article(paper("h", doi=None, title="A paper without identifiers"), "h", counter)  # only its bytes tell its twin
    return [
        first,
        article(paper("full", doi="10.5555/full", title="A full text of frogs", pmcid="PMC900001"), "full", counter),
        dataclasses.replace(first, source_uri="file:///a-twin"),  # the same bytes again
        article(bad, "bad", counter),
        article(record("1001", "Limnonectes larvaepartus, a fanged frog, gives birth to live tadpoles.", doi="10.5555/a"), "a-v2", counter),
        article(record("1002", "Tadpoles are born in streams.", doi="10.5555/b"), "b", counter),
        article(paper("citing", doi="10.5555/c", title="A citing paper on frogs", references=cites), "c", counter),
        article(paper("d", doi="10.5555/d", title="Paper D on the forests of Sulawesi"), "d", counter),
        article(paper("e", doi="10.5555/e", title=SHARED_TITLE), "e", counter),
        article(paper("f", doi="10.5555/f", title=SHARED_TITLE), "f", counter),
        article(record("2002", "The record of the full text.", pmcid="PMC900001"), "full-record", counter, vectors=False),
        article(record("1003", "Eggs are laid on leaves.", doi="10.5555/g"), "g", counter),
        anonymous,
        dataclasses.replace(anonymous, source_uri="file:///h-twin"),
    ]


def canonical(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in rowid order, each id replaced by its table and rank, times left out;
    the vectors by context; the FTS5 hits of a few queries."""
    conn = db_sqlite.connect(path, read_only=True)
    try:
        names: dict[Any, str] = {}
        for table in TABLES:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            if "id" in columns:
                for rank, (value,) in enumerate(conn.execute(f"SELECT id FROM {table} ORDER BY rowid")):
                    names[value] = f"{table}#{rank}"
        out: dict[str, list[tuple[Any, ...]]] = {}
        for table in TABLES:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            kept = [name for name in columns if not name.endswith("_at")]
            keyed = conn.execute("SELECT wr FROM pragma_table_list WHERE name = ?", [table]).fetchone()[0]  # WITHOUT ROWID
            rows = conn.execute(f"SELECT {', '.join(kept)} FROM {table}" + ("" if keyed else " ORDER BY rowid")).fetchall()
            named = [tuple(names.get(value, value) if isinstance(value, str) else value for value in row) for row in rows]
            out[table] = sorted(named, key=repr) if keyed else named
        (vec_table,) = conn.execute("SELECT vec_table FROM embedders").fetchone()
        out["vectors"] = sorted((names[cid], bytes(blob)) for cid, blob in conn.execute(f"SELECT context_id, embedding FROM {vec_table}"))
        out["fts"] = [
            tuple(names[cid] for (cid,) in conn.execute(
                "SELECT c.id FROM contexts_fts JOIN contexts c ON c.rowid = contexts_fts.rowid WHERE contexts_fts MATCH ? ORDER BY c.rowid",
                [query]))
            for query in ("tadpoles", "fertilization", "Sulawesi", "live")
        ]  # fmt: skip
        return out
    finally:
        conn.close()


def named(outcome: str | Exception, ids: dict[str, str]) -> str:
    """An outcome as comparable across two files: an article by its source, an error by its kind and text."""
    if isinstance(outcome, Exception):
        text = str(outcome)
        for article_id, source in ids.items():
            text = text.replace(article_id, source)
        return f"{type(outcome).__name__}: {text}"
    return ids[outcome]


def sources(path: Path) -> dict[str, str]:
    conn = db_sqlite.connect(path, read_only=True)
    try:
        return {str(article_id): str(source) for article_id, source in conn.execute("SELECT id, source_uri FROM articles")}
    finally:
        conn.close()


def test_a_batch_stores_what_storing_one_at_a_time_stores(tmp_path: Path, counter: TokenCounter, caplog: pytest.LogCaptureFixture) -> None:
    batch = the_batch(counter)
    one, many = tmp_path / "one.sqlite", tmp_path / "many.sqlite"
    singly: list[str | Exception] = []
    with CorpusWriter(one, counter) as writer:
        for given in batch:
            try:
                singly.append(writer.store(given.doc, source_uri=given.source_uri, sha256=given.sha256, seconds=given.seconds,
                                           contexts=given.contexts, vectors=given.vectors, normalised=True))  # fmt: skip
            except ValueError as exc:
                singly.append(exc)
    with caplog.at_level(logging.WARNING), CorpusWriter(many, counter) as writer:
        together = writer.store_many(batch)
    assert "one at a time" not in caplog.text  # every case decided before inserting, none left to the fallback

    assert [named(outcome, sources(many)) for outcome in together] == [named(outcome, sources(one)) for outcome in singly]
    assert isinstance(together[2], DuplicateArticle) and together[2].article_id == together[0]
    assert isinstance(together[3], ValueError) and not isinstance(together[3], DuplicateArticle)
    assert isinstance(together[13], DuplicateArticle) and together[13].article_id == together[12]
    assert together[4] == together[0] and together[10] == together[1]  # the newer version; the record joined to its full text
    stored, expected = canonical(many), canonical(one)
    for table in expected:
        assert stored[table] == expected[table], table
    # the references resolved as one at a time resolves them: to the later D, to the earlier B, and
    # to E, the only article with the shared title when it was stored (F, stored after it, has it too)
    conn = db_sqlite.connect(many, read_only=True)
    try:
        cited = conn.execute(
            "SELECT e.key, a.source_uri FROM bib_entries e LEFT JOIN articles a ON a.id = e.cited_article_id ORDER BY e.position"
        ).fetchall()
    finally:
        conn.close()
    assert cited == [("r0", "file:///d"), ("r1", "file:///e"), ("r2", "file:///b")]


def test_a_failure_no_check_foresaw_stores_the_batch_one_at_a_time(tmp_path: Path, counter: TokenCounter) -> None:
    """A model already stored with another dimension fails the batch's vectors statement: the new
    articles are then stored one by one, and only the documents with such vectors fail."""
    batch = [article(record(str(3000 + n), f"Frog number {n} gives birth to tadpoles."), f"r{n}", counter) for n in range(4)]
    path = tmp_path / "corpus.sqlite"
    with CorpusWriter(path, counter) as writer:
        with writer.db.atomic():
            db_vectors.ensure_embedder(writer.db.conn, "test-model", 8, 256, "float32")
        wrong = dataclasses.replace(batch[1].vectors, dimension=16, vectors=np.ones((len(batch[1].vectors.vectors), 16), np.float32))
        batch[1] = dataclasses.replace(batch[1], vectors=wrong)
        outcomes = writer.store_many(batch)
    assert [isinstance(outcome, str) for outcome in outcomes] == [True, False, True, True]
    assert sorted(sources(path).values()) == ["file:///r0", "file:///r2", "file:///r3"]


_KILLED_WHILE_INSERTING = """
import os, pickle, signal, sys
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.tokens import TokenCounter

def die_at_the_contexts(statement):  # the batch's articles and sections are in, its contexts next
    if statement.startswith("INSERT INTO [contexts]"):
        os.kill(os.getpid(), signal.SIGKILL)

articles = pickle.loads(sys.stdin.buffer.read())
with CorpusWriter(sys.argv[1], TokenCounter()) as writer:
    writer.store_many(articles[:3])
    writer.db.conn.set_trace_callback(die_at_the_contexts)
    writer.store_many(articles[3:])
"""


def test_kill_9_while_a_batch_is_inserting_then_a_rerun_stores_each_document_once(tmp_path: Path, counter: TokenCounter) -> None:
    given = [article(record(str(4000 + n), f"Frog number {n} gives birth to tadpoles."), f"k{n}", counter) for n in range(8)]
    path = tmp_path / "corpus.sqlite"
    process = subprocess.run([sys.executable, "-c", _KILLED_WHILE_INSERTING, str(path)], input=pickle.dumps(given),
                             cwd=Path(__file__).resolve().parents[1], capture_output=True, env={**os.environ, "HF_HUB_OFFLINE": "1"},
                             timeout=300)  # fmt: skip
    assert process.returncode == -signal.SIGKILL, process.stderr.decode()[-2000:]
    assert sorted(sources(path).values()) == [f"file:///k{n}" for n in range(3)]  # the first batch, nothing of the second
    with CorpusWriter(path, counter) as writer:
        again = writer.store_many(given)  # a re-run: what is stored is refused, the rest stored once
        assert [type(outcome).__name__ for outcome in again[:3]] == ["DuplicateArticle"] * 3
        assert all(isinstance(outcome, str) for outcome in again[3:])
        counts = {
            table: writer.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("articles", "contexts", "ingest_log")
        }
        assert writer.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        writer.db.execute("INSERT INTO contexts_fts (contexts_fts, rank) VALUES ('integrity-check', 1)")  # raises when the index is wrong
    assert counts == {"articles": 8, "contexts": 8, "ingest_log": 8}
