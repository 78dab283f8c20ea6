"""General functions: scatters, item assignment, einsum, and native versions of the composed ops
where NumPy has the exact equivalent (np.take, np.pad, np.cumsum, np.argpartition...)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ivy.plugin_kit import axis_index, check_count, composed

from ._dtypes import native
from .data_type import astype

__all__ = [
    # primitives
    "scatter_nd",
    "scatter_flat",
    "set_item",
    "inplace_update",
    "einsum",
    # native versions of composed ops
    "gather",
    "gather_nd",
    "get_item",
    "cast",
    "transpose",
    "flatten",
    "cumsum",
    "cumprod",
    "pad",
    "top_k",
    "split",
]


def _compose(name: str) -> Any:
    return composed(name, "numpy")


# -------------------------------------------------------------------------------------- gathers


def gather(params: np.ndarray, indices: np.ndarray, /, *, axis: int = -1, batch_dims: int = 0) -> np.ndarray:
    if batch_dims:
        return _compose("gather")(params, indices, axis=axis, batch_dims=batch_dims)
    # np.take's result shape is the spec's: params.shape[:axis] + indices.shape + params.shape[axis+1:]
    return np.take(params, indices, axis=axis)


def gather_nd(params: np.ndarray, indices: np.ndarray, /, *, batch_dims: int = 0) -> np.ndarray:
    idx = np.asarray(indices)
    coords = [idx[..., j] for j in range(idx.shape[-1])]
    if batch_dims:  # the batch axes of params pair with those of indices: aranges broadcast along them
        lead = idx.ndim - 1
        batch = []
        for b in range(batch_dims):
            shape = [1] * lead
            shape[b] = params.shape[b]
            batch.append(np.arange(params.shape[b]).reshape(shape))
        coords = batch + coords
    return np.asarray(params)[tuple(coords)]


# -------------------------------------------------------------------------------------- scatters

_REDUCE = {"sum": np.add, "min": np.minimum, "max": np.maximum}


def _scatter(out: np.ndarray, where: tuple[np.ndarray, ...], upd: np.ndarray, reduction: str) -> np.ndarray:
    """Combine ``upd`` into the zero array ``out`` at the fancy index ``where``."""
    if reduction == "replace":
        out[where] = upd  # for repeated indices the last write wins (the spec leaves it open)
        return out
    ufunc = _REDUCE.get(reduction)
    if ufunc is None:
        raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    if reduction != "sum":
        # one of each position's own updates first, so that min/max never see the zero fill and
        # untouched positions keep it
        out[where] = upd
    ufunc.at(out, where, upd)
    return out


def _updates(updates: Any) -> np.ndarray:
    return updates if type(updates) is np.ndarray else np.asarray(updates)


def scatter_nd(
    indices: np.ndarray, updates: np.ndarray | float, /, shape: Sequence[int] | None = None, *, reduction: str = "sum"
) -> np.ndarray:
    idx = np.asarray(indices)
    upd = _updates(updates)
    k = idx.shape[-1]
    lead = idx.shape[:-1]
    if shape is None:
        top = idx.reshape(-1, k).max(axis=0) + 1 if idx.size else np.zeros(k, dtype=np.int64)
        trailing = upd.shape[len(lead) :] if upd.ndim else ()
        shape = (*(int(t) for t in top), *trailing)
    shape = tuple(int(s) for s in shape)
    out = np.zeros(shape, dtype=upd.dtype)
    upd = np.broadcast_to(upd, (*lead, *shape[k:]))
    return _scatter(out, tuple(idx[..., j] for j in range(k)), upd, reduction)


def scatter_flat(
    indices: np.ndarray, updates: np.ndarray | float, /, size: int | None = None, *, reduction: str = "sum"
) -> np.ndarray:
    idx = np.asarray(indices).reshape(-1)
    upd = _updates(updates)
    if size is None:
        size = int(idx.max()) + 1 if idx.size else 0
    out = np.zeros(int(size), dtype=upd.dtype)
    return _scatter(out, (idx,), np.broadcast_to(upd, idx.shape), reduction)


# ------------------------------------------------------------------------------- item assignment


def get_item(x: np.ndarray, /, query: Any) -> np.ndarray:
    return x[query]


def set_item(x: np.ndarray, query: Any, val: np.ndarray | complex, /) -> np.ndarray:
    y = np.array(x, copy=True)  # an ndarray even for a NumPy scalar (which cannot be assigned into)
    y[query] = val
    return y


def inplace_update(x: np.ndarray, val: np.ndarray | complex, /) -> np.ndarray:
    if not isinstance(x, np.ndarray) or not x.flags.writeable:
        what = "a read-only array" if isinstance(x, np.ndarray) else f"a {type(x).__name__}"
        raise TypeError(f"inplace_update: cannot update {what} in place; use set_item for a new array")
    x[...] = val
    return x


# ------------------------------------------------------------------------------------ reshaping

einsum = np.einsum
transpose = np.transpose  # reverses the axes by default, as the spec's


def cast(x: np.ndarray, dtype: Any, /) -> np.ndarray:
    return astype(x, dtype, copy=False)  # x itself where it already has the dtype


def flatten(x: np.ndarray, /, *, start_dim: int = 0, end_dim: int = -1) -> np.ndarray:
    nd = np.ndim(x)
    if nd == 0:
        return np.reshape(x, (1,))
    s, e = axis_index(start_dim, nd, "flatten", "start_dim"), axis_index(end_dim, nd, "flatten", "end_dim")
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {nd} dims")
    shape = x.shape
    return np.reshape(x, (*shape[:s], math.prod(shape[s : e + 1]), *shape[e + 1 :]))


def split(
    x: np.ndarray,
    /,
    num_or_size_splits: int | Sequence[int] | None = None,
    *,
    axis: int = 0,
    with_remainder: bool = False,
) -> list[np.ndarray]:
    n = x.shape[axis]
    if num_or_size_splits is None:
        if n == 0:
            return []
        points: Any = n  # n pieces of size one
    elif isinstance(num_or_size_splits, (int, np.integer)):
        k = int(num_or_size_splits)
        if n % k:
            if not with_remainder:
                raise ValueError(
                    f"split: axis {axis} of length {n} does not divide into {k} parts; "
                    "pass with_remainder=True or explicit sizes"
                )
            q = n // k
            points = [q * (i + 1) for i in range(k)]  # k equal pieces, then the remainder
        else:
            points = k
    else:
        sizes = [int(s) for s in num_or_size_splits]
        if sum(sizes) != n:
            raise ValueError(f"split: sizes {sizes} do not add up to the axis length {n}")
        points = list(np.cumsum(sizes[:-1])) if sizes else []
    if type(points) is int:
        if points <= 0:
            raise ValueError(f"split: the number of pieces must be positive, got {points}")
        q = n // points
        points = [q * i for i in range(1, points)]
    # slices (views, as np.split's): np.split swaps axes around every piece, four times slower
    nd = x.ndim
    a = axis + nd if axis < 0 else axis
    pre = (slice(None),) * a
    starts = [0, *points]
    ends = [*points, n]
    return [x[(*pre, slice(s, e))] for s, e in zip(starts, ends)]


def pad(
    x: np.ndarray,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: Literal["constant", "reflect", "symmetric", "edge", "wrap"] = "constant",
    value: complex = 0,
) -> np.ndarray:
    nd = np.ndim(x)
    if isinstance(pad_width, (int, np.integer)):
        widths = [(int(pad_width), int(pad_width))] * nd
    else:
        pw: Sequence[Any] = pad_width  # pairs, or one flat pair: told apart here
        if len(pw) and isinstance(pw[0], (int, np.integer)):
            if len(pw) != 2:
                raise ValueError(f"pad: a flat pad_width must be one (before, after) pair, got {pad_width!r}")
            widths = [(int(pw[0]), int(pw[1]))] * nd
        else:
            widths = [(int(w[0]), int(w[1])) for w in pw]
    if len(widths) != nd:  # np.pad would broadcast a single pair; the spec wants one per axis
        raise ValueError(f"pad: pad_width has {len(widths)} entries for an array of {nd} dims")
    for axis, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise ValueError(f"pad: negative pad width {(lo, hi)} on axis {axis}")
    if mode == "constant":
        return np.pad(x, widths, mode="constant", constant_values=value)
    if mode not in ("reflect", "symmetric", "edge", "wrap"):
        raise ValueError(f"pad: mode must be constant, edge, reflect, symmetric or wrap, got {mode!r}")
    for axis, (lo, hi) in enumerate(widths):
        if (lo or hi) and x.shape[axis] == 0:
            raise ValueError(f"pad: cannot {mode}-pad an empty axis {axis}")
    return np.pad(x, widths, mode=mode)  # NumPy's modes are the spec's (which follows NumPy)


# --------------------------------------------------------------------------------- cumulatives


def _cumulative(
    fn: Any, name: str, one: int, x: np.ndarray, axis: int, exclusive: bool, reverse: bool, dtype: Any
) -> np.ndarray:
    if np.ndim(x) == 0:
        return _compose(name)(x, axis=axis, exclusive=exclusive, reverse=reverse, dtype=dtype)
    # np.cumsum / np.cumprod widen bool and narrow integers to int64 (uint64 for unsigned), keep
    # every other dtype: the spec's default accumulator
    dt = None if dtype is None else native(dtype)
    if reverse:
        x = np.flip(x, axis)
    out = fn(x, axis=axis, dtype=dt)
    if exclusive:  # shift by one: the identity first, the last total dropped
        a = axis % out.ndim
        shifted = np.empty_like(out)
        head = [slice(None)] * out.ndim
        head[a] = slice(0, 1)
        shifted[tuple(head)] = one
        dst, src = list(head), list(head)
        dst[a], src[a] = slice(1, None), slice(0, -1)
        shifted[tuple(dst)] = out[tuple(src)]
        out = shifted
    return np.flip(out, axis) if reverse else out


def cumsum(
    x: np.ndarray, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> np.ndarray:
    return _cumulative(np.cumsum, "cumsum", 0, x, axis, exclusive, reverse, dtype)


def cumprod(
    x: np.ndarray, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> np.ndarray:
    return _cumulative(np.cumprod, "cumprod", 1, x, axis, exclusive, reverse, dtype)


# ----------------------------------------------------------------------------------- searching


def top_k(
    x: np.ndarray, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x)
    a = axis_index(axis, x.ndim, "top_k")
    n = x.shape[a]
    k = check_count(k, n, "top_k")
    if 0 < k < n and n > 16:
        # O(n) selection of the k extreme positions (in no order), then a sort of those k only
        kth = n - k if largest else k - 1
        part = np.argpartition(x, kth, axis=a)
        idx = part[(slice(None),) * a + (slice(n - k, None) if largest else slice(0, k),)]
        if not sorted:
            return np.take_along_axis(x, idx, axis=a), idx
        vals = np.take_along_axis(x, idx, axis=a)
        order = np.argsort(vals, axis=a, kind="stable")
    else:
        idx = None
        order = np.argsort(x, axis=a, kind="stable")
    if largest:
        order = np.flip(order, a)
    order = order[(slice(None),) * a + (slice(0, k),)]
    indices = order if idx is None else np.take_along_axis(idx, order, axis=a)
    return np.take_along_axis(x, indices, axis=a), indices
