"""Embedding the corpus: every context without a vector from the active model gets one.

Incremental and resumable: contexts are taken in storage order, a batch at a time, and each
batch's vectors are committed in one transaction, so ``kill -9`` loses at most the batch in
flight and a re-run embeds exactly what is still missing. Vectors of other models stay. At the
end the approximate vector index is brought up to date for a large corpus; until then (and
whenever vectors were added since, by ingest) search is exact, so nothing is missed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.embeddings import Embedder

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

    @property
    def passages_per_second(self) -> float:
        return self.embedded / self.seconds if self.seconds > 0 else 0.0


def embed_corpus(
    db_path: str | Path,
    embedder: Embedder,
    *,
    batch_size: int = 64,
    index_min: int | None = INDEX_MIN,
    on_start: Callable[[int], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> EmbedSummary:
    """Embed every context of the corpus at ``db_path`` that has no vector from ``embedder``.

    ``on_start`` gets the number of contexts to embed, ``on_batch`` the size of each batch
    committed. Then the model's approximate index is brought up to date, when the corpus holds
    at least ``index_min`` contexts or the index exists already (None: only then).
    """
    started = time.monotonic()
    embedded = 0
    with CorpusWriter(db_path) as writer:
        missing, total = db_vectors.missing_vectors(writer.db.conn, embedder.name)
        if on_start is not None:
            on_start(missing)
        last_rowid = 0
        while True:
            row = db_vectors.find_embedder(writer.db.conn, embedder.name)
            batch = db_vectors.contexts_without_vectors(writer.db.conn, row, batch_size, last_rowid)
            if not batch:
                break
            last_rowid = batch[-1][0]
            vectors = embedder.embed_passages([text for _, _, text in batch])
            writer.add_vectors(
                db_vectors.ContextVectors(embedder.name, embedder.dimension, embedder.window, vectors),
                [context_id for _, context_id, _ in batch],
            )
            embedded += len(batch)
            if on_batch is not None:
                on_batch(len(batch))
        row = db_vectors.find_embedder(writer.db.conn, embedder.name)
        indexed = row is not None and (index_min is not None and total >= index_min or vector_index.index_status(writer.db.conn, row).exists)
        if indexed:
            assert row is not None
            with writer.db.atomic():
                vector_index.build_index(writer.db.conn, row)
    return EmbedSummary(embedder.name, embedded, total, time.monotonic() - started, indexed)
