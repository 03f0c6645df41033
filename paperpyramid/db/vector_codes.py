"""The two compact codes of the approximate vector index (:mod:`paperpyramid.db.vector_index`),
both scored asymmetrically: the query keeps its floats.

- **Binary codes**, one bit per dimension (above or below the corpus mean: 48 bytes for 384-d),
  scored as the dot product of the centred query with the code read as +-1, one 256-entry table
  per code byte; they rank every vector of the probed lists.
- **4-bit codes**, sixteen levels per dimension between the dimension's 1st and 99th percentile
  (coordinates beyond are clipped), two dimensions a byte (192 bytes for 384-d); scored as the
  cosine of the query with the reconstructed vector, they re-rank the binary codes' shortlist
  (the exact vectors are unit length, so the cosine, not the dot product, estimates their order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]

_LEVELS = 16
_CLIP = 0.01  # the share of each dimension's coordinates left outside its range, at each end
_BLOCK = 256  # codes scored at once: temporaries of ~200 KB at 384-d

_SIGNS = (((np.arange(256)[:, None] >> np.arange(8)) & 1) * 2 - 1).astype(np.float32)  # byte -> its 8 bits as +-1


def binary_codes(data: F32, mean: F32) -> U8:
    """One bit per dimension: is the coordinate above the corpus mean."""
    return np.packbits(data > mean, axis=1, bitorder="little")


def binary_scores(codes: U8, centred: F32) -> F32:
    """The dot product of the centred query with each code read as +-1 per dimension, one
    256-entry table per code byte."""
    padded = np.zeros(codes.shape[1] * 8, dtype=np.float32)
    padded[: len(centred)] = centred
    tables = padded.reshape(-1, 8) @ _SIGNS.T  # (bytes, 256)
    scores = np.zeros(len(codes), dtype=np.float32)
    for byte in range(codes.shape[1]):
        scores += tables[byte].take(codes[:, byte])
    return scores


@dataclass(frozen=True, slots=True)
class Quantiser:
    """Each dimension's lowest level (``low``) and the width of a level (``step``)."""

    low: F32
    step: F32

    @classmethod
    def train(cls, data: F32) -> Quantiser:
        low, high = np.quantile(data, [_CLIP, 1.0 - _CLIP], axis=0).astype(np.float32)
        step = (high - low) / _LEVELS
        return cls(low, np.where(step > 0, step, np.float32(1.0)).astype(np.float32))

    @classmethod
    def from_bytes(cls, low: bytes, step: bytes) -> Quantiser:
        return cls(np.frombuffer(low, dtype=np.float32), np.frombuffer(step, dtype=np.float32))

    def encode(self, data: F32) -> list[bytes]:
        """Each vector's code: a level (0-15) per dimension, two a byte (the even dimension in
        the low half), an odd dimension count padded with a zero level."""
        levels = np.clip(np.floor((data - self.low) / self.step), 0, _LEVELS - 1).astype(np.uint8)
        if levels.shape[1] % 2:
            levels = np.hstack([levels, np.zeros((len(levels), 1), dtype=np.uint8)])
        packed = levels[:, 0::2] | (levels[:, 1::2] << 4)
        return [row.tobytes() for row in packed]

    def cosines(self, codes: Sequence[bytes], query: F32) -> F32:
        """The cosine of ``query`` with each code's vector, whose coordinate ``d`` is ``mid[d] +
        level[d] * step[d]`` (``mid``: the lowest level's middle): dot products and norms taken
        from the levels, the even and the odd dimensions apart, without making the vectors; in
        blocks of :data:`_BLOCK` codes, so that no temporary array is large enough for the C
        allocator to map and unmap it at every call (at 800 codes that costs more than the sums)."""
        packed = np.frombuffer(b"".join(codes), dtype=np.uint8).reshape(len(codes), -1)
        dimension = len(self.low)
        pad = np.zeros(2 * packed.shape[1] - dimension, dtype=np.float32)
        step = np.concatenate([self.step, pad])
        mid = np.concatenate([self.low + self.step / 2, pad])
        weights = np.concatenate([query, pad]) * step
        squares, cross = step * step, 2 * mid * step
        dots = np.empty(len(packed), dtype=np.float32)
        norms = np.empty(len(packed), dtype=np.float32)
        for start in range(0, len(packed), _BLOCK):
            even = (packed[start : start + _BLOCK] & 0x0F).astype(np.float32)
            odd = (packed[start : start + _BLOCK] >> 4).astype(np.float32)
            dots[start : start + _BLOCK] = even @ weights[0::2] + odd @ weights[1::2]
            norms[start : start + _BLOCK] = (
                (even * even) @ squares[0::2] + (odd * odd) @ squares[1::2] + even @ cross[0::2] + odd @ cross[1::2]
            )
        dots += float(query @ mid[:dimension])
        norms += float(mid @ mid)
        scale = np.sqrt(np.maximum(norms, 0)) * float(np.linalg.norm(query))
        cosines: F32 = (dots / np.where(scale > 0, scale, 1.0)).astype(np.float32)
        return cosines


__all__: Sequence[str] = ["Quantiser", "binary_codes", "binary_scores"]
