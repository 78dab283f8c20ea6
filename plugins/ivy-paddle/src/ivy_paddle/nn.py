"""Neural-network functions: convolutions and pooling on paddle.nn.functional, and native versions
of the composed ops where paddle has a kernel with exactly the spec's semantics.

paddle's convolutions take both layouts (``data_format`` "NLC"/"NHWC"/"NDHWC" or channel-first)
and asymmetric padding as one ``(lo, hi)`` pair per axis, so inputs are never transposed; only the
filters are permuted from Ivy's ``[*k, in, out]`` to paddle's ``[out, in, *k]``. "SAME" padding is
computed here (TensorFlow's rule, the odd element at the end) and passed explicitly, which also
covers dilations. 1-D pools run as 2-D pools over a unit height (paddle's 1-D pools are
channel-first only). paddle has no integer pooling kernels: integer max pools take the maximum of
strided window slices, exactly.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

from ivy.plugin_kit import (
    axis_index,
    axis_tuple,
    bilinear_sample_layout,
    composed,
    conv_family,
    conv_transpose_family,
    fastpath,
    pool_family,
)

from ._bounds import check_indices, integral
from ._dtypes import DEFAULT_FLOAT, FLOATS, bool_, float32, float64, int32, int64, native
from ._framework import Tensor, paddle
from ._helpers import c_op
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
    "batch_norm",
    "group_norm",
    "adaptive_avg_pool2d",
    "bilinear_sample",
    "embedding",
    "one_hot",
    "mse_loss",
    "l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "sparse_cross_entropy",
    "scaled_dot_product_attention",
    "lstm_update",
    "lstm",
    "gru_update",
    "gru",
]

F = paddle.nn.functional


def _compose(name: str) -> Any:
    return composed(name, "paddle")


# ------------------------------------------------------------------------------------- layouts

#: paddle's spelling of the layouts (1-D is "NLC" / "NCL")
_PD_FORMAT = {
    (1, True): "NLC",
    (1, False): "NCL",
    (2, True): "NHWC",
    (2, False): "NCHW",
    (3, True): "NDHWC",
    (3, False): "NCDHW",
}
#: Ivy's [*k, a, b] filters -> paddle's [b, a, *k]
_PERM = {1: [2, 1, 0], 2: [3, 2, 0, 1], 3: [4, 3, 0, 1, 2]}


def _full_pads(pads: Sequence[tuple[int, int]], cl: bool) -> list[list[int]]:
    """paddle's padding with one pair per axis of the input, batch and channel axes included."""
    sp = [[lo, hi] for lo, hi in pads]
    return [[0, 0], *sp, [0, 0]] if cl else [[0, 0], [0, 0], *sp]


# ---------------------------------------------------------------------------------------- convs

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv1d_transpose, 2: F.conv2d_transpose, 3: F.conv3d_transpose}


def _add_bias(y: Tensor, bias: Tensor | None, cl: bool) -> Tensor:
    """``y + bias`` on the channel axis, the (checked) bias in the result's dtype. Not paddle's own
    ``bias=``: its broadcast add along an axis runs a third slower than this add of a reshaped
    bias (forward and backward, CPU)."""
    if bias is None:
        return y
    if bias.dtype != y.dtype:
        bias = bias.astype(y.dtype)
    return y + bias if cl else y + bias.reshape([-1] + [1] * (len(y.shape) - 2))


def _conv_call(
    x: Tensor,
    w: Tensor,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Tensor | None,
    groups: int = 1,
) -> Tensor:
    """paddle's convolution of ``x`` in the op's layout with paddle-layout weights ``w``."""
    n = len(s)
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    y = _CONV[n](
        x,
        w,
        stride=list(s),
        padding=_full_pads(pads, cl),
        dilation=list(d),
        groups=groups,
        data_format=_PD_FORMAT[(n, cl)],
    )
    return _add_bias(y, bias, cl)


def _conv(
    x: Tensor,
    filters: Tensor,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Tensor | None = None,
) -> Tensor:
    return _conv_call(x, filters.transpose(_PERM[len(s)]), s, pads, d, cl, bias)


def _conv_oi(
    x: Tensor,
    filters: Tensor,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Tensor | None = None,
) -> Tensor:
    return _conv_call(x, filters, s, pads, d, cl, bias)  # paddle's own [out, in, *window]


def _depthwise(
    x: Tensor,
    filters: Tensor,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Tensor | None = None,
) -> Tensor:
    w = filters.transpose([2, 0, 1]).unsqueeze(1)  # [fh, fw, c] -> [c, 1, fh, fw], one group per channel
    return _conv_call(x, w, s, pads, d, cl, bias, groups=filters.shape[-1])


def _conv_t(
    x: Tensor,
    filters: Tensor,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    outs: tuple[int, ...],
    bias: Tensor | None = None,
) -> Tensor:
    n = len(s)
    w = filters.transpose(_PERM[n])  # [*k, d_out, d_in] -> [d_in, d_out, *k], paddle's transposed layout
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    # The full transposed convolution less `lo` positions at the start, cropped or extended at the
    # end to `outs`, all by paddle: its padding crops, its output_padding extends (positions no
    # input reaches: zeros, then the bias). The kit has checked `outs` (at most stride - 1 past the
    # full output), the range paddle's kernel takes. A slice to crop instead costs, in its
    # gradient, as much as the convolution's on CPU.
    first = 1 if cl else 2
    padding: list[int] = []
    extend: list[int] = []
    for i, (o, (lo, _)) in enumerate(zip(outs, pads)):
        hi = (x.shape[first + i] - 1) * s[i] + d[i] * (filters.shape[i] - 1) + 1 - lo - o
        padding += [lo, max(hi, 0)]
        extend.append(max(-hi, 0))
    y = _CONV_T[n](
        x, w, stride=list(s), padding=padding, output_padding=extend, dilation=list(d), data_format=_PD_FORMAT[(n, cl)]
    )
    return _add_bias(y, bias, cl)


# -------------------------------------------------------------------------------------- pooling

_MAX = {2: F.max_pool2d, 3: F.max_pool3d}
_AVG = {2: F.avg_pool2d, 3: F.avg_pool3d}


def _as_2d(n: int, x: Tensor, cl: bool, k: list[int], s: list[int], pads: list[tuple[int, int]]) -> tuple[Any, ...]:
    """1-D pooling as 2-D over a unit height: [N, W, C] -> [N, 1, W, C] (or [N, C, 1, W])."""
    if n != 1:
        return x, k, s, pads
    return x.unsqueeze(1 if cl else 2), [1] + k, [1] + s, [(0, 0)] + pads


def _window_max(x: Tensor, n: int, cl: bool, k: list[int], s: list[int], pads: list[tuple[int, int]]) -> Tensor:
    """Max pooling as the maximum of strided window slices: any dtype paddle.maximum handles."""
    dt = x.dtype
    if dt == bool_:
        x = x.astype(int32)
    elif dt in (paddle.int8, paddle.int16, paddle.uint8):
        x = x.astype(int32)
    first = 1 if cl else 2
    if any(lo or hi for lo, hi in pads):
        x = _pad_spatial(x, first, pads, int(paddle.iinfo(x.dtype).min))
    outs = [(x.shape[first + i] - k[i]) // s[i] + 1 for i in range(n)]
    y: Any = None
    for off in _ndindex(k):
        starts = [off[i] for i in range(n)]
        ends = [off[i] + s[i] * (outs[i] - 1) + 1 for i in range(n)]
        patch = paddle.strided_slice(x, [first + i for i in range(n)], starts, ends, s)
        y = patch if y is None else paddle.maximum(y, patch)
    return y.astype(dt) if y.dtype != dt else y


def _pad_spatial(x: Tensor, first: int, pads: Sequence[tuple[int, int]], value: Any) -> Tensor:
    """``x`` padded with ``value`` on the spatial axes (those from ``first`` on)."""
    for i, (lo, hi) in enumerate(pads):
        if not (lo or hi):
            continue
        a = first + i
        parts = []
        for w in (lo, hi):
            shp = list(x.shape)
            shp[a] = w
            parts.append(paddle.full(shp, value, x.dtype) if w else None)
        x = paddle.concat([p for p in (parts[0], x, parts[1]) if p is not None], a)
    return x


def _ndindex(k: Sequence[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for size in k:
        out = [o + (j,) for o in out for j in range(size)]
    return out


def _max_pool(
    x: Tensor, kernel: tuple[int, ...], strides: tuple[int, ...], pads: list[tuple[int, int]], cl: bool
) -> Tensor:
    n = len(kernel)
    k, s = list(kernel), list(strides)
    if id(x.dtype) not in FLOATS:
        return _window_max(x, n, cl, k, s, pads)
    x2, k2, s2, p2 = _as_2d(n, x, cl, k, s, pads)
    m = max(n, 2)
    y = _MAX[m](x2, k2, stride=s2, padding=_full_pads(p2, cl), data_format=_PD_FORMAT[(m, cl)])
    return y.squeeze(1 if cl else 2) if n == 1 else y


def _avg_pool(
    x: Tensor,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    cl: bool,
    count_include_pad: bool,
) -> Tensor:
    n = len(kernel)
    k, s = list(kernel), list(strides)
    if count_include_pad and any(lo or hi for lo, hi in pads):
        # paddle's divisor is wrong with exclusive=False and asymmetric padding: pad with zeros
        # here, then every window lies inside and is divided by the kernel size
        x = _pad_spatial(x, 1 if cl else 2, pads, 0.0)
        pads = [(0, 0)] * n
    x2, k2, s2, p2 = _as_2d(n, x, cl, k, s, pads)
    m = max(n, 2)
    # exclusive=True: divide by the positions inside the input (count_include_pad=False)
    y = _AVG[m](
        x2, k2, stride=s2, padding=_full_pads(p2, cl), exclusive=not count_include_pad, data_format=_PD_FORMAT[(m, cl)]
    )
    return y.squeeze(1 if cl else 2) if n == 1 else y


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


def adaptive_avg_pool2d(x: Tensor, output_size: int | Sequence[int], /, *, data_format: str = "NHWC") -> Tensor:
    # paddle's bins are the spec's: [floor(i n / m), ceil((i + 1) n / m))
    if x.ndim != 4 or id(x.dtype) not in FLOATS:
        return _compose("adaptive_avg_pool2d")(x, output_size, data_format=data_format)
    size = [output_size, output_size] if isinstance(output_size, int) else list(output_size)
    return F.adaptive_avg_pool2d(x, size, "NCHW" if data_format.startswith("NC") else "NHWC")


# ------------------------------------------------------------------------------------- sampling


def _real_float(dtype: Any) -> bool:
    return id(dtype) in FLOATS


def bilinear_sample(image: Tensor, coords: Tensor, /) -> Tensor:
    batch, samples = bilinear_sample_layout(image, coords, _real_float)
    h, w, c = (int(d) for d in image.shape[-3:])
    n, nbatch = math.prod(samples), math.prod(batch)
    if n * nbatch * c == 0:  # nothing to sample
        return _compose("bilinear_sample")(image, coords)
    dtype = float64 if float64 in (image.dtype, coords.dtype) else float32
    image = paddle.broadcast_to(image.astype(dtype), [*batch, h, w, c]).reshape([nbatch, h, w, c])
    coords = paddle.broadcast_to(coords.astype(dtype), [*batch, *samples, 2]).reshape([nbatch, 1, n, 2])
    # grid_sample reads [-1, 1] across the image: with align_corners=True, -1 and 1 are the
    # centres of the first and last pixels, which its "border" padding clamps to, as the spec
    scale = paddle.to_tensor([2.0 / max(w - 1, 1), 2.0 / max(h - 1, 1)], dtype=dtype, place=coords.place)
    grid = coords * scale - 1.0
    out = F.grid_sample(
        image.transpose([0, 3, 1, 2]), grid, mode="bilinear", padding_mode="border", align_corners=True
    )  # [N, c, 1, n]
    return out.reshape([nbatch, c, n]).transpose([0, 2, 1]).reshape([*batch, *samples, c])


# ---------------------------------------------------------------------------------- activations


def erf(x: Tensor, /) -> Tensor:
    return paddle.erf(x)


# These functions make paddle's own call with paddle's defaults, so any plain call may go to
# paddle directly (to the C function where paddle's is a mere forwarder: F.relu(x) is
# _C_ops.relu(x) in dynamic and PIR mode).
@fastpath(paddle._C_ops.relu, nargs=1)
def relu(x: Tensor, /) -> Tensor:
    return F.relu(x)


@fastpath(c_op(F.sigmoid), nargs=1)
def sigmoid(x: Tensor, /) -> Tensor:
    return F.sigmoid(x)


@fastpath(c_op(F.silu), nargs=1)
def silu(x: Tensor, /) -> Tensor:
    return F.silu(x)


def selu(x: Tensor, /) -> Tensor:
    if x.dtype == paddle.float64:  # paddle's kernel holds scale and alpha as float32 attributes
        return _compose("selu")(x)
    return F.selu(x)


def hardswish(x: Tensor, /) -> Tensor:
    return F.hardswish(x)  # x * relu6(x + 3) / 6


def mish(x: Tensor, /) -> Tensor:
    return F.mish(x)


def leaky_relu(x: Tensor, /, *, alpha: float = 0.2) -> Tensor:
    return F.leaky_relu(x, alpha)


@fastpath(c_op(F.gelu), nargs=1)  # approximate=False: paddle's default too
def gelu(x: Tensor, /, *, approximate: bool = False) -> Tensor:
    return F.gelu(x, bool(approximate))


@fastpath(F.softmax, nargs=1)  # axis=-1: paddle's default too
def softmax(x: Tensor, /, *, axis: int = -1) -> Tensor:
    return F.softmax(x, axis)


def log_softmax(x: Tensor, /, *, axis: int = -1) -> Tensor:
    # paddle's F.log_softmax floors at -64 (float32 logits 1e4 apart give -64, not -2e4), and
    # x - paddle.logsumexp(x) takes twice as long forward and backward on CPU as these four ops.
    # The shift by the maximum only keeps exp finite: the result does not depend on it, so it
    # is a constant to autodiff (no max in the backward pass, exact at every order).
    if x.shape[axis] == 0:  # nothing to normalise (paddle's max refuses an empty axis)
        return x - paddle.logsumexp(x, axis=axis, keepdim=True)
    s = x - paddle.max(x, axis=axis, keepdim=True).detach()
    return s - paddle.log(paddle.sum(paddle.exp(s), axis=axis, keepdim=True))


@fastpath(F.softplus, nargs=1)  # beta=1, threshold=20: paddle's defaults too
def softplus(x: Tensor, /, *, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return F.softplus(x, beta, threshold)  # x where beta x > threshold, as the spec


def elu(x: Tensor, /, *, alpha: float = 1.0) -> Tensor:
    if x.dtype is paddle.float64 and not _f32_exact(alpha):  # paddle's alpha is a float32 attribute
        return _compose("elu")(x, alpha=alpha)
    return F.elu(x, alpha)


# --------------------------------------------------------------------------------------- layers


def linear(x: Tensor, weight: Tensor, /, bias: Tensor | None = None) -> Tensor:
    # paddle's F.linear takes weight [in, out]: the spec's is [out, in], so a transposed matmul
    if x.dtype is not weight.dtype or (bias is not None and bias.dtype is not x.dtype):
        return _compose("linear")(x, weight, bias)
    y = paddle.matmul(x, weight, transpose_y=True)
    return y if bias is None else y + bias


def _causal_bias(lq: int, lk: int, dtype: Any) -> Tensor:
    # query i attends to keys j <= i: 0 there, -inf above the diagonal. Added to the scores, it
    # costs less than a where (which expands its three inputs, and reduces them in the backward
    # pass). Built per call: a cache would hold traced values under paddle.jit.to_static.
    bias = paddle.triu(paddle.full([lq, lk], -math.inf, paddle.float32), 1)
    return bias if dtype is paddle.float32 else bias.astype(dtype)  # (0 and -inf: exact; no bf16 triu)


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    /,
    *,
    mask: Tensor | None = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> Tensor:
    # softmax(q k^T * scale) v on paddle's kernels: the composition's separate transpose of k and
    # its five-op softmax made the program ~25% slower, eagerly and under paddle.jit.to_static.
    # Dropout (and mixed dtypes) stay with the composition.
    if (
        dropout_p > 0.0
        or id(q.dtype) not in FLOATS
        or not (q.dtype == k.dtype == v.dtype)
        or q.ndim < 2
        or (mask is not None and mask.dtype != paddle.bool and mask.dtype != q.dtype)  # (promotes)
    ):
        return _compose("scaled_dot_product_attention")(
            q, k, v, mask=mask, scale=scale, dropout_p=dropout_p, is_causal=is_causal
        )
    s = (1.0 / math.sqrt(q.shape[-1])) if scale is None else scale
    # q scaled rather than the scores (as paddle's MultiHeadAttention does): the same count of
    # products, but the backward pass of the whole attention runs ~6% faster on CPU
    scores = paddle.matmul(paddle.scale(q, s), k, transpose_y=True)
    if is_causal:  # query i attends to keys j <= i (top-left aligned)
        scores = scores + _causal_bias(q.shape[-2], k.shape[-2], q.dtype)
    if mask is not None and mask.dtype == paddle.bool:  # True marks the positions to attend to
        # a query with no key to attend to: NaN
        scores = paddle.where(mask, scores, paddle.full([], -math.inf, scores.dtype))
    if mask is not None and mask.dtype != paddle.bool:  # an additive mask
        scores = scores + mask
    return paddle.matmul(F.softmax(scores, -1), v)


def layer_norm(
    x: Tensor,
    normalized_idxs: int | Sequence[int],
    /,
    *,
    scale: Tensor | None = None,
    offset: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    nd = x.ndim
    axes = sorted(axis_tuple(normalized_idxs, nd, "layer_norm", "normalized_idxs"))
    k = len(axes)
    # composed: axes that are not the trailing ones; eps above 1e-3 (paddle's kernel refuses it);
    # float64 with an eps that float32 cannot hold (paddle keeps eps as a float32 attribute)
    if (
        axes != list(range(nd - k, nd))
        or id(x.dtype) not in FLOATS
        or not 0.0 <= eps <= 1e-3
        or (x.dtype is paddle.float64 and not _f32_exact(eps))
    ):
        return _compose("layer_norm")(x, normalized_idxs, scale=scale, offset=offset, eps=eps)
    ns = list(x.shape[nd - k :])
    w = scale if scale is not None and list(scale.shape) == ns and scale.dtype == x.dtype else None
    b = offset if offset is not None and list(offset.shape) == ns and offset.dtype == x.dtype else None
    if k > 1:  # paddle takes the affine parameters flattened over the normalised axes
        w = None if w is None else w.reshape([-1])
        b = None if b is None else b.reshape([-1])
    y = F.layer_norm(x, ns, w, b, eps)
    if scale is not None and w is None:  # another broadcastable shape or dtype: apply it after
        y = y * scale
    if offset is not None and b is None:
        y = y + offset
    return y


_BN_FORMAT = {
    (2, True): "NC",
    (2, False): "NC",
    (3, True): "NLC",
    (3, False): "NCL",
    (4, True): "NHWC",
    (4, False): "NCHW",
    (5, True): "NDHWC",
    (5, False): "NCDHW",
}


def batch_norm(
    x: Tensor,
    mean: Tensor,
    variance: Tensor,
    /,
    *,
    offset: Tensor | None = None,
    scale: Tensor | None = None,
    training: bool = False,
    eps: float = 1e-5,
    momentum: float = 0.1,
    data_format: str = "NHWC",
) -> tuple[Tensor, Tensor, Tensor]:
    fmt = _BN_FORMAT.get((x.ndim, not data_format.startswith("NC")))
    if (
        fmt is None
        or id(x.dtype) not in FLOATS
        or any(t is not None and t.dtype != x.dtype for t in (mean, variance, offset, scale))
    ):
        return _compose("batch_norm")(
            x,
            mean,
            variance,
            offset=offset,
            scale=scale,
            training=training,
            eps=eps,
            momentum=momentum,
            data_format=data_format,
        )
    if not training:
        y = F.batch_norm(
            x,
            mean,
            variance,
            weight=scale,
            bias=offset,
            training=False,
            epsilon=eps,
            data_format=fmt,
            use_global_stats=True,
        )
        return y, mean, variance
    c = x.shape[1 if data_format.startswith("NC") else -1]
    n = math.prod(x.shape) // max(c, 1)
    if n <= 1 or x.dtype != float32 or not (mean.stop_gradient and variance.stop_gradient):
        # one value per channel has no unbiased variance; paddle's kernel takes the momentum as a
        # float32 (float64 statistics would lose precision); the in-place update has no gradient
        return _compose("batch_norm")(
            x,
            mean,
            variance,
            offset=offset,
            scale=scale,
            training=True,
            eps=eps,
            momentum=momentum,
            data_format=data_format,
        )
    # paddle updates the running statistics it is given in place, as ``p * running + (1 - p) *
    # batch`` with the biased batch variance; the spec weighs the batch by ``momentum`` and takes
    # the unbiased variance (``k`` times the biased one). With ``p = 1 - momentum``, a copy of the
    # mean and ``variance / k`` (a new tensor), then ``k`` times paddle's variance, both match.
    k = n / (n - 1)
    mean_out, var_out = mean.clone(), variance / k
    y = F.batch_norm(
        x,
        mean_out,
        var_out,
        weight=scale,
        bias=offset,
        training=True,
        momentum=1.0 - momentum,
        epsilon=eps,
        data_format=fmt,
    )
    return y, mean_out, var_out * k


_GN_FORMAT = {
    (3, True): "NLC",
    (3, False): "NCL",
    (4, True): "NHWC",
    (4, False): "NCHW",
    (5, True): "NDHWC",
    (5, False): "NCDHW",
}


def group_norm(
    x: Tensor,
    num_groups: int,
    /,
    *,
    scale: Tensor | None = None,
    offset: Tensor | None = None,
    eps: float = 1e-5,
    data_format: str = "NHWC",
) -> Tensor:
    cf = data_format.startswith("NC")
    fmt = _GN_FORMAT.get((x.ndim, not cf))
    c = x.shape[1 if cf else -1]
    if c % num_groups:
        raise ValueError(f"group_norm: {c} channels cannot be split into {num_groups} groups")
    if (
        fmt is None
        or id(x.dtype) not in FLOATS
        or any(t is not None and (t.dtype is not x.dtype or list(t.shape) != [c]) for t in (scale, offset))
    ):
        return _compose("group_norm")(x, num_groups, scale=scale, offset=offset, eps=eps, data_format=data_format)
    return F.group_norm(x, num_groups, eps, scale, offset, fmt)


def embedding(weights: Tensor, indices: Tensor, /, *, max_norm: float | None = None) -> Tensor:
    if max_norm is not None:  # paddle would renormalise the rows of `weights` in place
        return _compose("embedding")(weights, indices, max_norm=max_norm)
    # paddle reads an id outside [0, n) (-1 included) out of bounds, and a float id as an integer
    check_indices(indices, weights.shape[0], "embedding", negative=False, what="id")
    if indices.dtype not in (int32, int64):
        indices = indices.astype(int64)
    return F.embedding(indices, weights)


def one_hot(indices: Tensor, depth: int, /, *, dtype: Any = None, axis: int = -1) -> Tensor:
    # F.one_hot raises on out-of-range indices; the spec gives all zeros: compare with an int64
    # arange instead (an arange of a narrow index dtype would overflow for a large depth)
    integral(indices, "one_hot")
    axis = axis_index(axis, indices.ndim + 1, "one_hot")
    idx = indices if indices.dtype == int64 else indices.astype(int64)
    hot = idx.unsqueeze(-1) == paddle.arange(depth, dtype=int64).to(idx.place)
    dt = DEFAULT_FLOAT if dtype is None else native(dtype, "one_hot")
    out = hot if dt == bool_ else hot.astype(dt)
    if axis != out.ndim - 1:
        out = paddle.moveaxis(out, -1, axis)
    return out


# --------------------------------------------------------------------------------------- losses


def _fast_pair(true: Any, pred: Any) -> bool:
    return (
        isinstance(true, Tensor)
        and isinstance(pred, Tensor)
        and list(true.shape) == list(pred.shape)
        and true.dtype == pred.dtype
        and id(pred.dtype) in FLOATS
        and pred.ndim > 0
    )


def mse_loss(true: Tensor, pred: Tensor, /, *, reduction: str = "mean") -> Tensor:
    if _fast_pair(true, pred) and reduction in ("mean", "sum", "none"):
        return F.mse_loss(pred, true, reduction)
    return _compose("mse_loss")(true, pred, reduction=reduction)


def l1_loss(true: Tensor, pred: Tensor, /, *, reduction: str = "mean") -> Tensor:
    if _fast_pair(true, pred) and reduction in ("mean", "sum", "none"):
        return F.l1_loss(pred, true, reduction)
    return _compose("l1_loss")(true, pred, reduction=reduction)


def _f32_exact(v: float) -> bool:
    return struct.unpack("f", struct.pack("f", v))[0] == v


def huber_loss(true: Tensor, pred: Tensor, /, *, delta: float = 1.0, reduction: str = "mean") -> Tensor:
    if (
        _fast_pair(true, pred)
        and reduction in ("mean", "sum", "none")
        and (pred.dtype is paddle.float32 or _f32_exact(delta))
    ):  # paddle holds delta as a float32 attribute: exact for float64 only if delta is a float32
        # paddle's Huber form: 0.5 d^2 where d < delta, delta (d - 0.5 delta) elsewhere
        return F.smooth_l1_loss(pred, true, reduction, delta, True)
    return _compose("huber_loss")(true, pred, delta=delta, reduction=reduction)


def binary_cross_entropy(
    true: Tensor,
    pred: Tensor,
    /,
    *,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: str = "mean",
) -> Tensor:
    if from_logits and _fast_pair(true, pred) and reduction in ("mean", "sum", "none"):
        # paddle's stable form max(z, 0) - z t + log1p(exp(-|z|)) is the spec's
        return F.binary_cross_entropy_with_logits(pred, true, reduction=reduction)
    return _compose("binary_cross_entropy")(true, pred, epsilon=epsilon, from_logits=from_logits, reduction=reduction)


#: paddle ignores the labels equal to its ignore_index (-100 by default): the spec ignores none
#: and raises for every label outside [0, C), so the one ignored is int64's least (never a class)
_NO_LABEL = -(2**63)


def sparse_cross_entropy(
    true: Tensor,
    pred: Tensor,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: str = "mean",
) -> Tensor:
    a = axis_index(axis, max(getattr(pred, "ndim", 0), 1), "sparse_cross_entropy")
    if not (
        from_logits
        and isinstance(true, Tensor)
        and isinstance(pred, Tensor)
        and pred.ndim >= 2
        and pred.dtype in (paddle.float32, paddle.float64)
        and true.dtype in (paddle.int32, paddle.int64, paddle.int16, paddle.int8, paddle.uint8)
        and list(true.shape) == list(pred.shape[:a] + pred.shape[a + 1 :])
        and reduction in ("mean", "sum", "none")
    ):
        return _compose("sparse_cross_entropy")(
            true, pred, axis=axis, epsilon=epsilon, from_logits=from_logits, reduction=reduction
        )
    # the log-softmax of this plugin (exact; paddle's fused cross_entropy floors the log-probability
    # at -64), then paddle's nll_loss: one op and one backward for the pick and the reduction, half
    # the time of the four ops they are otherwise (take_along_axis, a squeeze, a negation, a mean)
    logp = log_softmax(pred, axis=a)
    logp = logp if a == 1 else paddle.moveaxis(logp, a, 1)
    try:
        return F.nll_loss(logp, true.astype(paddle.int64), ignore_index=_NO_LABEL, reduction=reduction)
    except ValueError as e:  # paddle's InvalidArgument
        if "out of bounds" not in str(e):
            raise
        raise IndexError(f"ivy.sparse_cross_entropy: a label is out of range [0, {pred.shape[a]})") from None
