"""Statistical functions (reductions)."""

from __future__ import annotations

import math
from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import ints, norm_axes, norm_axis, red_axes

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]

_native = D.native


def _acc(x: Any, dtype: Any) -> Any:
    """``x`` cast to the accumulator dtype: the given one, else the standard's default for x."""
    d = x.dtype
    t = D.SUM_DTYPE.get(d, d) if dtype is None else _native(dtype)
    return x if t is d else gm.cast(x, t)


def _axes(x: Any, axis: Any) -> list[int]:
    if axis is None:
        return list(range(x.shape.rank))
    return norm_axes(axis, x.shape.rank)


_SUM_DTYPE = D.SUM_DTYPE


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    if dtype is None and x.dtype in D.FLOATS:
        return gm._sum(x, red_axes(x, axis), keep_dims=keepdims)
    return gm._sum(_acc(x, dtype), red_axes(x, axis), keep_dims=keepdims)


def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    return gm.prod(_acc(x, dtype), red_axes(x, axis), keep_dims=keepdims)


def _nonempty(x: Any, axis: Any, op: str) -> None:
    """TF reduces an empty slice to -inf / +inf (the identity); NumPy and the standard's
    libraries refuse it: there is no maximum of nothing."""
    dims = x.shape.as_list()
    if 0 not in dims:
        return
    axes = range(len(dims)) if axis is None else norm_axes(axis, len(dims))
    if any(dims[a] == 0 for a in axes):
        raise ValueError(f"ivy.{op}: the reduction is over an empty axis (shape {tuple(dims)}), which has no {op}imum")


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    _nonempty(x, axis, "max")
    if x.dtype is D.BOOL:
        return gm._any(x, red_axes(x, axis), keep_dims=keepdims)  # no bool Max kernel
    return gm._max(x, red_axes(x, axis), keep_dims=keepdims)  # NaN propagates


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    _nonempty(x, axis, "min")
    if x.dtype is D.BOOL:
        return gm._all(x, red_axes(x, axis), keep_dims=keepdims)
    return gm._min(x, red_axes(x, axis), keep_dims=keepdims)


def _float(x: Any) -> Any:
    return x if x.dtype in D.FLOATS else gm.cast(x, D.F64)  # integer input: float64 (outside the standard)


def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if x.dtype in D.REALF:
        return gm.mean(x, red_axes(x, axis), keep_dims=keepdims)  # an empty slice gives NaN
    x = _float(x)
    if x.shape.num_elements():
        return gm.mean(x, red_axes(x, axis), keep_dims=keepdims)
    axes = _axes(x, axis)
    if _has_empty(x, axes):
        shape = (
            [1 if i in axes else s for i, s in enumerate(x.shape)]
            if keepdims
            else [s for i, s in enumerate(x.shape) if i not in axes]
        )
        return tf.fill(shape, tf.constant(math.nan, x.dtype))  # mean of nothing is NaN
    return gm.mean(x, ints(tuple(axes)), keep_dims=keepdims)


def _has_empty(x: Any, axes: list[int]) -> bool:
    return 0 in [x.shape[i] for i in axes]


def var(x: Any, /, *, axis: Any = None, correction: int | float = 0.0, keepdims: bool = False) -> Any:
    x = _float(x)
    axes = _axes(x, axis)
    n = 1
    for i in axes:
        n *= int(x.shape[i])
    dof = n - correction
    ax = ints(tuple(axes))
    m = gm.mean(x, ax, keep_dims=True) if n else tf.zeros((), x.dtype)
    dev = gm.sub(x, m)
    if x.dtype in D.COMPLEX:
        dev = gm.complex_abs(dev, Tout=D.REAL_OF[x.dtype])
    ss = gm._sum(gm.square(dev), ax, keep_dims=keepdims)
    if dof <= 0:
        return gm.mul(ss, tf.constant(math.nan, ss.dtype))  # N - correction <= 0: NaN
    return gm.real_div(ss, tf.constant(dof, ss.dtype))


def std(x: Any, /, *, axis: Any = None, correction: int | float = 0.0, keepdims: bool = False) -> Any:
    return gm.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def _cumulative(fn: Any, ident: int, x: Any, axis: Any, dtype: Any, include_initial: bool) -> Any:
    n = x.shape.rank
    if axis is None:
        if n > 1:
            raise ValueError("axis may be None only for one-dimensional input")
        if n == 0:
            x = ga.reshape(x, [1])
        axis = 0
    axis = norm_axis(axis, x.shape.rank)
    x = _acc(x, dtype)
    if x.dtype is D.BOOL:
        x = gm.cast(x, D.I64)
    out = fn(x, axis)
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        out = tf.concat([tf.fill(shape, tf.constant(ident, x.dtype)), out], axis)
    return out


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Any:
    return _cumulative(gm.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Any:
    return _cumulative(gm.cumprod, 1, x, axis, dtype, include_initial)
