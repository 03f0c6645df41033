"""A GGUF file's metadata and tensors (format v2/v3, little-endian), read with numpy.

The header is parsed here rather than with ``gguf.GGUFReader``, which builds a numpy view per
vocabulary string and takes 3-4 s to open SmolLM2's 49,152-token file (this takes ~0.1 s).
Quantised tensors are dequantised with llama.cpp's own reference code, ``gguf.quants``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float32]

_MAGIC = b"GGUF"
_SCALARS: dict[int, str] = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_NUMPY: dict[int, str] = {0: "<u1", 1: "<i1", 2: "<u2", 3: "<i2", 4: "<u4", 5: "<i4", 6: "<f4", 7: "<u1", 10: "<u8", 11: "<i8", 12: "<f8"}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True, slots=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]  # numpy order (rows last-to-first of GGUF's ne)
    qtype: int  # a gguf.GGMLQuantizationType value
    offset: int  # from the start of the file


class GGUFFile:
    """Metadata (``metadata["llama.block_count"]``, lists for arrays) and tensors by name."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._raw = np.memmap(path, dtype=np.uint8, mode="r")
        self.metadata: dict[str, Any] = {}
        self.tensors: dict[str, TensorInfo] = {}
        self._parse(memoryview(self._raw))  # type: ignore[arg-type]

    def _parse(self, buffer: memoryview) -> None:
        if bytes(buffer[:4]) != _MAGIC:
            raise ValueError(f"{self.path} is not a GGUF file")
        version, tensor_count, kv_count = struct.unpack_from("<IQQ", buffer, 4)
        if version not in (2, 3):
            raise ValueError(f"{self.path}: GGUF version {version} is not supported (2 or 3)")
        position = 24
        for _ in range(kv_count):
            key, position = _read_string(buffer, position)
            (kind,), position = struct.unpack_from("<I", buffer, position), position + 4
            self.metadata[key], position = _read_value(buffer, position, kind)
        infos: list[tuple[str, tuple[int, ...], int, int]] = []
        for _ in range(tensor_count):
            name, position = _read_string(buffer, position)
            (dims,) = struct.unpack_from("<I", buffer, position)
            shape = struct.unpack_from(f"<{dims}Q", buffer, position + 4)
            qtype, offset = struct.unpack_from("<IQ", buffer, position + 4 + 8 * dims)
            position += 4 + 8 * dims + 12
            infos.append((name, tuple(reversed(shape)), qtype, offset))
        alignment = int(self.metadata.get("general.alignment", 32))
        start = -(-position // alignment) * alignment
        for name, shape, qtype, offset in infos:
            self.tensors[name] = TensorInfo(name, shape, qtype, start + offset)

    def tensor(self, name: str) -> Array:
        """A tensor as float32, dequantised if the file stores it quantised."""
        from gguf import GGML_QUANT_SIZES, GGMLQuantizationType
        from gguf.quants import dequantize

        info = self.tensors[name]
        qtype = GGMLQuantizationType(info.qtype)
        block, size = GGML_QUANT_SIZES[qtype]
        rows = int(np.prod(info.shape[:-1], dtype=np.int64))
        row_bytes = info.shape[-1] // block * size
        data = self._raw[info.offset : info.offset + rows * row_bytes].reshape(rows, row_bytes)
        if qtype == GGMLQuantizationType.F32:
            values = data.view(np.float32)
        elif qtype == GGMLQuantizationType.F16:
            values = data.view(np.float16)
        else:
            values = dequantize(np.asarray(data), qtype)
        return np.ascontiguousarray(values, dtype=np.float32).reshape(info.shape)


def _read_string(buffer: memoryview, position: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("<Q", buffer, position)
    start = position + 8
    return bytes(buffer[start : start + length]).decode("utf-8", errors="replace"), start + length


def _read_value(buffer: memoryview, position: int, kind: int) -> tuple[Any, int]:
    if kind == _STRING:
        return _read_string(buffer, position)
    if kind == _ARRAY:
        item_kind, count = struct.unpack_from("<IQ", buffer, position)
        position += 12
        if item_kind in _NUMPY:
            dtype = np.dtype(_NUMPY[item_kind])
            values = np.frombuffer(buffer, dtype=dtype, count=count, offset=position).tolist()
            return values, position + count * dtype.itemsize
        items = []
        for _ in range(count):
            item, position = _read_value(buffer, position, item_kind)
            items.append(item)
        return items, position
    if kind not in _SCALARS:
        raise ValueError(f"unknown GGUF value type {kind}")
    fmt = _SCALARS[kind]
    (value,) = struct.unpack_from(fmt, buffer, position)
    return value, position + struct.calcsize(fmt)
