"""Sorting functions. bool and narrow ints sort in int32 (exact, order-preserving)."""

from __future__ import annotations

from typing import Any

from ._dtypes import bool_, idset, int8, int32
from ._framework import paddle

__all__ = ["argsort", "sort"]

_NARROW = idset(bool_, int8)  # no sort/argsort kernels


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    if id(x.dtype) in _NARROW:
        x = paddle.cast(x, int32)
    if len(x.shape) == 0:
        return paddle.zeros([], paddle.int64)
    return paddle.argsort(x, axis, descending, stable)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    dt = x.dtype
    if len(x.shape) == 0:
        return x.clone()
    if id(dt) in _NARROW:
        return paddle.cast(paddle.sort(paddle.cast(x, int32), axis, descending, stable), dt)
    return paddle.sort(x, axis, descending, stable)
