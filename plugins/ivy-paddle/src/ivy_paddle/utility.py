"""Utility functions: all, any, diff."""

from __future__ import annotations

from typing import Any

from ._dtypes import bool_
from ._framework import paddle
from ._helpers import norm_axes, norm_axis
from .elementwise import subtract
from .manipulation import concat

__all__ = ["all", "any", "diff"]


def _reduce(fn: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    if x.dtype is not bool_:
        x = paddle.cast(x, bool_)  # no narrow-int kernels (and paddle's float != is approximate)
    if axis == ():
        return x
    return fn(x, None if axis is None else norm_axes(axis, len(x.shape)), keepdims)


def all(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return _reduce(paddle.all, x, axis, keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return _reduce(paddle.any, x, axis, keepdims)


def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
    axis = norm_axis(axis, len(x.shape))
    if prepend is not None or append is not None:
        x = concat([a for a in (prepend, x, append) if a is not None], axis=axis)
    if n < 0:
        raise ValueError("ivy.diff: n must be non-negative")
    for _ in range(n):
        m = x.shape[axis]
        if m == 0:
            break
        hi = paddle.slice(x, [axis], [1], [m])
        lo = paddle.slice(x, [axis], [0], [m - 1])
        # subtract handles dtype holes (bool: logical xor, as "!=" in NumPy)
        x = paddle.logical_xor(hi, lo) if x.dtype is bool_ else subtract(hi, lo)
    return x
