"""Neural-network functions: convolutions and pooling on ``tf.nn``, and native versions of the
composed ops where TensorFlow has a kernel with exactly the spec's semantics.

TF's layouts are Ivy's: channel-last inputs (``NHWC``...; CPU kernels know no other), filters
``[*k, in, out]`` and transposed filters ``[*k, out, in]``; channel-first inputs are transposed.
TF's ``SAME`` is the spec's (the odd padding element at the end; ignored by max pooling, left out
of the divisor of average pooling). Explicit ``(lo, hi)`` pairs go to ``conv2d`` as they are and
through ``tf.pad`` elsewhere. TF refuses a stride and a dilation both above one in some kernels:
the filter is then dilated with zeros instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm
from tensorflow.python.ops import gen_nn_ops as gn

from ivy.plugin_kit import (
    axis_index,
    axis_tuple,
    check_integer_indices,
    composed,
    conv_family,
    conv_transpose_family,
    pool_family,
    tiny_conv_outputs,
)

from . import _dtypes as D
from ._helpers import ints, scalar, tensor
from ._recurrent import gru, gru_update, lstm, lstm_update

__all__ = [
    # primitives
    "conv1d",
    "conv2d",
    "conv3d",
    "conv1d_transpose",
    "conv2d_transpose",
    "conv3d_transpose",
    "depthwise_conv2d",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "erf",
    # native versions of composed ops
    "relu",
    "leaky_relu",
    "gelu",
    "silu",
    "sigmoid",
    "softmax",
    "log_softmax",
    "softplus",
    "elu",
    "selu",
    "hardswish",
    "mish",
    "linear",
    "layer_norm",
    "embedding",
    "one_hot",
    "scaled_dot_product_attention",
    "lstm_update",
    "lstm",
    "gru_update",
    "gru",
]


def _compose(name: str) -> Any:
    return composed(name, "tensorflow")


# ------------------------------------------------------------------------------------- layouts

_TO_LAST = {1: (0, 2, 1), 2: (0, 2, 3, 1), 3: (0, 2, 3, 4, 1)}
_TO_FIRST = {1: (0, 2, 1), 2: (0, 3, 1, 2), 3: (0, 4, 1, 2, 3)}


def _mode(
    pads: Sequence[tuple[int, int]], sizes: Sequence[int], windows: Sequence[int], s: Sequence[int]
) -> str | None:
    """TF's name for ``pads`` of a window op on inputs of ``sizes``: "VALID" (none), "SAME" (TF's
    SAME pads the spec's way, the odd element at the end), or None for other padding."""
    if not any(lo or hi for lo, hi in pads):
        return "VALID"
    for (lo, hi), i, e, si in zip(pads, sizes, windows, s):
        total = max((-(-i // si) - 1) * si + e - i, 0)
        if lo != total // 2 or hi != total - total // 2:
            return None
    return "SAME"


def _pad_spatial(x: Any, pads: Sequence[tuple[int, int]], value: Any = 0) -> Any:
    if not any(lo or hi for lo, hi in pads):
        return x
    return tf.pad(x, [[0, 0], *[[lo, hi] for lo, hi in pads], [0, 0]], constant_values=value)


def _spatial(x: Any, n: int) -> list[int]:
    return [int(s) for s in x.shape[1 : 1 + n]]


def _dilate_filter(w: Any, d: Sequence[int], n: int) -> Any:
    """Insert d - 1 zeros between the taps of each spatial axis."""
    for a, di in enumerate(d):
        if di == 1:
            continue
        k = int(w.shape[a])
        shape = [int(s) for s in w.shape]
        e = tf.pad(tf.expand_dims(w, a + 1), [[0, 0]] * (a + 1) + [[0, di - 1]] + [[0, 0]] * (w.shape.rank - a - 1))
        shape[a] = k * di
        w = tf.reshape(e, shape)
        begin = [0] * w.shape.rank
        size = [-1] * w.shape.rank
        size[a] = (k - 1) * di + 1
        w = tf.slice(w, begin, size)
    return w


# ---------------------------------------------------------------------------------------- convs


def _with_bias(y: Any, bias: Any) -> Any:
    """Channel-last ``y`` plus its (checked) ``bias`` (``tf.nn.bias_add``: one fused kernel, and a
    reduction kernel for its gradient)."""
    if bias is None:
        return y
    return tf.nn.bias_add(y, bias if bias.dtype == y.dtype else tf.cast(bias, y.dtype))


def _conv_call(
    x: Any,
    w: Any,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Any,
    depthwise: bool = False,
) -> Any:
    n = len(s)
    if not cl:
        x = tf.transpose(x, _TO_LAST[n])
    if w.dtype != x.dtype:
        w = tf.cast(w, x.dtype)
    mode = _mode(pads, _spatial(x, n), [di * (int(k) - 1) + 1 for di, k in zip(d, w.shape[:n])], s)
    if any(v > 1 for v in d) and (n == 3 or any(v > 1 for v in s)):
        # TF refuses a stride and a dilation together, and dilated 3-D convolutions on the CPU
        w = _dilate_filter(w, d, n)
        d = (1,) * n
    sub = None
    if depthwise and s[0] != s[1]:  # TF's depthwise kernel wants equal strides: stride 1, then subsample
        sub, s, mode = s, (1, 1), None
    if n == 1:  # through the 2-D kernels, with a height of one
        x = tf.expand_dims(x, 1)
        w = tf.expand_dims(w, 0)
        s, d, pads = (1, *s), (1, *d), [(0, 0), *pads]
    if n == 3 or depthwise:
        if mode is None:
            x = _pad_spatial(x, pads)
            mode = "VALID"
        if depthwise:
            y = tf.nn.depthwise_conv2d(x, tf.expand_dims(w, -1), [1, *s, 1], mode, dilations=d)
            if sub is not None:
                y = y[:, :: sub[0], :: sub[1]]
        else:
            y = tf.nn.conv3d(x, w, [1, *s, 1], mode, dilations=[1, *d, 1])
    else:
        pad = mode if mode is not None else [[0, 0], *[[lo, hi] for lo, hi in pads], [0, 0]]
        y = tf.nn.conv2d(x, w, s, pad, dilations=d)
    if n == 1:
        y = tf.squeeze(y, 1)
    y = _with_bias(y, bias)
    return y if cl else tf.transpose(y, _TO_FIRST[n])


def _conv(
    x: Any,
    w: Any,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Any = None,
) -> Any:
    return _conv_call(x, w, s, pads, d, cl, bias)


def _conv_oi(
    x: Any,
    w: Any,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Any = None,
) -> Any:
    """Filters [out, in, *window] (a transpiled torch model's): TF's convolutions take [*window,
    in, out] only, a copy of the weights on every call. Inside tf.function (op by op, its dozen
    small ops cost more than the copy) an output of at most 2 positions per axis (a deep CNN's
    last stages, which hold most of its weights) is one matrix product with the filters as they
    lie instead."""
    n = len(s)
    outs = None if tf.executing_eagerly() else tiny_conv_outputs(x, w.shape[2:], s, pads, d, cl)
    if outs is None or w.dtype != x.dtype:
        return _conv_call(x, tf.transpose(w, (*range(2, n + 2), 1, 0)), s, pads, d, cl, bias)
    if not cl:
        x = tf.transpose(x, _TO_LAST[n])
    xp = _pad_spatial(x, pads)
    cols = []  # the input each window position sees, [N, *out, in]
    for tap in np.ndindex(*[int(k) for k in w.shape[2:]]):
        start = [t * di for t, di in zip(tap, d)]
        cols.append(xp[(slice(None), *[slice(a, a + (o - 1) * si + 1, si) for a, o, si in zip(start, outs, s)])])
    patches = tf.stack(cols, axis=-1)  # [N, *out, in, positions]: the filters' own order
    o = int(w.shape[0])
    y = tf.matmul(tf.reshape(patches, (-1, int(w.shape[1]) * len(cols))), tf.reshape(w, (o, -1)), transpose_b=True)
    y = _with_bias(tf.reshape(y, (-1, *outs, o)), bias)
    return y if cl else tf.transpose(y, _TO_FIRST[n])


def _depthwise(
    x: Any,
    w: Any,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Any = None,
) -> Any:
    return _conv_call(x, w, s, pads, d, cl, bias, depthwise=True)


def _conv_t(
    x: Any,
    w: Any,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    outs: tuple[int, ...],
    bias: Any = None,
) -> Any:
    n = len(s)
    if not cl:
        x = tf.transpose(x, _TO_LAST[n])
    if w.dtype != x.dtype:
        w = tf.cast(w, x.dtype)
    sizes = _spatial(x, n)
    eff = [di * (int(k) - 1) + 1 for di, k in zip(d, w.shape[:n])]
    full = [(i - 1) * si + e for i, si, e in zip(sizes, s, eff)]  # the output before removing padding
    # TF's SAME: the forward SAME padding of an input of the output's size, which must map to x's
    same = all(-(-o // si) == i for o, si, i in zip(outs, s, sizes)) and _mode(pads, outs, eff, s) == "SAME"
    if any(v > 1 for v in d):  # TF's CPU backprop-input kernels refuse dilations (some paths): zeros instead
        w = _dilate_filter(w, d, n)
        d = (1,) * n
    d_out = int(w.shape[-2])
    batch = tf.shape(x)[0]
    crop = None
    if n == 1:
        x, w = tf.expand_dims(x, 1), tf.expand_dims(w, 0)
        s, d, outs2, pads2 = (1, *s), (1, *d), (1, *outs), [(0, 0), *pads]
    else:
        outs2, pads2 = outs, pads
    if same or all(p == (0, 0) for p in pads2):
        pad: Any = "SAME" if same else "VALID"
        shape_out = outs2
    elif n == 3:  # conv3d_transpose knows only SAME / VALID: the full output, then crop / zero-pad
        pad = "VALID"
        shape_out = tuple(max(f, lo + o) for f, (lo, _), o in zip(full, pads2, outs2))
        crop = pads2
    else:
        pad = [[0, 0], *[[lo, hi] for lo, hi in pads2], [0, 0]]
        shape_out = outs2
    oshape = tf.stack([batch, *[tf.constant(v) for v in shape_out], tf.constant(d_out)])
    if n == 3:
        y = tf.nn.conv3d_transpose(x, w, oshape, [1, *s, 1], pad, dilations=[1, *d, 1])
    else:
        y = tf.nn.conv2d_transpose(x, w, oshape, [1, *s, 1], pad, dilations=[1, *d, 1])
    if crop is not None:
        y = y[
            :,
            crop[0][0] : crop[0][0] + outs2[0],
            crop[1][0] : crop[1][0] + outs2[1],
            crop[2][0] : crop[2][0] + outs2[2],
        ]
    if n == 1:
        y = tf.squeeze(y, 1)
    y = _with_bias(y, bias)
    return y if cl else tf.transpose(y, _TO_FIRST[n])


# -------------------------------------------------------------------------------------- pooling

_POOL_NATIVE_3D = frozenset({D.F32, tf.float16, tf.bfloat16})
_MAXPOOL_2D = frozenset({D.F32, D.F64, tf.float16, tf.bfloat16, D.I8, D.I16, D.I32, D.I64, D.U8, D.U16})
_SIGN64 = np.int64(np.iinfo(np.int64).min)


def _valid(kind: str, n: int, x: Any, k: Sequence[int], s: Sequence[int]) -> Any:
    """Native VALID pooling of a channel-last x (3-D through two 2-D pools where TF has no 3-D kernel)."""
    fn = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    if n == 1:
        return tf.squeeze(fn(tf.expand_dims(x, 1), [1, k[0]], [1, s[0]], "VALID"), 1)
    if n == 2:
        return fn(x, list(k), list(s), "VALID")
    if x.dtype in _POOL_NATIVE_3D:
        fn3 = tf.nn.max_pool3d if kind == "max" else tf.nn.avg_pool3d
        return fn3(x, list(k), list(s), "VALID")
    # a box window is separable: pool (h, w) per depth slice, then the depth axis
    dd, hh, ww, c = (int(v) for v in x.shape[1:])
    y = fn(tf.reshape(x, [-1, hh, ww, c]), [k[1], k[2]], [s[1], s[2]], "VALID")
    ho, wo = int(y.shape[1]), int(y.shape[2])
    y = fn(tf.reshape(y, [-1, dd, ho * wo, c]), [k[0], 1], [s[0], 1], "VALID")
    return tf.reshape(y, [-1, int(y.shape[1]), ho, wo, c])


def _max_pool(x: Any, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool) -> Any:
    n = len(k)
    x = tensor(x)
    dt = x.dtype
    if dt not in _MAXPOOL_2D:  # widen / map order-preservingly to a dtype TF pools, and back
        if dt == D.U32:
            return tf.cast(_max_pool(tf.cast(x, D.I64), k, s, pads, cl), dt)
        if dt == D.U64:
            m = tf.bitcast(tf.bitwise.bitwise_xor(x, tf.constant(1 << 63, D.U64)), D.I64)
            y = _max_pool(m, k, s, pads, cl)
            return tf.bitwise.bitwise_xor(tf.bitcast(y, D.U64), tf.constant(1 << 63, D.U64))
        if dt == D.BOOL:
            return tf.cast(_max_pool(tf.cast(x, D.U8), k, s, pads, cl), dt)
    if not cl:
        x = tf.transpose(x, _TO_LAST[n])
    mode = _mode(pads, _spatial(x, n), k, s)
    if mode is not None and (n < 3 or dt in _POOL_NATIVE_3D):  # TF's SAME max pool ignores the padding
        fn = {1: tf.nn.max_pool1d, 2: tf.nn.max_pool2d, 3: tf.nn.max_pool3d}[n]
        y = fn(x, list(k), list(s), mode)
    else:
        low = -np.inf if dt.is_floating else dt.min
        y = _valid("max", n, _pad_spatial(x, pads, tf.constant(low, dt)), k, s)
    return y if cl else tf.transpose(y, _TO_FIRST[n])


def _avg_pool(
    x: Any, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool, count_include_pad: bool
) -> Any:
    n = len(k)
    if not cl:
        x = tf.transpose(x, _TO_LAST[n])
    mode = _mode(pads, _spatial(x, n), k, s)
    native = n < 3 or x.dtype in _POOL_NATIVE_3D
    if native and (mode == "VALID" or (mode == "SAME" and not count_include_pad)):
        fn = {1: tf.nn.avg_pool1d, 2: tf.nn.avg_pool2d, 3: tf.nn.avg_pool3d}[n]
        y = fn(x, list(k), list(s), mode)  # TF's SAME average leaves the padding out of the divisor
    else:
        y = _valid("avg", n, _pad_spatial(x, pads), k, s)  # window sums / window size
        if not count_include_pad and any(lo or hi for lo, hi in pads):
            ones = tf.ones([1, *_spatial(x, n), 1], x.dtype)
            y = y / _valid("avg", n, _pad_spatial(ones, pads), k, s)  # the share inside the input
    return y if cl else tf.transpose(y, _TO_FIRST[n])


_FAMILY = {
    **conv_family(_conv, fused_bias=True, conv_nd_oi=_conv_oi),
    **conv_family(_depthwise, (2,), fused_bias=True, depthwise=True),
    **conv_transpose_family(_conv_t, fused_bias=True),
    **pool_family(_max_pool, _avg_pool),
}
conv1d = _FAMILY["conv1d"]
conv2d = _FAMILY["conv2d"]
conv3d = _FAMILY["conv3d"]
depthwise_conv2d = _FAMILY["depthwise_conv2d"]
conv1d_transpose = _FAMILY["conv1d_transpose"]
conv2d_transpose = _FAMILY["conv2d_transpose"]
conv3d_transpose = _FAMILY["conv3d_transpose"]
max_pool1d = _FAMILY["max_pool1d"]
max_pool2d = _FAMILY["max_pool2d"]
max_pool3d = _FAMILY["max_pool3d"]
avg_pool1d = _FAMILY["avg_pool1d"]
avg_pool2d = _FAMILY["avg_pool2d"]
avg_pool3d = _FAMILY["avg_pool3d"]


# ---------------------------------------------------------------------------------- activations
# TF's generated ops directly: the public tf.nn wrappers cost more than the kernels at small sizes
# (tf.nn.silu is a custom_gradient, ten times slower in eager mode).

erf = gm.erf
relu = gn.relu
sigmoid = gm.sigmoid  # stable for large |x|
selu = gn.selu  # Klambauer et al.'s constants


def _const(s: float, d: tf.DType) -> Any:
    """``s`` as a 0-d constant of dtype ``d``: the cached eager scalar when executing eagerly; while
    tf.function traces, a constant of the graph itself. Grappler's remapper does not see through
    a captured eager tensor, so the cached scalar kept it from fusing MatMul + BiasAdd + GELU."""
    if tf.executing_eagerly():
        return scalar(s, d)
    return tf.constant(np.asarray(s).astype(d.as_numpy_dtype))


def _axes(axes: tuple[int, ...]) -> Any:
    """Reduction axes as an int32 tensor, built in the graph while tracing (as :func:`_const`)."""
    return ints(axes) if tf.executing_eagerly() else tf.constant(axes, tf.int32)


def _floating(x: Any) -> bool:
    return isinstance(x, (tf.Tensor, tf.Variable)) and x.dtype.is_floating


def silu(x: Any, /) -> Any:
    return gm.mul(x, gm.sigmoid(x))


def leaky_relu(x: Any, /, *, alpha: float = 0.2) -> Any:
    # not tf.nn.leaky_relu: its alpha is a float32 attribute (inexact for float64), and it turns
    # integers into float32
    if not _floating(x):
        return _compose("leaky_relu")(x, alpha=alpha)
    return gm.select_v2(gm.greater(x, scalar(0.0, x.dtype)), x, gm.mul(x, scalar(alpha, x.dtype)))


def gelu(x: Any, /, *, approximate: bool = False) -> Any:
    # not tf.nn.gelu: it rounds its constants through float32, which float64 inputs would notice
    if not _floating(x):
        return _compose("gelu")(x, approximate=approximate)
    dt = x.dtype
    if approximate:
        half = gm.mul(x, scalar(0.5, dt))
        cube = gm.mul(gm.mul(gm.mul(x, x), x), scalar(0.044715, dt))
        inner = gm.mul(gm.add_v2(x, cube), scalar(math.sqrt(2.0 / math.pi), dt))
        return gm.mul(half, gm.add_v2(gm.tanh(inner), scalar(1.0, dt)))
    # 0.5 * x * erfc(-x / sqrt 2), op for op as tf.nn.gelu builds it (Mul, Neg, Mul, Erfc, Mul):
    # in a tf.function graph, Grappler's remapper fuses exactly that pattern after a MatMul and
    # BiasAdd into one fused kernel, and misses it written any other way
    half = gm.mul(_const(0.5, dt), x)
    return gm.mul(half, gm.erfc(gm.mul(gm.neg(x), _const(math.sqrt(0.5), dt))))


def softmax(x: Any, /, *, axis: int = -1) -> Any:
    nd = x.shape.rank
    if axis == -1 or axis == nd - 1:
        return gn.softmax(x)  # TF's kernel works on the last axis
    a = axis_index(axis, nd, "softmax")  # elsewhere the stable formula in place beats two transposes
    e = gm.exp(gm.sub(x, gm._max(x, a, keep_dims=True)))
    return gm.real_div(e, gm._sum(e, a, keep_dims=True))


def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
    nd = x.shape.rank
    if axis == -1 or axis == nd - 1:
        return gn.log_softmax(x)
    a = axis_index(axis, nd, "log_softmax")
    z = gm.sub(x, gm._max(x, a, keep_dims=True))
    return gm.sub(z, gm.log(gm._sum(gm.exp(z), a, keep_dims=True)))


def softplus(x: Any, /, *, beta: float = 1.0, threshold: float = 20.0) -> Any:
    # TF's softplus is the stable log1p(exp(x)); the spec's threshold returns x itself beyond it
    if not _floating(x):
        return _compose("softplus")(x, beta=beta, threshold=threshold)
    dt = x.dtype
    bx = x if beta == 1.0 else gm.mul(x, scalar(beta, dt))
    soft = gn.softplus(bx)
    if beta != 1.0:
        soft = gm.real_div(soft, scalar(beta, dt))
    return gm.select_v2(gm.greater(bx, scalar(threshold, dt)), x, soft)


def elu(x: Any, /, *, alpha: float = 1.0) -> Any:
    if not _floating(x):
        return _compose("elu")(x, alpha=alpha)
    y = gn.elu(x)  # x > 0 ? x : expm1(x)
    if alpha == 1.0:
        return y
    return gm.select_v2(gm.greater(x, scalar(0.0, x.dtype)), x, gm.mul(y, scalar(alpha, x.dtype)))


def hardswish(x: Any, /) -> Any:
    if not _floating(x):
        return _compose("hardswish")(x)
    dt = x.dtype
    return gm.mul(x, gm.real_div(gn.relu6(gm.add_v2(x, scalar(3.0, dt))), scalar(6.0, dt)))


def mish(x: Any, /) -> Any:
    if not _floating(x):
        return _compose("mish")(x)
    return gm.mul(x, gm.tanh(gn.softplus(x)))


# --------------------------------------------------------------------------------------- layers


def linear(x: Any, weight: Any, /, bias: Any = None) -> Any:
    if (
        x.shape.rank < 2
        or weight.shape.rank != 2
        or x.dtype != weight.dtype
        or (bias is not None and bias.dtype != x.dtype)
    ):
        return _compose("linear")(x, weight, bias)
    # weight [out, in]; leading axes folded: one MatMul (a broadcast BatchMatMulV2's weight gradient sums products)
    y = (
        tf.linalg.matmul(x, weight, transpose_b=True)
        if x.shape.rank == 2
        else tf.tensordot(x, weight, [[x.shape.rank - 1], [1]])
    )
    return y if bias is None else tf.nn.bias_add(y, bias) if bias.shape.rank == 1 else y + bias


def layer_norm(
    x: Any, normalized_idxs: int | Sequence[int], /, *, scale: Any = None, offset: Any = None, eps: float = 1e-5
) -> Any:
    if not _floating(x):
        return _compose("layer_norm")(x, normalized_idxs, scale=scale, offset=offset, eps=eps)
    axes = _axes(tuple(sorted(axis_tuple(normalized_idxs, x.shape.rank, "layer_norm", "normalized_idxs"))))
    mean = gm.mean(x, axes, keep_dims=True)
    centred = gm.sub(x, mean)
    var = gm.mean(gm.square(centred), axes, keep_dims=True)  # the biased variance
    y = gm.real_div(centred, gm.sqrt(gm.add_v2(var, _const(float(eps), x.dtype))))
    if scale is not None:
        y = y * scale
    if offset is not None:
        y = y + offset
    return y


def embedding(weights: Any, indices: Any, /, *, max_norm: float | None = None) -> Any:
    if indices.dtype not in (D.I32, D.I64):
        check_integer_indices(indices.dtype in D.INTS, indices.dtype, "embedding", "ids")
        indices = tf.cast(indices, D.I64)
    rows = tf.gather(weights, indices)
    if max_norm is None:
        return rows
    norms = tf.norm(rows, axis=-1, keepdims=True)
    m = tf.constant(max_norm, norms.dtype)
    return tf.where(norms > m, rows * (m / norms), rows)  # the rows, not the table, are rescaled


def one_hot(indices: Any, depth: int, /, *, dtype: Any = None, axis: int = -1) -> Any:
    # tf.one_hot gives all zeros for an index outside [0, depth), as the spec asks
    dtype = D.DEFAULT_FLOAT if dtype is None else D.native(dtype)
    if indices.dtype not in (D.U8, D.I8, D.I32, D.I64):
        check_integer_indices(indices.dtype in D.INTS, indices.dtype, "one_hot")
        indices = tf.cast(indices, D.I64)  # uint64 beyond int64 wraps negative: still all zeros
    nd = indices.shape.rank + 1
    a = axis % nd if -nd <= axis < nd else axis
    kind = bool if dtype == D.BOOL else int if dtype.is_integer else complex if dtype.is_complex else float
    return ga.one_hot(indices, depth, scalar(kind(1), dtype), scalar(kind(0), dtype), axis=a)


def scaled_dot_product_attention(
    q: Any,
    k: Any,
    v: Any,
    /,
    *,
    mask: Any = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> Any:
    if not (q.dtype == k.dtype == v.dtype) or not q.dtype.is_floating or q.shape.rank < 2:
        return _compose("scaled_dot_product_attention")(
            q, k, v, mask=mask, scale=scale, dropout_p=dropout_p, is_causal=is_causal
        )
    d = int(q.shape[-1])
    sc = (1.0 / math.sqrt(d)) if scale is None else scale
    scores = tf.linalg.matmul(q, k, transpose_b=True) * tf.constant(sc, q.dtype)
    neg = tf.constant(-np.inf, q.dtype)  # a query that may attend to no key gives NaN, as the spec says
    if is_causal:  # query i attends to keys j <= i (top-left aligned)
        lq, lk = int(q.shape[-2]), int(k.shape[-2])
        causal = tf.constant(np.tril(np.ones((lq, lk), dtype=bool)))
        scores = tf.where(causal, scores, neg)
    if mask is not None:
        if mask.dtype == D.BOOL:
            scores = tf.where(mask, scores, neg)
        else:
            scores = scores + (mask if mask.dtype == q.dtype else tf.cast(mask, q.dtype))
    weights = tf.nn.softmax(scores, -1)
    if dropout_p > 0.0:
        from .random import dropout

        weights = dropout(weights, dropout_p)
    return tf.linalg.matmul(weights, v)
