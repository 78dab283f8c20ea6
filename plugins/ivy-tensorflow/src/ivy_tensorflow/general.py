"""General functions: scatters, item assignment, einsum, and native versions of composed ops."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm
from tensorflow.python.ops import gen_nn_ops as gn

from ivy.nest import tree_flatten, tree_unflatten
from ivy.plugin_kit import (
    axis_index,
    check_carry,
    check_integer_indices,
    composed,
    scan_inputs,
    scan_step,
    trailing_pads,
)

from . import _dtypes as D
from ._helpers import ints, norm_axis, tensor
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

_TENSORS = (tf.Tensor, tf.Variable)


def _compose(name: str) -> Any:
    return composed(name, "tensorflow")


def _idx(i: Any, op: str) -> Any:
    i = tensor(i)
    if i.dtype in (D.I32, D.I64):
        return i
    check_integer_indices(i.dtype in D.INTS, i.dtype, op)  # tf.cast would truncate floats silently
    return tf.cast(i, D.I64)


# -------------------------------------------------------------------------------------- gathers


def gather(params: Any, indices: Any, /, *, axis: int = -1, batch_dims: int = 0) -> Any:
    # TF's definition is the spec's
    return ga.gather_v2(params, _idx(indices, "gather"), axis, batch_dims=batch_dims)


def gather_nd(params: Any, indices: Any, /, *, batch_dims: int = 0) -> Any:
    return tf.gather_nd(params, _idx(indices, "gather_nd"), batch_dims=batch_dims)


# -------------------------------------------------------------------------------------- scatters

_SCATTER_OK = D.NUMERIC  # TensorScatterAdd / Min / Max kernels: every numeric dtype, not bool


def _updates(updates: Any) -> Any:
    if isinstance(updates, _TENSORS):
        return updates
    return tensor(updates)  # Python scalars: the default dtype of their kind


def _scatter(idx: Any, upd: Any, shape: Any, reduction: str) -> Any:
    """``shape``: a list of ints, or (inferred while tracing) a 1-D int64 tensor."""
    dt = upd.dtype
    if reduction not in ("sum", "replace", "min", "max"):
        raise ValueError(f"reduction must be 'sum', 'replace', 'min' or 'max', got {reduction!r}")
    if dt == D.BOOL and reduction != "replace":  # or / and / or over 0-1 integers
        red = "max" if reduction == "sum" else reduction
        return tf.cast(_scatter(idx, tf.cast(upd, D.U8), shape, red), D.BOOL)
    if reduction == "sum":
        return tf.scatter_nd(idx, upd, shape)
    if reduction == "replace":
        return tf.tensor_scatter_nd_update(tf.zeros(shape, dt), idx, upd)
    # min / max: start from the identity, then zero the positions no index addresses
    if dt.is_floating:
        ident = np.inf if reduction == "min" else -np.inf
    elif dt.is_complex:
        raise TypeError(f"scatter: reduction {reduction!r} is undefined for complex {dt.name}")
    else:
        ident = dt.max if reduction == "min" else dt.min
    fn = tf.tensor_scatter_nd_min if reduction == "min" else tf.tensor_scatter_nd_max
    out = fn(tf.fill(shape, tf.constant(ident, dt)), idx, upd)
    k = int(idx.shape[-1])
    hit = tf.scatter_nd(idx, tf.ones(tf.shape(idx)[:-1], D.I32), shape[:k]) > 0
    rank = len(shape) if isinstance(shape, list) else int(shape.shape[0])
    hit = tf.reshape(hit, tf.concat([tf.shape(hit), tf.ones([rank - k], tf.int32)], 0))
    return tf.where(hit, out, tf.zeros((), dt))


def scatter_nd(indices: Any, updates: Any, /, shape: Sequence[int] | None = None, *, reduction: str = "sum") -> Any:
    idx = _idx(indices, "scatter_nd")
    upd = _updates(updates)
    k = int(idx.shape[-1])
    lead = [int(s) for s in idx.shape[:-1]]
    trailing = [int(s) for s in upd.shape[len(lead) :]] if upd.shape.rank else []
    if shape is None:  # max(indices) + 1 per indexed axis, then the trailing shape of the updates
        flat = tf.reshape(tf.cast(idx, D.I64), [-1, k])
        top = tf.maximum(tf.reduce_max(tf.concat([flat, -tf.ones([1, k], D.I64)], 0), 0) + 1, 0)
        if tf.executing_eagerly():
            shape = [*top.numpy().tolist(), *trailing]
        else:  # while tracing: a shape tensor
            tshape = tf.concat([top, tf.constant(trailing, D.I64)], 0)
            upd = tf.broadcast_to(upd, [*lead, *trailing])
            return _scatter(idx, upd, tshape, reduction)
    shape = [int(s) for s in shape]
    full = [*lead, *shape[k:]]
    if [int(s) for s in upd.shape] != full:
        upd = tf.broadcast_to(upd, full)
    return _scatter(idx, upd, shape, reduction)


def scatter_flat(indices: Any, updates: Any, /, size: int | None = None, *, reduction: str = "sum") -> Any:
    idx = tf.reshape(_idx(indices, "scatter_flat"), [-1, 1])
    upd = _updates(updates)
    n = int(idx.shape[0])
    upd = tf.reshape(tf.broadcast_to(upd, [n]) if upd.shape.rank == 0 else upd, [n])
    if size is None:
        return scatter_nd(idx, upd, None, reduction=reduction)
    return _scatter(idx, upd, [int(size)], reduction)


# ------------------------------------------------------------------------------- item assignment


def _is_array(q: Any) -> bool:
    return isinstance(q, (tf.Tensor, tf.Variable, np.ndarray, list))


def _basic(query: Any) -> bool:
    items = query if type(query) is tuple else (query,)
    for q in items:
        if q is None or q is Ellipsis or type(q) is slice or type(q) is int or isinstance(q, np.integer):
            continue
        if isinstance(q, (tf.Tensor, tf.Variable)) and q.shape.rank == 0 and q.dtype.is_integer:
            continue
        return False
    return True


def get_item(x: Any, /, query: Any) -> Any:
    if _basic(query):
        return x[query]  # ints, slices (negative steps too), ..., None: TF's own strided slice
    return _advanced(x, query)


def _advanced(x: Any, query: Any) -> Any:
    """NumPy's rules for integer / boolean array indices combined with the basic ones."""
    items = list(query) if type(query) is tuple else [query]
    items = [tensor(q) if isinstance(q, (np.ndarray, list)) else q for q in items]
    used = 0
    for q in items:
        if q is None or q is Ellipsis:
            continue
        if isinstance(q, bool):
            continue
        if isinstance(q, _TENSORS) and q.dtype == D.BOOL:
            used += q.shape.rank
        else:
            used += 1
    # expand the ellipsis, turn None / Python bools into new axes and boolean arrays into integer ones
    ndim = x.shape.rank
    per_axis: list[Any] = []
    new_axes: list[int] = []
    pos = 0
    for q in items:
        if q is Ellipsis:
            for _ in range(ndim - used):
                per_axis.append(slice(None))
                pos += 1
            continue
        if q is None or isinstance(q, bool):
            new_axes.append(pos)
            per_axis.append(slice(None) if q is None else tf.zeros([1 if q else 0], D.I64))
            pos += 1
            continue
        if isinstance(q, _TENSORS) and q.dtype == D.BOOL:
            coords = tf.where(q)  # [count, rank]
            if q.shape.rank == 0:
                new_axes.append(pos)
                per_axis.append(tf.zeros([tf.shape(coords)[0]], D.I64))
                pos += 1
            for j in range(q.shape.rank):
                per_axis.append(coords[:, j])
                pos += 1
            continue
        per_axis.append(q)
        pos += 1
    while len(per_axis) - len(new_axes) < ndim:  # axes the query leaves out: whole
        per_axis.append(slice(None))
    for a in new_axes:
        x = tf.expand_dims(x, a)
    # slices first, keeping every axis; then the array / int indices together
    x = x[tuple(q if type(q) is slice else slice(None) for q in per_axis)]
    adv = [a for a, q in enumerate(per_axis) if type(q) is not slice]
    if not adv:
        return x
    idx = []
    for a in adv:
        q = per_axis[a]
        q = tensor(q) if not isinstance(q, _TENSORS) else q
        if q.dtype not in D.INTS:  # a cast would truncate floats silently
            check_integer_indices(False, q.dtype, "get_item")
        q = tf.cast(q, D.I64)
        n = tf.shape(x, out_type=D.I64)[a]
        idx.append(tf.where(q < 0, q + n, q))
    shape = idx[0].shape
    for i in idx[1:]:
        shape = tf.broadcast_static_shape(shape, i.shape)
    idx = [i if i.shape == shape else tf.broadcast_to(i, shape) for i in idx]
    rest = [a for a in range(x.shape.rank) if a not in adv]
    moved = tf.transpose(x, adv + rest) if adv + rest != list(range(x.shape.rank)) else x
    out = tf.gather_nd(moved, tf.stack(idx, -1))  # shape: broadcast + the remaining axes
    contiguous = adv == list(range(adv[0], adv[0] + len(adv)))
    if contiguous and adv[0] > 0:  # NumPy: adjacent advanced indices stay in place
        b = shape.rank
        perm = list(range(b, b + adv[0])) + list(range(b)) + list(range(b + adv[0], out.shape.rank))
        out = tf.transpose(out, perm)
    return out


def _slice_spec(query: Any) -> tuple[list[int], list[int], list[int], int, int, int, int] | None:
    """``(begin, end, strides, begin_mask, end_mask, ellipsis_mask, shrink_axis_mask)`` of a query
    of Python ints, slices of Python ints and at most one ``...`` (TF's strided-slice form of it),
    or None for any other query."""
    items = query if type(query) is tuple else (query,)
    begin: list[int] = []
    end: list[int] = []
    strides: list[int] = []
    masks = [0, 0, 0, 0]  # begin, end, ellipsis, shrink
    for i, q in enumerate(items):
        bit = 1 << i
        if q is Ellipsis:
            if masks[2]:
                return None
            masks[2] |= bit
            b, e, st = 0, 0, 1
        elif type(q) is int:
            masks[3] |= bit  # (the end is unused for a shrunk axis, -1 included)
            b, e, st = q, q + 1, 1
        elif type(q) is slice and all(type(v) is int or v is None for v in (q.start, q.stop, q.step)):
            if q.step == 0:
                return None
            masks[0] |= bit if q.start is None else 0
            masks[1] |= bit if q.stop is None else 0
            b, e, st = q.start or 0, q.stop or 0, q.step or 1
        else:
            return None
        begin.append(b)
        end.append(e)
        strides.append(st)
    return (begin, end, strides, *masks)  # type: ignore[return-value]


def set_item(x: Any, query: Any, val: Any, /) -> Any:
    x = tensor(x) if not isinstance(x, _TENSORS) else x
    if isinstance(x, tf.Variable):
        x = x.read_value()
    v = tensor(val) if not isinstance(val, _TENSORS) else val
    if v.dtype != x.dtype:
        v = astype(v, x.dtype, copy=False)
    spec = _slice_spec(query)
    if spec is not None:
        # ints and slices: TF's strided-slice update writes just the part, and its gradient is
        # the part's (the general path below builds and scatters flat indices of all of x: a
        # loop of 48 such updates of one row ran 7x slower than kornia's own on torch)
        target = get_item(x, query)  # (the query's checks, and the shape the value fills)
        begin, end, strides, bm, em, ellipsis, shrink = spec
        return tf.raw_ops.TensorStridedSliceUpdate(
            input=x,
            begin=begin,
            end=end,
            strides=strides,
            value=tf.broadcast_to(v, tf.shape(target)),
            begin_mask=bm,
            end_mask=em,
            ellipsis_mask=ellipsis,
            new_axis_mask=0,
            shrink_axis_mask=shrink,
        )
    # the positions x[query] selects, as flat indices, then one scatter (differentiable in x and val)
    shape = tf.shape(x, out_type=D.I64)
    pos = get_item(tf.reshape(tf.range(tf.size(x, out_type=D.I64)), shape), query)
    v = tf.broadcast_to(v, tf.shape(pos))
    flat = tf.tensor_scatter_nd_update(tf.reshape(x, [-1]), tf.reshape(pos, [-1, 1]), tf.reshape(v, [-1]))
    return tf.reshape(flat, shape)


def inplace_update(x: Any, val: Any, /) -> Any:
    if not isinstance(x, tf.Variable):
        raise TypeError(
            "inplace_update: TensorFlow tensors are immutable; only a tf.Variable (see ivy.variable) "
            f"can be updated in place, got {type(x).__name__}"
        )
    v = tensor(val) if not isinstance(val, _TENSORS) else val
    if v.dtype != x.dtype:
        v = astype(v, x.dtype, copy=False)
    if v.shape != x.shape:
        v = tf.broadcast_to(v, x.shape)
    x.assign(v)
    return x


# ------------------------------------------------------------------------------------ reshaping

cast = astype


def transpose(x: Any, /, axes: Sequence[int] | None = None) -> Any:
    nd = x.shape.rank
    perm = tuple(range(nd - 1, -1, -1)) if axes is None else tuple(int(a) for a in axes)
    return ga.transpose(x, ints(perm))  # a cached permutation constant: the fast conversion


def flatten(x: Any, /, *, start_dim: int = 0, end_dim: int = -1) -> Any:
    nd = x.shape.rank
    if nd == 0:
        return tf.reshape(x, [1])
    s, e = axis_index(start_dim, nd, "flatten", "start_dim"), axis_index(end_dim, nd, "flatten", "end_dim")
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {nd} dims")
    dims = x.shape.as_list()
    if None in dims:
        return _compose("flatten")(x, start_dim=start_dim, end_dim=end_dim)
    mid = 1
    for d in dims[s : e + 1]:
        mid *= d
    return ga.reshape(x, ints((*dims[:s], mid, *dims[e + 1 :])))


def split(
    x: Any,
    /,
    num_or_size_splits: int | Sequence[int] | None = None,
    *,
    axis: int = 0,
    with_remainder: bool = False,
) -> list[Any]:
    n = int(x.shape[axis])
    if num_or_size_splits is None:
        sizes: Any = n  # tf.split with an int: that many equal pieces
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
            sizes = k
    else:
        sizes = [int(s) for s in num_or_size_splits]
        if sum(sizes) != n:
            raise ValueError(f"split: sizes {sizes} do not add up to the axis length {n}")
    return list(tf.split(x, sizes, axis))


_PAD_MODES = {"constant": "CONSTANT", "reflect": "REFLECT", "symmetric": "SYMMETRIC"}


def pad(
    x: Any,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: str = "constant",
    value: complex = 0,
) -> Any:
    tfmode = _PAD_MODES.get(mode)
    edge = trailing_pads(x.shape, pad_width, mode) if mode == "edge" else None
    if edge is not None and all(max(w) <= 1 for w in edge[0]) and None not in x.shape:
        tfmode = "SYMMETRIC"  # one element mirrored with the edge repeated is the edge (3x3 filters)
    if tfmode is None:  # edge / wrap: TF has neither (and unknown modes get the composition's error)
        return _compose("pad")(x, pad_width, mode=mode, value=value)
    nd = x.shape.rank
    if isinstance(pad_width, int):
        widths = [(pad_width, pad_width)] * nd
    else:
        pw: Sequence[Any] = pad_width  # pairs, or one flat pair: told apart here
        widths = [tuple(pw)] * nd if len(pw) and isinstance(pw[0], int) else [tuple(w) for w in pw]
    if len(widths) != nd:
        raise ValueError(f"pad: pad_width has {len(widths)} entries for an array of {nd} dims")
    for axis, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise ValueError(f"pad: negative pad width {(lo, hi)} on axis {axis}")
        if tfmode != "CONSTANT":
            # TF mirrors only within the axis (reflect: < n, symmetric: <= n); longer: composed
            limit = int(x.shape[axis]) - (1 if tfmode == "REFLECT" else 0)
            if max(lo, hi) > limit:
                return _compose("pad")(x, pad_width, mode=mode, value=value)
    paddings = [list(w) for w in widths]
    if tfmode == "CONSTANT":
        dt = x.dtype
        fill = tf.constant(np.asarray(value).astype(dt.as_numpy_dtype)) if value != 0 or dt == D.BOOL else 0
        return tf.pad(x, paddings, constant_values=fill)
    return tf.pad(x, paddings, mode=tfmode)


# --------------------------------------------------------------------------------- cumulatives

_CUM_OK = frozenset({D.F32, D.F64, D.C64, D.C128, D.I8, D.I16, D.I32, D.I64, D.U8, D.U16, D.U32, D.U64})


def _cumulative(fn: Any, name: str, x: Any, axis: int, exclusive: bool, reverse: bool, dtype: Any) -> Any:
    dt = D.SUM_DTYPE.get(x.dtype, x.dtype) if dtype is None else D.native(dtype)
    if x.shape.rank == 0 or dt not in _CUM_OK:
        return _compose(name)(x, axis=axis, exclusive=exclusive, reverse=reverse, dtype=dtype)
    if x.dtype != dt:
        x = tf.cast(x, dt)
    a = norm_axis(axis, x.shape.rank)
    return fn(x, a, exclusive=exclusive, reverse=reverse)  # TF's exclusive / reverse are the spec's


def cumsum(x: Any, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None) -> Any:
    return _cumulative(gm.cumsum, "cumsum", x, axis, exclusive, reverse, dtype)


def cumprod(x: Any, /, axis: int = 0, *, exclusive: bool = False, reverse: bool = False, dtype: Any = None) -> Any:
    return _cumulative(gm.cumprod, "cumprod", x, axis, exclusive, reverse, dtype)


# ----------------------------------------------------------------------------------- searching


def _flip_order(x: Any) -> Any:
    """An order-reversing map of x (for the smallest k): -x for floats, ~x for integers (no overflow)."""
    return -x if x.dtype.is_floating else tf.bitwise.invert(x)


def top_k(x: Any, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Any, Any]:
    dt = x.dtype
    if dt == D.BOOL:
        v, i = top_k(tf.cast(x, D.U8), k, axis=axis, largest=largest, sorted=sorted)
        return tf.cast(v, D.BOOL), i
    if dt.is_complex:
        return _compose("top_k")(x, k, axis=axis, largest=largest, sorted=sorted)
    nd = x.shape.rank
    a = norm_axis(axis, nd)
    last = a == nd - 1
    xt = x if last else tf.experimental.numpy.moveaxis(x, a, -1)
    keys = xt if largest else _flip_order(xt)
    values, indices = gn.top_kv2(keys, k, sorted=sorted, index_type=D.I64)
    if not largest:
        values = ga.gather_v2(xt, indices, nd - 1, batch_dims=nd - 1)  # x's own values (also -0.0)
    if not last:
        values = tf.experimental.numpy.moveaxis(values, -1, a)
        indices = tf.experimental.numpy.moveaxis(indices, -1, a)
    return values, indices


# -------------------------------------------------------------------------------------- einsum

_EINSUM_OK = frozenset({D.F32, D.F64, D.C64, D.C128, D.I32, D.I64, tf.float16, tf.bfloat16})


def einsum(equation: str, /, *operands: Any) -> Any:
    ops = [tensor(o) for o in operands]
    dt = ops[0].dtype
    for o in ops[1:]:
        if o.dtype != dt:
            dt = D.promote(dt, o.dtype)  # TF wants one dtype: the standard's promotion first
    ops = [o if o.dtype == dt else tf.cast(o, dt) for o in ops]
    if dt in _EINSUM_OK:
        return tf.einsum(equation, *ops)
    # integers TF has no kernel for: int64 arithmetic wraps modulo 2**64, so narrowing back is exact
    if dt == D.BOOL:
        return tf.einsum(equation, *[tf.cast(o, D.I64) for o in ops]) != 0
    if dt == D.U64:
        return tf.bitcast(tf.einsum(equation, *[tf.bitcast(o, D.I64) for o in ops]), D.U64)
    return tf.cast(tf.einsum(equation, *[tf.cast(o, D.I64) for o in ops]), dt)


# ------------------------------------------------------------------------------- control flow


def _scalar_pred(p: Any, op: str, what: str) -> Any:
    if p.shape.num_elements() not in (None, 1):
        raise ValueError(f"{op}: {what} must be a boolean array of one element, got shape {tuple(p.shape)}")
    return tf.reshape(p, ())


def while_loop(cond_fn: Any, body_fn: Any, loop_vars: Sequence[Any], /) -> tuple[Any, ...]:
    # tf.while_loop: a Python loop when eager, one While op inside tf.function (differentiable)
    init = tuple(loop_vars)
    if not init:
        raise ValueError("while_loop: loop_vars must hold at least one array")
    out = tf.while_loop(
        lambda *c: _scalar_pred(cond_fn(*c), "while_loop", "cond_fn's result"),
        lambda *c: check_carry(c, body_fn(*c)),
        init,
    )
    return tuple(out)


def cond(pred: Any, true_fn: Any, false_fn: Any, operands: Sequence[Any], /) -> Any:
    ops = tuple(operands)
    return tf.cond(_scalar_pred(pred, "cond", "pred"), lambda: true_fn(*ops), lambda: false_fn(*ops))


def scan(f: Any, init: Any, xs: Any = None, /, *, length: int | None = None, reverse: bool = False) -> tuple[Any, Any]:
    # one tf.while_loop writing each y into a TensorArray (a Python loop when eager, one While op
    # inside tf.function; differentiable both ways). The first step runs before the loop: it
    # gives the structure, shapes and dtypes of y, which the TensorArrays need up front (so a
    # length that only the running graph knows must not be 0).
    if not callable(f):
        raise TypeError(f"scan: f must be a function, got {type(f).__name__}")
    n, leaves, structure = scan_inputs(xs, length)
    leaves = [tf.convert_to_tensor(a) for a in leaves]
    c_flat, c_structure = tree_flatten(init)
    init = tree_unflatten(c_structure, [tf.convert_to_tensor(a) for a in c_flat])
    steps: Any = n if n is not None else tf.shape(leaves[0])[0]

    def x_at(i: Any) -> Any:
        return None if structure is None else tree_unflatten(structure, [a[i] for a in leaves])

    if n == 0:  # no step: f on zero slices, for the shapes of the empty ys
        x0 = None if structure is None else tree_unflatten(structure, [tf.zeros(a.shape[1:], a.dtype) for a in leaves])
        _, y0 = scan_step(init, f(init, x0))
        y_flat, y_structure = tree_flatten(y0)
        empty = [None if y is None else tf.zeros((0, *y.shape), y.dtype) for y in y_flat]
        return init, tree_unflatten(y_structure, empty)
    first = steps - 1 if reverse else 0
    carry, y = scan_step(init, f(init, x_at(first)))
    y_flat, y_structure = tree_flatten(y)
    holes = [v is None for v in y_flat]  # (a None in y stays None in ys)
    arrays = [
        tf.TensorArray(v.dtype, size=steps, element_shape=v.shape).write(first, v) for v in y_flat if v is not None
    ]

    def body(k: Any, c: list[Any], tas: list[Any]) -> tuple[Any, list[Any], list[Any]]:
        i = steps - 1 - k if reverse else k
        new_c, new_y = scan_step(init, f(tree_unflatten(c_structure, list(c)), x_at(i)))
        got = [v for v in tree_flatten(new_y)[0] if v is not None]
        return k + 1, tree_flatten(new_c)[0], [ta.write(i, v) for ta, v in zip(tas, got)]

    _, c_out, arrays = tf.while_loop(
        lambda k, c, tas: k < steps, body, (tf.constant(1), tree_flatten(carry)[0], arrays)
    )
    done = iter(arrays)
    ys = [None if h else next(done).stack() for h in holes]
    return tree_unflatten(c_structure, list(c_out)), tree_unflatten(y_structure, ys)
