"""The rows the recollections step and the ``pyramid`` strategy read and write through ``db/``,
on a real corpus file: a recollection created, then updated to version 2 with its history and
sources; the articles waiting for the step and those it ran for; the levels that hold items for
a set of articles; and the articles whose distillation failed since a time. (The step itself,
with a model, is tested in test_distill.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paperpyramid.db import pyramid as db_pyramid
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, LLMCallRecord
from paperpyramid.db.queries import distill_articles, pyramid_levels
from paperpyramid.db.queries import recollections as stored
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Block, Document, Section
from paperpyramid.tokens import TokenCounter

LEVELS = ("recollections", "abstracts", "concepts", "insights")


def paper(title: str, text: str) -> Document:
    return Document(title=title, paged=False, sections=[Section("Results", 1, "1", blocks=[Block(text, 1)])])


def rows(conn: Any, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in conn.execute(sql, list(params)).fetchall()]


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[tuple[Any, list[str]]]:
    """A corpus of three articles: the first two distilled by hand (the first with an abstract,
    two insights and a concept over both), the third not."""
    with CorpusWriter(tmp_path / "corpus.sqlite", TokenCounter()) as writer:
        ids = [
            writer.add_document(paper(f"Frog paper {n}", f"Fanged frogs of island {n} give birth to tadpoles."), source_uri=f"file:///{n}.xml", sha256=f"s{n}")
            for n in range(3)
        ]  # fmt: skip
        conn = writer.db.conn
        insights = [InsightRow("Frogs give birth to tadpoles.", [1], "Results", 6), InsightRow("Island frogs are diverse.", [1], None, 5)]
        db_pyramid.store_pyramid(
            conn, ArticlePyramid(ids[0], "test:hand", "v1", insights, [ConceptRow("Frog birth.", 3, [0, 1])], "Frogs.", 2)
        )
        db_pyramid.store_pyramid(conn, ArticlePyramid(ids[1], "test:hand", "v1", insights[:1], [], None))
        yield conn, ids


def test_a_recollection_is_created_then_updated_with_its_history_and_sources(corpus: tuple[Any, list[str]]) -> None:
    conn, (first, second, _) = corpus
    insight_ids = stored.concept_insights(conn, stored.concepts(conn, first)[0][0])
    assert sorted(insight_ids) == sorted(row[0] for row in rows(conn, "SELECT id FROM insights WHERE article_id = ?", first))
    with db_pyramid._transaction(conn):
        rid = db_pyramid.save_recollection(
            conn, None, "Both papers find live birth.", 6, second, [(first, None), (second, None)], "m1", "v1", "2026-01-01T00:00:00+00:00"
        )
    assert rows(conn, "SELECT text, num_tokens, version, model FROM recollections") == [("Both papers find live birth.", 6, 1, "m1")]
    with db_pyramid._transaction(conn):
        again = db_pyramid.save_recollection(
            conn, rid, "Both find live birth in frogs.", 7, first, [(first, insight_ids[0]), (first, insight_ids[0])], "m2", "v2", "2026-01-02T00:00:00+00:00"
        )  # fmt: skip
    assert again == rid
    assert rows(conn, "SELECT text, num_tokens, version, model, prompt_version, created_at, updated_at FROM recollections") == [
        ("Both find live birth in frogs.", 7, 2, "m2", "v2", "2026-01-01T00:00:00+00:00", "2026-01-02T00:00:00+00:00")
    ]
    history = rows(
        conn, "SELECT version, change, article_id, text FROM recollection_history WHERE recollection_id = ? ORDER BY version", rid
    )
    assert history == [(1, "created", second, "Both papers find live birth."), (2, "updated", first, "Both find live birth in frogs.")]
    sources = rows(conn, "SELECT article_id, insight_id FROM recollections_sources WHERE recollection_id = ?", rid)
    assert sorted(sources, key=str) == sorted([(first, None), (second, None), (first, insight_ids[0])], key=str)
    assert stored.recollection_text(conn, rid) == "Both find live birth in frogs."
    assert stored.latest_recollections(conn, 5) == [rid]


def test_the_step_runs_once_for_each_distilled_article(corpus: tuple[Any, list[str]]) -> None:
    conn, (first, second, third) = corpus
    assert stored.pending_articles(conn) == [first, second]  # the third is not distilled
    assert stored.recollected_among(conn, [first, second, third]) == set()
    with db_pyramid._transaction(conn):
        db_pyramid.mark_recollected(conn, first)
    assert stored.pending_articles(conn) == [second]
    assert stored.is_recollected(conn, first) and not stored.is_recollected(conn, second)
    assert stored.recollected_among(conn, [third, first, "unknown"]) == {first}
    many = [f"x{n}" for n in range(1200)] + [first]  # past one statement's share of ids
    assert stored.recollected_among(conn, many) == {first}


def test_a_papers_title_and_abstract_and_the_latest_abstracts(corpus: tuple[Any, list[str]]) -> None:
    conn, (first, second, third) = corpus
    assert stored.title(conn, first) == "Frog paper 0" and stored.title(conn, "unknown") is None
    assert stored.abstract_text(conn, first) == "Frogs." and stored.abstract_text(conn, second) is None
    abstract = stored.abstract_id(conn, first)
    assert abstract is not None and stored.abstract_id(conn, third) is None
    assert stored.latest_abstracts(conn, second, 3) == [abstract] and stored.latest_abstracts(conn, first, 3) == []
    assert stored.abstract_owners(conn, ["unknown", abstract]) == [first]
    assert distill_articles.article_title(conn, third) == "Frog paper 2"
    with pytest.raises(KeyError, match="no article"):
        distill_articles.article_title(conn, "unknown")


def test_the_levels_that_hold_items_of_the_articles_asked(corpus: tuple[Any, list[str]]) -> None:
    conn, (first, second, third) = corpus
    assert pyramid_levels.levels_holding(conn, LEVELS, None) == ["abstracts", "concepts", "insights"]
    assert pyramid_levels.levels_holding(conn, LEVELS, [second]) == ["insights"]
    assert pyramid_levels.levels_holding(conn, LEVELS, [third]) == []
    with db_pyramid._transaction(conn):
        db_pyramid.save_recollection(conn, None, "Both papers find live birth.", 6, second, [(first, None), (second, None)], "m", "v1", "t")
    assert pyramid_levels.levels_holding(conn, LEVELS, [second]) == ["recollections", "insights"]
    with pytest.raises(ValueError, match="no pyramid level 'contexts'"):
        pyramid_levels.levels_holding(conn, ("contexts",), None)


def test_the_articles_whose_distillation_failed_since_a_time(corpus: tuple[Any, list[str]]) -> None:
    conn, (first, _, third) = corpus
    before = rows(conn, "SELECT max(updated_at) FROM distillations")[0][0]
    db_pyramid.record_failure(conn, third, "m", "v1", "the model gave no insights", [LLMCallRecord("insights", "m", 10, 0)])
    assert distill_articles.failed_since(conn, before) == {third}
    assert distill_articles.failed_since(conn, "9999") == set()
    assert distill_articles.article_ids(conn)[0] == first
