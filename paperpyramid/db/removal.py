"""Taking an article's rows out of the corpus: all of them (:func:`delete_articles`), or its
content alone, for a newer version stored under the same id (:func:`delete_content`).

Everything runs in the caller's transaction, so an article is either gone whole or still there.
What is derived from the rows goes with them: the contexts' vectors (from every model's table,
and from the approximate index over it), the full-text indexes (FTS5's triggers), and the BM25
index beside FTS5, which is marked stale since a rowid may now be taken again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from paperpyramid.db import lexical_index, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import delete_pyramids
from paperpyramid.db.sqlite import load_vec

_IN = "IN (SELECT value FROM json_each(?))"


def delete_articles(conn: Any, article_ids: Iterable[str]) -> int:
    """Remove these articles with every row that is theirs (sections, contexts and their vectors,
    references, tables, formulas, figures, MeSH terms, the pyramid distilled from them, the
    recollections that drew on them, their model calls); how many there were. Entries of other
    articles that cited one of them no longer name it. Unknown ids are ignored.

    Each kind of row goes by one statement over all the articles, so removing many articles (a
    licence filter, a shard cut out of a copy) costs a few passes, not a few per article."""
    wanted = json.dumps(list(dict.fromkeys(article_ids)))
    ids = [str(row[0]) for row in conn.execute(f"SELECT id FROM articles WHERE id {_IN}", [wanted])]
    if not ids:
        return 0
    _load_vec(conn)
    articles = json.dumps(ids)
    _delete_recollections(conn, articles)
    delete_pyramids(conn, ids)
    conn.execute(f"DELETE FROM distillations WHERE article_id {_IN}", [articles])
    conn.execute(f"DELETE FROM llm_calls WHERE article_id {_IN}", [articles])
    _delete_contents(conn, articles, article_contexts(conn, articles), keep_contexts=False)
    conn.execute(f"UPDATE bib_entries SET cited_article_id = NULL WHERE cited_article_id {_IN}", [articles])
    conn.execute(f"DELETE FROM merged_sources WHERE article_id {_IN}", [articles])
    conn.execute(f"DELETE FROM articles WHERE id {_IN}", [articles])
    return len(ids)


def delete_content(conn: Any, article_id: str, *, keep_contexts: bool = False) -> list[str]:
    """Remove what an article holds (sections, reading order, references and the citations of
    them, tables, formulas, figures, MeSH terms) and, unless ``keep_contexts``, its contexts
    with their vectors; the article's row, its pyramid and its id stay. The ids of its contexts,
    in reading order: with ``keep_contexts`` the caller links them to new sections (their text
    is the new version's), and the pyramid that links to them stays valid."""
    _load_vec(conn)
    context_ids = article_context_ids(conn, article_id)
    _delete_contents(conn, json.dumps([article_id]), context_ids, keep_contexts=keep_contexts)
    return context_ids


def _delete_contents(conn: Any, articles: str, context_ids: list[str], *, keep_contexts: bool) -> None:
    """:func:`delete_content` for the articles of the JSON list ``articles``, whose contexts are ``context_ids``."""
    section_ids = [str(row[0]) for row in conn.execute(f"SELECT section_id FROM article_sections WHERE article_id {_IN}", [articles])]
    sections, contexts = json.dumps(section_ids), json.dumps(context_ids)
    conn.execute(f"DELETE FROM citations WHERE bib_entry_id IN (SELECT id FROM bib_entries WHERE article_id {_IN})", [articles])
    conn.execute(f"DELETE FROM citations WHERE context_id {_IN}", [contexts])
    conn.execute(f"DELETE FROM bib_entries WHERE article_id {_IN}", [articles])
    for part in ("tables", "formulas", "figures", "mesh_terms"):
        conn.execute(f"DELETE FROM {part} WHERE article_id {_IN}", [articles])
    conn.execute(f"DELETE FROM sections_contexts WHERE section_id {_IN}", [sections])
    conn.execute(f"DELETE FROM article_sections WHERE article_id {_IN}", [articles])
    if not keep_contexts:
        delete_contexts(conn, context_ids)
    conn.execute(f"DELETE FROM sections WHERE id {_IN}", [sections])


def delete_contexts(conn: Any, context_ids: Sequence[str]) -> None:
    """Remove contexts no section holds any more, with their vectors, their entries in the
    approximate indexes and the insights' links to them."""
    if not context_ids:
        return
    contexts = json.dumps(list(context_ids))
    lexical_index.invalidate(conn)
    for embedder in db_vectors.embedders(conn):
        vector_index.forget(conn, embedder, context_ids)  # by the contexts' rowids: before they go
    db_vectors.delete_vectors(conn, context_ids)
    conn.execute(f"DELETE FROM insights_contexts WHERE context_id {_IN}", [contexts])
    conn.execute(f"DELETE FROM contexts WHERE id {_IN}", [contexts])


def article_context_ids(conn: Any, article_id: str) -> list[str]:
    """The ids of an article's contexts in reading order."""
    return article_contexts(conn, json.dumps([article_id]))


def article_contexts(conn: Any, articles: str) -> list[str]:
    """The ids of the contexts of the articles of the JSON list ``articles``, article by article,
    each in reading order."""
    rows = conn.execute(
        "SELECT sc.context_id FROM article_sections AS ars JOIN sections_contexts AS sc ON sc.section_id = ars.section_id "
        f"WHERE ars.article_id {_IN} ORDER BY ars.article_id, ars.position, sc.position",
        [articles],
    )
    return [str(row[0]) for row in rows]


def article_context_texts(conn: Any, article_id: str) -> list[str]:
    """The text of an article's contexts in reading order: what its pyramid was distilled from."""
    rows = conn.execute(
        "SELECT c.text FROM article_sections AS ars JOIN sections_contexts AS sc ON sc.section_id = ars.section_id "
        "JOIN contexts AS c ON c.id = sc.context_id WHERE ars.article_id = ? ORDER BY ars.position, sc.position",
        [article_id],
    )
    return [str(row[0]) for row in rows]


def _load_vec(conn: Any) -> None:
    # the vectors' tables are sqlite-vec's: deleting from them needs it loaded
    if db_vectors.embedders(conn):
        load_vec(conn)


def _delete_recollections(conn: Any, articles: str) -> None:
    """Remove the recollections the articles of the JSON list ``articles`` are sources of (their
    text speaks of them), with their history, sources and vectors; the history of other
    recollections no longer names those articles."""
    ids = [
        str(row[0])
        for row in conn.execute(f"SELECT DISTINCT recollection_id FROM recollections_sources WHERE article_id {_IN}", [articles])
    ]
    if ids:
        recollections = json.dumps(ids)
        db_vectors.delete_level_vectors(conn, "recollections", ids)
        conn.execute(f"DELETE FROM recollections_sources WHERE recollection_id {_IN}", [recollections])
        conn.execute(f"DELETE FROM recollection_history WHERE recollection_id {_IN}", [recollections])
        conn.execute(f"DELETE FROM recollections WHERE id {_IN}", [recollections])
    conn.execute(f"UPDATE recollection_history SET article_id = NULL WHERE article_id {_IN}", [articles])


__all__ = ["article_context_ids", "article_context_texts", "delete_articles", "delete_content", "delete_contexts"]
