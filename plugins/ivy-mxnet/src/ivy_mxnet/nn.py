"""Convolutions and pools on MXNet's kernels (``npx.convolution``, ``npx.deconvolution``,
``npx.pooling``), differentiable; the 1-3-d ops with the spec's signatures are built by the
toolkit (``conv_family``, ``conv_transpose_family``, ``pool_family``) from one N-d function each.

MXNet computes channels-first layouts (its CPU kernels refuse channels-last), pads symmetrically,
and takes weights as ``[d_out, d_in, *window]``: inputs are transposed, asymmetric padding is
applied with ``pad`` first, filters are transposed from the spec's ``[*window, d_in, d_out]``.
``erf`` is MXNet's own (core's composition approximates it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from ivy.plugin_kit import channels_last as _channels_last
from ivy.plugin_kit import conv_family, conv_transpose_family, ntuple, padding_pairs, pool_family

from ._common import cast, promote_many
from ._dtypes import DEFAULT_FLOAT, FLOATS
from ._framework import Array, mnp, npx


def _to_first(x: Any, last: bool) -> Any:
    return mnp.moveaxis(x, -1, 1) if last else x


def _from_first(x: Any, last: bool) -> Any:
    return mnp.moveaxis(x, 1, -1) if last else x


def _pad_with(x: Any, pads: Sequence[tuple[int, int]], value: float) -> Any:
    """``x`` (channels first) padded with ``value`` on its spatial axes (MXNet's ``pad`` writes
    zeros whatever ``constant_values`` says)."""
    for i, (lo, hi) in enumerate(pads):
        ax = 2 + i
        parts = []
        for width in (lo, hi):
            shape = x.shape[:ax] + (width,) + x.shape[ax + 1 :]
            parts.append(mnp.full(shape, value, dtype=x.dtype, ctx=x.ctx) if width else None)
        x = mnp.concatenate([p for p in (parts[0], x, parts[1]) if p is not None], axis=ax)
    return x


def _pad(x: Any, pads: Sequence[tuple[int, int]], value: float = 0.0) -> tuple[Any, tuple[int, ...]]:
    """``x`` (channels first) and MXNet's symmetric ``pad``: asymmetric padding applied here."""
    if all(lo == hi for lo, hi in pads):
        return x, tuple(lo for lo, _ in pads)
    return _pad_with(x, pads, value), (0,) * len(pads)


def _floats(*xs: Any) -> list[Any]:
    xs = promote_many(list(xs), "conv")
    return [x if x.dtype in FLOATS else cast(x, DEFAULT_FLOAT) for x in xs]


def _conv(
    x: Any,
    filters: Any,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    channels_last: bool,
) -> Any:
    n = len(strides)
    x, filters = _floats(x, filters)
    xc, pad = _pad(_to_first(x, channels_last), pads)
    k = tuple(int(s) for s in filters.shape[:n])
    d_in, d_out = int(filters.shape[n]), int(filters.shape[n + 1])
    channels = int(xc.shape[1])
    if channels % d_in:
        raise ValueError(f"ivy.conv{n}d: the input has {channels} channels, the filters take {d_in}")
    w = mnp.transpose(filters, (n + 1, n) + tuple(range(n)))  # [d_out, d_in, *window]
    out = npx.convolution(
        xc,
        w,
        kernel=k,
        stride=strides,
        dilate=dilations,
        pad=pad,
        num_filter=d_out,
        num_group=channels // d_in,
        no_bias=True,
    )
    return _from_first(out, channels_last)


def _conv_t(
    x: Any,
    filters: Any,
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    dilations: tuple[int, ...],
    channels_last: bool,
    out_sizes: tuple[int, ...],
) -> Any:
    n = len(strides)
    x, filters = _floats(x, filters)
    xc = _to_first(x, channels_last)
    k = tuple(int(s) for s in filters.shape[:n])
    d_out, d_in = int(filters.shape[n]), int(filters.shape[n + 1])
    if int(xc.shape[1]) != d_in:
        raise ValueError(f"ivy.conv{n}d_transpose: the input has {xc.shape[1]} channels, the filters take {d_in}")
    if n < 3:
        w = mnp.transpose(filters, (n + 1, n) + tuple(range(n)))  # [d_in, d_out, *window]
        full = npx.deconvolution(
            xc, w, kernel=k, stride=strides, dilate=dilations, pad=(0,) * n, num_filter=d_out, no_bias=True
        )
    else:  # MXNet's 3-D deconvolution takes no dilation (nor, on CPU, most shapes)
        full = _full_transposed_conv(xc, filters, strides, dilations)
    # the forward convolution's padding comes off the full result; a requested size beyond it
    # (by less than a stride) is made of zeros
    extra = [max(lo + o - int(full.shape[2 + i]), 0) for i, ((lo, _), o) in enumerate(zip(pads, out_sizes))]
    if any(extra):
        full = _pad_with(full, [(0, e) for e in extra], 0.0)
    sl = (slice(None), slice(None)) + tuple(slice(lo, lo + o) for (lo, _), o in zip(pads, out_sizes))
    return _from_first(full[sl], channels_last)


def _upsample(x: Any, strides: tuple[int, ...]) -> Any:
    """``x`` (channels first) with ``s - 1`` zeros between neighbours along each spatial axis."""
    for i, s in enumerate(strides):
        if s == 1:
            continue
        ax = 2 + i
        n = int(x.shape[ax])
        z = mnp.zeros(x.shape[: ax + 1] + (s - 1,) + x.shape[ax + 1 :], dtype=x.dtype, ctx=x.ctx)
        both = mnp.concatenate([mnp.expand_dims(x, ax + 1), z], axis=ax + 1)  # [..., n, s, ...]
        x = both.reshape(x.shape[:ax] + (n * s,) + x.shape[ax + 1 :])
        x = mnp.take(x, mnp.arange((n - 1) * s + 1, dtype="int64", ctx=x.ctx), axis=ax)
    return x


def _full_transposed_conv(xc: Any, filters: Any, strides: tuple[int, ...], dilations: tuple[int, ...]) -> Any:
    """The transposed convolution's full result, as a convolution: the zero-upsampled input,
    padded by the dilated window less one, convolved with the spatially flipped filters whose
    channel roles are swapped."""
    n = len(strides)
    k = tuple(int(s) for s in filters.shape[:n])
    d_out = int(filters.shape[n])
    up = _upsample(xc, strides)
    pad = tuple(d * (kk - 1) for kk, d in zip(k, dilations))
    w = mnp.flip(
        mnp.transpose(filters, (n, n + 1) + tuple(range(n))), axis=tuple(range(2, n + 2))
    )  # [d_out, d_in, *window]
    return npx.convolution(up, w, kernel=k, stride=(1,) * n, dilate=dilations, pad=pad, num_filter=d_out, no_bias=True)


def _max_pool(
    x: Any, kernel: tuple[int, ...], strides: tuple[int, ...], pads: list[tuple[int, int]], channels_last: bool
) -> Any:
    # padded with -inf here: MXNet's own padding of max pools counts zeros
    xc = _to_first(x, channels_last)
    if any(lo or hi for lo, hi in pads):
        xc = _pad_with(xc, pads, -math.inf)
    out = npx.pooling(xc, kernel=kernel, stride=strides, pool_type="max", pooling_convention="valid")
    return _from_first(out, channels_last)


def _avg_pool(
    x: Any,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    channels_last: bool,
    count_include_pad: bool,
) -> Any:
    xc = _to_first(x, channels_last)
    if all(lo == hi for lo, hi in pads):
        out = npx.pooling(
            xc,
            kernel=kernel,
            stride=strides,
            pad=tuple(lo for lo, _ in pads),
            pool_type="avg",
            pooling_convention="valid",
            count_include_pad=count_include_pad,
        )
        return _from_first(out, channels_last)
    padded, _ = _pad(xc, pads)
    size = math.prod(kernel)
    sums = (
        npx.pooling(
            padded, kernel=kernel, stride=strides, pool_type="avg", pooling_convention="valid", count_include_pad=True
        )
        * size
    )
    if count_include_pad:
        out = sums / size
    else:  # divide by the number of window positions inside the input
        ones, _ = _pad(mnp.ones((1, 1) + tuple(xc.shape[2:]), dtype=xc.dtype, ctx=xc.ctx), pads)
        counts = (
            npx.pooling(
                ones, kernel=kernel, stride=strides, pool_type="avg", pooling_convention="valid", count_include_pad=True
            )
            * size
        )
        out = sums / counts
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
    x, filters = _floats(x, filters)
    xc, pad = _pad(_to_first(x, last), pads)
    c = int(xc.shape[1])
    if int(filters.shape[2]) != c:
        raise ValueError(f"ivy.depthwise_conv2d: the input has {c} channels, the filters {filters.shape[2]}")
    w = mnp.expand_dims(mnp.transpose(filters, (2, 0, 1)), 1)  # [d_in, 1, fh, fw]: one group per channel
    out = npx.convolution(xc, w, kernel=k, stride=s, dilate=d, pad=pad, num_filter=c, num_group=c, no_bias=True)
    return _from_first(out, last)


def erf(x: Array, /) -> Array:
    return npx.erf(x if x.dtype in FLOATS else cast(x, DEFAULT_FLOAT))


_FAMILY = {**conv_family(_conv), **conv_transpose_family(_conv_t), **pool_family(_max_pool, _avg_pool)}
globals().update(_FAMILY)
__all__ = sorted([*_FAMILY, "depthwise_conv2d", "erf"])
