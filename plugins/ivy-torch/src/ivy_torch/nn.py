"""Neural-network functions: convolutions and pooling on torch.nn.functional, and native versions
of the composed ops where torch has a kernel with exactly the spec's semantics.

torch's convolutions and pools are channel-first with ``[out, in, *k]`` weights; Ivy's filters are
``[*k, in, out]`` and the default layouts channel-last. Channel-last inputs go through a
``movedim`` (a view: torch then runs its channels-last kernels, no copy), filters through a
``permute``. torch pads symmetrically only: asymmetric padding ("SAME" with an even window or a
stride, explicit ``(lo, hi)`` pairs) goes through ``F.pad`` first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import torch
import torch.nn.functional as F

from ivy.plugin_kit import (
    axis_index,
    axis_tuple,
    bilinear_sample_layout,
    composed,
    conv_family,
    conv_transpose_family,
    fastpath,
    pool_family,
    rnn_layers,
)

from ._dtypes import FLOATS, PARTIAL, native
from ._helpers import ORDER, Tensor, int_indices, uint_call

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
    "lstm_update",
    "lstm",
    "gru_update",
    "gru",
    "scaled_dot_product_attention",
    "mse_loss",
    "l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "sparse_cross_entropy",
]


def _compose(name: str) -> Any:
    return composed(name, "torch")


# ------------------------------------------------------------------------------------- layouts


def _flat_pad(pads: Sequence[tuple[int, int]]) -> list[int]:
    """(lo, hi) per spatial axis -> F.pad's list, last axis first."""
    out: list[int] = []
    for lo, hi in reversed(pads):
        out += [lo, hi]
    return out


# ---------------------------------------------------------------------------------------- convs

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
#: Ivy's [*k, a, b] filters -> torch's [b, a, *k]
_PERM = {1: (2, 1, 0), 2: (3, 2, 0, 1), 3: (4, 3, 0, 1, 2)}
#: torch.compile would replay the writes of the toolkit's argument cache on every call
_compiling = torch.compiler.is_compiling


def _conv_call(
    x: Tensor,
    w: Tensor,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    cl: bool,
    bias: Tensor | None,
    groups: int = 1,
) -> Tensor:
    """torch's convolution of ``x`` in the op's layout with torch-layout weights ``w``."""
    if cl:
        x = x.movedim(-1, 1)
    if w.dtype != x.dtype:
        w = w.to(x.dtype)
    if bias is not None and bias.dtype != x.dtype:
        bias = bias.to(x.dtype)
    conv = _CONV[len(strides)]
    if all(lo == hi for lo, hi in pads):
        y = conv(x, w, bias, strides, [lo for lo, _ in pads], dilations, groups)
    else:
        y = conv(F.pad(x, _flat_pad(pads)), w, bias, strides, 0, dilations, groups)
    return y.movedim(1, -1) if cl else y


def _conv(
    x: Tensor,
    filters: Tensor,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    cl: bool,
    bias: Tensor | None = None,
) -> Tensor:
    return _conv_call(x, filters.permute(_PERM[len(strides)]), strides, pads, dilations, cl, bias)


def _conv_oi(
    x: Tensor,
    filters: Tensor,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    cl: bool,
    bias: Tensor | None = None,
) -> Tensor:
    return _conv_call(x, filters, strides, pads, dilations, cl, bias)  # torch's own [out, in, *window]


def _depthwise(
    x: Tensor,
    filters: Tensor,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    cl: bool,
    bias: Tensor | None = None,
) -> Tensor:
    w = filters.permute(2, 0, 1).unsqueeze(1)  # [fh, fw, c] -> [c, 1, fh, fw], one group per channel
    return _conv_call(x, w, strides, pads, dilations, cl, bias, groups=filters.shape[-1])


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
    if cl:
        x = x.movedim(-1, 1)
    w = filters.permute(_PERM[n])  # [*k, d_out, d_in] -> [d_in, d_out, *k], torch's transposed layout
    if w.dtype != x.dtype:
        w = w.to(x.dtype)
    if bias is not None and bias.dtype != x.dtype:
        bias = bias.to(x.dtype)
    # the output before removing padding
    full = [(i - 1) * si + di * (k - 1) + 1 for i, si, di, k in zip(x.shape[2:], s, d, w.shape[2:])]
    # torch removes `lo` on both sides and appends output_padding (< max(stride, dilation)) at the end
    ops = [o - f + 2 * lo for o, f, (lo, _) in zip(outs, full, pads)]
    if all(0 <= op < max(si, di) for op, si, di in zip(ops, s, d)):
        y = _CONV_T[n](x, w, bias, s, [lo for lo, _ in pads], ops, 1, d)
    else:  # the full output, then crop lo at the start and crop or zero-pad the end (F.pad < 0 crops)
        y = _CONV_T[n](x, w, None, s, 0, 0, 1, d)
        y = F.pad(y, _flat_pad([(-lo, o + lo - f) for o, f, (lo, _) in zip(outs, full, pads)]))
        if bias is not None:  # after the padding: the zeros added at the end get it too
            y = y + bias.reshape(-1, *(1,) * n)
    return y.movedim(1, -1) if cl else y


# -------------------------------------------------------------------------------------- pooling

_MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


def _max_pool(x: Tensor, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool) -> Tensor:
    n = len(k)
    if x.dtype in PARTIAL:  # uint16/32 widened exactly, uint64 through an order-preserving int64 map
        return uint_call(lambda z: _max_pool(z, k, s, pads, cl), f"max_pool{n}d", ORDER, x)
    if cl:
        x = x.movedim(-1, 1)
    if x.dtype.is_floating_point:
        if all(lo == hi and 2 * lo <= ki for (lo, hi), ki in zip(pads, k)):  # torch pads with -inf
            y = _MAX[n](x, k, s, [lo for lo, _ in pads])
        else:
            y = _MAX[n](F.pad(x, _flat_pad(pads), value=-math.inf), k, s)
    else:  # torch has no integer max-pool kernels: windows by unfold, then a max over them
        low = False if x.dtype is torch.bool else torch.iinfo(x.dtype).min
        y = F.pad(x, _flat_pad(pads), value=low) if any(lo or hi for lo, hi in pads) else x
        for i in range(n):
            y = y.unfold(2 + i, k[i], s[i])
        y = y.amax(dim=tuple(range(-n, 0))) if x.dtype is not torch.bool else y.flatten(-n).any(-1)
    return y.movedim(1, -1) if cl else y


def _avg_pool(
    x: Tensor, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool, count_include_pad: bool
) -> Tensor:
    n = len(k)
    if cl:
        x = x.movedim(-1, 1)
    if all(lo == hi and 2 * lo <= ki for (lo, hi), ki in zip(pads, k)):
        y = _AVG[n](x, k, s, [lo for lo, _ in pads], False, count_include_pad)
    else:
        flat = _flat_pad(pads)
        y = _AVG[n](F.pad(x, flat), k, s, 0, False, True)  # window sums / window size
        if not count_include_pad:  # divide by the share of each window inside the input instead
            inside = F.pad(torch.ones((1, 1, *x.shape[2:]), dtype=x.dtype, device=x.device), flat)
            y = y / _AVG[n](inside, k, s, 0, False, True)
    return y.movedim(1, -1) if cl else y


_FAMILY = {
    **conv_family(_conv, fused_bias=True, no_cache=_compiling, conv_nd_oi=_conv_oi),
    **conv_family(_depthwise, (2,), fused_bias=True, no_cache=_compiling, depthwise=True),
    **conv_transpose_family(_conv_t, fused_bias=True, no_cache=_compiling),
    **pool_family(_max_pool, _avg_pool, no_cache=_compiling),
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
    # torch's bins are the spec's: [floor(i n / m), ceil((i + 1) n / m))
    # (torch takes any sequence of two sizes; its annotation names an int or a tuple only)
    if data_format.startswith("NC"):
        return F.adaptive_avg_pool2d(x, output_size)  # type: ignore[arg-type]
    return F.adaptive_avg_pool2d(x.movedim(-1, -3), output_size).movedim(-3, -1)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- sampling


def _real_float(dtype: torch.dtype) -> bool:
    return dtype.is_floating_point


def bilinear_sample(image: Tensor, coords: Tensor, /) -> Tensor:
    batch, samples = bilinear_sample_layout(image, coords, _real_float)
    dtype = torch.promote_types(image.dtype, coords.dtype)
    h, w, c = image.shape[-3:]
    nb, n, nbatch = len(batch), math.prod(samples), math.prod(batch)
    if dtype not in FLOATS or n * nbatch * c == 0:  # half precision, or nothing to sample
        return _compose("bilinear_sample")(image, coords)
    if image.shape[:nb] != batch:
        image = image.expand(*batch, h, w, c)
    if coords.shape[:nb] != batch:
        coords = coords.expand(*batch, *samples, 2)
    # grid_sample reads [-1, 1] across the image: with align_corners=True, -1 and 1 are the
    # centres of the first and last pixels, which its "border" padding clamps to, as the spec
    scale = torch.tensor((2.0 / max(w - 1, 1), 2.0 / max(h - 1, 1)), dtype=dtype, device=coords.device)
    grid = coords.to(dtype).reshape(nbatch, 1, n, 2) * scale - 1.0
    nchw = image.to(dtype).reshape(nbatch, h, w, c).permute(0, 3, 1, 2)  # a view of channels-last data
    out = F.grid_sample(nchw, grid, mode="bilinear", padding_mode="border", align_corners=True)
    return out.reshape(nbatch, c, n).transpose(1, 2).reshape(*batch, *samples, c)


# ---------------------------------------------------------------------------------- activations

erf = torch.erf
relu = torch.relu
sigmoid = torch.sigmoid
selu = torch.selu
silu = F.silu
hardswish = F.hardswish
mish = F.mish


@fastpath(F.leaky_relu, nargs=1, defaults=(0.2,))
def leaky_relu(x: Tensor, /, *, alpha: float = 0.2) -> Tensor:
    return F.leaky_relu(x, alpha)


@fastpath(F.gelu, nargs=1)  # torch's default is the exact gelu
def gelu(x: Tensor, /, *, approximate: bool = False) -> Tensor:
    return F.gelu(x, approximate="tanh" if approximate else "none")


@fastpath(torch.softmax, nargs=1, defaults=(-1,))
def softmax(x: Tensor, /, *, axis: int = -1) -> Tensor:
    return torch.softmax(x, axis)


@fastpath(torch.log_softmax, nargs=1, defaults=(-1,))
def log_softmax(x: Tensor, /, *, axis: int = -1) -> Tensor:
    return torch.log_softmax(x, axis)


def softplus(x: Tensor, /, *, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return F.softplus(x, beta, threshold)


def elu(x: Tensor, /, *, alpha: float = 1.0) -> Tensor:
    return F.elu(x, alpha)


# --------------------------------------------------------------------------------------- layers

linear = F.linear  # x @ weight.T + bias, weight [out, in]


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
    trailing = axes == list(range(nd - k, nd))
    xt = x if trailing else x.movedim(axes, list(range(nd - k, nd)))
    ns = xt.shape[nd - k :]
    w = scale if trailing and scale is not None and scale.shape == ns and scale.dtype == x.dtype else None
    b = offset if trailing and offset is not None and offset.shape == ns and offset.dtype == x.dtype else None
    y = F.layer_norm(xt, ns, w, b, eps)
    if not trailing:
        y = y.movedim(list(range(nd - k, nd)), axes)
    if scale is not None and w is None:  # another broadcastable shape or dtype: apply it after
        y = y * scale
    if offset is not None and b is None:
        y = y + offset
    return y


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
    dt = x.dtype
    if (
        x.ndim < 2
        or (training and x.numel() <= x.shape[1 if data_format.startswith("NC") else -1])
        or any(t is not None and t.dtype != dt for t in (mean, variance, offset, scale))
        or mean.requires_grad
        or variance.requires_grad
    ):  # F.batch_norm needs one dtype, and has no gradient for the running statistics
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
    xc = x if data_format.startswith("NC") else x.movedim(-1, 1)
    if not training:
        y = F.batch_norm(xc, mean, variance, scale, offset, False, momentum, eps)
        return (y if xc is x else y.movedim(1, -1)), mean, variance
    # torch's fused kernel updates the running statistics it is given in place, with the spec's
    # momentum and unbiased variance: hand it copies, so that the inputs stay untouched
    mean_out, var_out = mean.clone(), variance.clone()
    y = F.batch_norm(xc, mean_out, var_out, scale, offset, True, momentum, eps)
    return (y if xc is x else y.movedim(1, -1)), mean_out, var_out


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
    xc = x if cf else x.movedim(-1, 1)
    c = xc.shape[1]
    if c % num_groups:
        raise ValueError(f"group_norm: {c} channels cannot be split into {num_groups} groups")
    if any(t is not None and (t.dtype != x.dtype or t.shape != (c,)) for t in (scale, offset)):
        return _compose("group_norm")(x, num_groups, scale=scale, offset=offset, eps=eps, data_format=data_format)
    y = F.group_norm(xc, num_groups, scale, offset, eps)
    return y if cf else y.movedim(1, -1)


_IDX = (torch.int64, torch.int32)


def embedding(weights: Tensor, indices: Tensor, /, *, max_norm: float | None = None) -> Tensor:
    if max_norm is not None:  # F.embedding would renormalise the rows of `weights` in place
        return _compose("embedding")(weights, indices, max_norm=max_norm)
    if indices.dtype not in _IDX:
        indices = int_indices(indices, "embedding", "ids")
    return F.embedding(indices, weights)


def one_hot(indices: Tensor, depth: int, /, *, dtype: Any = None, axis: int = -1) -> Tensor:
    # F.one_hot raises on out-of-range indices; the spec gives all zeros: compare with an int64
    # arange (an arange of a narrow index dtype would overflow for a large depth)
    if indices.dtype not in _IDX:
        indices = int_indices(indices, "one_hot")
    hot = indices.unsqueeze(-1) == torch.arange(depth, device=indices.device)
    out = hot.to(torch.get_default_dtype() if dtype is None else native(dtype))
    if axis != -1 and axis != out.ndim - 1:
        out = out.movedim(-1, axis)
    return out


def _train() -> bool:
    """ATen's RNN ``train`` flag (the dropout is 0 here): cuDNN keeps what its backward needs only
    in training mode, so it must be on whenever a gradient may be taken."""
    return torch.is_grad_enabled()


def _lstm_kernel_ok() -> bool:
    """Whether ``torch.lstm`` may run: not while torch.compile traces, where the gradient of its
    decomposition fails (torch's ``lstm_cell`` adds ``[1, B, 4h]`` gates into a ``[B, 4h]``
    gradient in place under torch.func); the composed cell compiles to the same unrolled graph."""
    return not torch.compiler.is_compiling()


def _rnn_params(
    kernels: Sequence[Tensor],
    recurrent_kernels: Sequence[Tensor],
    biases: Sequence[Tensor | None],
    recurrent_biases: Sequence[Tensor | None],
) -> tuple[list[Tensor], bool]:
    """ATen's flat per-layer parameters ``w_ih, w_hh[, b_ih, b_hh]``; biases for every layer or
    none (``has_biases``), so a missing one among given ones is a zero vector."""
    has_b = any(b is not None for b in biases) or any(b is not None for b in recurrent_biases)
    params: list[Tensor] = []
    for k, r, b, rb in zip(kernels, recurrent_kernels, biases, recurrent_biases):
        # torch's weights are [G * h, in]; its gate orders (LSTM i, f, g, o; GRU r, z, n) are Ivy's
        params += [k.T, r.T]
        if has_b and b is not None and rb is not None:
            params += [b, rb]
        elif has_b:
            z = torch.zeros(k.shape[-1], dtype=k.dtype, device=k.device)
            params += [z if b is None else b, z if rb is None else rb]
    return params, has_b


def lstm_update(
    x: Tensor,
    init_h: Tensor,
    init_c: Tensor,
    kernel: Tensor,
    recurrent_kernel: Tensor,
    /,
    *,
    bias: Tensor | None = None,
    recurrent_bias: Tensor | None = None,
) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    dt = x.dtype
    if (
        x.ndim != 3
        or init_h.ndim != 2
        or any(
            t is not None and t.dtype != dt for t in (init_h, init_c, kernel, recurrent_kernel, bias, recurrent_bias)
        )
        or not _lstm_kernel_ok()
    ):
        return _compose("lstm_update")(
            x, init_h, init_c, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias
        )
    params, has_b = _rnn_params([kernel], [recurrent_kernel], [bias], [recurrent_bias])
    hs, h, c = torch.lstm(x, (init_h[None], init_c[None]), params, has_b, 1, 0.0, _train(), False, True)
    return hs, (h[0], c[0])


def lstm(
    x: Tensor,
    init_h: Tensor,
    init_c: Tensor,
    kernels: Sequence[Tensor],
    recurrent_kernels: Sequence[Tensor],
    /,
    *,
    biases: Sequence[Tensor] | None = None,
    recurrent_biases: Sequence[Tensor] | None = None,
) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    n = len(kernels)
    bs, rbs = rnn_layers("lstm", (init_h, init_c), kernels, recurrent_kernels, biases, recurrent_biases)
    dt = x.dtype
    if (
        x.ndim != 3
        or init_h.ndim != 3
        or any(t is not None and t.dtype != dt for t in (init_h, init_c, *kernels, *recurrent_kernels, *bs, *rbs))
        or not _lstm_kernel_ok()
    ):
        return _compose("lstm")(
            x, init_h, init_c, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases
        )
    params, has_b = _rnn_params(kernels, recurrent_kernels, bs, rbs)
    hs, h, c = torch.lstm(x, (init_h, init_c), params, has_b, n, 0.0, _train(), False, True)
    return hs, (h, c)


def gru_update(
    x: Tensor,
    init_h: Tensor,
    kernel: Tensor,
    recurrent_kernel: Tensor,
    /,
    *,
    bias: Tensor | None = None,
    recurrent_bias: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    dt = x.dtype
    if (
        x.ndim != 3
        or init_h.ndim != 2
        or any(t is not None and t.dtype != dt for t in (init_h, kernel, recurrent_kernel, bias, recurrent_bias))
    ):
        return _compose("gru_update")(x, init_h, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias)
    params, has_b = _rnn_params([kernel], [recurrent_kernel], [bias], [recurrent_bias])
    hs, h = torch.gru(x, init_h[None], params, has_b, 1, 0.0, _train(), False, True)
    return hs, h[0]


def gru(
    x: Tensor,
    init_h: Tensor,
    kernels: Sequence[Tensor],
    recurrent_kernels: Sequence[Tensor],
    /,
    *,
    biases: Sequence[Tensor] | None = None,
    recurrent_biases: Sequence[Tensor] | None = None,
) -> tuple[Tensor, Tensor]:
    bs, rbs = rnn_layers("gru", (init_h,), kernels, recurrent_kernels, biases, recurrent_biases)
    dt = x.dtype
    if (
        x.ndim != 3
        or init_h.ndim != 3
        or any(t is not None and t.dtype != dt for t in (init_h, *kernels, *recurrent_kernels, *bs, *rbs))
    ):
        return _compose("gru")(x, init_h, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases)
    params, has_b = _rnn_params(kernels, recurrent_kernels, bs, rbs)
    hs, h = torch.gru(x, init_h, params, has_b, len(kernels), 0.0, _train(), False, True)
    return hs, h


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
    if q.ndim < 2 or k.ndim < 2 or v.ndim < 2 or not (q.dtype == k.dtype == v.dtype):
        return _compose("scaled_dot_product_attention")(
            q, k, v, mask=mask, scale=scale, dropout_p=dropout_p, is_causal=is_causal
        )
    if mask is None:
        # torch's causal mask is the spec's: key j <= query i (aligned at the top left)
        return F.scaled_dot_product_attention(q, k, v, None, dropout_p, is_causal, scale=scale)
    if is_causal:  # torch refuses a mask together with is_causal: fold the causal part in
        lq, lk = q.shape[-2], k.shape[-2]
        causal = torch.ones(lq, lk, dtype=torch.bool, device=q.device).tril()
        mask = mask & causal if mask.dtype is torch.bool else mask.masked_fill(~causal, -math.inf)
    if mask.dtype is not torch.bool and mask.dtype != q.dtype:
        mask = mask.to(q.dtype)
    out = F.scaled_dot_product_attention(q, k, v, mask, dropout_p, False, scale=scale)
    # the spec: a query that may attend to no key gives NaN (torch gives 0)
    open_ = mask.any(-1, keepdim=True) if mask.dtype is torch.bool else (mask != -math.inf).any(-1, keepdim=True)
    if not bool(open_.all()):
        out = torch.where(open_, out, math.nan)
    return out


# --------------------------------------------------------------------------------------- losses


def _fast_pair(true: Any, pred: Any) -> bool:
    return (
        isinstance(true, Tensor)
        and isinstance(pred, Tensor)
        and true.shape == pred.shape
        and true.dtype == pred.dtype
        and pred.dtype in FLOATS
    )


def mse_loss(true: Tensor, pred: Tensor, /, *, reduction: str = "mean") -> Tensor:
    if _fast_pair(true, pred):
        return F.mse_loss(pred, true, reduction=reduction)
    return _compose("mse_loss")(true, pred, reduction=reduction)


def l1_loss(true: Tensor, pred: Tensor, /, *, reduction: str = "mean") -> Tensor:
    if _fast_pair(true, pred):
        return F.l1_loss(pred, true, reduction=reduction)
    return _compose("l1_loss")(true, pred, reduction=reduction)


def huber_loss(true: Tensor, pred: Tensor, /, *, delta: float = 1.0, reduction: str = "mean") -> Tensor:
    if _fast_pair(true, pred):
        return F.huber_loss(pred, true, reduction=reduction, delta=delta)
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
    if from_logits and _fast_pair(true, pred):
        # max(z, 0) - z t + log1p(exp(-|z|)): torch's stable form is the spec's
        return F.binary_cross_entropy_with_logits(pred, true, reduction=reduction)
    return _compose("binary_cross_entropy")(true, pred, epsilon=epsilon, from_logits=from_logits, reduction=reduction)


_LABELS = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)
#: torch ignores the labels equal to its ignore_index (-100 by default): the spec ignores none and
#: raises for every label outside [0, C), so the one ignored is int64's least (never a class index)
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
    fused = from_logits and isinstance(true, Tensor) and isinstance(pred, Tensor) and pred.dtype in FLOATS
    if fused:
        a = axis_index(axis, pred.ndim, "sparse_cross_entropy")
        fused = true.dtype in _LABELS and tuple(true.shape) == tuple(pred.shape[:a] + pred.shape[a + 1 :])
    if not fused:
        return _compose("sparse_cross_entropy")(
            true, pred, axis=axis, epsilon=epsilon, from_logits=from_logits, reduction=reduction
        )
    # log_softmax and the picked log-probability in one kernel (and one backward), as
    # torch.nn.CrossEntropyLoss: a classifier's loss 35 us forward and backward against 98 us as
    # five ops; an out-of-range label raises torch's IndexError
    logits = pred if pred.ndim < 2 or a == 1 else torch.movedim(pred, a, 1)
    return F.cross_entropy(logits, true.long(), reduction=reduction, ignore_index=_NO_LABEL)
