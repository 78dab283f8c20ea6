"""Searching functions. Index results are int64 (the default index dtype)."""

from __future__ import annotations

from typing import Any

from ivy.plugin_kit import axis_index, fastpath

from ._dtypes import bool_, idset, int8, int16, int32, int64, uint8
from ._framework import Tensor, paddle
from ._helpers import RETRY, cast, norm_axes, promote2

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

_NARROW = idset(bool_, int8, int16, uint8)  # no argmax/where/searchsorted kernels


def _nonempty(x: Any, axis: int | None, op: str) -> None:
    # paddle's argmax/argmin of an empty axis return uninitialised memory: no fast path from C
    # to paddle's kernel for them, the shape is checked first (~0.3 us)
    shape = x.shape
    if 0 in shape and (axis is None or shape[axis_index(axis, len(shape), op)] == 0):
        raise ValueError(f"ivy.{op}: the search is over an empty axis (shape {tuple(shape)}): no element to find")


# bool and int8 have no kernel: cast (int16 and uint8 do, with the same results as the cast)
def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    _nonempty(x, axis, "argmax")
    if id(x.dtype) in _NARROW:
        x = paddle.cast(x, int32)  # exact, and order-preserving
    out = paddle.argmax(x, axis, keepdims)
    if keepdims and axis is None:
        out = out.reshape([1] * len(x.shape))
    return out


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
    _nonempty(x, axis, "argmin")
    if id(x.dtype) in _NARROW:
        x = paddle.cast(x, int32)
    out = paddle.argmin(x, axis, keepdims)
    if keepdims and axis is None:
        out = out.reshape([1] * len(x.shape))
    return out


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    if axis == ():
        return paddle.cast(paddle.cast(x, bool_), int64)
    axes = norm_axes(axis, len(x.shape))
    out = paddle.count_nonzero(x, axes, keepdims)
    if keepdims and axis is None:
        out = out.reshape([1] * len(x.shape))
    return out


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if len(x.shape) == 0:
        raise ValueError("ivy.nonzero: zero-dimensional input is not allowed")
    if x.dtype is int8 or x.dtype is uint8:
        x = paddle.cast(x, bool_)  # no int8/uint8 kernel; only "non-zero" matters
    return tuple(paddle.nonzero(x, as_tuple=True))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if side not in ("left", "right"):
        raise ValueError(f"ivy.searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        x1 = paddle.gather(x1, cast(sorter, int64), 0)
    if x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "searchsorted")
    if id(x1.dtype) in _NARROW:
        x1, x2 = paddle.cast(x1, int32), paddle.cast(x2, int32)
    return paddle.searchsorted(x1, x2, right=side == "right")


_c_where = paddle._C_ops.where


def _where_native(condition: Any, x1: Any, x2: Any) -> Any:
    # paddle.where's own call for a bool condition and arrays of one shape, without the three
    # broadcast-shape computations it makes first (a third of its time on 1e4 elements)
    if condition.dtype is bool_:
        s = x1.shape
        if s == x2.shape and s == condition.shape:
            return _c_where(condition, x1, x2)
    return paddle.where(condition, x1, x2)


# Two tensors of one dtype: paddle.where (which broadcasts). It raises ValueError for a condition
# that is not bool (which the Python function casts) and RuntimeError for the narrow ints it
# lacks a kernel for (which the Python function computes in int32).
@fastpath(_where_native, nargs=3, same=(1, 2), retry=RETRY)
def where(condition: Any, x1: Any, x2: Any, /) -> Any:  # (promote2 checks a Python int's range)
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "where")
    if condition.dtype is not bool_:
        condition = paddle.cast(condition, bool_)
    if id(x1.dtype) in _NARROW and x1.dtype is not bool_:  # no narrow-int kernel: exact via int32
        dt = x1.dtype
        return paddle.cast(_where_native(condition, paddle.cast(x1, int32), paddle.cast(x2, int32)), dt)
    return _where_native(condition, x1, x2)
