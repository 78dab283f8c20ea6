"""Utility functions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import norm_axes, norm_axis, pair, tensor

__all__ = ["all", "any", "diff"]


def _truth(x: Any) -> Any:
    return x if x.dtype is D.BOOL else gm.not_equal(x, tf.zeros((), x.dtype))  # NaN is true


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return gm._all(_truth(x), norm_axes(axis, x.shape.rank), keep_dims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return gm._any(_truth(x), norm_axes(axis, x.shape.rank), keep_dims=keepdims)


def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
    from .elementwise import logical_xor, subtract

    r = x.shape.rank
    if r == 0:
        raise ValueError("diff: x must be at least one-dimensional")
    axis = norm_axis(axis, r)
    if n < 0:
        raise ValueError("diff: n must be non-negative")
    parts = [tensor(p) for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        parts = list(pair(parts[0], parts[1])) + parts[2:] if len(parts) == 2 else parts
        d = parts[0].dtype
        for p in parts[1:]:
            d = D.promote(d, p.dtype)
        parts = [p if p.dtype == d else gm.cast(p, d) for p in parts]
        x = tf.concat(parts, axis)
    op = logical_xor if x.dtype is D.BOOL else subtract  # bool diff is "not equal", like NumPy
    lo = [slice(None)] * r
    hi = [slice(None)] * r
    lo[axis] = slice(None, -1)
    hi[axis] = slice(1, None)
    for _ in range(n):
        x = op(x[tuple(hi)], x[tuple(lo)])
    return x
