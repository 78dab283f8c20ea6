"""General functions: scatters, item assignment, einsum, and native versions of composed ops.

Scatters flatten the indexed axes into one row index and combine rows with
``paddle.put_along_axis``: ``add`` (sum; ``paddle.index_add`` for the dtypes it lacks), or
``amin``/``amax`` with ``include_self=False`` (min/max: positions no index addresses stay 0); or
with ``paddle.scatter`` (replace). Narrow integer dtypes
(int8, int16, uint8, bool), which these kernels lack, run in int32 and are cast back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ivy.plugin_kit import axis_index, check_count, check_index_range, composed, scan_loop, trailing_pads

from ._bounds import bounds, check_item_query, integral
from ._dtypes import DEFAULT_FLOAT, DEFAULT_INT, FLOATS, bool_, idset, int8, int16, int32, int64, native, uint8
from ._dtypes import INEXACT as _INEXACT
from ._framework import Tensor, paddle
from ._helpers import norm_axis, promote_many
from .data_type import astype
from .manipulation import permute_dims, reshape

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
    # structured control flow
    "scan",
]

F = paddle.nn.functional


def _compose(name: str) -> Any:
    return composed(name, "paddle")


_NARROW = idset(bool_, int8, int16, uint8)
#: dtypes with kernels for every paddle op used on the fast paths below
_FAST = idset(paddle.float32, paddle.float64, int32, int64)


def _long(i: Tensor, op: str) -> Tensor:
    if i.dtype is int64:
        return i
    integral(i, op)  # (a cast would truncate floats silently)
    return i.astype(int64)


# -------------------------------------------------------------------------------------- gathers


def gather(params: Tensor, indices: Tensor, /, *, axis: int = -1, batch_dims: int = 0) -> Tensor:
    if batch_dims:
        return _compose("gather")(params, indices, axis=axis, batch_dims=batch_dims)
    a = norm_axis(axis, params.ndim)
    out = paddle.gather(params, _long(indices, "gather").reshape([-1]), a)  # gather has kernels for every dtype
    return out.reshape(list(params.shape[:a]) + list(indices.shape) + list(params.shape[a + 1 :]))


def gather_nd(params: Tensor, indices: Tensor, /, *, batch_dims: int = 0) -> Tensor:
    if batch_dims or id(params.dtype) not in _FAST:
        return _compose("gather_nd")(params, indices, batch_dims=batch_dims)
    return paddle.gather_nd(params, _long(indices, "gather_nd"))


# -------------------------------------------------------------------------------------- scatters


def _scatter_rows(flat_idx: Tensor, rows: Tensor, n: int, trailing: list[int], reduction: str) -> Tensor:
    """A new [n, *trailing] zero array with rows[i] combined into row flat_idx[i]."""
    dt = rows.dtype
    if id(dt) in _NARROW:
        return _scatter_rows(flat_idx, rows.astype(int32), n, trailing, reduction).astype(dt)
    out = paddle.zeros([n, *trailing], dtype=dt)
    if flat_idx.shape[0] == 0:
        if reduction not in ("sum", "replace", "min", "max"):
            raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
        return out
    if reduction == "sum":
        if id(dt) in _FAST:  # put_along_axis adds several times faster than index_add
            full = flat_idx.reshape([-1] + [1] * len(trailing)).expand(rows.shape) if trailing else flat_idx
            return paddle.put_along_axis(out, full, rows, 0, reduce="add")
        return paddle.index_add(out, flat_idx, 0, rows)
    if reduction == "replace":
        return paddle.scatter(out, flat_idx, rows, overwrite=True)
    red = {"min": "amin", "max": "amax"}.get(reduction)
    if red is None:
        raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    full = flat_idx.reshape([-1] + [1] * len(trailing)).expand(rows.shape)
    return paddle.put_along_axis(out, full, rows, 0, reduce=red, include_self=False)


def _updates(updates: Any) -> Tensor:
    if isinstance(updates, Tensor):
        return updates
    if isinstance(updates, bool):
        return paddle.to_tensor(updates, dtype=bool_)
    if isinstance(updates, int):
        return paddle.to_tensor(updates, dtype=DEFAULT_INT)
    if isinstance(updates, complex):
        return paddle.to_tensor(updates, dtype=paddle.complex64)
    return paddle.to_tensor(updates, dtype=DEFAULT_FLOAT)


def scatter_nd(
    indices: Tensor, updates: Tensor | float, /, shape: Sequence[int] | None = None, *, reduction: str = "sum"
) -> Tensor:
    idx = _long(indices, "scatter_nd")
    upd = _updates(updates)
    k = idx.shape[-1]
    lead = list(idx.shape[:-1])
    if shape is None:
        if idx.size:
            top = [int(t) + 1 for t in idx.reshape([-1, k]).max(0).tolist()]
        else:
            top = [0] * k
        trailing = list(upd.shape[len(lead) :]) if upd.ndim else []
        shape = [*top, *trailing]
    shape = [int(s) for s in shape]
    trailing = shape[k:]
    want = [*lead, *trailing]
    if upd.shape != want:  # (each paddle op costs microseconds: only where needed)
        upd = paddle.broadcast_to(upd, want)
    if len(want) != 1 + len(trailing):
        upd = upd.reshape([-1, *trailing])
    if k == 1:  # one index column: the row numbers themselves, and the result has its shape
        return _scatter_rows(idx.reshape([-1]), upd, shape[0], trailing, reduction)
    if bounds(idx) is not None:  # the flat position would hide an index outside its own axis
        cols = idx.reshape([-1, k]).numpy()
        for j in range(k):
            check_index_range(int(cols[:, j].min()), int(cols[:, j].max()), shape[j], "scatter_nd", negative=False)
    strides = [math.prod(shape[j + 1 : k]) for j in range(k)]
    flat = (idx.reshape([-1, k]) * paddle.to_tensor(strides, dtype=int64)).sum(-1)
    return _scatter_rows(flat, upd, math.prod(shape[:k]), trailing, reduction).reshape(shape)


def scatter_flat(
    indices: Tensor, updates: Tensor | float, /, size: int | None = None, *, reduction: str = "sum"
) -> Tensor:
    idx = _long(indices, "scatter_flat").reshape([-1])
    upd = _updates(updates)
    if size is None:
        size = int(idx.max()) + 1 if idx.size else 0
    return _scatter_rows(idx, paddle.broadcast_to(upd, idx.shape).reshape([-1]), int(size), [], reduction)


# ------------------------------------------------------------------------------- item assignment


def get_item(x: Tensor, /, query: Any) -> Tensor:
    check_item_query(query, x.shape, "get_item")  # paddle reads out of bounds for an index tensor
    return x[query]


def set_item(x: Tensor, query: Any, val: Tensor | complex, /) -> Tensor:
    if isinstance(val, Tensor):
        if val.dtype != x.dtype:
            val = val.astype(x.dtype)
        if str(val.place) != str(x.place):
            val = val._copy_to(x.place, True)
    check_item_query(query, x.shape, "set_item")  # paddle writes out of bounds (heap corruption)
    y = x.clone()  # differentiable: gradients flow to x outside the written positions, and to val
    y[query] = val
    return y


def inplace_update(x: Tensor, val: Tensor | complex, /) -> Tensor:
    if not isinstance(val, Tensor):
        val = paddle.full(x.shape, val, x.dtype)
    else:
        if val.dtype != x.dtype:
            val = val.astype(x.dtype)
        if list(val.shape) != list(x.shape):
            val = paddle.broadcast_to(val, x.shape)
    with paddle.no_grad():
        x.set_value(val)  # also allowed on leaves with stop_gradient=False (variables)
    return x


# ------------------------------------------------------------------------------------ reshaping


def cast(x: Tensor, dtype: Any, /) -> Tensor:
    dt = native(dtype, "cast")
    return x if x.dtype == dt else astype(x, dt, copy=False)


def transpose(x: Tensor, /, axes: Sequence[int] | None = None) -> Tensor:
    return permute_dims(x, tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(axes))


def flatten(x: Tensor, /, *, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if x.ndim == 0:
        return reshape(x, (1,))
    s, e = axis_index(start_dim, x.ndim, "flatten", "start_dim"), axis_index(end_dim, x.ndim, "flatten", "end_dim")
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {x.ndim} dims")
    shape = list(x.shape)
    return reshape(x, [*shape[:s], math.prod(shape[s : e + 1]), *shape[e + 1 :]])


_split, _split_num = paddle._C_ops.split, paddle._C_ops.split_with_num


def split(
    x: Tensor,
    /,
    num_or_size_splits: int | Sequence[int] | None = None,
    *,
    axis: int = 0,
    with_remainder: bool = False,
) -> list[Tensor]:
    n = x.shape[axis]
    if num_or_size_splits is None:
        sizes = [1] * n
    elif isinstance(num_or_size_splits, int):
        k = num_or_size_splits
        if k > 0 and n and not n % k:  # equal pieces: paddle.split's own call
            return _split_num(x, k, axis % len(x.shape))
        if n % k:
            if not with_remainder:
                raise ValueError(
                    f"split: axis {axis} of length {n} does not divide into {k} parts; "
                    "pass with_remainder=True or explicit sizes"
                )
            sizes = [n // k] * k + [n % k]
        else:
            sizes = [n // k] * k
    else:
        sizes = [int(s) for s in num_or_size_splits]
        if sum(sizes) != n:
            raise ValueError(f"split: sizes {sizes} do not add up to the axis length {n}")
    if not sizes or 0 in sizes:  # paddle.split refuses empty pieces
        return _compose("split")(x, num_or_size_splits, axis=axis, with_remainder=with_remainder)
    return _split(x, sizes, axis % len(x.shape))  # paddle.split's own call (a list)


#: the pad modes paddle pads in one kernel (numpy's names, paddle's); "symmetric" has none
_PADDLE_PADS = {"edge": "replicate", "reflect": "reflect", "wrap": "circular"}
_PAD_LAYOUTS = {3: "NCL", 4: "NCHW", 5: "NCDHW"}


def pad(
    x: Tensor,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: str = "constant",
    value: complex = 0,
) -> Tensor:
    if mode != "constant" or id(x.dtype) not in _FAST or isinstance(value, complex) or x.ndim == 0:
        trailing = trailing_pads(x.shape, pad_width, mode) if x.dtype in (paddle.float32, paddle.float64) else None
        # (paddle's kernels pad every axis after the batch and channels of a 3-5-d array, the
        # widths last axis first)
        if trailing is not None and x.ndim in (3, 4, 5) and trailing[1] >= 2:
            sides = [int(e) for lo_hi in reversed(trailing[0][2:]) for e in lo_hi]
            return F.pad(x, sides, mode=_PADDLE_PADS[mode], data_format=_PAD_LAYOUTS[x.ndim])
        return _compose("pad")(x, pad_width, mode=mode, value=value)
    if isinstance(pad_width, int):
        widths = [(pad_width, pad_width)] * x.ndim
    elif len(pad_width) and isinstance(pad_width[0], int):
        widths = [tuple(pad_width)] * x.ndim
    else:
        widths = [tuple(w) for w in pad_width]
    if len(widths) != x.ndim:
        raise ValueError(f"pad: pad_width has {len(widths)} entries for an array of {x.ndim} dims")
    flat: list[int] = []
    for axis, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise ValueError(f"pad: negative pad width {(lo, hi)} on axis {axis}")
        flat += [int(lo), int(hi)]
    # a pad list of 2 * ndim entries pads from the first axis to the last
    return F.pad(x, flat, mode="constant", value=value)


# --------------------------------------------------------------------------------- cumulatives


def _cumulative(fn: Any, name: str, x: Tensor, axis: int, exclusive: bool, reverse: bool, dtype: Any) -> Tensor:
    if exclusive or reverse or dtype is not None or id(x.dtype) not in FLOATS or x.ndim == 0:
        return _compose(name)(x, axis=axis, exclusive=exclusive, reverse=reverse, dtype=dtype)
    return fn(x, norm_axis(axis, x.ndim))  # floats keep their dtype: paddle's kernel as it is


def cumsum(x: Tensor, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None) -> Tensor:
    return _cumulative(paddle.cumsum, "cumsum", x, axis, exclusive, reverse, dtype)


def cumprod(
    x: Tensor, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> Tensor:
    return _cumulative(paddle.cumprod, "cumprod", x, axis, exclusive, reverse, dtype)


# ----------------------------------------------------------------------------------- searching


def top_k(x: Tensor, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
    if x.ndim:  # paddle.topk answers k > n with uninitialised memory
        check_count(k, x.shape[axis_index(axis, x.ndim, "top_k")], "top_k")
    if id(x.dtype) not in _FAST or k == 0 or x.ndim == 0:
        return _compose("top_k")(x, k, axis=axis, largest=largest, sorted=sorted)
    values, indices = paddle.topk(x, k, axis, largest, sorted)
    return values, indices


# -------------------------------------------------------------------------------------- einsum


def einsum(equation: str, /, *operands: Tensor) -> Tensor:
    ops = promote_many(list(operands), "einsum") if len(operands) > 1 else list(operands)
    dt = ops[0].dtype if ops else None
    if ops and id(dt) not in _INEXACT:
        # paddle's einsum kernels are floating-point only: integers and bools go through NumPy,
        # exactly (no gradients to keep for them), and come back to the operands' place
        import numpy as np

        out = np.einsum(equation, *[o.numpy() for o in ops])
        return paddle.to_tensor(np.asarray(out), dtype=dt, place=ops[0].place)
    return paddle.einsum(equation, *ops)


# ------------------------------------------------------------------------------- control flow


def _stack0(parts: list[Tensor]) -> Tensor:
    return paddle.stack(parts, axis=0)


def _empty_ys(y: Tensor) -> Tensor:
    return paddle.zeros((0, *y.shape), dtype=y.dtype)


def _zero_slice(a: Tensor) -> Tensor:
    return paddle.zeros(a.shape[1:], dtype=a.dtype)


def scan(f: Any, init: Any, xs: Any = None, /, *, length: int | None = None, reverse: bool = False) -> tuple[Any, Any]:
    # a Python loop, with module-level helpers: paddle's SOT cannot read the composed default's
    # closures over the namespace when it compiles a program calling scan
    return scan_loop(f, init, xs, length, reverse, _stack0, _empty_ys, _zero_slice)
