"""Ivy's general ops that the reference library has no counterpart of (computed in NumPy)."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp
import numpy as np

from .conversion import to_numpy

__all__ = ["einsum", "scatter_nd", "scatter_flat", "set_item", "inplace_update"]

_REDUCE = {"sum": np.add, "min": np.minimum, "max": np.maximum}


def einsum(equation: str, /, *operands: Any) -> Any:
    return xp.asarray(np.einsum(equation, *(to_numpy(o) for o in operands)))


def _index(query: Any) -> Any:
    if isinstance(query, tuple):
        return tuple(_index(q) for q in query)
    return to_numpy(query) if hasattr(query, "__dlpack__") else query


def scatter_nd(indices: Any, updates: Any, /, shape: Any = None, *, reduction: str = "sum") -> Any:
    idx = to_numpy(indices)
    upd = to_numpy(updates) if hasattr(updates, "__dlpack__") else np.asarray(updates)
    if shape is None:
        raise ValueError("scatter_nd on the 'strict' backend needs shape=")
    shape = tuple(int(s) for s in shape)
    target = tuple(idx[..., i] for i in range(idx.shape[-1]))
    upd = np.broadcast_to(upd, idx.shape[:-1] + shape[idx.shape[-1] :])
    if reduction == "replace":
        out = np.zeros(shape, upd.dtype)
        out[target] = upd
    elif reduction in _REDUCE:
        fill = {"sum": 0, "min": np.inf, "max": -np.inf}[reduction] if upd.dtype.kind == "f" else 0
        out = np.full(shape, fill, upd.dtype)
        _REDUCE[reduction].at(out, target, upd)
        if reduction != "sum":  # positions no update reached hold zeros
            hit = np.zeros(shape, bool)
            hit[target] = True
            out = np.where(hit, out, 0)
    else:
        raise ValueError(f"scatter_nd: reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    return xp.asarray(out)


def scatter_flat(indices: Any, updates: Any, /, size: int | None = None, *, reduction: str = "sum") -> Any:
    idx = to_numpy(indices)
    if size is None:
        size = int(idx.max()) + 1 if idx.size else 0
    return scatter_nd(xp.asarray(idx[:, None]), updates, (size,), reduction=reduction)


def set_item(x: Any, query: Any, val: Any, /) -> Any:
    out = to_numpy(x)
    out[_index(query)] = to_numpy(val) if hasattr(val, "__dlpack__") else val
    return xp.asarray(out)


def inplace_update(x: Any, val: Any, /) -> Any:
    raise TypeError(
        "ivy.inplace_update: arrays of the 'strict' backend are immutable; use ivy.set_item and keep the returned array"
    )
