"""Indexing functions: MXNet's ``take`` and ``take_along_axis`` (differentiable), with the
standard's negative indices (MXNet refuses them)."""

from __future__ import annotations

from typing import Any

from ._common import norm_axis, where
from ._dtypes import INTS
from ._framework import Array, mnp

__all__ = ["take", "take_along_axis"]


def _wrap(indices: Any, n: int, op: str) -> Any:
    if indices.dtype not in INTS:
        raise TypeError(f"ivy.{op}: indices must be an integer array, got {indices.dtype}")
    if indices.dtype.kind == "u":
        return indices
    return where(indices < 0, indices + n, indices)


def take(x: Array, indices: Array, /, *, axis: int | None = None) -> Array:
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"ivy.take: axis is required for an array of {x.ndim} dimensions")
        x, axis = x.reshape(-1), 0
    ax = norm_axis(axis, x.ndim, "take")
    return mnp.take(x, _wrap(indices, x.shape[ax], "take"), axis=ax)


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    ax = norm_axis(axis, x.ndim, "take_along_axis")
    idx = _wrap(indices, x.shape[ax], "take_along_axis")
    if idx.ndim != x.ndim:
        raise ValueError(f"ivy.take_along_axis: indices have {idx.ndim} dimensions, x has {x.ndim}")
    # the other axes broadcast, as the standard says (MXNet wants equal shapes there)
    shape_x = tuple(max(a, b) if i != ax else a for i, (a, b) in enumerate(zip(x.shape, idx.shape)))
    shape_i = tuple(max(a, b) if i != ax else b for i, (a, b) in enumerate(zip(x.shape, idx.shape)))
    if x.shape != shape_x:
        x = mnp.broadcast_to(x, shape_x)
    if idx.shape != shape_i:
        idx = mnp.broadcast_to(idx, shape_i)
    return mnp.take_along_axis(x, idx, axis=ax)
