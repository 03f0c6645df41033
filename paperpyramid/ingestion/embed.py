"""Embedding the corpus: every context without a vector from the active model gets one.

Incremental and resumable: contexts are taken in storage order, a batch at a time, and each
batch's vectors are committed in one transaction, so ``kill -9`` loses at most the batch in
flight and a re-run embeds exactly what is still missing. Vectors of other models stay. At the
end the approximate vector index is brought up to date for a large corpus; until then (and
whenever vectors were added since, by ingest) search is exact, so nothing is missed.

A vector the model cannot give (null, of the wrong length, NaN, infinite or all zeros:
:class:`~paperpyramid.embeddings.BadVectors`) is refused and its context counted as failed; the
batch's other vectors are stored and the run goes on. A batch with no usable vector at all
stops the run (the model or endpoint is broken): a re-run tries what is missing again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.embeddings import BadVectors, Embedder

#: from this many contexts on, ``embed`` builds the approximate vector index: below it, exact
#: search takes under ~50 ms (9 ms at 10k, 81 ms at 100k on 2 cores; benchmarks/search_scale.py)
INDEX_MIN = 50_000


@dataclass(slots=True)
class EmbedSummary:
    embedder: str
    embedded: int  # contexts embedded by this run
    total: int  # contexts in the corpus
    seconds: float
    indexed: bool = False  # the approximate vector index was brought up to date
    failed: int = 0  # contexts whose vector was refused (null, wrong length, NaN, infinite, zero)
    first_error: str | None = None  # why the first refused vector was refused
    stopped: str | None = None  # why the run ended early: a batch with no usable vector

    @property
    def passages_per_second(self) -> float:
        return self.embedded / self.seconds if self.seconds > 0 else 0.0


def embed_corpus(
    db_path: str | Path,
    embedder: Embedder,
    *,
    batch_size: int = 64,
    index_min: int | None = INDEX_MIN,
    storage: db_vectors.VectorStorage = db_vectors.DEFAULT_STORAGE,
    on_start: Callable[[int], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> EmbedSummary:
    """Embed every context of the corpus at ``db_path`` that has no vector from ``embedder``.

    ``on_start`` gets the number of contexts to embed, ``on_batch`` the contexts of each batch
    done (refused ones included). Then the model's approximate index is brought up to date, when the corpus holds
    at least ``index_min`` contexts or the index exists already (None: only then). A model new
    to the corpus has its vectors stored as ``storage`` (``settings.embedding.vector_storage``).
    """
    started = time.monotonic()
    summary = EmbedSummary(embedder.name, 0, 0, 0.0)
    with CorpusWriter(db_path) as writer:
        missing, summary.total = db_vectors.missing_vectors(writer.db.conn, embedder.name)
        if on_start is not None:
            on_start(missing)
        last_rowid = 0
        while True:
            row = db_vectors.find_embedder(writer.db.conn, embedder.name)
            batch = db_vectors.contexts_without_vectors(writer.db.conn, row, batch_size, last_rowid)
            if not batch:
                break
            last_rowid = batch[-1][0]  # a refused context is not asked for again in this run
            ids = [context_id for _, context_id, _ in batch]
            try:
                vectors = embedder.embed_passages([text for _, _, text in batch])
            except BadVectors as exc:
                summary.failed += len(exc.refused)
                summary.first_error = summary.first_error or str(exc)
                if len(exc.refused) == len(batch):
                    summary.stopped = str(exc)
                    break
                refused = set(exc.refused)
                keep = [index for index in range(len(batch)) if index not in refused]
                vectors, ids = exc.vectors[keep], [ids[index] for index in keep]
            writer.add_vectors(db_vectors.ContextVectors(embedder.name, embedder.dimension, embedder.window, vectors, storage), ids)
            summary.embedded += len(ids)
            if on_batch is not None:
                on_batch(len(batch))
        row = db_vectors.find_embedder(writer.db.conn, embedder.name)
        summary.indexed = row is not None and (
            index_min is not None and summary.total >= index_min or vector_index.index_status(writer.db.conn, row).exists
        )
        if summary.indexed:
            assert row is not None
            with writer.db.atomic():
                vector_index.build_index(writer.db.conn, row)
    summary.seconds = time.monotonic() - started
    return summary
