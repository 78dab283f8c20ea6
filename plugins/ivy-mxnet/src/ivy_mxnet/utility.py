"""Utility functions: ``all``, ``any``, ``diff``."""

from __future__ import annotations

from ._dtypes import bool_
from ._framework import Array, mnp
from ._helpers import cast, norm_axes, norm_axis, promote_many

__all__ = ["all", "any", "diff"]


def all(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    axes = norm_axes(axis, x.ndim, "all")
    b = cast(x, bool_)
    if not axes:
        return b.copy() if b is x else b
    return mnp.all(b, axis=axes, keepdims=keepdims)


def any(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    axes = norm_axes(axis, x.ndim, "any")
    b = cast(x, bool_)
    if not axes:
        return b.copy() if b is x else b
    return mnp.any(b, axis=axes, keepdims=keepdims)


def diff(
    x: Array, /, *, axis: int = -1, n: int = 1, prepend: Array | None = None, append: Array | None = None
) -> Array:
    ax = norm_axis(axis, x.ndim, "diff")
    if n < 0:
        raise ValueError(f"ivy.diff: n must be non-negative, got {n}")
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = mnp.concatenate(promote_many(parts, "diff"), axis=ax)
    if n == 0:
        return x
    if x.dtype == bool_:  # the standard's diff of bools is "not equal"
        out = x
        for _ in range(n):
            out = out[(slice(None),) * ax + (slice(1, None),)] != out[(slice(None),) * ax + (slice(None, -1),)]
        return out
    if x.shape[ax] == 0 or n >= x.shape[ax]:
        shape = list(x.shape)
        shape[ax] = max(x.shape[ax] - n, 0)
        return mnp.zeros(tuple(shape), dtype=x.dtype, ctx=x.ctx)
    return mnp.diff(x, n=n, axis=ax)
