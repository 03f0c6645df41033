"""The generated table test set: deterministic papers whose gold is what they print, two
disjoint splits, and a scorer that pairs and scores tables as ``eval parse`` does."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from benchmarks.synthetic import DEV, HELDOUT, STYLES, TABLE_STYLES, generate, split_of
from benchmarks.synthetic.papers import GoldTable, PaperGold
from benchmarks.synthetic.scoring import ExtractedTable, papers_of, render_results, run_split, score_paper
from paperpyramid.eval.table_scores import TableGrid, normalise_cell


def _page_texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        texts = []
        for page in document:
            textpage = page.get_textpage()
            texts.append(normalise_cell(textpage.get_text_range()))
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


@pytest.mark.parametrize("style", STYLES)
def test_the_same_seed_gives_the_same_bytes_and_gold(style: str) -> None:
    first, second, other = generate(7 * 9, style), generate(7 * 9, style), generate(8 * 9, style)  # type: ignore[arg-type]
    assert first == second
    assert first[0] != other[0]


@pytest.mark.parametrize("seed", [3, 40, 100_003, 100_040])
@pytest.mark.parametrize("style", TABLE_STYLES)
def test_every_gold_cell_is_printed_on_the_tables_pages(seed: int, style: str) -> None:
    pdf, gold = generate(seed, style)  # type: ignore[arg-type]
    (table,) = gold.tables
    texts = _page_texts(pdf)
    assert min(table.pages) >= 1 and max(table.pages) <= gold.pages == len(texts)
    printed = " ".join(texts[page - 1] for page in table.pages)
    squeezed = re.sub(r"\s+", "", printed)
    words = set(printed.split())
    cells = [normalise_cell(cell) for row in table.grid.rows for cell in row if cell.strip()]
    assert cells
    for cell in cells:
        # a wrapped cell has other cells' text between its lines: its words must be there
        assert re.sub(r"\s+", "", cell) in squeezed or set(cell.split()) <= words, cell
    width = len(table.grid.rows[0])
    assert all(len(row) == width for row in table.grid.rows)
    if table.caption_position != "none":
        assert table.grid.label is not None
        assert re.sub(r"\s+", "", normalise_cell(table.grid.caption)) in re.sub(r"\s+", "", " ".join(texts))
    else:
        assert table.grid.label is None and table.grid.caption == ""
    if style == "two_page":
        assert len(table.pages) == 2 and table.pages[1] == table.pages[0] + 1
    else:
        assert len(table.pages) == 1


def test_a_paper_without_a_table_has_no_gold_table_and_the_caption_positions_go_round() -> None:
    for seed in range(8, 8 + 9 * 4, 9):
        _, gold = generate(seed, "no_table")
        assert gold.tables == ()
    positions = [generate(seed, "ruled")[1].tables[0].caption_position for seed in range(0, 36, 9)]
    assert sorted(positions) == ["above", "above", "below", "none"]


def test_the_splits_are_disjoint_and_held_out_draws_what_dev_never_does() -> None:
    assert not set(DEV.seeds) & set(HELDOUT.seeds)
    assert split_of(999).name == "dev" and split_of(100_000).name == "heldout"
    with pytest.raises(ValueError, match="in no split"):
        generate(5000, "ruled")
    for field in ("page_sizes", "topics", "table_sizes", "rule_widths", "caption_forms", "continued_forms"):
        assert not set(getattr(DEV, field)) & set(getattr(HELDOUT, field)), field
    assert HELDOUT.columns[0] > DEV.columns[1]
    _, gold = generate(100_001, "booktabs")
    look = dict(gold.look)
    assert look["page"] == "595.28x841.89" and look["topic"] in HELDOUT.topics
    assert float(look["table_font"].split()[-1]) in HELDOUT.table_sizes
    dev_seeds = {seed for seed, _ in papers_of("dev", 20)}
    held_seeds = {seed for seed, _ in papers_of("heldout", 20)}
    assert not dev_seeds & held_seeds and len(dev_seeds) == 20 * len(STYLES)


# --------------------------------------------------------------------------- the scorer


def _gold(caption: str | None = "Mean biomass by habitat and season", pages: tuple[int, ...] = (1,)) -> PaperGold:
    rows = (("Habitat", "Biomass", "pH"), ("Heathland", "801.4", "5.12"), ("Hedgerow", "705.0", "\u2013"), ("Alder carr", "688.2", "6.40"))
    grid = TableGrid("Table 2" if caption else None, caption or "", rows)
    return PaperGold(0, "dev", "booktabs", (GoldTable(grid, pages, "above" if caption else "none"),), (), max(pages), ())


def _extracted(grid: TableGrid, page: int = 1, **changes: object) -> ExtractedTable:
    return ExtractedTable(replace(grid, **changes), page)  # type: ignore[arg-type]


def test_a_perfect_prediction_scores_one_and_a_corrupted_one_less() -> None:
    gold = _gold()
    grid = gold.tables[0].grid
    perfect = score_paper(gold, [_extracted(grid, label="2", caption="Table 2. Mean biomass by habitat and season")])
    (score,) = perfect.tables
    assert (score.paired_by, score.exact_cell_recall, score.cell_text_recall, score.structure, score.same_shape) == (
        "label",
        1.0,
        1.0,
        1.0,
        True,
    )
    assert perfect.false_tables == []
    # a row lost, two cells merged into one, a minus read as a hyphen (that one still counts)
    rows = (("Habitat", "Biomass", "pH"), ("Heathland 801.4", "5.12"), ("Hedgerow", "705.0", "-"))
    corrupted = score_paper(gold, [_extracted(grid, label="2", rows=rows)])
    (score,) = corrupted.tables
    assert score.detected and not score.same_shape
    assert score.exact_cell_recall == pytest.approx(7 / 12)
    assert score.exact_cell_recall < score.cell_text_recall < 1.0
    assert 0.0 < score.structure < 1.0


def test_a_table_without_a_caption_is_found_by_its_cells_and_prose_is_a_false_table() -> None:
    gold = _gold(caption=None)
    grid = gold.tables[0].grid
    prose = TableGrid(
        "4", "Table 4 summarises the main results", (("We studied 377 nesting sites over 3 years", "using occupancy modelling"),)
    )
    result = score_paper(gold, [ExtractedTable(prose, 1), _extracted(grid, label="1", caption="Table 1. Something else")])
    (score,) = result.tables
    assert score.paired_by == "content" and score.exact_cell_recall == 1.0
    assert [table.label for table in result.false_tables] == ["4"]
    assert score_paper(gold, [_extracted(grid, page=2)]).tables[0].detected is False  # the gold's pages only


def test_a_table_over_two_pages_is_joined_from_its_pieces_without_the_repeated_header() -> None:
    gold = _gold(pages=(1, 2))
    grid = gold.tables[0].grid
    first = _extracted(grid, 1, label="2", caption="Table 2. Mean biomass by habitat and season", rows=grid.rows[:3])
    second = _extracted(grid, 2, label="2", caption="Table 2 (continued)", rows=(grid.rows[0], grid.rows[3]))
    result = score_paper(gold, [first, second])
    (score,) = result.tables
    assert (score.pieces, score.exact_cell_recall, score.same_shape) == (2, 1.0, True)
    assert result.false_tables == []
    lone = score_paper(replace(gold, tables=(), style="no_table"), [first])
    assert lone.tables == [] and len(lone.false_tables) == 1


def test_the_parser_on_generated_papers_reports_per_style() -> None:
    results = run_split([(0, "ruled"), (8, "no_table")])
    assert [result.error for result in results] == [None, None]
    ruled = results[0].tables[0]
    assert ruled.detected and ruled.paired_by == "label"  # captioned above: "Table N." finds it
    lines = render_results("dev", results)
    assert any(line.split()[:3] == ["ruled", "1", "1"] for line in lines)
    assert any(line.split()[:3] == ["no_table", "1", "0"] for line in lines)
    assert lines[-1].startswith("dev: exact-cell recall")


@pytest.mark.slow
def test_the_benchmark_runs_from_outside_the_repository(tmp_path: Path) -> None:
    """The generators live beside the benchmarks, not in the package: the script finds them from anywhere."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "unseen_tables.py"
    result = subprocess.run(
        [sys.executable, str(script), "--split", "dev", "--n", "1"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    # one paper per style, eight of the nine styles with a table
    assert "unseen tables (dev, generated)" in result.stdout and "over 8 tables" in result.stdout
