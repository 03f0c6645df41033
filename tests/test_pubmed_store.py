"""PubMed records and full texts in the corpus: their identifiers, licence, language and indexing
stored and read back; a newer version of a PMID replacing the older under the same id (its pyramid
kept while its text is the same); ``delete_pmids``; a record and its full text joined into one
article in either order; re-runs that change nothing; and an older corpus migrated. Contexts are
embedded by the real MiniLM, vectors and indexes checked in the file itself."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils

from paperpyramid.corpus import Corpus
from paperpyramid.db import lexical_index, removal, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, save_recollection, store_pyramid
from paperpyramid.db.schema import MIGRATIONS, SCHEMA_VERSION, migrate, schema_version
from paperpyramid.db.writer import CorpusWriter, DuplicateArticle
from paperpyramid.document import Author, Block, Document, MeshTerm, Reference, Section, Table
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.tokens import TokenCounter

ABSTRACT = "Limnonectes larvaepartus gives birth to tadpoles after internal fertilization in the forests of Sulawesi."
REVISED = "Limnonectes larvaepartus, a fanged frog of Sulawesi, gives birth to live tadpoles after internal fertilization."
MESH = [
    MeshTerm("Anura", True, "D000822", ["physiology", "classification"]),
    MeshTerm("Fertilization", False, "D005306"),
    MeshTerm("Animals", False, "D000818"),
]


def record(pmid: str = "25551769", abstract: str = ABSTRACT, **changes: Any) -> Document:
    """A document as the PubMed reader makes one: the abstract alone, no pages."""
    doc = Document(
        title="A new fanged frog that gives birth to tadpoles",
        authors=[Author("Iskandar DT"), Author("Evans BJ")],
        abstract=abstract,
        date_published="2014 Dec 31",
        journal="PLoS One",
        doi="10.1371/journal.pone.0115884",
        pmid=pmid,
        pmcid="PMC4281137",
        language="eng",
        publication_types=["Journal Article", "Research Support, Non-U.S. Gov't"],
        keywords=["Anura", "viviparity"],
        mesh=list(MESH),
        paged=False,
        sections=[Section("Abstract", blocks=[Block(abstract, 1)])],
        provenance={"sections": "pubmed", "metadata": "pubmed"},
    )
    return dataclasses.replace(doc, **changes)


def full_text(**changes: Any) -> Document:
    """The paper's full text as the JATS parser gives it: no MeSH, no publication types."""
    doc = Document(
        title="A Novel Reproductive Mode in Frogs: A New Species of Fanged Frog with Internal Fertilization and Birth of Tadpoles",
        authors=[Author("Djoko T. Iskandar"), Author("Ben J. Evans"), Author("Jimmy A. McGuire")],
        abstract="We describe a new species of fanged frog that gives birth to tadpoles.",
        date_published="2014-12-31",
        journal="PLOS ONE",
        doi="https://doi.org/10.1371/JOURNAL.PONE.0115884",
        pmcid="PMC4281137",
        licence="cc-by",
        language="en",
        keywords=["frogs", "Sulawesi"],
        paged=False,
        sections=[
            Section(
                "Introduction",
                1,
                "1",
                blocks=[Block("Internal fertilization is rare among frogs; the fanged frogs of Sulawesi are diverse.", 1)],
            ),
            Section("Results", 1, "2", blocks=[Block("A gravid female held 28 tadpoles in her oviducts [1].", 1)]),
            Section("References", 1, "ref", blocks=[Block("1. Evans BJ. Fanged frogs. 2003.", 1)]),
        ],
        tables=[Table("Measurements", [["SVL", "mm"], ["female", "41"]], 1, section=1)],
        references=[Reference("1. Evans BJ. Fanged frogs. 2003.", "Fanged frogs", ["Evans BJ"], 2003, key="1")],
        provenance={"sections": "jats 1.3"},
    )
    return dataclasses.replace(doc, **changes)


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture
def writer(tmp_path: Path, counter: TokenCounter) -> Iterator[CorpusWriter]:
    with CorpusWriter(tmp_path / "corpus.sqlite", counter) as writer:
        yield writer


def embed(writer: CorpusWriter, minilm: MiniLM) -> None:
    """Give every context without one its MiniLM vector, as ``paperpyramid embed`` does."""
    row = db_vectors.find_embedder(writer.db.conn, minilm.name)
    missing = db_vectors.contexts_without_vectors(writer.db.conn, row, 10_000)
    if missing:
        vectors = minilm.embed_passages([text for _, _, text in missing])
        writer.add_vectors(db_vectors.ContextVectors(minilm.name, minilm.dimension, minilm.window, vectors), [cid for _, cid, _ in missing])


def rows(writer: CorpusWriter, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in writer.db.execute(sql, list(params)).fetchall()]


def context_ids(writer: CorpusWriter, article_id: str) -> list[str]:
    return [row[0] for row in rows(writer, "SELECT sc.context_id FROM article_sections AS ars JOIN sections_contexts AS sc "
                                           "ON sc.section_id = ars.section_id WHERE ars.article_id = ? ORDER BY ars.position, sc.position",
                                   article_id)]  # fmt: skip


def vector_ids(writer: CorpusWriter) -> set[str]:
    return {row[0] for row in rows(writer, "SELECT context_id FROM vec_contexts_1")}


def everything(writer: CorpusWriter) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables an article's storing touches, to compare before and after."""
    tables = ("articles", "sections", "article_sections", "contexts", "sections_contexts", "bib_entries", "citations", "tables",
              "mesh_terms", "merged_sources", "insights", "insights_contexts", "distillations")  # fmt: skip
    return {table: sorted(map(tuple, writer.db.execute(f"SELECT * FROM {table}").fetchall()), key=repr) for table in tables}


def distil(writer: CorpusWriter, article_id: str) -> None:
    """A pyramid by hand: one insight on each of the article's contexts, one concept over them."""
    ids = context_ids(writer, article_id)
    insights = [InsightRow(f"Insight {n} of the frog.", [1], None, 6, [(cid, 0.9)]) for n, cid in enumerate(ids)]
    store_pyramid(writer.db.conn, ArticlePyramid(article_id, "test:hand", "v1", insights, [ConceptRow("Frog birth.", 3, [0])], "Frogs.", 2))


def read(path: Path, article_id: str) -> Any:
    with Corpus.open(path) as corpus:
        return corpus.article(article_id)


def test_a_records_fields_are_stored_and_read_back(writer: CorpusWriter) -> None:
    article_id = writer.add_document(record(pmid="PMID: 25551769", pmcid="pmc4281137"), source_uri="pubmed:25551769", sha256="v1")
    article = read(writer.path, article_id)
    assert (article.pmid, article.pmcid, article.language, article.licence) == ("25551769", "PMC4281137", "eng", None)
    assert article.publication_types == ("Journal Article", "Research Support, Non-U.S. Gov't")
    assert article.keywords == ("Anura", "viviparity")
    assert article.mesh == tuple(MESH)  # order, major topics, unique ids and qualifiers
    assert article.date_published == "2014-12-31" and article.doi == "10.1371/journal.pone.0115884"
    # the columns and rows as a reader of the file sees them
    stored = rows(writer, "SELECT pmid, pmcid, licence, language, publication_types, keywords FROM articles")
    assert stored == [("25551769", "PMC4281137", None, "eng", json.dumps(record().publication_types), '["Anura", "viviparity"]')]
    assert rows(writer, "SELECT position, term, major, ui, qualifiers FROM mesh_terms ORDER BY position") == [
        (0, "Anura", 1, "D000822", '["physiology", "classification"]'),
        (1, "Fertilization", 0, "D005306", "[]"),
        (2, "Animals", 0, "D000818", "[]"),
    ]
    full_id = writer.add_document(full_text(doi="10.1/other", pmcid=None), source_uri="file:///frog.xml", sha256="full")
    assert read(writer.path, full_id).licence == "cc-by" and read(writer.path, full_id).mesh == ()


def test_a_newer_version_replaces_the_older_under_the_same_id(writer: CorpusWriter, minilm: MiniLM) -> None:
    first = writer.add_document(record(), source_uri="pubmed:a.xml", sha256="v1")
    embed(writer, minilm)
    old_contexts = context_ids(writer, first)
    assert vector_ids(writer) == set(old_contexts)
    newer_mesh = [MeshTerm("Anura", True, "D000822"), MeshTerm("Viviparity, Nonmammalian", True, "D058307")]
    second = writer.add_document(record(abstract=REVISED, mesh=newer_mesh, keywords=[]), source_uri="pubmed:b.xml", sha256="v2")
    assert second == first
    assert rows(writer, "SELECT count(*) FROM articles") == [(1,)]
    article = read(writer.path, first)
    assert article.sha256 == "v2" and article.source_uri == "pubmed:b.xml" and article.abstract == REVISED
    assert article.mesh == tuple(newer_mesh) and article.keywords == ()
    new_contexts = context_ids(writer, first)
    assert not set(new_contexts) & set(old_contexts)
    assert rows(writer, "SELECT text FROM contexts") == [(REVISED,)]  # the old contexts are gone, not orphaned
    assert rows(writer, "SELECT count(*) FROM sections") == [(1,)]
    assert vector_ids(writer) == set(), "the old contexts' vectors went with them; the new text has none yet"
    embed(writer, minilm)
    assert vector_ids(writer) == set(new_contexts)
    # the older version's bytes are known: a re-run skips them, and they never come back
    assert writer.has_sha256("v1") == writer.has_sha256("v2") == first
    with pytest.raises(DuplicateArticle):
        writer.add_document(record(), source_uri="pubmed:a.xml", sha256="v1")
    with Corpus.open(writer.path, embedder=minilm) as corpus:
        assert [hit.context_id for hit in corpus.retrieve("live tadpoles fanged frog", mode="bm25")] == new_contexts
        assert [hit.context_id for hit in corpus.retrieve("live tadpoles fanged frog", mode="vector")] == new_contexts


def test_the_pyramid_stays_while_the_text_is_the_same_and_goes_when_it_changes(writer: CorpusWriter, minilm: MiniLM) -> None:
    article_id = writer.add_document(record(), source_uri="pubmed:a.xml", sha256="v1")
    embed(writer, minilm)
    distil(writer, article_id)
    kept_contexts = context_ids(writer, article_id)
    insights = rows(writer, "SELECT id, text FROM insights")
    # a new version that changes the indexing only: the same text, so the same contexts, vectors and pyramid
    vectors = minilm.embed_passages([ABSTRACT])
    writer.add_document(record(mesh=MESH[:1], publication_types=["Journal Article", "Review"]), source_uri="pubmed:b.xml", sha256="v2",
                        vectors=db_vectors.ContextVectors(minilm.name, minilm.dimension, minilm.window, vectors))  # fmt: skip
    assert context_ids(writer, article_id) == kept_contexts and vector_ids(writer) == set(kept_contexts)
    assert rows(writer, "SELECT id, text FROM insights") == insights
    assert rows(writer, "SELECT context_id FROM insights_contexts") == [(kept_contexts[0],)]
    assert rows(writer, "SELECT status FROM distillations") == [("done",)]
    assert read(writer.path, article_id).publication_types == ("Journal Article", "Review")
    # a version whose text changed: its pyramid goes, and distill finds it not distilled
    writer.add_document(record(abstract=REVISED), source_uri="pubmed:c.xml", sha256="v3")
    for table in ("insights", "insights_contexts", "concepts", "concepts_insights", "abstracts", "distillations"):
        assert rows(writer, f"SELECT count(*) FROM {table}") == [(0,)], table
    assert not set(context_ids(writer, article_id)) & set(kept_contexts) and vector_ids(writer) == set()


def test_delete_pmids_removes_the_articles_and_everything_theirs(writer: CorpusWriter, minilm: MiniLM) -> None:
    doomed = writer.add_document(record(pmid="111", pmcid=None), source_uri="pubmed:1", sha256="a")
    kept = writer.add_document(full_text(pmid="222", doi="10.1/kept", pmcid=None), source_uri="file:///kept.xml", sha256="b")
    citing = writer.add_document(full_text(doi="10.1/citing", pmcid=None, references=[Reference("Iskandar 2014.", doi="10.1371/journal.pone.0115884")]),
                                 source_uri="file:///citing.xml", sha256="c")  # fmt: skip
    assert rows(writer, "SELECT cited_article_id FROM bib_entries WHERE article_id = ?", citing) == [(doomed,)]
    embed(writer, minilm)
    distil(writer, doomed)
    lexical_index.update(writer.db.conn, lexical_index.WEIGHTS)
    writer.db.conn.commit()
    doomed_contexts = context_ids(writer, doomed)
    assert writer.delete_pmids(["111", "999", "PMID:111"]) == 1
    assert writer.delete_pmids(["111"]) == 0 and writer.delete_pmids([]) == 0
    assert rows(writer, "SELECT id FROM articles ORDER BY created_at, rowid") == [(kept,), (citing,)]
    for table in ("article_sections", "bib_entries", "tables", "mesh_terms", "merged_sources", "insights", "concepts", "abstracts",
                  "distillations", "llm_calls"):  # fmt: skip
        assert rows(writer, f"SELECT count(*) FROM {table} WHERE article_id = ?", doomed) == [(0,)], table
    assert rows(writer, "SELECT count(*) FROM contexts WHERE id IN (SELECT value FROM json_each(?))", json.dumps(doomed_contexts)) == [(0,)]
    assert not vector_ids(writer) & set(doomed_contexts) and vector_ids(writer) == set(
        context_ids(writer, kept) + context_ids(writer, citing)
    )
    assert rows(writer, "SELECT count(*) FROM sections") == [(6,)]  # the other two articles' three each
    assert rows(writer, "SELECT cited_article_id FROM bib_entries WHERE article_id = ?", citing) == [(None,)]
    assert not lexical_index.is_current(writer.db.conn, lexical_index.WEIGHTS), "the BM25 index is stale until rebuilt"
    with Corpus.open(writer.path) as corpus:
        assert corpus.retrieve("Limnonectes larvaepartus", mode="bm25") == []
        assert {hit.citation.article_id for hit in corpus.retrieve("gravid female tadpoles oviducts", mode="bm25")} == {kept, citing}


def test_a_deleted_context_never_comes_back_from_the_vector_index(writer: CorpusWriter, minilm: MiniLM) -> None:
    doomed = writer.add_document(record(pmid="111", doi=None, pmcid=None), source_uri="pubmed:1", sha256="a")
    writer.add_document(full_text(pmid="222", doi=None, pmcid=None), source_uri="file:///kept.xml", sha256="b")
    embed(writer, minilm)
    embedder = db_vectors.embedders(writer.db.conn)[0]
    with writer.db.atomic():
        vector_index.build_index(writer.db.conn, embedder)
    query = minilm.embed_query(ABSTRACT)
    assert vector_index.search(writer.db.conn, embedder, query, 1)[0][0] == context_ids(writer, doomed)[0]
    writer.delete_pmids(["111"])
    assert vector_index.is_current(writer.db.conn, embedder)  # nothing was added; what went is forgotten
    found = [context_id for context_id, _ in vector_index.search(writer.db.conn, embedder, query, 10)]
    assert found and set(found) <= {row[0] for row in rows(writer, "SELECT id FROM contexts")}


def test_a_record_then_its_full_text_are_one_article(writer: CorpusWriter) -> None:
    record_id = writer.add_document(record(), source_uri="pubmed:base.xml", sha256="record")
    full_id = writer.add_document(full_text(), source_uri="file:///frog.xml", sha256="full")
    assert full_id == record_id and rows(writer, "SELECT count(*) FROM articles") == [(1,)]
    article = read(writer.path, record_id)
    # the full text's structure, text and licence, under the record's id
    assert article.title == full_text().title and article.licence == "cc-by" and article.parser == "jats"
    with Corpus.open(writer.path) as corpus:
        assert [section.title for section in corpus.sections(record_id)] == ["Introduction", "Results", "References"]
        assert len(corpus.tables(record_id)) == 1 and len(corpus.references(record_id)) == 1
    # and what only the record knew
    assert article.pmid == "25551769" and article.mesh == tuple(MESH)
    assert article.publication_types == ("Journal Article", "Research Support, Non-U.S. Gov't")
    assert article.keywords == ("Anura", "viviparity", "frogs", "Sulawesi")
    assert (article.language, article.pmcid) == ("en", "PMC4281137")
    assert writer.has_sha256("record") == writer.has_sha256("full") == record_id


def test_a_full_text_then_its_record_add_only_the_indexing(writer: CorpusWriter) -> None:
    # joined by the DOI alone: the full text gives neither PMID nor PMCID
    full_id = writer.add_document(full_text(pmcid=None), source_uri="file:///frog.xml", sha256="full")
    structure = {
        table: rows(writer, f"SELECT * FROM {table}") for table in ("sections", "contexts", "article_sections", "tables", "bib_entries")
    }
    record_id = writer.add_document(record(), source_uri="pubmed:base.xml", sha256="record")
    assert record_id == full_id and rows(writer, "SELECT count(*) FROM articles") == [(1,)]
    assert {table: rows(writer, f"SELECT * FROM {table}") for table in structure} == structure
    article = read(writer.path, full_id)
    assert (article.title, article.abstract, article.sha256, article.licence) == (full_text().title, full_text().abstract, "full", "cc-by")
    assert (article.pmid, article.pmcid, article.language) == ("25551769", "PMC4281137", "en")
    assert article.mesh == tuple(MESH) and article.keywords == ("frogs", "Sulawesi", "Anura", "viviparity")
    assert article.publication_types == ("Journal Article", "Research Support, Non-U.S. Gov't")
    assert writer.has_sha256("record") == full_id


@pytest.mark.parametrize("order", ["record first", "full text first"])
def test_a_rerun_of_the_same_inputs_adds_and_changes_nothing(writer: CorpusWriter, order: str) -> None:
    inputs = [(record(), "pubmed:base.xml", "record"), (full_text(), "file:///frog.xml", "full")]
    if order == "full text first":
        inputs.reverse()
    for doc, uri, sha in inputs:
        writer.store(doc, source_uri=uri, sha256=sha)
    before = everything(writer)
    for doc, uri, sha in inputs:  # what the ingest sees again: known bytes, skipped
        assert writer.has_sha256(sha) is not None
        with pytest.raises(DuplicateArticle):
            writer.add_document(doc, source_uri=uri, sha256=sha)
    # the same record from another file of the baseline (other bytes): nothing new to add
    writer.add_document(record(), source_uri="pubmed:copy.xml", sha256="record-again")
    after = everything(writer)
    assert after.pop("merged_sources") == sorted([*before.pop("merged_sources"), *after_merged(writer, "record-again")], key=repr)
    assert after == before


def after_merged(writer: CorpusWriter, sha256: str) -> list[tuple[Any, ...]]:
    return rows(writer, "SELECT * FROM merged_sources WHERE sha256 = ?", sha256)


def test_identifiers_that_disagree_never_join(writer: CorpusWriter) -> None:
    first = writer.add_document(record(), source_uri="pubmed:1", sha256="a")
    # another PMID with the same DOI (an erratum, a duplicate record): two records, two articles
    other = writer.add_document(record(pmid="99999", pmcid=None), source_uri="pubmed:2", sha256="b")
    # a full text whose PMID is neither's, with the first's DOI: a third article
    third = writer.add_document(full_text(pmid="12345", pmcid=None), source_uri="file:///x.xml", sha256="c")
    assert len({first, other, third}) == 3
    # two PDFs with the same DOI and no PubMed ids stay two articles, as before
    pdf = dataclasses.replace(full_text(pmcid=None, doi="10.1/pdf"), provenance={"sections": "embedded 0.1.0"})
    assert writer.add_document(pdf, source_uri="file:///a.pdf", sha256="d") != writer.add_document(
        pdf, source_uri="file:///b.pdf", sha256="e"
    )


def test_an_older_corpus_is_migrated_and_reads_with_empty_fields(tmp_path: Path, counter: TokenCounter) -> None:
    path = tmp_path / "old.sqlite"
    old = sqlite_utils.Database(path)
    assert migrate(old, MIGRATIONS[:8]) == 8
    old["articles"].insert(
        {"id": "old", "title": "An old paper", "sha256": "old", "created_at": "2024-01-01T00:00:00", "doi": "10.1371/journal.pone.0115884"}
    )
    old.conn.commit()
    old.close()
    with CorpusWriter(path, counter) as writer:  # opening it migrates
        assert schema_version(writer.db) == SCHEMA_VERSION
        assert {"pmid", "pmcid", "licence", "language", "publication_types", "keywords"} <= set(writer.db["articles"].columns_dict)
        assert rows(writer, "SELECT publication_types, keywords FROM articles") == [("[]", "[]")]
    article = read(path, "old")
    assert (article.pmid, article.licence, article.publication_types, article.keywords, article.mesh) == (None, None, (), (), ())
    with CorpusWriter(path, counter) as writer:
        # the old article was stored without its PubMed ids; its record joins it by the DOI
        assert writer.add_document(record(), source_uri="pubmed:1", sha256="r") == "old"
        assert read(path, "old").mesh == tuple(MESH)


def _doomed_trio(writer: CorpusWriter, minilm: MiniLM) -> tuple[list[str], str]:
    """Three articles to delete (distilled, one cited by a fourth, two the sources of a
    recollection, one the article another recollection was made for) and the fourth, which stays."""
    doomed = [
        writer.add_document(
            full_text(pmid=str(100 + n), pmcid=None, doi=f"10.1/doomed.{n}", title=f"Fanged frog paper {n}"),
            source_uri=f"file:///d{n}.xml",
            sha256=f"d{n}",
        )  # fmt: skip
        for n in range(3)
    ]
    kept = writer.add_document(
        full_text(pmid="222", pmcid=None, doi="10.1/kept", references=[Reference("Paper 1.", doi="10.1/doomed.1")]),
        source_uri="file:///kept.xml",
        sha256="k",
    )
    embed(writer, minilm)
    for article_id in [*doomed, kept]:
        distil(writer, article_id)
    insight = rows(writer, "SELECT id FROM insights WHERE article_id = ? ORDER BY position LIMIT 1", kept)[0][0]
    with writer.db.atomic():
        save_recollection(
            writer.db.conn, None, "Frogs of two papers.", 4, doomed[0], [(doomed[0], None), (doomed[2], None)], "m", "v1", "t"
        )
        save_recollection(writer.db.conn, None, "Frogs of the kept one.", 5, doomed[1], [(kept, insight)], "m", "v1", "t")
    return doomed, kept


def test_deleting_many_articles_at_once_leaves_what_deleting_them_one_by_one_leaves(
    tmp_path: Path, counter: TokenCounter, minilm: MiniLM
) -> None:
    """Deletion goes by one statement a kind of row for all the articles; on two copies of one
    corpus, the rows left are exactly those one article at a time leaves, and nothing of the
    deleted ones stays."""
    with CorpusWriter(tmp_path / "corpus.sqlite", counter) as writer:
        doomed, kept = _doomed_trio(writer, minilm)
    tables = ("recollections", "recollections_sources", "recollection_history", "concepts", "concepts_insights", "abstracts", "llm_calls")
    left = []
    for name, batches in (("together", [[0, 1, 2]]), ("apart", [[2], [0], [1]])):
        shutil.copyfile(tmp_path / "corpus.sqlite", tmp_path / f"{name}.sqlite")
        with CorpusWriter(tmp_path / f"{name}.sqlite", counter) as writer:
            for batch in batches:
                with writer.db.atomic():
                    assert removal.delete_articles(writer.db.conn, [doomed[n] for n in batch] + ["unknown"]) == len(batch)
            state = everything(writer) | {
                table: sorted(map(tuple, writer.db.execute(f"SELECT * FROM {table}")), key=repr) for table in tables
            }
            state["vectors"] = [(context_id,) for context_id in sorted(vector_ids(writer))]
            assert not {row[0] for row in rows(writer, "SELECT article_id FROM insights")} & set(doomed)
            assert rows(writer, "SELECT id FROM articles") == [(kept,)]
            assert rows(writer, "SELECT cited_article_id FROM bib_entries WHERE article_id = ?", kept) == [(None,)]
            # the recollection with deleted papers among its sources is gone; the other stays, its
            # history no longer naming the deleted paper it was made for
            assert rows(writer, "SELECT article_id, insight_id IS NOT NULL FROM recollections_sources") == [(kept, 1)]
            assert rows(writer, "SELECT text FROM recollections") == [("Frogs of the kept one.",)]
            assert rows(writer, "SELECT article_id FROM recollection_history") == [(None,)]
            assert set(state["vectors"]) == {(context_id,) for context_id in context_ids(writer, kept)}
            left.append(state)
    assert left[0] == left[1]
