"""all-MiniLM-L6-v2 as an ONNX graph, written from the package's weights without torch.

The graph is BERT's forward pass followed by sentence-transformers' mean pooling, op for op as
:mod:`paperpyramid.embeddings.minilm` computes it in numpy, with standard ONNX operators
(opset 17: ``LayerNormalization``; GELU in its exact ``Erf`` form, as BERT was trained), so that
ONNX Runtime's own graph optimiser can fuse what it recognises. Inputs are ``input_ids``
(int64, batch × length) and ``attention_mask`` (float32, 1 for a token, 0 for padding); the
output ``pooled`` is the masked mean of the last layer (batch × 384), not yet normalised.

``int8=True`` quantises the weights of every linear layer to int8, one scale per output column,
and the activations dynamically, one scale per call (``DynamicQuantizeLinear`` →
``MatMulInteger``): the graph ``onnxruntime.quantization.quantize_dynamic(per_channel=True,
reduce_range=True)`` would write, built here directly so that loading needs neither a file on
disk nor the quantisation tool. Its vectors are close to float32's, not equal (cosine 0.99 on
average), so they are stored under their own name.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
OPSET = 17
#: int8 weights use 7 bits, as quantize_dynamic's ``reduce_range``: x86 CPUs without VNNI add
#: uint8 × int8 products in pairs into a saturating int16 (``vpmaddubsw``), which full 8-bit
#: weights can overflow. Measured on 200 contexts: no worse than 8 bits (mean cosine 0.992 to
#: float32 against 0.990), and faster
WEIGHT_RANGE = 63


class _Graph:
    """Nodes and initialisers collected while the graph is written; names are made unique."""

    def __init__(self) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self._count = 0

    def name(self, hint: str) -> str:
        self._count += 1
        return f"{hint}_{self._count}"

    def const(self, value: Array, hint: str) -> str:
        name = self.name(hint)
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(self, kind: str, inputs: list[str], hint: str | None = None, **attributes: Any) -> str:
        """A node with one output; its name."""
        return self.ops(kind, inputs, 1, hint, **attributes)[0]

    def ops(self, kind: str, inputs: list[str], outputs: int, hint: str | None = None, **attributes: Any) -> list[str]:
        """A node with ``outputs`` outputs; their names."""
        names = [self.name(hint or kind.lower()) for _ in range(outputs)]
        self.nodes.append(self.helper.make_node(kind, inputs, names, **attributes))
        return names


def _linear(g: _Graph, x: str, weight: Array, bias: Array, int8: bool, hint: str) -> str:
    """``x @ weight + bias`` (``weight`` is in × out), in float32 or int8."""
    if not int8:
        return g.op(
            "Add", [g.op("MatMul", [x, g.const(weight.astype(np.float32), hint + ".w")]), g.const(bias.astype(np.float32), hint + ".b")]
        )
    # symmetric per-column scales, 7 bits: int8 in [-63, 63]
    scale = np.maximum(np.abs(weight).max(axis=0), 1e-12).astype(np.float32) / np.float32(WEIGHT_RANGE)
    quantised = np.clip(np.round(weight / scale), -WEIGHT_RANGE, WEIGHT_RANGE).astype(np.int8)
    x_q, x_scale, x_zero = g.ops("DynamicQuantizeLinear", [x], 3, hint + ".xq")
    product = g.op(
        "MatMulInteger", [x_q, g.const(quantised, hint + ".wq"), x_zero, g.const(np.zeros(weight.shape[1], np.int8), hint + ".wz")]
    )
    scaled = g.op("Mul", [g.op("Cast", [product], to=1), g.op("Mul", [x_scale, g.const(scale, hint + ".ws")])])
    return g.op("Add", [scaled, g.const(bias.astype(np.float32), hint + ".b")])


def build_model(weights: dict[str, Array], *, heads: int, layers: int, eps: float, int8: bool = False) -> Any:
    """The ``onnx.ModelProto`` of the encoder and pooling; ``weights`` are the model's tensors
    by their safetensors names, linear weights as stored (out × in)."""
    from onnx import TensorProto, helper

    g = _Graph()
    w = {name: np.asarray(tensor, dtype=np.float32) for name, tensor in weights.items() if tensor.dtype != np.int64}
    width = w["embeddings.word_embeddings.weight"].shape[1]
    head = width // heads

    def layer_norm(x: str, prefix: str) -> str:
        return g.op(
            "LayerNormalization",
            [x, g.const(w[prefix + ".weight"], prefix + ".g"), g.const(w[prefix + ".bias"], prefix + ".b")],
            axis=-1,
            epsilon=eps,
        )

    def linear(x: str, prefix: str) -> str:
        return _linear(g, x, w[prefix + ".weight"].T, w[prefix + ".bias"], int8, prefix)

    # embeddings: word + position (the first `length` rows) + token type 0
    length = g.op("Slice", [g.op("Shape", ["input_ids"]), g.const(np.array([1]), "one"), g.const(np.array([2]), "two")])
    positions = g.op(
        "Slice",
        [
            g.const(w["embeddings.position_embeddings.weight"], "positions"),
            g.const(np.array([0]), "zero"),
            length,
            g.const(np.array([0]), "axis0"),
        ],
    )
    words = g.op("Gather", [g.const(w["embeddings.word_embeddings.weight"], "words"), "input_ids"], axis=0)
    summed = g.op("Add", [g.op("Add", [words, positions]), g.const(w["embeddings.token_type_embeddings.weight"][0], "token_type")])
    x = layer_norm(summed, "embeddings.LayerNorm")

    # padding gets -1e9 before the softmax, as in the numpy model: (1 - mask) * -1e9, batch × 1 × 1 × length
    blocked = g.op(
        "Mul",
        [g.op("Sub", [g.const(np.array(1.0, np.float32), "one_f"), "attention_mask"]), g.const(np.array(-1e9, np.float32), "minus_inf")],
    )
    blocked = g.op("Unsqueeze", [blocked, g.const(np.array([1, 2]), "axes12")])
    split_shape = g.const(np.array([0, 0, heads, head]), "split_shape")
    merge_shape = g.const(np.array([0, 0, width]), "merge_shape")
    scale = g.const(np.array(1.0 / math.sqrt(head), np.float32), "scale")
    for layer in range(layers):
        p = f"encoder.layer.{layer}."
        q = g.op("Transpose", [g.op("Reshape", [linear(x, p + "attention.self.query"), split_shape])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [linear(x, p + "attention.self.key"), split_shape])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [linear(x, p + "attention.self.value"), split_shape])], perm=[0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), blocked])
        attended = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        attended = g.op("Reshape", [g.op("Transpose", [attended], perm=[0, 2, 1, 3]), merge_shape])
        x = layer_norm(g.op("Add", [x, linear(attended, p + "attention.output.dense")]), p + "attention.output.LayerNorm")
        hidden = linear(x, p + "intermediate.dense")
        erf = g.op("Erf", [g.op("Mul", [hidden, g.const(np.array(1 / math.sqrt(2), np.float32), "inv_sqrt2")])])
        gelu = g.op(
            "Mul",
            [
                g.op("Mul", [hidden, g.op("Add", [erf, g.const(np.array(1.0, np.float32), "one_g")])]),
                g.const(np.array(0.5, np.float32), "half"),
            ],
        )
        x = layer_norm(g.op("Add", [x, linear(gelu, p + "output.dense")]), p + "output.LayerNorm")

    # mean over the tokens the mask keeps
    mask3 = g.op("Unsqueeze", ["attention_mask", g.const(np.array([2]), "axis2")])
    total = g.op("ReduceSum", [g.op("Mul", [x, mask3]), g.const(np.array([1]), "axis1")], keepdims=0)
    count = g.op(
        "Max",
        [g.op("ReduceSum", ["attention_mask", g.const(np.array([1]), "axis1b")], keepdims=1), g.const(np.array(1e-9, np.float32), "tiny")],
    )
    g.nodes.append(helper.make_node("Div", [total, count], ["pooled"]))

    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT, ["batch", "length"])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", width])],
        initializer=g.initializers,
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="paperpyramid")
    model.ir_version = 8
    return model
