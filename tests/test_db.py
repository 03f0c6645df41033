"""The corpus schema, its migrations and the single writer."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlite_utils

from paperpyramid.contexts import ContextDraft, split_section
from paperpyramid.corpus import Corpus
from paperpyramid.db import SCHEMA_VERSION, CorpusWriter, DuplicateArticle, migrate, schema_version
from paperpyramid.db.schema import MIGRATIONS
from paperpyramid.db.sqlite import sqlite3 as corpus_sqlite
from paperpyramid.document import (
    Author,
    Block,
    Document,
    Figure,
    Formula,
    Reference,
    Section,
    Table,
)
from paperpyramid.errors import ConfigurationError
from paperpyramid.tokens import TokenCounter

ALL_TABLES = [
    "articles",
    "sections",
    "contexts",
    "article_sections",
    "sections_contexts",
    "bib_entries",
    "tables",
    "formulas",
    "figures",
    "ingest_log",
    "embedders",
    "contexts_fts",
]

LONG = " ".join(f"Sentence {i} of the long methods section describes one more training detail." for i in range(30))


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture
def writer(tmp_path: Path, counter: TokenCounter) -> Iterator[CorpusWriter]:
    with CorpusWriter(tmp_path / "corpus.db", counter) as writer:
        yield writer


def make_document() -> Document:
    return Document(
        title="Attention Is All You Need",
        authors=[Author("Ashish Vaswani", "Google Brain", "avaswani@google.com"), Author("Noam Shazeer")],
        abstract="The dominant sequence transduction models are based on recurrent networks.",
        date_published="2017-06-12",
        journal="NeurIPS",
        doi="https://doi.org/10.48550/arXiv.1706.03762",
        pages=4,
        sections=[
            Section("Introduction", 1, "1", blocks=[Block("Recurrent models dominate.", 1)]),
            Section("Model", 1, "2", blocks=[Block("The model has an encoder and a decoder.", 2)]),
            Section("Attention", 2, "2.1", parent=1, blocks=[Block(LONG, 2), Block("Scaled dot product.", 3)]),
            Section("Multi-head", 3, "2.1.1", parent=2, blocks=[Block("Eight heads.", 3)]),
            Section("Training", 1, "3", blocks=[]),
            Section("References", 1, "ref", blocks=[Block("[1] Bahdanau et al. 2015.", 4)]),
        ],
        tables=[Table("BLEU scores", [["Model", "BLEU"], ["Big", "28.4"]], 3, (10, 20, 300, 120), "Table 1", 4)],
        formulas=[Formula("Attention(Q,K,V) = softmax(QK^T/sqrt(d))V", 2, r"\mathrm{softmax}", "(1)", None, 2)],
        figures=[Figure("The Transformer architecture.", 2, "Figure 1", (1, 2, 3, 4), 1)],
        references=[
            Reference("Bahdanau et al. Neural MT. 2015.", "Neural MT", ["D. Bahdanau"], 2015, "10.1/A", "ICLR"),
            Reference("Sutskever et al. Seq2seq. 2014."),
        ],
        provenance={"sections": "embedded 0.1.0", "tables": "embedded 0.1.0 / tables"},
        warnings=["table without ruling lines"],
    )


def row_counts(db: sqlite_utils.Database) -> dict[str, int]:
    return {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ALL_TABLES}


# schema and migrations


def test_migrate_sets_user_version_and_is_idempotent(tmp_path: Path) -> None:
    db = sqlite_utils.Database(tmp_path / "x.db")
    assert schema_version(db) == 0
    assert migrate(db) == SCHEMA_VERSION == len(MIGRATIONS)
    schema = db.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    assert migrate(db) == SCHEMA_VERSION
    assert db.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall() == schema
    assert set(ALL_TABLES) <= set(db.table_names())


def test_a_failing_migration_leaves_the_last_complete_version(tmp_path: Path) -> None:
    def broken(db: sqlite_utils.Database) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("migration bug")

    db = sqlite_utils.Database(tmp_path / "x.db")
    with pytest.raises(RuntimeError, match="migration bug"):
        migrate(db, [*MIGRATIONS, broken])
    assert schema_version(db) == len(MIGRATIONS)
    assert "half_done" not in db.table_names()


def test_migrate_refuses_a_newer_corpus(tmp_path: Path) -> None:
    db = sqlite_utils.Database(tmp_path / "x.db")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ConfigurationError, match="newer"):
        migrate(db)


def test_migration_8_writes_older_dates_as_iso_and_resolves_what_their_year_confirms(tmp_path: Path, counter: TokenCounter) -> None:
    """A corpus stored with dates as printed: each becomes ISO 8601, one that is no date becomes
    NULL with its text in the article's warnings, and an entry that names an article by its title
    is linked once the article's year, unreadable before, confirms it."""
    from paperpyramid.db.references import title_key

    shark = "Longevity of the Atlantic sharpnose shark estimated from vertebral bands"
    path = tmp_path / "old.sqlite"
    old = sqlite_utils.Database(path)
    assert migrate(old, MIGRATIONS[:7]) == 7
    dated = {
        "shark": "1 March 2019",
        "iso": "2017-06-12",
        "pubmed": "2014 Dec 9",
        "ambiguous": "12/09/2014",
        "none": "in press",
        "null": None,
    }
    old["articles"].insert_all(
        [{"id": name, "title": shark if name == "shark" else f"Paper {name}", "title_key": title_key(shark) if name == "shark" else None,
          "date_published": date, "warnings": '["table without ruling lines"]', "sha256": name, "created_at": "2024-01-01T00:00:00"}
         for name, date in dated.items()]
    )  # fmt: skip
    old["bib_entries"].insert(
        {
            "id": "entry",
            "article_id": "iso",
            "position": 0,
            "raw": f"{shark}. 2019.",
            "title": shark,
            "title_key": title_key(shark),
            "year": 2019,
        }
    )
    old.conn.commit()
    old.close()
    with CorpusWriter(path, counter) as writer:  # opening it migrates
        assert schema_version(writer.db) == SCHEMA_VERSION
        stored = dict(writer.db.execute("SELECT id, date_published FROM articles").fetchall())
        assert stored == {
            "shark": "2019-03-01",
            "iso": "2017-06-12",
            "pubmed": "2014-12-09",
            "ambiguous": "2014",
            "none": None,
            "null": None,
        }
        warnings = {row[0]: json.loads(row[1]) for row in writer.db.execute("SELECT id, warnings FROM articles")}
        assert warnings["none"] == [
            "table without ruling lines",
            "publication date 'in press' is not a date paperpyramid can read; not stored",
        ]
        assert warnings["shark"] == warnings["null"] == ["table without ruling lines"]
        # the entry gives no author and the article's year could not be read: nothing confirmed the title until now
        assert writer.db.execute("SELECT cited_article_id FROM bib_entries WHERE id = 'entry'").fetchone()[0] == "shark"


def test_writer_uses_wal_and_foreign_keys(writer: CorpusWriter) -> None:
    assert writer.db.journal_mode == "wal"
    assert writer.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(corpus_sqlite.IntegrityError):
        writer.db.execute("INSERT INTO article_sections (article_id, section_id, position) VALUES ('nope', 'nope', 0)")


def test_stop_reason_is_checked(writer: CorpusWriter) -> None:
    with pytest.raises(corpus_sqlite.IntegrityError, match="CHECK"):
        writer.db.execute("INSERT INTO contexts (id, text, num_tokens, stop_reason) VALUES ('c', 't', 1, 'Bored')")


# add_document


def test_article_row(writer: CorpusWriter) -> None:
    article_id = writer.add_document(make_document(), source_uri="s3://papers/a.pdf", sha256="aa")
    row = writer.db.table("articles").get(article_id)
    assert len(article_id) == 21
    assert row["title"] == "Attention Is All You Need"
    assert json.loads(row["authors"])[0] == {
        "name": "Ashish Vaswani",
        "affiliation": "Google Brain",
        "email": "avaswani@google.com",
    }
    assert row["doi"] == "10.48550/arXiv.1706.03762"  # resolver prefix dropped
    assert (row["pages"], row["source_uri"], row["sha256"], row["parser"]) == (4, "s3://papers/a.pdf", "aa", "embedded")
    provenance = json.loads(row["provenance"])
    assert provenance["sections"] == "embedded 0.1.0"
    assert provenance["contexts"] == "all-MiniLM-L6-v2 window 256"
    assert json.loads(row["warnings"]) == ["table without ruling lines"]
    total = writer.db.execute("SELECT sum(num_tokens) FROM contexts").fetchone()[0]
    assert row["num_tokens"] == total > 0


def test_the_publication_date_is_stored_as_iso_8601(writer: CorpusWriter) -> None:
    """Whatever form the parser found it in; a date that is none is not stored, and the article's
    warnings say what it was."""
    stored = {}
    for number, given in enumerate(["9 December 2014", "Dec 9, 2014", "2014-12-09T00:00:00Z", "December 2014", "2019", "in press", None]):
        article_id = writer.add_document(
            dataclasses.replace(make_document(), date_published=given), source_uri=f"{number}.pdf", sha256=str(number)
        )
        stored[given] = writer.db.table("articles").get(article_id)
    assert {given: row["date_published"] for given, row in stored.items()} == {
        "9 December 2014": "2014-12-09", "Dec 9, 2014": "2014-12-09", "2014-12-09T00:00:00Z": "2014-12-09", "December 2014": "2014-12",
        "2019": "2019", "in press": None, None: None,
    }  # fmt: skip
    assert json.loads(stored["in press"]["warnings"])[-1] == "publication date 'in press' is not a date paperpyramid can read; not stored"
    assert json.loads(stored["9 December 2014"]["warnings"]) == ["table without ruling lines"]


def test_sections_keep_reading_order_and_parents(writer: CorpusWriter) -> None:
    doc = make_document()
    article_id = writer.add_document(doc, source_uri="a.pdf", sha256="aa")
    rows = writer.db.execute(
        """SELECT s.id, s.section_number, s.section_title, s.level, s.parent_id, s.page_start, s.page_end
           FROM article_sections AS j JOIN sections AS s ON s.id = j.section_id
           WHERE j.article_id = ? ORDER BY j.position""",
        [article_id],
    ).fetchall()
    assert [r[1] for r in rows] == ["1", "2", "2.1", "2.1.1", "3", "ref"]
    ids = [r[0] for r in rows]
    assert [r[4] for r in rows] == [None, None, ids[1], ids[2], None, None]
    assert [r[3] for r in rows] == [1, 1, 2, 3, 1, 1]
    assert (rows[2][5], rows[2][6]) == (2, 3)  # pages from the blocks when the parser gave none
    positions = [p for (p,) in writer.db.execute("SELECT position FROM article_sections WHERE article_id = ?", [article_id])]
    assert positions == list(range(6))


def test_contexts_keep_order_stop_reasons_pages_and_tokens(tmp_path: Path, counter: TokenCounter) -> None:
    small = functools.partial(split_section, max_tokens=40)
    with CorpusWriter(tmp_path / "c.db", counter, splitter=small) as writer:
        writer.add_document(make_document(), source_uri="a.pdf", sha256="aa")
        sections = writer.db.execute(
            "SELECT s.id, s.section_number, s.num_tokens FROM article_sections j JOIN sections s ON s.id = j.section_id ORDER BY j.position"
        ).fetchall()
        by_number = {}
        for section_id, number, section_tokens in sections:
            contexts = writer.db.execute(
                """SELECT c.text, c.stop_reason, c.page_number, c.num_tokens, c.section_number, j.position
                   FROM sections_contexts j JOIN contexts c ON c.id = j.context_id
                   WHERE j.section_id = ? ORDER BY j.position""",
                [section_id],
            ).fetchall()
            by_number[number] = contexts
            assert [c[5] for c in contexts] == list(range(len(contexts)))
            assert section_tokens == sum(c[3] for c in contexts)
            assert all(c[4] == number for c in contexts)
    attention = by_number["2.1"]
    assert len(attention) > 3
    assert [c[1] for c in attention] == ["Token limit"] * (len(attention) - 1) + ["Section"]
    assert all(counter.count(c[0]) == c[3] <= 40 for c in attention)
    assert attention[0][0].startswith("Sentence 0 ")
    assert attention[-1][0].endswith("Scaled dot product.")
    assert attention[-1][2] == 3 and attention[0][2] == 2
    assert [c[1] for c in by_number["1"]] == ["Section"]
    assert by_number["3"] == []  # a section without text has no contexts


def test_contexts_cut_elsewhere_are_stored_as_given(tmp_path: Path, counter: TokenCounter) -> None:
    def must_not_split(section: Section, counter: TokenCounter) -> list[ContextDraft]:
        raise AssertionError("the writer cut contexts it was given")

    doc = make_document()
    drafts = [split_section(section, counter, max_tokens=40) for section in doc.sections]
    with CorpusWriter(tmp_path / "c.db", counter, splitter=must_not_split) as writer:
        with pytest.raises(ValueError, match="5 lists of contexts for 6 sections"):
            writer.add_document(doc, source_uri="a.pdf", sha256="aa", contexts=drafts[:5])
        writer.add_document(doc, source_uri="a.pdf", sha256="aa", contexts=drafts)
        stored = [text for (text,) in writer.db.execute("SELECT text FROM contexts ORDER BY rowid")]
    assert stored == [draft.text for section in drafts for draft in section]


def test_bibliography_tables_formulas_figures(writer: CorpusWriter) -> None:
    article_id = writer.add_document(make_document(), source_uri="a.pdf", sha256="aa")
    section_of = dict(writer.db.execute("SELECT s.id, s.section_number FROM sections s JOIN article_sections j ON j.section_id = s.id"))
    bib = list(writer.db.query("SELECT * FROM bib_entries WHERE article_id = ? ORDER BY position", [article_id]))
    assert [b["raw"] for b in bib] == ["Bahdanau et al. Neural MT. 2015.", "Sutskever et al. Seq2seq. 2014."]
    assert (json.loads(bib[0]["authors"]), bib[0]["year"], bib[0]["doi"], bib[0]["venue"]) == (
        ["D. Bahdanau"],
        2015,
        "10.1/A",
        "ICLR",
    )
    [table] = writer.db["tables"].rows
    assert section_of[table["section_id"]] == "3"
    assert (table["label"], table["caption"], table["page"]) == ("Table 1", "BLEU scores", 3)
    assert json.loads(table["cells"]) == [["Model", "BLEU"], ["Big", "28.4"]]
    assert table["markdown"].startswith("| Model | BLEU |")
    assert json.loads(table["bbox"]) == [10, 20, 300, 120]
    assert table["provenance"] == "embedded 0.1.0 / tables"
    [formula] = writer.db["formulas"].rows
    assert section_of[formula["section_id"]] == "2.1"
    assert (formula["label"], formula["latex"], formula["bbox"]) == ("(1)", r"\mathrm{softmax}", None)
    assert formula["provenance"] == "embedded"  # no formula provenance: the parser's name
    [figure] = writer.db["figures"].rows
    assert section_of[figure["section_id"]] == "2"
    assert (figure["label"], figure["page"], figure["article_id"]) == ("Figure 1", 2, article_id)


def test_the_parts_read_back_are_the_parsed_ones_with_their_stored_ids(tmp_path: Path, writer: CorpusWriter) -> None:
    document = make_document()
    article_id = writer.add_document(document, source_uri="a.pdf", sha256="aa")
    with Corpus.open(tmp_path / "corpus.db") as corpus:
        sections = corpus.sections(article_id)
        parts = [*corpus.tables(article_id), *corpus.formulas(article_id), *corpus.figures(article_id)]
        assert [type(part) for part in parts] == [Table, Formula, Figure]
        assert all(part.id and part.article_id == article_id and part.section is not None for part in parts)
        assert [part.section_id for part in parts] == [sections[part.section].id for part in parts if part.section is not None]
        assert [part.provenance for part in parts] == ["embedded 0.1.0 / tables", "embedded", "embedded"]  # the document's, per part
        unstored = [dataclasses.replace(part, id=None, article_id=None, section_id=None, provenance=None) for part in parts]
        assert unstored == [*document.tables, *document.formulas, *document.figures]
        assert parts[0].markdown == document.tables[0].markdown

        references = corpus.references(article_id)
        assert [(reference.position, reference.article_id, type(reference)) for reference in references] == [
            (0, article_id, Reference),
            (1, article_id, Reference),
        ]
        unstored_references = [dataclasses.replace(reference, id=None, article_id=None, position=None) for reference in references]
        assert unstored_references == document.references


def test_search_index_follows_the_contexts(writer: CorpusWriter) -> None:
    writer.add_document(make_document(), source_uri="a.pdf", sha256="aa")
    contexts = writer.db.execute("SELECT count(*) FROM contexts").fetchone()[0]
    assert writer.db.execute("SELECT count(*) FROM contexts_fts").fetchone()[0] == contexts
    hits = writer.db.execute("SELECT rowid FROM contexts_fts WHERE contexts_fts MATCH 'decoder'").fetchall()
    assert len(hits) == 1


def test_a_failure_late_in_the_write_leaves_nothing(writer: CorpusWriter) -> None:
    writer.add_document(make_document(), source_uri="first.pdf", sha256="first")
    before = row_counts(writer.db)
    broken = make_document()
    broken.figures.append(Figure("Unserialisable box", 1, bbox=(object(), 0, 0, 0)))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        writer.add_document(broken, source_uri="broken.pdf", sha256="broken")
    assert row_counts(writer.db) == before
    assert writer.has_sha256("broken") is None
    # the writer is still usable, and the sha256 is free
    writer.add_document(make_document(), source_uri="broken.pdf", sha256="broken")
    assert row_counts(writer.db)["articles"] == 2


def test_a_failing_context_insert_rolls_back_the_article_and_sections(tmp_path: Path, counter: TokenCounter) -> None:
    def bad_splitter(section: Section, counter: TokenCounter) -> list[ContextDraft]:
        return [ContextDraft(section.text or "x", 1, 1, "Bored", "paragraph")]  # type: ignore[arg-type]

    with CorpusWriter(tmp_path / "c.db", counter, splitter=bad_splitter) as writer:
        before = row_counts(writer.db)
        with pytest.raises(corpus_sqlite.IntegrityError, match="CHECK"):
            writer.add_document(make_document(), source_uri="a.pdf", sha256="aa")
        assert row_counts(writer.db) == before
        assert writer.db.execute("SELECT count(*) FROM articles").fetchone()[0] == 0


def test_bad_indices_are_refused_before_writing(writer: CorpusWriter) -> None:
    bad_parent = make_document()
    bad_parent.sections[1].parent = 3
    bad_table = make_document()
    bad_table.tables[0].section = 99
    for doc, message in [(bad_parent, "parent must be an earlier section"), (bad_table, "6 sections")]:
        with pytest.raises(ValueError, match=message):
            writer.add_document(doc, source_uri="x.pdf", sha256="x")
    assert set(row_counts(writer.db).values()) == {0}


def test_same_sha256_is_detected(writer: CorpusWriter) -> None:
    assert writer.has_sha256("aa") is None
    article_id = writer.add_document(make_document(), source_uri="a.pdf", sha256="aa")
    assert writer.has_sha256("aa") == article_id
    with pytest.raises(DuplicateArticle) as caught:
        writer.add_document(make_document(), source_uri="copy-of-a.pdf", sha256="aa")
    assert caught.value.article_id == article_id
    assert row_counts(writer.db)["articles"] == 1


def test_empty_document_is_stored(writer: CorpusWriter) -> None:
    article_id = writer.add_document(Document(), source_uri="empty.pdf", sha256="e")
    row = writer.db.table("articles").get(article_id)
    assert (row["title"], row["num_tokens"], row["parser"], row["authors"]) == (None, 0, "unknown", "[]")


# ingest log


def test_record_upserts_and_counts_attempts(writer: CorpusWriter) -> None:
    writer.record("a.pdf", "aa", "failed", error="parser service unavailable", seconds=1.5)
    writer.record("b.pdf", "bb", "skipped")
    writer.record("a.pdf", "aa", "done", article_id="A1", pages=12, seconds=3.0)
    rows = {row["source_uri"]: row for row in writer.db["ingest_log"].rows}
    assert rows["a.pdf"]["attempts"] == 2
    assert (rows["a.pdf"]["status"], rows["a.pdf"]["error"], rows["a.pdf"]["article_id"]) == ("done", None, "A1")
    assert (rows["a.pdf"]["pages"], rows["a.pdf"]["seconds"]) == (12, 3.0)
    assert rows["b.pdf"]["attempts"] == 1
    assert writer.status_counts() == {"done": 1, "failed": 0, "skipped": 1}


def test_record_refuses_an_unknown_status(writer: CorpusWriter) -> None:
    with pytest.raises(ValueError, match="unknown ingest status"):
        writer.record("a.pdf", "aa", "maybe")  # type: ignore[arg-type]
    assert writer.status_counts() == {"done": 0, "failed": 0, "skipped": 0}


def test_writer_reopens_an_existing_corpus(tmp_path: Path, counter: TokenCounter) -> None:
    with CorpusWriter(tmp_path / "c.db", counter) as writer:
        article_id = writer.add_document(make_document(), source_uri="a.pdf", sha256="aa")
    with CorpusWriter(tmp_path / "c.db", counter) as writer:
        assert writer.has_sha256("aa") == article_id
        assert schema_version(writer.db) == SCHEMA_VERSION
