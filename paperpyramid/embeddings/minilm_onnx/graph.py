"""all-MiniLM-L6-v2 as an ONNX graph, written from the package's weights without torch.

The graph is BERT's forward pass followed by sentence-transformers' mean pooling, op for op as
:mod:`paperpyramid.embeddings.minilm` computes it in numpy, with standard ONNX operators
(opset 17: ``LayerNormalization``; GELU in its exact ``Erf`` form, as BERT was trained, written
``x * 0.5 * (1 + erf(x / sqrt 2))``, the pattern ONNX Runtime fuses into one ``Gelu``). The input
is ``input_ids`` (int64, batch × length) of texts of one length: the embedder runs each text
alone, so there is no padding, no attention mask to add and the pooling is a plain mean. The
output ``pooled`` is the mean of the last layer over the tokens (batch × 384), not yet normalised.

``int8=True`` quantises the weights of every linear layer to int8, one scale per output column,
and the activations dynamically, one scale per call (``DynamicQuantizeLinear`` →
``MatMulInteger``): the graph ``onnxruntime.quantization.quantize_dynamic(per_channel=True,
reduce_range=True)`` would write, built here directly so that loading needs neither the
quantisation tool nor a model file shipped beside the weights. Its vectors are close to
float32's, not equal (cosine 0.99 on average), so they are stored under their own name.
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
#: weights can overflow, so 7 bits give the same vectors on every x86 CPU
WEIGHT_RANGE = 63


class _Graph:
    """Nodes and initialisers collected while the graph is written; names are made unique.
    ``weights`` are the model's float tensors by their safetensors names."""

    def __init__(self, weights: dict[str, Array], *, eps: float, int8: bool) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.weights, self.eps, self.int8 = weights, eps, int8
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

    def scalar(self, value: float, hint: str) -> str:
        return self.const(np.array(value, np.float32), hint)

    def op(self, kind: str, inputs: list[str], hint: str | None = None, **attributes: Any) -> str:
        """A node with one output; its name."""
        return self.ops(kind, inputs, 1, hint, **attributes)[0]

    def ops(self, kind: str, inputs: list[str], outputs: int, hint: str | None = None, **attributes: Any) -> list[str]:
        """A node with ``outputs`` outputs; their names."""
        names = [self.name(hint or kind.lower()) for _ in range(outputs)]
        self.nodes.append(self.helper.make_node(kind, inputs, names, **attributes))
        return names

    def layer_norm(self, x: str, prefix: str) -> str:
        w = self.weights
        gain, bias = self.const(w[prefix + ".weight"], prefix + ".g"), self.const(w[prefix + ".bias"], prefix + ".b")
        return self.op("LayerNormalization", [x, gain, bias], axis=-1, epsilon=self.eps)

    def linear(self, x: str, prefix: str) -> str:
        """``x @ weight.T + bias`` of the linear layer ``prefix``, in float32 or int8."""
        return _linear(self, x, self.weights[prefix + ".weight"].T, self.weights[prefix + ".bias"], self.int8, prefix)


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


def _embeddings(g: _Graph) -> str:
    """Word + position (the first ``length`` rows) + token type 0, layer-normalised."""
    w = g.weights
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
    return g.layer_norm(summed, "embeddings.LayerNorm")


def _self_attention(g: _Graph, x: str, prefix: str, heads: int) -> str:
    """Multi-head self-attention over every token (there is no padding), heads merged back."""
    width = g.weights[prefix + "query.weight"].shape[0]
    head = width // heads
    split_shape = g.const(np.array([0, 0, heads, head]), "split_shape")
    q = g.op("Transpose", [g.op("Reshape", [g.linear(x, prefix + "query"), split_shape])], perm=[0, 2, 1, 3])
    k = g.op("Transpose", [g.op("Reshape", [g.linear(x, prefix + "key"), split_shape])], perm=[0, 2, 3, 1])
    v = g.op("Transpose", [g.op("Reshape", [g.linear(x, prefix + "value"), split_shape])], perm=[0, 2, 1, 3])
    scores = g.op("Mul", [g.op("MatMul", [q, k]), g.scalar(1.0 / math.sqrt(head), "scale")])
    attended = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
    return g.op("Reshape", [g.op("Transpose", [attended], perm=[0, 2, 1, 3]), g.const(np.array([0, 0, width]), "merge_shape")])


def _gelu(g: _Graph, x: str) -> str:
    """Exact GELU, ``x * 0.5 * (1 + erf(x / sqrt 2))``: ONNX Runtime fuses this form (with a
    ``Div``, not a ``Mul`` by 1/sqrt 2) and the bias add before it into one ``BiasGelu``."""
    erf = g.op("Erf", [g.op("Div", [x, g.scalar(math.sqrt(2.0), "sqrt2")])])
    return g.op("Mul", [g.op("Mul", [x, g.op("Add", [erf, g.scalar(1.0, "one_g")])]), g.scalar(0.5, "half")])


def _encoder_layer(g: _Graph, x: str, layer: int, heads: int) -> str:
    """One transformer layer: attention and the feed-forward block, each with its residual and
    layer norm (post-norm, as BERT)."""
    p = f"encoder.layer.{layer}."
    attended = _self_attention(g, x, p + "attention.self.", heads)
    x = g.layer_norm(g.op("Add", [x, g.linear(attended, p + "attention.output.dense")]), p + "attention.output.LayerNorm")
    hidden = _gelu(g, g.linear(x, p + "intermediate.dense"))
    return g.layer_norm(g.op("Add", [x, g.linear(hidden, p + "output.dense")]), p + "output.LayerNorm")


def _model(g: _Graph, width: int) -> Any:
    """The ``onnx.ModelProto`` of the nodes written, whose last output is ``pooled``."""
    from onnx import TensorProto

    helper = g.helper
    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", width])],
        initializer=g.initializers,
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="paperpyramid")
    model.ir_version = 8
    return model


def build_model(weights: dict[str, Array], *, heads: int, layers: int, eps: float, int8: bool = False) -> Any:
    """The ``onnx.ModelProto`` of the encoder and pooling; ``weights`` are the model's tensors
    by their safetensors names, linear weights as stored (out × in)."""
    w = {name: np.asarray(tensor, dtype=np.float32) for name, tensor in weights.items() if tensor.dtype != np.int64}
    g = _Graph(w, eps=eps, int8=int8)
    x = _embeddings(g)
    for layer in range(layers):
        x = _encoder_layer(g, x, layer, heads)
    g.nodes.append(g.helper.make_node("ReduceMean", [x], ["pooled"], axes=[1], keepdims=0))  # mean over the tokens
    return _model(g, w["embeddings.word_embeddings.weight"].shape[1])
