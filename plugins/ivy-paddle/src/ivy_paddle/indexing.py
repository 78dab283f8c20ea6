"""Indexing functions: paddle's gathers reject negative indices, so indices are wrapped first."""

from __future__ import annotations

from typing import Any

from ._common import index_tensor, lift, norm_axis
from ._framework import paddle

__all__ = ["take", "take_along_axis"]


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        if x.ndim != 1:
            raise ValueError("ivy.take: axis may be None only for one-dimensional x")
        axis = 0
    axis = norm_axis(axis, x.ndim)
    idx = index_tensor(indices, x.shape[axis])
    return paddle.gather(x, idx, axis)  # gather has kernels for every dtype (index_select lacks some)


def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    axis = norm_axis(axis, x.ndim)
    idx = index_tensor(indices, x.shape[axis])
    return lift(paddle.take_along_axis, x, idx, axis, complex_split=True)
