"""Set functions: sorted unique values (like array-api-strict); every NaN is its own value."""

from __future__ import annotations

from typing import Any, NamedTuple

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._sortkey import sort_key

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def _stable_argsort(k: Any) -> Any:
    return gm.cast(tf.argsort(k, stable=True), D.I64)


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """(values, first indices, inverse (flat), counts), values sorted ascending, NaNs last."""
    flat = ga.reshape(x, [-1])
    n = int(flat.shape[0])
    d = flat.dtype
    if n == 0:
        e = tf.zeros([0], D.I64)
        return flat, e, e, e
    if d in D.COMPLEX:  # lexicographic on (real, imag), like NumPy
        r = D.REAL_OF[d]
        re, im = gm.real(flat, Tout=r), gm.imag(flat, Tout=r)
        kre, kim = sort_key(re), sort_key(im)
        p1 = _stable_argsort(kim)
        perm = tf.gather(p1, _stable_argsort(tf.gather(kre, p1)))
        sre, sim = tf.gather(kre, perm), tf.gather(kim, perm)
        new = gm.logical_or(gm.not_equal(sre[1:], sre[:-1]), gm.not_equal(sim[1:], sim[:-1]))
        sv = tf.gather(flat, perm)
        nan = gm.logical_or(gm.is_nan(gm.real(sv, Tout=r)), gm.is_nan(gm.imag(sv, Tout=r)))
    else:
        k = sort_key(flat)
        perm = _stable_argsort(k)
        sk = tf.gather(k, perm)
        new = gm.not_equal(sk[1:], sk[:-1])
        sv = tf.gather(flat, perm)
        nan = gm.is_nan(sv) if d in D.REALF else None
    first = tf.concat([tf.ones([1], D.BOOL), new], 0)
    if nan is not None:
        first = gm.logical_or(first, nan)  # NaNs never compare equal: each is unique
    values = tf.boolean_mask(sv, first)
    indices = tf.boolean_mask(perm, first)  # stable sort: the first of a group occurs first in x
    group = gm.sub(tf.cumsum(gm.cast(first, D.I64)), tf.ones((), D.I64))
    inverse = tf.scatter_nd(perm[:, None], group, [n])
    starts = ga.reshape(ga.where(first), [-1])
    counts = gm.sub(tf.concat([starts[1:], tf.constant([n], D.I64)], 0), starts)
    return values, indices, inverse, counts


def unique_all(x: Any, /) -> UniqueAllResult:
    v, i, inv, c = _unique(x)
    return UniqueAllResult(v, i, ga.reshape(inv, tf.shape(x)), c)


def unique_counts(x: Any, /) -> UniqueCountsResult:
    v, _, _, c = _unique(x)
    return UniqueCountsResult(v, c)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    v, _, inv, _ = _unique(x)
    return UniqueInverseResult(v, ga.reshape(inv, tf.shape(x)))


def unique_values(x: Any, /) -> Any:
    return _unique(x)[0]
