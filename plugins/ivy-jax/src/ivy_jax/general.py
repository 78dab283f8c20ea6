"""General functions: scatters (``x.at[...]``), item assignment, einsum, and native versions of
the composed ops where jax.numpy / jax.lax have the exact equivalent.

JAX arrays are immutable: ``set_item`` returns a new array (``x.at[query].set(val)``) and
``inplace_update`` raises TypeError. Scatters whose output shape must be inferred read the indices'
values, so under ``jax.jit`` pass ``shape`` / ``size``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ivy.plugin_kit import axis_index, check_carry, check_count, check_index_range, composed, scan_inputs, scan_step

from ._bounds import check_indices, check_item_query
from ._dtypes import _CACHE, BOOL, DEFAULT_INT, DEFAULT_UINT, native
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
    # structured control flow
    "while_loop",
    "cond",
    "scan",
]

_Array = jax.Array


def _compose(name: str) -> Any:
    return composed(name, "jax")


def _query(query: Any) -> Any:
    # JAX refuses lists as indices (NumPy reads them as integer arrays): make them arrays
    if type(query) is list:
        return jnp.asarray(query)
    if type(query) is tuple and any(type(q) is list for q in query):
        return tuple(jnp.asarray(q) if type(q) is list else q for q in query)
    return query


# -------------------------------------------------------------------------------------- gathers


def gather(params: _Array, indices: _Array, /, *, axis: int = -1, batch_dims: int = 0) -> _Array:
    if batch_dims:
        return _compose("gather")(params, indices, axis=axis, batch_dims=batch_dims)
    check_indices(indices, params.shape[axis_index(axis, params.ndim, "gather")], "gather")
    # jnp.take's result shape is the spec's: params.shape[:axis] + indices.shape + params.shape[axis+1:]
    return jnp.take(params, indices, axis=axis)


def gather_nd(params: _Array, indices: _Array, /, *, batch_dims: int = 0) -> _Array:
    if batch_dims:
        return _compose("gather_nd")(params, indices, batch_dims=batch_dims)
    cols = tuple(jnp.moveaxis(indices, -1, 0))
    if cols and indices.dtype.kind in "iu":  # (JAX refuses other dtypes itself)
        check_item_query(cols, params.shape, "gather_nd")
    return params[cols]


def get_item(x: _Array, /, query: Any) -> _Array:
    query = _query(query)
    check_item_query(query, x.shape, "get_item")  # JAX clamps an index out of range
    return x[query]


# -------------------------------------------------------------------------------------- scatters

_REDUCTIONS = ("sum", "replace", "min", "max")


def _updates(updates: Any) -> _Array:
    if isinstance(updates, _Array):
        return updates
    if isinstance(updates, (bool, int, float, complex)):
        return jnp.asarray(updates, dtype=_CACHE[type(updates)])  # strong, default dtypes
    return jnp.asarray(updates)


def _scatter(out_shape: tuple[int, ...], idx: tuple[_Array, ...], upd: _Array, reduction: str) -> _Array:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    return _scatter_kernel(out_shape, idx, upd, reduction)


@partial(jax.jit, static_argnums=(0, 3))
def _scatter_kernel(out_shape: tuple[int, ...], idx: tuple[_Array, ...], upd: _Array, reduction: str) -> _Array:
    """A new zero array of ``out_shape`` with ``upd`` combined in at ``idx`` (an .at[] index)."""
    dt = upd.dtype
    if reduction == "sum":
        return jnp.zeros(out_shape, dt).at[idx].add(upd)
    if reduction == "replace":
        return jnp.zeros(out_shape, dt).at[idx].set(upd)
    # min / max over the updates only; positions no index addresses hold 0
    if jnp.issubdtype(dt, jnp.inexact):  # bfloat16 / float16 included
        ident = np.inf if reduction == "min" else -np.inf
    elif dt == BOOL:
        ident = reduction == "min"
    else:
        info = np.iinfo(dt)
        ident = info.max if reduction == "min" else info.min
    base = jnp.full(out_shape, ident, dt)
    out = base.at[idx].min(upd) if reduction == "min" else base.at[idx].max(upd)
    touched = jnp.zeros(out_shape[: len(idx)], bool).at[idx].set(True)
    touched = touched.reshape(touched.shape + (1,) * (len(out_shape) - len(idx)))
    return jnp.where(touched, out, jnp.zeros((), dt))


def scatter_nd(
    indices: _Array, updates: _Array | float, /, shape: Sequence[int] | None = None, *, reduction: str = "sum"
) -> _Array:
    upd = _updates(updates)
    k = indices.shape[-1]
    lead = tuple(indices.shape[:-1])
    if shape is None:  # reads the indices: concrete values only (outside jit)
        flat = np.asarray(indices).reshape(-1, k)
        top = flat.max(0) + 1 if flat.shape[0] else np.zeros(k, dtype=np.int64)
        trailing = tuple(upd.shape[len(lead) :]) if upd.ndim else ()
        shape = (*(int(t) for t in top), *trailing)
    shape = tuple(int(s) for s in shape)
    b = None if isinstance(indices, jax.core.Tracer) else np.asarray(indices).reshape(-1, k)
    if b is not None and b.shape[0]:  # JAX drops an update out of range
        for j in range(k):
            check_index_range(int(b[:, j].min()), int(b[:, j].max()), shape[j], "scatter_nd", negative=False)
    upd = jnp.broadcast_to(upd, lead + shape[k:])
    idx = tuple(indices[..., j] for j in range(k))
    return _scatter(shape, idx, upd, reduction)


def scatter_flat(
    indices: _Array, updates: _Array | float, /, size: int | None = None, *, reduction: str = "sum"
) -> _Array:
    upd = _updates(updates)
    idx = indices.reshape(-1)
    if size is None:
        size = int(np.max(np.asarray(idx))) + 1 if idx.shape[0] else 0
    check_indices(idx, int(size), "scatter_flat", negative=False)  # JAX drops an update out of range
    upd = jnp.broadcast_to(upd, indices.shape).reshape(-1)
    return _scatter((int(size),), (idx,), upd, reduction)


# ------------------------------------------------------------------------------- item assignment


def set_item(x: _Array, query: Any, val: _Array | complex, /) -> _Array:
    # functional: .at[].set builds a new array (x itself is immutable)
    if isinstance(val, _Array):
        if val.dtype != x.dtype:
            val = val.astype(x.dtype)
    else:
        val = jnp.asarray(val).astype(x.dtype)  # cast as the spec says (JAX warns on unsafe casts)
    query = _query(query)
    check_item_query(query, x.shape, "set_item")  # JAX drops an update out of range
    return x.at[query].set(val)


def inplace_update(x: _Array, val: _Array | complex, /) -> _Array:
    raise TypeError(
        "ivy.inplace_update: JAX arrays are immutable and cannot be updated in place. Use the "
        "functional form instead, y = ivy.set_item(x, ..., val) (x.at[...].set(val) in JAX), "
        "and keep the returned array."
    )


# ------------------------------------------------------------------------------------ reshaping


def cast(x: _Array, dtype: Any, /) -> _Array:
    dt = _CACHE.get(dtype) or native(dtype, "cast")
    if x.dtype == dt:
        return x  # JAX arrays are immutable: no copy needed
    return astype(x, dt, copy=False)  # the standard's casting rules (complex -> real refused)


transpose = jnp.transpose  # reverses the axes by default, as the spec


def flatten(x: _Array, /, *, start_dim: int = 0, end_dim: int = -1) -> _Array:
    nd = x.ndim
    if nd == 0:
        return x.reshape(1)
    s, e = axis_index(start_dim, nd, "flatten", "start_dim"), axis_index(end_dim, nd, "flatten", "end_dim")
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {nd} dims")
    shape = x.shape
    return x.reshape(*shape[:s], math.prod(shape[s : e + 1]), *shape[e + 1 :])


def split(
    x: _Array,
    /,
    num_or_size_splits: int | Sequence[int] | None = None,
    *,
    axis: int = 0,
    with_remainder: bool = False,
) -> list[_Array]:
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
        points = [int(p) for p in np.cumsum(sizes[:-1])] if sizes else []
    return list(jnp.split(x, points, axis=axis))


def pad(
    x: _Array,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: str = "constant",
    value: complex = 0,
) -> _Array:
    nd = x.ndim
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
    if len(widths) != nd:  # jnp.pad would broadcast a single pair; the spec wants one per axis
        raise ValueError(f"pad: pad_width has {len(widths)} entries for an array of {nd} dims")
    for axis, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise ValueError(f"pad: negative pad width {(lo, hi)} on axis {axis}")
    if mode == "constant":
        if isinstance(value, complex) and x.dtype.kind != "c":
            return _compose("pad")(x, pad_width, mode=mode, value=value)
        return jnp.pad(x, widths, mode="constant", constant_values=value)
    if mode not in ("reflect", "symmetric", "edge", "wrap"):
        raise ValueError(f"pad: mode must be constant, edge, reflect, symmetric or wrap, got {mode!r}")
    for axis, (lo, hi) in enumerate(widths):
        if (lo or hi) and x.shape[axis] == 0:
            raise ValueError(f"pad: cannot {mode}-pad an empty axis {axis}")
    return jnp.pad(x, widths, mode=mode)  # NumPy's modes, long paddings included: the spec's


# --------------------------------------------------------------------------------- cumulatives


def _acc_dtype(x: _Array, dtype: Any) -> Any:
    if dtype is not None:
        return native(dtype, "cumsum")
    dt = x.dtype
    if dt == BOOL or (dt.kind == "i" and dt.itemsize < DEFAULT_INT.itemsize):
        return DEFAULT_INT  # as cumulative_sum: narrow integers widen to the default
    if dt.kind == "u" and dt.itemsize < DEFAULT_UINT.itemsize:
        return DEFAULT_UINT
    return dt


def _cumulative(kind: str, x: _Array, axis: int, exclusive: bool, reverse: bool, dtype: Any) -> _Array:
    dt = _acc_dtype(x, dtype)
    if x.ndim == 0:
        return _cum_kernel(kind, x.reshape(1), 0, exclusive, reverse, dt).reshape(())
    a = axis_index(axis, x.ndim, "cumsum" if kind == "sum" else "cumprod")
    return _cum_kernel(kind, x, a, bool(exclusive), bool(reverse), dt)


@partial(jax.jit, static_argnums=(0, 2, 3, 4, 5))
def _cum_kernel(kind: str, x: _Array, a: int, exclusive: bool, reverse: bool, dt: Any) -> _Array:
    if x.dtype != dt:
        x = x.astype(dt)
    fn, one = (lax.cumsum, 0) if kind == "sum" else (lax.cumprod, 1)
    if exclusive:  # shift the input by one (the identity enters first): exact, unlike out - x
        n = x.shape[a]
        pad_shape = list(x.shape)
        pad_shape[a] = min(n, 1)
        ident = jnp.full(pad_shape, one, dt)
        if reverse:
            x = jnp.concatenate([lax.slice_in_dim(x, 1, n, axis=a), ident], axis=a)
        else:
            x = jnp.concatenate([ident, lax.slice_in_dim(x, 0, max(n - 1, 0), axis=a)], axis=a)
    return fn(x, axis=a, reverse=reverse)


def cumsum(x: _Array, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None) -> _Array:
    return _cumulative("sum", x, axis, exclusive, reverse, dtype)


def cumprod(
    x: _Array, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> _Array:
    return _cumulative("prod", x, axis, exclusive, reverse, dtype)


# ----------------------------------------------------------------------------------- searching


def top_k(x: _Array, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True) -> tuple[_Array, _Array]:
    dt = x.dtype
    a = axis_index(axis, x.ndim, "top_k")
    k = check_count(k, x.shape[a], "top_k")
    if dt == BOOL or dt.kind == "c" or (not largest and dt.kind != "f"):
        # lax.top_k takes the largest only; negating to get the smallest is exact for floats alone
        return _compose("top_k")(x, k, axis=axis, largest=largest, sorted=sorted)
    return _top_k(x, k, a, bool(largest))


@partial(jax.jit, static_argnums=(1, 2, 3))
def _top_k(x: _Array, k: int, a: int, largest: bool) -> tuple[_Array, _Array]:
    last = a == x.ndim - 1
    xt = x if last else jnp.moveaxis(x, a, -1)
    if largest:
        values, indices = lax.top_k(xt, k)
    else:
        values, indices = lax.top_k(-xt, k)
        values = -values
    indices = indices.astype(DEFAULT_INT)  # lax gives int32; the spec the default integer dtype
    if not last:
        values, indices = jnp.moveaxis(values, -1, a), jnp.moveaxis(indices, -1, a)
    return values, indices


# -------------------------------------------------------------------------------------- einsum

einsum = jnp.einsum  # promotes the operands to a common dtype itself


# ------------------------------------------------------------------------------- control flow


def _scalar_pred(p: Any, op: str, what: str) -> Any:
    if math.prod(p.shape) != 1:
        raise ValueError(f"{op}: {what} must be a boolean array of one element, got shape {tuple(p.shape)}")
    return jnp.reshape(p, ())


def while_loop(cond_fn: Any, body_fn: Any, loop_vars: Sequence[Any], /) -> tuple[Any, ...]:
    # lax.while_loop: one loop under jax.jit (forward-mode differentiable only, as JAX's own)
    init = tuple(jnp.asarray(v) for v in loop_vars)
    if not init:
        raise ValueError("while_loop: loop_vars must hold at least one array")

    def test(c: tuple[Any, ...]) -> Any:
        return _scalar_pred(cond_fn(*c), "while_loop", "cond_fn's result")

    def body(c: tuple[Any, ...]) -> tuple[Any, ...]:
        return check_carry(c, body_fn(*c))

    out = lax.while_loop(test, body, init)
    return tuple(out)


def cond(pred: Any, true_fn: Any, false_fn: Any, operands: Sequence[Any], /) -> Any:
    return lax.cond(_scalar_pred(pred, "cond", "pred"), true_fn, false_fn, *operands)


def scan(f: Any, init: Any, xs: Any = None, /, *, length: int | None = None, reverse: bool = False) -> tuple[Any, Any]:
    # lax.scan: one loop under jax.jit, differentiable in both modes; the checks are the other
    # backends' (lax.scan's own errors for a changed carry differ from theirs)
    if not callable(f):
        raise TypeError(f"scan: f must be a function, got {type(f).__name__}")
    scan_inputs(xs, length)
    init = jax.tree_util.tree_map(jnp.asarray, init)
    return lax.scan(lambda c, x: scan_step(init, f(c, x)), init, xs, length=length, reverse=reverse)
