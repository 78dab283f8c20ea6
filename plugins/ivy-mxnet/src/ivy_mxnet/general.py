"""Ivy's general ops MXNet needs its own version of: scatters, functional and in-place item
assignment, ``einsum``.

Scatters compute on the host with NumPy (exact for every reduction and dtype; MXNet has no
scatter-add) and are differentiable with respect to ``updates`` through an
``mxnet.autograd.Function`` whose backward gathers the output gradient. ``set_item`` writes with
MXNet's own assignment outside gradient recording; while recording (MXNet refuses assignments
to arrays in the graph) it selects between ``x`` and the gathered new values with ``where``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, Literal

from ._dtypes import FLOATS, INDEX, INTS, bool_, scalar_default
from ._framework import Array, autograd, mnp, onp
from ._helpers import cast, from_host, host, np_array, promote_many, to_host, via_uint8, where

__all__ = ["scatter_nd", "scatter_flat", "get_item", "set_item", "inplace_update", "einsum"]

_REDUCE = {"sum": onp.add, "min": onp.minimum, "max": onp.maximum}


class _Scatter(autograd.Function):
    """``out = scatter(updates)`` computed by NumPy, with the gradient of ``updates``: the output
    gradient at each update's target (for "sum"; for "replace", at the targets it won)."""

    def __init__(self, targets: Any, size: int, rest: tuple[int, ...], reduction: str):
        super().__init__()
        self.targets, self.size, self.rest, self.reduction = targets, size, rest, reduction

    def forward(self, upd: Any) -> Any:
        u = upd.as_np_ndarray() if not isinstance(upd, Array) else upd
        out, self.won = _scatter_host(self.targets, to_host(u).reshape((-1,) + self.rest), self.size, self.reduction)
        return from_host(out, u.ctx, u.dtype)

    def backward(self, g: Any) -> Any:
        g = g.as_np_ndarray() if not isinstance(g, Array) else g
        idx = mnp.array(self.targets, dtype=INDEX, ctx=g.ctx)
        got = mnp.take(g, idx, axis=0)
        if self.won is not None:  # "replace": only the update that was written gets a gradient
            mask = mnp.array(self.won.reshape((-1,) + (1,) * len(self.rest)), dtype=g.dtype, ctx=g.ctx)
            got = got * mask
        return got.as_nd_ndarray()


def _scatter_host(targets: Any, upd: Any, size: int, reduction: str) -> tuple[Any, Any]:
    """(result of ``size`` rows, which updates were written (for "replace")) in NumPy."""
    shape = (size,) + upd.shape[1:]
    won = None
    if reduction == "replace":
        out = onp.zeros(shape, dtype=upd.dtype)
        last = onp.full(size, -1, dtype=onp.int64)
        last[targets] = onp.arange(targets.size)  # the last write wins
        hit = last >= 0
        out[hit] = upd[last[hit]]
        won = onp.zeros(targets.size, dtype=bool)
        won[last[hit]] = True
    elif reduction in _REDUCE:
        fill: float
        if reduction == "sum" or upd.dtype.kind != "f":
            fill = (
                0
                if reduction == "sum"
                else (onp.iinfo(upd.dtype).max if reduction == "min" else onp.iinfo(upd.dtype).min)
            )
        else:
            fill = onp.inf if reduction == "min" else -onp.inf
        out = onp.full(shape, fill, dtype=upd.dtype)
        _REDUCE[reduction].at(out, targets, upd)
        if reduction != "sum":  # positions no update reached hold zeros
            hit = onp.zeros(size, dtype=bool)
            hit[targets] = True
            out[~hit] = 0
    else:
        raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    return out, won


def _updates(updates: Any, like_shape: tuple[int, ...], ctx: Any) -> Any:
    u = np_array(updates)
    if not isinstance(u, Array):
        u = host(u, scalar_default(u), ctx)
    if u.shape != like_shape:
        u = mnp.broadcast_to(u, like_shape)
    return u


def scatter_nd(
    indices: Array,
    updates: Array | float,
    /,
    shape: Sequence[int] | None = None,
    *,
    reduction: Literal["sum", "replace", "min", "max"] = "sum",
) -> Array:
    if reduction not in ("sum", "replace", "min", "max"):
        raise ValueError(f"ivy.scatter_nd: reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    if indices.dtype not in INTS:
        raise TypeError(f"ivy.scatter_nd: indices must be integers, got {indices.dtype}")
    idx = to_host(indices).astype(onp.int64)
    k = idx.shape[-1]
    lead = idx.shape[:-1]
    u = np_array(updates)
    if shape is None:
        rest = tuple(u.shape[len(lead) :]) if isinstance(u, Array) else ()
        top = idx.reshape(-1, k).max(axis=0) + 1 if idx.size else onp.zeros(k, dtype=onp.int64)
        shape = tuple(int(t) for t in top) + rest
    shape = tuple(operator.index(s) for s in shape)
    if k > len(shape):
        raise ValueError(f"ivy.scatter_nd: indices address {k} axes of a shape of {len(shape)}")
    head, rest = shape[:k], shape[k:]
    flat_idx = idx.reshape(-1, k)
    for j, n in enumerate(head):
        bad = (flat_idx[:, j] < -n) | (flat_idx[:, j] >= n)
        if bad.any():
            raise IndexError(
                f"ivy.scatter_nd: index {int(flat_idx[bad, j][0])} is out of bounds for axis {j} of size {n}"
            )
    targets = (
        onp.ravel_multi_index(tuple(flat_idx[:, j] % n for j, n in enumerate(head)), head)
        if k
        else onp.zeros(flat_idx.shape[0], dtype=onp.int64)
    )
    ctx = indices.ctx
    u = _updates(updates, lead + rest, ctx)
    size = math.prod(head)
    m = math.prod(lead)
    flat_u = u.reshape((m,) + rest)
    if autograd.is_recording() and u.dtype in FLOATS and reduction in ("sum", "replace"):
        out = _Scatter(targets, size, rest, reduction)(flat_u)
    else:
        res, _ = _scatter_host(targets, to_host(flat_u), size, reduction)
        out = from_host(res, ctx, u.dtype)
    return out.reshape(shape)


def scatter_flat(
    indices: Array,
    updates: Array | float,
    /,
    size: int | None = None,
    *,
    reduction: Literal["sum", "replace", "min", "max"] = "sum",
) -> Array:
    if indices.ndim != 1:
        raise ValueError(f"ivy.scatter_flat: indices must be 1-D, got shape {indices.shape}")
    return scatter_nd(
        mnp.expand_dims(indices, -1), updates, None if size is None else (operator.index(size),), reduction=reduction
    )


def _host_query(query: Any) -> Any:
    if isinstance(query, tuple):
        return tuple(_host_query(q) for q in query)
    q = np_array(query)
    return to_host(q) if isinstance(q, Array) else q


def _full_query(query: Any) -> tuple[Any, ...]:
    """The query as a tuple with its implicit trailing ellipsis (the standard indexes every axis
    unless the index has an ellipsis)."""
    q = query if type(query) is tuple else (query,)
    return q if any(k is Ellipsis for k in q) else (*q, Ellipsis)


def _simple(query: tuple[Any, ...]) -> bool:
    """Whether MXNet's own indexing takes ``query`` everywhere: ints, slices, None, Ellipsis."""
    return all(q is None or q is Ellipsis or isinstance(q, (int, slice)) and not isinstance(q, bool) for q in query)


def get_item(x: Array, /, query: Any) -> Array:
    q = _full_query(query)
    if x.size and x.ndim and _simple(q):
        return x[q]  # MXNet's own slicing
    # arrays in the index (or a zero-size x): NumPy finds the positions selected, from the index
    # alone, and MXNet gathers them (differentiable); MXNet's own boolean indexing fails on
    # masks that select nothing and crashes on zero-size arrays
    pos = _positions(x, q)
    if pos.size == 0 or x.size == 0:
        return mnp.zeros(pos.shape, dtype=x.dtype, ctx=x.ctx)
    idx = mnp.array(pos.reshape(-1), dtype=INDEX, ctx=x.ctx)
    return mnp.take(x.reshape(-1), idx).reshape(pos.shape)


def _positions(x: Any, query: Any) -> Any:
    """The flat positions ``x[query]`` selects, in the shape of the selection (NumPy, host)."""
    return onp.asarray(onp.arange(x.size, dtype=onp.int64).reshape(x.shape)[_host_query(_full_query(query))])


def set_item(x: Array, query: Any, val: Array | complex, /) -> Array:
    v = np_array(val)
    v = cast(v, x.dtype) if isinstance(v, Array) else host(v, x.dtype, x.ctx)
    q = _full_query(query)
    if x.size and x.ndim and x.dtype != bool_ and _simple(q) and not autograd.is_recording():
        out = x.copy()  # MXNet's own assignment: the plain case
        out[q] = v
        return out
    # gather the new values into place: out = where(selected, new value, x), which autograd
    # follows (MXNet refuses assignments to arrays in a recorded graph)
    pos = _positions(x, q)
    if pos.size == 0:
        return x.copy()
    vals = mnp.broadcast_to(v, pos.shape) if v.shape != pos.shape else v
    last = onp.full(x.size, -1, dtype=onp.int64)
    last[pos.reshape(-1)] = onp.arange(pos.size)  # repeated positions: the last write wins
    hit = mnp.array(last >= 0, dtype="bool", ctx=x.ctx)
    src = mnp.array(onp.maximum(last, 0), dtype=INDEX, ctx=x.ctx)
    new = via_uint8(mnp.take, vals.reshape(-1), src)
    return where(hit, new, x.reshape(-1)).reshape(x.shape)


def inplace_update(x: Array, val: Array | complex, /) -> Array:
    v = np_array(val)
    v = cast(v, x.dtype) if isinstance(v, Array) else host(v, x.dtype, x.ctx)
    if v.ctx != x.ctx:
        v = v.as_in_context(x.ctx)
    if v.shape != x.shape:
        v = mnp.broadcast_to(v, x.shape)
    v.copyto(x)  # (a copy of the memory: MXNet's assignment kernels refuse bool arrays)
    return x


def einsum(equation: str, /, *operands: Array) -> Array:
    ops = promote_many(list(operands), "einsum") if operands else []
    return mnp.einsum(equation, *ops)
