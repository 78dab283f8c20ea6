"""Convolutions, transposed convolutions and pools: one N-d function each, the 1-3-d ops with the
spec's signatures built from them by the toolkit (``conv_family``, ``conv_transpose_family``,
``pool_family``; ``ivy.plugin_kit.ConvND`` and friends say what each N-d function receives).
Computed in NumPy: the reference library has no convolution."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp
import numpy as np

from ivy.plugin_kit import conv_family, conv_transpose_family, pool_family

from .conversion import to_numpy


def _windows(a: np.ndarray, sizes: tuple[int, ...], strides: tuple[int, ...], dilations: tuple[int, ...]) -> np.ndarray:
    """``[batch, *out, channels, *window]`` views of channels-last ``a`` (already padded)."""
    n = len(sizes)
    eff = tuple(d * (k - 1) + 1 for k, d in zip(sizes, dilations))
    w = np.lib.stride_tricks.sliding_window_view(a, eff, axis=tuple(range(1, n + 1)))
    step = tuple(slice(None, None, s) for s in strides)
    taps = tuple(slice(None, None, d) for d in dilations)
    return w[(slice(None), *step, slice(None), *taps)]


def _channels_last(x: Any, last: bool, n: int) -> np.ndarray:
    a = to_numpy(x)
    return a if last else np.moveaxis(a, 1, -1)


def _back(a: np.ndarray, last: bool, dtype: Any) -> Any:
    return xp.asarray(np.ascontiguousarray(a if last else np.moveaxis(a, -1, 1)), dtype=dtype)


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
    a = np.pad(_channels_last(x, channels_last, n), [(0, 0), *pads, (0, 0)])
    f = to_numpy(filters)  # [*window, d_in, d_out]
    w = _windows(a, f.shape[:n], strides, dilations)  # [batch, *out, d_in, *window]
    win_axes = tuple(range(w.ndim - n, w.ndim))
    out = np.tensordot(w, f, axes=((w.ndim - n - 1, *win_axes), (n, *range(n))))
    if bias is not None:  # [d_out] on the channel axis, which is last here
        out = out + to_numpy(bias)
    return _back(out, channels_last, x.dtype)


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
    a = _channels_last(x, channels_last, n)  # [batch, *in, d_in]
    f = to_numpy(filters)  # [*window, d_out, d_in]
    sizes = a.shape[1:-1]
    full_sizes = [(i - 1) * s + d * (k - 1) + 1 for i, s, d, k in zip(sizes, strides, dilations, f.shape[:n])]
    dtype = np.result_type(a, f)
    # the full result: each input position spreads its values over the window it would have been
    # read from (one strided slice per tap), the adjoint of the convolution
    full = np.zeros((a.shape[0], *full_sizes, f.shape[n]), dtype)
    for tap in np.ndindex(*f.shape[:n]):
        where = tuple(slice(t * d, t * d + (i - 1) * s + 1, s) for t, d, i, s in zip(tap, dilations, sizes, strides))
        full[(slice(None), *where, slice(None))] += a @ f[tap].T
    # the forward convolution's padding comes off; positions past the full result are zeros
    grow = [(0, max(lo + o - m, 0)) for (lo, _), o, m in zip(pads, out_sizes, full_sizes)]
    full = np.pad(full, [(0, 0), *grow, (0, 0)])
    out = full[(slice(None), *(slice(lo, lo + o) for (lo, _), o in zip(pads, out_sizes)), slice(None))]
    if bias is not None:  # [d_out] on the channel axis, which is last here
        out = out + to_numpy(bias)
    return _back(out, channels_last, x.dtype)


def _pool(
    x: Any,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    channels_last: bool,
    reduce: str,
    count_include_pad: bool = False,
) -> Any:
    n = len(kernel)
    a = _channels_last(x, channels_last, n)
    fill = -np.inf if reduce == "max" else 0.0
    padded = np.pad(a, [(0, 0), *pads, (0, 0)], constant_values=fill)
    w = _windows(padded, kernel, strides, (1,) * n)
    axes = tuple(range(w.ndim - n, w.ndim))
    if reduce == "max":
        out = w.max(axis=axes)
    else:
        total = w.sum(axis=axes)
        if count_include_pad:
            out = total / np.prod(kernel)
        else:  # divide by the positions inside the input
            ones = np.pad(np.ones((1, *a.shape[1:-1], 1)), [(0, 0), *pads, (0, 0)])
            out = total / _windows(ones, kernel, strides, (1,) * n).sum(axis=axes)
    return _back(out.astype(a.dtype), channels_last, x.dtype)


def _max_pool(
    x: Any, kernel: tuple[int, ...], strides: tuple[int, ...], pads: list[tuple[int, int]], channels_last: bool
) -> Any:
    return _pool(x, kernel, strides, pads, channels_last, "max")


def _avg_pool(
    x: Any,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    pads: list[tuple[int, int]],
    channels_last: bool,
    count_include_pad: bool,
) -> Any:
    return _pool(x, kernel, strides, pads, channels_last, "avg", count_include_pad)


_FAMILY = {
    **conv_family(_conv, fused_bias=True),
    **conv_transpose_family(_conv_t, fused_bias=True),
    **pool_family(_max_pool, _avg_pool),
}
globals().update(_FAMILY)
__all__ = sorted(_FAMILY)
