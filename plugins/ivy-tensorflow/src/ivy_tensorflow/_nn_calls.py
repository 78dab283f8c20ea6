"""2-D convolutions and pools specialised to a graph's static arguments: the padding, strides and
layout are worked out once when a graph is emitted, so each call is the raw TF op."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_nn_ops as gn

from ivy.plugin_kit import channels_last as _channel_last
from ivy.plugin_kit import filters_last as _filters_last
from ivy.plugin_kit import ntuple as _tuple
from ivy.plugin_kit import padding_pairs as _pads
from ivy.plugin_kit import specializer, tiny_conv_outputs

from . import nn
from .nn import _TO_FIRST, _TO_LAST

__all__: list[str] = []

_FLOATS = {"float16", "bfloat16", "float32", "float64"}


def _mode(padding: Any) -> str | None:
    """TF's "SAME" / "VALID" for those strings (the spec's meaning), None for other padding."""
    if isinstance(padding, str) and padding.upper() in ("SAME", "VALID"):
        return padding.upper()
    return None


def _in_layout(call: Callable[..., Any], cl: bool) -> Callable[..., Any]:
    """``call`` on channel-last tensors, given tensors in the op's layout."""
    if cl:
        return call
    to_last, to_first = _TO_LAST[2], _TO_FIRST[2]
    return lambda x, *rest: tf.transpose(call(tf.transpose(x, to_last), *rest), to_first)


@specializer(nn.conv2d)
def _conv2d(
    x: Any,
    filters: Any,
    strides: Any,
    padding: Any,
    /,
    *,
    data_format: str = "NHWC",
    dilations: Any = 1,
    filter_format: str = "HWIO",
) -> Callable[..., Any] | None:
    if x.dtype != filters.dtype or x.dtype not in _FLOATS:
        return None
    if not _filters_last(filter_format, 2):
        # TF's convolutions take [h, w, in, out] only: described so, transposed on each call
        o, i, h, w = filters.shape
        s, d = _tuple(strides, 2, "strides"), _tuple(dilations, 2, "dilations")
        cl = _channel_last(data_format, 2)
        spatial = x.shape[1:3] if cl else x.shape[2:]
        pads = _pads(padding, 2, spatial, [di * (k - 1) + 1 for di, k in zip(d, (h, w))], s)
        if tiny_conv_outputs(x, (h, w), s, pads, d, cl) is not None:
            return None  # the general call's matrix product with the filters as they lie
        hwio = SimpleNamespace(shape=(h, w, i, o), dtype=filters.dtype)
        call = _conv2d(x, hwio, strides, padding, data_format=data_format, dilations=dilations)
        return None if call is None else (lambda x, f: call(x, tf.transpose(f, (2, 3, 1, 0))))
    s, d = _tuple(strides, 2, "strides"), _tuple(dilations, 2, "dilations")
    if any(v > 1 for v in d) and any(v > 1 for v in s):
        return None  # TF refuses both: the general path dilates the filter
    cl = _channel_last(data_format, 2)
    st, dl = [1, *s, 1], [1, *d, 1]
    mode = _mode(padding)
    if mode is not None:
        return _in_layout(lambda x, f: gn.conv2d(x, f, st, mode, dilations=dl), cl)
    spatial = x.shape[1:3] if cl else x.shape[2:]
    pads = _pads(padding, 2, spatial, [di * (k - 1) + 1 for di, k in zip(d, filters.shape[:2])], s)
    explicit = [0, 0, *[v for pair in pads for v in pair], 0, 0]
    return _in_layout(lambda x, f: gn.conv2d(x, f, st, "EXPLICIT", explicit_paddings=explicit, dilations=dl), cl)


def _pool(kind: str) -> Callable[..., Any]:
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
        mode = _mode(padding)
        if x.dtype not in _FLOATS or mode is None or (kind == "avg" and mode == "SAME" and count_include_pad):
            return None  # the general path pads explicitly
        k, s = [1, *_tuple(kernel, 2, "kernel"), 1], [1, *_tuple(strides, 2, "strides"), 1]
        # TF's SAME max pool ignores the padding, and its SAME average leaves it out of the divisor
        pool = gn.max_pool if kind == "max" else gn.avg_pool
        return _in_layout(lambda x: pool(x, k, s, mode), _channel_last(data_format, 2))

    return call


specializer(nn.max_pool2d)(_pool("max"))
specializer(nn.avg_pool2d)(_pool("avg"))
