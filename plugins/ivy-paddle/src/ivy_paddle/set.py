"""Set functions. paddle.unique mishandles NaN (merges them, wrong counts and inverse), so NaNs
are split off and appended one by one; narrow ints run in int32; complex goes through NumPy
(paddle has no complex unique kernel)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ._dtypes import COMPLEX, FLOATS, bool_, idset, int8, int16, int32, int64, uint8
from ._framework import paddle

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]

_NARROW = idset(bool_, int8, int16, uint8)


class UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """(values, first indices, inverse (flat), counts) of the flattened ``x``."""
    dt = x.dtype
    flat = x.reshape([-1])
    if id(dt) in COMPLEX:
        return _unique_numpy(flat)
    if id(dt) in _NARROW:
        v, i, inv, c = _unique(paddle.cast(flat, int32))
        return paddle.cast(v, dt), i, inv, c
    n = flat.shape[0]
    if n == 0:
        e = paddle.zeros([0], int64)
        return flat, e, e, e
    if id(dt) in FLOATS:
        nan = paddle.isnan(flat)
        if bool(nan.any()):
            keep = paddle.nonzero(~nan).reshape([-1])
            nanpos = paddle.nonzero(nan).reshape([-1])
            v, i, inv, c = _unique(paddle.gather(flat, keep))
            k, m = v.shape[0], nanpos.shape[0]
            values = paddle.concat([v, paddle.gather(flat, nanpos)])
            indices = paddle.concat([paddle.gather(keep, i), nanpos]) if k else nanpos
            counts = paddle.concat([c, paddle.ones([m], int64)])
            inverse = paddle.zeros([n], int64)
            if k:
                inverse = paddle.scatter(inverse, keep, inv)
            inverse = paddle.scatter(inverse, nanpos, paddle.arange(k, k + m, dtype=int64))
            return values, indices, inverse, counts
    v, i, inv, c = paddle.unique(flat, return_index=True, return_inverse=True, return_counts=True)
    return v, i, inv, c


def _unique_numpy(flat: Any) -> tuple[Any, Any, Any, Any]:
    a = flat.numpy()
    v, i, inv, c = np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    p = flat.place
    return (
        paddle.to_tensor(v, place=p),
        paddle.to_tensor(i.astype(np.int64), place=p),
        paddle.to_tensor(inv.reshape(-1).astype(np.int64), place=p),
        paddle.to_tensor(c.astype(np.int64), place=p),
    )


def unique_all(x: Any, /) -> UniqueAllResult:
    v, i, inv, c = _unique(x)
    return UniqueAllResult(v, i, inv.reshape(x.shape), c)


def unique_counts(x: Any, /) -> UniqueCountsResult:
    v, _, _, c = _unique(x)
    return UniqueCountsResult(v, c)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    v, _, inv, _ = _unique(x)
    return UniqueInverseResult(v, inv.reshape(x.shape))


def unique_values(x: Any, /) -> Any:
    dt = x.dtype
    if id(dt) in FLOATS or id(dt) in COMPLEX:
        return _unique(x)[0]
    flat = x.reshape([-1])
    if id(dt) in _NARROW:
        return paddle.cast(paddle.unique(paddle.cast(flat, int32)), dt)
    return paddle.unique(flat)
