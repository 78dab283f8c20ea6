"""Order-preserving integer keys: TF's sort (top_k) mishandles NaN, so floats are sorted by keys."""

from __future__ import annotations

import math
from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_bitwise_ops as gb
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D

_FLIP = {D.I32: tf.constant(0x7FFFFFFF, D.I32), D.I64: tf.constant(0x7FFFFFFFFFFFFFFF, D.I64)}


def sort_key(x: Any) -> Any:
    """An integer tensor ordered like ``x`` with every NaN last and -0.0 equal to 0.0."""
    d = x.dtype
    if d in D.REALF:
        i = D.SAME_WIDTH_INT[d]
        canon = gm.select_v2(gm.is_nan(x), tf.constant(math.nan, d), gm.add_v2(x, tf.zeros((), d)))  # +0.0, one NaN
        k = ga.bitcast(canon, i)
        neg = gm.less(k, tf.zeros((), i))
        return gm.select_v2(neg, gb.bitwise_xor(k, _FLIP[i]), k)  # negative floats: reverse their order
    if d is D.BOOL:
        return gm.cast(x, D.U8)
    if d in D.COMPLEX:
        raise TypeError("ordering of complex numbers is unspecified; sort real() or imag()")
    return x


def argsort_keys(k: Any, axis: int, descending: bool) -> Any:
    """Stable argsort (TF's sort of integers keeps ties in order in both directions), int64."""
    return tf.argsort(k, axis=axis, direction="DESCENDING" if descending else "ASCENDING", stable=True)


def gather_along(x: Any, idx: Any, axis: int) -> Any:
    """``x`` gathered by same-shaped ``idx`` along ``axis`` (take_along_axis without broadcasting)."""
    n = x.shape.rank
    if axis == n - 1:
        return tf.gather(x, idx, batch_dims=n - 1)
    perm = [i for i in range(n) if i != axis] + [axis]
    inv = [0] * n
    for i, p in enumerate(perm):
        inv[p] = i
    return ga.transpose(tf.gather(ga.transpose(x, perm), ga.transpose(idx, perm), batch_dims=n - 1), inv)
