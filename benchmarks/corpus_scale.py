"""Corpus at scale: a synthetic corpus of up to 100,000 articles written through the real writer.

The articles are copies of a real corpus's (``--real``: the shared corpus ingested with
all-MiniLM-L6-v2 vectors, with the reference distillations of ``../shared/recorded/distill``
imported), made new the way ``search_scale.py`` makes its copies (its ``perturb`` and ``_noisy``):

- every copy has its own sha256, source URI, DOI (the source's with ``.N`` appended, or a
  synthetic one), title (perturbed, with ``[N]`` appended) and abstract; each context's text is
  perturbed and its vector is the source context's plus Gaussian noise (cosine ~0.75-0.95);
  sections, reading order, pages, tables, formulas, figures and the bibliography are the source's;
- ``--contexts-per-copy K`` keeps K contexts of each copy, evenly spaced over the article (every
  section is kept, some without contexts); 0 keeps all (~68 a paper in the shared corpus);
- the pyramid: an article with a reference distillation gives its copies that pyramid
  (insights, concepts, abstract; texts perturbed, vectors noisy, each insight linked to the copy's
  context nearest its source's); the others get a derived pyramid (an insight is the first
  sentence of a context, with that context's vector; a concept groups five insights; the abstract
  is the article's, with the mean of its context vectors). ``--insights-per-copy`` caps insights.

Each copy goes in through the product's path: ``CorpusWriter.store`` (article, sections,
contexts, reading order, vectors, bibliography and its resolution, tables, formulas, figures and
the ingest log row in one transaction), then ``pyramid.store_pyramid`` (insights, concepts,
abstract, their links and vectors, in one transaction). Only ``store`` and ``store_pyramid``
are in the writer's throughput (making the copy is not). Copies are marked as having had their
recollections step (``distillations.recollected = 1``) without running it, and every second copy
gets one recollection (its first insight, linking it to the copy before; a noisy vector), so that
a new article meets a corpus whose abstracts and recollections are all there.

Stages (``--sizes 1000,10000,100000``) add articles to the file already in ``--out`` (resumable:
it counts what is there), then, as an ingest does at the end of a pass, bring the BM25 index
up to date (``lexical_index.maintain``, which starts the index at 50,000 contexts) and build the
vector index (``vector_index.build_index``), and measure:

- search p50/p95 per mode (``bm25``, ``vector``, ``hybrid``, ``parent``) through
  ``retrieval.api.retrieve`` over the QA questions (query vectors from MiniLM, embedded once,
  outside the timings), one warm-up pass first;
- recollections (after search: the probes' articles leave the indexes short of them):
  ``--probes`` new articles written, then ``recollections.recollect`` for each with an LLM that
  answers at once (a fake: one recollection linking the new paper and the first other) and a
  fake embedder for the new recollection's vector: the cost measured is the corpus side
  (nearest abstracts and recollections, reading, fitting the prompt, writing), with its parts
  timed apart (the set of earlier articles, the nearest abstracts, the nearest recollections);
- file size, disk per 1,000 articles.

At the last size (``--snapshot``): ``take_snapshot`` into a folder with gzip, then with zstd (the
default; the publish-time ratio of the same run), then sharded by ``--shard-by`` (``year``; zstd;
its time against the one zstd snapshot's), then
``Corpus.open`` of the snapshot's URL served by ``python -m http.server`` on 127.0.0.1 in a
fresh process (time to open, to the first BM25 query, peak RSS, cache disk), then the file
compressed by pigz and zstd on 2 threads for comparison. ``--deadline`` stops the growth at a
chunk boundary after that Unix time (the stage is then measured at the size reached).

``--compare-writers N`` times the writer alone, today's path against the bulk path
(:func:`compare_writers`): N full-size copies each way into two fresh files, in the same run,
alternating chunks, with the ratio of articles/s (``store`` alone, and with the pyramid) and the
index builds that follow a load.

Everything goes to ``DIR/corpus_scale.json``, stage by stage; markdown tables are printed.

    .venv/bin/python benchmarks/corpus_scale.py --out /tmp/corpus_scale --sizes 1000,10000,100000 --snapshot
    .venv/bin/python benchmarks/corpus_scale.py --out DIR --sizes '' --snapshot   # the snapshot figures alone, of DIR/corpus.sqlite
    .venv/bin/python benchmarks/corpus_scale.py --out /tmp/corpus_scale/writers --compare-writers 1024 --write-batch 64
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_scale import EMBEDDER, QA, _noisy, _pct, perturb  # noqa: E402

from paperpyramid.contexts import ContextDraft  # noqa: E402
from paperpyramid.db import lexical_index, vector_index  # noqa: E402
from paperpyramid.db import pyramid as db_pyramid  # noqa: E402
from paperpyramid.db import vectors as db_vectors  # noqa: E402
from paperpyramid.document import Author, Block, Document, Figure, Formula, Reference, Section, Table  # noqa: E402

F32 = npt.NDArray[np.float32]
DIM = 384
WINDOW = 256
SOURCE = "synthetic://corpus-scale/"
DERIVED_INSIGHTS = 40  # insights of a derived pyramid (the reference ones hold 98-208)
RECOLLECTION_EVERY = 2

# --------------------------------------------------------------------------- the source corpus


@dataclass
class SourcePyramid:
    #: (text, pages, section, num_tokens, [(context index in the article, score)])
    insights: list[tuple[str, list[int], str | None, int, list[tuple[int, float]]]]
    #: (text, num_tokens, insight indices)
    concepts: list[tuple[str, int, list[int]]]
    abstract: str
    abstract_tokens: int
    vectors: dict[str, F32]
    derived: bool


@dataclass
class SourceArticle:
    row: dict[str, Any]
    sections: list[Section]
    drafts: list[list[ContextDraft]]
    vectors: F32  # one per context, in storage order
    tables: list[Table]
    formulas: list[Formula]
    figures: list[Figure]
    references: list[Reference]
    pyramid: SourcePyramid = field(init=False)


def _unit(matrix: F32) -> F32:
    return (matrix / np.linalg.norm(matrix, axis=-1, keepdims=True)).astype(np.float32)


def _first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0]
    return sentence[:300]


def load_sources(path: Path) -> list[SourceArticle]:
    """Every article of the real corpus at ``path`` with what a copy of it needs."""
    from paperpyramid.db import sqlite as db_sqlite

    conn = db_sqlite.connect(path, read_only=True)
    conn.row_factory = db_sqlite.sqlite3.Row
    row = db_vectors.find_embedder(conn, EMBEDDER)
    assert row is not None, f"{path} has no {EMBEDDER} vectors"
    vecs = {r[0]: db_vectors.decode([r[1]], DIM)[0] for r in conn.execute(f"SELECT context_id, embedding FROM {row.vec_table}")}
    sources: list[SourceArticle] = []
    for article in conn.execute("SELECT * FROM articles ORDER BY rowid").fetchall():
        aid = article["id"]
        sections: list[Section] = []
        drafts: list[list[ContextDraft]] = []
        context_ids: list[str] = []
        index_of: dict[str, int] = {}
        for srow in conn.execute(
            "SELECT s.* FROM article_sections a JOIN sections s ON s.id = a.section_id WHERE a.article_id = ? ORDER BY a.position", [aid]
        ).fetchall():
            index_of[srow["id"]] = len(sections)
            section_drafts = []
            blocks = []
            for crow in conn.execute(
                "SELECT c.* FROM sections_contexts sc JOIN contexts c ON c.id = sc.context_id WHERE sc.section_id = ? ORDER BY sc.position",
                [srow["id"]],
            ).fetchall():
                section_drafts.append(
                    ContextDraft(crow["text"], crow["page_number"], crow["num_tokens"], crow["stop_reason"], crow["kind"])
                )
                blocks.append(Block(crow["text"], crow["page_number"] or 1, crow["kind"]))
                context_ids.append(crow["id"])
            parent = index_of.get(srow["parent_id"]) if srow["parent_id"] else None
            sections.append(
                Section(
                    srow["section_title"] or "",
                    srow["level"] or 1,
                    srow["section_number"],
                    parent,
                    blocks,
                    srow["page_start"],
                    srow["page_end"],
                )
            )
            drafts.append(section_drafts)
        if not context_ids:
            continue
        vectors = np.stack([vecs[cid] for cid in context_ids]).astype(np.float32)
        section_ids = {sid: index for sid, index in index_of.items()}

        def bbox(text: str | None) -> Any:
            return None if not text else tuple(json.loads(text))

        tables = [
            Table(
                t["caption"] or "",
                json.loads(t["cells"] or "[]"),
                t["page"] or 1,
                bbox(t["bbox"]),
                t["label"],
                section_ids.get(t["section_id"]),
            )
            for t in conn.execute("SELECT * FROM tables WHERE article_id = ?", [aid])
        ]
        formulas = [
            Formula(f["text"] or "", f["page"] or 1, f["latex"], f["label"], bbox(f["bbox"]), section_ids.get(f["section_id"]))
            for f in conn.execute("SELECT * FROM formulas WHERE article_id = ?", [aid])
        ]
        figures = [
            Figure(f["caption"] or "", f["page"] or 1, f["label"], bbox(f["bbox"]), section_ids.get(f["section_id"]))
            for f in conn.execute("SELECT * FROM figures WHERE article_id = ?", [aid])
        ]
        references = [
            Reference(b["raw"], b["title"], json.loads(b["authors"] or "[]"), b["year"], b["doi"], b["venue"], b["key"], b["arxiv_id"])
            for b in conn.execute("SELECT * FROM bib_entries WHERE article_id = ? ORDER BY position", [aid])
        ]
        source = SourceArticle(dict(article), sections, drafts, vectors, tables, formulas, figures, references)
        source.pyramid = _load_pyramid(conn, row, aid, {cid: i for i, cid in enumerate(context_ids)}, source)
        sources.append(source)
    conn.close()
    return sources


def _load_pyramid(
    conn: sqlite3.Connection, row: db_vectors.EmbedderRow, aid: str, ctx_index: dict[str, int], source: SourceArticle
) -> SourcePyramid:
    insights = conn.execute(
        "SELECT id, text, pages, section, num_tokens FROM insights WHERE article_id = ? ORDER BY position", [aid]
    ).fetchall()
    abstract = conn.execute("SELECT id, text, num_tokens FROM abstracts WHERE article_id = ?", [aid]).fetchone()
    if not insights or abstract is None:
        return _derived_pyramid(source)
    position = {r["id"]: i for i, r in enumerate(insights)}
    links: dict[str, list[tuple[int, float]]] = {}
    for r in conn.execute(
        "SELECT ic.insight_id, ic.context_id, ic.score FROM insights_contexts ic JOIN insights i ON i.id = ic.insight_id WHERE i.article_id = ?",
        [aid],
    ):
        if r[1] in ctx_index:
            links.setdefault(r[0], []).append((ctx_index[r[1]], r[2]))
    concepts = []
    for c in conn.execute("SELECT id, text, num_tokens FROM concepts WHERE article_id = ? ORDER BY position", [aid]).fetchall():
        members = [
            position[r[0]]
            for r in conn.execute("SELECT insight_id FROM concepts_insights WHERE concept_id = ?", [c["id"]])
            if r[0] in position
        ]
        concepts.append((c["text"], c["num_tokens"], members))

    def level_vectors(level: str, ids: list[str], fallback: Callable[[int], F32]) -> F32:
        found: dict[str, F32] = {}
        if db_vectors.has_level_table(conn, row, level):
            table = db_vectors.level_table(row, level)
            for item, blob in conn.execute(f"SELECT item_id, embedding FROM {table} WHERE item_id IN ({','.join('?' * len(ids))})", ids):
                found[item] = db_vectors.decode([blob], DIM)[0]
        return np.stack([found.get(item, fallback(i)) for i, item in enumerate(ids)]).astype(np.float32)

    mean = _unit(source.vectors.mean(axis=0))
    vectors = {
        "insights": level_vectors("insights", [r["id"] for r in insights], lambda i: mean),
        "concepts": level_vectors(
            "concepts",
            [r[0] for r in conn.execute("SELECT id FROM concepts WHERE article_id = ? ORDER BY position", [aid])],
            lambda i: mean,
        ),
        "abstracts": level_vectors("abstracts", [abstract["id"]], lambda i: mean),
    }
    return SourcePyramid(
        [(r["text"], json.loads(r["pages"]), r["section"], r["num_tokens"], links.get(r["id"], [])) for r in insights],
        concepts, abstract["text"], abstract["num_tokens"], vectors, derived=False,
    )  # fmt: skip


def _derived_pyramid(source: SourceArticle) -> SourcePyramid:
    flat = [(draft, section.title) for section, drafts in zip(source.sections, source.drafts, strict=True) for draft in drafts]
    chosen = sorted(set(np.linspace(0, len(flat) - 1, min(DERIVED_INSIGHTS, len(flat))).round().astype(int).tolist()))
    insights = []
    for index in chosen:
        draft, title = flat[index]
        text = _first_sentence(draft.text)
        insights.append((text, [draft.page_number], title, max(1, len(text.split()) * 4 // 3), [(index, 1.0)]))
    ivecs = source.vectors[chosen]
    concepts, cvecs = [], []
    for start in range(0, len(insights), 5):
        members = list(range(start, min(start + 5, len(insights))))
        text = f"{insights[start][2] or 'Paper'}: {insights[start][0][:160]}"
        concepts.append((text, max(1, len(text.split()) * 4 // 3), members))
        cvecs.append(_unit(ivecs[members].mean(axis=0)))
    abstract = source.row.get("abstract") or " ".join(text for text, *_ in insights[:3])
    return SourcePyramid(
        insights, concepts, abstract, max(1, len(abstract.split()) * 4 // 3),
        {"insights": ivecs, "concepts": np.stack(cvecs), "abstracts": _unit(source.vectors.mean(axis=0))[None, :]}, derived=True,
    )  # fmt: skip


# --------------------------------------------------------------------------- copies


@dataclass
class Copy:
    doc: Document
    drafts: list[list[ContextDraft]]
    vectors: F32
    sha256: str
    source_uri: str
    pyramid: SourcePyramid  # perturbed; context links are indices into the copy's contexts


def make_copy(source: SourceArticle, number: int, contexts_per_copy: int = 0, insights_per_copy: int = 0) -> Copy:
    """Copy ``number`` of ``source``: unique ids, perturbed texts, noisy vectors."""
    rng = random.Random(number)
    nrng = np.random.default_rng(number)
    row = source.row
    total = len(source.vectors)
    keep = list(range(total))
    if 0 < contexts_per_copy < total:
        keep = sorted(set(np.linspace(0, total - 1, contexts_per_copy).round().astype(int).tolist()))
    kept = set(keep)
    drafts: list[list[ContextDraft]] = []
    sections: list[Section] = []
    flat = 0
    for section, section_drafts in zip(source.sections, source.drafts, strict=True):
        out = []
        for draft in section_drafts:
            if flat in kept:
                out.append(ContextDraft(perturb(draft.text, rng), draft.page_number, draft.num_tokens, draft.stop_reason, draft.kind))
            flat += 1
        drafts.append(out)
        blocks = [Block(d.text, d.page_number or 1, d.kind) for d in out]
        sections.append(Section(section.title, section.level, section.number, section.parent, blocks, section.page_start, section.page_end))
    vectors = _noisy(source.vectors[keep], nrng)
    doi = f"{row['doi']}.{number}" if row.get("doi") else f"10.5555/corpus-scale.{number}"
    authors = [Author(**a) for a in json.loads(row.get("authors") or "[]")]
    doc = Document(
        title=f"{perturb(row.get('title') or 'Untitled', rng)} [{number}]",
        authors=authors,
        abstract=perturb(row["abstract"], rng) if row.get("abstract") else None,
        date_published=row.get("date_published"),
        journal=row.get("journal"),
        doi=doi,
        pages=row.get("pages") or 0,
        sections=sections,
        tables=list(source.tables),
        formulas=list(source.formulas),
        figures=list(source.figures),
        references=list(source.references),
        provenance=json.loads(row.get("provenance") or "{}") or {"sections": "synthetic"},
    )
    sha256 = hashlib.sha256(f"{row['sha256']}:{number}".encode()).hexdigest()
    return Copy(
        doc,
        drafts,
        vectors,
        sha256,
        f"{SOURCE}{number}/{row['sha256'][:12]}.pdf",
        _copy_pyramid(source.pyramid, keep, insights_per_copy, rng, nrng),
    )


def _copy_pyramid(pyramid: SourcePyramid, keep: list[int], cap: int, rng: random.Random, nrng: np.random.Generator) -> SourcePyramid:
    chosen = list(range(len(pyramid.insights)))
    if 0 < cap < len(chosen):
        chosen = sorted(set(np.linspace(0, len(chosen) - 1, cap).round().astype(int).tolist()))
    new_index = {old: new for new, old in enumerate(chosen)}

    def nearest_kept(index: int) -> int:
        at = bisect.bisect_left(keep, index)
        if at < len(keep) and keep[at] == index:
            return at
        candidates = [c for c in (at - 1, at) if 0 <= c < len(keep)]
        return min(candidates, key=lambda c: abs(keep[c] - index))

    insights = []
    for old in chosen:
        text, pages, section, tokens, links = pyramid.insights[old]
        moved = {nearest_kept(ctx): score for ctx, score in links}
        insights.append((perturb(text, rng), pages, section, tokens, list(moved.items())))
    concepts, concept_rows = [], []
    for position, (text, tokens, members) in enumerate(pyramid.concepts):
        mapped = [new_index[m] for m in members if m in new_index]
        if mapped or not members:
            concepts.append((perturb(text, rng), tokens, mapped))
            concept_rows.append(position)
    vectors = {
        "insights": _noisy(pyramid.vectors["insights"][chosen], nrng) if chosen else np.zeros((0, DIM), np.float32),
        "concepts": _noisy(pyramid.vectors["concepts"][concept_rows], nrng) if concept_rows else np.zeros((0, DIM), np.float32),
        "abstracts": _noisy(pyramid.vectors["abstracts"], nrng),
    }
    return SourcePyramid(insights, concepts, perturb(pyramid.abstract, rng), pyramid.abstract_tokens, vectors, pyramid.derived)


# --------------------------------------------------------------------------- writing


def article_contexts(conn: Any, article_id: str) -> list[str]:
    """The article's context ids in reading order."""
    rows = conn.execute(
        "SELECT sc.context_id FROM article_sections a JOIN sections_contexts sc ON sc.section_id = a.section_id "
        "WHERE a.article_id = ? ORDER BY a.position, sc.position",
        [article_id],
    )
    return [r[0] for r in rows]


def write_copy(writer: Any, copy: Copy) -> tuple[str, float, float]:
    """Store a copy through the writer and its pyramid through ``store_pyramid``; returns
    (article id, seconds in ``store``, seconds in ``store_pyramid``)."""
    t0 = time.perf_counter()
    article_id = writer.store(
        copy.doc, source_uri=copy.source_uri, sha256=copy.sha256, seconds=0.0, contexts=copy.drafts,
        vectors=db_vectors.ContextVectors(EMBEDDER, DIM, WINDOW, copy.vectors),
    )  # fmt: skip
    t1 = time.perf_counter()
    conn = writer.db.conn
    pyramid = _pyramid_of(conn, article_id, copy.pyramid)
    db_pyramid.store_pyramid(conn, pyramid)
    t2 = time.perf_counter()
    return article_id, t1 - t0, t2 - t1


def _pyramid_of(conn: Any, article_id: str, p: SourcePyramid) -> db_pyramid.ArticlePyramid:
    ids = article_contexts(conn, article_id)
    return db_pyramid.ArticlePyramid(
        article_id=article_id,
        model="corpus-scale:reference" if not p.derived else "corpus-scale:derived",
        prompt_version="corpus-scale",
        insights=[db_pyramid.InsightRow(text, pages, section, tokens, [(ids[ctx], score) for ctx, score in links if ctx < len(ids)])
                  for text, pages, section, tokens, links in p.insights],
        concepts=[db_pyramid.ConceptRow(text, tokens, members) for text, tokens, members in p.concepts],
        abstract=p.abstract,
        abstract_tokens=p.abstract_tokens,
        vectors=db_pyramid.LevelVectors(EMBEDDER, DIM, WINDOW, dict(p.vectors)),
    )  # fmt: skip


def write_batch(writer: Any, copies: Sequence[Copy]) -> tuple[list[str], float, float]:
    """The bulk path: the copies through ``CorpusWriter.store_many`` (one transaction for the
    batch, the text not cleaned again: ingest's workers normalise it), then their pyramids in
    one transaction (``store_pyramids``, as ``distill --import`` stores a batch of files); returns (article ids, seconds storing, seconds in the pyramids)."""
    from paperpyramid.db.writer import ArticleInput

    t0 = time.perf_counter()
    outcomes = writer.store_many([
        ArticleInput(copy.doc, copy.source_uri, copy.sha256, seconds=0.0, contexts=copy.drafts,
                     vectors=db_vectors.ContextVectors(EMBEDDER, DIM, WINDOW, copy.vectors), normalised=True)
        for copy in copies
    ])  # fmt: skip
    t1 = time.perf_counter()
    failed = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    if failed:
        raise failed[0]
    ids = [str(outcome) for outcome in outcomes]
    conn = writer.db.conn  # the pyramids as `distill --import` stores a batch of files: one transaction
    db_pyramid.store_pyramids(conn, [_pyramid_of(conn, article_id, copy.pyramid) for article_id, copy in zip(ids, copies, strict=True)])
    return ids, t1 - t0, time.perf_counter() - t1


def compare_writers(
    out: Path, sources: list[SourceArticle], articles: int, batch: int, *, log: Callable[[str], None] = print
) -> dict[str, Any]:
    """Today's path (``store`` per article, each in its own transaction, its text cleaned again,
    rows through sqlite-utils' ``insert_all``, SQLite's default page cache; then its pyramid) against the bulk path
    (:func:`write_batch`, ``batch`` articles a transaction) on the same full-size copies, into two
    fresh files, in the same run: chunks of ``2 * batch`` copies alternate between the two,
    which goes first alternating too, so that the machine's load falls on both alike. Then the
    indexes an ingest builds after a load (the BM25 index, the vector index), for both files."""
    import sqlite_utils

    from paperpyramid.db.writer import CorpusWriter
    from paperpyramid.tokens import TokenCounter

    class TodaysWriter(CorpusWriter):
        def __init__(self, path: Path, counter: TokenCounter) -> None:
            super().__init__(path, counter)
            self.db.execute("PRAGMA cache_size = -2000")  # SQLite's default, as today's writer had it

        def _insert(self, table: str, rows: Sequence[dict[str, Any]]) -> None:  # the rows as sqlite-utils inserts them
            sqlite_utils.Database(self.db.conn).table(table).insert_all(rows)

    counter = TokenCounter()
    paths = {"today": out / "writers-today.sqlite", "bulk": out / "writers-bulk.sqlite"}
    for path in paths.values():
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    writers = {"today": TodaysWriter(paths["today"], counter), "bulk": CorpusWriter(paths["bulk"], counter)}
    seconds = {name: {"store": 0.0, "pyramid": 0.0} for name in writers}
    loads = [os.getloadavg()[0]]
    written = 0
    while written < articles:
        copies = [make_copy(sources[n % len(sources)], n) for n in range(written + 1, min(written + 2 * batch, articles) + 1)]
        order = ("today", "bulk") if (written // (2 * batch)) % 2 == 0 else ("bulk", "today")
        for name in order:
            if name == "today":
                for copy in copies:
                    _, s_store, s_pyr = write_copy(writers[name], copy)
                    seconds[name]["store"] += s_store
                    seconds[name]["pyramid"] += s_pyr
            else:
                for start in range(0, len(copies), batch):
                    _, s_store, s_pyr = write_batch(writers[name], copies[start : start + batch])
                    seconds[name]["store"] += s_store
                    seconds[name]["pyramid"] += s_pyr
        written += len(copies)
        loads.append(os.getloadavg()[0])
        log(
            f"  {written:,} articles each: today {written / seconds['today']['store']:.1f}/s, bulk {written / seconds['bulk']['store']:.1f}/s (store)"
        )
    result: dict[str, Any] = {"articles": written, "batch": batch, "contexts_per_article": sum(len(s.vectors) for s in sources) / len(sources),
                              "load_average": {"min": min(loads), "max": max(loads), "mean": statistics.mean(loads)}}  # fmt: skip
    for name, writer in writers.items():
        writer.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        writer.close()
        result[name] = {**seconds[name], "store_per_s": written / seconds[name]["store"],
                        "with_pyramid_per_s": written / (seconds[name]["store"] + seconds[name]["pyramid"]),
                        "indexes": maintain_indexes(paths[name]), "file_bytes": paths[name].stat().st_size}  # fmt: skip
    for figure in ("store_per_s", "with_pyramid_per_s"):
        result[f"ratio_{figure}"] = result["bulk"][figure] / result["today"][figure]
    return result


def _mark_recollected(conn: Any, new_articles: Sequence[str], rng: np.random.Generator) -> None:
    """As if the recollections step had run for these articles: flag them, and give every
    second one a recollection linking it with the article before it (a noisy vector)."""
    from paperpyramid.db.pyramid import _transaction

    embedder = db_vectors.find_embedder(conn, EMBEDDER)
    assert embedder is not None
    now = "2026-11-26T00:00:00+00:00"
    with _transaction(conn):
        conn.executemany("UPDATE distillations SET recollected = 1 WHERE article_id = ?", [(a,) for a in new_articles])
        ids, texts, vecs = [], [], []
        for previous, article_id in zip(new_articles, new_articles[1:], strict=False):
            if len(ids) * RECOLLECTION_EVERY >= len(new_articles):
                break
            first = conn.execute("SELECT id, text FROM insights WHERE article_id = ? ORDER BY position LIMIT 1", [article_id]).fetchone()
            abstract = conn.execute("SELECT id FROM abstracts WHERE article_id = ?", [article_id]).fetchone()
            if first is None or abstract is None:
                continue
            blob = conn.execute(
                f"SELECT embedding FROM {db_vectors.level_table(embedder, 'abstracts')} WHERE item_id = ?", [abstract[0]]
            ).fetchone()
            rid = db_pyramid.new_id()
            text = f"{first[1]} (as in the earlier paper)"
            conn.execute(
                "INSERT INTO recollections (id, text, num_tokens, version, model, prompt_version, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
                [rid, text, len(text.split()), 1, "corpus-scale", "corpus-scale", now, now],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO recollections_sources (recollection_id, article_id, insight_id, added_at) VALUES (?,?,?,?)",
                [(rid, article_id, first[0], now), (rid, previous, None, now)],
            )
            ids.append(rid)
            texts.append(text)
            vecs.append(db_vectors.decode([blob[0]], DIM)[0])
        if ids:
            db_vectors.insert_level_vectors(conn, embedder, "recollections", ids, _noisy(np.stack(vecs), rng))


def grow(
    path: Path, sources: list[SourceArticle], target: int, args: argparse.Namespace, *, log: Callable[[str], None] = print
) -> dict[str, Any]:
    """Add copies until the corpus at ``path`` holds ``target`` articles; the writer's
    throughput every ``--chunk`` articles."""
    from paperpyramid.db.writer import CorpusWriter
    from paperpyramid.tokens import TokenCounter

    writer = CorpusWriter(path, TokenCounter())
    conn = writer.db.conn
    have = int(conn.execute("SELECT count(*) FROM articles").fetchone()[0])
    chunks: list[dict[str, float]] = []
    rng = np.random.default_rng(have)
    deadline = args.deadline
    pending: list[str] = []
    t_store = t_pyr = t_make = 0.0
    chunk_start = time.perf_counter()
    started = chunk_start
    c_store = c_pyr = 0.0
    stopped = None
    number = have
    while number < target:
        number += 1
        t0 = time.perf_counter()
        copy = make_copy(sources[number % len(sources)], number, args.contexts_per_copy, args.insights_per_copy)
        t1 = time.perf_counter()
        article_id, s_store, s_pyr = write_copy(writer, copy)
        t_make += t1 - t0
        c_store += s_store
        c_pyr += s_pyr
        pending.append(article_id)
        if number % args.chunk == 0 or number == target:
            _mark_recollected(conn, pending, rng)
            pending = []
            now = time.perf_counter()
            written = number - (chunks[-1]["articles"] if chunks else have)
            chunks.append({
                "articles": number, "writer_articles_per_s": written / (c_store + c_pyr), "wall_articles_per_s": written / (now - chunk_start),
                "store_ms": 1000 * c_store / written, "pyramid_ms": 1000 * c_pyr / written, "file_mb": path.stat().st_size / 2**20,
            })  # fmt: skip
            t_store += c_store
            t_pyr += c_pyr
            c_store = c_pyr = 0.0
            chunk_start = now
            log(
                f"  {number:,} articles: writer {chunks[-1]['writer_articles_per_s']:.1f}/s (store {chunks[-1]['store_ms']:.1f} ms, "
                f"pyramid {chunks[-1]['pyramid_ms']:.1f} ms), wall {chunks[-1]['wall_articles_per_s']:.1f}/s, {chunks[-1]['file_mb']:.0f} MB"
            )
            if deadline and time.time() > deadline:
                stopped = f"stopped at {number:,} articles: the --deadline passed"
                log(stopped)
                break
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    writer.close()
    return {"from": have, "to": number, "seconds": time.perf_counter() - started, "store_s": t_store, "pyramid_s": t_pyr,
            "make_copies_s": t_make, "chunks": chunks, "stopped": stopped}  # fmt: skip


def maintain_indexes(path: Path) -> dict[str, float]:
    """What an ingest does at the end of a pass: the BM25 index's new segment, and the vector index."""
    from paperpyramid.db.writer import connect

    db = connect(path)
    conn = db.conn
    t0 = time.perf_counter()
    with db.atomic():
        lexical_index.maintain(conn)
    t1 = time.perf_counter()
    row = db_vectors.find_embedder(conn, EMBEDDER)
    assert row is not None
    with db.atomic():
        vector_index.build_index(conn, row)
    t2 = time.perf_counter()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return {"bm25_index_s": t1 - t0, "vector_index_s": t2 - t1}


# --------------------------------------------------------------------------- recollections


class InstantLLM:
    """Answers the recollections prompt at once with one recollection linking NEW and P1."""

    name = "fake:instant"
    context_window = 8192

    def count_tokens(self, text: str) -> int:
        return len(text) // 4 + 1

    def complete(self, messages: Sequence[Any], schema: type[Any], *, max_tokens: int = 1024) -> Any:
        from paperpyramid.distill.prompts import RecollectionItem, RecollectionsReply
        from paperpyramid.llm import LLMReply, Usage

        prompt = sum(self.count_tokens(str(m["content"])) for m in messages)
        value = RecollectionsReply(recollections=[RecollectionItem(id=0, text="The new paper and P1 study the same question by different means.",
                                                                    papers=["NEW", "P1"], concept_ids=[1, 2])])  # fmt: skip
        return LLMReply(value=value, usage=Usage(prompt, 40), model=self.name)


class RandomEmbedder:
    """Stands in for MiniLM for the new recollection's vector (the corpus side is measured)."""

    name = EMBEDDER
    dimension = DIM
    window = WINDOW

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def embed_passages(self, texts: Sequence[str]) -> F32:
        return _unit(self.rng.standard_normal((len(texts), DIM)).astype(np.float32))

    def embed_query(self, text: str) -> F32:
        return self.embed_passages([text])[0]

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def measure_recollections(path: Path, sources: list[SourceArticle], probes: int, args: argparse.Namespace) -> dict[str, Any]:
    """Write ``probes`` new articles (through the writer), then time the recollections step of
    each (one at a time, as a new article arrives), with its parts."""
    from paperpyramid.db.writer import CorpusWriter
    from paperpyramid.distill import recollections
    from paperpyramid.settings import DistillSettings
    from paperpyramid.tokens import TokenCounter

    counter = TokenCounter()
    writer = CorpusWriter(path, counter)
    conn = writer.db.conn
    settings = DistillSettings()
    embedder_row = db_vectors.find_embedder(conn, EMBEDDER)
    assert embedder_row is not None
    llm, fake = InstantLLM(), RandomEmbedder()
    totals, earlier_ms, abstracts_ms, recs_ms, shown = [], [], [], [], []
    base = int(conn.execute("SELECT max(rowid) FROM articles").fetchone()[0]) + 10_000_000
    for i in range(probes):
        number = base + i
        article_id, _, _ = write_copy(
            writer, make_copy(sources[number % len(sources)], number, args.contexts_per_copy, args.insights_per_copy)
        )
        # the parts, timed alone first (the step itself runs them again below)
        t0 = time.perf_counter()
        earlier = {r[0] for r in conn.execute("SELECT article_id FROM distillations WHERE status = 'done' AND recollected = 1")}
        t1 = time.perf_counter()
        aid = conn.execute("SELECT id FROM abstracts WHERE article_id = ?", [article_id]).fetchone()[0]
        blob = conn.execute(
            f"SELECT embedding FROM {db_vectors.level_table(embedder_row, 'abstracts')} WHERE item_id = ?", [aid]
        ).fetchone()[0]
        query = db_vectors.decode([blob], DIM)[0]
        near = db_vectors.nearest_items(conn, embedder_row, "abstracts", query, 4 * settings.related + 20 + 1)
        t2 = time.perf_counter()
        db_vectors.nearest_items(conn, embedder_row, "recollections", query, recollections.SHOWN + 1)
        t3 = time.perf_counter()
        changed = recollections.recollect(conn, llm, settings, counter=counter, embedder=fake)
        t4 = time.perf_counter()
        totals.append(t4 - t3)
        earlier_ms.append(1000 * (t1 - t0))
        abstracts_ms.append(1000 * (t2 - t1))
        recs_ms.append(1000 * (t3 - t2))
        shown.append(changed)
    articles = int(conn.execute("SELECT count(*) FROM articles").fetchone()[0])
    abstracts = int(conn.execute("SELECT count(*) FROM abstracts").fetchone()[0])
    recs = int(conn.execute("SELECT count(*) FROM recollections").fetchone()[0])
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    writer.close()
    return {
        "probes": probes, "articles": articles, "abstracts_met": abstracts, "recollections_in_corpus": recs,
        "nearest_abstracts_asked": 4 * settings.related + 20 + 1, "related_shown": settings.related, "recollections_shown": recollections.SHOWN,
        "earlier_articles_read": len(earlier), "nearest_abstracts_found": len(near), "recollections_written": sum(shown),
        "step_ms_p50": 1000 * statistics.median(totals), "step_ms_max": 1000 * max(totals),
        "earlier_set_ms_p50": statistics.median(earlier_ms), "nearest_abstracts_ms_p50": statistics.median(abstracts_ms),
        "nearest_recollections_ms_p50": statistics.median(recs_ms),
    }  # fmt: skip


# --------------------------------------------------------------------------- search


def query_vectors(out: Path, questions: list[str]) -> F32:
    """The questions' MiniLM vectors, embedded once and kept in ``out``."""
    cache = out / "qa-vectors.npy"
    if cache.exists():
        return np.load(cache)
    from paperpyramid.embeddings.minilm import MiniLM

    model = MiniLM()
    vectors = np.stack([model.embed_query(q) for q in questions]).astype(np.float32)
    np.save(cache, vectors)
    return vectors


MODES = ("bm25", "vector", "hybrid", "parent")


def measure_search(path: Path, questions: list[str], qvecs: F32) -> dict[str, Any]:
    from paperpyramid.db import sqlite as db_sqlite
    from paperpyramid.retrieval import api

    class Fixed:  # an Embedder that returns the precomputed query vector
        name = EMBEDDER
        dimension = DIM
        window = WINDOW

        def __init__(self, qv: F32) -> None:
            self.qv = qv

        def embed_query(self, text: str) -> F32:
            return self.qv

    conn = db_sqlite.connect(path, read_only=True)
    results: dict[str, Any] = {}
    for mode in MODES:
        times, empty = [], 0
        for timed in (False, True):
            for q, qv in zip(questions, qvecs, strict=True):
                t0 = time.perf_counter()
                hits = api.retrieve(conn, q, mode=mode, k=10, embedder=Fixed(qv))  # type: ignore[arg-type]
                if timed:
                    times.append(time.perf_counter() - t0)
                    empty += not hits
        results[mode] = {
            "p50_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * _pct(times, 0.95),
            "queries": len(times),
            "empty": empty,
        }
    conn.close()
    return results


# --------------------------------------------------------------------------- snapshot


def _run_timed(cmd: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    out = subprocess.run(["bash", "-c", f"set -o pipefail; {cmd} | wc -c"], capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, int(out.stdout.strip())


def measure_snapshot(
    path: Path, out: Path, questions: list[str], save: Callable[[dict[str, Any]], None] = lambda _: None, shard_by: str | None = None
) -> dict[str, Any]:
    """``take_snapshot`` into a folder (gzip, zstd, then zstd in shards by ``shard_by``), ``Corpus.open``
    of its URL, then other compressors of the file for comparison; ``save`` is called with the
    figures so far after each step."""
    from paperpyramid.db.snapshot import take_snapshot

    folder = out / "snapshots"
    shutil.rmtree(folder, ignore_errors=True)
    # gzip (the snapshot before zstd) then zstd (the default), one after the other: the ratio of the same run
    t0 = time.perf_counter()
    gzipped = take_snapshot(path, out / "snapshots-gzip", compression="gzip")
    gzip_seconds = time.perf_counter() - t0
    shutil.rmtree(out / "snapshots-gzip", ignore_errors=True)
    t0 = time.perf_counter()
    snapshot = take_snapshot(path, folder)
    seconds = time.perf_counter() - t0
    result: dict[str, Any] = {
        "file_bytes": path.stat().st_size, "snapshot_s": seconds, "database_bytes": snapshot.manifest["database"]["size"],
        "zstd_bytes": snapshot.manifest["compressed"]["size"], "snapshot_gzip_s": gzip_seconds,
        "gzip_bytes": gzipped.manifest["compressed"]["size"], "compressors": {},
    }  # fmt: skip
    save(result)
    print(f"  snapshot gzip {gzip_seconds:.0f} s, {result['gzip_bytes'] / 2**30:.2f} GiB; zstd {seconds:.0f} s, "
          f"{result['zstd_bytes'] / 2**30:.2f} GiB ({gzip_seconds / seconds:.1f}x faster)", file=sys.stderr, flush=True)  # fmt: skip
    if shard_by:  # the same corpus in shards (zstd), against the one zstd snapshot above
        t0 = time.perf_counter()
        sharded = take_snapshot(path, out / "snapshots-shards", shard_by=shard_by)
        result["sharded"] = {"by": shard_by, "shards": len(sharded.shards), "s": time.perf_counter() - t0,
                             "zstd_bytes": sum(shard.manifest["compressed"]["size"] for shard in sharded.shards)}  # fmt: skip
        shutil.rmtree(out / "snapshots-shards", ignore_errors=True)
        save(result)
        print(f"  sharded by {shard_by}: {result['sharded']['shards']} shards, {result['sharded']['s']:.0f} s "
              f"({result['sharded']['s'] / seconds:.2f}x one zstd snapshot)", file=sys.stderr, flush=True)  # fmt: skip
    # Corpus.open of the snapshot's URL, served on 127.0.0.1, in a fresh process
    port = 18000 + os.getpid() % 1000
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        time.sleep(1.0)
        url = f"http://127.0.0.1:{port}/{Path(snapshot.uri).name}"
        cache = out / "open-cache"
        shutil.rmtree(cache, ignore_errors=True)
        proc = subprocess.run([sys.executable, __file__, "--open-worker", url, "--out", str(cache), "--question", questions[0]],
                              capture_output=True, text=True, check=False, env={**os.environ, "HF_HUB_OFFLINE": "1"})  # fmt: skip
        line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
        if not line:
            raise RuntimeError(f"open worker failed:\n{proc.stderr[-3000:]}")
        result["open"] = json.loads(line[-1][len("RESULT ") :])
        result["open"]["cache_bytes"] = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file())
        shutil.rmtree(cache, ignore_errors=True)
    finally:
        server.terminate()
        server.wait()
    save(result)
    print(f"  open {json.dumps(result['open'])}", file=sys.stderr, flush=True)
    real = path.resolve()  # the zstd command refuses a symbolic link
    for name, cmd in (("pigz -6 -p 2", f"pigz -6 -p 2 -c {real}"), ("zstd -3 -T2", f"zstd -3 -T2 -c -q {real}")):
        if shutil.which(cmd.split()[0]) is None:
            continue
        secs, size = _run_timed(cmd)
        result["compressors"][name] = {"s": secs, "bytes": size}
        save(result)
        print(f"  {name}: {secs:.0f} s, {size / 2**30:.2f} GiB", file=sys.stderr, flush=True)
    return result


def _open_worker(url: str, cache: Path, question: str) -> None:
    from paperpyramid import Corpus

    t0 = time.perf_counter()
    corpus = Corpus.open(url, cache_dir=cache)
    t1 = time.perf_counter()
    hits = corpus.retrieve(question, mode="bm25", k=10)
    t2 = time.perf_counter()
    hits2 = corpus.retrieve(question + " results", mode="bm25", k=10)
    t3 = time.perf_counter()
    rss = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            rss = int(line.split()[1]) / 1024
    print(
        "RESULT "
        + json.dumps(
            {"open_s": t1 - t0, "first_query_s": t2 - t1, "second_query_s": t3 - t2, "hits": len(hits) + len(hits2), "peak_rss_mb": rss}
        )
    )


# --------------------------------------------------------------------------- report


def report(data: dict[str, Any]) -> str:
    stages = [data["stages"][k] for k in sorted(data["stages"], key=int)]
    lines = ["| articles | contexts | insights | file GiB | MB per 1,000 articles | writer articles/s (store + pyramid), last chunk | store / pyramid ms per article | BM25 index s | vector index s |",
             "|---:|---:|---:|---:|---:|---:|---|---:|---:|"]  # fmt: skip
    for s in stages:
        last = s["build"]["chunks"][-1] if s["build"]["chunks"] else {}
        lines.append(f"| {s['articles']:,} | {s['contexts']:,} | {s['insights']:,} | {s['file_bytes'] / 2**30:.2f} | {s['file_bytes'] / 2**20 / s['articles'] * 1000:.0f} | "
                     f"{last.get('writer_articles_per_s', float('nan')):.1f} | {last.get('store_ms', float('nan')):.1f} / {last.get('pyramid_ms', float('nan')):.1f} | "
                     f"{s['indexes']['bm25_index_s']:.0f} | {s['indexes']['vector_index_s']:.0f} |")  # fmt: skip
    lines += ["", "| articles | recollection step ms p50 (max) | earlier-articles set ms | nearest abstracts ms (k) | nearest recollections ms | abstracts met | recollections in corpus |",
              "|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for s in stages:
        r = s.get("recollections")
        if r:
            lines.append(f"| {r['articles']:,} | {r['step_ms_p50']:.0f} ({r['step_ms_max']:.0f}) | {r['earlier_set_ms_p50']:.0f} | {r['nearest_abstracts_ms_p50']:.0f} ({r['nearest_abstracts_asked']}) | "
                         f"{r['nearest_recollections_ms_p50']:.0f} | {r['abstracts_met']:,} | {r['recollections_in_corpus']:,} |")  # fmt: skip
    lines += ["", "| articles | contexts | " + " | ".join(MODES) + " |", "|---:|---:|" + "---:|" * len(MODES)]
    for s in stages:
        if "search" in s:
            lines.append(
                f"| {s['articles']:,} | {s['contexts']:,} | "
                + " | ".join(f"{s['search'][m]['p50_ms']:.0f} / {s['search'][m]['p95_ms']:.0f}" for m in MODES)
                + " |"
            )
    lines.append("")
    lines.append("Search cells: p50 / p95 ms over the QA questions, k=10, query embedding not included.")
    snap = data.get("snapshot")
    if snap:
        lines += ["", "| what | seconds | GiB |", "|---|---:|---:|", f"| corpus file | | {snap['file_bytes'] / 2**30:.2f} |",
                  f"| take_snapshot (VACUUM INTO + one-stream gzip -6 + sha256) | {snap.get('snapshot_gzip_s', snap['snapshot_s']):.0f} | {snap['gzip_bytes'] / 2**30:.2f} |"]  # fmt: skip
        if "zstd_bytes" in snap:
            lines.append(
                f"| take_snapshot (VACUUM INTO + zstd on every core + sha256) | {snap['snapshot_s']:.0f} | {snap['zstd_bytes'] / 2**30:.2f} |"
            )
        for name, c in snap["compressors"].items():
            lines.append(f"| {name} of the corpus file | {c['s']:.0f} | {c['bytes'] / 2**30:.2f} |")
        o = snap.get("open")
        if o:
            lines.append(
                f"| Corpus.open(http://127.0.0.1/...) (download, verify, gunzip, check) | {o['open_s']:.0f} | cache {o['cache_bytes'] / 2**30:.2f} |"
            )
            lines.append(
                f"| first BM25 query after open (then a second) | {o['first_query_s']:.2f} ({o['second_query_s']:.2f}) | peak RSS {o['peak_rss_mb']:.0f} MB |"
            )
    return "\n".join(lines)


def writers_report(r: dict[str, Any]) -> str:
    """Today's path against the bulk path, as a markdown table."""
    lines = [f"{r['articles']:,} full-size articles (~{r['contexts_per_article']:.0f} contexts) each way, bulk batches of {r['batch']}; "
             f"load average {r['load_average']['min']:.1f}-{r['load_average']['max']:.1f} (mean {r['load_average']['mean']:.1f})", "",
             "| path | store, articles/s | store + pyramid, articles/s | BM25 index s | vector index s | file MB |", "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name in ("today", "bulk"):
        w = r[name]
        lines.append(f"| {name} | {w['store_per_s']:.1f} | {w['with_pyramid_per_s']:.1f} | {w['indexes']['bm25_index_s']:.1f} | "
                     f"{w['indexes']['vector_index_s']:.1f} | {w['file_bytes'] / 2**20:.0f} |")  # fmt: skip
    lines.append(f"| bulk / today | {r['ratio_store_per_s']:.2f}x | {r['ratio_with_pyramid_per_s']:.2f}x | | | |")
    return "\n".join(lines)


def _counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in ("articles", "contexts", "insights", "abstracts")}
    out["recollection_rows"] = int(conn.execute("SELECT count(*) FROM recollections").fetchone()[0])
    conn.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--out", type=Path, default=Path("/tmp/corpus_scale"))
    parser.add_argument("--real", type=Path, default=Path("/tmp/corpus_scale/real.sqlite"),
                        help="a real corpus with all-MiniLM-L6-v2 vectors and the reference distillations imported")  # fmt: skip
    parser.add_argument("--qa", type=Path, default=QA)
    parser.add_argument("--contexts-per-copy", type=int, default=0, help="contexts kept per copy (0: all)")
    parser.add_argument("--insights-per-copy", type=int, default=0, help="insights kept per copy (0: all)")
    parser.add_argument("--chunk", type=int, default=500, help="articles per throughput figure")
    parser.add_argument("--probes", type=int, default=5, help="new articles whose recollections step is timed per stage")
    parser.add_argument("--queries", type=int, default=0, help="only the first N QA questions (0: all)")
    parser.add_argument("--snapshot", action="store_true", help="snapshot and open the last size")
    parser.add_argument("--shard-by", default="year", help="--snapshot also times a snapshot sharded by this column ('': not)")
    parser.add_argument("--deadline", type=float, default=0.0, help="stop growing after this Unix time (0: none)")
    parser.add_argument(
        "--compare-writers",
        type=int,
        default=0,
        metavar="N",
        help="only time the writer: N full-size copies through today's path and through the bulk path, same run",
    )
    parser.add_argument("--write-batch", type=int, default=64, help="articles a transaction on the bulk path (--compare-writers)")
    parser.add_argument("--open-worker", help=argparse.SUPPRESS)
    parser.add_argument("--question", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.open_worker:
        _open_worker(args.open_worker, args.out, args.question)
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "corpus.sqlite"
    json_path = args.out / "corpus_scale.json"
    data: dict[str, Any] = json.loads(json_path.read_text()) if json_path.exists() else {"stages": {}}
    data["settings"] = {"contexts_per_copy": args.contexts_per_copy, "insights_per_copy": args.insights_per_copy, "real": str(args.real)}
    sources = load_sources(args.real)
    print(f"{len(sources)} source articles, {sum(len(s.vectors) for s in sources):,} contexts, "
          f"{sum(not s.pyramid.derived for s in sources)} with a reference distillation", file=sys.stderr, flush=True)  # fmt: skip
    if args.compare_writers:
        compared = compare_writers(
            args.out, sources, args.compare_writers, args.write_batch, log=lambda text: print(text, file=sys.stderr, flush=True)
        )
        data["writers"] = compared
        json_path.write_text(json.dumps(data, indent=1))
        print(writers_report(compared))
        return
    questions = [json.loads(line)["question"] for line in args.qa.read_text().splitlines() if line.strip()]
    if args.queries:
        questions = questions[: args.queries]
    qvecs = query_vectors(args.out, questions)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    for size in [int(s) for s in args.sizes.split(",") if s]:
        log(f"{size:,}: growing {path}")
        build = grow(path, sources, size, args, log=log)
        stage: dict[str, Any] = {"build": build}
        log(f"{size:,}: indexes")
        stage["indexes"] = maintain_indexes(path)
        # search first: the probes' new articles would leave both indexes short of them
        log(f"{size:,}: search {stage['indexes']}")
        stage["search"] = measure_search(path, questions, qvecs)
        log(f"{size:,}: recollections {json.dumps(stage['search'])}")
        stage["recollections"] = measure_recollections(path, sources, args.probes, args)
        log(f"{size:,}: {json.dumps(stage['recollections'])}")
        counts = _counts(path)
        stage.update(counts)
        stage["file_bytes"] = path.stat().st_size
        data["stages"][str(counts["articles"])] = stage
        json_path.write_text(json.dumps(data, indent=1))
        log(report(data))
        if build["stopped"]:
            break
    if args.snapshot:
        log("snapshot")

        def save(result: dict[str, Any]) -> None:
            data["snapshot"] = result
            json_path.write_text(json.dumps(data, indent=1))

        save(measure_snapshot(path, args.out, questions, save, args.shard_by or None))
    print(report(data))


if __name__ == "__main__":
    main()
