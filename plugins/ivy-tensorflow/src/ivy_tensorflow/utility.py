"""Utility functions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import arrays, norm_axis, red_axes, truth

__all__ = ["all", "any", "diff"]


def _truth(x: Any) -> Any:
    return x if x.dtype is D.BOOL else truth(x)  # NaN is true


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return gm._all(_truth(x), red_axes(x, axis), keep_dims=keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return gm._any(_truth(x), red_axes(x, axis), keep_dims=keepdims)


def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
    from .elementwise import logical_xor, subtract

    r = x.shape.rank
    if r == 0:
        raise ValueError("diff: x must be at least one-dimensional")
    axis = norm_axis(axis, r)
    if n < 0:
        raise ValueError("diff: n must be non-negative")
    if prepend is not None or append is not None:
        x = tf.concat(arrays([p for p in (prepend, x, append) if p is not None]), axis)
    op = logical_xor if x.dtype is D.BOOL else subtract  # bool diff is "not equal", like NumPy
    lo = [slice(None)] * r
    hi = [slice(None)] * r
    lo[axis] = slice(None, -1)
    hi[axis] = slice(1, None)
    for _ in range(n):
        x = op(x[tuple(hi)], x[tuple(lo)])
    return x
