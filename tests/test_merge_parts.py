"""The parallel build: corpora written apart (each by its own writer, from its own inputs) merged
into one, compared with one writer storing the same documents: the same articles, contexts,
vectors, citations between papers of different parts, search results and ingest log; a paper
ingested into two parts kept once; the same merge run twice adds nothing; parts that cannot be
merged refused. Contexts are embedded by the real MiniLM."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paperpyramid.corpus import Corpus
from paperpyramid.db import lexical_index
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db import writer as db_writer
from paperpyramid.db.parts import PartsError, merge_parts
from paperpyramid.db.pyramid import ArticlePyramid, InsightRow, store_pyramid
from paperpyramid.db.sqlite import load_vec
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Author, Block, Document, Reference, Section
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.tokens import TokenCounter

TOPICS = {
    "frog": ("Fanged frogs of Sulawesi give birth to tadpoles", "A gravid female held 28 tadpoles in her oviducts."),
    "shark": ("Sharpnose sharks live long in the Gulf of Mexico", "Vertebral band counts gave ages of up to 14 years."),
    "wheat": ("Volatile compounds of durum wheat grains and their aroma", "Hexanal and nonanal dominated the headspace of the grains."),
    "clinic": ("Barriers to primary care for people with chronic illness", "Patients named cost and distance as the main barriers."),
}


def paper(topic: str, cites: tuple[str, ...] = ()) -> Document:
    title, finding = TOPICS[topic]
    refs = [Reference(f"{TOPICS[other][0]}. 2014.", TOPICS[other][0], ["Someone A"], 2014, doi=f"10.1/{other}", key=str(n + 1))
            for n, other in enumerate(cites)]  # fmt: skip
    return Document(
        title=title,
        authors=[Author("Ana Author")],
        abstract=finding,
        date_published="2014",
        journal="Journal of Tests",
        doi=f"10.1/{topic}",
        paged=False,
        sections=[
            Section("Introduction", 1, "1", blocks=[Block(f"{title}. This paper reports what was found about it.", 1)]),
            Section("Results", 1, "2", blocks=[Block(finding + (" Earlier work agrees [1]." if cites else ""), 1)]),
        ],
        references=refs,
        provenance={"sections": "test"},
    )


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


def write(
    path: Path, topics: list[tuple[str, tuple[str, ...]]], minilm: MiniLM, counter: TokenCounter, storage: db_vectors.VectorStorage = "int8"
) -> None:
    """One writer storing these papers (each its own input), embedded (``storage``: how the vectors
    are stored), each with a small pyramid."""
    with CorpusWriter(path, counter) as writer:
        for topic, cites in topics:
            article_id = writer.add_document(paper(topic, cites), source_uri=f"file:///{topic}.pdf", sha256=f"sha-{topic}")
            contexts = [str(row[0]) for row in writer.db.execute(
                "SELECT sc.context_id FROM article_sections AS ars JOIN sections_contexts AS sc ON sc.section_id = ars.section_id "
                "WHERE ars.article_id = ? ORDER BY ars.position, sc.position", [article_id])]  # fmt: skip
            store_pyramid(writer.db.conn, ArticlePyramid(article_id, "test:hand", "v1", [InsightRow(f"About {topic}.", [1], None, 3, [(contexts[0], 0.9)])], [], f"{topic}.", 1))  # fmt: skip
        missing = db_vectors.contexts_without_vectors(writer.db.conn, None, 10_000)
        vectors = minilm.embed_passages([text for _, _, text in missing])
        writer.add_vectors(db_vectors.ContextVectors(minilm.name, minilm.dimension, minilm.window, vectors, storage),
                           [cid for _, cid, _ in missing])  # fmt: skip


def summary(path: Path) -> dict[str, Any]:
    """What must agree between the merged corpus and the one writer's, by content (ids differ)."""
    conn = sqlite3.connect(path)
    try:
        titles = dict(conn.execute("SELECT id, title FROM articles"))
        one = {
            "articles": sorted(titles.values()),
            "contexts": sorted(row[0] for row in conn.execute("SELECT text FROM contexts")),
            "citations": sorted(
                (titles[a], titles.get(b)) for a, b in conn.execute("SELECT article_id, cited_article_id FROM bib_entries")
            ),
            "linked": conn.execute("SELECT count(*) FROM citations").fetchone()[0],
            "insights": sorted(row[0] for row in conn.execute("SELECT text FROM insights")),
            "log": sorted(conn.execute("SELECT source_uri, status FROM ingest_log")),
            "vectors": conn.execute("SELECT count(*) FROM vec_contexts_1_rowids").fetchone()[0],
        }
    finally:
        conn.close()
    with Corpus.open(path) as corpus:
        for mode in ("bm25", "vector", "hybrid"):
            one[mode] = [(hit.text, round(hit.score, 4)) for hit in corpus.retrieve("tadpoles in the oviducts of frogs", mode=mode, k=5)]
    return one


def test_parts_merged_hold_what_one_writer_stores(tmp_path: Path, minilm: MiniLM) -> None:
    counter = TokenCounter()
    # references across parts both ways: wheat (part 2) cites frog (part 1), frog cites shark (part 2)
    papers = [("frog", ("shark",)), ("clinic", ()), ("shark", ()), ("wheat", ("frog", "clinic"))]
    write(tmp_path / "one.sqlite", papers, minilm, counter)
    write(tmp_path / "part-1.sqlite", papers[:2], minilm, counter)
    write(tmp_path / "part-2.sqlite", [*papers[2:], papers[0]], minilm, counter)  # the frog paper ingested into both parts

    seen: list[tuple[str, int, int]] = []
    report = merge_parts([tmp_path / "part-1.sqlite", tmp_path / "part-2.sqlite"], tmp_path / "merged.sqlite",
                         on_part=lambda part, added, duplicates: seen.append((part.name, added, duplicates)))  # fmt: skip

    assert (report.parts, report.articles, report.duplicates) == (2, 4, 1)
    assert seen == [("part-2.sqlite", 2, 1)]  # the first part is the corpus to begin with
    assert report.references == 3  # wheat -> frog, wheat -> clinic, frog -> shark: no part could resolve them
    merged, one = summary(tmp_path / "merged.sqlite"), summary(tmp_path / "one.sqlite")
    assert merged == one
    assert ("Fanged frogs of Sulawesi give birth to tadpoles", "Sharpnose sharks live long in the Gulf of Mexico") in merged["citations"]
    assert merged["vectors"] == len(merged["contexts"])

    again = merge_parts([tmp_path / "part-1.sqlite", tmp_path / "part-2.sqlite"], tmp_path / "merged.sqlite")
    assert (again.articles, again.duplicates, again.references) == (0, 1, 0)
    assert summary(tmp_path / "merged.sqlite") == one


def bm25_index(path: Path) -> None:
    """Build the corpus's BM25 index (as an ingest's pass does from lexical_index.INDEX_MIN contexts on)."""
    db = db_writer.connect(path)
    try:
        with db.atomic():
            lexical_index.update(db.conn, lexical_index.WEIGHTS)
    finally:
        db.close()


def indexed_and_stored(path: Path) -> dict[str, Any]:
    """The BM25 index's scores and FTS5's for a few words, each context's stored vector (as bytes)
    and its format, by context text; whether the BM25 index is current, its segments."""
    words = ["tadpoles", "oviducts", "sharks", "wheat", "barriers", "paper"]
    conn = db_sqlite.connect(path)
    load_vec(conn)
    try:
        text = dict(conn.execute("SELECT rowid, text FROM contexts"))
        for table in ("contexts", "insights", "concepts", "abstracts"):  # the FTS5 index holds exactly the table's rows
            conn.execute(f"INSERT INTO {table}_fts ({table}_fts) VALUES ('integrity-check')")
        fts5 = conn.execute(
            "SELECT rowid, -bm25(contexts_fts, 1.0, 0.5) FROM contexts_fts WHERE contexts_fts MATCH ?", [" OR ".join(words)]
        )
        vectors = dict(conn.execute("SELECT c.text, v.embedding FROM vec_contexts_1 AS v JOIN contexts AS c ON c.id = v.context_id"))
        storage = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'vec_contexts_1'").fetchone()[0]
        fts5_scores = sorted((text[rowid], round(score, 9)) for rowid, score in fts5)
    finally:
        conn.close()
    conn = db_writer.connect(path).conn
    try:
        index = sorted(
            (text[rowid], round(score, 9)) for rowid, score in lexical_index.search(conn, words, lexical_index.WEIGHTS, 100) or []
        )
        status = lexical_index.index_status(conn, lexical_index.WEIGHTS)
    finally:
        conn.close()
    return {
        "index": index,
        "fts5": fts5_scores,
        "vectors": vectors,
        "storage": storage,
        "current": status.current,
        "segments": status.segments,
    }


@pytest.mark.parametrize("storage", ["int8", "float32"])
def test_merged_indexes_and_vectors_are_the_parts(tmp_path: Path, minilm: MiniLM, storage: db_vectors.VectorStorage) -> None:
    """Parts with their BM25 indexes merge into a corpus whose index is current and scores as
    FTS5 and as one writer's index do; the vectors come over byte for byte, in either format."""
    counter = TokenCounter()
    papers = [("frog", ("shark",)), ("clinic", ()), ("shark", ()), ("wheat", ("frog", "clinic"))]
    write(tmp_path / "one.sqlite", papers, minilm, counter, storage)
    write(tmp_path / "part-1.sqlite", papers[:2], minilm, counter, storage)
    write(tmp_path / "part-2.sqlite", papers[2:], minilm, counter, storage)
    for name in ("one", "part-1", "part-2"):
        bm25_index(tmp_path / f"{name}.sqlite")
    parts = [indexed_and_stored(tmp_path / f"part-{n}.sqlite") for n in (1, 2)]

    merge_parts([tmp_path / "part-1.sqlite", tmp_path / "part-2.sqlite"], tmp_path / "merged.sqlite")

    merged, one = indexed_and_stored(tmp_path / "merged.sqlite"), indexed_and_stored(tmp_path / "one.sqlite")
    assert (merged["current"], merged["segments"]) == (True, 2)  # each part's segment, carried over
    assert merged["index"] == merged["fts5"] == one["index"] == one["fts5"]
    assert len(merged["index"]) >= 4
    assert merged["vectors"] == parts[0]["vectors"] | parts[1]["vectors"]
    assert len(merged["vectors"]) == len(one["vectors"])
    assert merged["storage"] == one["storage"] and f" {'int8' if storage == 'int8' else 'float'}[" in merged["storage"]


def test_parts_that_cannot_be_merged_are_refused(tmp_path: Path, minilm: MiniLM) -> None:
    counter = TokenCounter()
    write(tmp_path / "a.sqlite", [("frog", ())], minilm, counter)
    with CorpusWriter(tmp_path / "b.sqlite", counter) as writer:
        article_id = writer.add_document(paper("shark"), source_uri="file:///shark.pdf", sha256="sha-shark")
        contexts = [str(row[0]) for row in writer.db.execute("SELECT id FROM contexts")]
        writer.add_vectors(db_vectors.ContextVectors("other-model", 3, 256, minilm.embed_passages(["x"] * len(contexts))[:, :3]), contexts)
    assert article_id
    with pytest.raises(PartsError, match="other-model"):
        merge_parts([tmp_path / "a.sqlite", tmp_path / "b.sqlite"], tmp_path / "merged.sqlite")
    (tmp_path / "not-a-corpus.sqlite").write_bytes(b"hello")
    with pytest.raises(PartsError, match="not-a-corpus.sqlite"):
        merge_parts([tmp_path / "not-a-corpus.sqlite"], tmp_path / "other.sqlite")
    with pytest.raises(PartsError, match="no such corpus file"):
        merge_parts([tmp_path / "missing.sqlite"], tmp_path / "other.sqlite")
    with pytest.raises(ValueError, match="cannot also be a part"):
        merge_parts([tmp_path / "a.sqlite"], tmp_path / "a.sqlite")
    assert not (tmp_path / "other.sqlite").exists()


def test_the_merge_command(tmp_path: Path, minilm: MiniLM) -> None:
    counter = TokenCounter()
    write(tmp_path / "a.sqlite", [("frog", ("shark",))], minilm, counter)
    write(tmp_path / "b.sqlite", [("shark", ())], minilm, counter)
    merged = tmp_path / "corpus.sqlite"
    result = subprocess.run([sys.executable, "-m", "paperpyramid.cli", "merge", str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite"),
                             "--db", str(merged)], capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "b.sqlite: 1 article added, 0 already in the corpus" in result.stderr
    assert "2 articles added from 2 parts, 0 kept once, 1 references between parts resolved" in result.stderr
    with Corpus.open(merged) as corpus:
        assert len(list(corpus.articles())) == 2
    refused = subprocess.run([sys.executable, "-m", "paperpyramid.cli", "merge", str(tmp_path / "missing.sqlite"), "--db", str(merged)],
                             capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert refused.returncode != 0 and "missing.sqlite: no such corpus file" in refused.stderr
    assert "Traceback" not in refused.stderr
