"""Searching functions: argmax/argmin (with ``keepdims``, which MXNet lacks), ``nonzero``,
``count_nonzero``, ``searchsorted``, ``where``."""

from __future__ import annotations

from typing import Any, Literal

from ._dtypes import INDEX, bool_
from ._framework import Array, mnp, onp
from ._helpers import cast, norm_axes, norm_axis, on_host, promote2_arrays
from ._helpers import where as _where

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]


def _arg(fn: Any, x: Array, axis: int | None, keepdims: bool, op: str) -> Array:
    if x.dtype == bool_:
        x = cast(x, "int8")  # (MXNet's argmax takes numbers)
    if axis is not None and 0 in x.shape:  # a zero-size result (MXNet's kernel refuses it)
        ax = norm_axis(axis, x.ndim, op)
        return on_host(lambda a: getattr(onp, op)(a, axis=ax, keepdims=keepdims), x, ctx=x.ctx, dtype=INDEX)
    if axis is None:
        if x.size == 0:
            raise ValueError(f"ivy.{op}: attempt to get the {op[3:]} of an empty array")
        out = fn(x.reshape(-1), axis=0)
        return out.reshape((1,) * x.ndim) if keepdims else out
    ax = norm_axis(axis, x.ndim, op)
    out = fn(x, axis=ax)
    return mnp.expand_dims(out, ax) if keepdims else out


def argmax(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    return _arg(mnp.argmax, x, axis, keepdims, "argmax")


def argmin(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    return _arg(mnp.argmin, x, axis, keepdims, "argmin")


def count_nonzero(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    axes = norm_axes(axis, x.ndim, "count_nonzero")
    nz = cast(x != 0 if x.dtype != bool_ else x, INDEX)
    if not axes:
        return nz
    if x.size == 0:
        return on_host(lambda a: onp.sum(a, axis=axes, keepdims=keepdims), nz, ctx=x.ctx, dtype=INDEX)
    return mnp.sum(nz, axis=axes, keepdims=keepdims)


def nonzero(x: Array, /) -> tuple[Array, ...]:
    if x.ndim == 0:
        raise ValueError("ivy.nonzero: not defined for 0-d arrays (use ivy.nonzero(ivy.reshape(x, (1,))))")
    return tuple(cast(i, INDEX) for i in mnp.nonzero(x))


def searchsorted(
    x1: Array, x2: Array, /, *, side: Literal["left", "right"] = "left", sorter: Array | None = None
) -> Array:
    if side not in ("left", "right"):
        raise ValueError(f"ivy.searchsorted: side must be 'left' or 'right', got {side!r}")
    if x1.ndim != 1:
        raise ValueError(f"ivy.searchsorted: x1 must be 1-D, got shape {x1.shape}")
    a, v = promote2_arrays(x1, x2, "searchsorted")
    # by NumPy on the host: MXNet's searchsorted is NumPy's run there too (it returns NumPy
    # scalars for 0-d input); an integer result has no gradient to keep
    return on_host(lambda p, q, s: onp.searchsorted(p, q, side=side, sorter=s), a, v, sorter, ctx=v.ctx, dtype=INDEX)


def where(
    condition: Array, x1: Array | bool | int | float | complex, x2: Array | bool | int | float | complex, /
) -> Array:
    a, b = promote2_arrays(x1, x2, "where")
    c = cast(condition, bool_)
    return _where(c, a, b)
