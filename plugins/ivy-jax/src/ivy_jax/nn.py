"""Neural-network functions: convolutions and pooling on ``jax.lax``, and native versions of the
composed ops where JAX has a function with exactly the spec's semantics (``jax.nn``).

Ivy's layouts map onto ``lax.conv_general_dilated``'s dimension numbers directly: inputs are
``NWC``/``NHWC``/``NDHWC`` or channel first, filters ``[*k, in, out]`` are ``WIO``/``HWIO``/
``DHWIO``, so nothing is transposed. Transposed convolutions are the input gradient of the
forward convolution written as one convolution: the input dilated by the stride, the kernel
flipped with its channel axes swapped (``...OI``), the padding ``e - 1 - lo`` before and whatever
gives the requested output size after (negative: a crop). Pools are ``lax.reduce_window`` with
the monoid's identity as padding, which JAX differentiates natively.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy.ndimage import map_coordinates

from ivy.plugin_kit import add_channel_bias as _add_bias
from ivy.plugin_kit import (
    axis_index,
    axis_tuple,
    bilinear_sample_layout,
    check_integer_indices,
    composed,
    conv_family,
    conv_output_sizes,
    conv_transpose_family,
    pool_family,
    rnn_layers,
    tiny_conv_outputs,
)

from ._bounds import check_indices
from ._dtypes import native

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
    "lstm_update",
    "lstm",
    "gru_update",
    "gru",
    "scaled_dot_product_attention",
    "bilinear_sample",
]

_Array = jax.Array


def _compose(name: str) -> Any:
    return composed(name, "jax")


# ------------------------------------------------------------------------------------- layouts

_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}
_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _dims(n: int, cl: bool, rhs: str) -> tuple[str, str, str]:
    fmt = _FORMATS[n][0 if cl else 1]
    return fmt, rhs, fmt


# ---------------------------------------------------------------------------------------- convs


def _biased(y: _Array, bias: _Array | None, cl: bool) -> _Array:
    """A convolution's result ``y`` plus its (checked) ``bias`` (``lax`` convolutions take none;
    XLA fuses the add into the convolution's output under ``jit``)."""
    if bias is None:
        return y
    return _add_bias(y, bias if bias.dtype == y.dtype else bias.astype(y.dtype), cl)


def _conv(
    x: _Array,
    w: _Array,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: _Array | None = None,
    groups: int = 1,
) -> _Array:
    n = len(s)
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    if groups == 1 and x.dtype in (jnp.float32, jnp.float64):
        # XLA's CPU backend runs these through a rewrite that flips the kernel on every call: 512
        # channels at 2x2, a batch of 2: 17.7 ms against 0.34 ms as one product (torch: 0.8 ms),
        # 40 ms against 1.7 ms with the gradient; at 4x4 and more XLA's own is as fast or faster
        outs = tiny_conv_outputs(x, w.shape[:n], s, pads, d, cl)
        if outs is not None and _on_cpu(x):
            return _biased(_conv_as_matmul(x, w, s, pads, d, cl, outs), bias, cl)
        if _one_channel_on_cpu(x, w.shape[n], w.shape[:n], w.shape[-1]):
            return _biased(_window_taps(x, w.reshape(*w.shape[:n], w.shape[-1]), s, pads, d, cl), bias, cl)
        outs = (
            conv_output_sizes(x, w.shape[:n], s, pads, d, cl)
            if _few_channels_on_cpu(x, w.shape[n], w.shape[:n])
            else None
        )
        if outs is not None:
            return _biased(_conv_as_matmul(x, w, s, pads, d, cl, outs), bias, cl)
    y = lax.conv_general_dilated(
        x, w, s, pads, rhs_dilation=d, dimension_numbers=_dims(n, cl, _SPATIAL[n] + "IO"), feature_group_count=groups
    )
    return _biased(y, bias, cl)


def _conv_oi(
    x: _Array,
    w: _Array,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: _Array | None = None,
) -> _Array:
    """:func:`_conv` with filters [out, in, *window] (a transpiled torch model's parameters),
    taken as they lie: a permutation of them would be a copy of every weight on every call."""
    n = len(s)
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    if x.dtype in (jnp.float32, jnp.float64):
        outs = tiny_conv_outputs(x, w.shape[2:], s, pads, d, cl)  # (see _conv)
        if outs is not None and _on_cpu(x):
            return _biased(_conv_as_matmul(x, w, s, pads, d, cl, outs, filters_last=False), bias, cl)
        if _one_channel_on_cpu(x, w.shape[1], w.shape[2:], w.shape[0]):
            taps = jnp.moveaxis(w.reshape(w.shape[0], *w.shape[2:]), 0, -1)  # [*window, out]: a few values
            return _biased(_window_taps(x, taps, s, pads, d, cl), bias, cl)
        outs = (
            conv_output_sizes(x, w.shape[2:], s, pads, d, cl)
            if _few_channels_on_cpu(x, w.shape[1], w.shape[2:])
            else None
        )
        if outs is not None:
            hwio = jnp.transpose(w, (*range(2, n + 2), 1, 0))  # (few values: a few channels, a small window)
            return _biased(_conv_as_matmul(x, hwio, s, pads, d, cl, outs), bias, cl)
    y = lax.conv_general_dilated(x, w, s, pads, rhs_dilation=d, dimension_numbers=_dims(n, cl, "OI" + _SPATIAL[n]))
    return _biased(y, bias, cl)


def _on_cpu(x: _Array) -> bool:
    devices = getattr(x, "devices", None)
    if devices is not None and not isinstance(x, jax.core.Tracer):
        return all(dev.platform == "cpu" for dev in devices())
    return jax.default_backend() == "cpu"  # traced: placed on the default backend


def _one_channel_on_cpu(x: _Array, d_in: int, window: Sequence[int], d_out: int) -> bool:
    """Whether a dense convolution of a one-channel input (an image filter: kornia's Sobel pair,
    its channels folded into the batch) runs as :func:`_window_taps`: on XLA's CPU backend,
    whose convolution of one input channel is 8x slower than the products written out (a 3x3
    pair of filters on 3x66x66: 660 against 80 us), for up to _MAX_TAPS products per output
    position (dtype as for :func:`_taps_on_cpu`). Under a trace only (jax.jit, emitted programs):
    run op by op, the products are two dispatches, and two compilations per shape, per tap."""
    return d_in == 1 and isinstance(x, jax.core.Tracer) and math.prod(window) * d_out <= _MAX_TAPS and _on_cpu(x)


#: The most inputs per output (window positions x channels) of a convolution of a few channels
#: that is computed as one matrix product (see _few_channels_on_cpu).
_MAX_PATCH = 48


def _few_channels_on_cpu(x: _Array, d_in: int, window: Sequence[int]) -> bool:
    """Whether a dense convolution of an input of 2-4 channels (a network's first layer, on RGB
    images) runs as one matrix product of the window's positions side by side
    (:func:`_conv_as_matmul`): XLA's CPU convolution of so few channels is 2-3x slower than that
    product (3 to 16 channels, 3x3, on 8x3x32x32 images: 650 against 270 us; torch's 200 us),
    up to _MAX_PATCH inputs per output (a 7x7 stem's 147 make patches that cost more: 260
    against XLA's 160 us). Under a trace only, as :func:`_one_channel_on_cpu`."""
    return 1 < d_in <= 4 and math.prod(window) * d_in <= _MAX_PATCH and isinstance(x, jax.core.Tracer) and _on_cpu(x)


def _window_taps(
    x: _Array, w: _Array, s: tuple[int, ...], pads: list[tuple[int, int]], d: tuple[int, ...], cl: bool
) -> _Array:
    """A convolution as the sum over the window of the padded input's strided slices times that
    tap's weights ``w`` [*window, c] along the channel axis: a depthwise one (c channels, one
    filter each) or one of a one-channel input (broadcast to c outputs). Element-wise work XLA
    fuses into one loop."""
    n = len(s)
    sp = range(1, n + 1) if cl else range(2, n + 2)
    cfg = [(0, 0, 0)] * (n + 2)
    for axis, (lo, hi) in zip(sp, pads):
        cfg[axis] = (lo, hi, 0)
    xp = lax.pad(x, jnp.zeros((), x.dtype), cfg)
    k = w.shape[:n]
    outs = [(xp.shape[a] - di * (ki - 1) - 1) // si + 1 for a, ki, si, di in zip(sp, k, s, d)]
    wb = w if cl else w.reshape(*k, w.shape[-1], *([1] * n))  # per tap, broadcast over the channel axis
    acc = None
    for tap in np.ndindex(*k):
        start, limit, strides = [0] * (n + 2), list(xp.shape), [1] * (n + 2)
        for a, t, o, si, di in zip(sp, tap, outs, s, d):
            start[a], limit[a], strides[a] = t * di, t * di + (o - 1) * si + 1, si
        term = lax.slice(xp, start, limit, strides) * wb[tap]
        acc = term if acc is None else acc + term
    assert acc is not None  # (a window has at least one position)
    return _computed_once(acc, w) if isinstance(acc, jax.core.Tracer) else acc


def _computed_once(y: _Array, w: _Array) -> _Array:
    """``y`` as a value of its own in the compiled program, not recomputed by its consumers.

    XLA's CPU backend fuses a producer made of cheap element-wise ops (here a sum of up to
    _MAX_TAPS shifted products) into every consumer that reads it: a layer norm after a
    depthwise convolution (ConvNeXt's block: a transpose, two reductions, the normalisation)
    computes the convolution three times, strided (a 7x7 one of 2x32x16x16 floats with its
    layer norm: 930 against 360 us; the whole ConvNeXt of the transpiler's benchmark 2.2 against
    1.2 ms). ``lax.optimization_barrier`` is dropped before fusion on CPU; a conditional is never
    fused with its operand or its users. Its predicate is a value XLA cannot fold (a weight equal
    to itself: false only for NaN, where ``+ 0.0`` differs from ``y`` at most in a zero's sign),
    and its branches differ, which keeps XLA from folding it away."""
    if y.size == 0 or w.size == 0:
        return y
    first = w.reshape(-1)[0]
    return lax.cond(first == first, lambda a: a, lambda a: a + jnp.zeros((), a.dtype), y)


def _conv_as_matmul(
    x: _Array,
    w: _Array,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    outs: Sequence[int],
    filters_last: bool = True,
) -> _Array:
    """A dense convolution as one matrix product: the padded input's strided slice for each
    window position, side by side on the channel axis ([N, *out, positions * in]), times the
    filters as a [positions * in, out] matrix (their [*k, in, out] layout, row-major). Filters
    [out, in, *k] (``filters_last=False``) are an [out, in * positions] matrix as they lie: the
    slices are then ordered channel by channel ([N, *out, in * positions])."""
    n = len(s)
    if not cl:
        x = jnp.moveaxis(x, 1, -1)
    cfg = [(0, 0, 0)] + [(lo, hi, 0) for lo, hi in pads] + [(0, 0, 0)]
    xp = lax.pad(x, jnp.zeros((), x.dtype), cfg)
    cols = []
    for tap in np.ndindex(*(w.shape[:n] if filters_last else w.shape[2:])):
        start = [0, *(t * di for t, di in zip(tap, d)), 0]
        limit = [xp.shape[0], *(st + (o - 1) * si + 1 for st, o, si in zip(start[1:], outs, s)), xp.shape[-1]]
        cols.append(lax.slice(xp, start, limit, [1, *s, 1]))
    if filters_last:
        y = jnp.matmul(jnp.concatenate(cols, axis=-1), w.reshape(-1, w.shape[-1]))
    else:
        patches = jnp.stack(cols, axis=-1)  # [N, *out, in, positions]
        patches = patches.reshape(*patches.shape[:-2], -1)
        y = lax.dot_general(patches, w.reshape(w.shape[0], -1), (((patches.ndim - 1,), (1,)), ((), ())))
    return y if cl else jnp.moveaxis(y, -1, 1)


def _depthwise(
    x: _Array,
    filters: _Array,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: _Array | None = None,
) -> _Array:
    c = filters.shape[-1]
    if _taps_on_cpu(x, filters):
        w = filters if filters.dtype == x.dtype else filters.astype(x.dtype)
        return _biased(_window_taps(x, w, s, pads, d, cl), bias, cl)
    w = filters.reshape(*filters.shape[:2], 1, c)  # HWIO with I = 1: one group per channel
    return _conv(x, w, s, pads, d, cl, bias, groups=c)


#: The most window positions a depthwise convolution is written out for (see _window_taps).
_MAX_TAPS = 128


def _taps_on_cpu(x: _Array, filters: _Array) -> bool:
    """Whether a depthwise convolution runs as a sum of shifted products (_window_taps): on
    XLA's CPU backend, whose grouped convolution is 10-200x slower than a dense one of the same
    arithmetic (a 7x7 depthwise convolution of 2x16x56x56 floats: 28 ms, against 0.3 ms written
    out, and torch's 0.13 ms), for float32/float64 (a sum in a half-precision type would lose
    the convolution's wider accumulation) and windows of up to _MAX_TAPS positions."""
    if x.dtype not in (jnp.float32, jnp.float64) or math.prod(filters.shape[:-1]) > _MAX_TAPS:
        return False
    return _on_cpu(x)


def _conv_t(
    x: _Array,
    filters: _Array,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    outs: tuple[int, ...],
    bias: _Array | None = None,
) -> _Array:
    n = len(s)
    w = filters if filters.dtype == x.dtype else filters.astype(x.dtype)
    sizes = x.shape[1:-1] if cl else x.shape[2:]
    # The adjoint of the forward conv: dilate x by the stride, pad e - 1 - lo before and enough
    # after for `o` outputs (negative pads crop), and correlate with the flipped kernel.
    tpads = [
        (di * (k - 1) - lo, o + lo - (i - 1) * si - 1)
        for di, k, (lo, _), o, i, si in zip(d, w.shape[:n], pads, outs, sizes, s)
    ]
    w = jnp.flip(w, axis=tuple(range(n)))
    y = lax.conv_general_dilated(
        x, w, (1,) * n, tpads, lhs_dilation=s, rhs_dilation=d, dimension_numbers=_dims(n, cl, _SPATIAL[n] + "OI")
    )
    return _biased(y, bias, cl)


# -------------------------------------------------------------------------------------- pooling


def _window(n: int, cl: bool, v: tuple[int, ...], fill: int) -> tuple[int, ...]:
    return (fill, *v, fill) if cl else (fill, fill, *v)


def _full_pads(pads: list[tuple[int, int]], cl: bool) -> list[tuple[int, int]]:
    return [(0, 0), *pads, (0, 0)] if cl else [(0, 0), (0, 0), *pads]


def _max_pool(x: _Array, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool) -> _Array:
    n = len(k)
    dt = x.dtype
    if dt == np.bool_:  # max of booleans: any
        return _max_pool(x.astype(np.uint8), k, s, pads, cl).astype(dt)
    # the identity of max: padded positions never win
    init = np.array(-np.inf if jnp.issubdtype(dt, jnp.inexact) else np.iinfo(dt).min, dtype=dt)
    return lax.reduce_window(x, init, lax.max, _window(n, cl, k, 1), _window(n, cl, s, 1), _full_pads(pads, cl))


def _counts(size: int, k: int, s: int, lo: int, hi: int) -> np.ndarray:
    """Per output position along one axis: how many of its window's taps fall inside the input."""
    out = (size + lo + hi - k) // s + 1
    start = np.arange(out) * s - lo
    return np.minimum(start + k, size) - np.maximum(start, 0)


def _avg_pool(
    x: _Array, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool, count_include_pad: bool
) -> _Array:
    n = len(k)
    sizes = x.shape[1:-1] if cl else x.shape[2:]
    zero = np.array(0, dtype=x.dtype)
    sums = lax.reduce_window(x, zero, lax.add, _window(n, cl, k, 1), _window(n, cl, s, 1), _full_pads(pads, cl))
    if count_include_pad or not any(lo or hi for lo, hi in pads):
        return sums / math.prod(k)
    # the window's share inside the input, a separable constant known from the shapes alone
    cnt = np.ones((), dtype=np.float64)
    for i, (lo, hi) in enumerate(pads):
        cnt = np.multiply.outer(cnt, _counts(sizes[i], k[i], s[i], lo, hi))
    cnt = cnt[..., None] if cl else cnt[None]
    return sums / jnp.asarray(cnt, dtype=sums.dtype)


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


# ------------------------------------------------------------------------------------- sampling


def _sample_channel(channel: _Array, y: _Array, x: _Array) -> _Array:
    # order 1, "nearest": the spec's bilinear blend with coordinates clamped to the border
    return map_coordinates(channel, [y, x], order=1, mode="nearest")


@jax.jit  # one dispatch (and one program per shape): eagerly, each op of the blend would pay one
def _sample(image: _Array, coords: _Array) -> _Array:
    """``image`` ``[N, h, w, c]`` read at ``coords`` ``[N, n, 2]``: ``[N, n, c]``."""
    per_channel = jax.vmap(_sample_channel, in_axes=(-1, None, None), out_axes=-1)
    return jax.vmap(per_channel)(image, coords[..., 1], coords[..., 0])


def _real_float(dtype: Any) -> bool:
    return bool(jnp.issubdtype(dtype, jnp.floating))


def bilinear_sample(image: _Array, coords: _Array, /) -> _Array:
    batch, samples = bilinear_sample_layout(image, coords, _real_float)
    dtype = jnp.result_type(image.dtype, coords.dtype)
    h, w, c = image.shape[-3:]
    n, nbatch = math.prod(samples), math.prod(batch)
    image = jnp.broadcast_to(image.astype(dtype), (*batch, h, w, c)).reshape(nbatch, h, w, c)
    coords = jnp.broadcast_to(coords.astype(dtype), (*batch, *samples, 2)).reshape(nbatch, n, 2)
    return _sample(image, coords).reshape(*batch, *samples, c)


# ---------------------------------------------------------------------------------- activations
#
# Each activation is one jitted kernel: eagerly that is a single dispatch instead of one per
# jax.numpy op (JAX's eager op dispatch dominates for small arrays); inside an outer jit it is
# simply inlined. Static arguments are the ones that change the program (axes, flags).

_jit = jax.jit

erf = _jit(jax.scipy.special.erf)
relu = _jit(jax.nn.relu)  # custom JVP: gradient 0 at 0
sigmoid = _jit(jax.nn.sigmoid)
silu = _jit(jax.nn.silu)
selu = _jit(jax.nn.selu)  # Klambauer et al.'s constants, as the spec
hardswish = _jit(jax.nn.hard_swish)  # x * relu6(x + 3) / 6
mish = _jit(jax.nn.mish)  # x * tanh(softplus(x))
_leaky_relu = _jit(jax.nn.leaky_relu)
_gelu = _jit(jax.nn.gelu, static_argnames=("approximate",))
_softmax = _jit(jax.nn.softmax, static_argnames=("axis",))
_log_softmax = _jit(jax.nn.log_softmax, static_argnames=("axis",))
_elu = _jit(jax.nn.elu)


def leaky_relu(x: _Array, /, *, alpha: float = 0.2) -> _Array:
    return _leaky_relu(x, alpha)  # jax's default slope is 0.01, the spec's 0.2


def gelu(x: _Array, /, *, approximate: bool = False) -> _Array:
    return _gelu(x, approximate=bool(approximate))  # jax's default is the tanh form, the spec's erf


def softmax(x: _Array, /, *, axis: int = -1) -> _Array:
    return _softmax(x, axis=axis)


def log_softmax(x: _Array, /, *, axis: int = -1) -> _Array:
    return _log_softmax(x, axis=axis)


@partial(jax.jit, static_argnames=("beta", "threshold"))
def _softplus(x: _Array, beta: float, threshold: float) -> _Array:
    # jax.nn.softplus has no beta / threshold: logaddexp(beta x, 0) / beta, x itself past threshold
    bx = x if beta == 1.0 else x * beta
    soft = jax.nn.softplus(bx)
    if beta != 1.0:
        soft = soft / beta
    return jnp.where(bx > threshold, x, soft)


def softplus(x: _Array, /, *, beta: float = 1.0, threshold: float = 20.0) -> _Array:
    return _softplus(x, float(beta), float(threshold))


def elu(x: _Array, /, *, alpha: float = 1.0) -> _Array:
    return _elu(x, alpha)


# --------------------------------------------------------------------------------------- layers


@jax.jit
def _linear(x: _Array, weight: _Array, bias: _Array | None) -> _Array:
    y = jnp.matmul(x, weight.T)
    return y if bias is None else y + bias


def linear(x: _Array, weight: _Array, /, bias: _Array | None = None) -> _Array:
    if x.dtype != weight.dtype or (bias is not None and bias.dtype != x.dtype):
        return _compose("linear")(x, weight, bias)  # the standard's promotion, not JAX's
    return _linear(x, weight, bias)


@partial(jax.jit, static_argnames=("axes",))
def _layer_norm(x: _Array, axes: tuple[int, ...], scale: Any, offset: Any, eps: Any) -> _Array:
    mean = jnp.mean(x, axis=axes, keepdims=True)
    centred = x - mean
    var = jnp.mean(jnp.square(centred), axis=axes, keepdims=True)  # the biased variance
    y = centred * lax.rsqrt(var + eps)
    if scale is not None:
        y = y * scale
    if offset is not None:
        y = y + offset
    return y


def layer_norm(
    x: _Array,
    normalized_idxs: int | Sequence[int],
    /,
    *,
    scale: _Array | None = None,
    offset: _Array | None = None,
    eps: float = 1e-5,
) -> _Array:
    axes = tuple(sorted(axis_tuple(normalized_idxs, x.ndim, "layer_norm", "normalized_idxs")))
    return _layer_norm(x, axes, scale, offset, eps)


def embedding(weights: _Array, indices: _Array, /, *, max_norm: float | None = None) -> _Array:
    if max_norm is not None:
        return _compose("embedding")(weights, indices, max_norm=max_norm)
    check_indices(indices, weights.shape[0], "embedding", negative=False, what="id")  # jnp.take fills
    return jnp.take(weights, indices, axis=0)


def one_hot(indices: _Array, depth: int, /, *, dtype: Any = None, axis: int = -1) -> _Array:
    from ._dtypes import default_float

    dt = default_float() if dtype is None else native(dtype, "one_hot")
    check_integer_indices(indices.dtype.kind in "iu", indices.dtype, "one_hot")
    axis_index(axis, indices.ndim + 1, "one_hot")
    if indices.dtype.itemsize < 4 or indices.dtype.kind == "u":
        # jax.nn.one_hot compares with an iota of the indices' dtype, which would wrap for a
        # narrow dtype and a large depth
        indices = indices.astype(np.int64 if indices.dtype.itemsize >= 4 and jax.enable_x64.value else np.int32)
    return jax.nn.one_hot(indices, depth, dtype=dt, axis=axis)  # out-of-range indices: all zeros


def _lstm_layer(
    x: _Array, h: _Array, c: _Array, kernel: _Array, recurrent_kernel: _Array, bias: Any, recurrent_bias: Any
) -> tuple[_Array, tuple[_Array, _Array]]:
    # one lax.scan over time: one compiled loop instead of T steps of eager dispatch. The input
    # projection is made inside the step: on XLA's CPU backend that is about 1.4x faster forward
    # and backward than projecting every step at once beforehand (the [time, batch, 4h] array
    # and its gradient cost more than the per-step matmuls save)
    b = (
        None
        if bias is None and recurrent_bias is None
        else (0 if bias is None else bias) + (0 if recurrent_bias is None else recurrent_bias)
    )
    dt = jnp.result_type(x, h, c, kernel, recurrent_kernel, *(() if b is None else (b,)))
    hid = h.shape[-1]

    def step(carry: tuple[_Array, _Array], x_t: _Array) -> tuple[tuple[_Array, _Array], _Array]:
        h, c = carry
        z = jnp.matmul(x_t, kernel) + jnp.matmul(h, recurrent_kernel)
        if b is not None:
            z = z + b
        i, f, g, o = z[:, :hid], z[:, hid : 2 * hid], z[:, 2 * hid : 3 * hid], z[:, 3 * hid :]
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    (h, c), hs = lax.scan(step, (h.astype(dt), c.astype(dt)), jnp.swapaxes(x, 0, 1).astype(dt))
    return jnp.swapaxes(hs, 0, 1), (h, c)


def _gru_layer(
    x: _Array, h: _Array, kernel: _Array, recurrent_kernel: _Array, bias: Any, recurrent_bias: Any
) -> tuple[_Array, _Array]:
    # one lax.scan over time, each gate's input and recurrent products made inside the step: on
    # XLA's CPU backend about 1.5x faster forward and backward than one projection of every step
    # beforehand and one [hidden, 3h] product a step sliced into the gates
    extra = tuple(a for a in (bias, recurrent_bias) if a is not None)
    dt = jnp.result_type(x, h, kernel, recurrent_kernel, *extra)
    hid = h.shape[-1]
    gates = [slice(0, hid), slice(hid, 2 * hid), slice(2 * hid, 3 * hid)]
    ks = [kernel[:, g] for g in gates]
    rks = [recurrent_kernel[:, g] for g in gates]

    def step(h: _Array, x_t: _Array) -> tuple[_Array, _Array]:
        xs = [jnp.matmul(x_t, k) for k in ks]
        hs = [jnp.matmul(h, r) for r in rks]
        if bias is not None:
            xs = [a + bias[g] for a, g in zip(xs, gates)]
        if recurrent_bias is not None:  # inside the reset gate's product: not foldable into bias
            hs = [a + recurrent_bias[g] for a, g in zip(hs, gates)]
        r = jax.nn.sigmoid(xs[0] + hs[0])
        z = jax.nn.sigmoid(xs[1] + hs[1])
        n = jnp.tanh(xs[2] + r * hs[2])
        h = n + z * (h - n)  # (1 - z) * n + z * h
        return h, h

    h, hs = lax.scan(step, h.astype(dt), jnp.swapaxes(x, 0, 1).astype(dt))
    return jnp.swapaxes(hs, 0, 1), h


_lstm = jax.jit(_lstm_layer)
_gru = jax.jit(_gru_layer)


@jax.jit
def _lstm_stack(x: _Array, h0: _Array, c0: _Array, ks: Any, rks: Any, bs: Any, rbs: Any) -> Any:
    # one compiled program: a scan per layer, each feeding the next
    hs_last, cs_last = [], []
    for layer, (k, rk, b, rb) in enumerate(zip(ks, rks, bs, rbs)):
        x, (h, c) = _lstm_layer(x, h0[layer], c0[layer], k, rk, b, rb)
        hs_last.append(h)
        cs_last.append(c)
    return x, (jnp.stack(hs_last), jnp.stack(cs_last))


@jax.jit
def _gru_stack(x: _Array, h0: _Array, ks: Any, rks: Any, bs: Any, rbs: Any) -> Any:
    hs_last = []
    for layer, (k, rk, b, rb) in enumerate(zip(ks, rks, bs, rbs)):
        x, h = _gru_layer(x, h0[layer], k, rk, b, rb)
        hs_last.append(h)
    return x, jnp.stack(hs_last)


def lstm_update(
    x: _Array,
    init_h: _Array,
    init_c: _Array,
    kernel: _Array,
    recurrent_kernel: _Array,
    /,
    *,
    bias: _Array | None = None,
    recurrent_bias: _Array | None = None,
) -> tuple[_Array, tuple[_Array, _Array]]:
    if x.ndim != 3 or init_h.ndim != 2 or init_c.ndim != 2:
        return _compose("lstm_update")(
            x, init_h, init_c, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias
        )
    return _lstm(x, init_h, init_c, kernel, recurrent_kernel, bias, recurrent_bias)


def lstm(
    x: _Array,
    init_h: _Array,
    init_c: _Array,
    kernels: Sequence[_Array],
    recurrent_kernels: Sequence[_Array],
    /,
    *,
    biases: Sequence[_Array] | None = None,
    recurrent_biases: Sequence[_Array] | None = None,
) -> tuple[_Array, tuple[_Array, _Array]]:
    bs, rbs = rnn_layers("lstm", (init_h, init_c), kernels, recurrent_kernels, biases, recurrent_biases)
    if x.ndim != 3 or init_h.ndim != 3 or init_c.ndim != 3:
        return _compose("lstm")(
            x, init_h, init_c, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases
        )
    return _lstm_stack(x, init_h, init_c, list(kernels), list(recurrent_kernels), bs, rbs)


def gru_update(
    x: _Array,
    init_h: _Array,
    kernel: _Array,
    recurrent_kernel: _Array,
    /,
    *,
    bias: _Array | None = None,
    recurrent_bias: _Array | None = None,
) -> tuple[_Array, _Array]:
    if x.ndim != 3 or init_h.ndim != 2:
        return _compose("gru_update")(x, init_h, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias)
    return _gru(x, init_h, kernel, recurrent_kernel, bias, recurrent_bias)


def gru(
    x: _Array,
    init_h: _Array,
    kernels: Sequence[_Array],
    recurrent_kernels: Sequence[_Array],
    /,
    *,
    biases: Sequence[_Array] | None = None,
    recurrent_biases: Sequence[_Array] | None = None,
) -> tuple[_Array, _Array]:
    bs, rbs = rnn_layers("gru", (init_h,), kernels, recurrent_kernels, biases, recurrent_biases)
    if x.ndim != 3 or init_h.ndim != 3:
        return _compose("gru")(x, init_h, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases)
    return _gru_stack(x, init_h, list(kernels), list(recurrent_kernels), bs, rbs)


@partial(jax.jit, static_argnames=("scale", "is_causal"))
def _attention(q: _Array, k: _Array, mask: Any, scale: float | None, is_causal: bool) -> _Array:
    s = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = jnp.matmul(q, jnp.swapaxes(k, -1, -2)) * s
    if is_causal:  # query i attends to keys j <= i (top-left aligned)
        lq, lk = q.shape[-2], k.shape[-2]
        scores = jnp.where(jnp.tril(jnp.ones((lq, lk), dtype=bool)), scores, -jnp.inf)
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf) if mask.dtype == np.bool_ else scores + mask
    return jax.nn.softmax(scores, axis=-1)  # a query with no key left: NaN, as the spec says


def scaled_dot_product_attention(
    q: _Array,
    k: _Array,
    v: _Array,
    /,
    *,
    mask: _Array | None = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> _Array:
    # jax.nn.dot_product_attention wants [B, T, N, H] and fills masked scores with a large finite
    # number (a query with no key left gives an average, not the spec's NaN): written out instead.
    weights = _attention(q, k, mask, None if scale is None else float(scale), bool(is_causal))
    if dropout_p > 0.0:
        from .random import dropout

        weights = dropout(weights, dropout_p)
    return jnp.matmul(weights, v)
