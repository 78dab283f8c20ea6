"""Convolutions, pools, linear layers and squares specialised to a graph's static arguments and
dtypes: the padding, strides, layout and dtype checks are worked out once when a graph is
emitted, so each call is the bare paddle call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ivy.plugin_kit import channels_last as _channel_last
from ivy.plugin_kit import padding_pairs as _pads
from ivy.plugin_kit import specializer

from . import elementwise, nn
from ._framework import paddle
from .nn import _AVG, _CONV, _MAX, _PD_FORMAT, _PERM, _full_pads, _tuple

__all__: list[str] = []

_FLOATS = {"float16", "bfloat16", "float32", "float64"}


def _conv_call(
    n: int,
    x: Any,
    w: Any,
    strides: Any,
    padding: Any,
    data_format: str,
    dilations: Any,
    weights: Callable[[Any], Any],
    groups: int = 1,
) -> Callable[..., Any] | None:
    if x.dtype != w.dtype:
        return None
    cl = _channel_last(data_format, n)
    spatial = list(x.shape[1 : 1 + n]) if cl else list(x.shape[2:])
    s, d = _tuple(strides, n, "strides"), _tuple(dilations, n, "dilations")
    pads = _full_pads(_pads(padding, n, spatial, [di * (k - 1) + 1 for di, k in zip(d, w.shape[:n])], s), cl)
    conv, fmt = _CONV[n], _PD_FORMAT[(n, cl)]
    return lambda x, f: conv(x, weights(f), stride=s, padding=pads, dilation=d, groups=groups, data_format=fmt)


def _conv(n: int) -> Callable[..., Any]:
    def call(
        x: Any, filters: Any, strides: Any, padding: Any, /, *, data_format: str = "NHWC", dilations: Any = 1
    ) -> Callable[..., Any] | None:
        perm = _PERM[n]
        return _conv_call(n, x, filters, strides, padding, data_format, dilations, lambda f: f.transpose(perm))

    return call


for _n, _op in ((1, nn.conv1d), (2, nn.conv2d), (3, nn.conv3d)):
    specializer(_op)(_conv(_n))


@specializer(nn.depthwise_conv2d)
def _depthwise(
    x: Any, filters: Any, strides: Any, padding: Any, /, *, data_format: str = "NHWC", dilations: Any = 1
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
        full, fmt = _full_pads(pads, cl), _PD_FORMAT[(n, cl)]
        if kind == "max":
            pool = _MAX[n]
            return lambda x: pool(x, k, stride=s, padding=full, data_format=fmt)
        avg = _AVG[n]
        return lambda x: avg(x, k, stride=s, padding=full, exclusive=not count_include_pad, data_format=fmt)

    return call


for _n, _op in ((2, nn.max_pool2d), (3, nn.max_pool3d)):
    specializer(_op)(_pool(_n, "max"))
for _n, _op in ((2, nn.avg_pool2d), (3, nn.avg_pool3d)):
    specializer(_op)(_pool(_n, "avg"))


@specializer(nn.linear)
def _linear_call(x: Any, weight: Any, bias: Any = None) -> Callable[..., Any] | None:
    if x.dtype != weight.dtype or (bias is not None and bias.dtype != x.dtype):
        return None  # mixed dtypes: the general function promotes
    matmul = paddle.matmul
    if bias is None:
        return lambda x, w: matmul(x, w, transpose_y=True)
    return lambda x, w, b: matmul(x, w, transpose_y=True) + b


@specializer(elementwise.square)
def _square_call(x: Any) -> Callable[..., Any] | None:
    return paddle.square if x.dtype in _FLOATS else None  # small integers widen first
