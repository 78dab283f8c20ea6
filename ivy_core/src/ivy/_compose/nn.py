"""Neural-network functions composed from Array API ops (defaults; plugins may go native)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..plugin_kit._checks import (
    axis_index,
    axis_tuple,
    check_integer_indices,
    check_probability,
    host_bounds,
    rnn_layers,
)
from ..plugin_kit._nn import bilinear_sample_layout
from . import composes, index_dtype

_SQRT_2 = math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _integral(xp: Any, indices: Any, op: str, what: str) -> None:
    check_integer_indices(xp.isdtype(indices.dtype, "integral"), indices.dtype, op, what)


def _check_ids(xp: Any, ids: Any, n: int, op: str, what: str) -> None:
    """Ids (class labels, embedding rows) in [0, n): one_hot would turn any other into a row of
    zeros (a loss of 0), a gather into another row or garbage."""
    try:  # one copy to the host: cheaper than the framework's reductions (JAX: ~50 us each)
        b = host_bounds(xp.to_numpy(ids))
    except Exception:  # a tracer or symbolic tensor (each framework refuses its own way)
        return  # its values are unknown while a compiler traces: the check cannot run there
    if b is not None and (b[0] < 0 or b[1] >= n):
        raise IndexError(f"ivy.{op}: {what} {b[0] if b[0] < 0 else b[1]} is out of range [0, {n})")


# ------------------------------------------------------------------ activations


@composes
def relu(xp: Any, x: Any, /) -> Any:
    return xp.maximum(x, 0)


@composes
def leaky_relu(xp: Any, x: Any, /, *, alpha: float = 0.2) -> Any:
    return xp.where(xp.greater(x, 0), x, xp.multiply(x, alpha))


@composes
def sigmoid(xp: Any, x: Any, /) -> Any:
    # 0.5 (1 + tanh(x/2)) is exactly the logistic function and cannot overflow.
    return xp.multiply(xp.add(xp.tanh(xp.multiply(x, 0.5)), 1.0), 0.5)


@composes
def silu(xp: Any, x: Any, /) -> Any:
    return xp.multiply(x, sigmoid(xp, x))


@composes
def gelu(xp: Any, x: Any, /, *, approximate: bool = False) -> Any:
    if approximate:
        inner = xp.multiply(xp.add(x, xp.multiply(xp.pow(x, 3), 0.044715)), _SQRT_2_OVER_PI)
        return xp.multiply(xp.multiply(x, 0.5), xp.add(xp.tanh(inner), 1.0))
    return xp.multiply(xp.multiply(x, 0.5), xp.add(xp.erf(xp.divide(x, _SQRT_2)), 1.0))


@composes
def erf(xp: Any, x: Any, /) -> Any:
    # |x| < 3: erf = 2/√π e^{-x²} Σ 2ⁿ x^{2n+1} / (2n+1)!!  (all terms positive: no cancellation).
    # |x| ≥ 3: erfc from its continued fraction x + (1/2)/(x + 1/(x + (3/2)/(x + ...))).
    a = xp.abs(x)
    small = xp.minimum(a, 3.0)
    x2 = xp.multiply(small, small)
    term = small
    total = small
    for n in range(1, 80):
        term = xp.divide(xp.multiply(term, xp.multiply(x2, 2.0)), 2 * n + 1)
        total = xp.add(total, term)
    series = xp.multiply(xp.multiply(total, xp.exp(xp.negative(x2))), 2.0 / math.sqrt(math.pi))
    big = xp.maximum(a, 3.0)
    f = big
    for k in range(60, 0, -1):
        f = xp.add(big, xp.divide(k / 2.0, f))
    tail = xp.subtract(1.0, xp.divide(xp.exp(xp.negative(xp.multiply(big, big))), xp.multiply(f, math.sqrt(math.pi))))
    out = xp.where(xp.less(a, 3.0), series, tail)
    return xp.where(xp.less(x, 0), xp.negative(out), out)


@composes
def softmax(xp: Any, x: Any, /, *, axis: int = -1) -> Any:
    if x.shape[axis_index(axis, x.ndim, "softmax")] == 0:
        return xp.astype(x, x.dtype, copy=True)  # nothing to normalise (the max below would refuse)
    # the shift by the max only keeps exp finite: softmax does not depend on it, so no gradient
    # flows through it (a max's gradient is a scatter, slow on some backends: 22 ms on paddle)
    e = xp.exp(xp.subtract(x, xp.stop_gradient(xp.max(x, axis=axis, keepdims=True))))
    return xp.divide(e, xp.sum(e, axis=axis, keepdims=True))


@composes
def log_softmax(xp: Any, x: Any, /, *, axis: int = -1) -> Any:
    if x.shape[axis_index(axis, x.ndim, "log_softmax")] == 0:
        return xp.astype(x, x.dtype, copy=True)
    s = xp.subtract(x, xp.stop_gradient(xp.max(x, axis=axis, keepdims=True)))  # (as in softmax)
    return xp.subtract(s, xp.log(xp.sum(xp.exp(s), axis=axis, keepdims=True)))


@composes
def softplus(xp: Any, x: Any, /, *, beta: float = 1.0, threshold: float = 20.0) -> Any:
    bx = xp.multiply(x, beta)
    # max(z, 0) + log1p(exp(-|z|)) is softplus(z) without overflow anywhere.
    soft = xp.add(xp.maximum(bx, 0), xp.log1p(xp.exp(xp.negative(xp.abs(bx)))))
    return xp.where(xp.greater(bx, threshold), x, xp.divide(soft, beta))


@composes
def elu(xp: Any, x: Any, /, *, alpha: float = 1.0) -> Any:
    neg = xp.multiply(xp.expm1(xp.minimum(x, 0)), alpha)  # min(x, 0): no overflow in the unused branch
    return xp.where(xp.greater(x, 0), x, neg)


@composes
def selu(xp: Any, x: Any, /) -> Any:
    return xp.multiply(elu(xp, x, alpha=_SELU_ALPHA), _SELU_SCALE)


@composes
def hardswish(xp: Any, x: Any, /) -> Any:
    return xp.multiply(x, xp.divide(xp.clip(xp.add(x, 3.0), 0.0, 6.0), 6.0))


@composes
def mish(xp: Any, x: Any, /) -> Any:
    return xp.multiply(x, xp.tanh(softplus(xp, x)))


# ------------------------------------------------------------------ layers


@composes
def linear(xp: Any, x: Any, weight: Any, /, bias: Any = None) -> Any:
    y = xp.matmul(x, xp.matrix_transpose(weight))
    return y if bias is None else xp.add(y, bias)


@composes
def embedding(xp: Any, weights: Any, indices: Any, /, *, max_norm: float | None = None) -> Any:
    _integral(xp, indices, "embedding", "ids")
    flat = xp.reshape(indices, (-1,))
    _check_ids(xp, flat, weights.shape[0], "embedding", "id")
    rows = xp.take(weights, flat, axis=0)
    if max_norm is not None:
        norms = xp.linalg.vector_norm(rows, axis=-1, keepdims=True)
        rows = xp.where(xp.greater(norms, max_norm), xp.multiply(rows, xp.divide(max_norm, norms)), rows)
    return xp.reshape(rows, (*indices.shape, weights.shape[-1]))


@composes
def one_hot(xp: Any, indices: Any, depth: int, /, *, dtype: Any = None, axis: int = -1) -> Any:
    _integral(xp, indices, "one_hot", "indices")
    axis = axis_index(axis, indices.ndim + 1, "one_hot")
    # positions of the indexing dtype: an int8/uint8 arange would overflow for large depths
    idx = index_dtype(xp)
    positions = xp.arange(depth, dtype=idx, device=xp.dev(indices, as_native=True))
    hot = xp.equal(xp.astype(xp.expand_dims(indices, axis=-1), idx), positions)
    if dtype is None:
        dtype = xp.__array_namespace_info__().default_dtypes()["real floating"]
    out = xp.astype(hot, dtype)
    if axis != out.ndim - 1:
        out = xp.moveaxis(out, -1, axis)
    return out


def _stats_axes(x: Any, data_format: str) -> tuple[tuple[int, ...], int]:
    channel = 1 if data_format.startswith("NC") else x.ndim - 1
    return tuple(a for a in range(x.ndim) if a != channel), channel


def _per_channel(xp: Any, v: Any, x: Any, channel: int) -> Any:
    shape = [1] * x.ndim
    shape[channel] = -1
    return xp.reshape(v, tuple(shape))


@composes
def layer_norm(
    xp: Any,
    x: Any,
    normalized_idxs: int | Sequence[int],
    /,
    *,
    scale: Any = None,
    offset: Any = None,
    eps: float = 1e-5,
) -> Any:
    axes = axis_tuple(normalized_idxs, x.ndim, "layer_norm", "normalized_idxs")
    mean = xp.mean(x, axis=axes, keepdims=True)
    var = xp.var(x, axis=axes, keepdims=True)
    y = xp.divide(xp.subtract(x, mean), xp.sqrt(xp.add(var, eps)))
    if scale is not None:
        y = xp.multiply(y, scale)
    if offset is not None:
        y = xp.add(y, offset)
    return y


@composes
def batch_norm(
    xp: Any,
    x: Any,
    mean: Any,
    variance: Any,
    /,
    *,
    offset: Any = None,
    scale: Any = None,
    training: bool = False,
    eps: float = 1e-5,
    momentum: float = 0.1,
    data_format: str = "NHWC",
) -> tuple[Any, Any, Any]:
    axes, channel = _stats_axes(x, data_format)
    if training:
        n = math.prod(x.shape[a] for a in axes)
        batch_mean = xp.mean(x, axis=axes)
        # var(x) = mean((x - s)^2) - (mean(x) - s)^2 for any constant s, exactly, so at every order
        # of derivative; s = the mean (a constant to autodiff) keeps the accurate two-pass value
        # (the second term is 0) with the backward pass of the one-pass formula, which a compiler
        # fuses into fewer passes over x (a CNN's training step under jax.jit: 7% faster)
        shift = xp.stop_gradient(batch_mean)
        dev = xp.subtract(x, _per_channel(xp, shift, x, channel))
        drift = xp.subtract(batch_mean, shift)
        batch_var = xp.subtract(xp.mean(xp.multiply(dev, dev), axis=axes), xp.multiply(drift, drift))
        # running statistics use the unbiased variance, as torch and keras do
        unbiased = xp.multiply(batch_var, n / max(n - 1, 1))
        mean_out = xp.add(xp.multiply(mean, 1.0 - momentum), xp.multiply(batch_mean, momentum))
        var_out = xp.add(xp.multiply(variance, 1.0 - momentum), xp.multiply(unbiased, momentum))
        use_var = batch_var
        centred = xp.subtract(x, _per_channel(xp, batch_mean, x, channel))
    else:
        mean_out, var_out = mean, variance
        use_var = variance
        centred = xp.subtract(x, _per_channel(xp, mean, x, channel))
    # (x - mean) * (scale / sqrt(var + eps)) + offset: the per-channel factor first, so that two
    # full-size products (and their gradients) are one; the centring stays first (x * factor -
    # mean * factor would cancel catastrophically where the mean dwarfs the spread)
    factor = xp.divide(1.0, xp.sqrt(xp.add(use_var, eps)))
    if scale is not None:
        factor = xp.multiply(factor, scale)
    y = xp.multiply(centred, _per_channel(xp, factor, x, channel))
    if offset is not None:
        y = xp.add(y, _per_channel(xp, offset, x, channel))
    return y, mean_out, var_out


@composes
def group_norm(
    xp: Any,
    x: Any,
    num_groups: int,
    /,
    *,
    scale: Any = None,
    offset: Any = None,
    eps: float = 1e-5,
    data_format: str = "NHWC",
) -> Any:
    channels_first = data_format.startswith("NC")
    xc = x if channels_first else xp.moveaxis(x, -1, 1)
    n, c = xc.shape[0], xc.shape[1]
    if c % num_groups:
        raise ValueError(f"group_norm: {c} channels cannot be split into {num_groups} groups")
    g = xp.reshape(xc, (n, num_groups, -1))
    mean = xp.mean(g, axis=-1, keepdims=True)
    var = xp.var(g, axis=-1, keepdims=True)
    y = xp.reshape(xp.divide(xp.subtract(g, mean), xp.sqrt(xp.add(var, eps))), xc.shape)
    shape = (1, c) + (1,) * (xc.ndim - 2)
    if scale is not None:
        y = xp.multiply(y, xp.reshape(scale, shape))
    if offset is not None:
        y = xp.add(y, xp.reshape(offset, shape))
    return y if channels_first else xp.moveaxis(y, 1, -1)


@composes
def adaptive_avg_pool2d(xp: Any, x: Any, output_size: int | Sequence[int], /, *, data_format: str = "NHWC") -> Any:
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    hax, wax = (x.ndim - 2, x.ndim - 1) if data_format.startswith("NC") else (x.ndim - 3, x.ndim - 2)
    h, w = x.shape[hax], x.shape[wax]

    def window(i: int, n_in: int, n_out: int) -> tuple[int, int]:
        # torch's bins: [floor(i n / m), ceil((i + 1) n / m))
        return (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)

    rows = []
    for i in range(oh):
        r0, r1 = window(i, h, oh)
        cols = []
        for j in range(ow):
            c0, c1 = window(j, w, ow)
            idx = [slice(None)] * x.ndim
            idx[hax], idx[wax] = slice(r0, r1), slice(c0, c1)
            cols.append(xp.mean(x[tuple(idx)], axis=(hax, wax), keepdims=True))
        rows.append(xp.concat(cols, axis=wax))
    return xp.concat(rows, axis=hax)


# ------------------------------------------------------------------ sampling


@composes
def bilinear_sample(xp: Any, image: Any, coords: Any, /) -> Any:
    batch, samples = bilinear_sample_layout(image, coords, lambda d: xp.isdtype(d, "real floating"))
    dtype = xp.result_type(image.dtype, coords.dtype)
    image = image if image.dtype == dtype else xp.astype(image, dtype)
    coords = coords if coords.dtype == dtype else xp.astype(coords, dtype)
    h, w, c = (int(d) for d in image.shape[-3:])
    nb, n, nbatch = len(batch), math.prod(samples), math.prod(batch)
    coords = xp.reshape(coords, (*coords.shape[:nb], n, 2))
    if tuple(coords.shape[:nb]) != batch:
        coords = xp.broadcast_to(coords, (*batch, n, 2))
    if tuple(image.shape[:nb]) != batch:
        image = xp.broadcast_to(image, (*batch, h, w, c))
    # every batch image in one table of pixels, read with one gather of the four neighbours
    pixels = xp.reshape(image, (nbatch * h * w, c))
    x = xp.clip(coords[..., 0], 0.0, float(w - 1))
    y = xp.clip(coords[..., 1], 0.0, float(h - 1))
    # the lower corner stops one short of the border: its neighbour + 1 stays inside, and the
    # weight reaches 1 exactly on the last row / column
    x0 = xp.clip(xp.floor(x), 0.0, float(max(w - 2, 0)))
    y0 = xp.clip(xp.floor(y), 0.0, float(max(h - 2, 0)))
    wx = xp.expand_dims(xp.subtract(x, x0), axis=-1)
    wy = xp.expand_dims(xp.subtract(y, y0), axis=-1)
    idt = index_dtype(xp)
    first = xp.arange(0, nbatch * h * w, h * w, dtype=idt, device=xp.dev(image, as_native=True))
    top_left = xp.add(
        xp.add(xp.multiply(xp.astype(y0, idt), w), xp.astype(x0, idt)), xp.reshape(first, (*batch, 1))
    )  # [B..., n]
    dx, dy = (1 if w > 1 else 0), (w if h > 1 else 0)
    idx = xp.stack([top_left, xp.add(top_left, dx), xp.add(top_left, dy), xp.add(top_left, dx + dy)], axis=-2)
    vals = xp.reshape(xp.take(pixels, xp.reshape(idx, (-1,)), axis=0), (*batch, 4, n, c))
    v00, v01, v10, v11 = vals[..., 0, :, :], vals[..., 1, :, :], vals[..., 2, :, :], vals[..., 3, :, :]
    top = xp.add(v00, xp.multiply(xp.subtract(v01, v00), wx))
    bottom = xp.add(v10, xp.multiply(xp.subtract(v11, v10), wx))
    out = xp.add(top, xp.multiply(xp.subtract(bottom, top), wy))
    return xp.reshape(out, (*batch, *samples, c))


# ------------------------------------------------------------------ recurrent


def _split4(xp: Any, z: Any) -> tuple[Any, Any, Any, Any]:
    n = z.shape[-1] // 4
    return z[..., :n], z[..., n : 2 * n], z[..., 2 * n : 3 * n], z[..., 3 * n :]


@composes
def lstm_update(
    xp: Any,
    x: Any,
    init_h: Any,
    init_c: Any,
    kernel: Any,
    recurrent_kernel: Any,
    /,
    *,
    bias: Any = None,
    recurrent_bias: Any = None,
) -> tuple[Any, tuple[Any, Any]]:
    xw = xp.matmul(x, kernel)  # every time step at once: [..., t, 4h]
    if bias is not None:
        xw = xp.add(xw, bias)
    if recurrent_bias is not None:
        xw = xp.add(xw, recurrent_bias)
    h, c = init_h, init_c
    hs = []
    for t in range(x.shape[-2]):
        z = xp.add(xw[..., t, :], xp.matmul(h, recurrent_kernel))
        i, f, g, o = _split4(xp, z)
        c = xp.add(xp.multiply(sigmoid(xp, f), c), xp.multiply(sigmoid(xp, i), xp.tanh(g)))
        h = xp.multiply(sigmoid(xp, o), xp.tanh(c))
        hs.append(h)
    return xp.stack(hs, axis=-2), (h, c)


@composes
def lstm(
    xp: Any,
    x: Any,
    init_h: Any,
    init_c: Any,
    kernels: Sequence[Any],
    recurrent_kernels: Sequence[Any],
    /,
    *,
    biases: Sequence[Any] | None = None,
    recurrent_biases: Sequence[Any] | None = None,
) -> tuple[Any, tuple[Any, Any]]:
    n = len(kernels)
    rnn_layers("lstm", (init_h, init_c), kernels, recurrent_kernels, biases, recurrent_biases)
    hs_out, hs_last, cs_last = x, [], []
    for layer in range(n):
        hs_out, (h, c) = lstm_update(
            xp,
            hs_out,
            init_h[layer, ...],  # (the standard indexes every axis, or says `...`)
            init_c[layer, ...],
            kernels[layer],
            recurrent_kernels[layer],
            bias=None if biases is None else biases[layer],
            recurrent_bias=None if recurrent_biases is None else recurrent_biases[layer],
        )
        hs_last.append(h)
        cs_last.append(c)
    return hs_out, (xp.stack(hs_last, axis=0), xp.stack(cs_last, axis=0))


@composes
def gru_update(
    xp: Any,
    x: Any,
    init_h: Any,
    kernel: Any,
    recurrent_kernel: Any,
    /,
    *,
    bias: Any = None,
    recurrent_bias: Any = None,
) -> tuple[Any, Any]:
    xw = xp.matmul(x, kernel)  # every time step at once: [..., t, 3h]
    if bias is not None:
        xw = xp.add(xw, bias)
    n = kernel.shape[-1] // 3
    h = init_h
    hs = []
    for t in range(x.shape[-2]):
        xt = xw[..., t, :]
        hw = xp.matmul(h, recurrent_kernel)
        if recurrent_bias is not None:  # inside the reset gate's product: not foldable into xw
            hw = xp.add(hw, recurrent_bias)
        r = sigmoid(xp, xp.add(xt[..., :n], hw[..., :n]))
        z = sigmoid(xp, xp.add(xt[..., n : 2 * n], hw[..., n : 2 * n]))
        cand = xp.tanh(xp.add(xt[..., 2 * n :], xp.multiply(r, hw[..., 2 * n :])))
        h = xp.add(cand, xp.multiply(z, xp.subtract(h, cand)))  # (1 - z) * n + z * h
        hs.append(h)
    return xp.stack(hs, axis=-2), h


@composes
def gru(
    xp: Any,
    x: Any,
    init_h: Any,
    kernels: Sequence[Any],
    recurrent_kernels: Sequence[Any],
    /,
    *,
    biases: Sequence[Any] | None = None,
    recurrent_biases: Sequence[Any] | None = None,
) -> tuple[Any, Any]:
    n = len(kernels)
    rnn_layers("gru", (init_h,), kernels, recurrent_kernels, biases, recurrent_biases)
    hs_out, hs_last = x, []
    for layer in range(n):
        hs_out, h = gru_update(
            xp,
            hs_out,
            init_h[layer, ...],
            kernels[layer],
            recurrent_kernels[layer],
            bias=None if biases is None else biases[layer],
            recurrent_bias=None if recurrent_biases is None else recurrent_biases[layer],
        )
        hs_last.append(h)
    return hs_out, xp.stack(hs_last, axis=0)


# ------------------------------------------------------------------ attention


@composes
def scaled_dot_product_attention(
    xp: Any,
    query: Any,
    key: Any,
    value: Any,
    /,
    *,
    mask: Any = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> Any:
    d = query.shape[-1]
    scores = xp.multiply(xp.matmul(query, xp.matrix_transpose(key)), (1.0 / math.sqrt(d)) if scale is None else scale)
    neg = -math.inf  # a query that may attend to no key gives NaN, as the spec says
    if is_causal:  # query i attends to keys j <= i (top-left aligned)
        lq, lk = query.shape[-2], key.shape[-2]
        causal = xp.tril(xp.ones((lq, lk), dtype=xp.bool, device=xp.dev(query, as_native=True)))
        scores = xp.where(causal, scores, neg)
    if mask is not None:
        if xp.isdtype(mask.dtype, "bool"):  # True marks the positions to attend to
            scores = xp.where(mask, scores, neg)
        else:  # an additive mask
            scores = xp.add(scores, mask)
    weights = softmax(xp, scores, axis=-1)
    if dropout_p > 0.0:
        weights = xp.dropout(weights, dropout_p)
    return xp.matmul(weights, value)


@composes
def multi_head_attention(
    xp: Any,
    query: Any,
    /,
    key: Any = None,
    value: Any = None,
    *,
    num_heads: int,
    q_weight: Any,
    k_weight: Any,
    v_weight: Any,
    out_weight: Any,
    q_bias: Any = None,
    k_bias: Any = None,
    v_bias: Any = None,
    out_bias: Any = None,
    mask: Any = None,
    is_causal: bool = False,
    scale: float | None = None,
) -> Any:
    key = query if key is None else key
    value = key if value is None else value

    def proj(x: Any, w: Any, b: Any) -> Any:
        y = xp.matmul(x, w)
        return y if b is None else xp.add(y, b)

    def heads(x: Any) -> Any:  # [..., l, e] -> [..., heads, l, e / heads]
        *lead, length, e = x.shape
        x = xp.reshape(x, (*lead, length, num_heads, e // num_heads))
        return xp.moveaxis(x, -2, -3)

    q, k, v = (
        heads(proj(query, q_weight, q_bias)),
        heads(proj(key, k_weight, k_bias)),
        heads(proj(value, v_weight, v_bias)),
    )
    if mask is not None and mask.ndim == q.ndim - 1:
        mask = xp.expand_dims(mask, axis=-3)  # one mask for all heads
    o = scaled_dot_product_attention(xp, q, k, v, mask=mask, scale=scale, is_causal=is_causal)
    o = xp.moveaxis(o, -3, -2)
    o = xp.reshape(o, (*o.shape[:-2], o.shape[-2] * o.shape[-1]))
    return proj(o, out_weight, out_bias)


# ------------------------------------------------------------------ losses


def _reduce(xp: Any, loss: Any, reduction: str) -> Any:
    if reduction == "mean":
        return xp.mean(loss)
    if reduction == "sum":
        return xp.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _log_probabilities(xp: Any, pred: Any, axis: int, epsilon: float, from_logits: bool) -> Any:
    if from_logits:
        return xp.log_softmax(pred, axis=axis)
    return xp.log(xp.clip(pred, epsilon, 1.0 - epsilon))


@composes
def cross_entropy(
    xp: Any,
    true: Any,
    pred: Any,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: str = "mean",
) -> Any:
    logp = _log_probabilities(xp, pred, axis, epsilon, from_logits)
    return _reduce(xp, xp.negative(xp.sum(xp.multiply(true, logp), axis=axis)), reduction)


@composes
def binary_cross_entropy(
    xp: Any,
    true: Any,
    pred: Any,
    /,
    *,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: str = "mean",
) -> Any:
    if from_logits:
        # max(z, 0) - z t + log(1 + exp(-|z|)): the stable form
        loss = xp.add(
            xp.subtract(xp.maximum(pred, 0), xp.multiply(pred, true)),
            xp.log1p(xp.exp(xp.negative(xp.abs(pred)))),
        )
    else:
        p = xp.clip(pred, epsilon, 1.0 - epsilon)
        loss = xp.negative(
            xp.add(xp.multiply(true, xp.log(p)), xp.multiply(xp.subtract(1.0, true), xp.log(xp.subtract(1.0, p))))
        )
    return _reduce(xp, loss, reduction)


@composes
def sparse_cross_entropy(
    xp: Any,
    true: Any,
    pred: Any,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: str = "mean",
) -> Any:
    _integral(xp, true, "sparse_cross_entropy", "labels (true)")
    n = pred.shape[axis_index(axis, pred.ndim, "sparse_cross_entropy")]
    _check_ids(xp, true, n, "sparse_cross_entropy", "label")
    hot = one_hot(xp, true, n, dtype=pred.dtype, axis=axis)
    return cross_entropy(xp, hot, pred, axis=axis, epsilon=epsilon, from_logits=from_logits, reduction=reduction)


@composes
def mse_loss(xp: Any, true: Any, pred: Any, /, *, reduction: str = "mean") -> Any:
    return _reduce(xp, xp.square(xp.subtract(pred, true)), reduction)


@composes
def l1_loss(xp: Any, true: Any, pred: Any, /, *, reduction: str = "mean") -> Any:
    return _reduce(xp, xp.abs(xp.subtract(pred, true)), reduction)


@composes
def huber_loss(xp: Any, true: Any, pred: Any, /, *, delta: float = 1.0, reduction: str = "mean") -> Any:
    a = xp.abs(xp.subtract(pred, true))
    quad = xp.multiply(xp.square(a), 0.5)
    lin = xp.multiply(xp.subtract(a, 0.5 * delta), delta)
    return _reduce(xp, xp.where(xp.less_equal(a, delta), quad, lin), reduction)


@composes
def kl_div(xp: Any, p: Any, q: Any, /, *, axis: int = -1, reduction: str = "mean") -> Any:
    # Σ p log(p / q) along axis; terms with p = 0 contribute 0.
    safe_p = xp.where(xp.greater(p, 0), p, 1.0)
    terms = xp.where(xp.greater(p, 0), xp.multiply(p, xp.subtract(xp.log(safe_p), xp.log(q))), 0.0)
    return _reduce(xp, xp.sum(terms, axis=axis), reduction)


@composes
def dropout(
    xp: Any, x: Any, prob: float, /, *, scale: bool = True, training: bool = True, seed: int | None = None
) -> Any:
    check_probability(prob, "dropout")
    if not training or prob == 0.0:
        return x
    keep = xp.bernoulli(1.0 - prob, shape=x.shape, dtype=x.dtype, device=xp.dev(x, as_native=True), seed=seed)
    y = xp.multiply(x, keep)
    return xp.divide(y, 1.0 - prob) if scale else y
