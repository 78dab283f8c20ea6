"""Searching functions."""

from __future__ import annotations

from typing import Any

import torch

from ivy.plugin_kit import fastpath

from ._dtypes import ALL, FLOATS, PARTIAL, u64
from ._helpers import FLOAT_KINDS, Tensor, prep2, to_u64_order

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

_WIDEN = {torch.bool: torch.uint8, torch.uint16: torch.int32, torch.uint32: torch.int64}
_SLOW = (torch.bool, torch.uint16, torch.uint32, torch.uint64)
_PY_NUMBERS = frozenset((bool, int, float, complex))


def _orderable(x: Tensor) -> Tensor:
    """bool and partial unsigned dtypes as an order-preserving dtype torch can search."""
    d = x.dtype
    if d is u64:
        return to_u64_order(x)
    return x.to(_WIDEN[d])


@fastpath(torch.argmax, nargs=1, dtypes=ALL - set(_SLOW))
def argmax(x: Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> Tensor:
    if axis is None and not keepdims and x.dtype not in _SLOW:
        return torch.argmax(x)  # fast path
    if x.dtype in _WIDEN or x.dtype is u64:  # torch has no bool/uint16+ kernel
        x = _orderable(x)
    if axis is None and keepdims:
        return torch.argmax(x.reshape(-1)).reshape((1,) * x.ndim)
    return torch.argmax(x, dim=axis, keepdim=keepdims)


@fastpath(torch.argmin, nargs=1, dtypes=ALL - set(_SLOW))
def argmin(x: Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> Tensor:
    if axis is None and not keepdims and x.dtype not in _SLOW:
        return torch.argmin(x)  # fast path
    if x.dtype in _WIDEN or x.dtype is u64:
        x = _orderable(x)
    if axis is None and keepdims:
        return torch.argmin(x.reshape(-1)).reshape((1,) * x.ndim)
    return torch.argmin(x, dim=axis, keepdim=keepdims)


def count_nonzero(
    x: Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Tensor:
    if axis == ():  # torch reads () as "all axes"; the standard as "none"
        return (x != 0).to(torch.int64)
    if keepdims or x.dtype in PARTIAL:
        # torch.count_nonzero has no keepdim: count the True values of x != 0
        if axis is None:
            axis = tuple(range(x.ndim))
        return torch.sum(x != 0, dim=axis, keepdim=keepdims)
    return torch.count_nonzero(x, dim=axis)


def nonzero(x: Tensor, /) -> tuple[Tensor, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero: zero-dimensional input is not allowed")
    if x.dtype in PARTIAL:
        x = x != 0
    return torch.nonzero(x, as_tuple=True)


def searchsorted(
    x1: Tensor,
    x2: Tensor,
    /,
    *,
    side: str = "left",
    sorter: Tensor | None = None,
) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)  # torch wants one dtype
    if x1.dtype in PARTIAL or x1.dtype is torch.bool:
        x1, x2 = _orderable(x1), _orderable(x2)
    if sorter is not None and sorter.dtype is not torch.int64:
        sorter = sorter.long()
    if x1.dtype in FLOATS and torch.isnan(x1).any():
        return _search_nan(x1, x2, side, sorter)
    if x2.ndim == 0:  # torch reads a 0-d tensor as a scalar only through reshape
        return torch.searchsorted(x1, x2.reshape(1), side=side, sorter=sorter).reshape(())
    return torch.searchsorted(x1, x2, side=side, sorter=sorter)


@fastpath(torch.where, nargs=3, dtypes={torch.bool}, same=(1, 2), retry=NotImplementedError)
def where(condition: Tensor, x1: Any, x2: Any, /) -> Tensor:
    if condition.dtype is not torch.bool:
        condition = condition != 0  # torch.where wants a bool condition
    t1, t2 = type(x1), type(x2)
    # a Python number next to a float tensor: torch reads it as weak, as the standard does
    if (t2 is float or t2 is int) and t1 is Tensor and x1.dtype in FLOAT_KINDS:
        return torch.where(condition, x1, x2)
    if (t1 is float or t1 is int) and t2 is Tensor and x2.dtype in FLOAT_KINDS:
        return torch.where(condition, x1, x2)
    if t1 not in _PY_NUMBERS and t2 not in _PY_NUMBERS:  # (no exception for a scalar)
        try:
            if x1.dtype is x2.dtype:
                return torch.where(condition, x1, x2)
        except (AttributeError, NotImplementedError):
            pass
    x1, x2 = prep2(x1, x2)  # the standard's promotion, scalars included
    try:
        return torch.where(condition, x1, x2)
    except NotImplementedError:
        from ._dtypes import SIGNED_VIEW

        d = x1.dtype
        s = SIGNED_VIEW[d]
        return torch.where(condition, x1.view(s), x2.view(s)).view(d)


def _search_nan(x1: Tensor, x2: Tensor, side: str, sorter: Tensor | None) -> Tensor:
    """NaNs sort last; torch's binary search misplaces values next to them: search the non-NaN
    prefix, and put NaN values before (left) or after (right) the NaNs of x1."""
    if sorter is not None:
        x1 = x1[sorter]
    n = x1.shape[0]
    nv = int((~torch.isnan(x1)).sum())
    v = x2.reshape(1) if x2.ndim == 0 else x2
    r = torch.searchsorted(x1[:nv].contiguous(), v, side=side)
    r = torch.where(torch.isnan(v), nv if side == "left" else n, r)
    return r.reshape(()) if x2.ndim == 0 else r
