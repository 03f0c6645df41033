"""Snapshots and licences: ``--licence`` publishes only the articles under those licences, and the
copy holds nothing of the others (no row, vector, pyramid, index entry, nor their words anywhere
in the file) while its indexes still answer; the manifest counts the articles per licence; the
command warns in one line when it publishes articles whose licence is unknown or non-commercial."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.corpus import Corpus
from paperpyramid.db import lexical_index, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import ArticlePyramid, InsightRow, LevelVectors, store_pyramid
from paperpyramid.db.snapshot import licence_warning, take_snapshot
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Block, Document, Reference, Section
from paperpyramid.embeddings.minilm import MiniLM

#: one word no other article has, per article: its trace in a file is the word itself
LICENCES = {
    "quokkafleet": "cc-by",
    "wombatrill": "cc0",
    "numbatglow": "cc-by-nc-nd",
    "bilbyzest": None,
    "dunnartsky": "Copyright Elsevier. All rights reserved.",
}
OPEN = {"quokkafleet", "wombatrill"}


def doi(word: str) -> str:
    return f"10.1/{sorted(LICENCES).index(word)}"


def paper(word: str, licence: str | None, cites: str | None = None) -> Document:
    text = f"The {word} colony of marsupials grew over three seasons of field work on the island."
    return Document(
        title=f"Marsupials of the {word} colony",
        doi=doi(word),
        licence=licence,
        paged=False,
        sections=[Section("Results", 1, "1", blocks=[Block(text, 1), Block(f"Each {word} burrow held two young.", 1)])],
        references=[Reference("On the neighbouring colony.", doi=doi(cites))] if cites else [],
        provenance={"sections": "jats 1.3"},
    )


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, minilm: MiniLM) -> tuple[Path, dict[str, str]]:
    """Five articles under five licences, embedded, distilled by hand, one recollection drawing on
    an open and a closed article and one on open ones only, and both indexes built."""
    path = tmp_path_factory.mktemp("licences") / "corpus.sqlite"
    with CorpusWriter(path) as writer:
        ids = {word: writer.add_document(paper(word, licence, cites="numbatglow" if word == "quokkafleet" else None),
                                         source_uri=f"file:///{word}.xml", sha256=word)
               for word, licence in LICENCES.items()}  # fmt: skip
        for word, article_id in ids.items():
            writer.record(f"file:///{word}.xml", word, "done", article_id=article_id)
        conn = writer.db.conn
        missing = db_vectors.contexts_without_vectors(conn, None, 100)
        writer.add_vectors(db_vectors.ContextVectors(minilm.name, minilm.dimension, minilm.window, minilm.embed_passages([t for _, _, t in missing])),
                           [cid for _, cid, _ in missing])  # fmt: skip
        with writer.db.atomic():
            embedder = db_vectors.embedders(conn)[0]
            for word, article_id in ids.items():
                (context_id,) = conn.execute("SELECT c.id FROM contexts AS c WHERE c.text LIKE ? LIMIT 1", [f"The {word}%"]).fetchone()
                insight = f"The {word} colony grew."
                vectors = LevelVectors(minilm.name, minilm.dimension, minilm.window, {"insights": minilm.embed_passages([insight])})
                store_pyramid(conn, ArticlePyramid(article_id, "test:hand", "v1", [InsightRow(insight, [1], None, 5, [(context_id, 0.9)])], [],
                                                   None, vectors=vectors))  # fmt: skip
            for number, words in enumerate([("quokkafleet", "numbatglow"), ("quokkafleet", "wombatrill")]):
                text = f"Recollection {number}: " + " and ".join(words)
                conn.execute("INSERT INTO recollections (id, text, num_tokens, model, prompt_version, created_at, updated_at) "
                             "VALUES (?, ?, 5, 'test', 'v1', 'now', 'now')", [f"r{number}", text])  # fmt: skip
                for word in words:
                    conn.execute("INSERT INTO recollections_sources (recollection_id, article_id, added_at) VALUES (?, ?, 'now')",
                                 [f"r{number}", ids[word]])  # fmt: skip
            lexical_index.update(conn, lexical_index.WEIGHTS)
            vector_index.build_index(conn, embedder)
    return path, ids


def test_a_licence_filtered_snapshot_holds_only_those_articles(corpus: tuple[Path, dict[str, str]], tmp_path: Path, minilm: MiniLM) -> None:
    path, ids = corpus
    with Corpus.open(path) as original:
        snap = original.snapshot(tmp_path / "out", licences=["cc-by", " CC0 "], compression="gzip")
        wanted = {hit.context_id for hit in original.retrieve("marsupial colony burrow", mode="bm25", k=50) if hit.citation.article_id in
                  {ids[word] for word in OPEN}}  # fmt: skip
    assert snap.manifest["licences"] == {"cc0": 1, "cc-by": 1} and snap.manifest["licence_filter"] == ["cc-by", "cc0"]
    assert snap.licence_warning is None
    assert snap.manifest["row_counts"]["articles"] == 2 and snap.manifest["row_counts"]["ingest_log"] == 2
    assert snap.manifest["row_counts"]["recollections"] == 1  # the one that drew on a closed article went
    assert snap.path is not None
    database = gzip.decompress(snap.path.read_bytes())
    for word in set(LICENCES) - OPEN:  # not a row, an index entry, nor a free page holds their words
        assert word.encode() not in database, word
    assert all(word.encode() in database for word in OPEN)
    with Corpus.open(snap.path, cache_dir=tmp_path / "cache", embedder=minilm) as copy:
        assert {article.id for article in copy.articles()} == {ids[word] for word in OPEN}
        assert {article.licence for article in copy.articles()} == {"cc-by", "cc0"}
        # every index answers, and from what is left only
        assert {hit.context_id for hit in copy.retrieve("marsupial colony burrow", mode="bm25", k=50)} == wanted
        assert lexical_index.is_current(copy.conn, lexical_index.WEIGHTS)
        embedder = db_vectors.embedders(copy.conn)[0]
        assert vector_index.is_current(copy.conn, embedder)
        assert (
            db_vectors.count_vectors(copy.conn, embedder) == len(wanted) == copy.conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
        )
        assert {hit.citation.article_id for hit in copy.retrieve("numbatglow colony", mode="vector", k=50)} == {ids[word] for word in OPEN}
        assert {hit.citation.article_id for hit in copy.retrieve("colony grew", mode="hybrid", level="insights", k=10)} == {
            ids[w] for w in OPEN
        }
        # the open article that cited a closed one no longer names it
        assert [reference.cited_article_id for reference in copy.references(ids["quokkafleet"])] == [None]
    with Corpus.open(path) as original:  # the corpus itself is untouched
        assert len(list(original.articles())) == 5
        assert original.references(ids["quokkafleet"])[0].cited_article_id == ids["numbatglow"]


def test_the_manifest_counts_every_licence_and_the_command_warns(corpus: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    path, _ = corpus
    snap = take_snapshot(path, tmp_path / "all")
    assert snap.manifest["licences"] == {"cc0": 1, "cc-by": 1, "cc-by-nc-nd": 1, "unknown": 2}
    assert snap.manifest["licence_filter"] is None and snap.manifest["row_counts"]["articles"] == 5
    warning = (
        "warning: 2 articles have no known licence and 1 is non-commercial (cc-by-nc-nd); publish only open ones with --licence cc-by,cc0"
    )
    assert snap.licence_warning == warning
    result = CliRunner().invoke(app, ["snapshot", "--db", str(path), "--to", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    assert warning in result.output and result.stdout.strip().splitlines()[-1].startswith("file://")  # the URL stays the last line
    quiet = CliRunner().invoke(app, ["snapshot", "--db", str(path), "--to", str(tmp_path / "open"), "--licence", "cc-by,cc0"])
    assert quiet.exit_code == 0, quiet.output
    assert "warning" not in quiet.output and "2 articles" in quiet.output
    refused = CliRunner().invoke(app, ["snapshot", "--db", str(path), "--to", str(tmp_path / "bad"), "--licence", "cc-by,gpl"])
    assert refused.exit_code != 0 and "unknown licence 'gpl'" in refused.output and "cc-by-nc-nd" in refused.output
    assert not (tmp_path / "bad").exists(), "refused before anything was made"


def test_the_warning_line() -> None:
    assert licence_warning({"cc-by": 3, "cc0": 1}) is None and licence_warning({}) is None
    assert licence_warning({"cc-by": 3, "unknown": 1}) == (
        "warning: 1 article has no known licence; publish only open ones with --licence cc-by,cc0"
    )
    assert licence_warning({"cc-by-nc": 2, "cc-by-nc-sa": 1}) == (
        "warning: 3 articles are non-commercial (cc-by-nc, cc-by-nc-sa); publish only open ones with --licence cc-by,cc0"
    )
    assert licence_warning({"unknown": 12, "cc-by-nc": 1}) == (
        "warning: 12 articles have no known licence and 1 is non-commercial (cc-by-nc); publish only open ones with --licence cc-by,cc0"
    )


def test_a_snapshot_of_the_open_articles_of_a_corpus_with_none_is_empty_but_opens(tmp_path: Path, minilm: MiniLM) -> None:
    path = tmp_path / "closed.sqlite"
    with CorpusWriter(path) as writer:
        writer.add_document(paper("bilbyzest", None), source_uri="file:///x.xml", sha256="x")
    snap = take_snapshot(path, tmp_path / "out", licences=["cc0"])
    assert snap.manifest["licences"] == {} and snap.manifest["row_counts"]["contexts"] == 0
    assert snap.path is not None
    with Corpus.open(snap.path, cache_dir=tmp_path / "cache", embedder=minilm) as copy:
        assert list(copy.articles()) == [] and copy.retrieve("bilbyzest", mode="bm25") == []
