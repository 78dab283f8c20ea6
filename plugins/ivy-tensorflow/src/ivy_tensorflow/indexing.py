"""Indexing functions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from ivy.plugin_kit import check_integer_indices

from . import _dtypes as D
from ._helpers import norm_axis, tensor

__all__ = ["take", "take_along_axis"]


def wrap_negative(indices: Any, n: Any, op: str = "take") -> Any:
    """TF's gather rejects negative indices: count those in [-n, 0) from the end as the standard
    says. Any other index stays out of range, for the gather to refuse (a floor_mod would wrap
    it around silently)."""
    d = indices.dtype
    if d is not D.I64 and d is not D.I32:
        check_integer_indices(d in D.INTS, d, op)  # a cast would truncate floats silently
        indices = gm.cast(indices, D.I64)  # TF gathers with int32 / int64 indices only
    if d in D.UNSIGNED or not n:
        return indices
    return tf.where(gm.less(indices, 0), gm.add_v2(indices, gm.cast(n, indices.dtype)), indices)


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    x = tensor(x)
    indices = tensor(indices)
    n = x.shape.rank
    if axis is None:
        if n != 1:
            raise ValueError("take: axis may be None only for one-dimensional input")
        axis = 0
    axis = norm_axis(axis, n)
    d = indices.dtype
    if (d is D.I64 or d is D.I32) and "CPU" in x.device:
        # TF's CPU kernel checks every index: try it as it is (no wrapping ops on the common call)
        try:
            return ga.gather_v2(x, indices, axis)
        except tf.errors.InvalidArgumentError:
            pass  # a negative index, counted from the end below (one out of range raises there)
    size = x.shape[axis]
    if size is None:
        size = tf.shape(x, out_type=indices.dtype if indices.dtype in (D.I32, D.I64) else D.I64)[axis]
    return ga.gather_v2(x, wrap_negative(indices, size), axis)


def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    x = tensor(x)
    indices = tensor(indices)
    n = x.shape.rank
    if indices.shape.rank != n:
        raise ValueError("take_along_axis: indices must have the rank of x")
    axis = norm_axis(axis, n)
    xs, js = list(x.shape), list(indices.shape)
    batch = [max(a, b) if 1 in (a, b) else a for a, b in zip(xs, js)]
    for i, (a, b) in enumerate(zip(xs, js)):
        if i != axis and a != b and 1 not in (a, b):
            raise ValueError(f"take_along_axis: shapes {tuple(xs)} and {tuple(js)} do not broadcast")
    perm = [i for i in range(n) if i != axis] + [axis]
    xb = tf.broadcast_to(x, [batch[i] if i != axis else xs[i] for i in range(n)])
    jb = tf.broadcast_to(indices, [batch[i] if i != axis else js[i] for i in range(n)])
    # (the last axis needs no transposes; TF also logs a oneDNN "error" line on transposing integers)
    last = axis == n - 1
    xt = xb if last else tf.transpose(xb, perm)
    jt = jb if last else tf.transpose(jb, perm)
    jt = wrap_negative(jt, xs[axis], "take_along_axis")
    out = tf.gather(xt, jt, batch_dims=n - 1)  # gather along the last axis, matching batch dims
    if last:
        return out
    inv = [0] * n
    for i, p in enumerate(perm):
        inv[p] = i
    return tf.transpose(out, inv)
