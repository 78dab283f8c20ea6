"""Convolutions and pools on MXNet's kernels (``npx.convolution``, ``npx.pooling``),
differentiable; the 1-3-d ops with the spec's signatures are built by the toolkit
(``conv_family``, ``conv_transpose_family``, ``pool_family``) from one N-d function each.

MXNet computes channels-first layouts (its CPU kernels refuse channels-last), takes weights as
``[d_out, d_in, *window]`` and pads symmetrically: inputs are transposed, filters too, and other
padding is applied first (by concatenation: MXNet's ``pad`` writes zeros whatever value it is
given). Transposed convolutions are convolutions of the zero-upsampled input with the flipped
filters (MXNet's ``deconvolution`` is wrong for strided dilated 1-D cases and refuses 3-D
dilations). MXNet pools floating point only: pools of integers and bools take the maximum of the
window's strided slices instead. ``erf`` is MXNet's own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from ivy.plugin_kit import (
    add_channel_bias,
    check_bias,
    conv_family,
    conv_transpose_family,
    ntuple,
    padding_pairs,
    pool_family,
)
from ivy.plugin_kit import channels_last as _channels_last

from ._dtypes import DEFAULT_FLOAT, FLOATS, bool_, uint8
from ._framework import Array, mnp, npx, onp
from ._helpers import cast, where


def _to_first(x: Any, last: bool) -> Any:
    return mnp.moveaxis(x, -1, 1) if last else x


def _from_first(x: Any, last: bool) -> Any:
    return mnp.moveaxis(x, 1, -1) if last else x


def _pad_with(x: Any, pads: Sequence[tuple[int, int]], value: Any) -> Any:
    """``x`` (channels first) padded with ``value`` on its spatial axes."""
    for i, (lo, hi) in enumerate(pads):
        ax = 2 + i
        parts = []
        for width in (lo, hi):
            shape = x.shape[:ax] + (width,) + x.shape[ax + 1 :]
            parts.append(mnp.full(shape, value, dtype=x.dtype, ctx=x.ctx) if width else None)
        if parts[0] is not None or parts[1] is not None:
            x = mnp.concatenate([p for p in (parts[0], x, parts[1]) if p is not None], axis=ax)
    return x


def _float_input(x: Any, filters: Any) -> tuple[Any, Any]:
    """Both operands in the dtype of ``x`` (the result's, by the spec), floating point."""
    dt = x.dtype if x.dtype in FLOATS else DEFAULT_FLOAT
    return cast(x, dt), cast(filters, dt)


def _conv(
    x: Any,
    filters: Any,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    channels_last: bool,
    bias: Any = None,
) -> Any:
    n = len(strides)
    x, filters = _float_input(x, filters)
    xc = _to_first(x, channels_last)
    symmetric = all(lo == hi for lo, hi in pads)
    if not symmetric:
        xc = _pad_with(xc, pads, 0.0)
    k = tuple(int(s) for s in filters.shape[:n])
    d_in, d_out = int(filters.shape[n]), int(filters.shape[n + 1])
    channels = int(xc.shape[1])
    if channels % d_in:
        raise ValueError(f"ivy.conv{n}d: the input has {channels} channels, the filters take {d_in}")
    w = mnp.transpose(filters, (n + 1, n) + tuple(range(n)))  # [d_out, d_in, *window]
    out = npx.convolution(
        xc,
        w,
        None if bias is None else cast(bias, x.dtype),
        kernel=k,
        stride=strides,
        dilate=dilations,
        pad=tuple(lo for lo, _ in pads) if symmetric else (0,) * n,
        num_filter=d_out,
        num_group=channels // d_in,
        no_bias=bias is None,
    )
    return _from_first(out, channels_last)


def _upsample(x: Any, strides: tuple[int, ...]) -> Any:
    """``x`` (channels first) with ``s - 1`` zeros between neighbours along each spatial axis."""
    for i, s in enumerate(strides):
        n = int(x.shape[2 + i])
        if s == 1 or n == 0:
            continue
        ax = 2 + i
        z = mnp.zeros(x.shape[: ax + 1] + (s - 1,) + x.shape[ax + 1 :], dtype=x.dtype, ctx=x.ctx)
        both = mnp.concatenate([mnp.expand_dims(x, ax + 1), z], axis=ax + 1)  # [..., n, s, ...]
        x = both.reshape(x.shape[:ax] + (n * s,) + x.shape[ax + 1 :])
        x = mnp.take(x, mnp.arange((n - 1) * s + 1, dtype="int64", ctx=x.ctx), axis=ax)
    return x


def _conv_t(
    x: Any,
    filters: Any,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    channels_last: bool,
    out_sizes: tuple[int, ...],
    bias: Any = None,
) -> Any:
    n = len(strides)
    x, filters = _float_input(x, filters)
    xc = _to_first(x, channels_last)
    k = tuple(int(s) for s in filters.shape[:n])
    d_out, d_in = int(filters.shape[n]), int(filters.shape[n + 1])
    if int(xc.shape[1]) != d_in:
        raise ValueError(f"ivy.conv{n}d_transpose: the input has {xc.shape[1]} channels, the filters take {d_in}")
    # the full result: the upsampled input, padded by the dilated window less one, convolved with
    # the spatially flipped filters whose channel roles are swapped
    up = _upsample(xc, strides)
    w = mnp.flip(mnp.transpose(filters, (n, n + 1) + tuple(range(n))), axis=tuple(range(2, n + 2)))
    full = npx.convolution(
        up,
        w,
        kernel=k,
        stride=(1,) * n,
        dilate=dilations,
        pad=tuple(d * (kk - 1) for kk, d in zip(k, dilations)),
        num_filter=d_out,
        no_bias=True,
    )
    # the forward convolution's padding comes off; a requested size beyond the full result (by
    # less than a stride) is made of zeros
    extra = [max(lo + o - int(full.shape[2 + i]), 0) for i, ((lo, _), o) in enumerate(zip(pads, out_sizes))]
    if any(extra):
        full = _pad_with(full, [(0, e) for e in extra], 0.0)
    sl = (slice(None), slice(None)) + tuple(slice(lo, lo + o) for (lo, _), o in zip(pads, out_sizes))
    out = full[sl] if bias is None else add_channel_bias(full[sl], cast(bias, x.dtype), False)
    return _from_first(out, channels_last)


def _lowest(dt: Any) -> Any:
    return -math.inf if dt in FLOATS else onp.iinfo(dt).min


def _window_max(xc: Any, kernel: tuple[int, ...], strides: tuple[int, ...]) -> Any:
    """Max pool of channels-first ``xc`` (already padded) as the maximum of strided slices, one
    per window offset: exact for any dtype MXNet's pooling refuses."""
    n = len(kernel)
    out_sizes = [(int(xc.shape[2 + i]) - kernel[i]) // strides[i] + 1 for i in range(n)]
    best = None
    for offset in onp.ndindex(*kernel):
        sl = (slice(None), slice(None)) + tuple(
            slice(o, o + (m - 1) * s + 1, s) for o, m, s in zip(offset, out_sizes, strides)
        )
        part = xc[sl]
        best = part if best is None else mnp.maximum(best, part)
    return best


def _max_pool(
    x: Any, kernel: tuple[int, ...], strides: tuple[int, ...], pads: list[tuple[int, int]], channels_last: bool
) -> Any:
    dt = x.dtype
    xc = _to_first(cast(x, uint8) if dt == bool_ else x, channels_last)  # (MXNet moves no bool axes)
    padded = _pad_with(xc, pads, _lowest(xc.dtype)) if any(lo or hi for lo, hi in pads) else xc
    if xc.dtype in FLOATS:
        out = npx.pooling(padded, kernel=kernel, stride=strides, pool_type="max", pooling_convention="valid")
        if any(lo or hi for lo, hi in pads):
            # a window wholly in the padding holds -inf (MXNet's kernel starts from the lowest
            # finite number): where the window reaches no input position
            inside = npx.pooling(
                _pad_with(mnp.ones((1, 1) + tuple(xc.shape[2:]), dtype=xc.dtype, ctx=xc.ctx), pads, 0.0),
                kernel=kernel,
                stride=strides,
                pool_type="max",
                pooling_convention="valid",
            )
            out = where(inside > 0, out, mnp.array(-math.inf, dtype=xc.dtype, ctx=xc.ctx))
    else:
        out = _window_max(padded, kernel, strides)
    return cast(_from_first(out, channels_last), dt)


def _avg_pool(
    x: Any,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    channels_last: bool,
    count_include_pad: bool,
) -> Any:
    x = x if x.dtype in FLOATS else cast(x, DEFAULT_FLOAT)
    xc = _to_first(x, channels_last)
    padded = _pad_with(xc, pads, 0.0)
    size = math.prod(kernel)
    # window sums (MXNet's average over the whole window), divided by the window size or by the
    # number of input positions in the window (NaN for a window wholly in the padding)
    sums = (
        npx.pooling(
            padded, kernel=kernel, stride=strides, pool_type="avg", pooling_convention="valid", count_include_pad=True
        )
        * size
    )
    if count_include_pad:
        out = sums / size
    else:
        ones = _pad_with(mnp.ones((1, 1) + tuple(xc.shape[2:]), dtype=xc.dtype, ctx=xc.ctx), pads, 0.0)
        counts = (
            npx.pooling(
                ones, kernel=kernel, stride=strides, pool_type="avg", pooling_convention="valid", count_include_pad=True
            )
            * size
        )
        out = sums / mnp.round(counts)
    return _from_first(out, channels_last)


def depthwise_conv2d(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
) -> Array:
    last = _channels_last(data_format, 2)
    if x.ndim != 4:
        raise ValueError(f"ivy.depthwise_conv2d: expected a 4-D input, got shape {x.shape}")
    if filters.ndim != 3:
        raise ValueError(f"ivy.depthwise_conv2d: filters must be [fh, fw, d_in], got shape {filters.shape}")
    s, d = ntuple(strides, 2, "strides"), ntuple(dilations, 2, "dilations")
    k = (int(filters.shape[0]), int(filters.shape[1]))
    sizes = [int(v) for v in (x.shape[1:3] if last else x.shape[2:4])]
    pads = padding_pairs(padding, 2, sizes, [di * (ki - 1) + 1 for ki, di in zip(k, d)], s)
    x, filters = _float_input(x, filters)
    xc = _pad_with(_to_first(x, last), pads, 0.0)
    c = int(xc.shape[1])
    if int(filters.shape[2]) != c:
        raise ValueError(f"ivy.depthwise_conv2d: the input has {c} channels, the filters {filters.shape[2]}")
    w = mnp.expand_dims(mnp.transpose(filters, (2, 0, 1)), 1)  # [d_in, 1, fh, fw]: one group per channel
    if bias is not None:
        check_bias(bias, c, "depthwise_conv2d")
        bias = cast(bias, x.dtype)
    out = npx.convolution(
        xc, w, bias, kernel=k, stride=s, dilate=d, pad=(0, 0), num_filter=c, num_group=c, no_bias=bias is None
    )
    return _from_first(out, last)


def erf(x: Array, /) -> Array:
    return npx.erf(x if x.dtype in FLOATS else cast(x, DEFAULT_FLOAT))


_FAMILY = {
    **conv_family(_conv, fused_bias=True),
    **conv_transpose_family(_conv_t, fused_bias=True),
    **pool_family(_max_pool, _avg_pool),
}
globals().update(_FAMILY)
__all__ = sorted([*_FAMILY, "depthwise_conv2d", "erf"])
