"""Sorting functions (NaNs sort last; both directions are stable, like array-api-strict)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import norm_axis
from ._sortkey import argsort_keys, gather_along, sort_key

__all__ = ["argsort", "sort"]


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    n = x.shape.rank
    if n == 0:
        return tf.zeros((), D.I64)
    axis = norm_axis(axis, n)
    # descending: ties keep their order and NaNs come first, like array-api-strict
    return gm.cast(argsort_keys(sort_key(x), axis, descending), D.I64)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    n = x.shape.rank
    if n == 0:
        return tf.identity(x)
    axis = norm_axis(axis, n)
    d = x.dtype
    if d in D.INTS:
        return tf.sort(x, axis=axis, direction="DESCENDING" if descending else "ASCENDING")
    if d is D.BOOL:
        return gm.cast(tf.sort(gm.cast(x, D.U8), axis=axis, direction="DESCENDING" if descending else "ASCENDING"), D.BOOL)
    idx = argsort_keys(sort_key(x), axis, descending)
    return gather_along(x, idx, axis)  # gather keeps -0.0 and NaN payloads
