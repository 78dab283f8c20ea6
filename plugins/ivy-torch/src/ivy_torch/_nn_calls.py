"""Convolutions, pools, layer norms and attention specialised to a graph's static arguments: the
padding, strides, layout moves and argument checks are worked out once when a graph is emitted,
so each call is the bare torch call."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import torch.nn.functional as F

from ivy.plugin_kit import channels_last as _channel_last
from ivy.plugin_kit import filters_last as _filters_last
from ivy.plugin_kit import ntuple as _tuple
from ivy.plugin_kit import padding_pairs as _pads
from ivy.plugin_kit import specializer

from . import nn
from .nn import _AVG, _CONV, _MAX, _PERM, _flat_pad

__all__: list[str] = []

_FLOATS = {"float16", "bfloat16", "float32", "float64"}


def _in_layout(call: Callable[..., Any], cl: bool) -> Callable[..., Any]:
    """``call`` on channel-first tensors, given tensors in the op's layout."""
    if not cl:
        return call
    return lambda x, *rest: call(x.movedim(-1, 1), *rest).movedim(1, -1)


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
    if x.dtype != w.dtype or (bias is not None and bias.dtype != x.dtype):
        return None  # casts (and the bias's shape check): the general call
    cl = _channel_last(data_format, n)
    spatial = x.shape[1:-1] if cl else x.shape[2:]
    k = w.shape[:n]
    s, d = _tuple(strides, n, "strides"), _tuple(dilations, n, "dilations")
    pads = _pads(padding, n, spatial, [di * (ki - 1) + 1 for di, ki in zip(d, k)], s)
    conv = _CONV[n]
    if bias is not None:
        if tuple(bias.shape) != (w.shape[-1],):
            return None  # the general call raises the shape error
        if all(lo == hi for lo, hi in pads):
            p = [lo for lo, _ in pads]
            return _in_layout(lambda x, f, b: conv(x, weights(f), b, s, p, d, groups), cl)
        flat = _flat_pad(pads)
        return _in_layout(lambda x, f, b: conv(F.pad(x, flat), weights(f), b, s, 0, d, groups), cl)
    if all(lo == hi for lo, hi in pads):
        p = [lo for lo, _ in pads]
        return _in_layout(lambda x, f: conv(x, weights(f), None, s, p, d, groups), cl)
    flat = _flat_pad(pads)
    return _in_layout(lambda x, f: conv(F.pad(x, flat), weights(f), None, s, 0, d, groups), cl)


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
        return _conv_call(n, x, filters, strides, padding, data_format, dilations, lambda f: f.permute(perm), bias)

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
        lambda f: f.permute(2, 0, 1).unsqueeze(1),
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
        if x.dtype not in _FLOATS:  # integer pools take the general path (torch lacks kernels)
            return None
        cl = _channel_last(data_format, n)
        spatial = x.shape[1:-1] if cl else x.shape[2:]
        k, s = _tuple(kernel, n, "kernel"), _tuple(strides, n, "strides")
        pads = _pads(padding, n, spatial, k, s)
        if not all(lo == hi and 2 * lo <= ki for (lo, hi), ki in zip(pads, k)):
            return None  # asymmetric padding: the general path pads first
        p = [lo for lo, _ in pads]
        if kind == "max":
            pool = _MAX[n]
            return _in_layout(lambda x: pool(x, k, s, p), cl)
        avg = _AVG[n]
        return _in_layout(lambda x: avg(x, k, s, p, False, count_include_pad), cl)

    return call


for _n, _op in ((1, nn.max_pool1d), (2, nn.max_pool2d), (3, nn.max_pool3d)):
    specializer(_op)(_pool(_n, "max"))
for _n, _op in ((1, nn.avg_pool1d), (2, nn.avg_pool2d), (3, nn.avg_pool3d)):
    specializer(_op)(_pool(_n, "avg"))


@specializer(nn.layer_norm)
def _layer_norm_call(
    x: Any, normalized_idxs: Any, /, *, scale: Any = None, offset: Any = None, eps: float = 1e-5
) -> Callable[..., Any] | None:
    nd = len(x.shape)
    axes = sorted({a % nd for a in ((normalized_idxs,) if isinstance(normalized_idxs, int) else normalized_idxs)})
    k = len(axes)
    ns = tuple(x.shape[nd - k :])
    if axes != list(range(nd - k, nd)) or any(
        p is not None and (tuple(p.shape) != ns or p.dtype != x.dtype) for p in (scale, offset)
    ):
        return None  # moved axes, or parameters applied after torch's kernel: the general call
    ln = F.layer_norm
    if scale is not None and offset is not None:
        return lambda x, w, b: ln(x, ns, w, b, eps)
    if scale is not None:
        return lambda x, w: ln(x, ns, w, None, eps)
    if offset is not None:
        return lambda x, b: ln(x, ns, None, b, eps)
    return lambda x: ln(x, ns, None, None, eps)


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
    if mask is not None or min(len(q.shape), len(k.shape), len(v.shape)) < 2 or not q.dtype == k.dtype == v.dtype:
        return None  # masks (NaN rows, folded causality) and mixed dtypes: the general call
    sdpa = F.scaled_dot_product_attention
    return lambda q, k, v: sdpa(q, k, v, None, dropout_p, is_causal, scale=scale)
