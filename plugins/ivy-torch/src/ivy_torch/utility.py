"""Utility functions."""

from __future__ import annotations

import torch

from ._dtypes import PARTIAL, WIDE, promote
from ._helpers import Tensor

__all__ = ["all", "any", "diff"]

_bool = torch.bool


def all(x: Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    if axis == ():  # torch reads () as "all axes"
        return x != 0
    r = torch.all(x, dim=axis, keepdim=keepdims)
    return r if r.dtype is _bool else r.to(_bool)  # torch keeps uint8 for uint8 input


def any(x: Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    if axis == ():
        return x != 0
    r = torch.any(x, dim=axis, keepdim=keepdims)
    return r if r.dtype is _bool else r.to(_bool)


def diff(
    x: Tensor,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Tensor | None = None,
    append: Tensor | None = None,
) -> Tensor:
    d = x.dtype
    for extra in (prepend, append):
        if extra is not None and extra.dtype is not d:
            d = promote(d, extra.dtype)
    if d is not x.dtype:
        x = x.to(d)
    if prepend is not None and prepend.dtype is not d:
        prepend = prepend.to(d)
    if append is not None and append.dtype is not d:
        append = append.to(d)
    if d in PARTIAL:  # no uint16/32/64 subtraction: widen (uint64: same bits modulo 2**64)
        w = WIDE.get(d, torch.int64)
        r = torch.diff(
            x.to(w) if d in WIDE else x.view(w),
            n=n,
            dim=axis,
            prepend=None if prepend is None else (prepend.to(w) if d in WIDE else prepend.view(w)),
            append=None if append is None else (append.to(w) if d in WIDE else append.view(w)),
        )
        return r.to(d) if d in WIDE else r.view(d)
    return torch.diff(x, n=n, dim=axis, prepend=prepend, append=append)
