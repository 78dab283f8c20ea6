"""Statistical functions.

Default accumulation dtypes follow the standard: bool and signed ints sum/multiply in int64; uint8
would need uint64, which paddle lacks, so it raises UnsupportedDTypeError unless ``dtype`` is
given. Kernels lacking narrow ints compute in int32/int64 and cast back (exact).
"""

from __future__ import annotations

import math
from typing import Any

from ivy.plugin_kit import fastpath

from ._dtypes import (
    COMPLEX,
    INEXACT,
    PDTYPE,
    bool_,
    idset,
    int8,
    int16,
    int32,
    int64,
    native,
    uint8,
    unsupported,
)
from ._framework import paddle
from ._helpers import RETRY, c_op, norm_axes, norm_axis
from ._helpers import prod as _prod

__all__ = [
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]

_NARROW = idset(bool_, int8, int16, uint8)
_SIGNED_SMALL = idset(bool_, int8, int16, int32)
_sum = c_op(paddle.sum)  # paddle.sum(...) is _C_ops.sum(...)


def _acc_dtype(x: Any, dtype: Any, op: str) -> Any:
    """The result dtype of sum/prod/cumulative_*."""
    if dtype is not None:
        return dtype if type(dtype) is PDTYPE else native(dtype, op)
    dt = x.dtype
    if id(dt) in _SIGNED_SMALL:
        return int64
    if dt is uint8:
        raise unsupported("uint64", f"{op} of uint8 input (the default result would be uint64; pass dtype=)")
    return dt


def _axes(axis: Any, ndim: int) -> Any:
    return None if axis is None else norm_axes(axis, ndim)


# (no fastpath: integer input needs a dtype guard, which costs more than this function; see _helpers)
def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    if dtype is None and id(x.dtype) in INEXACT and (axis is None or type(axis) is int):
        return _sum(x, axis, None, keepdims)  # fast path: floating input keeps its dtype
    dt = _acc_dtype(x, dtype, "sum")
    if axis == ():  # no reduction at all (paddle would reduce everything)
        return paddle.cast(x, dt)
    if id(dt) in _NARROW and dt is not bool_:  # narrow accumulation: wrap like the narrow type
        return paddle.cast(paddle.sum(x, _axes(axis, len(x.shape)), int64, keepdims), dt)
    if id(x.dtype) in COMPLEX and id(dt) not in COMPLEX:
        raise TypeError("ivy.sum: cannot accumulate complex input in a real dtype")
    out = paddle.sum(x, _axes(axis, len(x.shape)), dt, keepdims)
    return out if out.dtype is dt else paddle.cast(out, dt)  # paddle ignores dtype for empty input


def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    dt = _acc_dtype(x, dtype, "prod")
    if axis == ():
        return paddle.cast(x, dt)
    if id(x.dtype) in COMPLEX and id(dt) not in COMPLEX:
        raise TypeError("ivy.prod: cannot accumulate complex input in a real dtype")
    if id(dt) in _NARROW:  # no narrow kernels: compute in int64, wrap to the narrow type
        return paddle.cast(paddle.prod(paddle.cast(x, int64), _axes(axis, len(x.shape)), keepdims), dt)
    if x.dtype is not dt:
        x = paddle.cast(x, dt)
    return paddle.prod(x, _axes(axis, len(x.shape)), keepdims)


def _folded(fn: Any, x: Any, axes: list[int], keepdims: bool) -> Any:
    """``fn`` (paddle.max or paddle.min) over ``axes`` (two or more, normalised), as one reduction
    over one axis: the reduced axes moved last and flattened together. Paddle 3.3's gradient of
    max/min over several axes of a rank-5 or higher tensor is wrong (zeros or garbage), while a
    single axis is right at any rank; the values and the split of the gradient between ties are
    those of the single-axis kernel."""
    nd = len(x.shape)
    if len(set(axes)) != len(axes):
        raise ValueError(f"ivy.{fn.__name__}: duplicate value in axis {axes} (normalised)")
    reduced = sorted(axes)
    kept = [a for a in range(nd) if a not in reduced]
    perm = kept + reduced
    if perm != list(range(nd)):
        x = paddle.transpose(x, perm)
    out = fn(paddle.flatten(x, len(kept), nd - 1), len(kept), False)
    return paddle.unsqueeze(out, reduced) if keepdims else out


def _minmax(fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    if (axis is None or type(axis) is int) and id(x.dtype) not in _NARROW:
        return fn(x, axis, keepdims)  # fast path
    if axis == ():
        return x.clone()
    dt = x.dtype
    narrow = id(dt) in _NARROW
    if narrow:  # no narrow kernels: compute in int32 (exact), cast back
        x = paddle.cast(x, int32)
    axes = _axes(axis, len(x.shape))
    if axes is None or len(axes) == 1:
        out = fn(x, axes, keepdims)
    else:
        out = _folded(fn, x, axes, keepdims)
    return paddle.cast(out, dt) if narrow else out


# All of x: paddle.max(x) is this function's own call; the narrow dtypes it treats apart have no
# kernel (RuntimeError), so the Python function gets them.
@fastpath(paddle.max, nargs=1, retry=RETRY)
def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return _minmax(paddle.max, x, axis, keepdims)


@fastpath(paddle.min, nargs=1, retry=RETRY)
def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return _minmax(paddle.min, x, axis, keepdims)


@fastpath(paddle.mean, nargs=1)  # paddle.mean(x) is paddle.mean(x, None, False), any input
def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if axis is None or type(axis) is int:
        return paddle.mean(x, axis, keepdims)
    if axis == ():
        return x.clone()
    return paddle.mean(x, _axes(axis, len(x.shape)), keepdims)


def _count(x: Any, axis: Any) -> int:
    if axis is None:
        return _prod(x.shape)
    return _prod([x.shape[a] for a in norm_axes(axis, len(x.shape))])


def var(x: Any, /, *, axis: Any = None, correction: int | float = 0.0, keepdims: bool = False) -> Any:
    if id(x.dtype) not in INEXACT:
        raise TypeError(f"ivy.var: floating-point input required, got {x.dtype}")
    axes = _axes(axis, len(x.shape)) if axis != () else []
    n = _count(x, axis) if axis != () else 1
    if axes == []:
        d = x - x
    else:
        d = x - paddle.mean(x, axes, True)
    sq = paddle.real(d * paddle.conj(d)) if id(x.dtype) in COMPLEX else d * d
    s = paddle.sum(sq, axes if axes != [] else None, keepdim=keepdims) if axes != [] else sq
    if n - correction <= 0:  # the standard: NaN (paddle divides anyway: inf or negative)
        return paddle.full_like(s, math.nan)
    return s / (n - correction)


def std(x: Any, /, *, axis: Any = None, correction: int | float = 0.0, keepdims: bool = False) -> Any:
    return paddle.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def _cumulative(fn: Any, x: Any, axis: Any, dt: Any, include_initial: bool, initial: int, op: str) -> Any:
    if axis is None:
        if len(x.shape) != 1:
            raise ValueError(f"ivy.{op}: axis may be None only for one-dimensional input")
        axis = 0
    axis = norm_axis(axis, len(x.shape))
    if id(x.dtype) in COMPLEX and id(dt) not in COMPLEX:
        raise TypeError(f"ivy.{op}: cannot accumulate complex input in a real dtype")
    wide = dt
    if id(dt) in _NARROW:
        wide = int64  # no narrow kernels: accumulate in int64, wrap to the narrow type at the end
    xc = x if x.dtype is wide else paddle.cast(x, wide)
    out = fn(xc, axis) if xc.shape[axis] else xc
    if out.dtype is not dt:  # paddle's cumsum of int32 gives int64; narrow ones wrap back
        out = paddle.cast(out, dt)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = paddle.concat([paddle.full(shape, initial, dt), out], axis)
    return out


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Any:
    dt = _acc_dtype(x, dtype, "cumulative_sum")
    return _cumulative(paddle.cumsum, x, axis, dt, include_initial, 0, "cumulative_sum")


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Any:
    dt = _acc_dtype(x, dtype, "cumulative_prod")
    return _cumulative(paddle.cumprod, x, axis, dt, include_initial, 1, "cumulative_prod")
