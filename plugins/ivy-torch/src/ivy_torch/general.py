"""General functions: scatters, item assignment, einsum, and native versions of composed ops."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import torch
import torch.nn.functional as F

from ivy.plugin_kit import check_carry, check_index_range, composed, fastpath, one_truth, scan_loop, trailing_pads

from ._dtypes import COMPLEX, FLOATS, PARTIAL, SIGNED, SUM_DTYPE, i64, native, promote, scalar_dtype
from ._helpers import Tensor, int_indices, norm_axis, viewcall
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


def _compose(name: str) -> Any:
    return composed(name, "torch")


_IDX = (torch.int64, torch.int32)


def _long(i: Tensor, op: str) -> Tensor:
    return i if i.dtype is i64 else int_indices(i, op)


# -------------------------------------------------------------------------------------- gathers


def gather(params: Tensor, indices: Tensor, /, *, axis: int = -1, batch_dims: int = 0) -> Tensor:
    if batch_dims:
        return _compose("gather")(params, indices, axis=axis, batch_dims=batch_dims)
    if indices.ndim == 1 and indices.dtype in _IDX and params.dtype not in PARTIAL:
        return torch.index_select(params, axis, indices)  # the result has the standard's shape
    a = norm_axis(axis, params.ndim)
    if indices.dtype not in _IDX:
        indices = int_indices(indices, "gather")
    flat = indices.reshape(-1)
    if params.dtype in PARTIAL:  # uint16/32/64: through the same-width signed view
        out = viewcall(torch.index_select, params, a, flat)
    else:
        out = torch.index_select(params, a, flat)
    return out.reshape(params.shape[:a] + indices.shape + params.shape[a + 1 :])


def gather_nd(params: Tensor, indices: Tensor, /, *, batch_dims: int = 0) -> Tensor:
    idx = _long(indices, "gather_nd")
    coords = list(idx.unbind(-1))
    if batch_dims:  # the batch axes of params pair with those of indices: aranges broadcast along them
        lead = idx.ndim - 1
        batch = []
        for b in range(batch_dims):
            shape = [1] * lead
            shape[b] = params.shape[b]
            batch.append(torch.arange(params.shape[b], device=idx.device).view(shape))
        coords = batch + coords
    if params.dtype in PARTIAL:
        return viewcall(lambda p: p[tuple(coords)], params)
    return params[tuple(coords)]


# -------------------------------------------------------------------------------------- scatters

_REDUCE = {"min": "amin", "max": "amax"}


def _scatter_rows(flat_idx: Tensor, rows: Tensor, n: int, trailing: tuple[int, ...], reduction: str) -> Tensor:
    """A new [n, *trailing] zero array with rows[i] combined into row flat_idx[i]."""
    out = torch.zeros((n, *trailing), dtype=rows.dtype, device=rows.device)
    if reduction == "sum":
        return out.index_add(0, flat_idx, rows)
    if reduction == "replace":
        return out.index_copy(0, flat_idx, rows) if rows.dtype not in PARTIAL else out.index_put((flat_idx,), rows)
    red = _REDUCE.get(reduction)
    if red is None:
        raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    full = flat_idx.view((-1,) + (1,) * len(trailing)).expand(rows.shape)
    return out.scatter_reduce(0, full, rows, red, include_self=False)  # untouched rows stay 0


def _updates(updates: Any, like_device: torch.device) -> Tensor:
    if isinstance(updates, Tensor):
        return updates
    if isinstance(updates, bool):
        return torch.tensor(updates, device=like_device)
    dt = i64 if isinstance(updates, int) else torch.get_default_dtype()
    if isinstance(updates, complex):
        dt = scalar_dtype(updates, torch.get_default_dtype())
    return torch.tensor(updates, dtype=dt, device=like_device)


def scatter_nd(
    indices: Tensor, updates: Tensor | float, /, shape: Sequence[int] | None = None, *, reduction: str = "sum"
) -> Tensor:
    idx = _long(indices, "scatter_nd")
    upd = _updates(updates, idx.device)
    k = idx.shape[-1]
    lead = idx.shape[:-1]
    if shape is None:
        top = idx.reshape(-1, k).amax(0) + 1 if idx.numel() else torch.zeros(k, dtype=i64)
        trailing = tuple(upd.shape[len(lead) :]) if upd.ndim else ()
        shape = (*(int(t) for t in top.tolist()), *trailing)
    shape = tuple(int(s) for s in shape)
    trailing = shape[k:]
    want = (*lead, *trailing)
    if upd.shape != want:
        upd = upd.expand(want)
    if upd.ndim != 1 + len(trailing):  # each op costs a microsecond or so: only where needed
        upd = upd.reshape((-1, *trailing))
    if k == 1:  # one index column: the row numbers themselves, and the result has its shape
        return _scatter_rows(idx.reshape(-1), upd, shape[0], trailing, reduction)
    if idx.numel():  # the flat position would hide an index outside its own axis
        cols = idx.reshape(-1, k)
        for j, (lo, hi) in enumerate(zip(cols.amin(0).tolist(), cols.amax(0).tolist())):
            check_index_range(lo, hi, shape[j], "scatter_nd", negative=False)
    strides = [math.prod(shape[j + 1 : k]) for j in range(k)]
    flat = (idx.reshape(-1, k) * torch.tensor(strides, dtype=i64, device=idx.device)).sum(-1)
    return _scatter_rows(flat, upd, math.prod(shape[:k]), trailing, reduction).reshape(shape)


def scatter_flat(
    indices: Tensor, updates: Tensor | float, /, size: int | None = None, *, reduction: str = "sum"
) -> Tensor:
    idx = _long(indices, "scatter_flat").reshape(-1)
    upd = _updates(updates, idx.device)
    if size is None:
        size = int(idx.max()) + 1 if idx.numel() else 0
    return _scatter_rows(idx, upd.expand(idx.shape).reshape(-1), int(size), (), reduction)


# ------------------------------------------------------------------------------- item assignment


def _neg_steps(query: Any) -> bool:
    if type(query) is slice:
        return query.step is not None and query.step < 0
    if type(query) is tuple:
        return any(type(q) is slice and q.step is not None and q.step < 0 for q in query)
    return False


def _flip_query(x: Tensor, query: Any) -> tuple[list[int], tuple[Any, ...]]:
    """torch refuses negative slice steps: the axes to flip and the query on the flipped array."""
    q = query if type(query) is tuple else (query,)
    used = 0
    for item in q:
        if item is None or item is Ellipsis:
            continue
        if isinstance(item, Tensor) and item.dtype is torch.bool:
            used += item.ndim
        elif isinstance(item, bool):
            continue
        else:
            used += 1
    axes: list[int] = []
    out: list[Any] = []
    axis = 0
    for item in q:
        if item is Ellipsis:
            axis += x.ndim - used
            out.append(item)
            continue
        if item is None or isinstance(item, bool):
            out.append(item)
            continue
        if type(item) is slice and item.step is not None and item.step < 0:
            n = x.shape[axis]
            r = range(*item.indices(n))
            if len(r):
                item = slice(n - 1 - r[0], n - r[-1], -item.step)
            else:
                item = slice(0, 0)
            axes.append(axis)
        out.append(item)
        axis += item.ndim if isinstance(item, Tensor) and item.dtype is torch.bool else 1
    return axes, tuple(out)


def get_item(x: Tensor, /, query: Any) -> Tensor:
    try:
        return x[query]
    except ValueError:  # "step must be greater than zero": torch refuses negative slice steps
        if not _neg_steps(query):
            raise
    axes, q = _flip_query(x, query)
    return x.flip(axes)[q]


def set_item(x: Tensor, query: Any, val: Tensor | complex, /) -> Tensor:
    if isinstance(val, Tensor) and val.device != x.device:
        val = val.to(x.device)
    if _neg_steps(query):
        axes, q = _flip_query(x, query)
        y = x.flip(axes)  # a copy
        y[q] = val  # type: ignore[assignment]  # torch takes complex scalars too; its stub says int/float/bool
        return y.flip(axes)
    y = x.clone()
    y[query] = val  # type: ignore[assignment]  # (complex: as above)
    return y


def inplace_update(x: Tensor, val: Tensor | complex, /) -> Tensor:
    with torch.no_grad():
        if isinstance(val, Tensor):
            x.copy_(val)
        else:
            x.fill_(val)
    return x


# ------------------------------------------------------------------------------------ reshaping

cast = astype


def transpose(x: Tensor, /, axes: Sequence[int] | None = None) -> Tensor:
    return x.permute(tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(axes))


def flatten(x: Tensor, /, *, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if x.ndim and start_dim % x.ndim > end_dim % x.ndim:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {x.ndim} dims")
    return torch.flatten(x, start_dim, end_dim)


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
        sizes: Any = [1] * n
    elif isinstance(num_or_size_splits, int):
        k = num_or_size_splits
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
        sizes = list(num_or_size_splits)
        if sum(sizes) != n:
            raise ValueError(f"split: sizes {sizes} do not add up to the axis length {n}")
    # torch.split_with_sizes is the C function under torch.split (which is Python)
    return list(torch.split_with_sizes(x, sizes, axis))


#: the pad modes torch pads in one kernel (numpy's names, torch's); "symmetric" has none
_TORCH_PADS = {"edge": "replicate", "reflect": "reflect", "wrap": "circular"}


def pad(
    x: Tensor,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: str = "constant",
    value: complex = 0,
) -> Tensor:
    if mode != "constant" or isinstance(value, complex) or x.dtype in PARTIAL:
        trailing = trailing_pads(x.shape, pad_width, mode) if x.dtype in FLOATS else None
        # (torch's kernels pad the last 1-3 axes after one or two others: widths last axis first)
        if trailing is not None and 1 <= x.ndim - trailing[1] <= 3 and trailing[1] in (1, 2):
            sides = [e for lo_hi in reversed(trailing[0][trailing[1] :]) for e in lo_hi]
            return F.pad(x, sides, mode=_TORCH_PADS[mode])
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
    for axis in range(x.ndim - 1, -1, -1):
        lo, hi = widths[axis]
        if lo < 0 or hi < 0:
            raise ValueError(f"pad: negative pad width {(lo, hi)} on axis {axis}")
        flat += [lo, hi]
    if x.dtype is torch.bool:
        value = bool(value)
    return F.pad(x, flat, value=value)


# --------------------------------------------------------------------------------- cumulatives


_CUM_NATIVE = frozenset({*FLOATS, *COMPLEX, *SIGNED, torch.bool, torch.float16, torch.bfloat16})


def _cumulative(
    fn: Any, name: str, one: int, x: Tensor, axis: int, exclusive: bool, reverse: bool, dtype: Any
) -> Tensor:
    dt = SUM_DTYPE.get(x.dtype, x.dtype) if dtype is None else native(dtype)
    if dt in PARTIAL or x.dtype in PARTIAL:
        return _compose(name)(x, axis=axis, exclusive=exclusive, reverse=reverse, dtype=dtype)
    if x.ndim == 0:
        x = x.reshape(1)
        return _cumulative(fn, name, one, x, 0, exclusive, reverse, dt).reshape(())
    a = norm_axis(axis, x.ndim)
    if reverse:
        x = x.flip(a)
    out = fn(x, a, dtype=dt)
    if exclusive:
        n = out.shape[a]
        first = torch.full_like(out.narrow(a, 0, min(n, 1)), one)
        out = torch.cat([first, out.narrow(a, 0, max(n - 1, 0))], a)
    return out.flip(a) if reverse else out


# Plain calls of float, complex, signed int and bool arrays: torch's accumulation dtype is the standard's.
@fastpath(torch.cumsum, nargs=(1, 2), defaults=(0,), dtypes=_CUM_NATIVE, retry=IndexError)
def cumsum(x: Tensor, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None) -> Tensor:
    return _cumulative(torch.cumsum, "cumsum", 0, x, axis, exclusive, reverse, dtype)


@fastpath(torch.cumprod, nargs=(1, 2), defaults=(0,), dtypes=_CUM_NATIVE, retry=IndexError)
def cumprod(
    x: Tensor, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None
) -> Tensor:
    return _cumulative(torch.cumprod, "cumprod", 1, x, axis, exclusive, reverse, dtype)


# ----------------------------------------------------------------------------------- searching


def top_k(x: Tensor, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
    if x.dtype in PARTIAL or x.dtype is torch.bool:
        return _compose("top_k")(x, k, axis=axis, largest=largest, sorted=sorted)
    values, indices = torch.topk(x, k, axis, largest, sorted)
    return values, indices


# -------------------------------------------------------------------------------------- einsum


@fastpath(torch.einsum, nargs=3, same=(1, 2))  # two operands of one dtype: torch's own call
def einsum(equation: str, /, *operands: Tensor) -> Tensor:
    dts = {o.dtype for o in operands}
    if len(dts) > 1:  # torch wants one dtype: the standard's promotion first
        it = iter(dts)
        rt = next(it)
        for d in it:
            rt = promote(rt, d)
        operands = tuple(o.to(rt) for o in operands)
    return torch.einsum(equation, *operands)


# ------------------------------------------------------------------------------- control flow
# Python's loop and ``if``, run eagerly inside a ``torch.compile``d program (a graph break): the
# emitted program defines its functions anew on each call, and dynamo's caches of the frames of
# such nested functions mix up those of two compiled programs


def _outside_compile(fn: Any) -> Any:
    """``fn`` run eagerly by ``torch.compile`` (``torch.compiler.disable``), made on the first call:
    disabling imports ``torch._dynamo``, 1.8 s, which loading the backend should not cost."""
    disabled: list[Any] = []

    def op(*args: Any, **kwargs: Any) -> Any:
        if not disabled:
            disabled.append(torch.compiler.disable(fn))
        return disabled[0](*args, **kwargs)

    return functools.wraps(fn)(op)


@_outside_compile
def while_loop(cond_fn: Any, body_fn: Any, loop_vars: Sequence[Any], /) -> tuple[Any, ...]:
    vals = tuple(loop_vars)
    if not vals:
        raise ValueError("while_loop: loop_vars must hold at least one array")
    while one_truth(cond_fn(*vals), "while_loop", "cond_fn's result"):
        vals = check_carry(vals, body_fn(*vals))
    return vals


@_outside_compile
def cond(pred: Any, true_fn: Any, false_fn: Any, operands: Sequence[Any], /) -> Any:
    return (true_fn if one_truth(pred, "cond", "pred") else false_fn)(*operands)


# (torch's own scan, torch._higher_order_ops.scan, is no better here: 4.5 times slower than this
# loop eagerly, 200 steps of 64 floats on CPU, and torch.compile fails on it with inductor's
# DataDependentOutputException in torch 2.13; nor does it take xs=None or a y of None)
@_outside_compile
def scan(f: Any, init: Any, xs: Any = None, /, *, length: int | None = None, reverse: bool = False) -> tuple[Any, Any]:
    return scan_loop(
        f,
        init,
        xs,
        length,
        reverse,
        lambda parts: torch.stack(parts, 0),
        lambda y: y.new_empty((0, *y.shape)),
        lambda a: a.new_zeros(a.shape[1:]),
    )
