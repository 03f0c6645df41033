"""``benchmarks/metadata_real.py`` scores a paper the parser refuses as a miss and goes on: one
unreadable PDF of batch 10 (spatstat's, before its bitmap fonts were read) stopped the whole run.
Against a truth read by hand, it counts the fields found where the page prints none."""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks.synthetic.canvas import Canvas
from paperpyramid.eval.metadata import Metadata
from tests.title_pages import body, centred, write_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from metadata_real import render, run  # noqa: E402


def test_a_refused_paper_is_a_miss_with_its_reason_and_the_run_goes_on(tmp_path: Path) -> None:
    refused = tmp_path / "refused.pdf"
    refused.write_bytes(b"<html>not a paper</html>")
    result = run([(refused, Metadata(title="A Title", authors=["Ann Berg"]))])
    assert result["accuracy"]["title"] == 0.0 and result["accuracy"]["authors"] == 0.0
    assert any(miss.startswith("refused.pdf refused: ") and "no %PDF header" in miss for miss in result["misses"])


def test_a_field_found_where_the_page_prints_none_is_counted_for_a_hand_read_truth(tmp_path: Path) -> None:
    # a drawn title page with a byline: a truth read by hand that says "no author is printed" (an empty list)
    # is asked whether the parser found one anyway; a JATS truth, whose missing field says nothing, is not
    canvas = Canvas(612, 792)
    centred(canvas, 160, "A Guide to Interval Arithmetic", "Times-Bold", 18)
    centred(canvas, 200, "Ann Berg and Carl Dahl", "Times-Roman", 12)
    body(canvas, 260)
    page = write_page(tmp_path, canvas)
    truth = Metadata(title="A Guide to Interval Arithmetic", authors=[])
    hand = run([(page, truth)], read_by_hand=True)
    assert hand["invented"]["authors"] == [1, 1] and hand["invented"]["journal"] == [0, 1]
    assert any(miss.startswith("page.pdf authors where the page prints none: ['Ann Berg', 'Carl Dahl']") for miss in hand["misses"])
    assert "found where the page prints none (papers): authors 1/1" in render("unseen", hand)
    jats = run([(page, truth)])
    assert jats["invented"] == {} and jats["misses"] == []
