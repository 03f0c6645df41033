"""`paperpyramid eval parse` scores tables against the JATS gold: found, cells right, shape right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperpyramid.eval.parse import evaluate, render_report, report_to_json
from paperpyramid.eval.table_scores import (
    TableGrid,
    caption_similarity,
    label_key,
    load_gold_tables,
    normalise_cell,
    pair_tables,
    render_tables,
    score_tables,
    summarise_tables,
    tables_to_json,
)
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import GOLD, SAMPLE

PLOS = "plos-one-2014-fanged-frog-internal-fertilization.pdf"
MDPI = "mdpi-metabolites-2014-durum-wheat-volatiles.pdf"

SPANNED_JATS = """<?xml version="1.0" encoding="UTF-8"?>
<article><body><sec><title>Results</title><p>See Table 2.</p>
  <table-wrap id="t2"><label>Table 2.</label><caption><title>Clutch size by site.</title></caption>
    <table>
      <thead><tr><th rowspan="2">Site</th><th colspan="2">Eggs</th></tr>
             <tr><th>Mean</th><th>SD</th></tr></thead>
      <tbody><tr><td>Sulawesi</td><td>&#8722;1.5</td><td>0.2</td></tr></tbody>
    </table>
  </table-wrap>
</sec></body></article>
"""


def grid(label: str | None, caption: str, *rows: tuple[str, ...]) -> TableGrid:
    return TableGrid(label, caption, tuple(rows))


def test_gold_tables_from_jats_expand_spans_into_a_rectangle(tmp_path: Path) -> None:
    path = tmp_path / "spans.nxml"
    path.write_text(SPANNED_JATS, encoding="utf-8")
    (table,) = load_gold_tables(path)
    assert label_key(table.label) == "2"
    assert table.caption == "Clutch size by site."
    # the rowspan's text once, top-left; the cells it covers empty; every row as wide
    assert table.rows == (("Site", "Eggs", ""), ("", "Mean", "SD"), ("Sulawesi", "\u22121.5", "0.2"))
    assert table.shape == (3, 3)
    assert load_gold_tables(tmp_path / "paper.tei.xml") == []  # TEI gold is GROBID's output, not table gold


@pytest.mark.parametrize(
    ("label", "key"),
    [("Table 2", "2"), ("Table 2.", "2"), ("2", "2"), ("TABLE 10:", "10"), ("Table S1", "s1"), ("Tab. 3", "3"), ("", None), (None, None)],
)
def test_label_key(label: str | None, key: str | None) -> None:
    assert label_key(label) == key


def test_normalisation_unifies_dashes_and_spaces_but_keeps_case() -> None:
    assert normalise_cell(" \u22121.5 ") == normalise_cell("-1.5") == "-1.5"
    assert normalise_cell("10\u201320") == normalise_cell("10\u201420") == "10-20"
    assert normalise_cell("Males\n (31)") == "Males (31)"
    assert normalise_cell("\ufb01sh") == "fish"  # a PDF's ligature
    assert normalise_cell("D-Limonene") != normalise_cell("d-Limonene")


def test_cell_recalls_and_structure_on_a_small_grid() -> None:
    gold = grid("1", "Eggs", ("Site", "Mean", "SD"), ("North", "0", "\u22121.5"), ("South", "0", "2.0"))
    # the first two columns merged on one row, one "0" of two lost, an extra empty row
    extracted = grid("1", "Eggs", ("Site", "Mean", "SD"), ("North 0", "-1.5", ""), ("South", "0", "2.0"), ("", "", ""))
    (score,) = score_tables("x.pdf", [gold], [extracted]).scores
    assert score.detected and score.paired_by == "label"
    assert score.gold_cells == 9
    assert score.exact_cell_recall == pytest.approx(7 / 9)  # "North" and the second "0" are not cells of their own
    assert score.cell_text_recall == 1.0  # but every gold text is in the table
    assert score.structure == pytest.approx(3 / 4 * 3 / 3)
    assert (score.gold_shape, score.extracted_shape) == ((3, 3), (4, 3))


def test_pairing_by_label_then_caption_and_prose_left_unpaired() -> None:
    gold = [
        grid("Table 1", "Mean body size of fanged frogs by sex", ("a",)),
        grid("Table 2", "Clutch size of fanged frogs by site", ("b",)),
        grid("Table 3", "Museum specimens examined in this study", ("c",)),
    ]
    extracted = [
        grid("1", "Table 1, we show that the females are larger than males", ("prose",)),
        grid(None, "Clutch size of fanged frogs by site and by year", ("b",)),
        grid("1", "Table 1. Mean body size of fanged frogs by sex", ("a",)),
    ]
    pairing = pair_tables(gold, extracted)
    assert pairing.pieces == [[2], [1], []]
    assert pairing.paired_by == ["label", "caption", None]
    assert pairing.unpaired == [0]  # prose with a table's label is not taken for the table


def test_a_table_over_two_pages_is_scored_as_one() -> None:
    gold = [grid("Table 4", "Pressures related to forests and pastures", ("Forest", "1"), ("Pasture", "2"), ("Meadow", "3"))]
    extracted = [
        grid("4", "Table 4 Pressures related to forests and pastures", ("Forest", "1"), ("Pasture", "2")),
        grid("4", "Table 4 Pressures related to forests and pastures (Continued)", ("Meadow", "3")),
    ]
    paper = score_tables("x.pdf", gold, extracted)
    (score,) = paper.scores
    assert (score.pieces, score.exact_cell_recall, score.extracted_shape) == (2, 1.0, (3, 2))
    assert paper.unpaired == []


def test_missed_and_imaged_gold_tables() -> None:
    gold = [grid("Table 1", "Frogs", ("a", "b")), grid("Table 2", "An image of a table")]
    paper = score_tables("x.pdf", gold, [])
    missed, imaged = paper.scores
    assert not missed.detected and (missed.exact_cell_recall, missed.cell_text_recall, missed.structure) == (0.0, 0.0, 0.0)
    assert imaged.exact_cell_recall is None and imaged.structure is None  # no cells to recall
    summary = summarise_tables([paper])
    assert (summary.gold_tables, summary.detected, summary.detection_recall, summary.mean_exact_cell_recall) == (2, 0, 0.0, 0.0)


def test_teds_of_found_missed_and_imaged_tables() -> None:
    gold = [
        grid("Table 1", "Eggs", ("Site", "Mean", "SD"), ("North", "\u22121.5", "0.2")),  # 1 + 2 + 6 = 9 nodes
        grid("Table 2", "Frogs", ("a", "b")),
        grid("Table 3", "An image of a table"),
    ]
    same = grid("1", "Eggs", ("Site", "Mean", "SD"), ("North", "-1.5", "0.2"))  # the minus is normalised away
    (score,) = score_tables("x.pdf", gold[:1], [same]).scores
    assert (score.teds, score.teds_structure) == (1.0, 1.0)
    # the second row shifted right by an empty cell, its last cell lost: one insertion, one deletion
    shifted = grid("1", "Eggs", ("Site", "Mean", "SD"), ("", "North", "-1.5"))
    paper = score_tables("x.pdf", gold, [shifted])
    found, missed, imaged = paper.scores
    assert found.teds == pytest.approx(7 / 9) and found.teds_structure == 1.0
    assert (missed.teds, missed.teds_structure) == (0.0, 0.0)
    assert (imaged.teds, imaged.teds_structure) == (None, None)
    summary = summarise_tables([paper])
    assert summary.mean_teds == pytest.approx(7 / 18) and summary.mean_teds_structure == 0.5
    lines = render_tables([paper])
    assert lines[2].split() == ["pdf", "label", "gold", "extracted", "exact", "text", "structure", "teds", "teds-s", "paired"]
    assert lines[3].split()[-3:] == ["0.78", "1.00", "label"]
    assert "mean TEDS 0.39, mean TEDS-Struct 0.50," in lines[-1]
    data = tables_to_json([paper])
    assert data["overall"]["mean_teds_structure"] == 0.5
    assert [row["teds"] for row in data["tables"]] == [pytest.approx(7 / 9), 0.0, None]


def test_caption_similarity_forgives_a_cut_caption_not_a_short_one() -> None:
    full = "Summary of univariate morphological variation among mensural characters"
    assert caption_similarity(full, "Table 1. Summary of univariate morphological variation") == 1.0
    assert caption_similarity("Table 1", "Table 1") == 0.0  # no words beyond the label to compare
    # two tables of one paper share words without being one table
    assert caption_similarity("Mean body size of fanged frogs by sex", "Clutch size of fanged frogs by site") < 0.7


@pytest.mark.slow
def test_eval_parse_reports_tables_of_the_bundled_papers(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    assert ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    report = evaluate(GOLD, db)
    scores = {score.pdf: score for paper in report.tables for score in paper.scores}
    assert set(scores) == {PLOS, MDPI}  # one table each; the BMC paper has no gold
    for score in scores.values():
        assert score.detected and score.paired_by == "label"
        assert score.exact_cell_recall is not None and score.cell_text_recall is not None
        assert score.exact_cell_recall <= score.cell_text_recall  # a cell found exact is found as text
    plos, mdpi = scores[PLOS], scores[MDPI]
    assert (plos.gold_shape, plos.gold_cells) == ((44, 4), 172)
    assert plos.exact_cell_recall is not None and plos.exact_cell_recall >= 0.95
    assert plos.structure is not None and plos.structure >= 0.95
    assert mdpi.gold_shape == (30, 3)
    assert mdpi.cell_text_recall is not None and mdpi.cell_text_recall >= 0.95  # every compound's text is there
    # the table engine reads its columns as printed (the parser's own cells shifted them: 0.36)
    assert mdpi.exact_cell_recall is not None and mdpi.exact_cell_recall >= 0.9 and mdpi.extracted_shape == (30, 3)
    text = render_report(report)
    assert "tables: detection recall 1.00 (of 2), mean exact-cell recall " in text
    assert ", mean TEDS " in text and ", mean TEDS-Struct " in text
    assert plos.teds is not None and plos.teds_structure is not None and plos.teds <= plos.teds_structure
    assert "extracted tables unpaired" in text
    assert f"{PLOS}  Table 1  44x4" in text
    data = json.loads(json.dumps(report_to_json(report)))
    assert data["tables"]["overall"]["detection_recall"] == 1.0
    assert {row["pdf"] for row in data["tables"]["tables"]} == {PLOS, MDPI}


def test_the_census_counts_every_stored_table_and_names_the_prose() -> None:
    from paperpyramid.eval.table_scores import render_census, table_census

    prose = TableGrid(
        "3",
        "Table 3: Comparison.",
        (("the most co-viewed (co-read, or co-cited) papers",), ("corresponding to the query paper. We also include",)),
    )
    table = TableGrid("2", "Table 2: Ablations.", (("", "CLS", "USR"), ("SPECTER", "84.2", "88.4")))
    census = table_census({"a.pdf": [prose, table], "b.pdf": [TableGrid("1", "Table 1", ())]})
    assert (census.tables, census.empty, census.prose) == (3, 1, ("a.pdf: Table 3: Comparison.",))
    assert render_census(census)[0] == "stored tables (every article): 3, 1 without cells, 1 reading as prose"
