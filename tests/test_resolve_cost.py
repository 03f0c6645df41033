"""Resolving a batch's references reads the batch's own entries, not every dangling entry of the
file: its cost stays the same however many references the corpus already holds that name no
article of it (most of a real corpus's bibliography)."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.db import references
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Author, Block, Document, Reference, Section
from paperpyramid.tokens import TokenCounter


def paper(name: str, refs: int) -> Document:
    return Document(
        title=f"The {name} paper on frogs of Sulawesi",
        authors=[Author("Evans BJ")],
        date_published="2015-03-01",
        doi=f"10.5555/{name}",
        sections=[Section("Results", 1, "1", blocks=[Block(f"The {name} results: fertilization is internal.", 1)])],
        references=[
            Reference(f"Other {name} {n}. 2001.", title=f"An unrelated study {name} {n}", year=2001, doi=f"10.9999/{name}.{n}")
            for n in range(refs)
        ],  # fmt: skip
        provenance={"sections": "test"},
    )


def steps_to_resolve(path: Path, article_ids: list[str]) -> int:
    """SQLite's virtual machine steps (in hundreds) that resolving these articles' references takes."""
    conn = sqlite3.connect(path)
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    try:
        conn.set_progress_handler(count, 100)
        references.resolve_batch(conn, article_ids)
    finally:
        conn.close()
    return steps


def test_resolving_a_batch_costs_the_same_however_many_dangling_entries_the_file_holds(tmp_path: Path) -> None:
    counter = TokenCounter()
    measured = []
    for name, earlier in (("small", 0), ("large", 5_000)):
        path = tmp_path / f"{name}.sqlite"
        with CorpusWriter(path, counter) as writer:
            if earlier:
                writer.store(paper("earlier", earlier), source_uri="file:///earlier.pdf", sha256="e" * 64)
            batch = [writer.store(paper(f"new{n}", 20), source_uri=f"file:///new{n}.pdf", sha256=f"{n}" * 64) for n in range(3)]
        measured.append(steps_to_resolve(path, batch))
    small, large = measured
    assert large <= 2 * small + 5, measured  # reading every dangling entry would take over 5,000 rows more
