"""The read side: Corpus navigation, parent contexts and BM25 search with citations."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperpyramid.contexts import split_section
from paperpyramid.corpus import Corpus
from paperpyramid.db import CorpusWriter
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.sqlite import sqlite3 as corpus_sqlite
from paperpyramid.document import Author, Block, Document, Section
from paperpyramid.retrieval.bm25 import fts_query
from paperpyramid.tokens import TokenCounter


def transformer_paper() -> Document:
    return Document(
        title="Attention Is All You Need",
        authors=[Author("Ashish Vaswani", "Google Brain")],
        doi="10.48550/arXiv.1706.03762",
        pages=5,
        sections=[
            Section("Introduction", 1, "1", blocks=[Block("Recurrent networks process tokens one at a time.", 1)]),
            Section("Methods", 1, "2", blocks=[Block("We describe the architecture.", 2)]),
            Section(
                "Attention",
                2,
                "2.1",
                parent=1,
                blocks=[
                    Block("Self-attention relates every position of a sequence to every other position.", 3),
                    Block("The optimizer was Adam with warm-up.", 4),
                    Block("An unbalanced quote does not break the search.", 4),
                ],
            ),
            Section("Conclusion", 1, "3", blocks=[Block("Attention alone suffices for translation.", 5)]),
        ],
    )


def rnn_paper() -> Document:
    return Document(
        title="Sequence to Sequence Learning",
        doi="10.5555/seq2seq",
        pages=2,
        sections=[
            Section("Introduction", 1, None, blocks=[Block("Deep networks map sequences to sequences.", 1)]),
            Section("Model", 1, None, blocks=[Block("An LSTM reads the source, a-b:c style.", 2)]),
        ],
    )


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "corpus.db"
    # a small limit cuts the Attention section into one context per block
    splitter = functools.partial(split_section, max_tokens=16)
    with CorpusWriter(path, TokenCounter(), splitter=splitter) as writer:
        first = writer.add_document(transformer_paper(), source_uri="s3://p/attention.pdf", sha256="a1")
        writer.record("s3://p/attention.pdf", "a1", "done", article_id=first, pages=5, seconds=0.5)
        writer.add_document(rnn_paper(), source_uri="s3://p/seq2seq.pdf", sha256="b2")
        writer.record("s3://p/broken.pdf", None, "failed", error="corrupt PDF: no xref")
    return path


@pytest.fixture
def corpus(corpus_path: Path) -> Iterator[Corpus]:
    with Corpus.open(corpus_path) as corpus:
        yield corpus


def ids_of(corpus: Corpus) -> tuple[str, str]:
    first, second = corpus.articles()
    return first.id, second.id


# articles


def test_articles_in_stored_order_with_fields(corpus: Corpus) -> None:
    first, second = list(corpus.articles())
    assert (first.title, second.title) == ("Attention Is All You Need", "Sequence to Sequence Learning")
    assert first.authors[0].name == "Ashish Vaswani" and first.authors[0].affiliation == "Google Brain"
    assert (first.pages, first.source_uri, first.parser, first.sha256) == (5, "s3://p/attention.pdf", "unknown", "a1")
    assert first.num_tokens == sum(s.num_tokens for s in corpus.sections(first.id)) > 0


def test_article_by_id_or_doi(corpus: Corpus) -> None:
    first_id, _ = ids_of(corpus)
    assert corpus.article(first_id).title == "Attention Is All You Need"
    for doi in ("10.48550/arXiv.1706.03762", "10.48550/ARXIV.1706.03762", "https://doi.org/10.48550/arxiv.1706.03762"):
        assert corpus.article(doi).id == first_id
    with pytest.raises(KeyError, match="no article with id or DOI '10.1/missing'"):
        corpus.article("10.1/missing")


# sections and contexts


def test_sections_and_contexts_in_reading_order(corpus: Corpus) -> None:
    first_id, _ = ids_of(corpus)
    sections = corpus.sections(first_id)
    assert [s.number for s in sections] == ["1", "2", "2.1", "3"]
    assert [s.position for s in sections] == [0, 1, 2, 3]
    assert sections[2].parent_id == sections[1].id and sections[2].level == 2
    contexts = corpus.contexts(sections[2].id)
    assert [c.text.split()[0] for c in contexts] == ["Self-attention", "The", "An"]
    assert [c.stop_reason for c in contexts] == ["Token limit", "Token limit", "Section"]
    assert [c.page_number for c in contexts] == [3, 4, 4]
    assert all(c.article_id == first_id and c.section_id == sections[2].id for c in contexts)


def test_unknown_ids_raise_key_error(corpus: Corpus) -> None:
    with pytest.raises(KeyError, match="no article with id 'nope'"):
        corpus.sections("nope")
    with pytest.raises(KeyError, match="no section with id 'nope'"):
        corpus.contexts("nope")
    with pytest.raises(KeyError, match="no section"):
        corpus.next_section("nope")
    with pytest.raises(KeyError, match="no context with id 'nope'"):
        corpus.parent_contexts("nope")


def test_next_and_previous_section_stop_at_the_article_edges(corpus: Corpus) -> None:
    first_id, second_id = ids_of(corpus)
    sections = corpus.sections(first_id)
    assert corpus.previous_section(sections[0].id) is None
    assert corpus.next_section(sections[0].id) == sections[1]
    assert corpus.next_section(sections[1].id) == sections[2]  # into the subsection
    assert corpus.previous_section(sections[3].id) == sections[2]
    # the last section of the first article does not lead into the second article
    assert corpus.next_section(sections[-1].id) is None
    assert corpus.previous_section(corpus.sections(second_id)[0].id) is None


def test_parent_contexts_cross_sections_within_the_article(corpus: Corpus) -> None:
    first_id, _ = ids_of(corpus)
    reading = [c for s in corpus.sections(first_id) for c in corpus.contexts(s.id)]
    assert len(reading) == 6
    window = corpus.parent_contexts(reading[2].id)  # first context of §2.1
    assert window == reading[0:5]  # reaches back into §1 and §2
    assert corpus.parent_contexts(reading[4].id, before=1, after=3) == reading[3:6]


def test_parent_contexts_at_the_article_edges(corpus: Corpus) -> None:
    first_id, second_id = ids_of(corpus)
    reading = [c for s in corpus.sections(first_id) for c in corpus.contexts(s.id)]
    assert corpus.parent_contexts(reading[0].id) == reading[0:3]
    assert corpus.parent_contexts(reading[-1].id) == reading[-3:]
    assert corpus.parent_contexts(reading[3].id, before=0, after=0) == [reading[3]]
    other = [c for s in corpus.sections(second_id) for c in corpus.contexts(s.id)]
    assert corpus.parent_contexts(other[0].id, before=5, after=5) == other  # never the first article


# search


def test_search_finds_a_context_by_a_word_with_its_citation(corpus: Corpus) -> None:
    [hit] = corpus.search("optimizer")
    first_id, _ = ids_of(corpus)
    assert hit.text == "The optimizer was Adam with warm-up."
    citation = hit.citation
    assert (citation.article_id, citation.article_title) == (first_id, "Attention Is All You Need")
    assert (citation.section_number, citation.section_title, citation.page_number) == ("2.1", "Attention", 4)
    assert hit.cite() == "Attention Is All You Need — §2.1 Attention, p. 4"
    assert hit.score > 0


def test_search_stems_words(corpus: Corpus) -> None:
    assert [hit.text for hit in corpus.search("optimizers")] == ["The optimizer was Adam with warm-up."]


def test_search_ranks_the_better_match_first(corpus: Corpus) -> None:
    hits = corpus.search("sequences networks")
    assert hits[0].text == "Deep networks map sequences to sequences."
    assert hits[0].score > hits[1].score
    assert hits[0].cite() == "Sequence to Sequence Learning — Introduction, p. 1"


def test_search_respects_k(corpus: Corpus) -> None:
    assert len(corpus.search("the attention position networks sequences", k=2)) == 2
    assert corpus.search("attention", k=0) == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('"unbalanced quote', "An unbalanced quote does not break the search."),
        ("unbalanced AND", "An unbalanced quote does not break the search."),
        ("a-b:c", "An LSTM reads the source, a-b:c style."),
        ("self-attention", "Self-attention relates every position of a sequence to every other position."),
        ("text:LSTM NEAR(", "An LSTM reads the source, a-b:c style."),
        ("LSTM*^ OR (", "An LSTM reads the source, a-b:c style."),
    ],
)
def test_search_survives_fts_syntax_in_user_text(corpus: Corpus, query: str, expected: str) -> None:
    assert corpus.search(query)[0].text == expected


def test_search_without_words_returns_nothing(corpus: Corpus) -> None:
    assert corpus.search('"" -- :: ()') == []
    assert corpus.search("") == []


def test_fts_query_quotes_every_word() -> None:
    assert fts_query('transformer "self-attention" AND') == ('"transformer" OR "self attention" OR "self" OR "attention"')
    assert fts_query("the of") == '"the" OR "of"'  # only stopwords: keep them
    assert fts_query("NEAR(a b)") == '"near a" OR "near" OR "b"'
    assert fts_query("*:^") is None


# the file


def test_corpus_is_read_only(corpus: Corpus) -> None:
    with pytest.raises(corpus_sqlite.OperationalError, match="readonly"):
        corpus.conn.execute("DELETE FROM articles")


def test_open_refuses_a_missing_file_and_a_foreign_database(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Corpus.open(tmp_path / "missing.db")
    foreign = tmp_path / "foreign.db"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ValueError, match="not a paperpyramid corpus"):
        Corpus.open(foreign)


def test_ingest_log_rows(corpus: Corpus) -> None:
    rows = {row.source_uri: row for row in corpus.ingest_log()}
    assert rows["s3://p/attention.pdf"].status == "done"
    assert rows["s3://p/attention.pdf"].pages == 5
    assert (rows["s3://p/broken.pdf"].status, rows["s3://p/broken.pdf"].error) == ("failed", "corrupt PDF: no xref")


def test_a_reader_sees_what_the_writer_commits(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    with CorpusWriter(path, TokenCounter()) as writer:
        writer.add_document(rnn_paper(), source_uri="one.pdf", sha256="1")
        with Corpus.open(path) as corpus:
            assert len(list(corpus.articles())) == 1
            writer.add_document(transformer_paper(), source_uri="two.pdf", sha256="2")
            assert len(list(corpus.articles())) == 2
            assert corpus.search("optimizer")[0].citation.article_title == "Attention Is All You Need"
