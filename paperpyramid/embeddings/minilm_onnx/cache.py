"""ONNX Runtime sessions of MiniLM from graphs optimised once and kept on disk.

Writing the graph from the weights and letting ONNX Runtime optimise it takes seconds (4 to 5
on a loaded 2-core VM) in every process that embeds, every ingest worker included; loading the
optimised graph a previous process saved takes under one. A saved graph is named by a key over
what made it: the ONNX Runtime and onnx versions, the source of :mod:`.graph`, float32 or int8,
and the weights file (path, size, modification time). When any of them changes the key changes,
the graph is written again and the stale file of the same kind is removed.

Graphs are saved at ONNX Runtime's *extended* level (fusions that hold on any CPU); the layout
optimisations of level *all*, which depend on the machine, are applied again at each load.
Where the folder cannot be written the session is built in memory, as before, with a warning.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/paperpyramid/onnx`` (``~/.cache`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "paperpyramid" / "onnx"


def graph_key(weights: Path, *, int8: bool) -> str:
    """What a saved graph was made from, hashed: runtime and onnx versions, the graph writer's
    source, the precision and the weights file's path, size and modification time."""
    import onnx
    import onnxruntime

    from paperpyramid.embeddings.minilm_onnx import graph

    stat = weights.stat()
    digest = hashlib.sha256()
    for part in (
        onnxruntime.__version__,
        onnx.__version__,
        "int8" if int8 else "float32",
        str(weights.resolve()),
        str(stat.st_size),
        str(stat.st_mtime_ns),
    ):
        digest.update(part.encode() + b"\0")
    digest.update(Path(graph.__file__).read_bytes())
    return digest.hexdigest()[:20]


def cached_graph_path(cache_dir: Path, weights: Path, *, int8: bool) -> Path:
    """Where the optimised graph of these weights and this runtime is (or will be) saved."""
    return cache_dir / f"minilm-{'int8' if int8 else 'float32'}-{graph_key(weights, int8=int8)}.onnx"


def load_session(options: Any, build: Callable[[], bytes], cache_dir: Path, weights: Path, *, int8: bool) -> Any:
    """An ``InferenceSession`` with ``options`` of the optimised graph saved in ``cache_dir``,
    written first (from ``build()``, the serialised graph) when missing or stale."""
    import onnxruntime

    path = cached_graph_path(cache_dir, weights, int8=int8)
    if not path.exists():
        try:
            _save_optimised(build(), path, options)
        except OSError as exc:
            log.warning("cannot keep the optimised ONNX graph in %s (%s): building it in memory in this process", cache_dir, exc)
            return onnxruntime.InferenceSession(build(), options, providers=["CPUExecutionProvider"])
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _save_optimised(model: bytes, path: Path, options: Any) -> None:
    """ONNX Runtime's extended-level optimisation of ``model`` saved at ``path`` (written beside
    it and renamed, so that a process reading it never sees half a file), and the stale graphs
    of the same kind removed."""
    import onnxruntime

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    saving = onnxruntime.SessionOptions()
    saving.intra_op_num_threads = options.intra_op_num_threads
    saving.log_severity_level = options.log_severity_level
    saving.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    saving.optimized_model_filepath = str(partial)
    try:
        onnxruntime.InferenceSession(model, saving, providers=["CPUExecutionProvider"])
        if not partial.exists():
            raise OSError(f"ONNX Runtime did not write {partial}")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    kind = path.name.rsplit("-", 1)[0]
    for stale in path.parent.glob(f"{kind}-*.onnx"):
        if stale != path:
            stale.unlink(missing_ok=True)
