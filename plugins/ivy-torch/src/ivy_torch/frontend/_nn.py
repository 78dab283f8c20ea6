"""Convolutions, pooling, resampling and grid sampling, in torch's layout.

Layout never changes: NCHW stays NCHW (Ivy's ops take ``data_format``), and torch's OIHW
weights go to the convolutions as they are (``filter_format="OIHW"``; a transposed
convolution's are permuted to Ivy's layout by a node inside the graph), so the parameter keeps
torch's layout and name. Grouped convolutions that are neither plain nor depthwise are split per group
and concatenated.
"""

from __future__ import annotations

import math as _math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy

from ._rules import Out, Rule, const, dtype_name, ntuple, rule

__all__ = ["TABLE"]

_FORMATS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_FILTERS = {1: "OIW", 2: "OIHW", 3: "OIDHW"}  # torch's weights, as they lie
_CONV = {1: ivy.conv1d, 2: ivy.conv2d, 3: ivy.conv3d}
_CONV_T = {1: ivy.conv1d_transpose, 2: ivy.conv2d_transpose, 3: ivy.conv3d_transpose}
_MAX_POOL = {1: ivy.max_pool1d, 2: ivy.max_pool2d, 3: ivy.max_pool3d}
_AVG_POOL = {1: ivy.avg_pool1d, 2: ivy.avg_pool2d, 3: ivy.avg_pool3d}


def _to_hwio(weight: Any, n: int) -> Any:
    """torch's [out, in, *kernel] (or a transposed convolution's [in, out, *kernel]) as Ivy's
    [*kernel, in, out] ([*kernel, out, in])."""
    return ivy.permute_dims(weight, (*range(2, n + 2), 1, 0))


def _batched(x: Any, n: int) -> tuple[Any, bool]:
    """ATen accepts an unbatched [C, *spatial] input where Ivy's ops want a batch axis."""
    if x.ndim == n + 1:
        return ivy.expand_dims(x, axis=0), True
    return x, False


def _conv(x: Any, weight: Any, bias: Any, stride: list[int], padding: list[int], dilation: list[int], n: int) -> Any:
    pads = [(p, p) for p in padding]
    return _CONV[n](
        x, weight, stride, pads, data_format=_FORMATS[n], dilations=dilation, bias=bias, filter_format=_FILTERS[n]
    )


def _conv_transpose(
    x: Any,
    weight: Any,
    bias: Any,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    output_padding: list[int],
    n: int,
) -> Any:
    size = [
        (x.shape[2 + i] - 1) * stride[i]
        - 2 * padding[i]
        + dilation[i] * (weight.shape[2 + i] - 1)
        + output_padding[i]
        + 1
        for i in range(n)
    ]
    pads = [(p, p) for p in padding]
    return _CONV_T[n](
        x,
        _to_hwio(weight, n),
        stride,
        pads,
        output_shape=size,
        data_format=_FORMATS[n],
        dilations=dilation,
        bias=bias,
    )


@rule()
def convolution(
    x: Any,
    weight: Any,
    bias: Any,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
) -> Any:
    """ivy.conv{1,2,3}d(_transpose) in NC* layout with torch's weights (filter_format="OIHW"; a
    transposed convolution's permuted inside the graph), the bias as the op's ``bias=``;
    depthwise: ivy.depthwise_conv2d; other groups: split, convolve, concat"""
    n = weight.ndim - 2
    stride, padding, dilation = ntuple(stride, n), ntuple(padding, n), ntuple(dilation, n)
    x, unbatched = _batched(x, n)
    # each group's output channels take their own slice of the bias
    biases = [None] * groups if bias is None else ivy.split(bias, groups, axis=0) if groups > 1 else [bias]
    if transposed:
        output_padding = ntuple(output_padding, n)
        pieces = zip(ivy.split(x, groups, axis=1), ivy.split(weight, groups, axis=0)) if groups > 1 else [(x, weight)]
        ys = [
            _conv_transpose(xi, wi, bi, stride, padding, dilation, output_padding, n)
            for (xi, wi), bi in zip(pieces, biases)
        ]
    elif groups == 1:
        ys = [_conv(x, weight, bias, stride, padding, dilation, n)]
    elif n == 2 and groups == x.shape[1] == weight.shape[0]:
        # depthwise: [C, 1, kh, kw] -> Ivy's [kh, kw, C]
        filters = ivy.permute_dims(ivy.reshape(weight, (groups, *weight.shape[2:])), (1, 2, 0))
        pads = [(p, p) for p in padding]
        ys = [ivy.depthwise_conv2d(x, filters, stride, pads, data_format="NCHW", dilations=dilation, bias=bias)]
    else:
        pieces = zip(ivy.split(x, groups, axis=1), ivy.split(weight, groups, axis=0))
        ys = [_conv(xi, wi, bi, stride, padding, dilation, n) for (xi, wi), bi in zip(pieces, biases)]
    y = ys[0] if len(ys) == 1 else ivy.concat(ys, axis=1)
    return ivy.squeeze(y, axis=0) if unbatched else y


def _window_padding(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> tuple[int, int, int]:
    """(output size, padding before, padding after) of a pooling window along one axis, as
    torch counts it: with ceil_mode the last window may start in the right padding (never past
    it), which Ivy's ops get as extra padding after."""
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out, p, max(0, (out - 1) * s + d * (k - 1) + 1 - size - p)


def _pool_check(node: Any) -> str | None:
    args = list(node.args) + [None] * 6
    dilation = args[4] if args[4] is not None else node.kwargs.get("dilation", 1)
    if any(d != 1 for d in ntuple(dilation, 1)):
        return "max pooling with dilation"
    if any(u.args[1] == 1 for u in node.users):
        return "the indices of a max pooling (only its values are translated)"
    return None


@rule(check=_pool_check)
def max_pool(
    x: Any,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Any:
    """ivy.max_pool{2,3}d in NC* layout (ceil_mode: extra padding after); values only"""
    n = len(kernel_size)
    k, p = ntuple(kernel_size, n), ntuple(padding, n)
    s = ntuple(stride, n) if stride else k
    x, unbatched = _batched(x, n)
    pads = [_window_padding(x.shape[2 + i], k[i], s[i], p[i], 1, ceil_mode)[1:] for i in range(n)]
    y = _MAX_POOL[n](x, k, s, pads, data_format=_FORMATS[n])
    return (ivy.squeeze(y, axis=0) if unbatched else y), None


def _divisors(
    sizes: Sequence[int],
    k: list[int],
    s: list[int],
    p: list[int],
    outs: list[int],
    count_include_pad: bool,
    divisor_override: int | None,
) -> np.ndarray:
    """torch's divisor of each output position of an average pooling: the window clipped to the
    padded input (count_include_pad) or to the input, or divisor_override."""
    per_axis = []
    for n, kk, ss, pp, o in zip(sizes, k, s, p, outs):
        start = np.arange(o) * ss - pp
        end = np.minimum(start + kk, n + pp)
        if count_include_pad:
            per_axis.append(end - start)
        else:
            per_axis.append(np.minimum(end, n) - np.maximum(start, 0))
    total = per_axis[0]
    for a in per_axis[1:]:
        total = np.multiply.outer(total, a)
    return np.full(total.shape, divisor_override) if divisor_override else total


@rule(out=True)
def avg_pool(
    out: Out,
    x: Any,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Any:
    """ivy.avg_pool{1,2,3}d in NC* layout; where torch's divisor differs (ceil_mode windows in
    the padding, divisor_override), the window sums divided by torch's divisors"""
    n = len(kernel_size)
    k, p = ntuple(kernel_size, n), ntuple(padding, n)
    s = ntuple(stride, n) if stride else k
    x, unbatched = _batched(x, n)
    spatial = [x.shape[2 + i] for i in range(n)]
    windows = [_window_padding(spatial[i], k[i], s[i], p[i], 1, ceil_mode) for i in range(n)]
    pads = [w[1:] for w in windows]
    plain = divisor_override is None and (not count_include_pad or all(hi <= lo for lo, hi in pads))
    if plain:
        y = _AVG_POOL[n](x, k, s, pads, data_format=_FORMATS[n], count_include_pad=count_include_pad)
    else:
        sums = ivy.multiply(
            _AVG_POOL[n](x, k, s, pads, data_format=_FORMATS[n], count_include_pad=True), float(_math.prod(k))
        )
        divisor = _divisors(spatial, k, s, p, [w[0] for w in windows], count_include_pad, divisor_override)
        y = ivy.divide(sums, const(divisor.astype(dtype_name(out.dtype))))
    return ivy.squeeze(y, axis=0) if unbatched else y


@rule()
def adaptive_avg_pool2d(x: Any, output_size: Sequence[int]) -> Any:
    """ivy.adaptive_avg_pool2d in NCHW layout"""
    x, unbatched = _batched(x, 2)
    y = ivy.adaptive_avg_pool2d(x, tuple(output_size), data_format="NCHW")
    return ivy.squeeze(y, axis=0) if unbatched else y


def _adaptive_axis(x: Any, axis: int, m: int) -> Any:
    """Adaptive averaging along one axis: window i covers [floor(i n / m), ceil((i + 1) n / m))."""
    n = x.shape[axis]
    if n % m == 0:
        shape = tuple(x.shape[:axis]) + (m, n // m) + tuple(x.shape[axis + 1 :])
        return ivy.mean(ivy.reshape(x, shape), axis=axis + 1)
    parts = []
    for i in range(m):
        lo, hi = (i * n) // m, -((-(i + 1) * n) // m)
        window = tuple(slice(None) if a != axis else slice(lo, hi) for a in range(x.ndim))
        parts.append(ivy.mean(ivy.get_item(x, window), axis=axis, keepdims=True))
    return ivy.concat(parts, axis=axis)


@rule()
def adaptive_avg_pool(x: Any, output_size: Sequence[int]) -> Any:
    """adaptive averaging axis by axis (a box mean is the mean of means): reshapes and ivy.mean"""
    for i, m in enumerate(output_size):
        x = _adaptive_axis(x, x.ndim - len(output_size) + i, m)
    return x


def _adaptive_max_axis(x: Any, axis: int, m: int) -> Any:
    """Adaptive max along one axis, windows as in :func:`_adaptive_axis`."""
    n = x.shape[axis]
    if n % m == 0:
        shape = tuple(x.shape[:axis]) + (m, n // m) + tuple(x.shape[axis + 1 :])
        return ivy.max(ivy.reshape(x, shape), axis=axis + 1)
    parts = []
    for i in range(m):
        lo, hi = (i * n) // m, -((-(i + 1) * n) // m)
        window = tuple(slice(None) if a != axis else slice(lo, hi) for a in range(x.ndim))
        parts.append(ivy.max(ivy.get_item(x, window), axis=axis, keepdims=True))
    return ivy.concat(parts, axis=axis)


def _values_only(node: Any) -> str | None:
    if any(u.args[1] == 1 for u in node.users):
        return f"the indices of {node.target} (only its values are translated)"
    return None


@rule(check=_values_only)
def adaptive_max_pool(x: Any, output_size: Sequence[int]) -> Any:
    """adaptive max axis by axis (the max of a box is the max of maxima): reshapes and ivy.max;
    values only"""
    for i, m in enumerate(output_size):
        x = _adaptive_max_axis(x, x.ndim - len(output_size) + i, m)
    return x, None


def _scale(n_in: int, n_out: int, scale: float | None, align_corners: bool) -> float:
    """torch's source-per-destination step (area_pixel_compute_scale)."""
    if align_corners:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    return 1.0 / scale if scale else n_in / n_out


def _scales(scale_factors: Sequence[float] | None, n: int) -> list[float | None]:
    return list(scale_factors) if scale_factors else [None] * n


@rule(out=True)
def upsample_nearest(out: Out, x: Any, output_size: Any = None, scale_factors: Any = None) -> Any:
    """ivy.take along each spatial axis at torch's nearest source indices (constants)"""
    n = x.ndim - 2
    for i, factor in enumerate(_scales(scale_factors, n)):
        n_in, n_out = x.shape[2 + i], out.shape[2 + i]
        step = np.float32(_scale(n_in, n_out, factor, False))
        source = np.minimum(np.floor(np.arange(n_out, dtype=np.float32) * step).astype(np.int64), n_in - 1)
        x = ivy.take(x, const(source), axis=2 + i)
    return x


@rule(out=True)
def upsample_linear(out: Out, x: Any, output_size: Any, align_corners: bool, scale_factors: Any = None) -> Any:
    """per spatial axis, two ivy.take at torch's source indices and a linear blend (constant
    weights)"""
    n = x.ndim - 2
    for i, factor in enumerate(_scales(scale_factors, n)):
        n_in, n_out = x.shape[2 + i], out.shape[2 + i]
        step = _scale(n_in, n_out, factor, align_corners)
        dst = np.arange(n_out, dtype=np.float64)
        src = dst * step if align_corners else np.maximum((dst + 0.5) * step - 0.5, 0.0)
        lo = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        hi = np.minimum(lo + 1, n_in - 1)
        shape = [1] * x.ndim
        shape[2 + i] = n_out
        w = const((src - lo).reshape(shape).astype(dtype_name(out.dtype)))
        a, b = ivy.take(x, const(lo), axis=2 + i), ivy.take(x, const(hi), axis=2 + i)
        x = ivy.add(a, ivy.multiply(ivy.subtract(b, a), w))
    return x


def _upsample_nearest_default(out: Out, x: Any, output_size: Any, *scales: Any) -> Any:
    factors = [s for s in scales if s is not None] or None
    return upsample_nearest.fn(out, x, output_size, factors)


def _upsample_linear_default(out: Out, x: Any, output_size: Any, align_corners: bool, *scales: Any) -> Any:
    factors = [s for s in scales if s is not None] or None
    return upsample_linear.fn(out, x, output_size, align_corners, factors)


def _grid_check(node: Any) -> str | None:
    mode, padding = node.args[2], node.args[3]
    if mode not in (0, 1):
        return "grid sampling with bicubic interpolation"
    if padding not in (0, 1):
        return "grid sampling with reflection padding"
    return None


@rule(check=_grid_check)
def grid_sampler_2d(x: Any, grid: Any, interpolation_mode: int, padding_mode: int, align_corners: bool) -> Any:
    """bilinear or nearest sampling at grid (zeros or border padding): the corners gathered with
    ivy.take_along_axis from the flattened image, blended with weights from the grid"""
    batch, channels, height, width = (int(d) for d in x.shape)
    out_h, out_w = int(grid.shape[1]), int(grid.shape[2])

    def unnormalize(coord: Any, size: int) -> Any:
        if align_corners:
            return ivy.multiply(ivy.add(coord, 1.0), (size - 1) / 2)
        return ivy.divide(ivy.subtract(ivy.multiply(ivy.add(coord, 1.0), size), 1.0), 2.0)

    ix = unnormalize(ivy.get_item(grid, (..., 0)), width)
    iy = unnormalize(ivy.get_item(grid, (..., 1)), height)
    if padding_mode == 1:
        ix, iy = ivy.clip(ix, 0, width - 1), ivy.clip(iy, 0, height - 1)
    flat = ivy.reshape(x, (batch, channels, height * width))

    def tap(cx: Any, cy: Any, weight: Any) -> Any:
        """x at integer coordinates (cx, cy), times weight, zero outside the image."""
        inside = ivy.logical_and(
            ivy.logical_and(ivy.greater_equal(cx, 0), ivy.less_equal(cx, width - 1)),
            ivy.logical_and(ivy.greater_equal(cy, 0), ivy.less_equal(cy, height - 1)),
        )
        cxi = ivy.astype(ivy.clip(cx, 0, width - 1), "int64")
        cyi = ivy.astype(ivy.clip(cy, 0, height - 1), "int64")
        where = ivy.reshape(ivy.add(ivy.multiply(cyi, width), cxi), (batch, 1, out_h * out_w))
        values = ivy.take_along_axis(flat, ivy.broadcast_to(where, (batch, channels, out_h * out_w)), axis=2)
        weight = ivy.where(inside, weight, ivy.zeros_like(weight))
        return ivy.multiply(ivy.reshape(values, (batch, channels, out_h, out_w)), ivy.expand_dims(weight, axis=1))

    if interpolation_mode == 1:
        return tap(ivy.round(ix), ivy.round(iy), ivy.ones_like(ix))
    x0, y0 = ivy.floor(ix), ivy.floor(iy)
    x1, y1 = ivy.add(x0, 1.0), ivy.add(y0, 1.0)
    wx1, wy1 = ivy.subtract(ix, x0), ivy.subtract(iy, y0)
    wx0, wy0 = ivy.subtract(1.0, wx1), ivy.subtract(1.0, wy1)
    corners = [
        tap(x0, y0, ivy.multiply(wx0, wy0)),
        tap(x1, y0, ivy.multiply(wx1, wy0)),
        tap(x0, y1, ivy.multiply(wx0, wy1)),
        tap(x1, y1, ivy.multiply(wx1, wy1)),
    ]
    return ivy.add(ivy.add(corners[0], corners[1]), ivy.add(corners[2], corners[3]))


TABLE: dict[str, Rule] = {
    "convolution": convolution,
    "max_pool2d_with_indices": max_pool,
    "max_pool3d_with_indices": max_pool,
    "avg_pool1d": avg_pool,
    "avg_pool2d": avg_pool,
    "avg_pool3d": avg_pool,
    "_adaptive_avg_pool2d": adaptive_avg_pool2d,
    "_adaptive_avg_pool3d": adaptive_avg_pool,
    "adaptive_avg_pool1d": adaptive_avg_pool,
    "adaptive_max_pool2d": adaptive_max_pool,
    "adaptive_max_pool3d": adaptive_max_pool,
    "upsample_nearest2d.vec": upsample_nearest,
    "upsample_bilinear2d.vec": upsample_linear,
    "upsample_nearest2d": Rule(_upsample_nearest_default, upsample_nearest.doc, out=True),
    "upsample_bilinear2d": Rule(_upsample_linear_default, upsample_linear.doc, out=True),
    "grid_sampler_2d": grid_sampler_2d,
}
