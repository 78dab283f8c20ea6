"""Statistical functions."""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any

import torch

from ivy.plugin_kit import axis_tuple, fastpath

from ._dtypes import ALL, PARTIAL, SUM_DTYPE, UNSIGNED, i64, native, u64
from ._helpers import Tensor, axes_tuple, from_u64_order, to_u64_order

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]

_WIDE = {torch.uint16: torch.int32, torch.uint32: torch.int64}

# The reductions' fast path: torch's (dim, keepdim) are the spec's (axis, keepdims), passed
# positionally (torch parses keywords slowly) and only as far as the call gives them. An int axis
# only: torch reads dim=() as "every axis", the standard as "none".
_reduction = functools.partial(
    fastpath,
    nargs=1,
    defaults=(None, False),
    keywords=("axis", "keepdims"),
    native_defaults=2,
    keyword_types=(int, bool),
)


def _unsigned_acc(fn: Any, x: Tensor, dtype: torch.dtype, **kw: Any) -> Tensor:
    """Accumulate in int64 (same bits modulo 2**64) where torch has no kernel for the dtype."""
    r = fn(x.to(i64), dtype=i64, **kw)
    return r.view(u64) if dtype is u64 else r.to(dtype)


@_reduction(torch.sum, dtypes=ALL - UNSIGNED)  # torch's defaults are the standard's here
def sum(
    x: Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: Any = None,
    keepdims: bool = False,
) -> Tensor:
    if dtype is None and x.dtype not in UNSIGNED:  # torch's accumulation dtype is the standard's
        if type(axis) is int:
            return torch.sum(x, axis, keepdims)  # positional: torch parses keywords slowly
        if axis is None and not keepdims:
            return torch.sum(x)
    dt = SUM_DTYPE.get(x.dtype) if dtype is None else native(dtype)
    if axis == ():  # torch reads dim=() as "all axes"; the standard as "none"
        return x.to(dt, copy=True) if dt is not None else x.clone()
    try:
        return torch.sum(x, dim=axis, keepdim=keepdims, dtype=dt)
    except (NotImplementedError, RuntimeError):
        if dt in PARTIAL or x.dtype in PARTIAL:
            return _unsigned_acc(torch.sum, x, dt if dt is not None else x.dtype, dim=axis, keepdim=keepdims)
        raise


# torch.prod takes no dim=None: prod(x, keepdims=True) goes to the function on torch's TypeError
@_reduction(torch.prod, dtypes=ALL - UNSIGNED, retry=TypeError)
def prod(
    x: Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: Any = None,
    keepdims: bool = False,
) -> Tensor:
    if dtype is None and x.dtype not in UNSIGNED:
        if type(axis) is int:
            return torch.prod(x, axis, keepdims)
        if axis is None and not keepdims:
            return torch.prod(x)
    dt = SUM_DTYPE.get(x.dtype) if dtype is None else native(dtype)
    if dt in PARTIAL or x.dtype in PARTIAL:
        out_dt = dt if dt is not None else x.dtype
        r = prod(x.to(i64), axis=axis, dtype=i64, keepdims=keepdims)  # same bits modulo 2**64
        return r.view(u64) if out_dt is u64 else r.to(out_dt)
    if isinstance(axis, int):
        return torch.prod(x, dim=axis, keepdim=keepdims, dtype=dt)
    if axis is not None:
        axis = axis_tuple(axis, x.ndim, "prod")  # a repeated axis would pass for all of them below
    if axis is None or len(axis) == x.ndim:
        r = torch.prod(x, dtype=dt)  # torch.prod takes one axis or all of them
        return r.reshape((1,) * x.ndim) if keepdims else r
    if not axis:
        return x.to(dt, copy=True) if dt is not None else x.clone()
    axes = sorted(axis, reverse=True)
    r = x
    for a in axes:
        r = torch.prod(r, dim=a, keepdim=True, dtype=dt)
    return r if keepdims else r.squeeze(tuple(axes))


def _minmax(fn: Any, x: Tensor, axis: Any, keepdims: bool) -> Tensor:
    if axis is None:
        axis = ()  # torch reads () as "all axes"
    elif axis == ():
        return x.clone()
    d = x.dtype
    if d in _WIDE:  # no uint16/32 kernels: the wider signed dtype has the same order
        return fn(x.to(_WIDE[d]), dim=axis, keepdim=keepdims).to(d)
    if d is u64:
        return from_u64_order(fn(to_u64_order(x), dim=axis, keepdim=keepdims))
    return fn(x, dim=axis, keepdim=keepdims)


# torch.amax(x) is torch.max(x) (the whole of x, NaN propagates) without its overload resolution
@_reduction(torch.amax, dtypes=ALL - PARTIAL)
def max(x: Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    if type(axis) is int and x.dtype not in PARTIAL:
        return torch.amax(x, axis, keepdims)
    return _minmax(torch.amax, x, axis, keepdims)


@_reduction(torch.amin, dtypes=ALL - PARTIAL)
def min(x: Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    if type(axis) is int and x.dtype not in PARTIAL:
        return torch.amin(x, axis, keepdims)
    return _minmax(torch.amin, x, axis, keepdims)


@_reduction(torch.mean)
def mean(x: Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    if type(axis) is int:
        return torch.mean(x, axis, keepdims)
    if axis is None and not keepdims:
        return torch.mean(x)
    if axis == ():
        return x.clone()
    return torch.mean(x, dim=axis, keepdim=keepdims)


def _n(x: Tensor, axis: Any) -> int:
    if axis is None:
        return x.numel()
    return math.prod(x.shape[a] for a in axes_tuple(axis, x.ndim))


def var(
    x: Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> Tensor:
    if axis == ():  # no reduction: 0 (NaN where x is not finite), or NaN if N - correction <= 0
        return (x - x) if correction < 1 else torch.full_like(x, math.nan)
    if _n(x, axis) - correction > 0:
        return torch.var(x, dim=axis, correction=correction, keepdim=keepdims)
    with warnings.catch_warnings():  # torch gives inf (and warns); the standard wants NaN
        warnings.simplefilter("ignore")
        return torch.var(x, dim=axis, correction=0, keepdim=keepdims).fill_(math.nan)


def std(
    x: Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> Tensor:
    if axis == ():
        return (x - x) if correction < 1 else torch.full_like(x, math.nan)
    if _n(x, axis) - correction > 0:
        return torch.std(x, dim=axis, correction=correction, keepdim=keepdims)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.std(x, dim=axis, correction=0, keepdim=keepdims).fill_(math.nan)


def _cumulative(fn: Any, init: int, x: Tensor, axis: Any, dtype: Any, include_initial: bool) -> Tensor:
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis may be None only for one-dimensional input")
        axis = 0
    dt = SUM_DTYPE.get(x.dtype) if dtype is None else native(dtype)
    if x.ndim == 0:
        x = x.reshape(1)
    if dt in PARTIAL or x.dtype in PARTIAL:
        out_dt = dt if dt is not None else x.dtype
        r = fn(x.to(i64), dim=axis, dtype=i64)  # same bits modulo 2**64
        r = r.view(u64) if out_dt is u64 else r.to(out_dt)
    else:
        r = fn(x, dim=axis, dtype=dt)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        r = torch.cat([torch.full(shape, init, dtype=r.dtype, device=r.device), r], dim=axis)
    return r


def cumulative_sum(
    x: Tensor,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
) -> Tensor:
    return _cumulative(torch.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(
    x: Tensor,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
) -> Tensor:
    return _cumulative(torch.cumprod, 1, x, axis, dtype, include_initial)
