"""Sorting functions (NaNs sort last; both directions are stable, like array-api-strict)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import ints, norm_axis
from ._sortkey import argsort_keys, gather_along, sort_key

__all__ = ["argsort", "sort"]

_DIR = {False: "ASCENDING", True: "DESCENDING"}


def _no_nan(x: Any) -> bool:
    """Eagerly: whether TF's own sort is exact here (it mishandles NaN). Traced: assume not."""
    if x.dtype not in D.REALF:
        return x.dtype is not D.BOOL
    if not tf.executing_eagerly():
        return False
    return not bool(gm._any(gm.is_nan(x), ints(tuple(range(x.shape.rank)))))


def argsort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    n = x.shape.rank
    if n == 0:
        return tf.zeros((), D.I64)
    axis = norm_axis(axis, n)
    # TF sorts with top_k, which keeps ties in index order in both directions (stable)
    k = x if _no_nan(x) else sort_key(x)
    return gm.cast(argsort_keys(k, axis, descending), D.I64)


def sort(x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Any:
    n = x.shape.rank
    if n == 0:
        return tf.identity(x)
    axis = norm_axis(axis, n)
    if _no_nan(x):
        return tf.sort(x, axis=axis, direction=_DIR[descending])
    if x.dtype is D.BOOL:
        return gm.cast(tf.sort(gm.cast(x, D.U8), axis=axis, direction=_DIR[descending]), D.BOOL)
    idx = argsort_keys(sort_key(x), axis, descending)  # NaNs last (first when descending)
    return gather_along(x, idx, axis)  # gather keeps -0.0 and NaN payloads
