"""Sorting functions."""

from __future__ import annotations

import torch

from ._dtypes import u16, u32, u64
from ._helpers import Tensor, from_u64_order, to_u64_order

__all__ = ["argsort", "sort"]

_WIDE = {u16: torch.int32, u32: torch.int64}


def argsort(x: Tensor, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Tensor:
    d = x.dtype
    if d in _WIDE:  # no uint16/32 sort kernel; the wider signed dtype orders the same
        x = x.to(_WIDE[d])
    elif d is u64:
        x = to_u64_order(x)
    # torch's stable descending sort keeps equal elements in input order, as the standard wants
    return torch.sort(x, dim=axis, descending=descending, stable=stable)[1]


def sort(x: Tensor, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Tensor:
    d = x.dtype
    if d in _WIDE:
        return torch.sort(x.to(_WIDE[d]), dim=axis, descending=descending, stable=stable)[0].to(d)
    if d is u64:
        return from_u64_order(torch.sort(to_u64_order(x), dim=axis, descending=descending, stable=stable)[0])
    return torch.sort(x, dim=axis, descending=descending, stable=stable)[0]
