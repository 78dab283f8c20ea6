"""Set functions. torch.unique sorts, keeps every NaN apart and merges signed zeros, as wanted."""

from __future__ import annotations

from typing import NamedTuple

import torch

from ._dtypes import COMPLEX, SIGNED_VIEW
from ._helpers import Tensor

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: Tensor
    indices: Tensor
    inverse_indices: Tensor
    counts: Tensor


class UniqueCountsResult(NamedTuple):
    values: Tensor
    counts: Tensor


class UniqueInverseResult(NamedTuple):
    values: Tensor
    inverse_indices: Tensor


def _unique(x: Tensor, inverse: bool, counts: bool) -> tuple[Tensor, Tensor, Tensor]:
    d = x.dtype
    if d in COMPLEX:  # no complex kernel: unique rows of (real, imag) pairs
        flat = torch.view_as_real(x.reshape(-1))
        v, inv, cnt = torch.unique(flat, dim=0, return_inverse=True, return_counts=True)
        return torch.view_as_complex(v.contiguous()), inv.reshape(x.shape), cnt
    try:
        v, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
    except NotImplementedError:  # uint16/32/64: unique bit patterns are unique values
        v, inv, cnt = torch.unique(x.view(SIGNED_VIEW[d]), return_inverse=True, return_counts=True)
        v = v.view(d)
    return v, inv, cnt


def unique_all(x: Tensor, /) -> UniqueAllResult:
    v, inv, cnt = _unique(x, True, True)
    n = x.numel()
    flat = inv.reshape(-1)
    # first occurrence of each value: the smallest position mapping to it
    first = torch.full((v.shape[0],), n, dtype=torch.int64, device=x.device)
    first.scatter_reduce_(0, flat, torch.arange(n, device=x.device), reduce="amin")
    return UniqueAllResult(v, first, inv, cnt)


def unique_counts(x: Tensor, /) -> UniqueCountsResult:
    v, _, cnt = _unique(x, False, True)
    return UniqueCountsResult(v, cnt)


def unique_inverse(x: Tensor, /) -> UniqueInverseResult:
    v, inv, _ = _unique(x, True, False)
    return UniqueInverseResult(v, inv)


def unique_values(x: Tensor, /) -> Tensor:
    if x.dtype in COMPLEX or x.dtype in SIGNED_VIEW:
        return _unique(x, False, False)[0]
    return torch.unique(x)
