"""Searching functions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import ints, pair, red_axes, tensor, truth
from ._sortkey import sort_key

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]


def _arg(fn: Any, x: Any, axis: int | None, keepdims: bool) -> Any:
    if x.dtype is D.BOOL:
        x = gm.cast(x, D.U8)  # no bool ArgMax kernel
    if axis is None:
        n = x.shape.rank
        out = fn(x if n == 1 else ga.reshape(x, ints((-1,))), 0, output_type=D.I64)
        return ga.reshape(out, ints((1,) * n)) if keepdims else out
    out = fn(x, axis, output_type=D.I64)  # NaN: TF skips it (the standard leaves NaN unspecified)
    return ga.expand_dims(out, axis) if keepdims else out


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return _arg(gm.arg_max, x, axis, keepdims)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    return _arg(gm.arg_min, x, axis, keepdims)


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    nz = truth(x)
    return gm._sum(gm.cast(nz, D.I64), red_axes(x, axis), keep_dims=keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    n = x.shape.rank
    if n == 0:
        raise ValueError("nonzero: zero-dimensional input is not allowed")
    nz = truth(x)
    idx = ga.where(nz)  # (count, ndim) int64, row-major
    return tuple(idx[:, i] for i in range(n))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    x1, x2 = pair(x1, x2)
    if x1.shape.rank != 1:
        raise ValueError("searchsorted: x1 must be one-dimensional")
    if sorter is not None:
        x1 = tf.gather(x1, tensor(sorter))
    k1, k2 = sort_key(x1), sort_key(x2)  # same order (and NaN placement) as sort
    shape = tf.shape(x2)
    out = tf.searchsorted(k1, ga.reshape(k2, [-1]), side=side, out_type=D.I64)
    return ga.reshape(out, shape)


def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    try:
        if x1.dtype is x2.dtype and condition.dtype is D.BOOL:
            return gm.select_v2(condition, x1, x2)
    except AttributeError:
        pass
    condition = tensor(condition)
    if condition.dtype is not D.BOOL:
        condition = gm.not_equal(condition, tf.zeros((), condition.dtype))
    x1, x2 = pair(x1, x2)
    return gm.select_v2(condition, x1, x2)
