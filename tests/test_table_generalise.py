"""Tables the engine was not tuned on: generated papers of the synthetic set's dev split (seeds under
1000, never held-out ones), parsed whole, their tables scored against the generator's gold."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Document
from paperpyramid.eval.synthetic import Style, generate
from paperpyramid.eval.synthetic.scoring import TableResult, extracted_tables, score_paper
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.tokens import TokenCounter


def _parse(tmp_path: Path, seed: int, style: Style) -> tuple[Document, list[TableResult]]:
    data, gold = generate(seed, style)
    path = tmp_path / f"dev-{seed}-{style}.pdf"
    path.write_bytes(data)
    document = parse_pdf(path)
    return document, score_paper(gold, extracted_tables(document)).tables


@pytest.mark.parametrize(
    ("seed", "style", "what"),
    [
        (119, "unruled", "a caption below an unruled table: the table is read over the caption, not the prose under it"),
        (73, "booktabs", "a narrow ruled table on a one-column page ends where the running text starts"),
        (41, "tight_numeric", "numbers and header words set a few points apart are cells of their own"),
        (40, "multiline", "a header set tight over the columns is cut at the gaps between its words"),
    ],
)
def test_captioned_tables_read_whole(tmp_path: Path, seed: int, style: Style, what: str) -> None:
    _, [table] = _parse(tmp_path, seed, style)
    assert table.exact_cell_recall >= 0.9, what


def test_table_without_caption_is_found_and_stored(tmp_path: Path) -> None:
    document, [table] = _parse(tmp_path, 128, "unruled")
    assert table.exact_cell_recall == 1.0 and table.extracted_shape == table.gold_shape
    [found] = document.tables
    assert (found.label, found.caption) == (None, "")
    # its cells are not also left in the text as paragraphs
    paragraphs = " ".join(block.text for section in document.sections for block in section.blocks if block.kind == "paragraph")
    assert found.cells[1][0] not in paragraphs
    with CorpusWriter(tmp_path / "corpus.db", TokenCounter()) as writer:
        article = writer.add_document(document, source_uri=str(tmp_path / "dev-128-unruled.pdf"), sha256="0" * 64)
        stored = writer.db.execute("select label, caption, cells from tables where article_id = ?", [article]).fetchall()
    assert len(stored) == 1 and stored[0][0] is None and stored[0][1] == ""


@pytest.mark.parametrize("seed", [8, 17, 26, 35])
def test_prose_and_figures_make_no_table(tmp_path: Path, seed: int) -> None:
    document, _ = _parse(tmp_path, seed, "no_table")
    assert document.tables == []
