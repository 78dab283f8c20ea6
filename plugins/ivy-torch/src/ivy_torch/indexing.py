"""Indexing functions."""

from __future__ import annotations

import torch

from ._helpers import Tensor, int_indices, norm_axis

__all__ = ["take", "take_along_axis"]

_IDX = (torch.int64, torch.int32)


def take(x: Tensor, indices: Tensor, /, *, axis: int | None = None) -> Tensor:
    if axis is not None and indices.ndim == 1 and indices.dtype in _IDX and x.is_cpu:
        try:  # index_select: the fastest selection, but it refuses negative indices
            return torch.index_select(x, axis, indices)
        except (IndexError, RuntimeError, NotImplementedError):  # negative indices, uint16/32/64: below
            pass
    # torch.take flattens; advanced indexing selects along one axis and wraps negative indices
    if indices.dtype not in _IDX:
        indices = int_indices(indices, "take")  # uint8 would be read as a mask, int8/16 are refused
    if axis is None:
        if x.ndim > 1:
            raise ValueError("take: axis may be None only for one-dimensional input")
        return x.reshape(-1)[indices]
    a = norm_axis(axis, x.ndim)
    if a == 0:
        return x[indices]
    return x[(slice(None),) * a + (indices,)]


def take_along_axis(x: Tensor, indices: Tensor, /, *, axis: int = -1) -> Tensor:
    if indices.dtype is not torch.int64:
        indices = int_indices(indices, "take_along_axis")  # gather wants int64
    xs, js = x.shape, indices.shape
    if len(xs) == len(js) and x.is_cpu:
        a = norm_axis(axis, len(xs))
        if xs[:a] == js[:a] and xs[a + 1 :] == js[a + 1 :]:
            # nothing to broadcast: gather (4x faster than take_along_dim), which checks its
            # indices on the CPU and raises for negative ones: those are wrapped below
            try:
                return torch.gather(x, a, indices)
            except RuntimeError as e:
                if "out of bounds" in str(e):  # (else a dtype without a gather kernel: below)
                    wrapped = torch.where(indices < 0, indices + xs[a], indices)
                    try:
                        return torch.gather(x, a, wrapped)
                    except RuntimeError as e2:  # an index out of [-n, n)
                        raise IndexError(f"take_along_axis: {e2}") from None
    n = x.shape[axis]
    indices = torch.where(indices < 0, indices + n, indices)  # gather rejects negative indices
    try:
        return torch.take_along_dim(x, indices, dim=axis)
    except NotImplementedError:  # uint16/32/64: through the same-width signed view
        from ._helpers import viewcall

        return viewcall(torch.take_along_dim, x, indices, dim=axis)
