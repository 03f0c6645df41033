"""Recollections: statements that connect papers, kept up to date as articles arrive.

Each newly distilled article is shown to the model with its abstract and concepts, the
abstracts of the ``related`` other articles it is linked to by a citation (either way) and then
nearest to it, each linked one with its citing sentence, and the recollections nearest to it; the
model writes new recollections or updates shown ones. Every recollection keeps its sources
(``recollections_sources``: the articles, and the insights behind the concepts it rests on)
and every change a row of ``recollection_history``. One transaction per article; an article
whose step failed stays pending and is tried again by the next run.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from paperpyramid import citation_graph
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import LLMCallRecord, _record_calls, _transaction, new_id
from paperpyramid.distill.bounds import ITEM_OVERHEAD, cap_lists, fit_list, fit_text, prompt_room
from paperpyramid.distill.prompts import PROMPT_VERSION, RecollectionsReply, recollections_messages
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import LLMOutputError, ServiceUnavailable
from paperpyramid.llm import LLM
from paperpyramid.settings import DistillSettings
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)

#: existing recollections shown with a new article
SHOWN = 8
#: a recollection is a statement, not an essay
MAX_CHARS = 1000


def recollect(
    conn: Any, llm: LLM, settings: DistillSettings, *, counter: TokenCounter, embedder: Embedder | None, max_tokens: int = 2048
) -> int:
    """Run the step for every distilled article that has not had it; return the recollections
    created or updated. Raises ServiceUnavailable (the caller reports it); other failures of one
    article are logged and leave it pending."""
    pending = [
        row[0]
        for row in conn.execute("SELECT article_id FROM distillations WHERE status = 'done' AND recollected = 0 ORDER BY updated_at, rowid")
    ]
    changed = 0
    for article_id in pending:
        try:
            changed += _one(conn, article_id, llm, settings, counter, embedder, max_tokens)
        except ServiceUnavailable:
            raise
        except LLMOutputError as exc:
            log.warning("recollections for article %s: %s", article_id, exc)
    return changed


def _paper(conn: Any, article_id: str) -> str:
    title = conn.execute("SELECT title FROM articles WHERE id = ?", [article_id]).fetchone()
    abstract = conn.execute("SELECT text FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
    return f"Title: {(title and title[0]) or 'unknown'}\nAbstract: {abstract[0] if abstract else '(none)'}"


def _links(conn: Any, article_id: str) -> dict[str, str]:
    """The articles linked to ``article_id`` by a citation, either way, each with a line saying
    how (and the first citing sentence), those it cites first."""
    lines: dict[str, str] = {}
    for link in citation_graph.cites(conn, article_id, in_corpus=True):
        said = f': "{link.passages[0].sentence}"' if link.passages else ""
        lines.setdefault(str(link.cited_article_id), f"\nCitation: NEW cites this paper{said}")
    for link in citation_graph.cited_by(conn, article_id):
        said = f': "{link.passages[0].sentence}"' if link.passages else ""
        lines.setdefault(link.citing_article_id, f"\nCitation: this paper cites NEW{said}")
    return lines


def _nearest(conn: Any, level: str, article_id: str, embedder: Embedder | None, k: int, sql_fallback: str) -> list[str]:
    """Ids of the ``k`` items of ``level`` nearest to the article's abstract (other articles'
    abstracts, or recollections); without vectors, the most recent ones."""
    if embedder is not None:
        row = db_vectors.find_embedder(conn, embedder.name)
        abstract = conn.execute("SELECT id FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
        query = None if row is None or abstract is None else db_vectors.item_vector(conn, row, "abstracts", abstract[0])
        if row is not None and query is not None:
            return [item for item, _ in db_vectors.nearest_items(conn, row, level, query, k + 1)]
    return [row[0] for row in conn.execute(sql_fallback, [article_id, k + 1])]


def _one(
    conn: Any, article_id: str, llm: LLM, settings: DistillSettings, counter: TokenCounter, embedder: Embedder | None, max_tokens: int
) -> int:
    candidates = _nearest(
        conn,
        "abstracts",
        article_id,
        embedder,
        4 * settings.related + 20,
        "SELECT id FROM abstracts WHERE article_id != ? ORDER BY rowid DESC LIMIT ?",
    )
    owners = [
        row[0] for row in (conn.execute("SELECT article_id FROM abstracts WHERE id = ?", [aid]).fetchone() for aid in candidates) if row
    ]
    links = _links(conn, article_id)
    # the new article meets the corpus as it stood: articles whose recollections step ran before
    # (asked of the candidates only: reading every such article's id cost 68 ms at 50k articles)
    asked = list(dict.fromkeys([*links, *owners]))
    earlier = {
        row[0]
        for start in range(0, len(asked), 500)
        for row in conn.execute(
            f"SELECT article_id FROM distillations WHERE status = 'done' AND recollected = 1 AND article_id IN ({','.join('?' * len(asked[start : start + 500]))})",
            asked[start : start + 500],
        )
    }
    other_articles = [owner for owner in dict.fromkeys([*links, *owners]) if owner != article_id and owner in earlier][: settings.related]
    if not other_articles:
        with _transaction(conn):
            conn.execute("UPDATE distillations SET recollected = 1 WHERE article_id = ?", [article_id])
        return 0
    shown_ids = _nearest(
        conn,
        "recollections",
        article_id,
        embedder,
        SHOWN,
        "SELECT id FROM recollections WHERE ? IS NOT NULL ORDER BY updated_at DESC LIMIT ?",
    )[:SHOWN]
    shown = [
        (number, rid, conn.execute("SELECT text FROM recollections WHERE id = ?", [rid]).fetchone()[0])
        for number, rid in enumerate(shown_ids, 1)
    ]
    concepts = [
        (row[0], row[1]) for row in conn.execute("SELECT id, text FROM concepts WHERE article_id = ? ORDER BY position", [article_id])
    ]
    labels = {"NEW": article_id, **{f"P{index}": other for index, other in enumerate(other_articles, 1)}}
    # every part fitted to the model's window: the new paper, the others and the recollections
    # shown a quarter of the room each at most, the new paper's concepts (from the first) the rest
    room = prompt_room(llm, max_tokens, RecollectionsReply, *(message["content"] for message in recollections_messages("", [], [])))
    paper = fit_text(_paper(conn, article_id), room // 4, llm)
    others = [
        (label, fit_text(_paper(conn, aid) + links.get(aid, ""), room // (4 * len(other_articles)), llm))
        for label, aid in labels.items()
        if label != "NEW"
    ]
    shown = shown[: fit_list([text for _, _, text in shown], llm, room // 4)]
    room -= sum(llm.count_tokens(text) + ITEM_OVERHEAD for text in [paper, *(text for _, text in others), *(text for _, _, text in shown)])
    concepts = concepts[: fit_list([text for _, text in concepts], llm, room)]
    new_paper = paper + "\nConcepts:\n" + "\n".join(f"{number}. {text}" for number, (_, text) in enumerate(concepts, 1))
    messages = recollections_messages(new_paper, others, [(number, text) for number, _, text in shown])
    started = time.perf_counter()
    reply = llm.complete(messages, RecollectionsReply, max_tokens=max_tokens)
    call = LLMCallRecord(
        "recollections",
        reply.model,
        reply.usage.prompt_tokens,
        reply.usage.completion_tokens,
        reply.cached,
        reply.attempts,
        time.perf_counter() - started,
    )
    for warning in cap_lists(reply.value, "recollections"):
        log.warning("article %s: %s", article_id, warning)
    by_number = {number: rid for number, rid, _ in shown}
    now = datetime.now(UTC).isoformat(timespec="seconds")
    changed: dict[str, str] = {}
    with _transaction(conn):
        if conn.execute("SELECT recollected FROM distillations WHERE article_id = ?", [article_id]).fetchone()[0]:
            return 0  # another run did it while the model was answering
        for item in reply.value.recollections:
            text = " ".join(item.text.split())[:MAX_CHARS]
            papers = {labels[label.strip().upper()] for label in item.papers if label.strip().upper() in labels}
            if len(text) < 12 or article_id not in papers or len(papers) < 2:
                continue  # a recollection connects the new article with at least one other
            insight_ids = [
                row[0]
                for number in item.concept_ids
                if 1 <= number <= len(concepts)
                for row in conn.execute("SELECT insight_id FROM concepts_insights WHERE concept_id = ?", [concepts[number - 1][0]])
            ]
            rid = by_number.get(item.id)
            if rid is None:
                rid, version, change = new_id(), 1, "created"
                conn.execute(
                    "INSERT INTO recollections (id, text, num_tokens, version, model, prompt_version, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
                    [rid, text, counter.count(text), 1, reply.model, PROMPT_VERSION, now, now],
                )
            else:
                version = int(conn.execute("SELECT version FROM recollections WHERE id = ?", [rid]).fetchone()[0]) + 1
                change = "updated"
                conn.execute(
                    "UPDATE recollections SET text = ?, num_tokens = ?, version = ?, model = ?, prompt_version = ?, updated_at = ? WHERE id = ?",
                    [text, counter.count(text), version, reply.model, PROMPT_VERSION, now, rid],
                )
            conn.execute(
                "INSERT INTO recollection_history (recollection_id, version, text, change, article_id, model, prompt_version, changed_at) VALUES (?,?,?,?,?,?,?,?)",
                [rid, version, text, change, article_id, reply.model, PROMPT_VERSION, now],
            )
            sources = [(aid, None) for aid in sorted(papers)] + [(article_id, iid) for iid in dict.fromkeys(insight_ids)]
            conn.executemany(
                "INSERT OR IGNORE INTO recollections_sources (recollection_id, article_id, insight_id, added_at) VALUES (?,?,?,?)",
                [(rid, aid, iid, now) for aid, iid in sources],
            )
            changed[rid] = text
        if embedder is not None and changed:
            row = db_vectors.ensure_embedder(conn, embedder.name, embedder.dimension, embedder.window)
            db_vectors.delete_level_vectors(conn, "recollections", list(changed))
            db_vectors.insert_level_vectors(conn, row, "recollections", list(changed), embedder.embed_passages(list(changed.values())))
        _record_calls(conn, article_id, PROMPT_VERSION, [call])
        conn.execute("UPDATE distillations SET recollected = 1 WHERE article_id = ?", [article_id])
    return len(changed)
