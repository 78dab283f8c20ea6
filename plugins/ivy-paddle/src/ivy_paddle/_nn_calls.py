"""Convolutions, pools, linear layers, squares, layer norms and attention specialised to a
graph's static arguments and dtypes: the padding, strides, layout and dtype checks are worked
out once when a graph is emitted, so each call is the bare paddle call. Where paddle's Python
function only normalises its arguments before calling its C op (convolutions, pools, matmul),
the emitted call is that C op with the arguments already normalised."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from ivy.plugin_kit import channels_last as _channel_last
from ivy.plugin_kit import filters_last as _filters_last
from ivy.plugin_kit import ntuple, specializer
from ivy.plugin_kit import padding_pairs as _pads

from . import elementwise, nn
from ._framework import paddle
from ._helpers import _C_ops
from .nn import _CONV, _PD_FORMAT, _PERM, _f32_exact, _full_pads

__all__: list[str] = []

_FLOATS = {"float16", "bfloat16", "float32", "float64"}


def _tuple(v: Any, n: int, what: str) -> list[int]:
    return list(ntuple(v, n, what))  # paddle's functions take lists


def _c_conv(n: int, s: list[int], pads: list[int], d: list[int], fmt: str) -> Callable[..., Any] | None:
    """paddle's C convolution with F.conv2d/conv3d's normalised arguments (groups=1): paddle's
    Python function spends a few microseconds per call normalising what a graph knows."""
    if n == 2:
        c2 = _C_ops.conv2d  # (x, w, strides, paddings, algorithm, dilations, groups, format)
        return lambda x, w: c2(x, w, s, pads, "EXPLICIT", d, 1, fmt)
    if n == 3:
        c3 = _C_ops.conv3d  # (x, w, strides, paddings, algorithm, groups, dilations, format)
        return lambda x, w: c3(x, w, s, pads, "EXPLICIT", 1, d, fmt)
    return None


def _conv_call(
    n: int,
    x: Any,
    w: Any,
    strides: Any,
    padding: Any,
    data_format: str,
    dilations: Any,
    weights: Callable[[Any], Any],
    bias: Any = None,
    groups: int = 1,
) -> Callable[..., Any] | None:
    if x.dtype != w.dtype:
        return None
    if bias is not None and (bias.dtype != x.dtype or tuple(bias.shape) != (w.shape[-1],)):
        return None  # casts and the bias's shape error: the general call
    cl = _channel_last(data_format, n)
    spatial = list(x.shape[1 : 1 + n]) if cl else list(x.shape[2:])
    s, d = _tuple(strides, n, "strides"), _tuple(dilations, n, "dilations")
    pairs = _pads(padding, n, spatial, [di * (k - 1) + 1 for di, k in zip(d, w.shape[:n])], s)
    conv, fmt = _CONV[n], _PD_FORMAT[(n, cl)]
    bare = _c_conv(n, list(s), [p for pair in pairs for p in pair], list(d), fmt) if groups == 1 else None
    pads = _full_pads(pairs, cl)
    if bias is not None:  # added as the general call adds it (see nn._add_bias)

        def unbiased(x: Any, w: Any) -> Any:
            return conv(x, w, stride=s, padding=pads, dilation=d, groups=groups, data_format=fmt)

        run = bare or unbiased
        if cl:
            return lambda x, f, b: run(x, weights(f)) + b
        shape = [-1] + [1] * n
        return lambda x, f, b: run(x, weights(f)) + b.reshape(shape)
    if bare is not None:
        return lambda x, f: bare(x, weights(f))
    return lambda x, f: conv(x, weights(f), stride=s, padding=pads, dilation=d, groups=groups, data_format=fmt)


def _conv(n: int) -> Callable[..., Any]:
    def call(
        x: Any,
        filters: Any,
        strides: Any,
        padding: Any,
        /,
        *,
        data_format: str = "NHWC",
        dilations: Any = 1,
        bias: Any = None,
        filter_format: str | None = None,
    ) -> Callable[..., Any] | None:
        perm = _PERM[n]
        if filter_format is not None and not _filters_last(filter_format, n):
            # the framework's own [out, in, *window], described window-first for the checks
            w = SimpleNamespace(shape=(*filters.shape[2:], filters.shape[1], filters.shape[0]), dtype=filters.dtype)
            return _conv_call(n, x, w, strides, padding, data_format, dilations, lambda f: f, bias)
        return _conv_call(n, x, filters, strides, padding, data_format, dilations, lambda f: f.transpose(perm), bias)

    return call


for _n, _op in ((1, nn.conv1d), (2, nn.conv2d), (3, nn.conv3d)):
    specializer(_op)(_conv(_n))


@specializer(nn.depthwise_conv2d)
def _depthwise(
    x: Any,
    filters: Any,
    strides: Any,
    padding: Any,
    /,
    *,
    data_format: str = "NHWC",
    dilations: Any = 1,
    bias: Any = None,
) -> Callable[..., Any] | None:
    # [fh, fw, c] -> [c, 1, fh, fw]: one group per channel
    return _conv_call(
        2,
        x,
        filters,
        strides,
        padding,
        data_format,
        dilations,
        lambda f: f.transpose([2, 0, 1]).unsqueeze(1),
        bias,
        groups=filters.shape[-1],
    )


def _pool(n: int, kind: str) -> Callable[..., Any]:
    def call(
        x: Any,
        kernel: Any,
        strides: Any,
        padding: Any,
        /,
        *,
        data_format: str = "NHWC",
        count_include_pad: bool = False,
    ) -> Callable[..., Any] | None:
        cl = _channel_last(data_format, n)
        spatial = list(x.shape[1 : 1 + n]) if cl else list(x.shape[2:])
        k, s = _tuple(kernel, n, "kernel"), _tuple(strides, n, "strides")
        pads = _pads(padding, n, spatial, k, s)
        if x.dtype not in _FLOATS or (kind == "avg" and count_include_pad and any(lo or hi for lo, hi in pads)):
            return None  # integer windows and padded average windows take the general path
        # paddle's C pool with F.max_poolNd/avg_poolNd's normalised arguments (no ceil mode, not
        # global, not adaptive); the flat explicit pads are (before, after) per spatial axis
        flat, fmt = [p for pair in pads for p in pair], _PD_FORMAT[(n, cl)]
        c_pool = _C_ops.pool2d if n == 2 else _C_ops.pool3d
        ks, ss = list(k), list(s)
        if kind == "max":
            return lambda x: c_pool(x, ks, ss, flat, False, True, fmt, "max", False, False, "EXPLICIT")
        exclusive = not count_include_pad
        return lambda x: c_pool(x, ks, ss, flat, False, exclusive, fmt, "avg", False, False, "EXPLICIT")

    return call


for _n, _op in ((2, nn.max_pool2d), (3, nn.max_pool3d)):
    specializer(_op)(_pool(_n, "max"))
for _n, _op in ((2, nn.avg_pool2d), (3, nn.avg_pool3d)):
    specializer(_op)(_pool(_n, "avg"))


@specializer(nn.linear)
def _linear_call(x: Any, weight: Any, bias: Any = None) -> Callable[..., Any] | None:
    if x.dtype != weight.dtype or (bias is not None and bias.dtype != x.dtype):
        return None  # mixed dtypes: the general function promotes
    matmul = _C_ops.matmul  # (x, y, transpose_x, transpose_y): what paddle.matmul calls
    if bias is None:
        return lambda x, w: matmul(x, w, False, True)
    return lambda x, w, b: matmul(x, w, False, True) + b


@specializer(elementwise.square)
def _square_call(x: Any) -> Callable[..., Any] | None:
    return paddle.square if x.dtype in _FLOATS else None  # small integers widen first


@specializer(nn.layer_norm)
def _layer_norm_call(
    x: Any, normalized_idxs: Any, /, *, scale: Any = None, offset: Any = None, eps: float = 1e-5
) -> Callable[..., Any] | None:
    nd = len(x.shape)
    axes = sorted({a % nd for a in ((normalized_idxs,) if isinstance(normalized_idxs, int) else normalized_idxs)})
    ns = tuple(x.shape[nd - len(axes) :])
    if (
        axes != list(range(nd - len(axes), nd))
        or len(axes) != 1
        or x.dtype not in _FLOATS
        or not 0.0 <= eps <= 1e-3
        or (x.dtype == "float64" and not _f32_exact(eps))
        or any(p is not None and (tuple(p.shape) != ns or p.dtype != x.dtype) for p in (scale, offset))
    ):
        return None  # what the general function composes or applies after paddle's kernel
    ln, begin = _C_ops.layer_norm, nd - 1  # (x, scale, offset, eps, first normalised axis)
    if scale is not None and offset is not None:
        return lambda x, w, b: ln(x, w, b, eps, begin)
    if scale is not None:
        return lambda x, w: ln(x, w, None, eps, begin)
    if offset is not None:
        return lambda x, b: ln(x, None, b, eps, begin)
    return lambda x: ln(x, None, None, eps, begin)


@specializer(nn.scaled_dot_product_attention)
def _attention_call(
    q: Any,
    k: Any,
    v: Any,
    /,
    *,
    mask: Any = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> Callable[..., Any] | None:
    if mask is not None or is_causal or dropout_p > 0.0 or q.dtype not in _FLOATS or len(q.shape) < 2:
        return None  # masks, causality, dropout: the composition
    if not q.dtype == k.dtype == v.dtype:
        return None
    s = (1.0 / math.sqrt(q.shape[-1])) if scale is None else scale
    mm, softmax = _C_ops.matmul, _C_ops.softmax
    return lambda q, k, v: mm(softmax(mm(q, k, False, True) * s, -1), v, False, False)
