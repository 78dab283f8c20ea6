"""General functions composed from Array API ops (defaults; plugins may go native)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..plugin_kit._checks import axis_index, check_carry, check_count, check_integer_indices, known_true, one_truth
from ..plugin_kit._scan import scan_loop
from . import composes, index_dtype


@composes
def get_item(xp: Any, x: Any, /, query: Any) -> Any:
    # the standard indexes every axis unless the index has an ellipsis: spell out the implicit one
    q = query if type(query) is tuple else (query,)
    if not any(k is Ellipsis for k in q):
        q = (*q, Ellipsis)
    return x[q]


@composes
def cast(xp: Any, x: Any, dtype: Any, /) -> Any:
    return xp.astype(x, dtype)


@composes
def transpose(xp: Any, x: Any, /, axes: Sequence[int] | None = None) -> Any:
    return xp.permute_dims(x, tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(axes))


@composes
def flatten(xp: Any, x: Any, /, *, start_dim: int = 0, end_dim: int = -1) -> Any:
    if x.ndim == 0:
        return xp.reshape(x, (1,))
    s, e = axis_index(start_dim, x.ndim, "flatten", "start_dim"), axis_index(end_dim, x.ndim, "flatten", "end_dim")
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {x.ndim} dims")
    dims = tuple(x.shape)
    merged = dims[s : e + 1]
    shape = [*dims[:s], None if None in merged else math.prod(merged), *dims[e + 1 :]]
    if shape.count(None) == 1:  # one size unknown to a traced graph (a batch of any size): reshape infers it
        shape[shape.index(None)] = -1
    return xp.reshape(x, tuple(shape))


@composes
def clip_vector_norm(xp: Any, x: Any, max_norm: float, /, *, p: float = 2.0) -> Any:
    norm = xp.linalg.vector_norm(x, ord=p)
    ratio = xp.divide(max_norm, xp.where(xp.greater(norm, 0), norm, 1.0))
    return xp.where(xp.greater(norm, max_norm), xp.multiply(x, ratio), x)


@composes
def clip_matrix_norm(xp: Any, x: Any, max_norm: float, /, *, p: float = 2.0) -> Any:
    norm = xp.linalg.matrix_norm(x, ord=p, keepdims=True)
    ratio = xp.divide(max_norm, xp.where(xp.greater(norm, 0), norm, 1.0))
    return xp.where(xp.greater(norm, max_norm), xp.multiply(x, ratio), x)


def _cumulative(xp: Any, op: Any, x: Any, axis: int, exclusive: bool, reverse: bool, dtype: Any) -> Any:
    if reverse:
        x = xp.flip(x, axis=axis)
    out = op(x, axis=axis, dtype=dtype, include_initial=exclusive)
    if exclusive:  # the initial value shifts everything by one: drop the last
        idx = [slice(None)] * out.ndim
        idx[axis] = slice(0, -1)
        out = out[tuple(idx)]
    return xp.flip(out, axis=axis) if reverse else out


@composes
def cumsum(
    xp: Any, x: Any, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> Any:
    return _cumulative(xp, xp.cumulative_sum, x, axis, exclusive, reverse, dtype)


@composes
def cumprod(
    xp: Any, x: Any, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> Any:
    return _cumulative(xp, xp.cumulative_prod, x, axis, exclusive, reverse, dtype)


def _pad_index(n: int, lo: int, hi: int, mode: str) -> list[int]:
    """Source indices along one axis for a padded length n + lo + hi."""
    out = []
    for i in range(-lo, n + hi):
        if 0 <= i < n:
            out.append(i)
        elif mode == "edge":
            out.append(min(max(i, 0), n - 1))
        elif mode == "wrap":
            out.append(i % n)
        elif mode == "reflect":  # mirror without repeating the edge, like numpy's "reflect"
            period = 2 * (n - 1)
            j = i % period if period else 0
            out.append(j if j < n else period - j)
        elif mode == "symmetric":  # mirror repeating the edge
            period = 2 * n
            j = i % period
            out.append(j if j < n else period - 1 - j)
    return out


@composes
def pad(
    xp: Any,
    x: Any,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: str = "constant",
    value: Any = 0,
) -> Any:
    if isinstance(pad_width, int):
        widths = [(pad_width, pad_width)] * x.ndim
    elif len(pad_width) and isinstance(pad_width[0], int):
        widths = [tuple(pad_width)] * x.ndim  # type: ignore[list-item]
    else:
        widths = [tuple(w) for w in pad_width]  # type: ignore[arg-type, misc]
    if len(widths) != x.ndim:
        raise ValueError(f"pad: pad_width has {len(widths)} entries for an array of {x.ndim} dims")
    if mode not in ("constant", "edge", "reflect", "symmetric", "wrap"):
        raise ValueError(f"pad: mode must be constant, edge, reflect, symmetric or wrap, got {mode!r}")
    out = x
    for axis, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise ValueError(f"pad: negative pad width {(lo, hi)} on axis {axis}")
        if lo == 0 and hi == 0:
            continue
        if mode == "constant":
            parts = []
            for w in (lo, hi):
                shape = list(out.shape)
                shape[axis] = w
                parts.append(xp.full(tuple(shape), value, dtype=out.dtype, device=xp.dev(out, as_native=True)))
            out = xp.concat([parts[0], out, parts[1]], axis=axis)
        else:
            n = out.shape[axis]
            if n == 0:
                raise ValueError(f"pad: cannot {mode}-pad an empty axis {axis}")
            idx = xp.asarray(_pad_index(n, lo, hi, mode), dtype=index_dtype(xp), device=xp.dev(out, as_native=True))
            out = xp.take(out, idx, axis=axis)
    return out


@composes
def top_k(xp: Any, x: Any, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Any, Any]:
    axis = axis_index(axis, x.ndim, "top_k")
    k = check_count(k, x.shape[axis], "top_k")
    order = xp.argsort(x, axis=axis, descending=largest, stable=True)
    idx = [slice(None)] * x.ndim
    idx[axis] = slice(0, k)
    indices = order[tuple(idx)]
    return xp.take_along_axis(x, indices, axis=axis), indices


@composes
def split(
    xp: Any,
    x: Any,
    /,
    num_or_size_splits: int | Sequence[int] | None = None,
    *,
    axis: int = 0,
    with_remainder: bool = False,
) -> list[Any]:
    n = x.shape[axis]
    if num_or_size_splits is None:
        sizes = [1] * n
    elif isinstance(num_or_size_splits, int):
        k = num_or_size_splits
        if n % k:
            if not with_remainder:
                raise ValueError(
                    f"split: axis {axis} of length {n} does not divide into {k} parts; "
                    "pass with_remainder=True or explicit sizes"
                )
            sizes = [n // k] * k + [n % k]  # k equal pieces, then the remainder
        else:
            sizes = [n // k] * k
    else:
        sizes = list(num_or_size_splits)
        if sum(sizes) != n:
            raise ValueError(f"split: sizes {sizes} do not add up to the axis length {n}")
    out, start = [], 0
    for s in sizes:
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(start, start + s)
        out.append(x[tuple(idx)])
        start += s
    return out


@composes
def gather(xp: Any, params: Any, indices: Any, /, *, axis: int = -1, batch_dims: int = 0) -> Any:
    axis = axis_index(axis, params.ndim, "gather")
    if batch_dims == 0:
        flat = xp.reshape(indices, (-1,))
        out = xp.take(params, flat, axis=axis)
        return xp.reshape(out, (*params.shape[:axis], *indices.shape, *params.shape[axis + 1 :]))
    # batched: gather per batch element through take_along_axis on broadcast indices
    b = batch_dims % indices.ndim if indices.ndim else 0
    lead = params.shape[:b]
    rest_idx = indices.shape[b:]
    idx = xp.reshape(indices, (*lead, *([1] * (axis - b)), -1, *([1] * (params.ndim - axis - 1))))
    target = (*params.shape[:axis], idx.shape[axis], *params.shape[axis + 1 :])
    got = xp.take_along_axis(params, xp.broadcast_to(idx, target), axis=axis)
    return xp.reshape(got, (*params.shape[:axis], *rest_idx, *params.shape[axis + 1 :]))


@composes
def gather_nd(xp: Any, params: Any, indices: Any, /, *, batch_dims: int = 0) -> Any:
    depth = indices.shape[-1]
    if batch_dims:
        # Fold the batch dimensions into one and prepend the batch number to every index.
        bshape = params.shape[:batch_dims]
        nb = math.prod(bshape)
        p = xp.reshape(params, (nb, *params.shape[batch_dims:]))
        idx = xp.reshape(indices, (nb, -1, depth))
        b = xp.arange(nb, dtype=indices.dtype, device=xp.dev(indices, as_native=True))
        b = xp.broadcast_to(xp.reshape(b, (nb, 1, 1)), (nb, idx.shape[1], 1))
        out = gather_nd(xp, p, xp.concat([b, idx], axis=-1))
        return xp.reshape(out, (*bshape, *indices.shape[batch_dims:-1], *params.shape[batch_dims + depth :]))
    # the flat position below would turn an index outside its own axis (or a negative one) into
    # another element: negative indices count from the end, the others must lie in range
    check_integer_indices(xp.isdtype(indices.dtype, "integral"), indices.dtype, "gather_nd")
    dims = xp.asarray(params.shape[:depth], dtype=indices.dtype, device=xp.dev(indices, as_native=True))
    if xp.isdtype(indices.dtype, "signed integer"):
        indices = xp.where(xp.less(indices, 0), xp.add(indices, dims), indices)
    if known_true(xp.any(xp.logical_or(xp.less(indices, 0), xp.greater_equal(indices, dims)))):
        raise IndexError(
            f"ivy.gather_nd: an index is out of range for the indexed axes of shape {params.shape[:depth]}"
        )
    strides = [math.prod(params.shape[i + 1 : depth]) for i in range(depth)]
    stride_arr = xp.asarray(strides, dtype=indices.dtype, device=xp.dev(indices, as_native=True))
    flat_idx = xp.sum(xp.multiply(indices, stride_arr), axis=-1)
    inner = params.shape[depth:]
    flat_params = xp.reshape(params, (-1, *inner))
    out = xp.take(flat_params, xp.reshape(flat_idx, (-1,)), axis=0)
    return xp.reshape(out, (*indices.shape[:-1], *inner))


@composes
def while_loop(xp: Any, cond_fn: Any, body_fn: Any, loop_vars: Sequence[Any], /) -> tuple[Any, ...]:
    vals = tuple(loop_vars)
    if not vals:
        raise ValueError("while_loop: loop_vars must hold at least one array")
    while one_truth(cond_fn(*vals), "while_loop", "cond_fn's result"):
        vals = check_carry(vals, body_fn(*vals))
    return vals


@composes
def cond(xp: Any, pred: Any, true_fn: Any, false_fn: Any, operands: Sequence[Any], /) -> Any:
    return (true_fn if one_truth(pred, "cond", "pred") else false_fn)(*operands)


@composes
def scan(
    xp: Any, f: Any, init: Any, xs: Any = None, /, *, length: int | None = None, reverse: bool = False
) -> tuple[Any, Any]:
    return scan_loop(
        f,
        init,
        xs,
        length,
        reverse,
        lambda parts: xp.stack(parts, axis=0),
        lambda y: xp.zeros((0, *y.shape), dtype=y.dtype),
        lambda a: xp.zeros(tuple(a.shape[1:]), dtype=a.dtype),
        ellipsis=True,
    )
