"""Indexing functions: MXNet's ``take`` and ``take_along_axis`` (differentiable), with the
standard's negative indices (MXNet refuses them) and broadcasting; zero-size arrays (which
MXNet's kernels refuse) through NumPy."""

from __future__ import annotations

from typing import Any

from ._dtypes import INTS, bool_, int8, int32, uint8
from ._framework import Array, mnp, onp
from ._helpers import cast, norm_axis, on_host, where

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
    if indices.dtype not in INTS:
        raise TypeError(f"ivy.take: indices must be an integer array, got {indices.dtype}")
    if x.size == 0 or indices.size == 0:
        return on_host(lambda a, i: onp.take(a, i, axis=ax), x, indices, ctx=x.ctx)
    return mnp.take(x, _wrap(indices, x.shape[ax], "take"), axis=ax)


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    ax = norm_axis(axis, x.ndim, "take_along_axis")
    if indices.ndim != x.ndim:
        raise ValueError(f"ivy.take_along_axis: indices have {indices.ndim} dimensions, x has {x.ndim}")
    if indices.dtype not in INTS:
        raise TypeError(f"ivy.take_along_axis: indices must be an integer array, got {indices.dtype}")
    # the other axes broadcast, as the standard says (MXNet wants equal shapes there)
    shape_x = tuple(max(a, b) if i != ax else a for i, (a, b) in enumerate(zip(x.shape, indices.shape)))
    shape_i = tuple(max(a, b) if i != ax else b for i, (a, b) in enumerate(zip(x.shape, indices.shape)))
    if x.shape != shape_x:
        x = mnp.broadcast_to(x, shape_x)
    if indices.shape != shape_i:
        indices = mnp.broadcast_to(indices, shape_i)
    if x.size == 0 or indices.size == 0:
        return on_host(lambda a, i: onp.take_along_axis(a, i, axis=ax), x, indices, ctx=x.ctx)
    if x.dtype in (int8, uint8, bool_):  # (MXNet's take_along_axis refuses them)
        return cast(
            mnp.take_along_axis(cast(x, int32), _wrap(indices, x.shape[ax], "take_along_axis"), axis=ax), x.dtype
        )
    return mnp.take_along_axis(x, _wrap(indices, x.shape[ax], "take_along_axis"), axis=ax)
